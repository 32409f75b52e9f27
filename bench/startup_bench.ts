/**
 * Startup: from starting `deno task start` (scripts/start.ts, with the
 * client already built) to the first prompt drawn in a window.
 *
 * Each run starts a fresh server with `--no-browser` and times its URL on
 * standard output; then opens the URL in a new context of a headless
 * Chromium that is already running (launching the user's browser is not
 * ours to time) and waits for the prompt. The page's own clock gives the
 * phases: the client script loaded, DOMContentLoaded (the script has run),
 * the hello sent, the snapshot received and drawn.
 *
 * Run: `deno task build && deno run -A bench/startup_bench.ts [--runs N]`.
 * Exits 0 whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { privateRuntimeEnv } from "../tests/runtime_dir.ts";

const { values } = parseArgs({ options: { runs: { type: "string" } } });
const RUNS = Number(values.runs ?? 5);
const START = new URL("../scripts/start.ts", import.meta.url).pathname;

/** Times in the page, ms from its navigation start. */
interface PagePhases {
  script: number;
  domReady: number;
  hello: number;
  snapshot: number;
  prompt: number;
}

async function firstLine(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`domterm exited before its URL: ${text}`);
    text += value;
  }
  reader.releaseLock();
  return text.split("\n")[0];
}

const browser = await launchChromium();
const rows: { url: number; page: number; phases: PagePhases }[] = [];
try {
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        START,
        "--no-browser",
        "--",
        "bash",
        "--norc",
        "--noprofile",
        "-i",
      ],
      env: privateRuntimeEnv({
        PS1: "$ ",
        HOME: Deno.env.get("HOME") ?? "/tmp",
        INPUTRC: "/dev/null",
      }),
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    try {
      const url = await firstLine(child.stdout);
      const toUrl = performance.now() - t0;
      const context = await browser.newContext();
      const page = await context.newPage();
      const p0 = performance.now();
      await page.goto(url, { waitUntil: "commit" });
      const phases = await page.evaluate(() =>
        new Promise<PagePhases>((resolve) => {
          const check = () => {
            const text = document.getElementById("terminal")?.textContent;
            if (!text?.includes("$")) return requestAnimationFrame(check);
            const at = (name: string) =>
              performance.getEntriesByName(name)[0]?.startTime ?? NaN;
            const nav = performance.getEntriesByType(
              "navigation",
            )[0] as PerformanceNavigationTiming;
            const js = performance.getEntriesByType("resource").find((e) =>
              e.name.endsWith("/client.js")
            );
            resolve({
              script: (js as PerformanceResourceTiming | undefined)
                ?.responseEnd ?? NaN,
              domReady: nav.domContentLoadedEventEnd,
              hello: at("domterm:hello"),
              snapshot: at("domterm:snapshot-received"),
              prompt: performance.now(),
            });
          };
          check();
        })
      );
      rows.push({ url: toUrl, page: performance.now() - p0, phases });
      await context.close();
    } finally {
      child.kill();
      await child.status;
    }
  }
} finally {
  await browser.close();
}

const f = (n: number) => n.toFixed(0).padStart(6);
console.log(
  "  start->URL  page->prompt   total | in the page (ms): script  DOM ready  hello  snapshot  prompt",
);
for (const { url, page, phases: p } of rows) {
  console.log(
    `  ${f(url)}      ${f(page)}  ${f(url + page)} |                 ${
      f(p.script)
    }     ${f(p.domReady)} ${f(p.hello)}    ${f(p.snapshot)}  ${f(p.prompt)}`,
  );
}
const totals = rows.map((r) => r.url + r.page).sort((a, b) => a - b);
console.log(
  `median start to first prompt: ${
    totals[totals.length >> 1].toFixed(0)
  } ms (target: under 500)`,
);
