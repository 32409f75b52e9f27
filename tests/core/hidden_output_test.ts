/**
 * Skipping output nobody can see (`core/emulator/hidden_output.ts`, the
 * `skipHiddenOutput` option the server's emulator uses): the plan on its
 * own (table), then a terminal that skips against one that prints
 * everything, fed the same writes (plain lines with colours, lines that
 * wrap, lines without CR, and every kind of sequence that must stop a
 * skip), with small scrollbacks so that large writes skip often. The two
 * must have the same model (modelDiff), snapshot JSON and replies after
 * every write.
 */
import { assert, assertEquals, rng } from "./helpers.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { modelDiff } from "../../core/serialize/model_hash.ts";
import {
  planHiddenOutput,
  sgrReplay,
} from "../../core/emulator/hidden_output.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

Deno.test("hidden output plan: what is skipped, replayed and where the cursor ends", async (t) => {
  // keep = 2: the last two line feeds of the plain run stay printed.
  const cases: {
    name: string;
    text: string;
    x?: number;
    wrapPending?: boolean;
    cols?: number;
    autowrap?: boolean;
    newlineMode?: boolean;
    /** Mode 2027 (grapheme clusters): set unless false. */
    graphemes?: boolean;
    underlineColoured?: boolean;
    want:
      | {
        skipped: string;
        replay: string;
        x: number;
        last: string;
        /** Rows gone down, when not the line feeds of `skipped`. */
        down?: number;
      }
      | null;
  }[] = [
    {
      name: "three line feeds: the first goes",
      text: "aa\r\nbb\r\ncc\r\ndd",
      want: { skipped: "aa\r\n", replay: "", x: 0, last: "a" },
    },
    {
      name:
        "SGR sequences are replayed in order, without the text and line breaks",
      text: "\x1b[31ma\x1b[1m\r\n\x1b[3;38:2::1:2:3mb\r\nc\r\nd\r\n",
      want: {
        skipped: "\x1b[31ma\x1b[1m\r\n\x1b[3;38:2::1:2:3mb\r\n",
        replay: "\x1b[31m\x1b[1m\x1b[3;38:2::1:2:3m",
        x: 0,
        last: "b",
      },
    },
    {
      name: "SGR sequences before the last reset (SGR 0) are not replayed",
      text: "\x1b[31ma\x1b[m\r\n\x1b[1;38:2::1:2:3mb\r\nc\r\nd\r\n",
      want: {
        skipped: "\x1b[31ma\x1b[m\r\n\x1b[1;38:2::1:2:3mb\r\n",
        replay: "\x1b[m\x1b[1;38:2::1:2:3m",
        x: 0,
        last: "b",
      },
    },
    {
      name: "a reset with more parameters, or written 00, resets too",
      text: "\x1b[31ma\x1b[00;4mb\x1b[0m\x1b[0;1mc\r\nd\r\ne\r\n",
      want: {
        skipped: "\x1b[31ma\x1b[00;4mb\x1b[0m\x1b[0;1mc\r\n",
        replay: "\x1b[0;1m",
        x: 0,
        last: "c",
      },
    },
    {
      name: "01 is bold, not a reset; an empty first parameter is one",
      text: "\x1b[4ma\x1b[;3mb\x1b[01mc\r\nd\r\ne\r\n",
      want: {
        skipped: "\x1b[4ma\x1b[;3mb\x1b[01mc\r\n",
        replay: "\x1b[;3m\x1b[01m",
        x: 0,
        last: "c",
      },
    },
    {
      name: "an underline colour (SGR 58) before the reset: all replayed",
      text: "\x1b[58;5;3ma\x1b[mb\r\nc\r\nd\r\n",
      want: {
        skipped: "\x1b[58;5;3ma\x1b[mb\r\n",
        replay: "\x1b[58;5;3m\x1b[m",
        x: 0,
        last: "b",
      },
    },
    {
      name: "the pen has an underline colour: all replayed",
      text: "\x1b[1ma\x1b[mb\r\nc\r\nd\r\n",
      underlineColoured: true,
      want: {
        skipped: "\x1b[1ma\x1b[mb\r\n",
        replay: "\x1b[1m\x1b[m",
        x: 0,
        last: "b",
      },
    },
    {
      name: "LF without CR keeps the column",
      text: "abc\nde\nf\ng\n",
      want: { skipped: "abc\nde\n", replay: "", x: 5, last: "e" },
    },
    {
      name: "in newline mode LF returns too",
      text: "abc\nde\nf\ng\n",
      newlineMode: true,
      want: { skipped: "abc\nde\n", replay: "", x: 0, last: "e" },
    },
    {
      name: "starting mid-line counts from the cursor",
      text: "ab\nc\nd\n",
      x: 3,
      want: { skipped: "ab\n", replay: "", x: 5, last: "b" },
    },
    {
      name: "a full line then LF: no wrap, the cursor stays in the last column",
      text: "abcdefghij\nx\ny\n",
      want: { skipped: "abcdefghij\n", replay: "", x: 9, last: "j" },
    },
    {
      name: "a wrap goes down a row as a line feed does",
      text: "a\r\nb\r\nabcdefghijk\r\nc\r\nd\r\ne\r\n",
      want: {
        skipped: "a\r\nb\r\nabcdefghijk\r\nc\r\n",
        replay: "",
        x: 0,
        last: "c",
        down: 5,
      },
    },
    {
      name: "a line of three screen widths wraps twice",
      text: "a\r\n" + "x".repeat(30) + "\r\nc\r\nd\r\n",
      want: {
        skipped: "a\r\n" + "x".repeat(30) + "\r\n",
        replay: "",
        x: 0,
        last: "x",
        down: 4,
      },
    },
    {
      name: "without autowrap nothing wraps",
      text: "a\r\nabcdefghijk\r\nc\r\nd\r\n",
      autowrap: false,
      want: { skipped: "a\r\nabcdefghijk\r\n", replay: "", x: 0, last: "k" },
    },
    {
      name: "a pending wrap at the start: the first character wraps",
      text: "a\r\nb\r\nc\r\nd\r\n",
      x: 9,
      wrapPending: true,
      want: { skipped: "a\r\nb\r\n", replay: "", x: 0, last: "b", down: 3 },
    },
    {
      name: "a pending wrap then CR is fine",
      text: "\ra\r\nb\r\nc\r\nd\r\n",
      x: 9,
      wrapPending: true,
      want: { skipped: "\ra\r\nb\r\n", replay: "", x: 0, last: "b" },
    },
    {
      name: "anything but SGR ends the run (CUP)",
      text: "a\r\nb\x1b[Hc\r\nd\r\ne\r\n",
      want: null,
    },
    {
      name: "a private CSI ... m is not SGR",
      text: "a\r\nb\r\n\x1b[>4;1mc\r\nd\r\ne\r\n",
      want: null,
    },
    {
      name:
        "non-ASCII is followed: a wide character that does not fit wraps first",
      text: "abcdefghi\u65e5\u00e9\r\nb\r\nc\r\n",
      want: {
        skipped: "abcdefghi\u65e5\u00e9\r\n",
        replay: "",
        x: 0,
        last: "\u00e9",
        down: 2,
      },
    },
    {
      name: "a combining mark joins, VS16 widens a text-default emoji",
      text: "e\u0301\u2764\ufe0f!\nb\r\nc\r\n",
      want: { skipped: "e\u0301\u2764\ufe0f!\n", replay: "", x: 4, last: "!" },
    },
    {
      name: "a flag is two cells, a ZWJ joins what follows, ASCII too",
      text: "\u{1F1EF}\u{1F1F5}\u{1F468}\u200d\u{1F469}\u200dx.\nb\r\nc\r\n",
      want: {
        skipped: "\u{1F1EF}\u{1F1F5}\u{1F468}\u200d\u{1F469}\u200dx.\n",
        replay: "",
        x: 5,
        last: ".",
      },
    },
    {
      name: "a skin tone joins a modifier base, else is a wide character",
      text: "\u{1F44D}\u{1F3FB}a\u{1F3FB}\nb\r\nc\r\n",
      want: {
        skipped: "\u{1F44D}\u{1F3FB}a\u{1F3FB}\n",
        replay: "",
        x: 5,
        last: "\u{1F3FB}",
      },
    },
    {
      name: "VS16 after a cluster does not widen it",
      text: "\u2764\u0301\ufe0f!\nb\r\nc\r\n",
      want: { skipped: "\u2764\u0301\ufe0f!\n", replay: "", x: 2, last: "!" },
    },
    {
      name: "a flag's second half in the last column joins without widening",
      text: "abcdefghi\u{1F1EF}\u{1F1F5}\nb\r\nc\r\n",
      want: {
        skipped: "abcdefghi\u{1F1EF}\u{1F1F5}\n",
        replay: "",
        x: 9,
        last: "\u{1F1EF}",
      },
    },
    {
      name: "wcwidth widths: a skin tone is 2 more cells, VS16 does not widen",
      graphemes: false,
      text: "\u{1F44D}\u{1F3FD}\u2764\ufe0f!\nb\r\nc\r\n",
      want: {
        skipped: "\u{1F44D}\u{1F3FD}\u2764\ufe0f!\n",
        replay: "",
        x: 6,
        last: "!",
      },
    },
    {
      name:
        "wcwidth widths: a flag is 1 + 1, a ZWJ joins alone, no ASCII after it",
      graphemes: false,
      text: "\u{1F1EF}\u{1F1F5}\u{1F468}\u200d\u{1F469}\u200dx.\nb\r\nc\r\n",
      want: {
        skipped: "\u{1F1EF}\u{1F1F5}\u{1F468}\u200d\u{1F469}\u200dx.\n",
        replay: "",
        x: 8,
        last: ".",
      },
    },
    {
      name: "wcwidth widths: a skin tone that does not fit wraps",
      graphemes: false,
      text: "abcdefgh\u{1F44D}\u{1F3FB}\nb\r\nc\r\n",
      want: {
        skipped: "abcdefgh\u{1F44D}\u{1F3FB}\n",
        replay: "",
        x: 2,
        last: "\u{1F3FB}",
        down: 2,
      },
    },
    {
      name: "a zero-width character at column 0 joins nothing",
      text: "\u0301a\nb\r\nc\r\n",
      want: { skipped: "\u0301a\n", replay: "", x: 1, last: "a" },
    },
    {
      name: "a decoded C1 control ends the run",
      text: "a\r\nb\r\nc\r\nd\u0085\r\ne\r\n",
      want: { skipped: "a\r\n", replay: "", x: 0, last: "a" },
    },
    {
      name: "a line not followed that does not start in column 0 ends the run",
      text: "a\r\nb\r\nc\nd\te\r\nf\r\ng\r\n",
      want: { skipped: "a\r\n", replay: "", x: 0, last: "a" },
    },
    {
      name: "an SGR cut by the end of the write ends the run",
      text: "a\r\nb\r\nc\r\n\x1b[3",
      want: { skipped: "a\r\n", replay: "", x: 0, last: "a" },
    },
    {
      name: "no printable character: lastChar stays",
      text: "\r\n\r\n\r\n\r\n",
      want: { skipped: "\r\n\r\n", replay: "", x: 0, last: "" },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const bytes = enc.encode(c.text);
      const plan = planHiddenOutput(
        bytes,
        c.x ?? 0,
        c.wrapPending ?? false,
        c.cols ?? 10,
        c.autowrap ?? true,
        c.newlineMode ?? false,
        2,
        c.graphemes ?? true,
      );
      if (c.want === null) {
        assertEquals(plan, null);
        return;
      }
      assert(plan !== null, "a plan");
      assertEquals(plan.count, 1, "one stretch");
      assertEquals(plan.from[0], 0);
      assertEquals(plan.to[0], plan.end);
      assertEquals(dec.decode(bytes.subarray(0, plan.end)), c.want.skipped);
      const replay = sgrReplay(
        bytes,
        0,
        plan.end,
        c.underlineColoured ?? false,
        plan.underline,
      );
      assertEquals(dec.decode(replay), c.want.replay);
      assertEquals(
        plan.rowsDown[0],
        c.want.down ?? c.want.skipped.split("\n").length - 1,
      );
      assertEquals(plan.x[0], c.want.x);
      assertEquals(
        plan.lastChar[0],
        c.want.last === "" ? -1 : c.want.last.codePointAt(0),
      );
    });
  }
});

Deno.test("hidden output plan: lines it cannot follow are printed between stretches", async (t) => {
  // keep = 2; each case: the stretches as [skipped text, rows, x, last] and
  // the text printed after each but the last.
  const cases: {
    name: string;
    text: string;
    x?: number;
    stretches: [string, number, number, string][];
    printed: string[];
  }[] = [
    {
      name: "a line with a tab between two stretches",
      text: "a\r\nb\tc\r\nd\r\ne\r\nf\r\n",
      stretches: [["a\r\n", 1, 0, "a"], ["d\r\n", 1, 0, "d"]],
      printed: ["b\tc\r\n"],
    },
    {
      name: "consecutive lines printed as one range; invalid UTF-8 is one",
      text: "a\r\nb\t\r\n\xff\r\nd\r\ne\r\nf\r\n",
      stretches: [["a\r\n", 1, 0, "a"], ["d\r\n", 1, 0, "d"]],
      printed: ["b\t\r\n\xff\r\n"],
    },
    {
      name: "the first line printed: an empty first stretch",
      text: "\tb\r\nc\r\nd\r\ne\r\n",
      stretches: [["", 0, 0, ""], ["c\r\n", 1, 0, "c"]],
      printed: ["\tb\r\n"],
    },
    {
      name: "the end within printed lines: an empty last stretch",
      text: "a\r\n\t\r\n\t\r\n\t\r\nb\r\n",
      stretches: [["a\r\n", 1, 0, "a"], ["", 0, 0, ""]],
      printed: ["\t\r\n\t\r\n"],
    },
    {
      name: "the first line may start mid-row: the cells before it are real",
      text: "b\tz\r\nc\r\nd\r\ne\r\n",
      x: 3,
      stretches: [["", 0, 0, ""], ["c\r\n", 1, 0, "c"]],
      printed: ["b\tz\r\n"],
    },
    {
      name: "a printed line must end with CR LF",
      text: "a\r\nb\tc\nd\r\ne\r\nf\r\n",
      stretches: [["", 0, 0, ""]],
      printed: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      // Latin-1, so that "\xff" is the byte 0xff (invalid UTF-8).
      const bytes = Uint8Array.from(c.text, (ch) => ch.charCodeAt(0));
      const plan = planHiddenOutput(
        bytes,
        c.x ?? 0,
        false,
        10,
        true,
        false,
        2,
        false,
      );
      if (c.stretches.length === 1 && c.stretches[0][0] === "") {
        assertEquals(plan, null);
        return;
      }
      assert(plan !== null, "a plan");
      const latin1 = (a: number, b: number) =>
        String.fromCharCode(...bytes.subarray(a, b));
      assertEquals(plan.count, c.stretches.length, "stretches");
      for (let k = 0; k < plan.count; k++) {
        const [text, rows, x, last] = c.stretches[k];
        assertEquals(latin1(plan.from[k], plan.to[k]), text, `stretch ${k}`);
        if (text === "") continue;
        assertEquals(plan.rowsDown[k], rows, `stretch ${k} rows`);
        assertEquals(plan.x[k], x, `stretch ${k} x`);
        assertEquals(plan.lastChar[k], last === "" ? -1 : last.charCodeAt(0));
        if (k + 1 < plan.count) {
          assertEquals(latin1(plan.to[k], plan.from[k + 1]), c.printed[k]);
        }
      }
      assertEquals(plan.to[plan.count - 1], plan.end);
    });
  }
});

/**
 * Plain lines: mostly what a skip covers, with colours and lines of every
 * length (some wrap and some fill the line exactly, and some end in LF
 * alone or CR alone, unless `wrap` is false).
 */
function plainLines(
  r: () => number,
  n: number,
  cols: number,
  wrap = true,
): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const len = Math.floor(r() * (wrap ? cols + 3 : cols));
    for (let k = 0; k < len; k++) {
      if (r() < 0.05) s += `\x1b[${30 + Math.floor(r() * 8)};1m`;
      else if (r() < 0.03) s += "\x1b[m";
      else if (r() < 0.02) s += r() < 0.5 ? "\x1b[0;4m" : "\x1b[01;34m";
      else if (r() < 0.01) s += "\x1b[48:2::10:20:30m";
      else s += String.fromCharCode(0x21 + Math.floor(r() * 94));
    }
    const end = wrap ? r() : 0;
    s += end < 0.8 ? "\r\n" : end < 0.95 ? "\n" : "\r";
  }
  return s;
}

/** Everything else, each of which must stop (or survive) a skip correctly. */
const OTHERS = [
  "\x1b[3;4H",
  "\x1b[2;6r",
  "\x1b[r",
  "\x1b[?1049h",
  "\x1b[?1049l",
  "\x1b[?7l",
  "\x1b[?7h",
  "\x1b[4h",
  "\x1b[4l",
  "\x1b[20h",
  "\x1b[20l",
  "\x1b(0",
  "\x1b(B",
  "\x1bN",
  "\x1b]8;;https://example.com\x07",
  "\x1b]8;;\x07",
  "\x1b#6",
  "\x1b[?69h\x1b[3;8s",
  "\x1b[?69l",
  "\x1b]133;A\x07$ \x1b]133;B\x07",
  "\x1b]133;C\x07",
  "\x1b]133;D;0\x07",
  "\x1b[6n",
  "\x1b[5b",
  "日本",
  "e\u0301",
  "\u200d",
  "\t",
  "\b",
  "\x1b[?2l",
  "\x1b<",
  "\x1bc",
  "\x1b[58;5;3m\x1b[4:3m",
  "\xc3", // the first byte of a character, completed (or not) by what follows
];

function randomStream(r: () => number, pieces: number, cols: number): string {
  let s = "";
  for (let i = 0; i < pieces; i++) {
    s += r() < 0.75
      ? plainLines(r, 1 + Math.floor(r() * 60), cols)
      : OTHERS[Math.floor(r() * OTHERS.length)];
  }
  return s;
}

/** The options of the terminals compared. */
interface TestOptions {
  cols: number;
  rows: number;
  scrollback: number;
  graphemeClusters?: "on" | "off";
}

/** Writes `chunks` to a terminal that skips and to one that does not; they must stay equal. */
function compare(
  chunks: Uint8Array[],
  opts: TestOptions,
  label: string,
): void {
  const repliesA: string[] = [];
  const repliesB: string[] = [];
  const a = new Terminal({ ...opts, reply: (d) => repliesA.push(d) });
  const b = new Terminal({
    ...opts,
    skipHiddenOutput: true,
    reply: (d) => repliesB.push(d),
  });
  for (const [i, chunk] of chunks.entries()) {
    a.write(chunk);
    b.write(chunk);
    const diff = modelDiff(a, b);
    assert(diff === null, `${label}, write ${i}: ${diff}`);
  }
  assertEquals(
    JSON.stringify(b.snapshot()),
    JSON.stringify(a.snapshot()),
    `${label}: snapshots`,
  );
  assertEquals(repliesB, repliesA, `${label}: replies`);
  assertEquals(b.cursorX, a.cursorX);
  assertEquals(b.cursorY, a.cursorY);
  assertEquals(b.wrapPending, a.wrapPending);
}

/** Cuts `bytes` into writes: mostly large (where skips happen), some tiny. */
function cut(r: () => number, bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = r() < 0.2 ? 1 + Math.floor(r() * 8) : 1 + Math.floor(r() * 3000);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

Deno.test("hidden output: a terminal that skips stays equal to one that prints everything (random output)", () => {
  const r = rng(0x5c1b);
  let skipped = 0;
  for (let round = 0; round < 60; round++) {
    const cols = 8 + Math.floor(r() * 40);
    const rows = 2 + Math.floor(r() * 8);
    const scrollback = [0, 1, 3, 10, 40][round % 5];
    const bytes = enc.encode(randomStream(r, 40, cols));
    const chunks = cut(r, bytes);
    skipped += countSkips(chunks, { cols, rows, scrollback });
    compare(chunks, { cols, rows, scrollback }, `round ${round}`);
  }
  // The comparison means something only if skips happened, many of them.
  assert(skipped > 200, `only ${skipped} writes skipped anything`);
});

/** Text the plan follows by the terminal's cluster rules, and text it must leave to the terminal. */
const UNICODE_ITEMS = [
  "word ",
  "x",
  "\u65e5",
  "\u672c",
  "\ud55c",
  "\uff21",
  "\u00e9",
  "\u03a9",
  "\u0436",
  "\u0301",
  "\u0308",
  "\u1161", // a Hangul medial vowel: zero width
  "\ufe0f",
  "\u2764",
  "\u263a",
  "#",
  "\u200d",
  "\u{1F468}",
  "\u{1F469}",
  "\u{1F525}",
  "\u{1F3F3}",
  "\u{1F3FB}",
  "\u{1F3FD}",
  "\u{1F44D}",
  "\u{1F1EF}",
  "\u{1F1F5}",
  "\u{1F600}",
  "\u{1F321}", // a narrow pictograph
  "\t",
  "\x1b[31m",
  "\x1b[m",
  "\x1b[58;5;3m",
  "\uFFFF", // becomes invalid UTF-8 (see unicodeBytes)
  "e" + "\u0301".repeat(14), // a cluster near the terminal's cap
  "\u{1F468}\u200d\u{1F469}\u200d\u{1F467}",
  "\u2764\ufe0f\u200d\u{1F525}",
];

/** Lines of Unicode text, widths up to about twice `cols`. */
function unicodeLines(r: () => number, n: number, cols: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const items = Math.floor(r() * cols);
    for (let k = 0; k < items; k++) {
      // Mostly ordinary text; the rarer items (the last ones) less often.
      const pick = r() < 0.7
        ? Math.floor(r() * 9)
        : Math.floor(r() * UNICODE_ITEMS.length);
      s += UNICODE_ITEMS[pick];
    }
    const end = r();
    s += end < 0.85 ? "\r\n" : end < 0.95 ? "\n" : "\r";
  }
  return s;
}

/** UTF-8, with each U+FFFF made into bytes that are not UTF-8. */
function unicodeBytes(text: string, r: () => number): Uint8Array {
  const bytes = enc.encode(text);
  for (let i = 0; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbf) {
      // a stray continuation byte, a lone lead byte, or a lead cut short
      const bad = [[0x80, 0x41, 0x42], [0xff, 0x41, 0x42], [0xe6, 0x97, 0x41]][
        Math.floor(r() * 3)
      ];
      bytes.set(bad, i);
    }
  }
  return bytes;
}

Deno.test("hidden output: Unicode text (wide, combining, ZWJ, VS16, skin tones, flags, invalid), stays equal to printing it", () => {
  const r = rng(0x0dd5);
  let skipped = 0;
  const stats = { printed: 0 };
  for (let round = 0; round < 120; round++) {
    const cols = 3 + Math.floor(r() * 30);
    const rows = 2 + Math.floor(r() * 6);
    const scrollback = [0, 1, 3, 10, 40][round % 5];
    // Mode 2027 set (grapheme clusters) or reset (wcwidth widths).
    const graphemeClusters = round % 2 === 0 ? "on" : "off";
    let text = "";
    for (let p = 0; p < 60; p++) {
      text += r() < 0.95
        ? unicodeLines(r, 1 + Math.floor(r() * 40), cols)
        : r() < 0.3
        ? ["\u0085", "\x7f"][Math.floor(r() * 2)] // a C1 control, DEL
        : OTHERS[Math.floor(r() * OTHERS.length)];
    }
    const chunks = cut(r, unicodeBytes(text, r));
    const opts: TestOptions = { cols, rows, scrollback, graphemeClusters };
    skipped += countSkips(chunks, opts, stats);
    compare(
      chunks,
      opts,
      `round ${round} (${cols}x${rows} ${graphemeClusters})`,
    );
  }
  assert(skipped > 300, `only ${skipped} writes skipped anything`);
  assert(
    stats.printed > 100,
    `only ${stats.printed} skips printed lines between stretches`,
  );
});

Deno.test("hidden output: the default scrollback, a 3 MB flood of coloured lines in 1 MiB writes", () => {
  const r = rng(77);
  let text = "";
  while (text.length < 3_000_000) text += plainLines(r, 500, 80, false);
  const bytes = enc.encode(text + "\x1b[31mthe end\x1b[m");
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 1 << 20) {
    chunks.push(bytes.subarray(i, i + (1 << 20)));
  }
  const opts = { cols: 80, rows: 24, scrollback: 10_000 };
  assert(countSkips(chunks, opts) > 0, "1 MiB writes of short lines skip");
  compare(chunks, opts, "flood");
});

Deno.test("hidden output: off by default, and never with an unlimited scrollback", () => {
  const text = enc.encode("line\r\n".repeat(5000));
  for (
    const opts of [
      { cols: 20, rows: 5, scrollback: 10 },
      { cols: 20, rows: 5, scrollback: Infinity, skipHiddenOutput: true },
    ]
  ) {
    const t = new Terminal(opts);
    t.write(text);
    assertEquals(t.normalBuffer.trimmed + t.normalBuffer.length, 5001);
  }
});

/** How many of `chunks` a skipping terminal with `opts` plans to skip part of. */
function countSkips(
  chunks: Uint8Array[],
  opts: TestOptions,
  stats = { printed: 0 },
): number {
  let n = 0;
  const t = new Terminal(opts);
  const keep = opts.scrollback + opts.rows + 1;
  for (const chunk of chunks) {
    const plan = t.buffer.isAlt ? null : planHiddenOutput(
      chunk,
      t.cursorX,
      t.wrapPending,
      t.cols,
      true,
      false,
      keep,
      t.modes.graphemes,
    );
    if (plan !== null) {
      n++;
      if (plan.count > 1) stats.printed++;
    }
    t.write(chunk);
  }
  return n;
}

Deno.test("hidden output: after a skip the cursor column and the character REP repeats are what printing gives", () => {
  const opts = { cols: 20, rows: 3, scrollback: 2 };
  for (
    const text of [
      // Empty lines after "abc\n" keep the column: the CPR tells it.
      "abc\n" + "\n".repeat(12) + "\x1b[6n",
      // Nothing printed after the skipped "xyz": REP repeats its z.
      "xyz\r\n" + "\r\n".repeat(12) + "\x1b[3b",
    ]
  ) {
    const replies: string[][] = [[], []];
    const terms = [false, true].map((skip, k) =>
      new Terminal({
        ...opts,
        skipHiddenOutput: skip,
        reply: (d) => replies[k].push(d),
      })
    );
    const bytes = enc.encode(text);
    assert(
      planHiddenOutput(bytes, 0, false, 20, true, false, 2 + 3 + 1, false) !==
        null,
      "the write skips",
    );
    for (const t of terms) t.write(bytes);
    assertEquals(modelDiff(terms[0], terms[1]), null, JSON.stringify(text));
    assertEquals(replies[1], replies[0]);
    assertEquals(terms[1].cursorX, terms[0].cursorX);
  }
});

Deno.test("hidden output: a write that starts inside a character or a sequence still skips after its first line", () => {
  const opts = { cols: 40, rows: 5, scrollback: 20 };
  const lines = "\x1b[1m\u65e5\u672c\x1b[m text\r\n".repeat(200);
  for (const head of ["\u65e5", "\x1b[31m"]) {
    const bytes = enc.encode("x" + head + lines);
    const cutAt = 2; // inside the first character or sequence
    const chunks = [bytes.subarray(0, cutAt), bytes.subarray(cutAt)];
    const skipping = new Terminal({ ...opts, skipHiddenOutput: true });
    for (const c of chunks) skipping.write(c);
    assert(skipping.skippedOutput > 1000, `skipped ${skipping.skippedOutput}`);
    compare(chunks, opts, JSON.stringify(head));
  }
});
