/**
 * The page's window: one or more terminals ({@link TerminalView}) and what
 * the window has once: its settings, the settings page and notice, the
 * actions and their menu, the key table's handler, the title, progress
 * bar and notifications (which follow the first terminal). Window actions
 * and keys act on the active terminal: the one last focused, or the one a
 * key was typed in.
 *
 * @module
 */
import type { SettingsMessage } from "../core/protocol.ts";
import type { TerminalEvent } from "../core/terminal_view.ts";
import { Actions } from "./actions.ts";
import { applyTheme } from "./apply_settings.ts";
import { Keymap } from "./keymap.ts";
import { Menu } from "./menu.ts";
import { showReadOnlyBadge } from "./read_only_badge.ts";

/** What a read-only share's window does not offer: it only watches. */
const READ_ONLY_WITHHELD = [
  "paste",
  "clear-scrollback",
  "settings",
  "new-window",
  "detach",
  "close",
  "input-mode",
];
import { copySelectionHtml, terminalSelection } from "./selection.ts";
import { SettingsStore } from "./settings.ts";
import { SettingsNotice } from "./settings_notice.ts";
import { SettingsPage } from "./settings_page.ts";
import {
  TerminalView,
  type ViewHost,
  type ViewOptions,
} from "./terminal_view.ts";
import { loadUserStyle } from "./user_style.ts";
import { registerActions } from "./window_actions.ts";
import { installWindowUi, type WindowUi } from "./window_ui.ts";
import { setTabFocusMode } from "./a11y/tab_focus.ts";

/** How long the "process exited" notice stays before the window closes. */
const CLOSE_DELAY_MS = 1500;

/** One terminal of the window: where it goes and what it attaches to. */
export type ViewSpec = Omit<ViewOptions, "key">;

/** The window and its terminals. */
export class DomtermWindow implements ViewHost {
  readonly doc: Document;
  readonly key: string;
  readonly settings: SettingsStore = new SettingsStore();
  readonly actions: Actions = new Actions();
  readonly views: readonly TerminalView[];
  readonly ui: WindowUi;
  readonly keymap: Keymap;
  readonly menu: Menu;
  readonly settingsNotice: SettingsNotice;
  readonly settingsPage: SettingsPage;
  #active: TerminalView;
  /** The views whose session exited. */
  #exited = new Set<TerminalView>();
  /** Tab focus mode (client/a11y/tab_focus.ts). */
  #tabFocus = false;

  constructor(doc: Document, key: string, specs: readonly ViewSpec[]) {
    if (specs.length === 0) throw new Error("a window needs a terminal");
    this.doc = doc;
    this.key = key;
    this.views = specs.map((s) => new TerminalView({ ...s, key }, this));
    const first = this.views[0];
    this.#active = first;
    this.ui = installWindowUi(first.root, first.term);
    this.settingsNotice = new SettingsNotice(doc);
    this.keymap = new Keymap({
      actions: this.actions,
      bindings: () => this.settings.get().keys as Record<string, string>,
      accepts: (target) => this.#accepts(target),
      warn: (m) => this.warn(m),
    });
    this.menu = new Menu(first.root, this.actions, {
      mouseTracked: () => this.active.term.modes.mouseTracking !== 0,
      focusTerminal: () => this.active.input.refocus(),
      gapRight: () => first.gapRight(),
      keyOf: (name) => this.keymap.keyOf(name),
    });
    for (const v of this.views) {
      // A click (a right click for the menu too) makes that terminal the
      // one the actions act on.
      v.root.addEventListener("pointerdown", () => this.#active = v, {
        capture: true,
      });
      if (v !== first) this.menu.attach(v.root);
    }
    this.#registerActions();
    this.settingsPage = new SettingsPage(doc, {
      current: () => this.settings.server(),
      path: () => this.settings.path,
      problems: () => this.settings.problems,
      save: (values) => this.active.conn.sendSaveSettings(values) ?? false,
      focusTerminal: () => this.active.input.refocus(),
    });
    this.settings.onChange((s, changed) => {
      for (const v of this.views) v.settingsChanged(s, changed);
      if (changed.includes("notify.long-command")) {
        const secs = s["notify.long-command"] as number;
        this.ui.notifier.setNotifyLongCommands(secs > 0, secs);
      }
      this.settingsPage.refresh();
    });
    this.keymap.install(doc);
    void loadUserStyle(doc, key, (m) => this.warn(m)).then((loaded) => {
      // Its colour-scheme rules follow the theme setting too.
      if (!loaded) return;
      applyTheme(doc, this.settings.get().theme as string);
      for (const v of this.views) {
        v.refit();
        v.syncColors();
      }
    });
    // The desktop switched between light and dark: so may the theme; it
    // asked for more contrast: the minimum contrast goes up.
    for (
      const q of ["(prefers-color-scheme: light)", "(prefers-contrast: more)"]
    ) {
      matchMedia(q).addEventListener("change", () => {
        for (const v of this.views) v.syncColors();
      });
    }
    first.focus();
  }

  /** The terminal the window's actions and keys act on. */
  get active(): TerminalView {
    return this.#active;
  }

  /** Keys typed in a terminal (or on the page itself) are the key table's. */
  #accepts(target: EventTarget | null): boolean {
    if (!(target instanceof Node) || target === this.doc.body) return true;
    const view = this.views.find((v) => v.root.contains(target));
    if (view === undefined) return false;
    this.#active = view;
    return true;
  }

  #registerActions(): void {
    // The getters: each action acts on the terminal active when it runs.
    const active = () => this.active;
    registerActions(this.actions, {
      get root() {
        return active().root;
      },
      get pager() {
        return active().pager;
      },
      copy: () => this.active.input.copy(),
      copyKey: (e) => this.active.input.copyKey(e),
      copyHtml: () => copySelectionHtml(this.active.root),
      paste: () =>
        navigator.clipboard?.readText().then(
          (text) => this.active.input.paste(text),
          () => {}, // permission refused: nothing to paste
        ),
      pasteKey: (e) => this.active.input.pasteKey(e),
      selectAll: () => {
        // The rows of the screen shown: the history and screen, or the
        // alternate screen.
        const { term, root } = this.active;
        const alt = term.buffer !== term.normalBuffer;
        const rows = root.querySelector(alt ? ".dt-alt" : ".dt-viewport");
        if (rows) getSelection()?.selectAllChildren(rows);
      },
      find: () =>
        this.active.find.open(
          terminalSelection(this.active.root)?.toString() ?? "",
        ),
      clearHistory: () => this.active.conn.sendClearHistory(),
      saveHtml: () => this.active.saveHtml(),
      zoom: (a) => this.active.zoom.apply(a),
      newWindow: () => this.#newWindow(),
      detach: () => this.active.conn.sendDetach(),
      inputMode: () => this.active.lineInput.mode,
      setInputMode: (m) => this.active.lineInput.setMode(m),
      settings: () => this.settingsPage.open(),
      close: () => this.#close(),
      jumpToPrompt: (dir) => this.#jumpToPrompt(dir),
      copyOutput: () => void this.active.shellUi.copyShownOutput(),
      readOutput: () => this.#readOutput(),
      tabFocus: () => this.#tabFocus,
      setTabFocus: (on) => {
        this.#tabFocus = on;
        this.active.a11y.say(setTabFocusMode(this.views, on));
      },
      menu: () => this.menu.toggle(),
      scroll: (action) => this.active.scroll.scroll(action),
    });
  }

  /** The prompt keys: scroll to the command, and say which it is. */
  #jumpToPrompt(dir: -1 | 1): void {
    const { shellUi, a11y } = this.active;
    const g = shellUi.jumpToPrompt(dir) ?? shellUi.stepCommand(dir);
    if (g) a11y.say(shellUi.label(g));
    else a11y.say(dir < 0 ? "No earlier command" : "No later command");
  }

  /** Say the output of the command last jumped to, else of the last one. */
  #readOutput(): void {
    const { shellUi, a11y } = this.active;
    const g = shellUi.shownGroup();
    if (g === null) {
      a11y.say("No command output");
      return;
    }
    // A long output: its start, and how much more there is.
    const max = 200;
    const n = shellUi.outputLineCount(g);
    let text = shellUi.outputText(g, max).replace(/\n+$/, "");
    if (n > max) text += `\n\u2026 and ${n - max} more lines`;
    a11y.say(`${shellUi.label(g)}:\n${text || "no output"}`);
  }

  #newWindow(): void {
    // No session in the address: the server starts one for the window.
    const w = Math.max(outerWidth, 400), h = Math.max(outerHeight, 300);
    globalThis.open(
      `${location.pathname}#key=${encodeURIComponent(this.key)}`,
      "_blank",
      `popup,width=${w},height=${h}`,
    );
  }

  #close(): void {
    // Its pagehide says "closing" to the server. A tab the browser
    // will not let a script close stays: say how instead.
    globalThis.close();
    const status = this.active.status;
    setTimeout(() => {
      status.show("The browser keeps this tab open: close it there (Ctrl+W)");
      setTimeout(() => status.hide(), 4000);
    }, 500);
  }

  // ViewHost: what the terminals report.

  windowEvent(view: TerminalView, e: TerminalEvent): boolean {
    // The title and progress are the first terminal's; every terminal's
    // notifications are shown.
    if (view !== this.views[0] && e.type !== "notify") return false;
    return this.ui.handle(e);
  }

  ready(view: TerminalView, command: readonly string[]): void {
    if (view === this.views[0]) this.ui.setCommand(command);
  }

  loaded(view: TerminalView): void {
    if (view === this.views[0]) this.ui.reset();
  }

  gridChanged(view: TerminalView): void {
    if (view === this.views[0]) this.menu?.placeButton();
  }

  login(): void {
    this.actions.register({
      name: "log-out",
      label: "Log out\u2026",
      group: "session",
      run: () => location.assign("/logout"),
    });
  }

  readOnly(message: string): void {
    showReadOnlyBadge(this.doc, message);
    this.actions.withhold(READ_ONLY_WITHHELD);
  }

  serverSettings(msg: SettingsMessage): void {
    this.settingsNotice.show(msg.problems);
    this.settings.path = msg.path;
    this.settings.problems = msg.problems;
    this.settings.setServer(msg.settings);
  }

  ended(view: TerminalView, exit: boolean): void {
    if (!exit) return;
    this.#exited.add(view);
    // The window closes when its last session exited.
    if (this.#exited.size === this.views.length) {
      setTimeout(() => globalThis.close(), CLOSE_DELAY_MS);
    }
  }

  focused(view: TerminalView): void {
    this.#active = view;
  }

  warn(message: string): void {
    console.warn(`domterm: ${message}`);
  }
}
