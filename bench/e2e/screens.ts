/**
 * The terminals `bench/e2e/screen_bench.ts` compares, behind one interface:
 * domterm's page, ttyd's page (xterm.js, DOM renderer or WebGL), and the PTY
 * floor (the same program on a bare PTY read by this process, the bytes
 * discarded). Each runs the same shell loop (`LOOP_SCRIPT`), which takes
 * command lines from a FIFO, notes the wall clock just before and after
 * each command, then prints a marker line; the benchmark waits for the
 * marker on screen.
 *
 * On screen: a page notes the first time a text appears in one of the last
 * rows of its screen: a MutationObserver on the document for the DOM
 * renderers (domterm; xterm.js's `.xterm-rows`), and for xterm.js's WebGL
 * renderer (no DOM text) its buffer, polled each animation frame. Times are
 * the page's `performance.timeOrigin + now()`, put on this process's clock
 * by round trips (the one with the shortest round trip wins).
 *
 * @module
 */
import type { RawBrowser, RawPage } from "./cdp.ts";
import { spawnServer } from "../../tests/e2e/domterm.ts";
import type { Sshd } from "../../tests/sshd.ts";
import { TEST_DENO_DIR } from "../../tests/runtime_dir.ts";
import { request, socketPath } from "../../server/control.ts";
import { Pty } from "../../server/pty/pty.ts";
import type { Inspected } from "../../client/inspect.ts";

/** The terminals, in the order of the report. */
export type Kind = "floor" | "domterm" | "ttyd-dom" | "ttyd-webgl";

/** Page size (the issue's). */
export const VIEWPORT = { width: 1200, height: 800 };

/**
 * The program every terminal runs: `sh LOOP FIFO DIR`. A line `N CMD` read
 * from FIFO runs CMD; the wall clock (ns) before and after goes to DIR/start.N
 * and DIR/end.N; then the line `dt-mark-N-done`. Ctrl+C ends the command,
 * not the loop (a trap, which the command does not inherit).
 */
export const LOOP_SCRIPT = `trap 'printf "\\n"' INT
while :; do
  IFS= read -r line < "$1" || continue
  n=\${line%% *}
  cmd=\${line#* }
  date +%s%N > "$2/start.$n"
  eval "$cmd"
  date +%s%N > "$2/end.$n"
  printf '\\033[0m\\ndt-mark-%s-done\\n' "$n"
done
`;

/** This process's clock, ms since the epoch (Deno's timeOrigin is the wall clock). */
export const now = () => performance.timeOrigin + performance.now();

/** A terminal running the loop, driven by the benchmark. */
export interface Screen {
  kind: Kind;
  /** Its loop's FIFO and timestamp directory. */
  dir: string;
  cols: number;
  rows: number;
  /** The server process (for RSS), null for the floor. */
  pid: number | null;
  /** What the page really uses (WebGL may fall back). */
  renderer: string;
  page: RawPage | null;
  /** Start watching the last `k` screen rows for `text`. */
  arm(text: string, k?: number): Promise<void>;
  /** When the armed text was first on screen (this clock), NaN on timeout. */
  seen(timeoutMs: number): Promise<number>;
  /** Type Ctrl+C. */
  ctrlC(): Promise<void>;
  /** When the last key went down (this clock). */
  lastKey(): Promise<number>;
  close(): Promise<void>;
}

let nextRun = 0;

/** The number the next {@link runCommand} will give. */
export const upcoming = () => nextRun + 1;

/** Run `cmd` in the screen's loop; returns the run's number. */
export async function runCommand(s: Screen, cmd: string): Promise<number> {
  const n = ++nextRun;
  await Deno.writeTextFile(`${s.dir}/cmd`, `${n} ${cmd}\n`);
  return n;
}

/** The wall clock (ms) the loop noted before (`start`) or after (`end`) run `n`. */
export async function stamp(
  s: Screen,
  which: "start" | "end",
  n: number,
): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const t = await Deno.readTextFile(`${s.dir}/${which}.${n}`).catch(() => "");
    if (/^\d+\n$/.test(t)) return Number(BigInt(t.trim()) / 1000n) / 1000;
    await new Promise((r) => setTimeout(r, 20));
  }
  return NaN;
}

export const marker = (n: number) => `dt-mark-${n}-done`;

async function loopDir(base: string, kind: string): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: base, prefix: `${kind}-` });
  await Deno.writeTextFile(`${dir}/loop.sh`, LOOP_SCRIPT);
  const mk = await new Deno.Command("mkfifo", { args: [`${dir}/cmd`] })
    .output();
  if (!mk.success) throw new Error("mkfifo failed");
  return dir;
}

/** The in-page probe (see the module doc). */
function installProbe(kind: Kind): void {
  const clock = () => performance.timeOrigin + performance.now();
  type X = {
    buffer: {
      active: {
        baseY: number;
        getLine(y: number): { translateToString(t: boolean): string } | null;
      };
    };
    rows: number;
  };
  const rowsText = (k: number): string[] => {
    const out: string[] = [];
    if (kind === "domterm") {
      const dt = (globalThis as unknown as Inspected).domtermInspect;
      const n = dt.term.buffer.length;
      for (let j = 1; j <= k; j++) {
        out.push(dt.rowElement(n - j)?.textContent ?? "");
      }
    } else if (!canvas) {
      let el = document.querySelector(".xterm-rows")?.lastElementChild;
      for (let j = 0; el && j < k; j++, el = el.previousElementSibling) {
        out.push(el.textContent ?? "");
      }
    } else {
      const t = (globalThis as unknown as { term: X }).term;
      const b = t.buffer.active;
      for (let j = 1; j <= k; j++) {
        out.push(
          b.getLine(b.baseY + t.rows - j)?.translateToString(true) ?? "",
        );
      }
    }
    return out;
  };
  let want = "", rows = 4;
  let done: ((t: number) => void) | null = null;
  let result: Promise<number> = Promise.resolve(NaN);
  let lastKey = NaN;
  addEventListener("keydown", () => lastKey = clock(), { capture: true });
  const check = () => {
    if (!done) return;
    for (const s of rowsText(rows)) {
      if (s.includes(want)) {
        const d = done;
        done = null;
        observer.disconnect();
        d(clock());
        return;
      }
    }
  };
  const observer = new MutationObserver(check);
  // xterm.js's WebGL renderer draws on a canvas and leaves no row text in
  // the DOM; asked at each arm (the addon may load after the page).
  let canvas = false;
  const poll = () => {
    check();
    if (done) requestAnimationFrame(poll);
  };
  Object.assign(globalThis, {
    b39: {
      arm(text: string, k: number) {
        want = text;
        rows = k;
        canvas = kind === "ttyd-webgl" &&
          !document.querySelector(".xterm-rows");
        result = new Promise((ok) => done = ok);
        if (canvas) requestAnimationFrame(poll);
        else {
          observer.observe(document.body, {
            subtree: true,
            childList: true,
            characterData: true,
          });
        }
        check();
      },
      seen: (ms: number) =>
        Promise.race([
          result,
          new Promise((ok) => setTimeout(() => ok(-1), ms)),
        ]),
      lastKey: () => lastKey,
      renderer: () =>
        kind === "domterm" || document.querySelector(".xterm-rows")
          ? "DOM"
          : "WebGL (canvas)",
    },
  });
}

type Probe = {
  b39: {
    arm(t: string, k: number): void;
    seen(ms: number): Promise<number>;
    lastKey(): number;
    renderer(): string;
  };
};

/** The page's clock minus this process's, from the fastest of a few round trips. */
async function clockOffset(page: RawPage): Promise<number> {
  let best = Infinity, offset = 0;
  for (let i = 0; i < 9; i++) {
    const a = now();
    const p = await page.evaluate(() =>
      performance.timeOrigin + performance.now()
    );
    const b = now();
    if (b - a < best) {
      best = b - a;
      offset = p - (a + b) / 2;
    }
  }
  return offset;
}

/** A Screen for a page already showing the terminal. */
async function pageScreen(
  kind: Kind,
  page: RawPage,
  dir: string,
  pid: number,
  size: [number, number],
  stop: () => Promise<void>,
): Promise<Screen> {
  await page.evaluate(installProbe, kind);
  const offset = await clockOffset(page);
  const renderer = await page.evaluate(() =>
    (globalThis as unknown as Probe).b39.renderer()
  );
  return {
    kind,
    dir,
    cols: size[0],
    rows: size[1],
    pid,
    renderer,
    page,
    async arm(text, k = 4) {
      await page.evaluate(
        ([t, k]) =>
          (globalThis as unknown as Probe).b39.arm(t as string, k as number),
        [text, k],
      );
    },
    async seen(ms) {
      const t = await page.evaluate(
        (ms) => (globalThis as unknown as Probe).b39.seen(ms),
        ms,
      );
      return t < 0 ? NaN : t - offset;
    },
    async ctrlC() {
      const base = { key: "Control", code: "ControlLeft", modifiers: 2 };
      await page.send("Input.dispatchKeyEvent", {
        type: "rawKeyDown",
        windowsVirtualKeyCode: 17,
        ...base,
      });
      const c = {
        key: "c",
        code: "KeyC",
        windowsVirtualKeyCode: 67,
        nativeVirtualKeyCode: 67,
        modifiers: 2,
      };
      await page.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...c });
      await page.send("Input.dispatchKeyEvent", { type: "keyUp", ...c });
      await page.send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
    },
    async lastKey() {
      return await page.evaluate(() =>
        (globalThis as unknown as Probe).b39.lastKey()
      ) - offset;
    },
    async close() {
      await page.close().catch(() => {});
      await stop();
    },
  };
}

/** How a page reaches its server: directly, or through `via` (a slow link). */
export type Route = (port: number) => number;
const direct: Route = (port) => port;

/** domterm (`main`: its main.ts) running the loop, in a new page. */
export async function openDomterm(
  browser: RawBrowser,
  base: string,
  main: string | undefined,
  route: Route = direct,
): Promise<Screen> {
  const dir = await loopDir(base, "domterm");
  const server = await spawnServer(
    ["--", "/bin/sh", `${dir}/loop.sh`, `${dir}/cmd`, dir],
    undefined,
    main,
  );
  const url = new URL(server.url);
  url.port = String(route(Number(url.port)));
  return await domtermScreen(browser, url.href, dir, server.child);
}

/**
 * A page on domterm's `url` (its server `child`, the loop in `dir`) as a
 * screen; closing it ends the server, then runs `after`.
 */
async function domtermScreen(
  browser: RawBrowser,
  url: string,
  dir: string,
  child: Deno.ChildProcess,
  after: () => Promise<void> = () => Promise.resolve(),
): Promise<Screen> {
  const page = await browser.newPage(VIEWPORT);
  await page.goto(url);
  await page.waitForFunction(
    () =>
      "domtermInspect" in globalThis &&
      (globalThis as unknown as Inspected).domtermInspect.connected,
    undefined,
    60_000,
  );
  const size = await page.evaluate(() => {
    const t = (globalThis as unknown as Inspected).domtermInspect.term;
    return [t.cols, t.rows] as [number, number];
  });
  return await pageScreen("domterm", page, dir, child.pid, size, async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    await after();
  });
}

/**
 * domterm through `domterm user@host` (docs/ssh.md): a local server whose
 * session runs on a "remote" domterm server on this machine, reached only
 * through ssh to `sshd` (tests/sshd.ts), with `route` on the ssh link (the
 * page talks to the local server directly). The remote session runs the
 * loop. Its kind is "domterm": the ssh phase has figures of its own.
 */
export async function openDomtermSsh(
  browser: RawBrowser,
  base: string,
  main: string | undefined,
  sshd: Sshd,
  route: Route = direct,
): Promise<Screen> {
  const dir = await loopDir(base, "domterm-ssh");
  const remoteDir = await Deno.makeTempDir({ dir: base, prefix: "remote-" });
  const localDir = await Deno.makeTempDir({ dir: base, prefix: "local-" });
  const port = route(sshd.port);
  // The proxy's port is another host:port to ssh: trust the same host key.
  const hostKey = (await Deno.readTextFile(`${sshd.dir}/host_key.pub`)).trim();
  await Deno.writeTextFile(
    `${sshd.dir}/known_hosts`,
    `[127.0.0.1]:${port} ${hostKey}\n`,
    { append: true },
  );
  const remoteMain = main ?? new URL("../../main.ts", import.meta.url).pathname;
  const remoteDomterm = [
    "env",
    `DOMTERM_RUNTIME_DIR=${remoteDir}`,
    `DOMTERM_SETTINGS=${remoteDir}/none.toml`,
    `XDG_STATE_HOME=${remoteDir}/state`,
    `DENO_DIR=${TEST_DENO_DIR}`,
    Deno.execPath(),
    "run",
    "-A",
    remoteMain,
  ].join(" ");
  const server = await spawnServer(
    [
      "--remote-domterm",
      remoteDomterm,
      `${sshd.user}@127.0.0.1:${port}`,
      "--",
      "/bin/sh",
      `${dir}/loop.sh`,
      `${dir}/cmd`,
      dir,
    ],
    {
      DOMTERM_SSH: sshd.ssh.join(" "),
      DOMTERM_RUNTIME_DIR: localDir,
    },
    main,
  );
  return await domtermScreen(
    browser,
    server.url,
    dir,
    server.child,
    async () => {
      // The remote server runs on in the background (ssh-stdio started
      // it): end it.
      await request(socketPath(remoteDir), { op: "kill-server" });
      for (let i = 0; i < 100; i++) {
        if (
          await request(socketPath(remoteDir), { op: "info" }, 500) === null
        ) {
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  );
}

/** A free TCP port on 127.0.0.1 (free when asked). */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** ttyd (the binary `ttyd`) running the loop, in a new page with `renderer`. */
export async function openTtyd(
  browser: RawBrowser,
  base: string,
  ttyd: string,
  renderer: "dom" | "webgl",
  route: Route = direct,
): Promise<Screen> {
  const kind: Kind = `ttyd-${renderer}`;
  const dir = await loopDir(base, kind);
  const port = freePort();
  const child = new Deno.Command(ttyd, {
    args: [
      "-i",
      "lo",
      "-p",
      String(port),
      "-W",
      "-t",
      "disableLeaveAlert=true",
      "/bin/sh",
      `${dir}/loop.sh`,
      `${dir}/cmd`,
      dir,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0;; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      if (i > 100) throw new Error(`${ttyd} did not listen on ${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const page = await browser.newPage(VIEWPORT);
  await page.goto(
    `http://127.0.0.1:${route(port)}/?rendererType=${renderer}`,
  );
  await page.waitForFunction(
    () => {
      const t = (globalThis as unknown as { term?: { rows: number } }).term;
      return !!t && !!document.querySelector(".xterm-screen");
    },
    undefined,
    60_000,
  );
  // The WebSocket is open and the shell started once the loop reads its FIFO.
  const size = await page.evaluate(() => {
    const t =
      (globalThis as unknown as { term: { cols: number; rows: number } })
        .term;
    return [t.cols, t.rows] as [number, number];
  });
  return await pageScreen(kind, page, dir, child.pid, size, async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
  });
}

/**
 * The PTY floor: the loop on a bare PTY (server/pty) whose reader takes the
 * bytes as fast as the kernel gives them, discards them, answers DSR
 * (`ESC[6n`) and looks for the armed text in what it read last.
 */
export async function openFloor(
  base: string,
  cols: number,
  rows: number,
): Promise<Screen> {
  const dir = await loopDir(base, "floor");
  const pty = Pty.spawn({
    command: "/bin/sh",
    args: [`${dir}/loop.sh`, `${dir}/cmd`, dir],
    cols,
    rows,
    env: { ...Deno.env.toObject(), TERM: "xterm-256color" },
  });
  const dec = new TextDecoder();
  const enc = new TextEncoder();
  let want = "";
  const armed = { done: null as ((t: number) => void) | null };
  let result: Promise<number> = Promise.resolve(NaN);
  let tail = "";
  let lastKey = NaN;
  const reading = (async () => {
    for (;;) {
      const chunk = await pty.read();
      if (chunk === null) return;
      let esc = chunk.indexOf(0x1b);
      while (esc >= 0) {
        if (
          chunk[esc + 1] === 0x5b && chunk[esc + 2] === 0x36 &&
          chunk[esc + 3] === 0x6e
        ) void pty.write(enc.encode(`\x1b[${rows};1R`));
        esc = chunk.indexOf(0x1b, esc + 1);
      }
      const done = armed.done;
      if (!done) continue;
      tail =
        (tail + dec.decode(chunk.subarray(Math.max(0, chunk.length - 256))))
          .slice(-512);
      if (tail.includes(want)) {
        armed.done = null;
        done(now());
      }
    }
  })();
  return {
    kind: "floor",
    dir,
    cols,
    rows,
    pid: null,
    renderer: "-",
    page: null,
    arm(text) {
      want = text;
      tail = "";
      result = new Promise((ok) => armed.done = ok);
      return Promise.resolve();
    },
    async seen(ms) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const t = await Promise.race([
        result,
        new Promise<number>((ok) => timer = setTimeout(() => ok(NaN), ms)),
      ]);
      clearTimeout(timer);
      return t;
    },
    async ctrlC() {
      lastKey = now();
      await pty.write(new Uint8Array([3]));
    },
    lastKey: () => Promise.resolve(lastKey),
    async close() {
      await pty.close();
      await reading.catch(() => {});
    },
  };
}
