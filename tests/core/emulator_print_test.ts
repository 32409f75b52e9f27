import { assert, assertEquals } from "./helpers.ts";
import {
  A_CLUSTER,
  A_WIDE,
  A_WIDE_TAIL,
  paletteColor,
} from "../../core/model/cell.ts";
import { cell, CSI, ESC, runCases, screenLine } from "./helpers.ts";

const wide = (a: number) => (a & A_WIDE) !== 0;
const tail = (a: number) => (a & A_WIDE_TAIL) !== 0;

runCases("print", [
  {
    name: "plain text",
    cols: 10,
    rows: 5,
    input: "abc",
    screen: "abc",
    cursor: [3, 0],
  },
  {
    name: "last column sets the pending-wrap flag",
    cols: 10,
    rows: 5,
    input: "0123456789",
    screen: "0123456789",
    cursor: [9, 0],
    check: ({ term }) => assert(term.wrapPending),
  },
  {
    name: "next printable wraps and marks the line",
    cols: 10,
    rows: 5,
    input: "0123456789a",
    screen: "0123456789\na",
    cursor: [1, 1],
    check: ({ term }) => {
      assert(screenLine(term, 0).wrapped);
      assert(!screenLine(term, 1).wrapped);
    },
  },
  {
    name: "CR clears the pending wrap",
    cols: 10,
    rows: 5,
    input: "0123456789\rX",
    screen: "X123456789",
    cursor: [1, 0],
  },
  {
    name: "hard newline does not mark wrapped",
    cols: 10,
    rows: 5,
    input: "abc\r\ndef",
    check: ({ term }) => assert(!screenLine(term, 0).wrapped),
  },
  {
    name: "DECAWM off: the last column is overwritten",
    cols: 10,
    rows: 5,
    input: `${CSI}?7l0123456789abc`,
    screen: "012345678c",
    cursor: [9, 0],
    check: ({ term }) => assert(!term.wrapPending),
  },
  {
    name: "DECAWM off for a non-ASCII run",
    cols: 5,
    rows: 2,
    input: `${CSI}?7léééééèà`,
    screen: "ééééà",
    cursor: [4, 0],
  },
  {
    name: "wrap at the bottom scrolls into history",
    cols: 10,
    rows: 2,
    input: "0123456789abcdefghijXY",
    screen: "abcdefghij\nXY",
    history: ["0123456789"],
    cursor: [2, 1],
  },
  {
    name: "wide character takes two cells",
    cols: 10,
    rows: 5,
    input: "字a",
    screen: "字a",
    cursor: [3, 0],
    check: ({ term }) => {
      assert(wide(cell(term, 0, 0).attr));
      assert(tail(cell(term, 1, 0).attr));
      assertEquals(cell(term, 1, 0).code, 0);
    },
  },
  {
    name: "wide character at the last column wraps first",
    cols: 10,
    rows: 5,
    input: "012345678字",
    screen: "012345678\n字",
    cursor: [2, 1],
    check: ({ term }) => assert(screenLine(term, 0).wrapped),
  },
  {
    name: "wide character fits exactly at the end",
    cols: 10,
    rows: 5,
    input: "01234567字",
    screen: "01234567字",
    cursor: [9, 0],
    check: ({ term }) => assert(term.wrapPending),
  },
  {
    name: "wide character with DECAWM off at the last column",
    cols: 10,
    rows: 5,
    input: `${CSI}?7l012345678字`,
    screen: "01234567字",
    cursor: [9, 0],
  },
  {
    name: "overwriting the head of a wide char blanks its tail",
    cols: 10,
    rows: 5,
    input: "字\ra",
    screen: "a",
    check: ({ term }) => {
      assertEquals(cell(term, 1, 0).attr, 0);
      assert(!wide(cell(term, 0, 0).attr));
    },
  },
  {
    name: "overwriting the tail of a wide char blanks its head",
    cols: 10,
    rows: 5,
    input: `字${CSI}2Gb`,
    screen: " b",
    check: ({ term }) => assertEquals(cell(term, 0, 0).attr, 0),
  },
  {
    name: "wide char over half of another wide char",
    cols: 10,
    rows: 5,
    input: `字字${CSI}2G中`,
    screen: " 中",
    check: ({ term }) => {
      assert(wide(cell(term, 1, 0).attr));
      assert(tail(cell(term, 2, 0).attr));
      assertEquals(cell(term, 3, 0).attr, 0);
    },
  },
  {
    name: "combining mark joins the previous cell",
    cols: 10,
    rows: 5,
    input: "e\u0301x",
    screen: "e\u0301x",
    cursor: [2, 0],
    check: ({ term }) => {
      assertEquals(cell(term, 0, 0).text, "e\u0301");
      assert((cell(term, 0, 0).attr & A_CLUSTER) !== 0);
    },
  },
  {
    name: "combining mark after a wide character",
    cols: 10,
    rows: 5,
    input: "字\u0301",
    cursor: [2, 0],
    check: ({ term }) => assertEquals(cell(term, 0, 0).text, "字\u0301"),
  },
  {
    name: "combining mark at the pending-wrap position",
    cols: 10,
    rows: 5,
    input: "012345678e\u0301",
    cursor: [9, 0],
    check: ({ term }) => {
      assertEquals(cell(term, 9, 0).text, "e\u0301");
      assert(term.wrapPending);
    },
  },
  {
    name: "combining mark at column 0 is dropped",
    cols: 10,
    rows: 5,
    input: "\u0301a",
    screen: "a",
  },
  {
    name: "ZWJ emoji sequence is one wide cluster (mode 2027)",
    cols: 10,
    rows: 5,
    input: "\x1b[?2027h👨\u200d👩\u200d👧x",
    cursor: [3, 0],
    check: ({ term }) => {
      assertEquals(cell(term, 0, 0).text, "👨\u200d👩\u200d👧");
      assert(wide(cell(term, 0, 0).attr));
      assertEquals(cell(term, 2, 0).text, "x");
    },
  },
  {
    name:
      "VS16 joins the previous cell (and widens a text-default emoji, mode 2027)",
    cols: 10,
    rows: 5,
    input: "\x1b[?2027h❤\ufe0fa",
    cursor: [3, 0],
    check: ({ term }) => assertEquals(cell(term, 0, 0).text, "❤\ufe0f"),
  },
  {
    name: "Hangul jamo: medial vowel joins the leading consonant",
    cols: 10,
    rows: 5,
    input: "\u1100\u1161",
    cursor: [2, 0],
    check: ({ term }) => assertEquals(cell(term, 0, 0).text, "\u1100\u1161"),
  },
  {
    name: "cluster text is cleared when the cell is overwritten",
    cols: 10,
    rows: 5,
    input: "e\u0301\rz",
    screen: "z",
    check: ({ term }) =>
      assertEquals(screenLine(term, 0).clusters?.size ?? 0, 0),
  },
  {
    name: "REP repeats the last character",
    cols: 10,
    rows: 5,
    input: `a${CSI}3b`,
    screen: "aaaa",
    cursor: [4, 0],
  },
  {
    name: "REP with default count",
    cols: 10,
    rows: 5,
    input: `x${CSI}b`,
    screen: "xx",
  },
  {
    name: "REP of a wide character wraps",
    cols: 5,
    rows: 5,
    input: `字${CSI}2b`,
    screen: "字字\n字",
  },
  {
    name: "REP keeps the colour of the pen",
    cols: 10,
    rows: 5,
    input: `${CSI}31ma${CSI}2b`,
    check: ({ term }) => assertEquals(cell(term, 2, 0).fg, paletteColor(1)),
  },
  {
    name: "REP with nothing printed does nothing",
    cols: 10,
    rows: 5,
    input: `${CSI}5b`,
    screen: "",
    cursor: [0, 0],
  },
  {
    name: "IRM inserts",
    cols: 10,
    rows: 5,
    input: `abcdef\r${CSI}4hXY`,
    screen: "XYabcdef",
    cursor: [2, 0],
  },
  {
    name: "IRM pushes characters off the end",
    cols: 10,
    rows: 5,
    input: `0123456789\r${CSI}4hX`,
    screen: "X012345678",
  },
  {
    name: "IRM with a wide character",
    cols: 10,
    rows: 5,
    input: `abc\r${CSI}4h字`,
    screen: "字abc",
  },
  {
    name: "IRM reset",
    cols: 10,
    rows: 5,
    input: `abc\r${CSI}4h${CSI}4lX`,
    screen: "Xbc",
  },
  {
    name: "DEC special graphics in G0",
    cols: 10,
    rows: 5,
    input: `${ESC}(0lqk${ESC}(Ba`,
    screen: "┌─┐a",
  },
  {
    name: "SO / SI shift between G1 and G0",
    cols: 10,
    rows: 5,
    input: `${ESC})0\x0eq\x0fq`,
    screen: "─q",
  },
  {
    name: "SS2 applies G2 to one character",
    cols: 10,
    rows: 5,
    input: `${ESC}*0${ESC}Nqq`,
    screen: "─q",
  },
  {
    name: "SS3 applies G3 to one character",
    cols: 10,
    rows: 5,
    input: `${ESC}+0${ESC}Oxx`,
    screen: "│x",
  },
  {
    name: "LS2 / LS3 lock G2 / G3 into GL",
    cols: 10,
    rows: 5,
    input: `${ESC}*0${ESC}nj${ESC}+A${ESC}o#\x0fj`,
    screen: "┘£j",
  },
  {
    name: "UK charset",
    cols: 10,
    rows: 5,
    input: `${ESC}(A#1`,
    screen: "£1",
  },
  {
    name: "unknown charset designation is ignored",
    cols: 10,
    rows: 5,
    input: `${ESC}(0${ESC}(Zq`,
    screen: "─",
  },
  {
    name: "ESC % G (UTF-8) is accepted",
    cols: 10,
    rows: 5,
    input: `${ESC}%Gé${ESC}%@`,
    screen: "é",
  },
  {
    name: "C1 NEL (U+0085) via execute",
    cols: 10,
    rows: 5,
    input: "ab\u0085c",
    screen: "ab\nc",
  },
  {
    name: "C1 IND (U+0084) keeps the column",
    cols: 10,
    rows: 5,
    input: "ab\u0084c",
    screen: "ab\n  c",
  },
  {
    name: "invalid UTF-8 prints U+FFFD",
    cols: 10,
    rows: 5,
    input: new Uint8Array([0x61, 0xff, 0x62]),
    screen: "a\ufffdb",
  },
  {
    name: "CAN and SUB in ground state print nothing",
    cols: 10,
    rows: 5,
    input: "a\x18b\x1ac",
    screen: "abc",
  },
  {
    name: "other C0 controls are ignored",
    cols: 10,
    rows: 5,
    input: "a\x00\x01\x05\x7fb",
    screen: "ab",
  },
  {
    name: "long ASCII run wraps over several lines",
    cols: 4,
    rows: 3,
    input: "abcdefghijkl",
    screen: "abcd\nefgh\nijkl",
    cursor: [3, 2],
  },
  {
    name: "ASCII run overwrites a wide char in the middle",
    cols: 10,
    rows: 5,
    input: `a字字b${CSI}3Gxy`,
    screen: "a xy b",
  },
]);
