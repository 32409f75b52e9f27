/**
 * Reclaiming extended-style ids (core/emulator/ext_sweep.ts): the time of
 * one sweep over a full history (lines as the page keeps them, and packed
 * as the server's quiet sessions keep them), and the throughput of a
 * stream where every line brings a new OSC 8 link (as `ls --hyperlink`),
 * with the ids held and the sweeps run.
 *
 * Run: `deno run -A bench/ext_sweep_bench.ts [--lines 10000] [--links
 * 200000] [--runs 9]`. Prints the best and median of `runs`. Exits 0
 * whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Terminal } from "../core/emulator/terminal.ts";
import { readSnapshot } from "../core/serialize/snapshot.ts";
import { sweepExt } from "../core/emulator/ext_sweep.ts";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "10000" },
    links: { type: "string", default: "200000" },
    runs: { type: "string", default: "9" },
  },
});
const LINES = Number(values.lines), LINKS = Number(values.links);
const RUNS = Number(values.runs);

/** Line `i`: a link, some text, a coloured word (80 columns or so). */
function line(i: number): string {
  return `\x1b]8;;https://example.com/some/path/file${i}.txt\x1b\\file${i}.txt` +
    `\x1b]8;;\x1b\\ ${"lorem ipsum ".repeat(4)}\x1b[1;34mdir${
      i % 7
    }\x1b[0m\r\n`;
}

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  return `best ${s[0].toFixed(2)}, median ${s[s.length >> 1].toFixed(2)}`;
}

// One sweep over a full history.
const full = new Terminal({ cols: 80, rows: 24, scrollback: LINES });
let text = "";
for (let i = 0; i < LINES + 24; i++) text += line(i);
full.write(text);
for (const packed of [false, true]) {
  const { state } = readSnapshot(full.snapshot());
  if (packed) state.normal.buffer.compactHistory();
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    sweepExt(state);
    ms.push(performance.now() - t0);
  }
  console.log(
    `one sweep, ${LINES} ${
      packed ? "packed" : "unpacked"
    } history lines x 80 cols, ${state.ext.live} entries kept: ${stats(ms)} ms`,
  );
}

// A stream of new links through 1,000 lines of history.
let stream = "";
for (let i = 0; i < LINKS; i++) stream += line(i);
const bytes = new TextEncoder().encode(stream);
const mbs: number[] = [];
let last = full.stats;
for (let r = 0; r < RUNS; r++) {
  const t = new Terminal({ cols: 80, rows: 24, scrollback: 1000 });
  const t0 = performance.now();
  for (let o = 0; o < bytes.length; o += 65536) {
    t.write(bytes.subarray(o, o + 65536));
  }
  mbs.push(bytes.length / 1e6 / ((performance.now() - t0) / 1000));
  last = t.stats;
}
mbs.sort((a, b) => b - a);
console.log(
  `${LINKS} new links (${(bytes.length / 1e6).toFixed(1)} MB), 1,000 lines ` +
    `of history: best ${mbs[0].toFixed(1)}, median ${
      mbs[mbs.length >> 1].toFixed(1)
    } MB/s; ${last.extStyles} ids, ${last.extLive} held, ${last.extSweeps} sweeps`,
);
