/**
 * Emoji widths in both modes of DEC private mode 2027: reset (the default,
 * as xterm and `wcwidth`: each code point its own cells, zero-width ones
 * join the cell before) and set (grapheme clusters). Bytes in, cell texts,
 * widths and the cursor out; a vim-like redraw that positions its cursor
 * by `wcwidth`; DECRQM, the `graphemeClusters` option, RIS and snapshots.
 */
import { assert, assertEquals, assertThrows } from "../assert.ts";
import { CSI, ESC, screenLine, snapshot } from "./helpers.ts";
import { A_WIDE, A_WIDE_TAIL } from "../../core/model/cell.ts";
import {
  type GraphemeSetting,
  Terminal,
} from "../../core/emulator/terminal.ts";

const THUMB = "👍", MEDIUM = "\u{1f3fd}", HEART = "\u2764", VS16 = "\ufe0f";
const ZWJ = "\u200d";
const FAMILY = "👨" + ZWJ + "👩" + ZWJ + "👧" + ZWJ + "👦";
const RI_F = "\u{1f1eb}", RI_R = "\u{1f1f7}";

function term(
  cols: number,
  graphemeClusters?: GraphemeSetting,
  replies: string[] = [],
): Terminal {
  return new Terminal({
    cols,
    rows: 4,
    graphemeClusters,
    reply: (d) => replies.push(d),
  });
}

/** Cell texts of row `y`, "" for a wide tail (checked to be one), " " for a blank. */
function rowCells(t: Terminal, y: number, n: number): string[] {
  const l = screenLine(t, y);
  const out: string[] = [];
  for (let x = 0; x < n; x++) {
    const s = l.text(x);
    if (s === "") {
      assert((l.attr(x) & A_WIDE_TAIL) !== 0, `cell ${x},${y}: not a tail`);
      assert((l.attr(x - 1) & A_WIDE) !== 0, `cell ${x - 1},${y}: not wide`);
    }
    out.push(s);
  }
  return out;
}

interface WidthCase {
  name: string;
  cols?: number;
  input: string;
  /** Mode reset (wcwidth): cells of row 0 and the cursor column. */
  wcwidth: [string[], number];
  /** Mode 2027 set (grapheme clusters). */
  clusters: [string[], number];
}

const cases: WidthCase[] = [
  {
    name: "a skin tone: 2 + 2 cells, or one 2-cell cluster",
    input: THUMB + MEDIUM + "x",
    wcwidth: [[THUMB, "", MEDIUM, "", "x"], 5],
    clusters: [[THUMB + MEDIUM, "", "x"], 3],
  },
  {
    name:
      "a family ZWJ sequence: 8 cells (each ZWJ joins the cell before), or 2",
    input: FAMILY + "x",
    wcwidth: [
      ["👨" + ZWJ, "", "👩" + ZWJ, "", "👧" + ZWJ, "", "👦", "", "x"],
      9,
    ],
    clusters: [[FAMILY, "", "x"], 3],
  },
  {
    name: "❤️ (VS16): 1 cell, or 2",
    input: HEART + VS16 + "x",
    wcwidth: [[HEART + VS16, "x"], 2],
    clusters: [[HEART + VS16, "", "x"], 3],
  },
  {
    name: "a flag: two narrow regional indicators, or one 2-cell flag",
    input: RI_F + RI_R + "x",
    wcwidth: [[RI_F, RI_R, "x"], 3],
    clusters: [[RI_F + RI_R, "", "x"], 3],
  },
  {
    name: "combining marks join in both: U+0321, U+20DD, U+20E3",
    input: "a\u0321b\u20ddc\u20e3",
    wcwidth: [["a\u0321", "b\u20dd", "c\u20e3"], 3],
    clusters: [["a\u0321", "b\u20dd", "c\u20e3"], 3],
  },
  {
    name: "keycap 1️⃣: 1 cell, or 2",
    input: "1" + VS16 + "\u20e3x",
    wcwidth: [["1" + VS16 + "\u20e3", "x"], 2],
    clusters: [["1" + VS16 + "\u20e3", "", "x"], 3],
  },
  {
    name: "a skin tone that does not fit wraps on its own",
    cols: 5,
    input: "ab" + THUMB + MEDIUM,
    wcwidth: [["a", "b", THUMB, "", " "], 2],
    clusters: [["a", "b", THUMB + MEDIUM, "", " "], 4],
  },
];

for (const c of cases) {
  for (const graphemes of [false, true]) {
    const mode = graphemes ? "mode 2027 set" : "wcwidth (default)";
    Deno.test(`widths (${mode}): ${c.name}`, () => {
      const t = term(c.cols ?? 12);
      // Set by the program, or left at the default.
      t.write((graphemes ? `${CSI}?2027h` : "") + c.input);
      const [cells, x] = graphemes ? c.clusters : c.wcwidth;
      assertEquals(rowCells(t, 0, cells.length), cells);
      assertEquals(t.cursorX, x, "cursor column");
      // The same through the option, one code point per write.
      const u = term(c.cols ?? 12, graphemes ? "on" : "off");
      for (const ch of c.input) u.write(ch);
      assertEquals(snapshot(u), snapshot(t), "one code point at a time");
    });
  }
}

Deno.test("widths: the wrapped skin tone goes to the next row in wcwidth mode", () => {
  const t = term(5);
  t.write("ab" + THUMB + MEDIUM);
  assertEquals(rowCells(t, 1, 3), [MEDIUM, "", " "]);
  assertEquals([t.cursorX, t.cursorY], [2, 1]);
});

/**
 * vim redraws a line of emoji and moves its cursor by the columns
 * `wcwidth` gives (CUP to the column after each character, then writes
 * there): the cells it writes must be where it thinks they are.
 */
Deno.test("widths: vim-like cursor movement over a line of emoji (wcwidth)", () => {
  const line = [THUMB + MEDIUM, FAMILY, HEART + VS16, RI_F + RI_R, "x"];
  // wcwidth's columns: 4, 8, 1, 2, 1.
  const starts = [0, 4, 12, 13, 15];
  const t = term(40);
  t.write(line.join(""));
  assertEquals(t.cursorX, 16);
  // Put the cursor on each character's first column and mark the column
  // after the line: as vim does for `l` and `$`.
  for (const [i, x] of starts.entries()) {
    t.write(`${CSI}1;${x + 1}H`);
    assertEquals(t.cursorX, x, `character ${i}`);
    assertEquals(
      screenLine(t, 0).text(x).codePointAt(0),
      line[i].codePointAt(0),
      `the cell at column ${x} holds character ${i}`,
    );
  }
  // vim overwrites the x (its column 15) with a y: nothing else moves.
  t.write(`${CSI}1;16Hy`);
  assertEquals(
    screenLine(t, 0).toString(true),
    line.slice(0, 4).join("") + "y",
  );
  assertEquals(t.cursorX, 16);
  // Backspacing over the 👍🏽 takes 4 BS, as vim counts it.
  t.write(`${CSI}1;5H\b\b\b\b`);
  assertEquals(t.cursorX, 0);
});

Deno.test("widths: cursor movement over a line of emoji (mode 2027, clusters)", () => {
  const line = [THUMB + MEDIUM, FAMILY, HEART + VS16, RI_F + RI_R, "x"];
  const starts = [0, 2, 4, 6, 8];
  const t = term(40);
  t.write(`${CSI}?2027h` + line.join(""));
  assertEquals(t.cursorX, 9);
  for (const [i, x] of starts.entries()) {
    t.write(`${CSI}1;${x + 1}H`);
    assertEquals(screenLine(t, 0).text(x), line[i], `character ${i}`);
  }
  t.write(`${CSI}1;9Hy`);
  assertEquals(
    screenLine(t, 0).toString(true),
    line.slice(0, 4).join("") + "y",
  );
});

Deno.test("widths: DECRQM 2027 reports the mode, permanently when the setting fixes it", () => {
  const cases: [GraphemeSetting | undefined, string, string, string][] = [
    // setting, after nothing, after CSI ? 2027 h, after CSI ? 2027 l
    [undefined, "2", "1", "2"],
    ["off", "2", "1", "2"],
    ["on", "1", "1", "2"],
    ["always", "3", "3", "3"],
    ["never", "4", "4", "4"],
  ];
  for (const [setting, initial, set, reset] of cases) {
    const replies: string[] = [];
    const t = term(10, setting, replies);
    t.write(`${CSI}?2027$p${CSI}?2027h${CSI}?2027$p${CSI}?2027l${CSI}?2027$p`);
    assertEquals(
      replies,
      [initial, set, reset].map((v) => `${CSI}?2027;${v}$y`),
      `setting ${setting}`,
    );
    // Fixed settings also fix the widths.
    if (setting === "always" || setting === "never") {
      t.write(`${CSI}?2027h\r` + THUMB + MEDIUM);
      assertEquals(t.cursorX, setting === "always" ? 2 : 4);
    }
  }
});

Deno.test("widths: RIS puts mode 2027 back to the setting", () => {
  for (const [setting, after] of [["off", 4], ["on", 2]] as const) {
    const t = term(10, setting);
    t.write(`${CSI}?2027${setting === "off" ? "h" : "l"}${ESC}c`);
    t.write(THUMB + MEDIUM);
    assertEquals(t.cursorX, after, `setting ${setting}`);
    assertEquals(t.modes.graphemeSetting, setting === "off" ? 0 : 1);
  }
});

Deno.test("widths: a snapshot carries mode 2027 and the setting; an old one reads as the default", () => {
  const t = term(10, "on");
  t.write(`${CSI}?2027l`);
  const snap = t.snapshot();
  const u = Terminal.restore(JSON.parse(JSON.stringify(snap)));
  assertEquals(u.modes.graphemes, false);
  assertEquals(u.modes.graphemeSetting, 1);
  // RIS in the restored terminal goes back to the setting of the original.
  u.write(`${ESC}c` + THUMB + MEDIUM);
  assertEquals(u.cursorX, 2);
  // A snapshot made before mode 2027 existed: no such fields.
  const old = JSON.parse(JSON.stringify(snap));
  delete old.modes.graphemes;
  delete old.modes.graphemeSetting;
  const v = Terminal.restore(old);
  assertEquals([v.modes.graphemes, v.modes.graphemeSetting], [false, 0]);
  // A page's terminal that loads the snapshot agrees with the server's.
  const page = term(10, "off");
  page.load(snap);
  page.write(`${ESC}c` + THUMB + MEDIUM);
  assertEquals(page.cursorX, 2);
  const bad = JSON.parse(JSON.stringify(snap));
  bad.modes.graphemeSetting = 7;
  assertThrows(() => Terminal.restore(bad), Error);
});
