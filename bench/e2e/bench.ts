/**
 * End-to-end benchmark: domterm against xterm.js in the same headless
 * Chromium, both fed by the real `domterm --no-browser` server over the same
 * WebSocket protocol. See docs/benchmarks.md ("End to end") for the method.
 *
 * Run: `deno task bench:e2e`. Options: `--mb 10,50,200` (sizes per stream),
 * `--stream NAME` (repeatable: plain, ls, wrap, cjk, yes), `--terminal NAME`
 * (repeatable: domterm, xterm), `--keys N` (keystrokes for the latency
 * figure, default 200), `--trace-keys PREFIX` (write a Chromium trace of
 * the keystroke phase to PREFIX.domterm.json and PREFIX.xterm.json, and
 * read from it when the frame that shows each echo ended its pipeline:
 * bench/e2e/key_frames.ts; tracing slows the page a little),
 * `--profile PREFIX` (a CPU profile of the page during each stream's
 * largest run: PREFIX.KIND.STREAM.cpuprofile, its top functions, and the
 * time sorted by stage (bench/e2e/breakdown.ts: build the client without
 * `--minify` for that), with Chromium's style and layout durations),
 * `--main PATH` (the domterm to measure: another checkout's main.ts, its
 * client built, for a before/after comparison with the same clock),
 * `--perf-pid PID` (send SIGUSR2 to PID just before and just after each
 * timed run: with `perf record -a --switch-output=signal` running as PID,
 * the second file of each pair holds the whole machine during one run).
 *
 * Each run is clocked in the page: from just before the program starts
 * writing to the moment the window has drawn the line the program writes
 * last (a unique marker). Beside it, the page's own core emulator is fed
 * the same bytes directly (no socket, no drawing): the core-only rate.
 *
 * Exits 0 whatever the figures are; 1 if something breaks.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { createRequire } from "node:module";
import { type CpuProfile, RawBrowser, type RawPage } from "./cdp.ts";
import { spawnServer } from "../../tests/e2e/domterm.ts";
import { bundleForBrowser } from "../../tests/e2e/bundle.ts";
import { DEFAULT_E2E_STREAMS, e2eStream } from "./streams.ts";
import { breakdown } from "./breakdown.ts";
import { keyFramesFromTrace } from "./key_frames.ts";
import { DEFAULT_SCROLLBACK } from "../../core/model/buffer.ts";
import type { Inspected } from "../../client/inspect.ts";

const DRIVER = new URL("./driver.ts", import.meta.url).pathname;
/**
 * The domterm to measure: this checkout's main.ts, or another checkout's
 * (`--main PATH`, its client built), to compare two commits with the same
 * benchmark and clock.
 */
let serverMain: string | undefined;
/** `--perf-pid`: the `perf record --switch-output=signal` to signal around each run. */
let perfPid: number | undefined;
const MB = 1000 * 1000;
/** Warm-up bytes per stream before the timed runs (JIT, caches). */
const WARMUP = 2 * MB;
/** Page size: the same for both terminals. */
const VIEWPORT = { width: 1000, height: 600 };
/** Size of the block each stream repeats (the same as the driver's). */
const BLOCK = 4 * MB;
/** Bytes per write to the core in the core-only run (the page's piece size). */
const CORE_PIECE = 16 * 1024;
/** The goals the figures are judged against (issue 16). */
export const TARGET_RATIO = 3;
export const TARGET_CORE_SHARE = 0.6;
export const TARGET_LARGE_VS_SMALL = 0.85;
export const TARGET_MEDIAN_KEY_MS = 3;
export const TARGET_P99_KEY_MS = 8;

type Kind = "domterm" | "xterm";

/** What one terminal measured. */
interface TerminalResult {
  /** MB/s by stream and size in MB (end to end: until the window drew it). */
  mbps: Map<string, Map<number, number>>;
  /** MB/s of the page's core emulator alone on the same bytes. */
  coreMbps: Map<string, Map<number, number>>;
  /** Used JS heap (MB) after each stream's smallest and largest run. */
  heapSmall: number;
  heapLarge: number;
  /** Element count of the page after the largest run. */
  elements: number;
  /** DOM node count (elements, text and others) after the largest run. */
  nodes: number;
  /** DOM node count at the end, the page idle for 2 s. */
  nodesIdle: number;
  /** domterm server's resident set (MB) after the largest run. */
  serverRss: number;
  /** Key event to the echo in the DOM (ms). */
  keyMedian: number;
  keyP99: number;
  /**
   * Key event to the nominal start of the frame that draws the echo (ms):
   * its `requestAnimationFrame` timestamp, which can predate the key.
   */
  keyFrameMedian: number;
  keyFrameP99: number;
  /**
   * Key event to the end of the pipeline of the frame that shows the echo
   * (ms), from the Chromium trace (`--trace-keys` only, else NaN).
   */
  keyShownMedian: number;
  keyShownP99: number;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

async function heapMb(page: RawPage): Promise<number> {
  return await page.heapUsed() / MB;
}

/** A JSON-lines channel to the driver program running in the terminal. */
class DriverLink {
  #conn: Deno.UnixConn;
  #reader: ReadableStreamDefaultReader<string>;
  #buf = "";
  #enc = new TextEncoder();

  constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
    this.#reader = conn.readable.pipeThrough(new TextDecoderStream())
      .getReader();
  }

  async send(cmd: unknown): Promise<void> {
    await this.#conn.write(this.#enc.encode(JSON.stringify(cmd) + "\n"));
  }

  async receive(): Promise<Record<string, unknown>> {
    for (;;) {
      const nl = this.#buf.indexOf("\n");
      if (nl >= 0) {
        const line = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        return JSON.parse(line);
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("the driver program closed its connection");
      this.#buf += value;
    }
  }
}

/** The xterm.js page's script: xterm.css injected, then the bundle. */
async function xtermScript(): Promise<string> {
  const js = await bundleForBrowser(
    new URL("./xterm_page.ts", import.meta.url),
  );
  const require = createRequire(import.meta.url);
  const css = await Deno.readTextFile(
    require.resolve("@xterm/xterm/css/xterm.css"),
  );
  return `{ const s = document.createElement("style");
s.textContent = ${JSON.stringify(css)};
document.head.append(s); }
${js}`;
}

/** Start domterm running the driver, open `kind`'s page, connect to the driver. */
async function open(
  browser: RawBrowser,
  kind: Kind,
  size: { cols: number; rows: number } | null,
): Promise<{
  page: RawPage;
  driver: DriverLink;
  child: Deno.ChildProcess;
  cols: number;
  rows: number;
  close(): Promise<void>;
}> {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-bench-" });
  const sock = `${dir}/driver.sock`;
  const listener = Deno.listen({ transport: "unix", path: sock });
  const server = await spawnServer(
    [
      "--",
      Deno.execPath(),
      "run",
      "-A",
      DRIVER,
      sock,
    ],
    undefined,
    serverMain,
  );
  const child = server.child;
  const url = new URL(server.url);
  const key = new URLSearchParams(url.hash.slice(1)).get("key") ?? "";
  const page = await browser.newPage(VIEWPORT);
  let cols: number, rows: number;
  if (kind === "domterm") {
    await page.goto(url.href);
    await page.waitForFunction(() => "domtermInspect" in globalThis);
    [cols, rows] = await page.evaluate(() => {
      const t = (globalThis as unknown as Inspected).domtermInspect.term;
      return [t.cols, t.rows];
    });
  } else {
    // domterm's own page (index.html from the server), with its script
    // /client.js swapped for the xterm.js page (DevTools Fetch): the page is
    // on domterm's origin and its address space, so the WebSocket passes
    // the server's Origin and Host checks (and Chromium's local network
    // access checks) without any change to the server.
    const js = await xtermScript();
    await page.serveScript(`${url.origin}/client.js`, js);
    cols = size?.cols ?? 80;
    rows = size?.rows ?? 24;
    await page.goto(
      `${url.origin}/#key=${key}&cols=${cols}&rows=${rows}&scrollback=${DEFAULT_SCROLLBACK}`,
    );
    await page.waitForFunction(() => "xtermBench" in globalThis);
  }
  const conn = await Promise.race([
    listener.accept(),
    new Promise<never>((_, no) =>
      setTimeout(() => no(new Error("the driver did not connect")), 60_000)
    ),
  ]);
  listener.close();
  return {
    page,
    driver: new DriverLink(conn as Deno.UnixConn),
    child,
    cols,
    rows,
    async close() {
      await page.close();
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Install the in-page key latency probe (see docs/benchmarks.md). */
async function installKeyProbe(page: RawPage, kind: Kind): Promise<void> {
  await page.evaluate((kind) => {
    const probe = {
      t0: [] as number[],
      lat: [] as number[],
      /** Key to the start of the animation frame that draws the echo. */
      frameLat: [] as number[],
      /** Resolves once key `i`'s echo is in the DOM (no polling: no frames). */
      next(i: number): Promise<void> {
        if (probe.lat.length > i) return Promise.resolve();
        return new Promise((ok) => probe.waiters.push([i, ok]));
      },
      waiters: [] as [number, () => void][],
    };
    Object.assign(globalThis, { keyProbe: probe });
    const lastRow = kind === "domterm"
      ? () => {
        // The last screen row.
        const dt = (globalThis as unknown as Inspected).domtermInspect;
        return dt.rowElement(dt.term.buffer.length - 1);
      }
      : () => document.querySelector(".xterm-rows")?.lastElementChild;
    addEventListener("keydown", () => probe.t0.push(performance.now()), {
      capture: true,
    });
    // The frame that draws a change: the current one if the change was
    // made in an animation frame callback (xterm.js draws there), else the
    // next one (domterm draws small echoes as they arrive).
    const raf = requestAnimationFrame.bind(globalThis);
    let frameTime = -1;
    globalThis.requestAnimationFrame = (cb) =>
      raf((t) => {
        frameTime = t;
        try {
          cb(t);
        } finally {
          check();
          frameTime = -1;
        }
      });
    const check = () => {
      const i = probe.lat.length;
      if (i >= probe.t0.length) return;
      if (lastRow()?.textContent?.includes(`key ${i} `)) {
        const t0 = probe.t0[i];
        probe.lat.push(performance.now() - t0);
        if (frameTime >= 0) probe.frameLat[i] = frameTime - t0;
        else raf((t) => probe.frameLat[i] = t - t0);
        probe.waiters = probe.waiters.filter(([k, ok]) => {
          if (k < probe.lat.length) ok();
          return k >= probe.lat.length;
        });
      }
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  }, kind);
}

/**
 * Install the in-page run probe: `runProbe.arm(marker)` starts the clock
 * and `runProbe.wait()` resolves with the milliseconds until a row of the
 * window shows the marker (seen by a MutationObserver that looks at the
 * last few rows drawn, so it costs a few reads per frame).
 */
async function installRunProbe(page: RawPage, kind: Kind): Promise<void> {
  await page.evaluate((kind) => {
    const lastRows = kind === "domterm"
      ? () => {
        const dt = (globalThis as unknown as Inspected).domtermInspect;
        const n = dt.term.buffer.length, out: Element[] = [];
        for (let k = 1; k <= 4; k++) {
          const el = dt.rowElement(n - k);
          if (el) out.push(el);
        }
        return out;
      }
      : () => {
        const out: Element[] = [];
        let el = document.querySelector(".xterm-rows")?.lastElementChild;
        for (let k = 0; el && k < 4; k++, el = el.previousElementSibling) {
          out.push(el);
        }
        return out;
      };
    let marker = "", start = 0;
    let done: ((ms: number) => void) | null = null;
    let seen: Promise<number> = Promise.resolve(0);
    const check = () => {
      if (!done) return;
      for (const el of lastRows()) {
        if (el.textContent?.includes(marker)) {
          const d = done;
          done = null;
          observer.disconnect();
          d(performance.now() - start);
          return;
        }
      }
    };
    const observer = new MutationObserver(check);
    Object.assign(globalThis, {
      runProbe: {
        arm(m: string) {
          marker = m;
          seen = new Promise((ok) => done = ok);
          observer.observe(document.body, {
            subtree: true,
            childList: true,
            characterData: true,
          });
          start = performance.now();
        },
        wait: () => seen,
      },
    });
  }, kind);
}

/** Give the page the stream's block (what the driver repeats). */
async function loadBlock(page: RawPage, stream: string): Promise<void> {
  const block = e2eStream(stream).block(BLOCK);
  let bin = "";
  for (let i = 0; i < block.length; i += 0x8000) {
    bin += String.fromCharCode(...block.subarray(i, i + 0x8000));
  }
  await page.evaluate((b64) => {
    const s = atob(b64);
    const u = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    Object.assign(globalThis, { benchBlock: u });
  }, btoa(bin));
}

/**
 * Feed `bytes` of the loaded block to a fresh core emulator of the page's
 * kind (domterm's `Terminal`; xterm.js's `Terminal`, never opened, so it
 * parses but does not draw), in the pieces the page hands on; returns ms.
 */
async function coreRun(
  page: RawPage,
  kind: Kind,
  bytes: number,
  cols: number,
  rows: number,
): Promise<number> {
  return await page.evaluate(
    async ({ kind, bytes, cols, rows, scrollback, piece }) => {
      const g = globalThis as unknown as {
        benchBlock: Uint8Array;
        domtermInspect?: { term: { constructor: unknown } };
        xtermBench?: { Terminal: unknown };
      };
      const block = g.benchBlock;
      type Core = {
        write(d: Uint8Array, cb?: () => void): void;
        dispose?(): void;
      };
      const T =
        (kind === "domterm"
          ? g.domtermInspect!.term.constructor
          : g.xtermBench!.Terminal) as new (o: unknown) => Core;
      const t = new T({
        cols,
        rows,
        scrollback,
        reply() {},
        onEvent() {},
      });
      const t0 = performance.now();
      let left = bytes, off = 0;
      let last: Promise<void> = Promise.resolve();
      while (left > 0) {
        const n = Math.min(piece, left, block.length - off);
        const d = block.subarray(off, off + n);
        left -= n;
        off = (off + n) % block.length;
        if (kind === "domterm") t.write(d);
        else if (left === 0 || (bytes - left) % (4 << 20) < d.length) {
          // xterm.js queues writes and drops them past 50 MB pending:
          // wait for it every 4 MiB.
          last = new Promise((ok) => t.write(d, ok));
          await last;
        } else t.write(d);
      }
      await last;
      const ms = performance.now() - t0;
      t.dispose?.();
      return ms;
    },
    {
      kind,
      bytes,
      cols,
      rows,
      scrollback: DEFAULT_SCROLLBACK,
      piece: CORE_PIECE,
    },
  );
}

/** Self time by function in `p`, the top `n` as printable lines. */
function topFunctions(p: CpuProfile, n: number): string[] {
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i];
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const byName = new Map<string, number>();
  let total = 0;
  for (const node of p.nodes) {
    const us = self.get(node.id) ?? 0;
    total += us;
    const f = node.callFrame;
    const file = f.url.split("/").pop() ?? "";
    const name = `${f.functionName || "(anonymous)"} ${file}:${
      f.lineNumber + 1
    }`;
    byName.set(name, (byName.get(name) ?? 0) + us);
  }
  return [...byName].sort((a, b) => b[1] - a[1]).slice(0, n).map((
    [name, us],
  ) =>
    `${(us / 1000).toFixed(0).padStart(7)} ms ${
      (100 * us / total).toFixed(1).padStart(5)
    }%  ${name}`
  );
}

async function measure(
  browser: RawBrowser,
  kind: Kind,
  streams: string[],
  sizes: number[],
  keys: number,
  traceKeys: string | undefined,
  profile: string | undefined,
  size: { cols: number; rows: number } | null,
): Promise<TerminalResult & { cols: number; rows: number }> {
  const t = await open(browser, kind, size);
  const { driver, page } = t;
  await installRunProbe(page, kind);
  let runs = 0;
  /** One run, clocked by the page: until the window drew its marker. */
  const run = async (stream: string, bytes: number) => {
    const marker = `dt-bench-end-${++runs}-${Date.now() % 1e6}`;
    await page.evaluate(
      (m) =>
        (globalThis as unknown as { runProbe: { arm(m: string): void } })
          .runProbe.arm(m),
      marker,
    );
    const s = e2eStream(stream);
    await driver.send(
      s.command
        ? { op: "command", command: s.command, bytes, marker }
        : { op: "run", stream, bytes, marker },
    );
    const ms = await page.evaluate(() =>
      (globalThis as unknown as { runProbe: { wait(): Promise<number> } })
        .runProbe.wait()
    );
    await driver.receive(); // the driver is done writing
    return ms;
  };
  const res: TerminalResult = {
    mbps: new Map(),
    coreMbps: new Map(),
    heapSmall: 0,
    heapLarge: 0,
    elements: 0,
    nodes: 0,
    nodesIdle: 0,
    serverRss: 0,
    keyMedian: NaN,
    keyP99: NaN,
    keyFrameMedian: NaN,
    keyFrameP99: NaN,
    keyShownMedian: NaN,
    keyShownP99: NaN,
  };
  const smallest = Math.min(...sizes), largest = Math.max(...sizes);
  for (const stream of streams) {
    const expansion = e2eStream(stream).expansion ?? 1;
    await loadBlock(page, stream);
    await coreRun(page, kind, WARMUP, t.cols, t.rows);
    await run(stream, WARMUP);
    const bySize = new Map<number, number>();
    const coreBySize = new Map<number, number>();
    res.mbps.set(stream, bySize);
    res.coreMbps.set(stream, coreBySize);
    for (const mb of sizes) {
      let m0 = new Map<string, number>();
      if (profile && mb === largest) {
        m0 = await page.metrics();
        await page.startProfile();
      }
      if (perfPid !== undefined) Deno.kill(perfPid, "SIGUSR2");
      const ms = await run(stream, mb * MB);
      if (perfPid !== undefined) Deno.kill(perfPid, "SIGUSR2");
      if (profile && mb === largest) {
        const p = await page.stopProfile();
        const m1 = await page.metrics();
        const file = `${profile}.${kind}.${stream}.cpuprofile`;
        await Deno.writeTextFile(file, JSON.stringify(p));
        console.error(`  ${kind} ${stream}: profile in ${file}`);
        for (const line of topFunctions(p, 25)) console.error(`    ${line}`);
        const bundle = kind === "domterm"
          ? await Deno.readTextFile(
            new URL("../../static/gen/client.js", import.meta.url),
          ).catch(() => "")
          : "";
        const total = (p.endTime - p.startTime) / 1000;
        console.error(
          `    run ${ms.toFixed(0)} ms, profile ${total.toFixed(0)} ms:`,
        );
        for (const [stage, t] of breakdown(p, bundle)) {
          console.error(
            `    | ${stage} | ${t.toFixed(0)} | ${
              (100 * t / total).toFixed(1)
            }% |`,
          );
        }
        const d = (k: string) =>
          1000 * ((m1.get(k) ?? NaN) - (m0.get(k) ?? NaN));
        console.error(
          `    Chromium metrics (ms): task ${d("TaskDuration").toFixed(0)}, ` +
            `script ${d("ScriptDuration").toFixed(0)}, style ${
              d("RecalcStyleDuration").toFixed(0)
            }, layout ${d("LayoutDuration").toFixed(0)}, ` +
            `layouts ${
              (m1.get("LayoutCount")! - m0.get("LayoutCount")!).toFixed(0)
            }`,
        );
      }
      bySize.set(mb, mb / (ms / 1000));
      // The core gets what the terminal got (a command's output after
      // the tty's onlcr); MB/s are counted in the program's bytes.
      const coreMs = await coreRun(
        page,
        kind,
        Math.round(mb * MB * expansion),
        t.cols,
        t.rows,
      );
      coreBySize.set(mb, mb / (coreMs / 1000));
      console.error(
        `  ${kind} ${stream} ${mb} MB: ${(mb / (ms / 1000)).toFixed(1)} MB/s (${
          (ms / 1000).toFixed(2)
        } s), core only ${(mb / (coreMs / 1000)).toFixed(1)} MB/s`,
      );
      if (mb === smallest) {
        res.heapSmall = Math.max(res.heapSmall, await heapMb(page));
      }
      if (mb === largest) {
        res.heapLarge = Math.max(res.heapLarge, await heapMb(page));
        res.serverRss = Math.max(res.serverRss, await rssMb(t.child.pid));
        res.elements = Math.max(
          res.elements,
          await page.evaluate(() => document.getElementsByTagName("*").length),
        );
        res.nodes = Math.max(
          res.nodes,
          await page.evaluate(() => {
            const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
            let n = 0;
            while (w.nextNode()) n++;
            return n;
          }),
        );
      }
    }
  }
  if (keys > 0) {
    await installKeyProbe(page, kind);
    await driver.send({ op: "echo", count: keys, row: t.rows });
    await driver.receive();
    const chars = "abcdefghijklmnopqrstuvwxyz0123456789";
    if (traceKeys) await page.startTrace();
    for (let i = 0; i < keys; i++) {
      // A pause of 0-20 ms, so that keys come at any point of the 16.7 ms
      // frame cycle, as a typist's do (straight after an echo, they would
      // all come at the same point: an xterm.js echo is drawn in a frame).
      await new Promise((r) => setTimeout(r, (i * 7919) % 21));
      await page.press(chars[i % chars.length]);
      await page.evaluate(
        (i) =>
          (globalThis as unknown as {
            keyProbe: { next(i: number): Promise<void> };
          }).keyProbe.next(i),
        i,
      );
    }
    let trace: string | null = null;
    if (traceKeys) {
      const file = `${traceKeys}.${kind}.json`;
      trace = await page.stopTrace();
      await Deno.writeTextFile(file, trace);
      console.error(`  ${kind}: key phase trace in ${file}`);
    }
    await driver.receive();
    // The last echo's frame comes after its DOM change.
    await new Promise((r) => setTimeout(r, 100));
    const { t0, lat, frameLat } = await page.evaluate(() =>
      (globalThis as unknown as {
        keyProbe: { t0: number[]; lat: number[]; frameLat: number[] };
      }).keyProbe
    );
    if (trace !== null) {
      const shown = keyFramesFromTrace(trace, t0, lat).presented
        .filter((x) => !Number.isNaN(x));
      res.keyShownMedian = percentile(shown, 0.5);
      res.keyShownP99 = percentile(shown, 0.99);
    }
    res.keyMedian = percentile(lat, 0.5);
    res.keyP99 = percentile(lat, 0.99);
    res.keyFrameMedian = percentile(frameLat, 0.5);
    res.keyFrameP99 = percentile(frameLat, 0.99);
  }
  // The page at rest after everything (idle work done): its node count.
  await new Promise((r) => setTimeout(r, 2000));
  res.nodesIdle = await page.evaluate(() => {
    const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    let n = 0;
    while (w.nextNode()) n++;
    return n;
  });
  await driver.send({ op: "quit" });
  await driver.receive().catch(() => {});
  await t.close();
  return { ...res, cols: t.cols, rows: t.rows };
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "-");

function report(
  streams: string[],
  sizes: number[],
  results: Map<Kind, TerminalResult>,
): void {
  const d = results.get("domterm"), x = results.get("xterm");
  const smallest = Math.min(...sizes), largest = Math.max(...sizes);
  const lines: string[] = [];
  const row = (cells: string[], widths: number[]) =>
    cells.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))
      .join("  ");
  const w = [8, 8, 8, 8, 9, 8, 8, 9, 7, 6];
  lines.push(
    row(
      [
        "",
        "",
        "domterm",
        "",
        "",
        "xterm.js",
        "",
        "",
        "",
        "",
      ],
      w,
    ),
    row(
      [
        "stream",
        "size",
        "MB/s",
        "core",
        "e2e/core",
        "MB/s",
        "core",
        "e2e/core",
        "ratio",
        `>=${TARGET_RATIO}x`,
      ],
      w,
    ),
  );
  const fr = (r: number) => Number.isFinite(r) ? r.toFixed(2) : "-";
  for (const s of streams) {
    for (const mb of sizes) {
      const a = d?.mbps.get(s)?.get(mb) ?? NaN;
      const ac = d?.coreMbps.get(s)?.get(mb) ?? NaN;
      const b = x?.mbps.get(s)?.get(mb) ?? NaN;
      const bc = x?.coreMbps.get(s)?.get(mb) ?? NaN;
      const r = a / b;
      lines.push(row([
        s,
        `${mb} MB`,
        f1(a),
        f1(ac),
        fr(a / ac),
        f1(b),
        f1(bc),
        fr(b / bc),
        fr(r),
        Number.isFinite(r) ? (r >= TARGET_RATIO ? "yes" : "NO") : "-",
      ], w));
    }
  }
  lines.push(
    "(MB/s end to end: until the window drew the run's last line; core:",
    "the page's emulator alone on the same bytes; MB of the program's output)",
  );
  if (sizes.length > 1) {
    lines.push("");
    const w2 = [8, 22, 22];
    lines.push(row([
      "stream",
      `domterm ${largest}/${smallest} MB`,
      `xterm.js ${largest}/${smallest} MB`,
    ], w2));
    for (const s of streams) {
      const cell = (t?: TerminalResult) => {
        const big = t?.mbps.get(s)?.get(largest) ?? NaN;
        const small = t?.mbps.get(s)?.get(smallest) ?? NaN;
        const q = big / small;
        if (!Number.isFinite(q)) return "-";
        return `${q.toFixed(2)} ${
          q >= TARGET_LARGE_VS_SMALL ? "(ok)" : "(NO)"
        }`;
      };
      lines.push(row([s, cell(d), cell(x)], w2));
    }
  }
  lines.push("");
  const w3 = [30, 10, 10];
  lines.push(row(["", "domterm", "xterm.js"], w3));
  const both = (f: (t: TerminalResult) => number) => [
    d ? f1(f(d)) : "-",
    x ? f1(f(x)) : "-",
  ];
  lines.push(
    row(["key to echo in DOM median (ms)", ...both((t) => t.keyMedian)], w3),
  );
  lines.push(
    row(["key to echo in DOM p99 (ms)", ...both((t) => t.keyP99)], w3),
  );
  lines.push(
    row(["key to drawing frame median", ...both((t) => t.keyFrameMedian)], w3),
  );
  lines.push(
    row(["key to drawing frame p99", ...both((t) => t.keyFrameP99)], w3),
  );
  lines.push(
    row(
      ["key to frame shown median", ...both((t) => t.keyShownMedian)],
      w3,
    ),
  );
  lines.push(
    row(["key to frame shown p99", ...both((t) => t.keyShownP99)], w3),
  );
  lines.push(
    row([`JS heap after ${smallest} MB (MB)`, ...both((t) => t.heapSmall)], w3),
  );
  lines.push(
    row([`JS heap after ${largest} MB (MB)`, ...both((t) => t.heapLarge)], w3),
  );
  lines.push(
    row([`page elements after ${largest} MB`, ...both((t) => t.elements)], w3)
      .replaceAll(".0", ""),
  );
  lines.push(
    row([`DOM nodes after ${largest} MB`, ...both((t) => t.nodes)], w3)
      .replaceAll(".0", ""),
  );
  lines.push(
    row(["DOM nodes at the end, idle", ...both((t) => t.nodesIdle)], w3)
      .replaceAll(".0", ""),
  );
  lines.push(
    row(
      [`server RSS after ${largest} MB (MB)`, ...both((t) => t.serverRss)],
      w3,
    ),
  );
  if (d) {
    const yes = (b: boolean) => b ? "yes" : "NO";
    let share = true;
    for (const s of streams) {
      for (const mb of sizes) {
        const a = d.mbps.get(s)?.get(mb) ?? NaN;
        const c = d.coreMbps.get(s)?.get(mb) ?? NaN;
        if (!(a >= TARGET_CORE_SHARE * c)) share = false;
      }
    }
    // Drawn means the frame that shows the echo. With a trace, its pipeline
    // end; without, the echo in the DOM, which that frame cannot precede
    // (the rAF timestamp can: docs/benchmarks.md, "Key to the frame shown:
    // read from a trace").
    const traced = Number.isFinite(d.keyShownMedian);
    const median = traced ? d.keyShownMedian : d.keyMedian;
    const p99 = traced ? d.keyShownP99 : d.keyP99;
    lines.push("");
    lines.push(
      `key to the echo ${
        traced ? "shown (trace)" : "in the DOM"
      }: median < ${TARGET_MEDIAN_KEY_MS} ms: ${
        yes(median < TARGET_MEDIAN_KEY_MS)
      }, p99 < ${TARGET_P99_KEY_MS} ms: ${
        yes(p99 < TARGET_P99_KEY_MS)
      }; end to end >= ${TARGET_CORE_SHARE} x core on every run: ${
        yes(share)
      }; JS heap bounded (after ${largest} MB <= 1.25x after ${smallest} MB): ${
        yes(d.heapLarge <= 1.25 * d.heapSmall)
      }`,
    );
  }
  console.log(lines.join("\n"));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      mb: { type: "string", default: "10,50,200" },
      stream: { type: "string", multiple: true },
      terminal: { type: "string", multiple: true },
      keys: { type: "string", default: "200" },
      "trace-keys": { type: "string" },
      profile: { type: "string" },
      main: { type: "string" },
      "perf-pid": { type: "string" },
    },
  });
  serverMain = values.main;
  if (values["perf-pid"] !== undefined) perfPid = Number(values["perf-pid"]);
  const sizes = values.mb.split(",").map(Number);
  if (sizes.some((n) => !(n > 0))) {
    throw new Error(`--mb: '${values.mb}' is not a list of sizes`);
  }
  const streams = values.stream ?? DEFAULT_E2E_STREAMS;
  for (const s of streams) e2eStream(s);
  const kinds = (values.terminal ?? ["domterm", "xterm"]) as Kind[];
  for (const k of kinds) {
    if (k !== "domterm" && k !== "xterm") {
      throw new Error(`--terminal: '${k}' is not domterm or xterm`);
    }
  }
  const keys = Number(values.keys);
  const browser = await RawBrowser.launch();
  const results = new Map<Kind, TerminalResult>();
  let size: { cols: number; rows: number } | null = null;
  try {
    console.error(
      `${browser.version}, viewport ${VIEWPORT.width}x${VIEWPORT.height}`,
    );
    for (const kind of kinds) {
      const r = await measure(
        browser,
        kind,
        streams,
        sizes,
        keys,
        values["trace-keys"],
        values.profile,
        size,
      );
      size ??= { cols: r.cols, rows: r.rows };
      console.error(`  ${kind}: ${r.cols}x${r.rows}`);
      results.set(kind, r);
    }
  } finally {
    await browser.close();
  }
  report(streams, sizes, results);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
