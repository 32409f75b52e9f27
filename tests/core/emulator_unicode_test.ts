/**
 * Grapheme clusters and their widths: skin-tone modifiers, VS16 emoji
 * presentation, regional-indicator flags and ZWJ sequences, alone, at the
 * right margin and with wrapping. Each case lists the texts of the cells of
 * the first rows ("" for the tail of a wide cell, " " for a blank).
 */
import {
  assert,
  assertEquals,
  CSI,
  makeTerminal,
  runCases,
  screenLine,
  snapshot,
} from "./helpers.ts";
import { A_WIDE, A_WIDE_TAIL } from "../../core/model/cell.ts";
import type { Terminal } from "../../core/emulator/terminal.ts";

interface UnicodeCase {
  name: string;
  cols?: number;
  input: string;
  /** Cell texts per row, from column 0 (only as many as listed). */
  cells: string[][];
  cursor: [number, number];
  wrapPending?: boolean;
}

function rowCells(term: Terminal, y: number, n: number): string[] {
  const l = screenLine(term, y);
  const out: string[] = [];
  for (let x = 0; x < n; x++) {
    const t = l.text(x);
    const a = l.attr(x);
    // The text of a tail is "", and it must really be a tail of a wide head.
    if (t === "") {
      assert((a & A_WIDE_TAIL) !== 0, `cell ${x},${y} empty but not a tail`);
      assert((l.attr(x - 1) & A_WIDE) !== 0, `cell ${x - 1},${y} not wide`);
    }
    out.push(t);
  }
  return out;
}

const THUMB = "👍", LIGHT = "\u{1f3fb}", DARK = "\u{1f3ff}";
const HEART = "\u2764", VS16 = "\ufe0f", ZWJ = "\u200d", FIRE = "🔥";
const WHITE_FLAG = "\u{1f3f3}", RAINBOW = "🌈";
const RI_F = "\u{1f1eb}", RI_R = "\u{1f1f7}", RI_D = "\u{1f1e9}";
const KEYCAP = "\u20e3";

const cases: UnicodeCase[] = [
  // Skin-tone modifiers.
  {
    name: "skin tone joins its base: one 2-cell cluster",
    input: THUMB + LIGHT + "x",
    cells: [[THUMB + LIGHT, "", "x"]],
    cursor: [3, 0],
  },
  {
    name: "skin tone after a non-base stays a cell of its own (wide)",
    input: "a" + DARK,
    cells: [["a", DARK, ""]],
    cursor: [3, 0],
  },
  {
    name: "lone skin tone at column 0",
    input: LIGHT,
    cells: [[LIGHT, ""]],
    cursor: [2, 0],
  },
  {
    name: "skin tone then ZWJ sequence (👩🏽‍💻)",
    input: "👩\u{1f3fd}" + ZWJ + "💻x",
    cells: [["👩\u{1f3fd}" + ZWJ + "💻", "", "x"]],
    cursor: [3, 0],
  },
  {
    name: "skin tone joins a base at the margin (pending wrap)",
    cols: 4,
    input: "ab" + THUMB + LIGHT,
    cells: [["a", "b", THUMB + LIGHT, ""]],
    cursor: [3, 0],
    wrapPending: true,
  },
  {
    name: "skin tone joins a base that wrapped, then text wraps on",
    cols: 4,
    input: "abc" + THUMB + LIGHT + "xyz",
    cells: [["a", "b", "c", " "], [THUMB + LIGHT, "", "x", "y"], ["z"]],
    cursor: [1, 2],
  },
  // VS16.
  {
    name: "VS16 after a text-default emoji widens it",
    input: HEART + VS16 + "a",
    cells: [[HEART + VS16, "", "a"]],
    cursor: [3, 0],
  },
  {
    name: "VS15/none leaves ❤ narrow",
    input: HEART + "\ufe0ea",
    cells: [[HEART + "\ufe0e", "a"]],
    cursor: [2, 0],
  },
  {
    name: "VS16 after a letter (no emoji) stays narrow",
    input: "A" + VS16 + "b",
    cells: [["A" + VS16, "b"]],
    cursor: [2, 0],
  },
  {
    name: "VS16 after a wide emoji changes nothing",
    input: "😀" + VS16 + "b",
    cells: [["😀" + VS16, "", "b"]],
    cursor: [3, 0],
  },
  {
    name: "❤️‍🔥 is one 2-cell cluster",
    input: HEART + VS16 + ZWJ + FIRE + "a",
    cells: [[HEART + VS16 + ZWJ + FIRE, "", "a"]],
    cursor: [3, 0],
  },
  {
    name: "🏳️‍🌈 is one 2-cell cluster",
    input: WHITE_FLAG + VS16 + ZWJ + RAINBOW + "a",
    cells: [[WHITE_FLAG + VS16 + ZWJ + RAINBOW, "", "a"]],
    cursor: [3, 0],
  },
  {
    name: "keycap 1️⃣ is 2 cells",
    input: "1" + VS16 + KEYCAP + "a",
    cells: [["1" + VS16 + KEYCAP, "", "a"]],
    cursor: [3, 0],
  },
  {
    name: "keycap without VS16 stays 1 cell",
    input: "#" + KEYCAP + "a",
    cells: [["#" + KEYCAP, "a"]],
    cursor: [2, 0],
  },
  {
    name: "VS16 widening overwrites the next cell (replace mode)",
    input: "abc\r" + HEART + VS16,
    cells: [[HEART + VS16, "", "c"]],
    cursor: [2, 0],
  },
  {
    name: "VS16 widening in insert mode shifts the rest",
    input: `abc\r${CSI}4h` + HEART + VS16,
    cells: [[HEART + VS16, "", "a", "b", "c"]],
    cursor: [2, 0],
  },
  {
    name: "VS16 widening splits a wide character it half covers",
    input: "a字\r" + HEART + VS16,
    cells: [[HEART + VS16, "", " "]],
    cursor: [2, 0],
  },
  {
    name: "VS16 widening into the last column sets the pending wrap",
    cols: 4,
    input: "ab" + HEART + VS16,
    cells: [["a", "b", HEART + VS16, ""]],
    cursor: [3, 0],
    wrapPending: true,
  },
  {
    name: "VS16 in the last column: no room, the cluster stays 1 cell",
    cols: 4,
    input: "abc" + HEART + VS16 + "x",
    cells: [["a", "b", "c", HEART + VS16], ["x"]],
    cursor: [1, 1],
  },
  // Regional indicators.
  {
    name: "two regional indicators make one 2-cell flag",
    input: RI_F + RI_R + "a",
    cells: [[RI_F + RI_R, "", "a"]],
    cursor: [3, 0],
  },
  {
    name: "a lone regional indicator is 1 cell (wcwidth)",
    input: RI_F + "a",
    cells: [[RI_F, "a"]],
    cursor: [2, 0],
  },
  {
    name: "three regional indicators: a flag and a lone one",
    input: RI_F + RI_R + RI_D + "a",
    cells: [[RI_F + RI_R, "", RI_D, "a"]],
    cursor: [4, 0],
  },
  {
    name: "four regional indicators: two flags",
    input: RI_F + RI_R + RI_D + RI_F,
    cells: [[RI_F + RI_R, "", RI_D + RI_F, ""]],
    cursor: [4, 0],
  },
  {
    name: "flag pair ending at the margin",
    cols: 4,
    input: "ab" + RI_F + RI_R + "x",
    cells: [["a", "b", RI_F + RI_R, ""], ["x"]],
    cursor: [1, 1],
  },
  {
    name: "flag pair starting in the last column: joined, 1 cell",
    cols: 4,
    input: "abc" + RI_F + RI_R + "x",
    cells: [["a", "b", "c", RI_F + RI_R], ["x"]],
    cursor: [1, 1],
  },
  // ZWJ sequences and wrapping.
  {
    name: "ZWJ sequence takes the width of its first character",
    input: "👨" + ZWJ + "👩" + ZWJ + "👧x",
    cells: [["👨" + ZWJ + "👩" + ZWJ + "👧", "", "x"]],
    cursor: [3, 0],
  },
  {
    name: "ZWJ sequence after a narrow first character stays narrow",
    input: "👁" + ZWJ + "🗨x",
    cells: [["👁" + ZWJ + "🗨", "x"]],
    cursor: [2, 0],
  },
  {
    name: "ZWJ sequence wraps as a whole wide character",
    cols: 5,
    input: "abcd" + "👨" + ZWJ + "👩x",
    cells: [["a", "b", "c", "d", " "], ["👨" + ZWJ + "👩", "", "x"]],
    cursor: [3, 1],
  },
  {
    name: "mixed CJK, emoji and combining marks wrap cell by cell",
    cols: 5,
    input: "字e\u0301" + THUMB + LIGHT + "かa",
    cells: [["字", "", "e\u0301", THUMB + LIGHT, ""], ["か", "", "a"]],
    cursor: [3, 1],
  },
];

runCases(
  "unicode (mode 2027)",
  cases.map((c) => ({
    name: c.name,
    cols: c.cols ?? 10,
    rows: 4,
    // These are the rules of grapheme clusters (mode 2027).
    input: `${CSI}?2027h` + c.input,
    cursor: c.cursor,
    check: ({ term }) => {
      c.cells.forEach((want, y) =>
        assertEquals(rowCells(term, y, want.length), want, `row ${y}`)
      );
      assertEquals(term.wrapPending, c.wrapPending ?? false, "wrapPending");
    },
  })),
);

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  // Runs past MAX_CLUSTER_LENGTH: the batched path drops them too.
  "\u0301".repeat(40),
  "\u200d".repeat(20),
  "e" + "\u0308".repeat(35) + "\u200d\u{1f600}",
  "\u{1f44d}" + "\u200d\u{1f44d}".repeat(12),
  "a",
  "xyz ",
  "字",
  "かな",
  "\uff21",
  "e\u0301",
  "\u0301",
  "\u0300\u0327",
  "😀",
  THUMB,
  LIGHT,
  DARK,
  "👩" + DARK + ZWJ + "💻",
  HEART,
  VS16,
  HEART + VS16 + ZWJ + FIRE,
  WHITE_FLAG + VS16 + ZWJ + RAINBOW,
  ZWJ,
  RI_F,
  RI_R,
  "1" + VS16 + KEYCAP,
  "\u1100\u1161",
  "a" + "\u0301".repeat(20),
  "\u00e9",
  "A" + VS16,
  ZWJ + "b",
  ZWJ + ZWJ,
  "\u263a" + VS16,
  "\u{e0100}",
  `${CSI}4h`,
  `${CSI}4l`,
  `${CSI}?7l`,
  `${CSI}?7h`,
  `${CSI}31m`,
  `${CSI}m`,
  "\r",
  "\r\n",
  "\b",
  `${CSI}3G`,
  `${CSI}2;5H`,
  `${CSI}?69h${CSI}3;7s`,
  `${CSI}?69l`,
  // Grapheme clusters (mode 2027) and wcwidth widths, in turn.
  `${CSI}?2027h`,
  `${CSI}?2027l`,
];

Deno.test("unicode: the batched print path equals one code point per write", () => {
  const enc = new TextEncoder();
  for (let seed = 1; seed <= 60; seed++) {
    const rnd = prng(seed);
    let s = "";
    for (let n = 0; n < 200; n++) {
      s += PIECES[Math.floor(rnd() * PIECES.length)];
    }
    const bytes = enc.encode(s);
    const cols = 3 + (seed % 9);
    const whole = makeTerminal(cols, 4, 20);
    whole.term.write(bytes);
    const single = makeTerminal(cols, 4, 20);
    for (let i = 0; i < bytes.length; i++) {
      single.term.write(bytes.subarray(i, i + 1));
    }
    const chunked = makeTerminal(cols, 4, 20);
    for (let i = 0; i < bytes.length;) {
      const n = 1 + Math.floor(rnd() * 12);
      chunked.term.write(bytes.subarray(i, i + n));
      i += n;
    }
    const want = snapshot(single.term);
    assertEquals(snapshot(whole.term), want, `seed ${seed} (whole)`);
    assertEquals(snapshot(chunked.term), want, `seed ${seed} (chunked)`);
  }
});
