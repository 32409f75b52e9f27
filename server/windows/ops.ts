/**
 * What a layout operation does to a window (core/protocol.ts `LayoutOp`,
 * from a page's window channel or a command): the layout changes through
 * core/layout.ts's pure operations, new panes get their sessions (started
 * here when none is named, in the directory of the pane beside them), a
 * closed pane's session is hung up when no window shows it any more, and a
 * pane can leave for another window. Failures throw an Error whose message
 * the page shows.
 *
 * @module
 */
import {
  addTab,
  closePane,
  findPane,
  focusPane,
  type Layout,
  LayoutError,
  movePane,
  type Pane,
  renamePane,
  resizeSplit,
  type Side,
  splitPane,
} from "../../core/layout.ts";
import type { LayoutOp } from "../../core/protocol.ts";
import type { NewPaneSession, WindowRegistry } from "./registry.ts";
import type { TopWindow, WindowPage } from "./top_window.ts";

/** Where a new pane goes: a tab beside a pane, or a new stack on a side of it. */
export type Placement = "tab" | Side;

/**
 * What a new pane shows: a session, or a new one (default: in the
 * directory of the pane beside it, running the server's command).
 */
export interface PaneContent extends NewPaneSession {
  session: number | null;
}

/** Pane `id` of `layout`, or a LayoutError. */
function paneOf(layout: Layout, id: number): Pane {
  const found = findPane(layout, id);
  if (!found) throw new LayoutError(`no pane ${id}`);
  return found.pane;
}

/** The size a new session beside `beside` starts at (the page sends its own soon). */
function newSize(
  windows: WindowRegistry,
  beside: Pane,
  where: Placement,
): { cols: number; rows: number } {
  const s = windows.sessions.size(beside.session) ?? { cols: 80, rows: 24 };
  if (where === "left" || where === "right") {
    return { cols: Math.max(2, Math.floor(s.cols / 2)), rows: s.rows };
  }
  if (where === "above" || where === "below") {
    return { cols: s.cols, rows: Math.max(2, Math.floor(s.rows / 2)) };
  }
  return s;
}

/**
 * A new pane in `win` at `where` of pane `beside`, showing `content`;
 * shown and focused. Returns it.
 */
export function addPane(
  windows: WindowRegistry,
  win: TopWindow,
  beside: number,
  where: Placement,
  content: PaneContent,
): Pane {
  const next = paneOf(win.layout, beside);
  let session = content.session;
  if (session === null) {
    const cwd = content.cwd ?? windows.sessions.cwd(next.session);
    session = windows.sessions.create(newSize(windows, next, where), {
      cwd,
      command: content.command,
      name: content.name,
    });
  } else if (!windows.sessions.live(session)) {
    throw new LayoutError(`there is no session ${session} (it may have ended)`);
  }
  const { layout, pane } = where === "tab"
    ? addTab(win.layout, beside, session)
    : splitPane(win.layout, beside, where, session);
  windows.update(win, layout);
  return pane;
}

/**
 * Pane `id` of `win` goes; its session is hung up when no window shows it
 * any more. The window goes with its last pane.
 */
export function removePane(
  windows: WindowRegistry,
  win: TopWindow,
  id: number,
): void {
  const { session } = paneOf(win.layout, id);
  windows.update(win, closePane(win.layout, id));
  if (!windows.shows(session)) windows.sessions.close(session);
}

/** Pane `id` of `from` leaves for `to`, as a tab beside `to`'s focused pane. */
function moveToWindow(
  windows: WindowRegistry,
  from: TopWindow,
  id: number,
  to: TopWindow,
): void {
  if (to === from) throw new LayoutError("the pane is in that window already");
  const pane = paneOf(from.layout, id);
  const { layout } = addTab(to.layout, to.layout.focus, pane.session);
  windows.update(to, renamePane(layout, layout.focus, pane.title));
  windows.update(from, closePane(from.layout, id));
}

/**
 * Apply `op` to `win`, asked by `page` (which is told `open-window` for
 * `to-new-window`). Throws an Error that says why it could not.
 */
export function applyLayoutOp(
  windows: WindowRegistry,
  win: TopWindow,
  op: LayoutOp,
  page?: WindowPage,
): void {
  const layout = win.layout;
  switch (op.op) {
    case "tab":
      addPane(windows, win, op.beside, "tab", { session: op.session });
      return;
    case "split":
      addPane(windows, win, op.beside, op.side, { session: op.session });
      return;
    case "move":
      return windows.update(win, movePane(layout, op.pane, op.drop));
    case "close":
      return removePane(windows, win, op.pane);
    case "focus":
      return windows.update(win, focusPane(layout, op.pane));
    case "rename":
      return windows.update(win, renamePane(layout, op.pane, op.title));
    case "resize":
      return windows.update(win, resizeSplit(layout, op.split, op.sizes));
    case "to-new-window": {
      const pane = paneOf(layout, op.pane);
      const fresh = windows.open(pane.session);
      if (pane.title !== null) {
        windows.update(
          fresh,
          renamePane(fresh.layout, fresh.layout.focus, pane.title),
        );
      }
      // The page opens the new window before it hears that this one lost the pane.
      page?.send({ type: "open-window", window: fresh.id });
      return windows.update(win, closePane(layout, op.pane));
    }
    case "to-window": {
      const to = windows.get(op.window);
      if (!to) throw new LayoutError(`there is no window ${op.window}`);
      return moveToWindow(windows, win, op.pane, to);
    }
  }
}
