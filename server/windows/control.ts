/**
 * What the control socket does with windows (server/session_control.ts
 * hands these requests here): `domterm new --tab|--pane[=SIDE]` and
 * `domterm attach --tab|--pane N` put a session into a new pane of the
 * window they are run from (the one showing the session named in the
 * caller's `DOMTERM`) or of a window named with `--window`; `domterm
 * attach` brings back a window whose page is gone.
 *
 * @module
 */
import type {
  ControlRequest,
  ControlResponse,
  PaneTarget,
} from "../control.ts";
import { addPane, type PaneContent } from "./ops.ts";
import type { WindowRegistry } from "./registry.ts";
import type { PageTarget, TopWindow } from "./top_window.ts";

/** The page URL of window `id` (`base`: the server's page URL, with the key). */
export function windowUrl(base: string, id: number): string {
  return `${base}&window=${id}`;
}

/** The window `target` names, or the error that says why there is none. */
function targetWindow(
  windows: WindowRegistry,
  target: PaneTarget,
): TopWindow | string {
  if (target.window !== undefined) {
    return windows.find(target.window) ??
      `there is no window ${target.window}`;
  }
  if (target.from === undefined) {
    return "not run inside a domterm window: name one with --window W";
  }
  return windows.windowOf(target.from) ??
    `no window shows session ${target.from}: name one with --window W`;
}

/** `domterm name-window`: the window (this one, or `--window`'s) gets a name. */
export function nameWindow(
  windows: WindowRegistry,
  req: Extract<ControlRequest, { op: "name-window" }>,
): ControlResponse {
  const win = targetWindow(windows, { where: "tab", ...req });
  if (typeof win === "string") return { ok: false, error: win };
  const other = windows.find(req.name);
  if (other && other !== win) {
    return { ok: false, error: `window ${other.id} is named ${req.name}` };
  }
  windows.rename(win, req.name);
  return { ok: true, window: win.id };
}

/** The answer for a pane added to `win` (its URL, in case no page shows it). */
function placed(
  base: string,
  win: TopWindow,
  session: number,
  pane: number,
): ControlResponse {
  return {
    ok: true,
    session,
    window: win.id,
    pane,
    shown: win.pages.size > 0,
    url: windowUrl(base, win.id),
  };
}

/**
 * A new pane showing `content` (an existing session, or a new one) in the
 * window `target` names, beside its focused pane.
 */
export function placeInWindow(
  windows: WindowRegistry,
  base: string,
  target: PaneTarget,
  content: PaneContent,
): ControlResponse {
  const win = targetWindow(windows, target);
  if (typeof win === "string") return { ok: false, error: win };
  try {
    const pane = addPane(windows, win, win.layout.focus, target.where, content);
    return placed(base, win, pane.session, pane.id);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * The answer to `domterm attach` for a window: `ref`'s, else for
 * `session` the newest one showing it that no page shows, else (neither
 * given) the window that lost its page last. Null: none (the caller
 * opens the session in a new window, or says there is nothing to attach).
 */
export function attachWindow(
  windows: WindowRegistry,
  base: string,
  ref: number | string | undefined,
  session: number | undefined,
): ControlResponse | null {
  let win: TopWindow | undefined;
  if (ref !== undefined) {
    const found = windows.find(ref);
    if (!found) return { ok: false, error: `there is no window ${ref}` };
    win = found;
  } else {
    const pageless =
      (session === undefined ? windows.all() : windows.showing(session)).filter(
        (w) => w.pages.size === 0,
      );
    pageless.sort((a, b) => (a.detachedSince ?? 0) - (b.detachedSince ?? 0));
    win = pageless.at(-1);
  }
  if (!win) return null;
  const focused = windows.focusedSession(win);
  return {
    ok: true,
    session: session ?? focused,
    window: win.id,
    shown: win.pages.size > 0,
    url: windowUrl(base, win.id),
  };
}

/**
 * `open-in-page`: a page already open on this machine opens the window
 * (`window.open`), so a second `domterm` needs no new browser process
 * (a Chromium that hands its command line to the running one took 0.5 s
 * and more; issue 31 §7). The newest window's pages are asked first, one
 * at a time, none after 3 s. `ok: false` when none did (no page, none of this machine, or
 * the browser blocked the window): the command opens a browser itself.
 */
export async function openInPage(
  windows: WindowRegistry,
  { window, session }: PageTarget,
): Promise<ControlResponse> {
  // No page asked after 3 s (each has OPEN_PAGE_TIMEOUT_MS to answer):
  // the command's request waits 15 s.
  const until = performance.now() + 3000;
  const pages = windows.all().reverse().flatMap((w) => [...w.pages].reverse());
  for (const page of pages) {
    if (performance.now() > until) break;
    if (await page.openPage?.({ window, session })) return { ok: true };
  }
  return { ok: false, error: "no page opened the window" };
}
