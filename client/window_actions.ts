/**
 * The window's actions as the menu lists them (client/menu.ts), in menu
 * order: edit, view, session. Their keys are in client/key_table.ts.
 *
 * @module
 */
import type { Actions } from "./actions.ts";
import type { ScrollAction } from "./scrollback.ts";
import type { ZoomAction } from "./zoom.ts";
import { terminalSelection } from "./selection.ts";
import type { Pager } from "./pager.ts";
import type { InputMode } from "../core/protocol.ts";
import { INPUT_MODE_NAMES, INPUT_MODES } from "./line_input.ts";

/** What the actions act on, from the page. */
export interface WindowParts {
  /** The terminal element (a selection inside it can be copied). */
  root: HTMLElement;
  copy: () => void;
  /** Ctrl+Shift+C: copy (the key never reaches the program). */
  copyKey: (e: KeyboardEvent) => boolean;
  /** Copy the selection's HTML source as text. */
  copyHtml: () => void;
  paste: () => void;
  /** Ctrl+Shift+V: the browser's paste in the textarea, else the clipboard's text. */
  pasteKey: (e: KeyboardEvent) => boolean;
  selectAll: () => void;
  /** Open the find bar. */
  find: () => void;
  /** Clear the session's history (every window's). */
  clearHistory: () => void;
  /** The pager: automatic on/off, pause/continue (client/pager.ts). */
  pager: Pager;
  saveHtml: () => Promise<void>;
  zoom: (action: ZoomAction) => void;
  /** A new window on a new session. */
  newWindow: () => void;
  detach: () => void;
  /** Close this window (the last one's close hangs the program up). */
  close: () => void;
  /** The window's input mode, and setting it (client/line_input.ts). */
  inputMode?: () => InputMode;
  setInputMode?: (mode: InputMode) => void;
  /** Open the settings page. */
  settings: () => void;
  /** Scroll to the previous (-1) or next (1) prompt (shell integration). */
  jumpToPrompt: (dir: -1 | 1) => void;
  /** Copy the output of the command at the top of the view. */
  copyOutput: () => void;
  /** Say the output of the command last jumped to (the live region). */
  readOutput: () => void;
  /** Tab focus mode: whether it is on, and turning it on or off. */
  tabFocus: () => boolean;
  setTabFocus: (on: boolean) => void;
  /** Open the menu under its button (or close it). */
  menu: () => void;
  /** Move through the history; false while the alternate screen is shown. */
  scroll: (action: ScrollAction) => boolean;
  /** Registers the tab and pane entries (before the session's). */
  panes?: (actions: Actions) => void;
}

/** Registers the window's actions, in menu order. */
export function registerActions(actions: Actions, w: WindowParts): void {
  registerEditActions(actions, w);
  registerViewActions(actions, w);
  w.panes?.(actions);
  registerSessionActions(actions, w);
  registerScrollActions(actions, w);
}

/** The edit entries: copy, paste, find, save. */
function registerEditActions(actions: Actions, w: WindowParts): void {
  const hasSelection = () => terminalSelection(w.root) !== null;
  actions.register({
    name: "copy",
    label: "Copy",
    group: "edit",
    enabled: hasSelection,
    run: w.copy,
    runKey: w.copyKey,
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
    group: "edit",
    run: w.paste,
    runKey: w.pasteKey,
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
    group: "file",
    run: w.saveHtml,
  });
}

/** The view's entries: the pager, zoom, the input mode, the settings. */
function registerViewActions(actions: Actions, w: WindowParts): void {
  actions.register({
    name: "automatic-pager",
    label: "Automatic pager",
    group: "view",
    checked: () => w.pager.automatic,
    run: () => w.pager.setAutomatic(!w.pager.automatic),
  });
  actions.register({
    name: "pause-output",
    label: "Pause output",
    group: "view",
    checked: () => w.pager.paused,
    run: () => w.pager.toggle(),
  });
  actions.register({
    name: "zoom-in",
    label: "Zoom in",
    group: "view",
    run: () => w.zoom("in"),
  });
  actions.register({
    name: "zoom-out",
    label: "Zoom out",
    group: "view",
    run: () => w.zoom("out"),
  });
  actions.register({
    name: "zoom-reset",
    label: "Reset zoom",
    group: "view",
    run: () => w.zoom("reset"),
  });
  // Input modes (docs/input-modes.md): one entry that names the current
  // mode and moves to the next, as Ctrl+Shift+L does.
  if (w.setInputMode && w.inputMode) {
    const current = w.inputMode, set = w.setInputMode;
    actions.register({
      name: "input-mode",
      get label() {
        return `Input mode: ${INPUT_MODE_NAMES[current()]}`;
      },
      group: "input",
      run: () => {
        const i = INPUT_MODES.indexOf(current());
        set(INPUT_MODES[(i + 1) % INPUT_MODES.length]);
      },
    });
  }
  actions.register({
    name: "settings",
    label: "Settings\u2026",
    group: "view",
    run: w.settings,
  });
}

/** The history keys: not menu entries; the program's on the alternate screen. */
function registerScrollActions(actions: Actions, w: WindowParts): void {
  const scroll: [string, string, ScrollAction][] = [
    ["scroll-page-up", "Scroll a page up", "pageUp"],
    ["scroll-page-down", "Scroll a page down", "pageDown"],
    ["scroll-top", "Scroll to the top", "top"],
    ["scroll-bottom", "Scroll to the bottom", "bottom"],
  ];
  for (const [name, label, action] of scroll) {
    actions.register({
      name,
      label,
      group: "view",
      inMenu: false,
      run: () => void w.scroll(action),
      runKey: (e) => {
        if (!w.scroll(action)) return false;
        e.preventDefault();
      },
    });
  }
}

/** The session's entries, and shell integration's keys. */
function registerSessionActions(actions: Actions, w: WindowParts): void {
  actions.register({
    name: "new-window",
    label: "New window",
    group: "session",
    run: w.newWindow,
  });
  actions.register({
    name: "detach",
    label: "Detach",
    group: "session",
    run: w.detach,
  });
  // Shell integration's keys (docs/shell-integration.md): not menu entries.
  actions.register({
    name: "previous-prompt",
    label: "Previous prompt",
    group: "shell",
    inMenu: false,
    run: () => w.jumpToPrompt(-1),
  });
  actions.register({
    name: "next-prompt",
    label: "Next prompt",
    group: "shell",
    inMenu: false,
    run: () => w.jumpToPrompt(1),
  });
  actions.register({
    name: "copy-output",
    label: "Copy the output",
    group: "shell",
    inMenu: false,
    run: w.copyOutput,
  });
  actions.register({
    name: "read-output",
    label: "Read the output",
    group: "shell",
    inMenu: false,
    run: w.readOutput,
  });
  actions.register({
    name: "tab-focus-mode",
    label: "Tab moves focus",
    group: "session",
    inMenu: false,
    checked: w.tabFocus,
    run: () => w.setTabFocus(!w.tabFocus()),
  });
  actions.register({
    name: "menu",
    label: "Menu",
    group: "session",
    inMenu: false,
    run: w.menu,
  });
  actions.register({
    name: "close",
    label: "Close",
    group: "session",
    run: w.close,
  });
}
