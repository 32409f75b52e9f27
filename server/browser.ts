/**
 * Opening the terminal page in a browser: Chrome, Chromium, Edge or Brave in
 * app mode (a window with no URL bar), else the platform's default opener.
 *
 * The server key must not appear on any command line (`ps` shows them to
 * every user), so the browser is handed a 0600 launcher file that redirects
 * to the page; nor in any URL the browser records in its profile, so that
 * URL carries a one-time launch token instead of the key
 * (server/launch_token.ts).
 *
 * @module
 */
import { join } from "node:path";
import { launchUrl } from "./launch_token.ts";

/** A browser we know how to start in app mode. */
export interface BrowserCandidate {
  name: string;
  /** Executable names looked up on PATH. */
  commands: string[];
  /** Absolute paths tried when nothing is on PATH. */
  paths: string[];
}

/** Chromium-family browsers, in order of preference. */
export const CHROMIUM_BROWSERS: BrowserCandidate[] = [
  {
    name: "chrome",
    commands: ["google-chrome", "google-chrome-stable", "chrome"],
    paths: [
      "/opt/google/chrome/chrome",
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    ],
  },
  {
    name: "chromium",
    commands: ["chromium", "chromium-browser"],
    paths: [
      "/usr/bin/chromium",
      "/snap/bin/chromium",
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
    ],
  },
  {
    name: "edge",
    commands: ["microsoft-edge", "microsoft-edge-stable"],
    paths: [
      "/opt/microsoft/msedge/msedge",
      "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    ],
  },
  {
    name: "brave",
    commands: ["brave-browser", "brave"],
    paths: [
      "/opt/brave.com/brave/brave",
      "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
    ],
  },
];

/** How the page will be opened. */
export type BrowserChoice =
  | { kind: "app"; path: string }
  | { kind: "opener"; path: string };

function isExecutable(path: string): boolean {
  try {
    const st = Deno.statSync(path);
    return st.isFile && ((st.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * Look `name` up on PATH; absolute or relative paths are checked as they are.
 * Test hook: the e2e tests use it to find Chromium and the shells.
 */
export function which(
  name: string,
  path = Deno.env.get("PATH") ?? "",
): string | null {
  if (name.includes("/")) return isExecutable(name) ? name : null;
  for (const dir of path.split(":")) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

function findCandidate(c: BrowserCandidate): string | null {
  for (const cmd of c.commands) {
    const p = which(cmd);
    if (p) return p;
  }
  for (const p of c.paths) if (isExecutable(p)) return p;
  return null;
}

/** The platform's "open this with the default application" command. */
export function defaultOpener(os = Deno.build.os): string | null {
  if (os === "darwin") return which("open") ?? "/usr/bin/open";
  return which("xdg-open");
}

/**
 * Decide how to open the page. `requested` is the `--browser` value:
 * a name (chrome, chromium, edge, brave, default) or a path to an
 * executable. Without it: CHROME_PATH, then the Chromium family, then the
 * default opener. Throws an Error saying what is missing.
 */
export function chooseBrowser(requested?: string): BrowserChoice {
  if (requested !== undefined) {
    if (requested === "default") {
      const opener = defaultOpener();
      if (!opener) throw new Error("no default opener (xdg-open) found");
      return { kind: "opener", path: opener };
    }
    const known = CHROMIUM_BROWSERS.find((c) => c.name === requested);
    if (known) {
      const p = findCandidate(known);
      if (!p) throw new Error(`browser '${requested}' not found`);
      return { kind: "app", path: p };
    }
    const p = which(requested);
    if (!p) {
      throw new Error(
        `browser '${requested}' not found (give chrome, chromium, edge, brave, default, or a path)`,
      );
    }
    return { kind: "app", path: p };
  }
  const env = Deno.env.get("CHROME_PATH");
  if (env && isExecutable(env)) return { kind: "app", path: env };
  for (const c of CHROMIUM_BROWSERS) {
    const p = findCandidate(c);
    if (p) return { kind: "app", path: p };
  }
  const opener = defaultOpener();
  if (opener) return { kind: "opener", path: opener };
  throw new Error(
    "no browser found: install Chrome or Chromium, set CHROME_PATH, pass --browser PATH, " +
      "or use --no-browser and open the printed URL yourself",
  );
}

/** The per-user configuration directory of domterm. */
export function configDir(): string {
  const xdg = Deno.env.get("XDG_CONFIG_HOME");
  const home = Deno.env.get("HOME") ?? Deno.cwd();
  if (Deno.build.os === "darwin" && !xdg) {
    return join(home, "Library", "Application Support", "domterm");
  }
  return join(xdg || join(home, ".config"), "domterm");
}

/**
 * The file that remembers the port of the last server whose window opened
 * in domterm's own browser profile (configDir()/browser-profile): a server
 * that listens there again serves its page from the same origin, so the
 * profile's HTTP cache and V8 code cache (kept per origin, and the port is
 * part of it) already hold the client's script (issue 31 §7).
 */
export function windowPortFile(dir = configDir()): string {
  return join(dir, "browser-port");
}

/**
 * The port remembered in {@link windowPortFile} if it is free on the
 * loopback now, else 0 (any port).
 */
export function rememberedWindowPort(dir = configDir()): number {
  let port: number;
  try {
    port = Number(Deno.readTextFileSync(windowPortFile(dir)).trim());
  } catch {
    return 0;
  }
  if (!Number.isInteger(port) || port < 1024 || port > 65535) return 0;
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return port;
  } catch {
    return 0; // taken (another server, another program)
  }
}

/** Remember `port` in {@link windowPortFile} (best effort). */
export async function rememberWindowPort(
  port: number,
  dir = configDir(),
): Promise<void> {
  const file = windowPortFile(dir);
  try {
    if ((await Deno.readTextFile(file)).trim() === String(port)) return;
  } catch { /* none yet */ }
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${Deno.pid}.tmp`;
    await Deno.writeTextFile(tmp, `${port}\n`, { mode: 0o600 });
    await Deno.rename(tmp, file);
  } catch { /* the next start picks another port */ }
}

/**
 * Write a launcher page, readable only by the user, that sends the browser
 * on to `url` without adding a history entry (so the app window may later
 * close itself). Returns its path.
 */
export async function writeLauncher(
  url: string,
  dir = configDir(),
): Promise<string> {
  const launchDir = join(dir, "launch");
  await Deno.mkdir(launchDir, { recursive: true, mode: 0o700 });
  await Deno.chmod(launchDir, 0o700);
  const name = `open-${crypto.randomUUID()}.html`;
  const path = join(launchDir, name);
  const html = `<!DOCTYPE html><meta charset="utf-8"><title>domterm</title>` +
    `<script>location.replace(${JSON.stringify(url)});</script>\n`;
  await Deno.writeTextFile(path, html, { mode: 0o600, createNew: true });
  return path;
}

/**
 * A launcher for a browser started before the server knows its URL (issue
 * 31 §7: Chromium starts while the server loads, not after): the page
 * (`html`) says it is starting and loads the script `js` beside it every
 * {@link PENDING_POLL_MS} until the server has written it
 * ({@link fulfilLauncher}); the script sends the browser on to the page. A
 * file page may load a file script (no CORS for scripts); it cannot read
 * other files. After {@link PENDING_WAIT_MS} it gives up and says so.
 */
export async function writePendingLauncher(
  dir = configDir(),
): Promise<{ html: string; js: string }> {
  const launchDir = join(dir, "launch");
  await Deno.mkdir(launchDir, { recursive: true, mode: 0o700 });
  await Deno.chmod(launchDir, 0o700);
  const name = `open-${crypto.randomUUID()}`;
  const html = `<!DOCTYPE html><meta charset="utf-8"><title>domterm</title>` +
    `<meta name="color-scheme" content="dark light">` +
    `<p id="m" style="font:14px sans-serif;opacity:.6">Starting domterm…</p>` +
    `<script>const t0 = Date.now();\nfunction poll() {\n` +
    `  const s = document.createElement("script");\n` +
    `  s.src = ${JSON.stringify(`${name}.js`)};\n` +
    `  s.onerror = () => {\n    s.remove();\n` +
    `    if (Date.now() - t0 < ${PENDING_WAIT_MS}) setTimeout(poll, ${PENDING_POLL_MS});\n` +
    `    else document.getElementById("m").textContent = "domterm did not start: see the terminal it was started from, or its log.";\n` +
    `  };\n  document.head.append(s);\n}\npoll();</script>\n`;
  const paths = {
    html: join(launchDir, `${name}.html`),
    js: join(launchDir, `${name}.js`),
  };
  await Deno.writeTextFile(paths.html, html, { mode: 0o600, createNew: true });
  return paths;
}

/** How often a pending launcher looks for its script, ms. */
export const PENDING_POLL_MS = 15;
/** How long a pending launcher waits for its script, ms. */
export const PENDING_WAIT_MS = 60_000;

/**
 * Write the script a pending launcher waits for: on to `url` (its key
 * becomes a one-time launch token), whole or not at all (0600, renamed
 * into place).
 */
export async function fulfilLauncher(js: string, url: string): Promise<void> {
  const tmp = `${js}.tmp`;
  await Deno.writeTextFile(
    tmp,
    `location.replace(${JSON.stringify(launchUrl(url))});\n`,
    { mode: 0o600 },
  );
  await Deno.rename(tmp, js);
}

/**
 * Remove launcher files older than `maxAgeMs`: a window opened by a later
 * `domterm` (attach, new) reads its launcher at once, but that command has
 * exited by then, so the server sweeps them (they hold the key).
 */
export async function sweepLaunchers(
  maxAgeMs: number,
  dir = configDir(),
): Promise<void> {
  const launchDir = join(dir, "launch");
  try {
    for await (const e of Deno.readDir(launchDir)) {
      if (!e.isFile || !/^open-[\w-]+\.(html|js)$/.test(e.name)) continue;
      const path = join(launchDir, e.name);
      try {
        const st = await Deno.stat(path);
        if (Date.now() - (st.mtime?.getTime() ?? 0) > maxAgeMs) {
          await Deno.remove(path);
        }
      } catch { /* gone meanwhile */ }
    }
  } catch { /* no launch directory */ }
}

/**
 * Chromium switches for domterm's own app window (its own profile, so its
 * own browser process: they always apply).
 *
 * DeferRendererTasksAfterInput (on by default) holds every task of a page
 * back after a key press until the next frame has been drawn, the echo's
 * WebSocket message included: with it, a key's echo reaches the page one
 * frame late (measured with `deno task bench:e2e`: median 14 ms from key
 * to echo in the DOM, 2.8 ms without; see docs/benchmarks.md).
 *
 * --disable-popup-blocking: a page opens the window a later `domterm`
 * asks for (`window.open` with no user gesture: server/windows/control.ts,
 * `openInPage`), where a new Chromium process that hands its command line
 * to the running one took 0.5 s and more (issue 31 §7). The profile is
 * domterm's own: its pages are domterm's; links open in the user's browser.
 */
export const APP_SWITCHES = [
  "--disable-features=DeferRendererTasksAfterInput",
  "--disable-popup-blocking",
];

/** Arguments for a Chromium-family browser in app mode. */
export function appArgs(
  launcherPath: string,
  profileDir: string,
  size = { width: 900, height: 600 },
): string[] {
  return [
    `--app=file://${launcherPath}`,
    `--user-data-dir=${profileDir}`,
    `--window-size=${size.width},${size.height}`,
    "--no-first-run",
    "--no-default-browser-check",
    ...APP_SWITCHES,
  ];
}

/**
 * Open `url` in a new window (the page's `#key=K` becomes a one-time
 * `#launch=T`: see server/launch_token.ts). Resolves with the launcher file's path once
 * the browser process has started (it does not wait for it to exit); the
 * caller removes the file once the page has connected.
 */
export async function openBrowser(
  url: string,
  choice: BrowserChoice,
  options: {
    size?: { width: number; height: number };
    /** The browser exited with a failure status (no display, a bad flag...). */
    onFailure?: (status: Deno.CommandStatus) => void;
  } = {},
): Promise<string> {
  const launcher = await writeLauncher(launchUrl(url));
  startBrowser(launcher, choice, options);
  return launcher;
}

/**
 * Start the browser on the launcher file `launcher` (it does not wait for
 * the browser to exit); throws when it cannot be started (the launcher is
 * removed then).
 */
export function startBrowser(
  launcher: string,
  choice: BrowserChoice,
  options: {
    size?: { width: number; height: number };
    onFailure?: (status: Deno.CommandStatus) => void;
  } = {},
): void {
  const args = choice.kind === "app"
    ? appArgs(launcher, join(configDir(), "browser-profile"), options.size)
    : [launcher];
  try {
    const child = new Deno.Command(choice.path, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    child.status.then((s) => {
      if (!s.success) options.onFailure?.(s);
    }).catch(() => {});
  } catch (e) {
    try {
      Deno.removeSync(launcher);
    } catch { /* gone */ }
    throw new Error(`cannot start ${choice.path}: ${(e as Error).message}`);
  }
}
