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
import { planHiddenOutput } from "../../core/emulator/hidden_output.ts";

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
      name: "a tab ends the run",
      text: "a\r\nb\tc\r\nd\r\ne\r\n",
      want: null,
    },
    {
      name: "non-ASCII ends the run",
      text: "a\r\nb\r\nc\r\nd\u00e9\r\ne\r\n",
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
        c.underlineColoured ?? false,
      );
      if (c.want === null) {
        assertEquals(plan, null);
        return;
      }
      assert(plan !== null, "a plan");
      assertEquals(dec.decode(bytes.subarray(0, plan.end)), c.want.skipped);
      assertEquals(dec.decode(plan.replay), c.want.replay);
      assertEquals(
        plan.rowsDown,
        c.want.down ?? c.want.skipped.split("\n").length - 1,
      );
      assertEquals(plan.x, c.want.x);
      assertEquals(
        plan.lastChar,
        c.want.last === "" ? -1 : c.want.last.charCodeAt(0),
      );
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

/** Writes `chunks` to a terminal that skips and to one that does not; they must stay equal. */
function compare(
  chunks: Uint8Array[],
  opts: { cols: number; rows: number; scrollback: number },
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
  opts: { cols: number; rows: number; scrollback: number },
): number {
  let n = 0;
  const t = new Terminal(opts);
  const keep = opts.scrollback + opts.rows + 1;
  for (const chunk of chunks) {
    if (
      !t.buffer.isAlt &&
      planHiddenOutput(
          chunk,
          t.cursorX,
          t.wrapPending,
          t.cols,
          true,
          false,
          keep,
        ) !== null
    ) n++;
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
      planHiddenOutput(bytes, 0, false, 20, true, false, 2 + 3 + 1) !== null,
      "the write skips",
    );
    for (const t of terms) t.write(bytes);
    assertEquals(modelDiff(terms[0], terms[1]), null, JSON.stringify(text));
    assertEquals(replies[1], replies[0]);
    assertEquals(terms[1].cursorX, terms[0].cursorX);
  }
});
