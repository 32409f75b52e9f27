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
 * Usage: deno run -A bench/scroll_bench.ts [lines] [--css EXTRA]
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
const cssIndex = Deno.args.indexOf("--css");
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
  const result = await page.evaluate(async (n) => {
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const q = (p: number) =>
        s[Math.min(s.length - 1, Math.floor(p * s.length))];
      return {
        n: s.length,
        median: +q(0.5).toFixed(2),
        p95: +q(0.95).toFixed(2),
        max: +s[s.length - 1].toFixed(2),
      };
    };
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const { t, r } = dt.real(120, 40, Infinity);
    const vp = dt.root().querySelector<HTMLElement>(".dt-viewport")!;
    const perms = ["-rw-r--r--", "drwxr-xr-x", "-rwxr-xr-x", "lrwxrwxrwx"];
    const colors = ["0", "1;34", "1;32", "1;36", "0;33", "1;35"];
    const lineOf = (i: number) => {
      const k = i % 4;
      return `${perms[k]} 1 user staff ${
        String((i * 7919) % 99999).padStart(
          6,
        )
      } Dec  3 13:${String(i % 60).padStart(2, "0")} ` +
        `\x1b[${colors[i % 6]}mfile-${i}.${
          ["ts", "md", "sh", "png"][k]
        }\x1b[0m  \x1b[2m# line ${i}\x1b[0m`;
    };

    // Load, 1,000 lines per frame.
    const loadFrames: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i += 1000) {
      let s = "";
      for (let j = i; j < Math.min(n, i + 1000); j++) s += lineOf(j) + "\r\n";
      const f0 = performance.now();
      t.write(s);
      r.render();
      vp.getBoundingClientRect(); // force the layout into this frame
      loadFrames.push(performance.now() - f0);
      await frame();
    }
    const loadMs = performance.now() - t0;
    const rowsInDom = document.querySelectorAll(".dt-viewport .dt-row").length;

    // Held wheel: 3 rows per frame upwards for 120 frames.
    const cellH = r.measureCell().height;
    await frame();
    const wheel: number[] = [];
    let last = await frame();
    for (let k = 0; k < 120; k++) {
      vp.scrollTop -= 3 * cellH;
      const now = await frame();
      wheel.push(now - last);
      last = now;
    }

    // Page steps and far jumps: time from the scroll to the end of the
    // next frame's work (measured at the frame after it).
    const jump = async (to: number) => {
      const s0 = performance.now();
      vp.scrollTop = to;
      await frame();
      // Whatever layout and paint the new position needed is done when
      // the following frame starts.
      await frame();
      return performance.now() - s0;
    };
    const pageH = 40 * cellH;
    const pages: number[] = [];
    for (let k = 0; k < 20; k++) pages.push(await jump(vp.scrollTop - pageH));
    const far: number[] = [];
    for (let k = 0; k < 10; k++) {
      far.push(await jump(vp.scrollTop - 25 * pageH));
    }
    const random: number[] = [];
    let seed = 12345;
    for (let k = 0; k < 15; k++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      random.push(await jump((seed / 0x7fffffff) * vp.scrollHeight));
    }
    // A frame with nothing to do, for reference.
    const idle: number[] = [];
    last = await frame();
    for (let k = 0; k < 30; k++) {
      const now = await frame();
      idle.push(now - last);
      last = now;
    }
    return {
      lines: n,
      rowsInDom,
      loadMs: Math.round(loadMs),
      loadFrameMs: stats(loadFrames),
      idleFrameMs: stats(idle),
      wheelFrameMs: stats(wheel),
      pageStepMs: stats(pages),
      farJumpMs: stats(far),
      randomJumpMs: stats(random),
      heapMB:
        (performance as unknown as { memory?: { usedJSHeapSize: number } })
            .memory
          ? Math.round(
            (performance as unknown as { memory: { usedJSHeapSize: number } })
              .memory.usedJSHeapSize / 1e6,
          )
          : null,
    };
  }, lines);
  console.log(`scroll_bench: ${lines} lines, 120x40, headless Chromium`);
  console.log(JSON.stringify(result, null, 2));
  console.log(
    "(frame and jump times in ms; a jump is scrollTop change -> two frames later, " +
      "so ~33 ms is the floor at 60 Hz)",
  );
} finally {
  await browser.close();
  await server.shutdown();
}
