/**
 * The window's actions as the menu lists them (client/menu.ts), in menu
 * order: edit, view, session. Each one runs what its key binding runs.
 *
 * @module
 */
import type { Actions } from "./actions.ts";
import type { ZoomAction } from "./zoom.ts";
import { terminalSelection } from "./selection.ts";

/** What the actions act on, from the page. */
export interface WindowParts {
  /** The terminal element (a selection inside it can be copied). */
  root: HTMLElement;
  copy: () => void;
  /** Copy the selection's HTML source as text. */
  copyHtml: () => void;
  paste: () => void;
  selectAll: () => void;
  /** Open the find bar. */
  find: () => void;
  /** Clear the session's history (every window's). */
  clearHistory: () => void;
  saveHtml: () => Promise<void>;
  zoom: (action: ZoomAction) => void;
  /** A new window on a new session. */
  newWindow: () => void;
  detach: () => void;
  /** Close this window (the last one's close hangs the program up). */
  close: () => void;
  /** Open the settings page. */
  settings: () => void;
}

/** Registers the window's actions. */
export function registerActions(actions: Actions, w: WindowParts): void {
  const hasSelection = () => terminalSelection(w.root) !== null;
  actions.register({
    name: "copy",
    label: "Copy",
    key: "Ctrl+Shift+C",
    group: "edit",
    enabled: hasSelection,
    run: w.copy,
  });
  actions.register({
    name: "copy-html",
    label: "Copy as HTML",
    group: "edit",
    enabled: hasSelection,
    run: w.copyHtml,
  });
  actions.register({
    name: "paste",
    label: "Paste",
    key: "Ctrl+Shift+V",
    group: "edit",
    run: w.paste,
  });
  actions.register({
    name: "select-all",
    label: "Select all",
    group: "edit",
    run: w.selectAll,
  });
  actions.register({
    name: "find",
    label: "Find\u2026",
    key: "Ctrl+Shift+F",
    group: "edit",
    run: w.find,
  });
  actions.register({
    name: "clear-scrollback",
    label: "Clear scrollback",
    group: "edit",
    run: w.clearHistory,
  });
  actions.register({
    name: "save-html",
    label: "Save as HTML\u2026",
    key: "Ctrl+Shift+S",
    group: "file",
    run: w.saveHtml,
  });
  actions.register({
    name: "zoom-in",
    label: "Zoom in",
    key: "Ctrl+Shift+=",
    group: "view",
    run: () => w.zoom("in"),
  });
  actions.register({
    name: "zoom-out",
    label: "Zoom out",
    key: "Ctrl+Shift+-",
    group: "view",
    run: () => w.zoom("out"),
  });
  actions.register({
    name: "zoom-reset",
    label: "Reset zoom",
    key: "Ctrl+Shift+0",
    group: "view",
    run: () => w.zoom("reset"),
  });
  actions.register({
    name: "settings",
    label: "Settings\u2026",
    group: "view",
    run: w.settings,
  });
  actions.register({
    name: "new-window",
    label: "New window",
    group: "session",
    run: w.newWindow,
  });
  actions.register({
    name: "detach",
    label: "Detach",
    key: "Ctrl+Shift+D",
    group: "session",
    run: w.detach,
  });
  actions.register({
    name: "close",
    label: "Close",
    group: "session",
    run: w.close,
  });
}
