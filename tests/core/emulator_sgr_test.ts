import {
  A_BLINK,
  A_BOLD,
  A_FAINT,
  A_INVERSE,
  A_INVISIBLE,
  A_ITALIC,
  A_OVERLINE,
  A_STRIKE,
  A_UNDERLINE_MASK,
  extId,
  paletteColor,
  rgbColor,
  underlineStyle,
} from "../../core/model/cell.ts";
import {
  assertEquals,
  cell,
  CSI,
  runCases,
  type TestTerminal,
} from "./helpers.ts";

/** Attribute bits of cell 0 after `sgr` (printed as `CSI sgr m x`). */
interface SgrCase {
  sgr: string;
  flags?: number;
  underline?: number;
  fg?: number;
  bg?: number;
  underlineColor?: number;
}

const STYLE_MASK = 0x7fff & ~(1 << 11 | 1 << 12 | 1 << 13);

const table: SgrCase[] = [
  { sgr: "1", flags: A_BOLD },
  { sgr: "2", flags: A_FAINT },
  { sgr: "3", flags: A_ITALIC },
  { sgr: "4", flags: 1 << 3, underline: 1 },
  { sgr: "4:0", flags: 0, underline: 0 },
  { sgr: "4:1", underline: 1 },
  { sgr: "4:2", underline: 2 },
  { sgr: "4:3", underline: 3 },
  { sgr: "4:4", underline: 4 },
  { sgr: "4:5", underline: 5 },
  { sgr: "4:3;4:0", underline: 0 },
  { sgr: "21", underline: 2 },
  { sgr: "4;24", underline: 0 },
  { sgr: "5", flags: A_BLINK },
  { sgr: "6", flags: A_BLINK },
  { sgr: "7", flags: A_INVERSE },
  { sgr: "8", flags: A_INVISIBLE },
  { sgr: "9", flags: A_STRIKE },
  { sgr: "53", flags: A_OVERLINE },
  { sgr: "53;55", flags: 0 },
  { sgr: "1;2;22", flags: 0 },
  { sgr: "3;23", flags: 0 },
  { sgr: "5;25", flags: 0 },
  { sgr: "7;27", flags: 0 },
  { sgr: "8;28", flags: 0 },
  { sgr: "9;29", flags: 0 },
  { sgr: "1;3;0", flags: 0 },
  { sgr: "1;3;", flags: 0 },
  { sgr: "1;999;3", flags: A_BOLD | A_ITALIC },
  { sgr: "31", fg: paletteColor(1) },
  { sgr: "37", fg: paletteColor(7) },
  { sgr: "91", fg: paletteColor(9) },
  { sgr: "97", fg: paletteColor(15) },
  { sgr: "41", bg: paletteColor(1) },
  { sgr: "107", bg: paletteColor(15) },
  { sgr: "31;39", fg: 0 },
  { sgr: "41;49", bg: 0 },
  { sgr: "38;5;196", fg: paletteColor(196) },
  { sgr: "38:5:100", fg: paletteColor(100) },
  { sgr: "38;2;1;2;3", fg: rgbColor(1, 2, 3) },
  { sgr: "38:2::10:20:30", fg: rgbColor(10, 20, 30) },
  { sgr: "38:2:10:20:30", fg: rgbColor(10, 20, 30) },
  { sgr: "38:2:0:10:20:30", fg: rgbColor(10, 20, 30) },
  { sgr: "38;2;300;2;3", fg: rgbColor(255, 2, 3) },
  { sgr: "38;5;256", fg: 0 },
  { sgr: "38;5;1;1", fg: paletteColor(1), flags: A_BOLD },
  { sgr: "38;2;1;2;3;4", fg: rgbColor(1, 2, 3), underline: 1 },
  { sgr: "48;5;17", bg: paletteColor(17) },
  { sgr: "48:5:17", bg: paletteColor(17) },
  { sgr: "48;2;9;8;7", bg: rgbColor(9, 8, 7) },
  { sgr: "48:2::9:8:7", bg: rgbColor(9, 8, 7) },
  { sgr: "4:3;31", underline: 3, fg: paletteColor(1) },
  { sgr: "58;5;1", underlineColor: paletteColor(1) },
  { sgr: "58:2::1:2:3", underlineColor: rgbColor(1, 2, 3) },
  { sgr: "58;2;1;2;3", underlineColor: rgbColor(1, 2, 3) },
  { sgr: "58:5:9;59", underlineColor: 0 },
  { sgr: "58;5;2;0", underlineColor: 0 },
];

function checkSgr(c: SgrCase) {
  return ({ term }: TestTerminal) => {
    const { fg, bg, attr } = cell(term, 0, 0);
    if (c.flags !== undefined) {
      const got = attr & STYLE_MASK &
        ~(c.underline === undefined ? 0 : A_UNDERLINE_MASK);
      assertEquals(
        got,
        c.flags & ~(c.underline === undefined ? 0 : A_UNDERLINE_MASK),
      );
    }
    if (c.underline !== undefined) {
      assertEquals(underlineStyle(attr), c.underline);
    }
    if (c.fg !== undefined) assertEquals(fg, c.fg);
    if (c.bg !== undefined) assertEquals(bg, c.bg);
    if (c.underlineColor !== undefined) {
      assertEquals(term.ext(extId(attr)).underlineColor, c.underlineColor);
      if (c.underlineColor === 0) assertEquals(extId(attr), 0);
    }
  };
}

runCases(
  "sgr",
  table.map((c) => ({
    name: `CSI ${c.sgr} m`,
    cols: 10,
    rows: 2,
    input: `${CSI}${c.sgr}mx`,
    check: checkSgr(c),
  })),
);

runCases("sgr state", [
  {
    name: "SGR applies to following text only",
    cols: 10,
    rows: 2,
    input: `a${CSI}1mb${CSI}mc`,
    check: ({ term }) => {
      assertEquals(cell(term, 0, 0).attr, 0);
      assertEquals(cell(term, 1, 0).attr, A_BOLD);
      assertEquals(cell(term, 2, 0).attr, 0);
    },
  },
  {
    name: "same underline colour shares one ext id",
    cols: 10,
    rows: 2,
    input: `${CSI}58;5;3ma${CSI}59mb${CSI}58;5;3mc`,
    check: ({ term }) => {
      const a = extId(cell(term, 0, 0).attr), c = extId(cell(term, 2, 0).attr);
      assertEquals(a, c);
      assertEquals(extId(cell(term, 1, 0).attr), 0);
    },
  },
]);
