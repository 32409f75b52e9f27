/**
 * Startup (issue 31 §7): from the command to the first prompt drawn.
 * Targets, on a quiet machine: a cold start (`deno task start` to the
 * prompt in the app window, the browser's own start included) within
 * 1.5 s; a second window (`domterm` with the server running) within
 * 500 ms of the command.
 *
 * 1. Cold start, headless: a fresh server (`scripts/start.ts
 *    --no-browser`, the client already built) timed to its URL on
 *    standard output, then the URL in a new context of a headless
 *    Chromium already running, to the prompt.
 * 2. Headless Chromium's own start (launched from nothing).
 * 3. Second window, headless: plain `domterm` (main.ts) with the server
 *    running; its browser is a script that copies the launcher file, which
 *    the bench opens in a new context (a context costs the bench itself
 *    0.1-1 s: the app windows below have no such cost).
 * 4. App windows, as a user gets them: under Xvfb (when it is installed),
 *    `scripts/start.ts` opens its app window with the real Chromium (its
 *    own profile in a temporary XDG_CONFIG_HOME, kept across runs: the
 *    first run makes it), then plain `domterm` opens a second window in
 *    that running browser twice, in turns first: opened by the page
 *    already open (`open-in-page`, server/windows/control.ts: no browser
 *    called, so the first column is blank), and by a new Chromium process
 *    with the same --user-data-dir (`--browser` it), which hands its
 *    command line to the running one and exits (as before). In turns
 *    with these cold starts: one on a new origin (the remembered port of
 *    the last window removed first, server/browser.ts windowPortFile: the
 *    profile's caches hold nothing for it), and one with the browser as
 *    `--browser`, started once the server is up. The
 *    browser is a script that notes when it was called and adds
 *    --remote-debugging-port, through which the bench finds the page and
 *    reads its clock (performance.timeOrigin: wall time of the page's
 *    navigation). Columns: the command to the browser called (Deno's and
 *    domterm's start, the session), the browser called to the page's
 *    navigation (Chromium's start or hand-off, the launcher page), the
 *    page's navigation to the prompt drawn, and the total.
 * 5. Floors, same run: `deno eval 0` (Deno's start), `domterm --version`
 *    and `domterm list` with no server (the CLI's start), and `bash -i`
 *    in a PTY to its first prompt byte (the shell's own start).
 *
 * In every page, the start-up marks (client/startup_marks.ts), ms from the
 * page's navigation: script (the client evaluated), window (built),
 * channel-open, layout, socket-open (the first terminal's socket), hello,
 * ready, snapshot (received), drawn (the frame with the prompt, seen by
 * the bench in an animation frame).
 *
 * Run: `deno task build && deno run -A bench/startup_bench.ts [--runs N]
 * [--no-app | --app-only]`. Exits 0 whatever the figures are. Figures in
 * docs/benchmarks.md ("Startup").
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { findChromium, launchChromium } from "../tests/e2e/chromium.ts";
import { privateRuntimeEnv } from "../tests/runtime_dir.ts";
import { which, windowPortFile } from "../server/browser.ts";
import { Pty } from "../server/pty/pty.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    "no-app": { type: "boolean" },
    "app-only": { type: "boolean" },
  },
});
const RUNS = Number(values.runs ?? 5);
const START = new URL("../scripts/start.ts", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const SHELL = ["bash", "--norc", "--noprofile", "-i"];
const SHELL_ENV = {
  PS1: "$ ",
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
};

/** The marks shown, in order (`domterm:` left out). */
const MARKS = [
  "script",
  "window",
  "channel-open",
  "layout",
  "socket-open",
  "hello",
  "ready",
  "snapshot-received",
];

/** A page's clock at its prompt. */
interface PageTimes {
  /** Wall time (ms since the epoch) of the page's navigation start. */
  origin: number;
  /** The prompt drawn, ms from the navigation. */
  prompt: number;
  /** The first of each start-up mark, ms from the navigation (NaN: none). */
  marks: number[];
}

/**
 * `deno run -A ENTRY [--browser BROWSER] -- SHELL` with `env`, its output
 * discarded: a domterm started as a user would (scripts/start.ts or main.ts).
 */
function runDomterm(
  entry: string,
  browser: string | null,
  env: Record<string, string>,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      entry,
      ...(browser ? ["--browser", browser] : []),
      "--",
      ...SHELL,
    ],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/** Waits in `page` for the prompt to be drawn; its clock then. */
function promptTimes(page: Page): Promise<PageTimes> {
  return page.evaluate((names) =>
    new Promise<PageTimes>((resolve) => {
      const check = () => {
        const text = document.getElementById("terminal")?.textContent;
        if (!text?.includes("$")) return requestAnimationFrame(check);
        resolve({
          origin: performance.timeOrigin,
          prompt: performance.now(),
          marks: names.map((n) =>
            performance.getEntriesByName(`domterm:${n}`)[0]?.startTime ?? NaN
          ),
        });
      };
      check();
    }), MARKS);
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

const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
};
const f = (n: number) => n.toFixed(0).padStart(6);
const marksHeader = MARKS.map((m) => m.replace("-received", "").padStart(7))
  .join(" ") + "   drawn";
const marksRow = (t: PageTimes) =>
  [...t.marks, t.prompt].map((n) => f(n).padStart(7)).join(" ");

/** 1. Cold start, headless. */
async function coldHeadless(browser: Browser, runs: number) {
  const rows: { url: number; page: number; times: PageTimes }[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", START, "--no-browser", "--", ...SHELL],
      env: privateRuntimeEnv(SHELL_ENV),
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    try {
      const url = await firstLine(child.stdout);
      const toUrl = performance.now() - t0;
      const context = await browser.newContext();
      const page = await context.newPage();
      const p0 = performance.now();
      await page.goto(url, { waitUntil: "commit" });
      const times = await promptTimes(page);
      rows.push({ url: toUrl, page: performance.now() - p0, times });
      await context.close();
    } finally {
      child.kill();
      await child.status;
    }
  }
  return rows;
}

/** 3. Second windows, headless: the launcher file opened by the bench. */
async function secondHeadless(browser: Browser, runs: number) {
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
  const env = privateRuntimeEnv(SHELL_ENV);
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", START, "--no-browser", "--", ...SHELL],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const out: { launcher: number; page: number; times: PageTimes }[] = [];
  // The first window stays open (a server whose sessions all ended exits).
  const first = await browser.newContext();
  try {
    const url = await firstLine(server.stdout);
    await (await first.newPage()).goto(url);
    for (let r = 0; r < runs; r++) {
      await Deno.remove(`${dir}/launcher.html`).catch(() => {});
      const t0 = performance.now();
      const cli = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "--browser", opener, "--", ...SHELL],
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
      await page.goto(`file://${dir}/launcher.html`, { waitUntil: "commit" });
      await page.waitForURL((u) => u.protocol === "http:", {
        waitUntil: "commit",
      });
      const times = await promptTimes(page);
      out.push({ launcher, page: performance.now() - t0 - launcher, times });
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

/** One app window's start, from its command (wall clock, ms). */
interface AppRun {
  /** The command to the browser called. */
  called: number;
  /** The browser called to the page's navigation. */
  browser: number;
  /** The page's navigation to the prompt drawn. */
  page: number;
  total: number;
  times: PageTimes;
}

/** A free TCP port on the loopback. */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

/** Xvfb on a free display, or null when it is not installed. */
async function startXvfb(): Promise<
  { display: string; child: Deno.ChildProcess } | null
> {
  const xvfb = which("Xvfb");
  if (!xvfb) return null;
  let n = 90 + Math.floor(Math.random() * 400);
  while (
    await Deno.stat(`/tmp/.X11-unix/X${n}`).then(() => true, () => false)
  ) n++;
  const child = new Deno.Command(xvfb, {
    args: [`:${n}`, "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0; i < 500; i++) {
    if (await Deno.stat(`/tmp/.X11-unix/X${n}`).then(() => true, () => false)) {
      return { display: `:${n}`, child };
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill();
  await child.status;
  throw new Error("Xvfb did not start");
}

/**
 * The next page of the browser at `port` showing domterm (not one of
 * `seen`), once its prompt is drawn.
 */
async function appPage(
  port: number,
  seen: Set<Page>,
  deadline: number,
  connected: Browser | null = null,
): Promise<{ browser: Browser; page: Page }> {
  let browser = connected;
  while (!browser) {
    try {
      browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    } catch {
      if (Date.now() > deadline) throw new Error("no browser to connect to");
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  for (;;) {
    for (const c of browser.contexts()) {
      for (const p of c.pages()) {
        if (!seen.has(p) && p.url().startsWith("http:")) {
          seen.add(p);
          return { browser, page: p };
        }
      }
    }
    if (Date.now() > deadline) throw new Error("no domterm page");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The wall times (ms) at which the browser script was called. */
async function calls(file: string): Promise<number[]> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.trim().split("\n").filter(Boolean).map((l) => Number(l) / 1e6);
}

/** 4. App windows under Xvfb: cold starts and second windows. */
async function appWindows(
  runs: number,
): Promise<
  | {
    cold: AppRun[];
    newOrigin: AppRun[];
    after: AppRun[];
    second: AppRun[];
    secondOld: AppRun[];
  }
  | string
> {
  const x = await startXvfb();
  if (!x) return "no Xvfb: app windows not measured";
  const dir = await Deno.makeTempDir({ prefix: "domterm-startup-app-" });
  const cold: AppRun[] = [], newOrigin: AppRun[] = [], after: AppRun[] = [];
  const second: AppRun[] = [], secondOld: AppRun[] = [];
  try {
    const chrome = await findChromium();
    for (let k = 0; k < 3 * runs; k++) {
      // In turns: a cold start; one on a new origin (the port of the last
      // window forgotten: server/browser.ts, windowPortFile), whose page
      // finds nothing of the client in the profile's caches; the browser
      // as `--browser PROGRAM`, which is started once the server is up,
      // with the URL in its launcher (as every browser was before the
      // early start).
      const late = k % 3 === 2, fresh = k % 3 === 1;
      if (fresh) {
        await Deno.remove(windowPortFile(`${dir}/config/domterm`)).catch(
          () => {},
        );
      }
      const port = freePort();
      const log = `${dir}/called-${k}`, pid = `${dir}/pid-${k}`;
      const wrapper = `${dir}/browser-${k}.sh`;
      await Deno.writeTextFile(
        wrapper,
        "#!/bin/sh\n" +
          `date +%s%N >> ${log}\n` +
          `[ -f ${pid} ] || echo $$ > ${pid}\n` +
          // Root needs --no-sandbox; Xvfb has no GPU.
          `exec ${chrome} --no-sandbox --disable-gpu --disable-dev-shm-usage ` +
          `--remote-debugging-port=${port} "$@"\n`,
      );
      await Deno.chmod(wrapper, 0o755);
      const env = privateRuntimeEnv({
        ...SHELL_ENV,
        DISPLAY: x.display,
        XDG_CONFIG_HOME: `${dir}/config`,
        // Found by domterm as its Chromium (not `--browser`, which is
        // handed a launcher with its URL): it starts while the server does.
        ...(late ? {} : { CHROME_PATH: wrapper }),
      });
      const seen = new Set<Page>();
      const t0 = Date.now();
      const server = runDomterm(START, late ? wrapper : null, env);
      let browser: Browser | null = null;
      try {
        const one = await appPage(port, seen, t0 + 60_000);
        browser = one.browser;
        const times = await promptTimes(one.page);
        (late ? after : fresh ? newOrigin : cold).push(
          appRun(t0, (await calls(log))[0], times),
        );
        if (late || fresh) continue;
        // Two more windows: plain `domterm`, the server running, opened by
        // the page (open-in-page) and by a new Chromium process (`--browser`
        // the same Chromium, not domterm's own: no page is asked), in turns
        // first (the later one may find client.js's code cache).
        const ways = Math.floor(k / 3) % 2 === 0
          ? [false, true]
          : [true, false];
        for (const byBrowser of ways) {
          const before = (await calls(log)).length;
          const t1 = Date.now();
          const cli = runDomterm(MAIN, byBrowser ? wrapper : null, env);
          const two = await appPage(port, seen, t1 + 60_000, browser);
          const times2 = await promptTimes(two.page);
          const called = (await calls(log)).slice(before)[0];
          (byBrowser ? secondOld : second).push(appRun(t1, called, times2));
          await cli.status;
        }
      } finally {
        try {
          server.kill();
        } catch { /* it ended */ }
        await server.status;
        try {
          const s = await browser?.newBrowserCDPSession();
          await s?.send("Browser.close");
        } catch { /* it closed */ }
        const p = Number(await Deno.readTextFile(pid).catch(() => "0"));
        if (p > 0) {
          try {
            Deno.kill(p, "SIGKILL");
          } catch { /* it ended */ }
        }
      }
    }
  } finally {
    x.child.kill();
    await x.child.status;
    await Deno.remove(dir, { recursive: true });
  }
  return { cold, newOrigin, after, second, secondOld };
}

/**
 * `called`: undefined when no browser was called (a page opened the
 * window): the second column is then the command to the page's navigation.
 */
function appRun(
  t0: number,
  called: number | undefined,
  times: PageTimes,
): AppRun {
  const drawn = times.origin + times.prompt;
  return {
    called: called === undefined ? NaN : called - t0,
    // No browser called: from the command to the page's navigation.
    browser: times.origin - (called ?? t0),
    page: times.prompt,
    total: drawn - t0,
    times,
  };
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

/** `bash -i` in a PTY to its first prompt byte, ms. */
async function bashToPrompt(): Promise<number> {
  const t0 = performance.now();
  const pty = Pty.spawn({
    command: SHELL[0],
    args: SHELL.slice(1),
    env: { ...Deno.env.toObject(), ...SHELL_ENV, TERM: "xterm-256color" },
    cols: 80,
    rows: 24,
  });
  let text = "";
  while (!text.includes("$")) {
    const chunk = await pty.read();
    if (chunk === null) break;
    text += new TextDecoder().decode(chunk);
  }
  const ms = performance.now() - t0;
  pty.kill();
  await pty.close();
  return ms;
}

// 1-3, headless.
const b0 = performance.now();
const headless = await launchChromium();
const browserStart = performance.now() - b0;
let coldRows: Awaited<ReturnType<typeof coldHeadless>> = [];
let secondRows: Awaited<ReturnType<typeof secondHeadless>> = [];
try {
  if (!values["app-only"]) {
    coldRows = await coldHeadless(headless, RUNS);
    secondRows = await secondHeadless(headless, RUNS);
  }
} finally {
  await headless.close();
}
// 4.
const app = values["no-app"] ? "--no-app" : await appWindows(RUNS);
// 5.
const floors: { eval0: number; version: number; list: number; bash: number }[] =
  [];
for (let r = 0; r < (values["app-only"] ? 0 : RUNS); r++) {
  floors.push({
    eval0: await denoRun(["eval", "0"]),
    version: await denoRun(["run", "-A", MAIN, "--version"]),
    list: await denoRun(["run", "-A", MAIN, "list"], true),
    bash: await bashToPrompt(),
  });
}

console.log(
  `1. cold start, headless (page marks: ms from the page's navigation)\n` +
    `  start->URL  page->prompt   total | ${marksHeader}`,
);
for (const r of coldRows) {
  console.log(
    `  ${f(r.url)}      ${f(r.page)}  ${f(r.url + r.page)} | ${
      marksRow(r.times)
    }`,
  );
}
console.log(
  `  median start to first prompt: ${
    median(coldRows.map((r) => r.url + r.page)).toFixed(0)
  } ms`,
);
console.log(`2. headless Chromium's own start: ${browserStart.toFixed(0)} ms`);
console.log(
  "3. second window, headless: command->launcher  page->prompt  total | " +
    marksHeader,
);
for (const r of secondRows) {
  console.log(
    `  ${f(r.launcher)}  ${f(r.page)}  ${f(r.launcher + r.page)} | ${
      marksRow(r.times)
    }`,
  );
}
console.log(
  `  median second window: ${
    median(secondRows.map((r) => r.launcher + r.page)).toFixed(0)
  } ms`,
);
if (typeof app === "string") console.log(`4. ${app}`);
else {
  for (
    const [name, rows] of [
      ["cold start", app.cold],
      ["cold start, new origin (no port remembered)", app.newOrigin],
      ["cold start, browser started after the server (--browser)", app.after],
      ["second window", app.second],
      ["second window by a new Chromium process (--browser)", app.secondOld],
    ] as const
  ) {
    console.log(
      `4. app window under Xvfb, ${name}: command->browser  browser->page  page->prompt  total | ${marksHeader}`,
    );
    for (const r of rows) {
      console.log(
        `  ${f(r.called)}  ${f(r.browser)}  ${f(r.page)}  ${f(r.total)} | ${
          marksRow(r.times)
        }`,
      );
    }
    console.log(
      (rows.some((r) => Number.isNaN(r.called))
        ? "  (NaN: no browser called, a page opened the window; browser->page is then command->page)\n"
        : "") +
        `  median ${name}: ${median(rows.map((r) => r.total)).toFixed(0)} ms ` +
        `(target: ${name.startsWith("second window") ? 500 : 1500} ms)`,
    );
  }
}
console.log(
  "5. floors, ms: deno eval 0  domterm --version  domterm list (no server)  bash -i to prompt",
);
for (const r of floors) {
  console.log(
    `               ${f(r.eval0)}             ${f(r.version)}           ${
      f(r.list)
    }         ${f(r.bash)}`,
  );
}
