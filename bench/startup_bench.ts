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
 * Then the browser's own start (a headless Chromium launched from nothing)
 * and a second window with the server running (see {@link secondWindows}).
 *
 * Then, as floors in the same run: `deno eval 0` (Deno's own start), and
 * the CLI's start: `domterm --version` and `domterm list` with no server.
 * In the page, `domterm:layout` (the window channel's first layout) and
 * `domterm:connect` (the terminal's connection made) are read where a
 * client makes them (none does now: NaN).
 *
 * Run: `deno task build && deno run -A bench/startup_bench.ts [--runs N]`.
 * Exits 0 whatever the figures are.
 *
 * Measured 2026-12-07 on the shared 2-core machine under a load average of
 * 40-56 from other jobs (upper bounds, far above a quiet machine's), 3 runs:
 * start -> URL 3.3-4.3 s, page -> prompt 4.9-13.1 s (in the page: client.js
 * loaded 0.3-2.3 s, DOM ready 0.8-8.7 s, hello 2.6-3.5 s after DOM ready:
 * the window channel's layout round trip, then the terminal's own socket;
 * snapshot +0.1-0.7 s, drawn +0.1-1.0 s); headless Chromium's own start
 * 6.8 s; second window: command -> launcher 2.9-4.7 s, page -> prompt
 * 12-19 s. Where the command's time goes (same load): `deno run -A main.ts
 * --help` 3.2-3.4 s against `deno eval 0` 1.1-1.3 s; importing
 * server/cli/dispatch.ts alone, 211 modules, 1.6 MB with the embedded
 * client, takes 1.5-2.1 s of it.
 *
 * After the cut (same day, load 40-46, base and this tree run back to back,
 * 3 runs each; upper bounds): main.ts loads 39 modules (216 KiB) up front,
 * not 207 (1607 KiB); `domterm --version` 1.13-1.46 s (before 1.59-1.86 s)
 * and `domterm list` with no server 1.13-1.72 s (before 2.07-2.66 s)
 * against `deno eval 0` 0.63-0.90 s. The end-to-end figures (start to prompt 7.3-12.7 s, second
 * window 20-30 s) are the load's, not the program's: rerun on a quiet
 * machine.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { privateRuntimeEnv } from "../tests/runtime_dir.ts";

const { values } = parseArgs({ options: { runs: { type: "string" } } });
const RUNS = Number(values.runs ?? 5);
const START = new URL("../scripts/start.ts", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Times in the page, ms from its navigation start. */
interface PagePhases {
  script: number;
  domReady: number;
  /** The window channel's first layout (client/window.ts). */
  layout: number;
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

const b0 = performance.now();
const browser = await launchChromium();
const browserStart = performance.now() - b0;
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
              layout: at("domterm:layout"),
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

/**
 * A second window with the server running, as a user gets it: plain
 * `domterm` (main.ts) finds the server and asks it for a new session and
 * window; its browser is a script that copies the launcher file, which the
 * bench opens in a new page. Times: the command to the launcher written
 * (the CLI's start, the server's new session), then the page to its prompt.
 */
interface SecondWindow {
  launcher: number;
  page: number;
  /** In the page: the terminal's connection made, first layout, hello. */
  marks: number[];
}

async function secondWindows(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  runs: number,
): Promise<SecondWindow[]> {
  const dir = await Deno.makeTempDir({ prefix: "domterm-startup-" });
  const opener = `${dir}/open.sh`;
  await Deno.writeTextFile(
    opener,
    // Called as an app-mode browser: --app=file://LAUNCHER and switches.
    "#!/bin/sh\n" +
      'for a; do case "$a" in --app=file://*) f="${a#--app=file://}";; esac; done\n' +
      `cp "$f" ${dir}/l.tmp && mv ${dir}/l.tmp ${dir}/launcher.html\n`,
  );
  await Deno.chmod(opener, 0o755);
  const env = privateRuntimeEnv({
    PS1: "$ ",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    INPUTRC: "/dev/null",
  });
  const cmd = ["bash", "--norc", "--noprofile", "-i"];
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", START, "--no-browser", "--", ...cmd],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const out: SecondWindow[] = [];
  // The first window stays open (a server whose sessions all ended exits).
  const first = await browser.newContext();
  try {
    const url = await firstLine(server.stdout);
    await (await first.newPage()).goto(url);
    for (let r = 0; r < runs; r++) {
      await Deno.remove(`${dir}/launcher.html`).catch(() => {});
      const t0 = performance.now();
      const cli = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "--browser", opener, "--", ...cmd],
        env,
        stdin: "null",
        stdout: "null",
        stderr: "inherit",
      }).spawn();
      for (;;) {
        try {
          await Deno.stat(`${dir}/launcher.html`);
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 5));
        }
        if (performance.now() - t0 > 30_000) throw new Error("no launcher");
      }
      const launcher = performance.now() - t0;
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`file://${dir}/launcher.html`);
      await page.waitForFunction(() =>
        document.getElementById("terminal")?.textContent?.includes("$")
      );
      const page2 = performance.now() - t0 - launcher;
      // In the page (ms from its start; NaN: the mark is not made).
      const marks = await page.evaluate(() =>
        ["domterm:connect", "domterm:layout", "domterm:hello"].map((n) =>
          performance.getEntriesByName(n)[0]?.startTime ?? NaN
        )
      );
      out.push({ launcher, page: page2, marks });
      await context.close();
      await cli.status;
    }
  } finally {
    await first.close();
    try {
      server.kill();
    } catch { /* it ended */ }
    await server.status;
    await Deno.remove(dir, { recursive: true });
  }
  return out;
}

/** Wall time of `deno ARGS` to its exit, ms (`anyStatus`: it may fail). */
async function denoRun(args: string[], anyStatus = false): Promise<number> {
  const t0 = performance.now();
  const { success } = await new Deno.Command(Deno.execPath(), {
    args,
    env: privateRuntimeEnv(),
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  if (!success && !anyStatus) throw new Error(`deno ${args.join(" ")} failed`);
  return performance.now() - t0;
}

/**
 * The command's own start against its floor, in the same run: `deno eval
 * 0` (Deno's start), `domterm --version` (the CLI's modules: what a
 * second `domterm` loads before it asks the server) and `domterm list`
 * with no server (the same, and the control socket's client).
 */
const floors: { eval0: number; version: number; list: number }[] = [];
for (let r = 0; r < RUNS; r++) {
  floors.push({
    eval0: await denoRun(["eval", "0"]),
    version: await denoRun(["run", "-A", MAIN, "--version"]),
    list: await denoRun(["run", "-A", MAIN, "list"], true),
  });
}

const second = await (async () => {
  const b = await launchChromium();
  try {
    return await secondWindows(b, RUNS);
  } finally {
    await b.close();
  }
})();

const f = (n: number) => n.toFixed(0).padStart(6);
console.log(
  "  start->URL  page->prompt   total | in the page (ms): script  DOM ready  layout  hello  snapshot  prompt",
);
for (const { url, page, phases: p } of rows) {
  console.log(
    `  ${f(url)}      ${f(page)}  ${f(url + page)} |                 ${
      f(p.script)
    }     ${f(p.domReady)}  ${f(p.layout)} ${f(p.hello)}    ${f(p.snapshot)}  ${
      f(p.prompt)
    }`,
  );
}
const totals = rows.map((r) => r.url + r.page).sort((a, b) => a - b);
console.log(
  `median start to first prompt: ${
    totals[totals.length >> 1].toFixed(0)
  } ms (target: under 500)`,
);
console.log(
  `headless Chromium's own start: ${browserStart.toFixed(0)} ms ` +
    `(cold start = this + start to first prompt; target: 1500 ms)`,
);
console.log(
  "second window, server running: command->launcher  page->prompt  total" +
    " | in the page: connect  layout  hello",
);
for (const r of second) {
  console.log(
    `  ${f(r.launcher)}  ${f(r.page)}  ${f(r.launcher + r.page)} |   ${
      r.marks.map(f).join("  ")
    }`,
  );
}
console.log(
  "CLI start, ms: deno eval 0  domterm --version  domterm list (no server)",
);
for (const r of floors) {
  console.log(
    `               ${f(r.eval0)}             ${f(r.version)}           ${
      f(r.list)
    }`,
  );
}
const s2 = second.map((r) => r.launcher + r.page).sort((a, b) => a - b);
console.log(
  `median second window: ${
    s2[s2.length >> 1].toFixed(0)
  } ms (target: under 500)`,
);
