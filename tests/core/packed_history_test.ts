/**
 * Compact history (`Buffer.compactHistory`, `core/model/packed_line.ts`):
 * a terminal that packs its history after every chunk, as the server's
 * emulator does, must stay equal to one that never packs: same model
 * (modelDiff), same snapshot JSON, same replies, through captures of real
 * programs, random output (colours, wide and astral characters, clusters,
 * wraps, marks, erases) and resizes in the middle.
 */
import { assert, assertEquals, rng } from "./helpers.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { modelDiff } from "../../core/serialize/model_hash.ts";
import {
  Line,
  LINE_DOUBLE_BOTTOM,
  LINE_DOUBLE_WIDTH,
} from "../../core/model/line.ts";
import { PackedStore, unpackInto } from "../../core/model/packed_line.ts";
import { CELL_STRIDE } from "../../core/model/cell.ts";

const PIECES = [
  "plain text ",
  "\x1b[31mred\x1b[m ",
  "\x1b[1;4;38;2;10;200;30mrgb bold\x1b[0m",
  "\x1b[48;5;200m bg \x1b[m",
  "\x1b[44m\x1b[K\x1b[m",
  "日本語の文字",
  "😀👍🏽",
  "e\u0301a\u0308",
  "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}",
  "\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
  "\x1b[58;5;3m\x1b[4:3mcurly\x1b[m",
  "\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x07",
  "\x1b]133;D;0\x07",
  "\x1b#6wide line\r\n",
  "\x1b[2K",
  "\x1b[5D",
  "\x1b[3;10H",
  "\x1b[1J",
  "\r\n",
  "\r\n",
  "\n",
  "\x1b[?1049h alt \x1b[?1049l",
  "\x1b[6n",
  "x".repeat(100),
  "\x1b[2;5r\x1b[5;1H\n\n\x1b[r",
  "\x1bM",
  "\x1b[3S\x1b[2T",
];

function randomOutput(r: () => number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

/** Feeds `chunks` to a packing and a plain terminal; they must stay equal. */
function compare(
  chunks: Uint8Array[],
  r: () => number,
  opts: { cols: number; rows: number; scrollback: number },
): void {
  const repliesA: string[] = [];
  const repliesB: string[] = [];
  const a = new Terminal({ ...opts, reply: (d) => repliesA.push(d) });
  const b = new Terminal({ ...opts, reply: (d) => repliesB.push(d) });
  for (const [i, chunk] of chunks.entries()) {
    a.write(chunk);
    b.write(chunk);
    b.normalBuffer.compactHistory();
    if (r() < 0.1) {
      const cols = 10 + Math.floor(r() * 90), rows = 3 + Math.floor(r() * 20);
      a.resize(cols, rows);
      b.resize(cols, rows);
      b.normalBuffer.compactHistory();
    }
    if (r() < 0.2) {
      const diff = modelDiff(a, b);
      assert(diff === null, `chunk ${i}: ${diff}`);
      b.normalBuffer.compactHistory();
    }
  }
  const diff = modelDiff(a, b);
  assert(diff === null, `at the end: ${diff}`);
  b.normalBuffer.compactHistory();
  assertEquals(JSON.stringify(b.snapshot()), JSON.stringify(a.snapshot()));
  assertEquals(repliesB, repliesA);
}

function split(bytes: Uint8Array, r: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(r() * 4000);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

Deno.test("packed history: a line packs and unpacks to the same cells", () => {
  const t = new Terminal({ cols: 40, rows: 5, scrollback: 100 });
  t.write(
    "\x1b[31ma\x1b[44mb\x1b[m 日本 😀 e\u0301 \x1b[38;2;1;2;3;48;2;4;5;6;1;3mX\x1b[m\x1b[45m\x1b[K\x1b[m\r\n",
  );
  const line = t.normalBuffer.screenLine(0);
  const packed = new PackedStore().pack(line);
  const copy = new Line(line.cols);
  unpackInto(packed, copy);
  assertEquals(Array.from(copy.data), Array.from(line.data));
  assertEquals(copy.toString(), line.toString());
});

Deno.test("packed history: a short line keeps only its content", () => {
  const t = new Terminal({ cols: 80, rows: 5, scrollback: 100 });
  t.write("\x1b[32mline 12 of the history\x1b[m\r\n");
  const line = t.normalBuffer.screenLine(0);
  const packed = new PackedStore().pack(line);
  // 22 cells, one style run: 5 + 11 (a byte a code) + 2 units, against
  // 80 * 16 bytes.
  assertEquals(packed.end - packed.start, 18);
  assert((packed.end - packed.start) * 2 < line.cols * CELL_STRIDE * 4 / 20);
});

/** `text` written on a terminal of `cols` columns: its first line, packed and unpacked. */
function roundTrip(text: string, cols: number, store = new PackedStore()) {
  const t = new Terminal({ cols, rows: 3, scrollback: 10 });
  t.write(text);
  const line = t.normalBuffer.screenLine(0);
  const packed = store.pack(line);
  const copy = new Line(line.cols);
  unpackInto(packed, copy);
  assertEquals(Array.from(copy.data), Array.from(line.data));
  assertEquals(copy.toString(), line.toString());
  assertEquals([copy.wrapped, copy.size], [line.wrapped, line.size]);
  assertEquals(packed.cols, line.cols);
  return packed;
}

Deno.test("packed history: each way of storing codes and runs unpacks alike", () => {
  // Latin-1, an odd number of cells: a byte a code, the last unit half used.
  roundTrip("\x1b[33mcaf\u00e9 \u00ff\x1b[7mx", 20);
  // Below U+10000 but past U+00FF: a unit a code.
  roundTrip("\x1b[32m\u65e5\u672c\x1b[m \u2500\u2502 a", 20);
  // A wrapped line, a double-width one.
  assert(roundTrip("0123456789abc", 10).wrapped);
  assertEquals(roundTrip("\x1b#6wide", 20).size, LINE_DOUBLE_WIDTH);
  assertEquals(roundTrip("\x1b#4low", 20).size, LINE_DOUBLE_BOTTOM);
  // Astral: two units a code.
  roundTrip("\x1b[41m\u{1F600}\x1b[m b \u{10FFFF}", 20);
  // Styles past 65,535 cells in one line: runs of four units.
  const wide = 70_000;
  let long = "";
  for (let i = 0; i < wide; i += 7) {
    long += `\x1b[38;2;${i % 256};${i >> 8 & 255};${i >> 16}mabcdefg`;
  }
  roundTrip(long.slice(0, long.length - 1), wide);
});

Deno.test("packed history: lines of one block share its styles", () => {
  const store = new PackedStore();
  const a = roundTrip("\x1b[31mred\x1b[44m on blue\x1b[m plain", 40, store);
  const b = roundTrip("\x1b[44m blue\x1b[31m red on blue", 40, store);
  assert(a.styles === b.styles);
  // Default, red, red on blue, and blue: four styles of three words.
  assertEquals(a.styles.length, 12);
});

Deno.test("packed history: equal to an unpacked terminal on random output", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const r = rng(seed);
    const bytes = new TextEncoder().encode(randomOutput(r, 3000));
    compare(split(bytes, r), r, {
      cols: 20 + seed * 10,
      rows: 5 + seed,
      scrollback: seed % 2 ? 50 : 1000,
    });
  }
});

Deno.test("packed history: equal to an unpacked terminal on program captures", async () => {
  const dir = new URL("../fixtures/captures/", import.meta.url);
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".bin")) continue;
    const bytes = await Deno.readFile(new URL(e.name, dir));
    const r = rng(n + 17);
    compare(split(bytes, r), r, { cols: 80, rows: 24, scrollback: 200 });
    n++;
  }
  assert(n > 0);
});

Deno.test("packed history: history lines are packed, and read back alike", () => {
  const t = new Terminal({ cols: 80, rows: 24, scrollback: 10_000 });
  let out = "";
  for (let i = 1; i <= 1000; i++) out += `\x1b[3${i % 8}mline ${i}\x1b[m\r\n`;
  t.write(out);
  const before = t.normalBuffer.getLine(10).toString(true);
  t.normalBuffer.compactHistory();
  assertEquals(t.normalBuffer.getLine(10).toString(true), before);
  assertEquals(before, "line 11");
  // A line read back and changed keeps the change until packed again.
  const l = t.normalBuffer.getLine(20);
  assert(l === t.normalBuffer.getLine(20));
  l.wrapped = true;
  t.normalBuffer.compactHistory();
  assert(t.normalBuffer.getLine(20).wrapped);
});
