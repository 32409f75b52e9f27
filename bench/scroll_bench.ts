/**
 * Scrolling through a long history in a real headless Chromium: loads
 * 100,000 lines of `ls -l`-like coloured text into the real emulator and
 * renderer (the renderer test harness, with static/domterm.css), then
 * measures
 *
 * - load: time to write and render all lines (in 1,000-line frames), and
 *   the longest of those frames;
 * - smooth scrolling: frame times while the view moves 3 rows per frame
 *   from the bottom upwards (like a held wheel);
 * - page jumps: latency from a `scrollTop` change 25 pages away to the
 *   next painted frame, and Shift+PgUp-sized steps;
 * - jumps to random places in the whole history (scrollbar drags).
 *
 * Usage: deno run -A bench/scroll_bench.ts [lines] [--css EXTRA] [--trace PHASE]
 *
 * `--trace wheel` (or load, pageSteps, ...) records a Chromium trace of that
 * phase and prints where the renderer's main thread spent its time.
 *
 * @module
 */
import { launchChromium } from "../tests/e2e/chromium.ts";
import { bundleForBrowser } from "../tests/e2e/bundle.ts";
import type { Harness } from "../tests/e2e/fixtures/renderer/harness.ts";

declare global {
  var dt: Harness;
}

const ROOT = new URL("../", import.meta.url);
const FIXTURES = new URL("tests/e2e/fixtures/renderer/", ROOT);

const lines = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const traceIndex = Deno.args.indexOf("--trace");
const traceName = traceIndex >= 0 ? Deno.args[traceIndex + 1] : "";
const cssIndex = Deno.args.indexOf("--css");

/** Print the 15 longest kinds of renderer-thread work in a Chromium trace. */
function printTrace(buf: Uint8Array): void {
  const events = (JSON.parse(new TextDecoder().decode(buf)) as {
    traceEvents: { name: string; ph: string; dur?: number; tid: number }[];
  }).traceEvents;
  const main = events.find((e) =>
    e.name === "thread_name" &&
    (e as unknown as { args: { name: string } }).args.name ===
      "CrRendererMain"
  );
  const totals = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== "X" || e.dur === undefined || e.tid !== main?.tid) continue;
    totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur / 1000);
  }
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 15);
  for (const [k, v] of top) {
    console.log(`  ${v.toFixed(0).padStart(7)} ms  ${k}`);
  }
}
const extraCss = cssIndex >= 0 ? Deno.args[cssIndex + 1] : "";

const js = await bundleForBrowser(new URL("harness.ts", FIXTURES));
const html = await Deno.readTextFile(new URL("index.html", FIXTURES));
const css = await Deno.readTextFile(new URL("static/domterm.css", ROOT)) +
  "\n" + extraCss;
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  (req) => {
    const path = new URL(req.url).pathname;
    const [body, type] = path === "/"
      ? [html, "text/html"]
      : path === "/domterm.css"
      ? [css, "text/css"]
      : path === "/harness.js"
      ? [js, "text/javascript"]
      : [null, ""];
    return body === null
      ? new Response("not found", { status: 404 })
      : new Response(body, { headers: { "content-type": type } });
  },
);

const browser = await launchChromium();
try {
  const page = await browser.newPage({
    viewport: { width: 1000, height: 700 },
  });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(`http://127.0.0.1:${server.addr.port}/`);
  await page.waitForFunction(() => "dt" in globalThis);
  // Set up the phases in the page; each returns its samples in ms.
  await page.evaluate((n) => {
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const { t, r } = dt.real(120, 40, Infinity);
    const vp = dt.root().querySelector<HTMLElement>(".dt-viewport")!;
    const perms = ["-rw-r--r--", "drwxr-xr-x", "-rwxr-xr-x", "lrwxrwxrwx"];
    const colors = ["0", "1;34", "1;32", "1;36", "0;33", "1;35"];
    const lineOf = (i: number) => {
      const k = i % 4;
      return `${perms[k]} 1 user staff ${
        String((i * 7919) % 99999).padStart(6)
      } Dec  3 13:${String(i % 60).padStart(2, "0")} ` +
        `\x1b[${colors[i % 6]}mfile-${i}.${
          ["ts", "md", "sh", "png"][k]
        }\x1b[0m  \x1b[2m# line ${i}\x1b[0m`;
    };
    const cellH = () => r.measureCell().height;
    // Time from a scrollTop change until the frame after the next one
    // starts: by then the new position's layout and paint are done.
    const jump = async (to: number) => {
      const s0 = performance.now();
      vp.scrollTop = to;
      await frame();
      await frame();
      return performance.now() - s0;
    };
    let seed = 12345;
    const phases: Record<string, () => Promise<number[]>> = {
      // 1,000 lines written and rendered per frame.
      async load() {
        const out: number[] = [];
        for (let i = 0; i < n; i += 1000) {
          let s = "";
          for (let j = i; j < Math.min(n, i + 1000); j++) {
            s += lineOf(j) + "\r\n";
          }
          const f0 = performance.now();
          t.write(s);
          r.render();
          vp.getBoundingClientRect(); // the layout belongs to this frame
          out.push(performance.now() - f0);
          await frame();
        }
        return out;
      },
      // A held wheel: 3 rows per frame upwards.
      async wheel() {
        const out: number[] = [];
        let last = await frame();
        for (let k = 0; k < 120; k++) {
          vp.scrollTop -= 3 * cellH();
          const now = await frame();
          out.push(now - last);
          last = now;
        }
        return out;
      },
      // Shift+PgUp steps.
      async pageSteps() {
        const out: number[] = [];
        for (let k = 0; k < 20; k++) {
          out.push(await jump(vp.scrollTop - 40 * cellH()));
        }
        return out;
      },
      // 25 pages at a time.
      async farJumps() {
        const out: number[] = [];
        for (let k = 0; k < 10; k++) {
          out.push(await jump(vp.scrollTop - 25 * 40 * cellH()));
        }
        return out;
      },
      // Scrollbar drags to anywhere.
      async randomJumps() {
        const out: number[] = [];
        for (let k = 0; k < 15; k++) {
          seed = (seed * 1103515245 + 12345) & 0x7fffffff;
          out.push(await jump((seed / 0x7fffffff) * vp.scrollHeight));
        }
        return out;
      },
      // Frames with nothing to do, for reference (the machine's noise).
      async idle() {
        const out: number[] = [];
        let last = await frame();
        for (let k = 0; k < 30; k++) {
          const now = await frame();
          out.push(now - last);
          last = now;
        }
        return out;
      },
    };
    Object.assign(globalThis, { phases });
  }, lines);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
  };
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const q = (p: number) =>
      s[Math.min(s.length - 1, Math.floor(p * s.length))];
    return `median ${q(0.5).toFixed(1)}  p95 ${q(0.95).toFixed(1)}  max ${
      s[s.length - 1].toFixed(1)
    }  (n=${s.length})`;
  };
  console.log(
    `scroll_bench: ${lines} lines, 120x40, headless Chromium ${browser.version()}`,
  );
  for (
    const [name, what] of [
      ["load", "frame ms (1,000 lines each)"],
      ["idle", "frame interval ms, nothing to do"],
      ["wheel", "frame interval ms, 3 rows per frame"],
      ["pageSteps", "ms from a one-page scroll to painted"],
      ["farJumps", "ms from a 25-page scroll to painted"],
      ["randomJumps", "ms from a jump anywhere to painted"],
    ]
  ) {
    const tracing = name === traceName;
    if (tracing) {
      await browser.startTracing(page, {
        categories: [
          "devtools.timeline",
          "disabled-by-default-devtools.timeline",
          "blink",
          "cc",
        ],
      });
    }
    const before = await metrics();
    const t0 = performance.now();
    const samples = await page.evaluate(
      (p) =>
        (globalThis as unknown as {
          phases: Record<string, () => Promise<number[]>>;
        }).phases[p](),
      name,
    );
    const wall = performance.now() - t0;
    const after = await metrics();
    if (tracing) printTrace(await browser.stopTracing());
    const d = (k: string) => ((after[k] - before[k]) * 1000).toFixed(0);
    console.log(
      `${name.padEnd(12)} ${what}: ${stats(samples)}\n${"".padEnd(13)}` +
        `phase ${wall.toFixed(0)} ms wall; main thread: layout ${
          d("LayoutDuration")
        } ms, style ${d("RecalcStyleDuration")} ms, script ${
          d("ScriptDuration")
        } ms, tasks ${d("TaskDuration")} ms`,
    );
  }
  const m = await metrics();
  console.log(
    `DOM nodes ${m.Nodes}, JS heap ${(m.JSHeapUsedSize / 1e6).toFixed(0)} MB`,
  );
  // Idle time turns history far from the view back into text chunks
  // (docs/renderer.md): the same after it has settled, with detached nodes
  // collected (the Nodes metric counts those until a GC).
  const inDocument = () =>
    page.evaluate(() => {
      const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
      let n = 0;
      while (w.nextNode()) n++;
      return n;
    });
  let last = -1, now = await inDocument();
  const until = Date.now() + 60_000;
  while (now !== last && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 3000));
    last = now;
    now = await inDocument();
  }
  await cdp.send("HeapProfiler.collectGarbage");
  const settled = await metrics();
  console.log(
    `after idle: DOM nodes ${settled.Nodes} (in the document ${now}), JS heap ${
      (settled.JSHeapUsedSize / 1e6).toFixed(0)
    } MB`,
  );
} finally {
  await browser.close();
  await server.shutdown();
}
