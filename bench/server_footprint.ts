/**
 * Server footprint: the domterm server's resident memory (VmRSS and PSS from
 * /proc) when idle before any session, with one idle session, and after each
 * further session that holds 10,000 lines of history, then 1 s and 10 s
 * after the first session printed `--mb` MB (issue 39 target 6: 200 MB); with
 * `--floods K`, after K more sessions printed as much each, their windows
 * gone (target: 20 such sessions in at most 400 MB); and the time from
 * starting the server to the first prompt drawn in a window.
 *
 *     deno run -A bench/server_footprint.ts [--sessions 3] [--mb 50]
 *       [--stream lines|seq] [--floods 0] [--v8-flags=...] [--main PATH]
 *
 * `--stream`: what the floods print, 77-byte lines of `yes` (the default)
 * or `seq`. The first session's flood goes through its window in Chromium;
 * the `--floods` sessions' through a window that closes at once (a session
 * with no window reads its program as fast as its emulator parses), all at
 * once.
 *
 * `--main` runs another entry point: another checkout's main.ts, or the
 * single-file build (`deno task bundle`: dist/domterm.js).
 *
 * Linux only (reads /proc). Prints a table; exits 0 whatever the figures.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { privateRuntimeEnv } from "../tests/runtime_dir.ts";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "3" },
    mb: { type: "string", default: "50" },
    stream: { type: "string", default: "lines" },
    floods: { type: "string", default: "0" },
    "v8-flags": { type: "string" },
    main: { type: "string" },
  },
});
const extra = Number(values.sessions);
const MB = Number(values.mb);
const FLOODS = Number(values.floods);
if (values.stream !== "lines" && values.stream !== "seq") {
  throw new Error(`--stream lines or seq, not ${values.stream}`);
}

/** A shell command that prints `mb` MB of the chosen stream. */
function flood(mb: number, digit: number): string {
  return values.stream === "seq"
    ? `seq 1 999999999 | head -c ${mb}000000`
    : `yes "$(printf '%076d' ${digit})" | head -c ${mb}000000`;
}
const denoFlags = values["v8-flags"]
  ? [`--v8-flags=${values["v8-flags"]}`]
  : [];

/** VmRSS and Pss of a process and its threads, in MB (10^6 bytes). */
function memory(pid: number): { rss: number; pss: number } {
  const rollup = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? NaN);
  return { rss: kb("Rss") * 1024 / 1e6, pss: kb("Pss") * 1024 / 1e6 };
}

/** Lets the server settle (GC, lazy compilation) for `ms` before a reading. */
async function settle(
  pid: number,
  ms = 3000,
): Promise<{ rss: number; pss: number }> {
  await new Promise((ok) => setTimeout(ok, ms));
  return memory(pid);
}

/** The first line of `stream`; the rest is drained so the server never blocks. */
async function firstLine(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) {
      throw new Error(`domterm exited before printing its URL: ${text}`);
    }
    text += value;
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  return text.split("\n")[0];
}

/**
 * `n` new sessions each print `MB` MB, all at once, each through a window
 * that goes as soon as the program started; resolves once every one ended.
 */
async function detachedFloods(url: string, n: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "domterm-floods-" });
  const u = new URL(url);
  const key = new URLSearchParams(u.hash.slice(1)).get("key")!;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    const ws = new WebSocket(`ws://${u.host}/ws`);
    const ready = Promise.withResolvers<void>();
    ws.onopen = () =>
      ws.send(JSON.stringify({ type: "hello", key, cols: 80, rows: 24 }));
    ws.onmessage = (ev) => {
      if (typeof ev.data === "string" && JSON.parse(ev.data).type === "ready") {
        ready.resolve();
      }
    };
    await ready.promise;
    const done = `${dir}/${i}`;
    ws.send(
      new TextEncoder().encode(
        `stty -echo; ${flood(MB, i % 10)}; touch ${done}\r`,
      ),
    );
    // The server writes the line to the PTY before it sees the close.
    const closed = new Promise((r) => ws.onclose = r);
    ws.close();
    await closed;
    const end = Date.now() + 600_000;
    for (;;) {
      try {
        await Deno.stat(done);
        break;
      } catch {
        if (Date.now() > end) throw new Error(`flood ${i} did not end`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }));
  console.log(
    `${n} floods of ${MB} MB: ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s`,
  );
  await Deno.remove(dir, { recursive: true });
}

const rows: [string, { rss: number; pss: number }][] = [];
const env = {
  PS1: "$ ",
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
};
const MAIN = values.main ?? new URL("../main.ts", import.meta.url).pathname;
const t0 = performance.now();
const child = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    ...denoFlags,
    MAIN,
    "--no-browser",
    "--",
    "bash",
    "--norc",
    "--noprofile",
    "-i",
  ],
  env: privateRuntimeEnv(env),
  stdin: "null",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const url = await firstLine(child.stdout);
const listening = performance.now() - t0;
rows.push(["server started, no session", await settle(child.pid)]);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 800, height: 480 } });
  const pageStart = performance.now();
  await page.goto(url);
  await page.waitForFunction(() =>
    (document.getElementById("terminal")?.textContent ?? "").includes("$")
  );
  const firstPrompt = performance.now() - pageStart;

  // Windows stay open: closing the last one would end its session (detach-on-close is off by default).
  rows.push(["one idle session, window open", await settle(child.pid)]);
  for (let i = 0; i < extra; i++) {
    const p = await browser.newPage({ viewport: { width: 800, height: 480 } });
    // Another window on the server's URL starts another session.
    await p.goto(url);
    await p.waitForFunction(() =>
      (document.getElementById("terminal")?.textContent ?? "").includes("$")
    );
    await p.keyboard.type(
      `for i in $(seq 10000); do printf '\\e[3%dmline %d of the history\\e[m\\n' $((i%8)) $i; done; echo do''ne`,
    );
    await p.keyboard.press("Enter");
    await p.waitForFunction(
      () =>
        (document.getElementById("terminal")?.textContent ?? "").includes(
          "done\n",
        ) ||
        Array.from(document.querySelectorAll(".dt-row")).some((r) =>
          r.textContent?.trim() === "done"
        ),
      undefined,
      { timeout: 120_000 },
    );

    rows.push([
      `+ session ${i + 2} with 10,000 lines`,
      await settle(child.pid),
    ]);
  }
  // A flood in the first window: the memory it leaves once output stops
  // (the emulator moves back to the main thread 5 s after it).
  await page.keyboard.type(
    `${flood(MB, 0)} >/dev/null; ${flood(MB, 1)}; echo; echo flo''od-done`,
  );
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll(".dt-row")).some((r) =>
        r.textContent?.trim() === "flood-done"
      ),
    undefined,
    { timeout: 300_000 },
  );
  rows.push([
    `session 1 printed ${MB} MB, 1 s later`,
    await settle(child.pid, 1000),
  ]);
  rows.push(["the same, 10 s later", await settle(child.pid, 9000)]);
  if (FLOODS > 0) {
    await detachedFloods(url, FLOODS);
    rows.push([
      `+ ${FLOODS} sessions printed ${MB} MB each, 10 s later`,
      await settle(child.pid, 10_000),
    ]);
  }
  console.log(
    `server start to URL printed: ${listening.toFixed(0)} ms; ` +
      `page opened to first prompt drawn: ${firstPrompt.toFixed(0)} ms`,
  );
  console.log(
    "state                                    RSS MB   PSS MB   step MB",
  );
  let prev = 0;
  for (const [name, m] of rows) {
    console.log(
      `${name.padEnd(40)} ${m.rss.toFixed(1).padStart(7)} ${
        m.pss.toFixed(1).padStart(8)
      } ${prev ? (m.rss - prev).toFixed(1).padStart(9) : "         "}`,
    );
    prev = m.rss;
  }
} finally {
  await browser.close();
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  await child.status;
}
