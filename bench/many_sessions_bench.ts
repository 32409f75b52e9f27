/**
 * Many sessions in one server (issue 37): N sessions each run
 * `seq 1 200000` at once while a window of another session types one key
 * every 100 ms (bench/many_sessions_typist.ts, in a worker); prints how long the floods took, whether each ended with its
 * correct last line, and the echo's latency (median, p90, max). Then the
 * server's resident memory with 1, 50 and 200 idle sessions that each
 * printed 10,000 coloured lines (windows gone, as in bench/sessions_bench.ts),
 * and with `--flood-mb N` each then also printed N MB of 77-byte lines (what
 * a flood leaves: history, replay log).
 *
 * The server is a real `domterm --no-browser` process (this checkout's
 * main.ts, or another checkout's with `--main PATH` to compare with the
 * code before); the windows are WebSocket clients in this process that
 * acknowledge output at once. A phase that does not finish within
 * `--timeout` seconds is reported as such (before issue 37 was fixed, the
 * server stopped reading every PTY at about 33 sessions).
 *
 * Run: `deno run -A bench/many_sessions_bench.ts [--main PATH]
 * [--sessions 200] [--lines 200000] [--idle 1,50,200]
 * [--history-lines 10000] [--flood-mb 0] [--at-once] [--heaps]
 * [--timeout 300] [--trace]`. `--trace`: the server notes each key's way
 * (server/echo_trace.ts) and the floods' phase prints how long each step of
 * the echo took (bench/echo_trace_report.ts). Exits 0 whatever the figures. The floods' phase also
 * prints the server's highest RSS while they ran and readings as it
 * settles; `--flood-mb` floods the idle sessions one at a time, or with
 * `--at-once` all together (their windows closed first: nothing
 * holds them back); `--heaps` starts the server under `--inspect`
 * and adds its main isolate's heap (`Deno.memoryUsage()`) to the readings.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { spawnServer } from "../tests/e2e/domterm.ts";
import { Inspector } from "./inspector.ts";
import { echoStages } from "./echo_trace_report.ts";

const { values } = parseArgs({
  options: {
    main: { type: "string" },
    sessions: { type: "string", default: "200" },
    lines: { type: "string", default: "200000" },
    idle: { type: "string", default: "1,50,200" },
    "history-lines": { type: "string", default: "10000" },
    "flood-mb": { type: "string", default: "0" },
    timeout: { type: "string", default: "300" },
    /** Flood the idle sessions at once instead of one at a time. */
    "at-once": { type: "boolean", default: false },
    /** Read the server's V8 heaps (main and emulator thread) through its inspector. */
    heaps: { type: "boolean", default: false },
    /** Trace the typist's echoes through the server (server/echo_trace.ts) and print where they waited. */
    trace: { type: "boolean", default: false },
  },
});
const MAIN = values.main ?? new URL("../main.ts", import.meta.url).pathname;
const floodSessions = Number(values.sessions);
const lines = Number(values.lines);
const idleCounts = values.idle === "none"
  ? []
  : values.idle!.split(",").map(Number);
const historyLines = Number(values["history-lines"]);
const floodMb = Number(values["flood-mb"]);
const timeoutMs = Number(values.timeout) * 1000;
const encoder = new TextEncoder();

/** A window on a new session: acknowledges every output frame at once. */
class Window {
  readonly ws: WebSocket;
  /** The last 4 KiB of output, as text. */
  tail = "";
  bytes = 0;
  ready: Promise<void>;
  /** Called after every output frame. */
  onOutput: ((text: string) => void) | null = null;
  #decoder = new TextDecoder();

  constructor(url: string) {
    const u = new URL(url);
    const key = new URLSearchParams(u.hash.slice(1)).get("key")!;
    this.ws = new WebSocket(`ws://${u.host}/ws`);
    this.ws.binaryType = "arraybuffer";
    const ready = Promise.withResolvers<void>();
    this.ready = ready.promise;
    this.ws.onopen = () =>
      this.ws.send(JSON.stringify({ type: "hello", key, cols: 80, rows: 24 }));
    this.ws.onerror = () => ready.reject(new Error("socket error"));
    this.ws.onmessage = (ev) => {
      if (typeof ev.data === "string") {
        if (JSON.parse(ev.data).type === "ready") ready.resolve();
        return;
      }
      const b = new Uint8Array(ev.data as ArrayBuffer);
      this.bytes += b.length;
      this.ws.send(JSON.stringify({ type: "ack", bytes: b.length }));
      const text = this.#decoder.decode(b, { stream: true });
      this.tail = (this.tail + text).slice(-4096);
      this.onOutput?.(text);
    };
  }

  input(text: string): void {
    this.ws.send(encoder.encode(text));
  }

  /** Resolves once the output's tail contains `marker` (false on timeout). */
  until(marker: string, ms: number): Promise<boolean> {
    if (this.tail.includes(marker)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      const previous = this.onOutput;
      this.onOutput = (text) => {
        previous?.(text);
        if (this.tail.includes(marker)) {
          clearTimeout(timer);
          this.onOutput = previous;
          resolve(true);
        }
      };
    });
  }
}

function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** User + system CPU of a process, in ms. */
function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ = 100
}

/** A thread's time on a CPU, time runnable but waiting for one (ms), and how many times it ran (/proc/PID/task/TID/schedstat). */
interface Sched {
  run: number;
  wait: number;
  slices: number;
}

/** The schedstat of every thread of process `pid`, by thread id. */
function schedstats(pid: number): Map<number, Sched> {
  const out = new Map<number, Sched>();
  for (const e of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait, slices] = Deno.readTextFileSync(
        `/proc/${pid}/task/${e.name}/schedstat`,
      ).trim().split(" ").map(Number);
      out.set(Number(e.name), { run: run / 1e6, wait: wait / 1e6, slices });
    } catch { /* gone */ }
  }
  return out;
}

/**
 * How the server's threads were scheduled between two `schedstats`: its
 * main thread's time on a CPU and runnable but waiting for one (the
 * machine's share of an echo's delay), and the other threads' together.
 */
function schedLine(
  pid: number,
  before: Map<number, Sched>,
  after: Map<number, Sched>,
): string {
  const diff = (tid: number) => {
    const a = after.get(tid), b = before.get(tid);
    if (!a) return { run: 0, wait: 0, slices: 0 };
    return {
      run: a.run - (b?.run ?? 0),
      wait: a.wait - (b?.wait ?? 0),
      slices: a.slices - (b?.slices ?? 0),
    };
  };
  const main = diff(pid);
  const rest = { run: 0, wait: 0 };
  for (const tid of after.keys()) {
    if (tid === pid) continue;
    const d = diff(tid);
    rest.run += d.run;
    rest.wait += d.wait;
  }
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return `  server main thread: on a CPU ${
    s(main.run)
  } s, runnable waiting for one ${s(main.wait)} s (${
    (main.wait / Math.max(1, main.slices)).toFixed(2)
  } ms a wait, ${main.slices} runs); its other threads: on a CPU ${
    s(rest.run)
  } s, waiting ${s(rest.wait)} s`;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/**
 * `Deno.memoryUsage()` of the server's main isolate, through its inspector
 * (`--heaps`), as "heap U/T MB, external E MB".
 */
async function mainHeaps(insp: Inspector): Promise<string> {
  const r = await insp.send("Runtime.evaluate", {
    expression: "JSON.stringify(Deno.memoryUsage())",
  });
  const v = (r as { result?: { value?: string } })?.result?.value;
  if (!v) return "main heap ?";
  const m = JSON.parse(v) as Record<string, number>;
  const mb = (n: number) => (n / 1e6).toFixed(0);
  return `main heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB, external ${
    mb(m.external)
  } MB`;
}

/** The server's process, its pid, its main isolate's heaps with `--heaps`, its echo trace's file with `--trace`. */
interface Server {
  url: string;
  pid: number;
  heaps: Inspector | null;
  trace: string | null;
}

async function withServer<T>(f: (s: Server) => Promise<T>): Promise<T> {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-bench-" });
  const port = 9000 + Math.floor(Math.random() * 900);
  const trace = values.trace ? `${dir}/echo_trace.jsonl` : null;
  const { child, url } = await spawnServer(
    ["--", "/bin/sh"],
    {
      DOMTERM_RUNTIME_DIR: dir,
      DOMTERM_SOCKET: "",
      ...(trace ? { DOMTERM_ECHO_TRACE: trace } : {}),
    },
    MAIN,
    undefined,
    values.heaps ? [`--inspect=127.0.0.1:${port}`] : [],
  );
  const heaps = values.heaps ? await Inspector.connect(port) : null;
  try {
    return await f({ url, pid: child.pid, heaps, trace });
  } finally {
    heaps?.close();
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The server's RSS, and its main heap with `--heaps`. */
async function memoryLine(s: Server): Promise<string> {
  const rss = `RSS ${rssMb(s.pid).toFixed(0)} MB`;
  return s.heaps ? `${rss} (${await mainHeaps(s.heaps)})` : rss;
}

/** The highest RSS of process `pid` from now until `stop()`, read every 100 ms. */
function peakRss(pid: number): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch { /* gone */ }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Readings of the server's memory at `times` (ms from now), printed as they come. */
async function settling(s: Server, times: number[]): Promise<void> {
  const t0 = performance.now();
  for (const t of times) {
    await new Promise((r) =>
      setTimeout(r, Math.max(0, t0 + t - performance.now()))
    );
    console.log(`    ${(t / 1000).toFixed(0)} s later: ${await memoryLine(s)}`);
  }
}

/** `count` windows on new sessions, each at its shell's prompt with echo off. */
async function openWindows(url: string, count: number): Promise<Window[]> {
  const windows: Window[] = [];
  for (let i = 0; i < count; i++) windows.push(new Window(url));
  await Promise.all(windows.map((w) => w.ready));
  for (const w of windows) w.input("stty -echo; echo RE''ADY\r");
  const ok = await Promise.all(windows.map((w) => w.until("READY", timeoutMs)));
  const n = ok.filter((x) => x).length;
  if (n < count) throw new Error(`only ${n} of ${count} shells answered`);
  return windows;
}

/** What the typist measured: each key's latency (ms), and its send and receive times on the trace's clock. */
interface Typed {
  latencies: number[];
  times: [number, number][];
}

/** Starts the typist (bench/many_sessions_typist.ts) on a new session; `stop()` gives what it measured. */
async function typist(url: string): Promise<{ stop(): Promise<Typed> }> {
  const worker = new Worker(
    new URL("./many_sessions_typist.ts", import.meta.url),
    { type: "module" },
  );
  const started = Promise.withResolvers<void>();
  const result = Promise.withResolvers<Typed>();
  worker.onmessage = (ev) => {
    if (ev.data.started) started.resolve();
    else result.resolve(ev.data);
  };
  worker.postMessage({ url });
  await started.promise;
  return {
    async stop() {
      worker.postMessage("stop");
      const typed = await result.promise;
      worker.terminate();
      return typed;
    },
  };
}

async function floods(): Promise<void> {
  await withServer(async (server) => {
    const { url, pid } = server;
    const windows = await openWindows(url, floodSessions);
    const t = await typist(url);
    const rssBefore = rssMb(pid);
    const peak = peakRss(pid);
    const cpu0 = cpuMs(pid);
    const sched0 = schedstats(pid);
    const t0 = performance.now();
    const times: number[] = [];
    const results = await Promise.all(windows.map(async (w) => {
      w.input(`seq 1 ${lines}; echo SEQ''-DONE\r`);
      const ok = await w.until("SEQ-DONE", timeoutMs);
      times.push(performance.now() - t0);
      // The line before the marker is the last one seq printed.
      const before = w.tail.slice(0, w.tail.indexOf("SEQ-DONE"));
      const last = before.trimEnd().split(/\r?\n/).at(-1);
      return ok && last === String(lines);
    }));
    const wall = performance.now() - t0;
    const cpu = cpuMs(pid) - cpu0;
    const sched = schedLine(pid, sched0, schedstats(pid));
    const rssPeak = peak.stop();
    const typed = await t.stop();
    const latencies = typed.latencies.sort((a, b) => a - b);
    const correct = results.filter((x) => x).length;
    const mb = windows.reduce((n, w) => n + w.bytes, 0) / 1e6;
    console.log(
      `${floodSessions} sessions running seq 1 ${lines} at once: ` +
        `${correct} of ${floodSessions} ended with their correct last line; ` +
        `all done in ${(wall / 1000).toFixed(1)} s (${
          (mb / (wall / 1000)).toFixed(1)
        } MB/s in all), the first in ${
          (Math.min(...times) / 1000).toFixed(1)
        } s; server CPU ${(cpu / 1000).toFixed(1)} s (${
          (100 * cpu / wall).toFixed(0)
        }% of a core)`,
    );
    console.log(
      `  echo in another session meanwhile, ${latencies.length} keys: median ${
        percentile(latencies, 0.5).toFixed(1)
      } ms, p90 ${percentile(latencies, 0.9).toFixed(1)} ms, max ${
        latencies.at(-1)?.toFixed(1)
      } ms; server RSS ${rssBefore.toFixed(0)} MB before, ${
        rssPeak.toFixed(0)
      } MB at most during the floods, ${rssMb(pid).toFixed(0)} MB after`,
    );
    console.log(sched);
    if (server.trace) console.log(echoStages(server.trace, typed.times));
    // What the floods leave, windows still open (the emulators move back
    // from their thread 5 s after their output stopped, then pack).
    await settling(server, [0, 2000, 10_000, 20_000]);
    for (const w of windows) w.ws.close();
    console.log("  windows closed:");
    await settling(server, [3000]);
  });
}

async function idleRss(n: number): Promise<void> {
  await withServer(async (server) => {
    const { url, pid } = server;
    const windows = await openWindows(url, n);
    for (const w of windows) {
      w.input(
        `awk 'BEGIN{for(i=1;i<=${historyLines};i++) printf "\\033[3%dm%06d\\033[0m a line of coloured history \\033[1mbold\\033[0m \\033[4munder\\033[0m\\n", i%8, i}'; echo HIST''-DONE\r`,
      );
    }
    const ok = await Promise.all(
      windows.map((w) => w.until("HIST-DONE", timeoutMs)),
    );
    let floodNote = "";
    if (floodMb > 0) {
      const before = rssMb(pid);
      const peak = peakRss(pid);
      const t0 = performance.now();
      const flood = (w: Window) => {
        w.input(
          `yes "$(printf '%076d' 1)" | head -c ${floodMb}000000; echo FLO''OD-DONE\r`,
        );
        return w.until("FLOOD-DONE", timeoutMs);
      };
      if (values["at-once"]) {
        // Windows gone first: each session reads as fast as its emulator
        // parses, and this process decodes none of it.
        const dir = Deno.makeTempDirSync({ prefix: "domterm-floods-" });
        windows.forEach((w, i) =>
          w.input(
            `(yes "$(printf '%076d' 1)" | head -c ${floodMb}000000; touch ${dir}/${i})\r`,
          )
        );
        await new Promise((r) => setTimeout(r, 500));
        for (const w of windows) w.ws.close();
        const end = performance.now() + timeoutMs;
        while (
          [...Deno.readDirSync(dir)].length < n && performance.now() < end
        ) await new Promise((r) => setTimeout(r, 250));
        Deno.removeSync(dir, { recursive: true });
      } else {
        // One at a time: the figure is what the floods leave, not their peak.
        for (const w of windows) await flood(w);
      }
      floodNote = ` (floods ${
        values["at-once"] ? "at once" : "one at a time"
      }: ${((performance.now() - t0) / 1000).toFixed(1)} s, RSS ${
        before.toFixed(0)
      } MB before, ${peak.stop().toFixed(0)} MB at most)`;
      if (values["at-once"]) {
        console.log(`  after the floods${floodNote}:`);
        await settling(server, [0, 10_000, 30_000, 60_000]);
      }
    }
    // Windows gone (a lost connection: the sessions stay, detached).
    for (const w of windows) w.ws.close();
    // After floods, the emulators come back from their thread once quiet
    // for 5 s (server/session_emulator.ts).
    await new Promise((r) => setTimeout(r, floodMb > 0 ? 8000 : 1500));
    let rss = rssMb(pid);
    for (let k = 0; k < 5; k++) {
      await new Promise((r) => setTimeout(r, 500));
      rss = Math.min(rss, rssMb(pid));
    }
    const done = ok.filter((x) => x).length;
    console.log(
      `${n} idle session(s) of ${historyLines} coloured lines each${
        floodMb > 0 ? `, then ${floodMb} MB each` : ""
      }, no window: ` +
        `server RSS ${rss.toFixed(0)} MB` + floodNote +
        (done < n ? ` (only ${done} of ${n} finished printing)` : ""),
    );
    if (values.heaps) console.log(`  ${await memoryLine(server)}`);
  });
}

console.log(`server: ${MAIN}`);
if (floodSessions > 0) {
  try {
    await floods();
  } catch (e) {
    console.log(`floods: ${(e as Error).message}`);
  }
}
for (const n of idleCounts) {
  try {
    await idleRss(n);
  } catch (e) {
    console.log(`${n} idle sessions: ${(e as Error).message}`);
  }
}
