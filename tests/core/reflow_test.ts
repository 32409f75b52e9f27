/**
 * Reflow of logical lines (core/model/reflow.ts), table-driven: old rows
 * (a trailing "↩" marks a soft-wrapped row, " " is an erased cell) and
 * points before, the new width, and the rows, flags and points after.
 */
import {
  A_BOLD,
  A_CLUSTER,
  A_EXT_SHIFT,
  A_WIDE,
  A_WIDE_TAIL,
  paletteColor,
  rgbColor,
} from "../../core/model/cell.ts";
import { Line } from "../../core/model/line.ts";
import {
  reflow,
  type ReflowedPoint,
  type ReflowPoint,
} from "../../core/model/reflow.ts";
import { charWidth } from "../../core/unicode/width.ts";
import {
  assert,
  assertEquals,
  checkCells as checkTermCells,
  checkInvariants,
  CSI,
  expectEqual,
  historyLines,
  makeTerminal,
  screenLine,
  screenText,
  type TestTerminal,
} from "./helpers.ts";

const WRAP = "↩";
const segmenter = new Intl.Segmenter();

/**
 * A row of `cols` cells from `spec`: each grapheme is one cell (two for a
 * wide one), " " is an erased cell; a trailing "↩" sets `wrapped`.
 */
function row(cols: number, spec: string): Line {
  const line = new Line(cols);
  if (spec.endsWith(WRAP)) {
    line.wrapped = true;
    spec = spec.slice(0, -WRAP.length);
  }
  let x = 0;
  for (const { segment } of segmenter.segment(spec)) {
    if (x >= cols) throw new Error(`row spec too long: ${spec}`);
    const cp = segment.codePointAt(0)!;
    if (segment === " ") {
      x++;
      continue;
    }
    const w = charWidth(cp) === 2 ? 2 : 1;
    line.set(x, cp, 0, 0, w === 2 ? A_WIDE : 0);
    if (segment.length > String.fromCodePoint(cp).length) {
      line.setCluster(x, segment);
    }
    if (w === 2) line.set(x + 1, 0, 0, 0, A_WIDE_TAIL);
    x += w;
  }
  return line;
}

/** Rows as specs again (trailing blanks trimmed, "↩" for wrapped). */
function specs(lines: Line[]): string[] {
  return lines.map((l) => l.toString(true) + (l.wrapped ? WRAP : ""));
}

/** Throw unless wide heads and tails pair up and cluster text matches A_CLUSTER. */
function checkCells(lines: Line[], cols: number): void {
  lines.forEach((l, y) => {
    assertEquals(l.cols, cols, `row ${y} width`);
    assertEquals(l.data.length, cols * 4, `row ${y} storage`);
    for (let x = 0; x < l.cols; x++) {
      const a = l.attr(x);
      if (a & A_WIDE) assert(l.attr(x + 1) & A_WIDE_TAIL, `head ${x},${y}`);
      if (a & A_WIDE_TAIL) assert(l.attr(x - 1) & A_WIDE, `tail ${x},${y}`);
      assertEquals(
        l.clusters?.has(x) ?? false,
        (a & A_CLUSTER) !== 0,
        `cluster ${x},${y}`,
      );
    }
  });
}

interface ReflowCase {
  name: string;
  /** Old width. */
  from: number;
  rows: string[];
  /** New width. */
  to: number;
  expect: string[];
  /** Points before, and where they must be after. */
  points?: [ReflowPoint, ReflowedPoint][];
  /** Changes to the old rows before the reflow (colours, extras...). */
  setup?: (lines: Line[]) => void;
  /** Checks of the new rows. */
  check?: (lines: Line[], old: Line[]) => void;
}

const red = paletteColor(1), blue = paletteColor(4);

const cases: ReflowCase[] = [
  {
    name: "a long line wraps at the new width",
    from: 10,
    rows: ["0123456789"],
    to: 4,
    expect: ["0123↩", "4567↩", "89"],
  },
  {
    name: "wrapped rows join when wider",
    from: 4,
    rows: ["0123↩", "4567↩", "89"],
    to: 10,
    expect: ["0123456789"],
  },
  {
    name: "hard line breaks stay",
    from: 6,
    rows: ["abc", "defghi", "j"],
    to: 3,
    expect: ["abc", "def↩", "ghi", "j"],
  },
  {
    name: "lines that fit are unchanged",
    from: 8,
    rows: ["ab", "", "cd"],
    to: 3,
    expect: ["ab", "", "cd"],
  },
  {
    name: "trailing blanks are not content",
    from: 10,
    rows: ["ab    "],
    to: 2,
    expect: ["ab"],
  },
  {
    name: "inner blanks are content",
    from: 8,
    rows: ["a   b"],
    to: 3,
    expect: ["a↩", " b"],
  },
  {
    name: "blank wrapped rows collapse",
    from: 4,
    rows: ["ab  ↩", "    ↩", ""],
    to: 8,
    expect: ["ab"],
  },
  {
    name: "a wide char that does not fit moves down, leaving a pad cell",
    from: 6,
    rows: ["ab字cd"],
    to: 3,
    expect: ["ab↩", "字c↩", "d"],
    check: (l) => assertEquals(l[0].code(2), 0),
  },
  {
    name: "the pad cell goes away when the line gets wider",
    from: 3,
    rows: ["ab ↩", "字c↩", "d"],
    to: 6,
    expect: ["ab字cd"],
  },
  {
    name: "wide chars at every boundary",
    from: 8,
    rows: ["字字字字"],
    to: 3,
    expect: ["字↩", "字↩", "字↩", "字"],
  },
  {
    name: "wide chars inside a line that gets narrower",
    from: 9,
    rows: ["a字b字c字↩", "d"],
    to: 4,
    expect: ["a字b↩", "字c↩", "字d"],
  },
  {
    name: "one column cannot hold a wide char: a blank takes its place",
    from: 4,
    rows: ["a字"],
    to: 1,
    expect: ["a↩", ""],
  },
  {
    name: "grapheme clusters move with their cells",
    from: 6,
    rows: ["abe\u0301d👍🏽"],
    to: 2,
    expect: ["ab↩", "e\u0301d↩", "👍🏽"],
  },
  {
    name: "a block line is never joined",
    from: 4,
    rows: ["abcd↩", "", "ef"],
    to: 8,
    setup: (l) => {
      l[1].extras = { block: { html: "<hr>", key: null } };
    },
    expect: ["abcd", "", "ef"],
    check: (l) => {
      assertEquals(l[1].extras?.block?.html, "<hr>");
      assertEquals(l[0].extras, null);
    },
  },
  {
    name: "a cursor in the middle stays on its character",
    from: 10,
    rows: ["0123456789"],
    to: 4,
    points: [[{ line: 0, x: 6, occupies: true }, {
      line: 1,
      x: 2,
      after: false,
    }]],
    expect: ["0123↩", "4567↩", "89"],
  },
  {
    name: "a cursor after the text (the usual prompt) stays after it",
    from: 8,
    rows: ["", "$ ls"],
    to: 3,
    points: [[{ line: 1, x: 4, occupies: true }, {
      line: 2,
      x: 1,
      after: false,
    }]],
    expect: ["", "$ l↩", "s"],
  },
  {
    name: "a pending wrap stays pending at the new edge",
    from: 6,
    rows: ["abcdef"],
    to: 3,
    points: [[{ line: 0, x: 5, after: true, occupies: true }, {
      line: 1,
      x: 2,
      after: true,
    }]],
    expect: ["abc↩", "def"],
  },
  {
    name: "a pending wrap becomes a position when the line gets wider",
    from: 3,
    rows: ["abc↩", "def"],
    to: 8,
    points: [[{ line: 1, x: 2, after: true, occupies: true }, {
      line: 0,
      x: 6,
      after: false,
    }]],
    expect: ["abcdef"],
  },
  {
    name: "a cursor past the text keeps its column (blank cells before it)",
    from: 10,
    rows: ["ab"],
    to: 4,
    points: [[{ line: 0, x: 7, occupies: true }, {
      line: 1,
      x: 3,
      after: false,
    }]],
    expect: ["ab↩", ""],
  },
  {
    name: "a point that does not occupy its cell lands on the last row",
    from: 10,
    rows: ["abcdef"],
    to: 4,
    points: [[{ line: 0, x: 9 }, { line: 1, x: 3, after: false }]],
    expect: ["abcd↩", "ef"],
  },
  {
    name: "points on other lines follow the line count",
    from: 6,
    rows: ["abcdef", "x", "ghijkl"],
    to: 2,
    points: [
      [{ line: 1, x: 0 }, { line: 3, x: 0, after: false }],
      [{ line: 2, x: 5 }, { line: 6, x: 1, after: false }],
      [{ line: 0, x: 0 }, { line: 0, x: 0, after: false }],
    ],
    expect: ["ab↩", "cd↩", "ef", "x", "gh↩", "ij↩", "kl"],
  },
  {
    name: "points out of range are clamped",
    from: 4,
    rows: ["abcd", "ef"],
    to: 2,
    points: [
      [{ line: 99, x: 99 }, { line: 2, x: 1, after: false }],
      [{ line: -3, x: -1 }, { line: 0, x: 0, after: false }],
      [{ line: NaN, x: NaN }, { line: 0, x: 0, after: false }],
    ],
    expect: ["ab↩", "cd", "ef"],
  },
  {
    name: "colours and attributes move with their cells",
    from: 6,
    rows: ["abcdef"],
    to: 4,
    setup: (l) => {
      l[0].set(4, 0x65, red, blue, A_BOLD | (7 << A_EXT_SHIFT));
      l[0].set(5, 0x66, rgbColor(1, 2, 3), 0, 0);
    },
    expect: ["abcd↩", "ef"],
    check: (l) => {
      assertEquals(
        [l[1].fg(0), l[1].bg(0), l[1].attr(0)],
        [red, blue, A_BOLD | (7 << A_EXT_SHIFT)],
      );
      assertEquals(l[1].fg(1), rgbColor(1, 2, 3));
      assertEquals(l[1].bg(2), 0);
    },
  },
  {
    name: "a line erased in a colour keeps it to the new right edge",
    from: 4,
    rows: ["ab  "],
    to: 8,
    setup: (l) => l[0].fill(2, 4, 0, 0, blue, 0),
    expect: ["ab"],
    check: (l) => {
      for (let x = 2; x < 8; x++) assertEquals(l[0].bg(x), blue, `cell ${x}`);
    },
  },
  {
    name: "a blank coloured line stays coloured",
    from: 4,
    rows: ["    ↩", "    "],
    to: 6,
    setup: (l) => {
      l[0].fill(0, 4, 0, 0, blue, 0);
      l[1].fill(0, 4, 0, 0, blue, 0);
    },
    expect: [""],
    check: (l) => {
      for (let x = 0; x < 6; x++) assertEquals(l[0].bg(x), blue, `cell ${x}`);
    },
  },
  {
    name: "coloured padding only on the last row of a re-wrapped line",
    from: 8,
    rows: ["abcdef  "],
    to: 4,
    setup: (l) => l[0].fill(6, 8, 0, 0, red, 0),
    expect: ["abcd↩", "ef"],
    check: (l) => {
      assertEquals([l[1].bg(1), l[1].bg(2), l[1].bg(3)], [0, red, red]);
    },
  },
  {
    name: "marks and inline embeds move with their cells",
    from: 8,
    rows: ["$ abcdef"],
    to: 3,
    setup: (l) => {
      l[0].extras = {
        marks: [{ x: 0, kind: "prompt-start" }, { x: 2, kind: "input-start" }],
        inline: [{ x: 6, html: "<b>i</b>", key: "k" }],
      };
    },
    expect: ["$ a↩", "bcd↩", "ef"],
    check: (l) => {
      assertEquals(l[0].extras?.marks, [
        { x: 0, kind: "prompt-start" },
        { x: 2, kind: "input-start" },
      ]);
      assertEquals(l[1].extras, null);
      assertEquals(l[2].extras?.inline, [{ x: 0, html: "<b>i</b>", key: "k" }]);
    },
  },
  {
    name: "marks from several rows gather on the joined row",
    from: 3,
    rows: ["abc↩", "def"],
    to: 8,
    setup: (l) => {
      l[0].extras = { marks: [{ x: 1, kind: "a" }] };
      l[1].extras = { marks: [{ x: 2, kind: "b" }] };
    },
    expect: ["abcdef"],
    check: (l) => {
      assertEquals(l[0].extras?.marks, [{ x: 1, kind: "a" }, {
        x: 5,
        kind: "b",
      }]);
    },
  },
  {
    name: "a mark past the text keeps its cell",
    from: 8,
    rows: ["ab"],
    to: 4,
    setup: (l) => {
      l[0].extras = { marks: [{ x: 6, kind: "end" }] };
    },
    expect: ["ab↩", ""],
    check: (l) => assertEquals(l[1].extras?.marks, [{ x: 2, kind: "end" }]),
  },
];

for (const c of cases) {
  Deno.test(`reflow: ${c.name}`, () => {
    const old = c.rows.map((s) => row(c.from, s));
    c.setup?.(old);
    const before = old.map((l) => l.clone());
    const pts = (c.points ?? []).map(([p]) => p);
    const r = reflow({ length: old.length, getLine: (i) => old[i] }, c.to, pts);
    checkCells(r.lines, c.to);
    expectEqual(specs(r.lines), c.expect, "rows");
    expectEqual(r.points, (c.points ?? []).map(([, q]) => q), "points");
    c.check?.(r.lines, before);
  });
}

Deno.test("reflow: narrow then wide gives the original rows back", () => {
  const texts = [
    "the quick brown fox jumps over the lazy dog",
    "",
    "漢字とかなの混じった文章がここにあります",
    "a👍🏽b e\u0301 c",
    "x",
  ];
  const cols = 50;
  const old = texts.map((t) => row(cols, t));
  const snapshot = (ls: Line[]) =>
    ls.map((l) => [Array.from(l.data), l.wrapped, [...l.clusters ?? []]]);
  const want = snapshot(old.map((l) => l.clone()));
  let lines = old;
  for (const w of [7, 3, 1, 2, 13, 49, 4]) {
    lines = reflow({ length: lines.length, getLine: (i) => lines[i] }, w, [])
      .lines;
    checkCells(lines, w);
  }
  lines = reflow({ length: lines.length, getLine: (i) => lines[i] }, cols, [])
    .lines;
  // Width 1 turned the wide characters into blanks; everything else is back.
  const narrowSafe = [0, 1, 4];
  for (const i of narrowSafe) assertEquals(snapshot([lines[i]]), [want[i]]);
  assertEquals(specs(lines).length, texts.length);
});

Deno.test("reflow: round trip through narrow widths keeps wide chars", () => {
  const old = [row(20, "漢字とかな👍🏽e\u0301abc"), row(20, "z")];
  const want = specs(old);
  let lines = old;
  for (const w of [5, 2, 3, 11, 20]) {
    lines = reflow({ length: lines.length, getLine: (i) => lines[i] }, w, [])
      .lines;
    checkCells(lines, w);
  }
  assertEquals(specs(lines), want);
});

Deno.test("reflow: a line that fits keeps its identity", () => {
  const a = row(10, "short"), b = row(10, "0123456789");
  const r = reflow({ length: 2, getLine: (i) => [a, b][i] }, 6, []);
  assert(r.lines[0] === a);
  assert(r.lines[1] !== b);
  assertEquals(a.cols, 6);
});

Deno.test("reflow: bad widths are clamped to one column", () => {
  const a = row(4, "ab");
  for (const w of [0, -3, NaN]) {
    const r = reflow({ length: 1, getLine: () => a.clone() }, w, []);
    assertEquals(specs(r.lines), ["a↩", "b"]);
  }
});

// ------------------------------------------------------------ terminal level

interface TermCase {
  name: string;
  cols: number;
  rows: number;
  scrollback?: number;
  /** Program output before the resizes. */
  input: string;
  /** Sizes to resize to, in order. */
  resizes: [number, number][];
  /** Program output after the resizes. */
  after?: string;
  screen: string;
  history?: string[];
  cursor: [number, number];
  check?: (t: TestTerminal) => void;
}

const termCases: TermCase[] = [
  {
    name: "a long prompt line re-wraps, the cursor stays on its character",
    cols: 10,
    rows: 4,
    input: "$ echo hello world\b\b\b",
    resizes: [[6, 4]],
    screen: "$ echo\n hello\n world",
    cursor: [3, 2],
  },
  {
    name: "narrow then wide is a round trip, cursor included",
    cols: 10,
    rows: 4,
    input: "$ echo hello world\b\b\b",
    resizes: [[6, 4], [3, 4], [10, 4]],
    screen: "$ echo hel\nlo world",
    cursor: [5, 1],
  },
  {
    name: "the content grows into blank rows at the bottom",
    cols: 8,
    rows: 4,
    input: "abcdefgh\r\n$ ",
    resizes: [[4, 4]],
    screen: "abcd\nefgh\n$ ",
    history: [],
    cursor: [2, 2],
  },
  {
    name: "a full screen keeps its bottom; history comes back when wider",
    cols: 8,
    rows: 2,
    input: "one\r\nabcdefgh\r\n$ ",
    resizes: [[4, 2], [8, 2]],
    screen: "abcdefgh\n$ ",
    history: ["one"],
    cursor: [2, 1],
  },
  {
    name: "writing after a reflow continues the logical line",
    cols: 4,
    rows: 3,
    input: "abcdef",
    resizes: [[8, 3]],
    after: "gh",
    screen: "abcdefgh",
    cursor: [7, 0],
  },
  {
    name: "height-only changes do not reflow",
    cols: 4,
    rows: 4,
    input: "abcdefgh",
    resizes: [[4, 2], [4, 5]],
    screen: "abcd\nefgh",
    cursor: [3, 1],
    check: ({ term }) => {
      assert(screenLine(term, 0).wrapped);
      assert(term.wrapPending);
    },
  },
  {
    name: "fewer rows move lines into history, more rows bring them back",
    cols: 6,
    rows: 4,
    input: "1\r\n2\r\n3\r\n4",
    resizes: [[3, 2], [6, 4]],
    screen: "1\n2\n3\n4",
    history: [],
    cursor: [1, 3],
  },
  {
    name: "the alternate screen does not reflow; the normal one does",
    cols: 8,
    rows: 3,
    input: `abcdefgh\r\n$ ${CSI}?1049h${CSI}Halt${CSI}2;1Hscreen!`,
    resizes: [[4, 3]],
    screen: "alt\nscre",
    cursor: [3, 1],
    check: ({ term }) => {
      const normal = term.normalBuffer;
      const rows = [];
      for (let i = 0; i < normal.length; i++) {
        rows.push(normal.getLine(i).toString(true));
      }
      assertEquals(rows.filter((r) => r !== ""), ["abcd", "efgh", "$ "]);
      term.write(`${CSI}?1049l`);
      checkInvariants(term);
      assertEquals(screenText(term), "abcd\nefgh\n$ ");
      assertEquals([term.cursorX, term.cursorY], [2, 2]);
    },
  },
  {
    name: "the saved cursor (DECSC) follows its character",
    cols: 10,
    rows: 5,
    input: `0123456789${CSI}1;8H\x1b7${CSI}3;1H`,
    resizes: [[4, 5]],
    after: "\x1b8X",
    screen: "0123\n456X\n89",
    cursor: [3, 1],
    check: ({ term }) => {
      assertEquals(screenLine(term, 1).toString(), "456X");
    },
  },
  {
    name: "the scrollback limit holds after a reflow",
    cols: 8,
    rows: 2,
    scrollback: 3,
    input: "aaaaaaaa\r\nbbbbbbbb\r\ncccccccc\r\ndddddddd",
    resizes: [[4, 2]],
    screen: "dddd\ndddd",
    history: ["bbbb", "cccc", "cccc"],
    cursor: [3, 1],
    check: ({ term }) => {
      assertEquals(term.normalBuffer.length, 5);
      assertEquals(term.normalBuffer.trimmed, 3);
    },
  },
  {
    name: "colours set by SGR move with the text",
    cols: 6,
    rows: 2,
    input: `ab${CSI}41mcd${CSI}0mef`,
    resizes: [[3, 2]],
    screen: "abc\ndef",
    cursor: [2, 1],
    check: ({ term }) => {
      assertEquals(screenLine(term, 0).bg(2), paletteColor(1));
      assertEquals(screenLine(term, 1).bg(0), paletteColor(1));
      assertEquals(screenLine(term, 1).bg(1), 0);
    },
  },
  {
    name: "a line erased in a colour stays coloured when wider",
    cols: 4,
    rows: 2,
    input: `${CSI}44m${CSI}K${CSI}0m`,
    resizes: [[8, 2]],
    screen: "",
    cursor: [0, 0],
    check: ({ term }) => {
      assertEquals(screenLine(term, 0).bg(7), blue);
      assertEquals(screenLine(term, 1).bg(7), 0);
    },
  },
  {
    name: "wide characters and clusters written by the emulator (mode 2027)",
    cols: 7,
    rows: 3,
    input: "\x1b[?2027ha漢字👍🏽e\u0301",
    resizes: [[4, 3], [3, 3], [7, 3]],
    screen: "a漢字👍🏽\ne\u0301",
    cursor: [1, 1],
    check: ({ term }) => checkTermCells(term),
  },
];

for (const c of termCases) {
  Deno.test(`reflow (terminal): ${c.name}`, () => {
    const t = makeTerminal(c.cols, c.rows, c.scrollback);
    t.term.write(c.input);
    for (const [w, h] of c.resizes) {
      t.term.resize(w, h);
      checkInvariants(t.term);
      checkTermCells(t.term);
    }
    if (c.after) t.term.write(c.after);
    expectEqual(screenText(t.term), c.screen, "screen");
    if (c.history) expectEqual(historyLines(t.term), c.history, "history");
    expectEqual([t.term.cursorX, t.term.cursorY], c.cursor, "cursor");
    c.check?.(t);
  });
}

Deno.test("reflow (terminal): many random resizes keep every invariant", () => {
  const t = makeTerminal(20, 6, 50);
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
  const bits = ["漢字", "👍🏽", "e\u0301", "\r\n", `${CSI}42m`, `${CSI}0m`, "x"];
  for (let i = 0; i < 300; i++) {
    t.term.write(bits[rand(bits.length)].repeat(1 + rand(5)));
    if (rand(4) === 0) t.term.resize(1 + rand(30), 1 + rand(8));
    checkInvariants(t.term);
    checkTermCells(t.term);
  }
});

Deno.test("reflow: narrower then wider again blanks the uncovered cells", () => {
  const line = row(8, "ab");
  line.fill(5, 8, 0, 0, red, 0); // coloured blanks past the text
  let lines = [line];
  for (const w of [4, 8, 3, 12]) {
    lines = reflow({ length: 1, getLine: () => lines[0] }, w, []).lines;
    assert(lines[0] === line, `width ${w}: the line keeps its identity`);
    assertEquals(line.data.length, w * 4);
  }
  assertEquals(specs(lines), ["ab"]);
  // The red cells were cut off at width 4; they do not come back.
  for (let x = 2; x < 12; x++) {
    assertEquals([line.code(x), line.bg(x), line.attr(x)], [0, 0, 0]);
  }
  line.set(11, 0x7a, 0, 0, 0);
  assertEquals(line.toString(true), "ab         z");
});

Deno.test("reflow: double-size lines are cut, never re-wrapped", () => {
  const a = row(10, "0123456789");
  a.size = 1;
  a.wrapped = true;
  const b = row(10, "abc");
  const r = reflow({ length: 2, getLine: (i) => [a, b][i] }, 6, []);
  assertEquals(r.lines.length, 2);
  assert(r.lines[0] === a);
  assertEquals(r.lines[0].size, 1);
  assertEquals(r.lines[0].toString(), "012345");
  assertEquals(r.lines[1].toString(true), "abc");
});
