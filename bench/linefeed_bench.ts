/**
 * What a line feed costs the core emulator with a full scrollback: the
 * screen scrolls one line into history and the oldest history line is
 * recycled (core/model/buffer.ts). Short lines (`yes`) are almost only that.
 *
 * Feeds 3,000,000 lines of each kind (`LF`, `CR LF`, `y CR LF`, 40
 * characters CR LF) to a 116x35 terminal, 16 KiB per write, 9 times, and
 * prints the process CPU time per line (median and best): CPU time, not
 * wall time, so that other work on a shared machine counts less.
 *
 * Run: `deno run -A bench/linefeed_bench.ts [--scrollback N]` (default
 * 10,000).
 *
 * @module
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { Terminal } from "../core/emulator/terminal.ts";

const { values } = parseArgs({
  options: { scrollback: { type: "string", default: "10000" } },
});
const scrollback = Number(values.scrollback);
const LINES = 3_000_000;
const RUNS = 9;
const encoder = new TextEncoder();
const kinds: [string, string][] = [
  ["LF", "\n"],
  ["CR LF", "\r\n"],
  ["y CR LF", "y\r\n"],
  ["40 chars CR LF", "y".repeat(40) + "\r\n"],
];
console.log(`116x35, scrollback ${scrollback}, ${LINES} lines a run`);
for (const [name, unit] of kinds) {
  const block = encoder.encode(unit.repeat(Math.ceil(1e6 / unit.length)));
  const ns: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = new Terminal({ cols: 116, rows: 35, scrollback });
    let left = LINES * unit.length, off = 0;
    const c0 = process.cpuUsage();
    while (left > 0) {
      const n = Math.min(16384, left, block.length - off);
      t.write(block.subarray(off, off + n));
      left -= n;
      off = (off + n) % block.length;
    }
    const c = process.cpuUsage(c0);
    ns.push((c.user + c.system) * 1000 / LINES);
  }
  ns.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(15)} ns of CPU per line: median ${
      ns[RUNS >> 1].toFixed(0)
    }, best ${ns[0].toFixed(0)}`,
  );
}
