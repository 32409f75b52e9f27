import {
  A_BOLD,
  A_INVERSE,
  paletteColor,
  underlineStyle,
} from "../../core/model/cell.ts";
import { assertEquals, cell, CSI, DCS, runCases, ST } from "./helpers.ts";

const grid = "abcde\r\nfghij\r\nklmno\r\npqrst";

runCases("rectangles", [
  {
    name: "DECFRA fills with a character in the current colours",
    cols: 5,
    rows: 4,
    input: `${grid}${CSI}31m${CSI}88;2;2;3;4$x`,
    screen: "abcde\nfXXXj\nkXXXo\npqrst",
    check: (t) => assertEquals(cell(t.term, 2, 1).fg, paletteColor(1)),
  },
  {
    name: "DECFRA with an invalid character is ignored",
    cols: 5,
    rows: 4,
    input: `${grid}${CSI}7;1;1;4;5$x`,
    screen: "abcde\nfghij\nklmno\npqrst",
  },
  {
    name: "DECFRA defaults cover the whole screen",
    cols: 3,
    rows: 2,
    input: `${CSI}46$x`,
    screen: "...\n...",
  },
  {
    name: "DECERA erases",
    cols: 5,
    rows: 4,
    input: `${grid}${CSI}2;2;3;4$z`,
    screen: "abcde\nf   j\nk   o\npqrst",
  },
  {
    name: "DECERA bottom/right beyond the screen are clamped",
    cols: 5,
    rows: 4,
    input: `${grid}${CSI}3;4;99;99$z`,
    screen: "abcde\nfghij\nklm\npqr",
  },
  {
    name: "DECSERA keeps protected cells",
    cols: 5,
    rows: 2,
    input: `ab${CSI}1"qcd${CSI}0"qe${CSI}1;1;1;5${"$"}{`,
    screen: "  cd",
  },
  {
    name: "DECCRA copies a rectangle",
    cols: 5,
    rows: 4,
    input: `${grid}${CSI}1;1;2;2;1;3;4;1$v`,
    screen: "abcde\nfghij\nklmab\npqrfg",
  },
  {
    name: "DECCRA with overlap reads the source first",
    cols: 5,
    rows: 1,
    input: `abcde${CSI}1;1;1;4;1;1;2;1$v`,
    screen: "aabcd",
  },
  {
    name: "DECCRA cut at the screen edge",
    cols: 5,
    rows: 2,
    input: `abcde${CSI}1;1;1;5;1;2;4;1$v`,
    screen: "abcde\n   ab",
  },
  {
    name: "DECCARA in stream mode (default) covers whole lines in between",
    cols: 5,
    rows: 3,
    input: `${grid}${CSI}1;4;2;2;1$r`,
    check: (t) => {
      assertEquals(cell(t.term, 2, 0).attr & A_BOLD, 0);
      assertEquals(cell(t.term, 3, 0).attr & A_BOLD, A_BOLD);
      assertEquals(cell(t.term, 0, 1).attr & A_BOLD, A_BOLD);
      assertEquals(cell(t.term, 2, 1).attr & A_BOLD, 0);
    },
  },
  {
    name: "DECCARA in rectangle mode (DECSACE 2)",
    cols: 5,
    rows: 3,
    input: `${grid}${CSI}2*x${CSI}1;2;2;3;4;7$r`,
    check: (t) => {
      assertEquals(cell(t.term, 0, 1).attr, 0);
      assertEquals(cell(t.term, 1, 1).attr & A_INVERSE, A_INVERSE);
      assertEquals(underlineStyle(cell(t.term, 2, 0).attr), 1);
      assertEquals(cell(t.term, 3, 0).attr, 0);
    },
  },
  {
    name: "DECCARA 0 clears attributes",
    cols: 5,
    rows: 1,
    input: `${CSI}1;7mabc${CSI}2*x${CSI}1;1;1;2;0$r`,
    check: (t) => {
      assertEquals(cell(t.term, 0, 0).attr, 0);
      assertEquals(cell(t.term, 2, 0).attr, A_BOLD | A_INVERSE);
    },
  },
  {
    name: "DECRARA toggles attributes",
    cols: 5,
    rows: 1,
    input: `${CSI}7mab${CSI}mcd${CSI}2*x${CSI}1;1;1;4;7$t`,
    check: (t) => {
      assertEquals(cell(t.term, 0, 0).attr & A_INVERSE, 0);
      assertEquals(cell(t.term, 3, 0).attr & A_INVERSE, A_INVERSE);
    },
  },
  {
    name: "DECRQCRA of one cell is its code point",
    cols: 5,
    rows: 4,
    input: `${grid}${CSI}7;1;1;2;1;2*y`,
    replies: [`${DCS}7!~0062${ST}`],
  },
  {
    name: "DECRQCRA sums, blanks count as spaces",
    cols: 5,
    rows: 2,
    input: `ab${CSI}1;1;1;1;1;3*y`,
    replies: [`${DCS}1!~00E3${ST}`],
  },
  {
    name: "DECRQCRA of the whole screen by default",
    cols: 2,
    rows: 1,
    input: `AB${CSI}3*y`,
    replies: [`${DCS}3!~0083${ST}`],
  },
  {
    name: "rectangles are relative to the margins in origin mode",
    cols: 5,
    rows: 4,
    input: `${grid}${CSI}2;3r${CSI}?6h${CSI}1;1;1;1$z`,
    screen: "abcde\n ghij\nklmno\npqrst",
  },
]);
