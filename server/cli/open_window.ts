/**
 * Open a window on a URL with the browser the options name, or print the
 * URL: what both the server (server/cli/serve.ts) and a `domterm` that
 * hands off to a running server (server/cli.ts) do last.
 *
 * A process that is to be the server starts the browser first
 * ({@link startEarlyWindow}), on a launcher that waits for the URL, so
 * that Chromium's own start (half a second or more) overlaps the
 * server's instead of following it (issue 31 §7); the server's first
 * {@link openWindow} then only writes the URL for it.
 *
 * @module
 */
import {
  type BrowserChoice,
  chooseBrowser,
  CHROMIUM_BROWSERS,
  fulfilLauncher,
  openBrowser,
  rememberedWindowPort,
  rememberWindowPort,
  startBrowser,
  writePendingLauncher,
} from "../browser.ts";

/**
 * The pending launcher's script path of a browser started early
 * ({@link startEarlyWindow}), for a detached server (server/daemon.ts)
 * that the process which started the browser starts: it inherits the
 * variable and takes it out of its environment at once, so no session
 * inherits it.
 */
export const EARLY_WINDOW_ENV = "DOMTERM_EARLY_WINDOW";

/** What {@link openWindow} needs of the command line. */
export interface WindowOptions {
  noBrowser: boolean;
  browser: string | undefined;
}

/** A browser that fails later than this has shown its window. */
const BROWSER_FAILURE_WINDOW_MS = 10_000;

/** A browser started early, whose launcher waits for the URL. */
interface EarlyWindow {
  /** The script its launcher waits for. */
  js: string;
  /** It exited with a failure before its URL was written (its launcher is gone). */
  failed: boolean;
  /** The URL written for it, and when (for a failure after that). */
  url?: string;
  at?: number;
  choice?: BrowserChoice;
}

/** This process's browser started early, until its window is opened. */
let early: EarlyWindow | null = null;

/**
 * Open a window on `url` with the browser the options name, or print the
 * URL (--no-browser, or when no browser can be started). Returns the
 * launcher file to remove once the window has connected, if any.
 */
export async function openWindow(
  url: string,
  opts: WindowOptions,
): Promise<string | null> {
  if (opts.noBrowser) {
    console.log(url);
    return null;
  }
  const js = await fulfilEarlyWindow(url);
  if (js !== null) return js;
  try {
    const choice = chooseBrowser(opts.browser);
    const opened = performance.now();
    return await openBrowser(url, choice, {
      // A browser that cannot show a window (no display, say) exits at once
      // with an error: say so rather than wait for a window in silence.
      onFailure: (s) => {
        if (performance.now() - opened > BROWSER_FAILURE_WINDOW_MS) return;
        reportFailure(choice, s, url);
      },
    });
  } catch (e) {
    console.error(`domterm: ${(e as Error).message}`);
    console.error(
      "domterm: open this URL yourself (it contains the server key):",
    );
    console.log(url);
    return null;
  }
}

function reportFailure(
  choice: BrowserChoice,
  s: Deno.CommandStatus,
  url: string,
): void {
  console.error(
    `domterm: ${choice.path} exited with ${
      s.signal ? `signal ${s.signal}` : `status ${s.code}`
    } before showing a window${
      Deno.build.os === "linux" && !Deno.env.get("DISPLAY") &&
        !Deno.env.get("WAYLAND_DISPLAY")
        ? " (no DISPLAY or WAYLAND_DISPLAY is set)"
        : ""
    }; open this URL yourself (it contains the server key), or use --no-browser:`,
  );
  console.log(url);
}

/**
 * This process (or the detached server it starts) is to be the server
 * and open its first window: start the browser now, on a launcher that
 * waits for the server's URL (server/browser.ts, writePendingLauncher).
 * In a detached server started by such a process, take over the browser
 * that process started. Only for a Chromium-family browser that domterm
 * finds itself (CHROME_PATH, PATH, or `--browser` chrome, chromium, edge,
 * brave): a `--browser` program is handed a launcher with its URL, as
 * before, and may read it. When nothing can be started nothing happens,
 * and {@link openWindow} goes the usual way (and says what failed); so it
 * does when this browser fails before the URL is known.
 */
export async function startEarlyWindow(opts: WindowOptions): Promise<void> {
  const inherited = Deno.env.get(EARLY_WINDOW_ENV);
  if (inherited) {
    Deno.env.delete(EARLY_WINDOW_ENV);
    early = { js: inherited, failed: false };
    return;
  }
  const known = opts.browser === undefined ||
    CHROMIUM_BROWSERS.some((c) => c.name === opts.browser);
  if (opts.noBrowser || early || !known) return;
  let choice: BrowserChoice;
  try {
    choice = chooseBrowser(opts.browser);
  } catch {
    return; // openWindow says it
  }
  if (choice.kind !== "app") return;
  let paths: { html: string; js: string };
  try {
    paths = await writePendingLauncher();
  } catch {
    return;
  }
  const started: EarlyWindow = { js: paths.js, failed: false, choice };
  try {
    startBrowser(paths.html, choice, {
      onFailure: (s) => {
        if (started.url === undefined) {
          started.failed = true;
          void Deno.remove(paths.html).catch(() => {});
        } else if (
          performance.now() - started.at! < BROWSER_FAILURE_WINDOW_MS
        ) {
          reportFailure(choice, s, started.url);
        }
      },
    });
  } catch {
    return; // removed; openWindow says it
  }
  early = started;
}

/**
 * The environment for a detached server started by this process: the
 * browser started early, for it to take over.
 */
export function earlyWindowEnv(): Record<string, string> {
  return early ? { [EARLY_WINDOW_ENV]: early.js } : {};
}

/**
 * The port for a server whose first window opens in the browser started
 * early (domterm's own profile): the one its last such window was served
 * from, when free, so that the profile's caches hold the client for this
 * origin (server/browser.ts, rememberedWindowPort); else 0 (any).
 */
export function earlyWindowPort(): number {
  return early && !early.failed ? rememberedWindowPort() : 0;
}

/**
 * The first window of a browser started early: write its URL where its
 * launcher looks. The path to remove once the window connected, or null
 * (no early browser, or it failed: its launcher is gone).
 */
async function fulfilEarlyWindow(url: string): Promise<string | null> {
  const e = early;
  early = null;
  if (e === null || e.failed) return null;
  const html = e.js.replace(/\.js$/, ".html");
  try {
    await Deno.stat(html); // gone: the browser failed (seen by the process that started it)
    // It may have failed while we looked (its failure then saw no URL to
    // report): the usual way instead, which says what failed.
    if (e.failed) return null;
    e.url = url;
    e.at = performance.now();
    await fulfilLauncher(e.js, url);
    const u = new URL(url);
    if (u.hostname === "127.0.0.1" && u.port) {
      void rememberWindowPort(Number(u.port));
    }
    return e.js;
  } catch {
    return null;
  }
}
