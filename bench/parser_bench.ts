/**
 * Parser throughput with a no-op handler.
 *
 * `deno bench bench/parser_bench.ts` gives time per iteration; every
 * iteration parses 1 MiB, so MB/s = 1 / (time in s) (roughly 1.05 MB).
 * `deno run bench/parser_bench.ts` prints MB/s directly.
 *
 * @module
 */

import type { ParserHandler } from "../core/parser/handler.ts";
import { Parser } from "../core/parser/parser.ts";

const SIZE = 1024 * 1024;
const enc = new TextEncoder();

/** Repeat `unit` (generated per index) until SIZE bytes. */
function build(unit: (i: number) => string): Uint8Array {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < SIZE; i++) {
    const u = unit(i);
    parts.push(u);
    n += enc.encode(u).length;
  }
  return enc.encode(parts.join("")).subarray(0, SIZE);
}

const words = "the quick brown fox jumps over the lazy dog 0123456789 ";
const line = (i: number) =>
  (words.repeat(2) + String(i)).slice(0, 78 - (i % 7)) + "\r\n";

/** Input name -> 1 MiB of bytes. */
export const inputs: Record<string, Uint8Array> = {
  "plain ASCII": build(line),
  "SGR-heavy coloured text": build((i) =>
    `\x1b[38;5;${i % 256}m${words.slice(i % 40, (i % 40) + 6)}` +
    `\x1b[1;48:2::${i % 256}:${(i * 7) % 256}:40m ok\x1b[0m ` +
    (i % 8 === 0 ? "\r\n" : "")
  ),
  "cursor-motion-heavy": build((i) =>
    `\x1b[${(i % 50) + 1};${(i % 132) + 1}H${
      String.fromCharCode(0x41 + i % 26)
    }` +
    `\x1b[K\x1b[?25l\x1b[2A\x1b[3C\x1b[?25h`
  ),
  "CJK": build((i) =>
    "\u4e2d\u6587\u6587\u672c\u6e2c\u8a66\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\ud55c\uad6d\uc5b4"
      .repeat(2) + (i % 2 ? "\r\n" : "")
  ),
  "OSC 1337 base64 image": (() => {
    const b = new Uint8Array(SIZE).fill(0x41);
    b.set(enc.encode("\x1b]1337;File=inline=1:"));
    b[SIZE - 1] = 0x07;
    return b;
  })(),
};

const noop: ParserHandler = {
  print() {},
  execute() {},
  csi() {},
  esc() {},
  osc() {},
  dcs() {},
  apc() {},
};

/** Feed `data` in 64 KiB chunks, like a PTY read loop would. */
function parse(p: Parser, data: Uint8Array): void {
  for (let i = 0; i < data.length; i += 65536) {
    p.feed(data.subarray(i, i + 65536));
  }
}

for (const [name, data] of Object.entries(inputs)) {
  const p = new Parser(noop);
  Deno.bench(`parser: ${name} (1 MiB)`, () => parse(p, data));
}

if (import.meta.main) {
  for (const [name, data] of Object.entries(inputs)) {
    const p = new Parser(noop);
    for (let i = 0; i < 20; i++) parse(p, data); // warm up
    const rounds = 100;
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) parse(p, data);
    const s = (performance.now() - t0) / 1000;
    const mbps = (data.length * rounds) / s / 1e6;
    console.log(`${name.padEnd(26)} ${mbps.toFixed(0).padStart(6)} MB/s`);
  }
}
