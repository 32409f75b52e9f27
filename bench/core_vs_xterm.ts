/**
 * Throughput of domterm's core emulator against xterm.js's headless engine.
 *
 * For every stream of `bench/streams.ts` (20 MB each by default), both
 * engines are fed the same bytes in 64 KiB Uint8Array chunks on a screen of
 * the same size with 10,000 lines of scrollback. Each engine is warmed up
 * once on a 2 MB prefix, then timed over 3 full runs (a fresh terminal per
 * run); the median is reported. xterm.js parses asynchronously: its time
 * runs until the callback of the last write fires. After the last run the
 * final screens of both engines are compared row by row.
 *
 * Run: `deno task bench` (or `deno run -A bench/core_vs_xterm.ts`).
 * Options: `--mb N` (stream size, default 20), `--runs N` (default 3),
 * `--stream NAME` (repeatable; default all), `--cpu` (also report process
 * CPU time per engine, to show idle time in xterm.js's scheduling).
 *
 * Exits 0 whatever the figures are; exits 1 if either engine throws.
 *
 * @module
 */

import { parseArgs } from "node:util";
import process from "node:process";
import xterm from "@xterm/headless";
import { Terminal } from "../core/emulator/terminal.ts";
import { STREAMS, type StreamSpec } from "./streams.ts";

/** Bytes handed to an engine per write call (a realistic PTY read size). */
export const CHUNK_SIZE = 64 * 1024;
/** Size of the warm-up prefix. */
export const WARMUP_BYTES = 2 * 1000 * 1000;
/** Scrollback lines of both engines. */
export const SCROLLBACK = 10_000;
/** Throughput ratio (domterm / xterm.js) we aim for. */
export const TARGET_RATIO = 1.5;

const MB = 1000 * 1000;

/** One engine's figures for one stream. */
export interface EngineResult {
  /** Median wall time of the timed runs, in ms. */
  medianMs: number;
  /** Median process CPU time (user + system) of the timed runs, in ms. */
  medianCpuMs: number;
  /** Final screen rows, right-trimmed. */
  screen: string[];
}

/** Process CPU time (user + system) in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Feed `data` to a fresh domterm Terminal; return it. Synchronous. */
function runDomterm(spec: StreamSpec, data: Uint8Array): Terminal {
  const term = new Terminal({
    cols: spec.cols,
    rows: spec.rows,
    scrollback: SCROLLBACK,
    reply: () => {},
  });
  for (let off = 0; off < data.length; off += CHUNK_SIZE) {
    term.write(data.subarray(off, off + CHUNK_SIZE));
  }
  return term;
}

function domtermScreen(term: Terminal): string[] {
  const b = term.buffer;
  const rows: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    rows.push(b.getLine(b.length - term.rows + y).toString(true));
  }
  return rows;
}

type XTerm = InstanceType<typeof xterm.Terminal>;

/** Rejects the xterm.js run in progress when its async parsing throws. */
let pendingReject: ((e: unknown) => void) | null = null;
globalThis.addEventListener("error", (ev) => {
  if (pendingReject) {
    ev.preventDefault();
    pendingReject(ev.error ?? new Error(ev.message));
    pendingReject = null;
  }
});

/** Feed `data` to a fresh xterm.js Terminal; resolve once all is parsed. */
function runXterm(spec: StreamSpec, data: Uint8Array): Promise<XTerm> {
  const term = new xterm.Terminal({
    cols: spec.cols,
    rows: spec.rows,
    scrollback: SCROLLBACK,
    allowProposedApi: true,
  });
  return new Promise<XTerm>((resolve, reject) => {
    pendingReject = reject;
    for (let off = 0; off < data.length; off += CHUNK_SIZE) {
      const last = off + CHUNK_SIZE >= data.length;
      term.write(
        data.subarray(off, off + CHUNK_SIZE),
        last
          ? () => {
            pendingReject = null;
            resolve(term);
          }
          : undefined,
      );
    }
  });
}

function xtermScreen(term: XTerm): string[] {
  const buf = term.buffer.active;
  const rows: string[] = [];
  // getLine() indexes the whole buffer; the screen starts at baseY.
  for (let y = 0; y < term.rows; y++) {
    rows.push(buf.getLine(buf.baseY + y)?.translateToString(true) ?? "");
  }
  return rows;
}

/** Warm up once on a prefix, then time `runs` full runs of one engine. */
async function measure<T>(
  data: Uint8Array,
  runs: number,
  run: (d: Uint8Array) => T | Promise<T>,
  screen: (t: T) => string[],
): Promise<EngineResult> {
  await run(data.subarray(0, Math.min(WARMUP_BYTES, data.length)));
  const walls: number[] = [], cpus: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i++) {
    last = undefined; // let the previous terminal be collected
    const c0 = cpuMs();
    const t0 = performance.now();
    last = await run(data);
    walls.push(performance.now() - t0);
    cpus.push(cpuMs() - c0);
  }
  return {
    medianMs: median(walls),
    medianCpuMs: median(cpus),
    screen: screen(last!),
  };
}

function cpuModel(): string {
  try {
    const info = Deno.readTextFileSync("/proc/cpuinfo");
    const m = info.match(/^model name\s*:\s*(.+)$/m);
    return m ? m[1].trim() : "unknown";
  } catch {
    return "unknown";
  }
}

function pad(s: string, n: number, right = false): string {
  return right ? s.padStart(n) : s.padEnd(n);
}

/** Run the benchmark; returns the process exit code. */
export async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      mb: { type: "string", default: "20" },
      runs: { type: "string", default: "3" },
      stream: { type: "string", multiple: true },
      cpu: { type: "boolean", default: false },
    },
  });
  const size = Math.round(Number(values.mb) * MB);
  const runs = Math.max(1, Math.floor(Number(values.runs)));
  if (!(size > 0)) throw new Error(`bad --mb ${values.mb}`);
  const wanted = values.stream;
  const streams = STREAMS.filter((s) => !wanted || wanted.includes(s.name));
  if (streams.length === 0) {
    throw new Error(`no stream among ${STREAMS.map((s) => s.name).join(", ")}`);
  }

  console.log(
    `Deno ${Deno.version.deno} (V8 ${Deno.version.v8}), ${Deno.build.target}`,
  );
  console.log(
    `CPU: ${cpuModel()} x${navigator.hardwareConcurrency}; ` +
      `chunks ${CHUNK_SIZE / 1024} KiB, scrollback ${SCROLLBACK}, ` +
      `warm-up ${WARMUP_BYTES / MB} MB, median of ${runs} run(s)`,
  );
  console.log();

  const head = [
    pad("stream", 8),
    pad("size", 9),
    pad("domterm MB/s", 13, true),
    pad("xterm.js MB/s", 14, true),
    pad("ratio", 7, true),
    pad(`>=${TARGET_RATIO}x`, 7, true),
    pad("rows differ", 12, true),
  ];
  if (values.cpu) head.push(pad("cpu/wall d|x", 13, true));
  console.log(head.join("  "));

  let failed = false;
  const notes: string[] = [];
  for (const spec of streams) {
    const data = spec.generate(size);
    const mb = data.length / MB;
    let ours: EngineResult, theirs: EngineResult;
    try {
      ours = await measure(
        data,
        runs,
        (d) => runDomterm(spec, d),
        domtermScreen,
      );
    } catch (e) {
      failed = true;
      console.log(`${pad(spec.name, 8)}  domterm threw: ${e}`);
      continue;
    }
    try {
      theirs = await measure(
        data,
        runs,
        (d) => runXterm(spec, d),
        xtermScreen,
      );
    } catch (e) {
      failed = true;
      console.log(`${pad(spec.name, 8)}  xterm.js threw: ${e}`);
      continue;
    }
    const oursRate = mb / (ours.medianMs / 1000);
    const theirsRate = mb / (theirs.medianMs / 1000);
    const ratio = oursRate / theirsRate;
    let differ = 0;
    for (let y = 0; y < spec.rows; y++) {
      if (ours.screen[y] !== theirs.screen[y]) {
        if (differ === 0) {
          notes.push(
            `${spec.name}: first differing row ${y}\n` +
              `  domterm : ${JSON.stringify(ours.screen[y])}\n` +
              `  xterm.js: ${JSON.stringify(theirs.screen[y])}`,
          );
        }
        differ++;
      }
    }
    const row = [
      pad(spec.name, 8),
      pad(`${mb.toFixed(1)} MB`, 9),
      pad(oursRate.toFixed(1), 13, true),
      pad(theirsRate.toFixed(1), 14, true),
      pad(ratio.toFixed(2), 7, true),
      pad(ratio >= TARGET_RATIO ? "yes" : "no", 7, true),
      pad(`${differ}/${spec.rows}`, 12, true),
    ];
    if (values.cpu) {
      row.push(
        pad(
          `${(ours.medianCpuMs / ours.medianMs).toFixed(2)}|${
            (theirs.medianCpuMs / theirs.medianMs).toFixed(2)
          }`,
          13,
          true,
        ),
      );
    }
    console.log(row.join("  "));
  }
  if (notes.length) {
    console.log("\nScreen differences (information for the emulator):");
    for (const n of notes) console.log(n);
  }
  return failed ? 1 : 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
