/**
 * Opening a window on a session of the running server, from a command
 * (`domterm`, `domterm new`, `domterm attach`), and making sure it opened.
 *
 * Starting the browser is not enough: with no display it exits at once,
 * and the command used to exit 0 in silence, leaving a session nobody
 * sees. So the command waits until a window of the session connects (the
 * server's session list says so), or the browser fails, or a while passes:
 * - connected: exit 0;
 * - the browser failed: say how, and end a session made for this window
 *   (an attached one is left as it was), exit 1;
 * - nothing yet: say so, with the URL and what to do with the session,
 *   exit 0 (the window may still come).
 *
 * @module
 */
import {
  type BrowserChoice,
  chooseBrowser,
  CHROMIUM_BROWSERS,
  openBrowser,
} from "./browser.ts";
import {
  type ControlRequest,
  type ControlResponse,
  request,
} from "./control.ts";

/** How long to wait for the window to connect (ms). */
export const WINDOW_WAIT_MS = 15_000;

/** What to open and how. */
export interface OpenWindowOptions {
  /** The page (with the key in its fragment). */
  url: string;
  /** The session the page shows. */
  session: number;
  /** The window the page shows: wait for a page of it rather than of the session. */
  window?: number;
  /** The session was made for this window: end it when no window can open. */
  created: boolean;
  /** Print the URL instead of opening a browser. */
  noBrowser?: boolean;
  /** `--browser`. */
  browser?: string;
  /** The control socket of the server that owns the session. */
  controlPath: string;
  /** Test seam: the wait (default {@link WINDOW_WAIT_MS}, or DOMTERM_WINDOW_WAIT_MS). */
  waitMs?: number;
}

/** How one attempt ended. */
type Outcome =
  | { kind: "connected" }
  | { kind: "failed"; why: string }
  | { kind: "waiting" };

function failureText(choice: BrowserChoice, s: Deno.CommandStatus): string {
  const noDisplay = Deno.build.os === "linux" && !Deno.env.get("DISPLAY") &&
    !Deno.env.get("WAYLAND_DISPLAY");
  return `${choice.path} exited with ${
    s.signal ? `signal ${s.signal}` : `status ${s.code}`
  } before a window connected${
    noDisplay ? " (no DISPLAY or WAYLAND_DISPLAY is set)" : ""
  }`;
}

/** How many pages show `o.window`, else how many windows `o.session` has. */
async function windowsOf(o: OpenWindowOptions): Promise<number | null> {
  const res = await request(o.controlPath, { op: "list" }, 2000);
  if (res === null || !res.ok) return null;
  if (o.window !== undefined) {
    return res.windows?.find((w) => w.id === o.window)?.pages ?? 0;
  }
  return res.sessions?.find((s) => s.id === o.session)?.windows ?? 0;
}

/**
 * Ask a page of the running server to open the window (`open-in-page`:
 * server/windows/control.ts), for domterm's own Chromium only (not
 * `--browser PROGRAM` or the default opener, which the user chose to
 * run): no new browser process, which handing its command line to the
 * running one cost 0.5 s and more (issue 31 §7). Whether a page did.
 */
async function openInPage(
  o: OpenWindowOptions,
  choice: BrowserChoice,
): Promise<boolean> {
  const own = o.browser === undefined ||
    CHROMIUM_BROWSERS.some((c) => c.name === o.browser);
  if (choice.kind !== "app" || !own) return false;
  // The server asks pages for 8 s at most (server/windows/control.ts).
  const res = await ask(o.controlPath, {
    op: "open-in-page",
    window: o.window ?? null,
    session: o.window === undefined ? o.session : null,
  }, 15_000);
  return res?.ok === true;
}

async function waitForWindow(
  o: OpenWindowOptions,
  choice: BrowserChoice,
): Promise<Outcome> {
  let failed: string | null = null;
  if (!await openInPage(o, choice)) {
    await openBrowser(o.url, choice, {
      onFailure: (s) => failed = failureText(choice, s),
    });
  }
  const wait = o.waitMs ??
    (Number(Deno.env.get("DOMTERM_WINDOW_WAIT_MS")) || WINDOW_WAIT_MS);
  const deadline = performance.now() + wait;
  while (performance.now() < deadline) {
    if (failed !== null) return { kind: "failed", why: failed };
    const n = await windowsOf(o);
    if (n !== null && n > 0) return { kind: "connected" };
    await new Promise((r) => setTimeout(r, 100));
  }
  return failed !== null
    ? { kind: "failed", why: failed }
    : { kind: "waiting" };
}

async function ask(
  path: string,
  req: ControlRequest,
  timeoutMs?: number,
): Promise<ControlResponse | null> {
  return await request(path, req, timeoutMs).catch(() => null);
}

/**
 * Open a window on `o.session` and wait until it connects. Returns the
 * exit status for the command: 0 when a window connected (or may still),
 * 1 when none can.
 */
export async function openSessionWindow(o: OpenWindowOptions): Promise<number> {
  if (o.noBrowser) {
    console.log(o.url);
    return 0;
  }
  let outcome: Outcome;
  try {
    outcome = await waitForWindow(o, chooseBrowser(o.browser));
  } catch (e) {
    outcome = { kind: "failed", why: (e as Error).message };
  }
  if (outcome.kind === "connected") return 0;
  if (outcome.kind === "waiting") {
    console.error(
      `domterm: no window has connected to session ${o.session} yet; if none opens, ` +
        `open this URL yourself (it contains the server key), or 'domterm kill ${o.session}':`,
    );
    console.log(o.url);
    return 0;
  }
  console.error(`domterm: ${outcome.why}`);
  if (o.created) {
    const killed = await ask(o.controlPath, { op: "kill", session: o.session });
    console.error(
      killed?.ok
        ? `domterm: session ${o.session} was ended (it had no window); use --no-browser to get its URL instead`
        : `domterm: session ${o.session} is left detached: 'domterm attach ${o.session}' or 'domterm kill ${o.session}'`,
    );
  } else {
    console.error(
      `domterm: session ${o.session} is unchanged; open this URL yourself (it contains the server key):`,
    );
    console.log(o.url);
  }
  return 1;
}
