/**
 * The CPU the sessions' emulator thread (server/emulator_worker.ts) spends
 * per MB of a flood, fed the way the server's read loop feeds it: pieces
 * of PTY output posted through `WorkerThreadEmulator.write`, the writer waiting
 * for `drained()` past EMULATOR_HIGH. CPU time comes from the thread's
 * /proc entry (Linux), so other load on the machine changes it little.
 *
 * Run: `deno run -A bench/emulator_thread_bench.ts [--mb 30] [--piece 65536]
 * [--stream lines|ls|yes|cjk] [--cols 80] [--runs 3]`. Prints ms of the
 * thread's CPU per MB for each run and their median, and this process's
 * resident memory: before the run, its peak during the run (sampled every
 * 20 ms) and 1 s after it (the thread's buffers are what a flood costs
 * the server beyond its model: issue 39 target 6).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { EMULATOR_HIGH } from "../server/emulator_host.ts";
import { WorkerThreadEmulator } from "../server/worker_thread_emulator.ts";
import { cjkEmoji } from "./streams.ts";

const MB = 1000 * 1000;
const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "30" },
    piece: { type: "string", default: "65536" },
    stream: { type: "string", default: "lines" },
    cols: { type: "string", default: "80" },
    runs: { type: "string", default: "3" },
  },
});
const size = Number(values.mb) * MB;
const piece = Number(values.piece);
const cols = Number(values.cols);

/** The flood, as the terminal receives it (after the tty's onlcr). */
function flood(kind: string): Uint8Array {
  let unit: string;
  if (kind === "lines") {
    // base64's 76 columns
    unit = "";
    for (let i = 0; i < 64; i++) {
      let l = "";
      for (let k = 0; k < 76; k++) {
        l += String.fromCharCode(0x41 + (i * 7 + k) % 26);
      }
      unit += l + "\r\n";
    }
  } else if (kind === "ls") {
    unit = "";
    for (let i = 0; i < 64; i++) {
      unit +=
        `\x1b[0m\x1b[01;34mdir${i}\x1b[0m  file-${i}.txt  \x1b[01;32mrun${i}.sh\x1b[0m  notes-${i}.md\r\n`;
    }
  } else if (kind === "yes") {
    unit = "y\r\n".repeat(1000);
  } else if (kind === "cjk") {
    // bench:e2e's cjk stream: CJK, emoji, combining marks and ASCII
    const block = cjkEmoji(1 << 20);
    return block.length >= size ? block.slice(0, size) : repeat(block, size);
  } else throw new Error(`--stream: '${kind}' is not lines, ls, yes or cjk`);
  return repeat(new TextEncoder().encode(unit), size);
}

/** `size` bytes of `u` over and over (cut anywhere: a piece may split a sequence, as a read may). */
function repeat(u: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += u.length) out.set(u.subarray(0, size - i), i);
  return out;
}

/** CPU ms of this process's threads named `worker-*` (the emulator thread). */
function workerCpuMs(): number {
  let ms = 0;
  for (const t of Deno.readDirSync("/proc/self/task")) {
    const stat = Deno.readTextFileSync(`/proc/self/task/${t.name}/stat`);
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    if (!comm.startsWith("worker")) continue;
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ms += (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
  }
  return ms;
}

/** This process's resident memory, MB. */
function rssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const data = flood(values.stream!);
const results: number[] = [];
// Keeps the thread (which ends with its last terminal) across the runs.
const keeper = new WorkerThreadEmulator({
  start: { cols: 10, rows: 2 },
  scrollback: 0,
  reply: () => {},
});
await keeper.snapshot();
for (let run = 0; run < Number(values.runs); run++) {
  const term = new WorkerThreadEmulator({
    start: { cols: cols, rows: 24 },
    scrollback: 10_000,
    reply: () => {},
  });
  await term.snapshot();
  const rss0 = rssMb();
  let peak = rss0;
  const sampler = setInterval(() => peak = Math.max(peak, rssMb()), 20);
  const cpu0 = workerCpuMs();
  const t0 = performance.now();
  for (let i = 0; i < data.length; i += piece) {
    if (term.backlog > EMULATOR_HIGH) await term.drained();
    // A piece of its own, as a PTY read gives (posting a view would
    // clone the whole buffer under it).
    term.write(data.slice(i, i + piece));
  }
  await term.snapshot(); // answered after everything before it was parsed
  const wall = performance.now() - t0;
  const cpu = workerCpuMs() - cpu0;
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 1000));
  const after = rssMb();
  term.close();
  const perMb = cpu / (size / MB);
  results.push(perMb);
  console.log(
    `run ${run + 1}: emulator thread ${perMb.toFixed(1)} ms CPU per MB ` +
      `(${values.stream}, ${piece}-byte pieces), ${
        (size / MB / (wall / 1000)).toFixed(1)
      } MB/s; RSS ${rss0.toFixed(0)} MB before, peak ${peak.toFixed(0)}, ${
        after.toFixed(0)
      } 1 s after`,
  );
}
keeper.close();
results.sort((a, b) => a - b);
console.log(
  `median: ${results[Math.floor(results.length / 2)].toFixed(1)} ms per MB`,
);
