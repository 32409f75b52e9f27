/**
 * The core emulator of this checkout against another checkout's, in one
 * process, runs interleaved (A B A B ...), so that a busy or noisy machine
 * slows both alike: the way to tell whether a change made the emulator
 * faster or slower. Streams, chunking and scrollback as in
 * `core_vs_xterm.ts`.
 *
 * Run: `deno run -A bench/core_ab.ts --other PATH [--mb 20] [--runs 7]
 * [--stream NAME]` where PATH is the other checkout's root (e.g. a
 * `git worktree add /tmp/before HEAD~3`). Prints, per stream, MB/s of the
 * fastest run (what the code costs when nothing else runs: the best guide
 * on a shared machine) and of the median run, for both, and the ratios
 * this / other. Exits 0 whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Terminal } from "../core/emulator/terminal.ts";
import { STREAMS } from "./streams.ts";
import { CHUNK_SIZE, SCROLLBACK, WARMUP_BYTES } from "./core_vs_xterm.ts";

const { values } = parseArgs({
  options: {
    other: { type: "string" },
    mb: { type: "string", default: "20" },
    runs: { type: "string", default: "7" },
    stream: { type: "string", multiple: true },
  },
});
if (!values.other) {
  console.error("core_ab: --other PATH (another checkout) is required");
  Deno.exit(2);
}
const otherUrl = new URL(
  `file://${values.other.replace(/\/$/, "")}/core/emulator/terminal.ts`,
);
const other = await import(otherUrl.href) as { Terminal: typeof Terminal };
const MB = 1000 * 1000;
const size = Number(values.mb) * MB;
const runs = Number(values.runs);

type Ctor = new (o: {
  cols: number;
  rows: number;
  scrollback: number;
  reply: () => void;
}) => { write(d: Uint8Array): void };

function time(T: Ctor, cols: number, rows: number, data: Uint8Array): number {
  const t0 = performance.now();
  const term = new T({ cols, rows, scrollback: SCROLLBACK, reply: () => {} });
  for (let off = 0; off < data.length; off += CHUNK_SIZE) {
    term.write(data.subarray(off, off + CHUNK_SIZE));
  }
  return performance.now() - t0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

console.log(`this: ${new URL("..", import.meta.url).pathname}`);
console.log(`other: ${values.other}`);
console.log(
  `${runs} interleaved runs per stream, ${values.mb} MB each, median MB/s\n`,
);
console.log(
  "stream      best: this   other   this/other   median: this   other   this/other",
);
for (const spec of STREAMS) {
  if (values.stream && !values.stream.includes(spec.name)) continue;
  const data = spec.generate(size);
  const warm = data.subarray(0, Math.min(WARMUP_BYTES, data.length));
  time(Terminal as unknown as Ctor, spec.cols, spec.rows, warm);
  time(other.Terminal as unknown as Ctor, spec.cols, spec.rows, warm);
  const a: number[] = [], b: number[] = [];
  for (let r = 0; r < runs; r++) {
    // Alternate which goes first, so neither always runs on a warmer cache.
    if (r % 2 === 0) {
      a.push(time(Terminal as unknown as Ctor, spec.cols, spec.rows, data));
      b.push(
        time(other.Terminal as unknown as Ctor, spec.cols, spec.rows, data),
      );
    } else {
      b.push(
        time(other.Terminal as unknown as Ctor, spec.cols, spec.rows, data),
      );
      a.push(time(Terminal as unknown as Ctor, spec.cols, spec.rows, data));
    }
  }
  const mbps = (ms: number) => data.length / MB / (ms / 1000);
  const ba = mbps(Math.min(...a)), bb = mbps(Math.min(...b));
  const ma = mbps(median(a)), mb = mbps(median(b));
  console.log(
    `${spec.name.padEnd(10)} ${ba.toFixed(1).padStart(11)} ${
      bb.toFixed(1).padStart(7)
    } ${(ba / bb).toFixed(3).padStart(12)} ${ma.toFixed(1).padStart(15)} ${
      mb.toFixed(1).padStart(7)
    } ${(ma / mb).toFixed(3).padStart(12)}`,
  );
}
