/**
 * The page's window: a layout of panes the server keeps (core/layout.ts,
 * drawn by client/layout/layout_view.ts), each pane a terminal
 * ({@link TerminalView}) on its own session, and what the window has once:
 * its settings, the settings page and notice, the actions and their menu,
 * the key table's handler, the title, progress bar and notifications
 * (which follow the focused pane). Window actions and keys act on the
 * focused pane.
 *
 * The window's channel (client/layout/window_channel.ts) says which window
 * the page shows; every layout the server sends is drawn as it comes:
 * panes new to it get a view, panes gone lose theirs. What the user does
 * to the layout (keys, menu, tabs, splitters) goes to the server as an
 * operation, never straight to the page.
 *
 * @module
 */
import type { SettingsMessage } from "../core/protocol.ts";
import type { TerminalEvent } from "../core/terminal_view.ts";
import {
  type Drop,
  type Layout,
  type Pane,
  panes,
  type Side,
  stacks,
} from "../core/layout.ts";
import { Actions } from "./actions.ts";
import { applyTheme } from "./apply_settings.ts";
import { Keymap } from "./keymap.ts";
import { keyParam, type Launch, WINDOW_STORAGE } from "./launch.ts";
import { LayoutView } from "./layout/layout_view.ts";
import { registerPaneActions } from "./layout/pane_actions.ts";
import { PaneMarks, tabLabel } from "./layout/tab_label.ts";
import { dragSplitter } from "./layout/splitter_drag.ts";
import { dragTab } from "./layout/tab_drag.ts";
import { WindowChannel } from "./layout/window_channel.ts";
import type { LayoutOp } from "../core/protocol.ts";
import { CellProbe } from "./measure.ts";
import { Connection } from "./connection.ts";
import { Menu } from "./menu.ts";
import { showReadOnlyBadge } from "./read_only_badge.ts";
import { copySelectionHtml, terminalSelection } from "./selection.ts";
import { SettingsStore } from "./settings.ts";
import { SettingsNotice } from "./settings_notice.ts";
import { SettingsPage } from "./settings_page.ts";
import { startupMark } from "./startup_marks.ts";
import { TerminalView, type ViewHost } from "./terminal_view.ts";
import { loadUserStyle } from "./user_style.ts";
import { registerActions } from "./window_actions.ts";
import { installWindowUi, type WindowUi } from "./window_ui.ts";
import { setTabFocusMode } from "./a11y/tab_focus.ts";
import { commandText } from "./a11y/command_label.ts";

/** What a read-only share's window does not offer: it only watches. */
const READ_ONLY_WITHHELD = [
  "paste",
  "clear-scrollback",
  "settings",
  "new-window",
  "detach",
  "close",
  "input-mode",
  "new-tab",
  "new-pane",
  "split-left",
  "split-right",
  "split-up",
  "split-down",
  "close-pane",
  "rename-tab",
  "pane-to-new-window",
  "pane-back",
];

/** How long the "process exited" notice stays before the window closes. */
const CLOSE_DELAY_MS = 1500;

/** One pane of the layout and its terminal. */
interface PaneEntry {
  /** As the last layout has it. */
  pane: Pane;
  /** Its element: the terminal's root, status and grid note. */
  element: HTMLElement;
  view: TerminalView;
  marks: PaneMarks;
  /** The session's command line (from `ready`). */
  command: readonly string[];
  shown: boolean;
}

/** The window and its panes. */
export class DomtermWindow implements ViewHost {
  readonly doc: Document;
  readonly key: string;
  readonly settings: SettingsStore = new SettingsStore();
  readonly actions: Actions = new Actions();
  readonly ui: WindowUi;
  readonly keymap: Keymap;
  readonly menu: Menu;
  readonly settingsNotice: SettingsNotice;
  readonly settingsPage: SettingsPage;
  readonly layoutView: LayoutView;
  readonly channel: WindowChannel;
  /** Called once the first layout is drawn (the inspector goes up then). */
  onFirstLayout: () => void = () => {};
  #entries = new Map<number, PaneEntry>();
  #byView = new WeakMap<TerminalView, PaneEntry>();
  #active: TerminalView | null = null;
  #launch: Launch;
  /** The server's id of this window (0: none yet, or a share's). */
  #windowId = 0;
  /** index.html's terminal elements, for the first pane. */
  #pageElements: HTMLElement[] | null;
  #paneCount = 0;
  /** The pane that has index.html's elements. */
  #pagePane: number | null = null;
  /** The views whose session exited. */
  #exited = new Set<TerminalView>();
  /** Tab focus mode (client/a11y/tab_focus.ts). */
  #tabFocus = false;
  /**
   * The first pane's terminal connection, opened as the page starts,
   * beside the window channel (Connection.early), until a view takes it.
   */
  #early: Connection | null = null;

  constructor(doc: Document, launch: Launch) {
    this.doc = doc;
    this.key = launch.key;
    this.#launch = launch;
    const first = doc.getElementById("terminal");
    if (!first) throw new Error("index.html lacks #terminal");
    const container = doc.createElement("div");
    container.id = "dt-layout";
    first.before(container);
    this.#pageElements = [
      first,
      ...["status", "dt-grid-note"].flatMap((id) => {
        const el = doc.getElementById(id);
        return el ? [el] : [];
      }),
    ];
    for (const el of this.#pageElements) el.remove();
    this.layoutView = new LayoutView(container, {
      paneElement: (p) => this.#paneElement(p),
      tabLabel: (p) => this.#tabLabel(p),
      focusPane: (id) => this.#op({ op: "focus", pane: id }),
      closePane: (id) => this.closePane(id),
      renamePane: (id, title) => this.#op({ op: "rename", pane: id, title }),
      tabPointerDown: (e, pane) =>
        dragTab(e, pane, {
          layout: () => this.layoutView.layout,
          click: (p) => this.#op({ op: "focus", pane: p }),
          move: (p, drop: Drop) => this.#op({ op: "move", pane: p, drop }),
        }),
      resizeSplit: (split, sizes) => this.#op({ op: "resize", split, sizes }),
      splitterPointerDown: (e, split, index) => {
        const el = this.layoutView.splitElement(split);
        if (!el) return;
        dragSplitter(e, el, index, (sizes) => {
          this.#op({ op: "resize", split, sizes });
          this.active?.focus();
        });
      },
    });
    this.ui = installWindowUi(container, {
      title: "",
      cwd: "",
      windowName: "",
      progress: { state: 0, percent: 0 },
    });
    this.settingsNotice = new SettingsNotice(doc);
    this.keymap = new Keymap({
      actions: this.actions,
      bindings: () => this.settings.get().keys as Record<string, string>,
      accepts: (target) => this.#accepts(target),
      warn: (m) => this.warn(m),
    });
    this.keymap.onPrefix = (on) => container.classList.toggle("dt-prefix", on);
    this.menu = new Menu(container, this.actions, {
      mouseTracked: () => this.active?.term.modes.mouseTracking !== 0,
      focusTerminal: () => this.active?.input.refocus(),
      gapRight: () => this.#topRightView()?.gapRight() ?? 0,
      keyOf: (name) => this.keymap.keyOf(name),
    });
    // A click (a right click for the menu too) makes that terminal the
    // one the actions act on.
    container.addEventListener("pointerdown", (e) => {
      const entry = this.#entryAt(e.target);
      if (entry) this.#active = entry.view;
    }, { capture: true });
    this.#registerActions();
    this.settingsPage = new SettingsPage(doc, {
      current: () => this.settings.server(),
      path: () => this.settings.path,
      problems: () => this.settings.problems,
      save: (values) => this.active?.conn.sendSaveSettings(values) ?? false,
      focusTerminal: () => this.active?.input.refocus(),
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
    void loadUserStyle(doc, this.key, (m) => this.warn(m)).then((loaded) => {
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
    // The first pane's terminal socket opens now, not once the layout
    // came (issue 31 §7); its view takes it over.
    this.#early = Connection.early(
      this.key,
      launch.window === null ? launch.session : null,
    );
    this.channel = new WindowChannel(
      this.key,
      { window: launch.window, session: launch.session },
      () => this.#estimateSize(first),
      {
        layout: (w, layout) => this.#applyLayout(w, layout),
        openWindow: (w) => this.#openWindow(w),
        openPage: (w, session) => this.#openPage(w, session),
        error: (m) => this.#channelError(m),
        noWindow: () => this.#noWindow(),
        windowClosed: () =>
          setTimeout(() => globalThis.close(), CLOSE_DELAY_MS),
        closed: (code, reason) =>
          this.warn(`window channel closed: ${code} ${reason}`),
      },
    );
    addEventListener("pagehide", () => this.channel.close());
    this.#guardUnload();
  }

  /** The terminals, in layout order (left to right, top to bottom, tabs). */
  get views(): TerminalView[] {
    const layout = this.layoutView.layout;
    if (!layout) return [];
    return panes(layout).flatMap((p) => {
      const e = this.#entries.get(p.id);
      return e ? [e.view] : [];
    });
  }

  /** The terminal the window's actions and keys act on (the focused pane's). */
  get active(): TerminalView {
    return this.#active!;
  }

  /** The pane of `view`, as the last layout has it. */
  paneOf(view: TerminalView): Pane | undefined {
    return this.#byView.get(view)?.pane;
  }

  /** What pane `id`'s tab says (for the inspector). */
  tabText(id: number): { title: string; marks: string[] } | undefined {
    const e = this.#entries.get(id);
    if (!e) return undefined;
    const { title, marks } = this.#tabLabel(e.pane);
    return { title, marks };
  }

  /**
   * Close pane `id` (its session too, when no other pane shows it),
   * asking first when a program other than the shell runs there.
   */
  closePane(id: number): void {
    const e = this.#entries.get(id);
    if (!e) return;
    const running = this.#asksBeforeClosing() ? busyWith(e.view) : null;
    if (
      running !== null &&
      !confirm(
        `Closing this pane ends ${running}. Close it?`,
      )
    ) return;
    this.#op({ op: "close", pane: id });
  }

  /** Closing ends programs, and the `confirm-close` setting wants a question. */
  #asksBeforeClosing(): boolean {
    const s = this.settings.get();
    return s["confirm-close"] !== false && s["detach-on-close"] !== true;
  }

  /** What closing the window would end: each pane's program other than a shell. */
  #busyPanes(): string[] {
    if (!this.#asksBeforeClosing()) return [];
    return this.views.map(busyWith).filter((b): b is string => b !== null);
  }

  /** The window's close was asked for and answered: the page may go. */
  #closeConfirmed = false;

  /**
   * The browser's own close (the window's close button, the tab's ×,
   * Ctrl+W, a reload): Chromium shows its generic "Leave site?" dialog
   * when the page cancels `beforeunload`, and only after the user
   * interacted with the page; it cannot say what runs (docs/tabs-and-panes.md).
   */
  #guardUnload(): void {
    addEventListener("beforeunload", (e) => {
      if (this.#closeConfirmed || this.#busyPanes().length === 0) return;
      e.preventDefault();
      // Older Chromium wants a return value as well.
      e.returnValue = "";
    });
  }

  #op(op: LayoutOp): void {
    if (!this.channel.send(op)) {
      this.active?.status.show("Not connected: the layout cannot change now");
      setTimeout(() => this.active?.status.hide(), 3000);
    }
  }

  /** Keys typed in a terminal (or on the page itself) are the key table's. */
  #accepts(target: EventTarget | null): boolean {
    if (this.#active === null) return false;
    if (!(target instanceof Node) || target === this.doc.body) return true;
    const entry = this.#entryAt(target);
    if (entry === undefined) return false;
    this.#active = entry.view;
    return true;
  }

  #entryAt(target: EventTarget | null): PaneEntry | undefined {
    if (!(target instanceof Node)) return undefined;
    for (const e of this.#entries.values()) {
      if (e.element.contains(target)) return e;
    }
    return undefined;
  }

  /** The view in the window's top right corner (the menu button's). */
  #topRightView(): TerminalView | undefined {
    let best: TerminalView | undefined, score = -Infinity;
    for (const e of this.#entries.values()) {
      if (!e.shown) continue;
      const r = e.view.root.getBoundingClientRect();
      const s = r.right - r.top * 4;
      if (s > score) (score = s, best = e.view);
    }
    return best;
  }

  /** A new window's first size, before any terminal measured one. */
  #estimateSize(el: HTMLElement): { cols: number; rows: number } {
    el.classList.add("domterm");
    const probe = new CellProbe(this.layoutView.container);
    const cell = probe.measure();
    probe.dispose();
    const r = this.layoutView.container.getBoundingClientRect();
    return {
      cols: Math.max(2, Math.floor((r.width - 20) / cell.width)),
      rows: Math.max(1, Math.floor((r.height - 8) / cell.height)),
    };
  }

  /**
   * The window asked for is gone (its sessions ended, the server
   * restarted): a new one instead, on the session the page was opened
   * for if it still runs.
   */
  #noWindow(): void {
    this.warn(`window ${this.channel.window} is gone: a new window instead`);
    this.#launch = { ...this.#launch, window: null };
    sessionStorage.removeItem(WINDOW_STORAGE);
    this.channel.restart({ window: null, session: this.#launch.session });
  }

  #channelError(message: string): void {
    const status = this.active?.status;
    if (!status) return this.warn(message);
    status.show(message, true);
    setTimeout(() => status.hide(), 4000);
  }

  #openWindow(w: number): void {
    const width = Math.max(outerWidth, 400), h = Math.max(outerHeight, 300);
    globalThis.open(
      `${location.pathname}#${keyParam(this.key)}&window=${w}${
        this.#windowId > 0 ? `&from=${this.#windowId}` : ""
      }`,
      "_blank",
      `popup,width=${width},height=${h}`,
    );
  }

  /**
   * A window a command asked for (`domterm` with the server running: no
   * new browser process; issue 31 §7): kept window `w`, else a new window
   * on `session` (null: a new session). False when the browser blocked it
   * (domterm's own Chromium allows it: server/browser.ts, APP_SWITCHES).
   */
  #openPage(w: number | null, session: number | null): boolean {
    const width = Math.max(outerWidth, 400), h = Math.max(outerHeight, 300);
    const what = w !== null
      ? `&window=${w}`
      : session !== null
      ? `&session=${session}`
      : "";
    return globalThis.open(
      `${location.pathname}#${keyParam(this.key)}${what}`,
      "_blank",
      `popup,width=${width},height=${h}`,
    ) !== null;
  }

  /** Draws the server's layout: views made and dropped, shown, focused. */
  #applyLayout(w: number, layout: Layout): void {
    startupMark("layout");
    // Window 0 is a share's, kept nowhere: a reload asks for a new one.
    if (w > 0) sessionStorage.setItem(WINDOW_STORAGE, String(w));
    this.#windowId = w;
    const first = this.layoutView.layout === null;
    const made: PaneEntry[] = [];
    const seen = new Set<number>();
    for (const p of panes(layout)) {
      seen.add(p.id);
      const e = this.#entries.get(p.id);
      if (e && e.pane.session !== p.session) this.#drop(e);
      else if (e) e.pane = p;
    }
    for (const e of [...this.#entries.values()]) {
      if (!seen.has(e.pane.id)) this.#drop(e);
    }
    this.layoutView.render(layout);
    for (const s of stacks(layout)) {
      for (const p of s.panes) {
        const shown = p.id === s.shown;
        let e = this.#entries.get(p.id);
        if (!e) made.push(e = this.#makeEntry(p));
        if (e.shown !== shown || made.includes(e)) {
          e.shown = shown;
          e.view.setShown(shown);
          if (shown) e.marks.seen();
        }
        this.layoutView.updateTab(p);
      }
    }
    this.#focusLayout(layout);
    if (first) {
      // No pane took it (it was for another session): it goes.
      this.#early?.close();
      this.#early = null;
      this.#startMore(layout);
      this.onFirstLayout();
    }
  }

  /** `views=N`: a new window's further panes, side by side. */
  #startMore(layout: Layout): void {
    if (this.#launch.window !== null || panes(layout).length !== 1) return;
    let beside = layout.focus;
    const more = this.#launch.more;
    this.#launch = { ...this.#launch, more: [] };
    // Each split waits for the layout that has the one before it.
    const next = (i: number) => {
      if (i >= more.length) return;
      this.#op({ op: "split", beside, side: "right", session: more[i] });
      const before = this.layoutView.layout;
      const wait = setInterval(() => {
        const now = this.layoutView.layout;
        if (now === before || !now) return;
        clearInterval(wait);
        beside = now.focus;
        next(i + 1);
      }, 20);
    };
    next(0);
  }

  /** The focused pane of `layout` gets the keyboard and the window's title. */
  #focusLayout(layout: Layout): void {
    const e = this.#entries.get(layout.focus);
    if (!e) return;
    const changed = this.#active !== e.view;
    this.#active = e.view;
    const at = this.doc.activeElement;
    // The keyboard moves unless something outside the panes has it (the
    // settings page, a find bar, a tab being renamed).
    const elsewhere = at && at !== this.doc.body &&
      !this.layoutView.container.contains(at) &&
      !(at instanceof HTMLTextAreaElement);
    if (!elsewhere && !e.element.contains(at)) e.view.focus();
    if (changed) {
      this.ui.follow(e.view.root, e.view.term, e.command);
      this.menu.placeButton();
    }
  }

  #paneElement(p: Pane): HTMLElement {
    const e = this.#entries.get(p.id);
    if (e) return e.element;
    const el = this.doc.createElement("div");
    el.className = "dt-pane";
    el.dataset.pane = String(p.id);
    if (this.#pageElements) {
      el.append(...this.#pageElements);
      this.#pageElements = null;
      this.#pagePane = p.id;
      this.#paneCount++;
    } else {
      const root = this.doc.createElement("div");
      root.setAttribute("role", "application");
      root.setAttribute("aria-label", `Terminal ${this.#paneCount + 1}`);
      this.#paneCount++;
      root.className = "dt-pane-root";
      el.append(root);
    }
    this.#pendingElements.set(p.id, el);
    return el;
  }

  /** Elements made while drawing, whose views are made after. */
  #pendingElements = new Map<number, HTMLElement>();

  #makeEntry(p: Pane): PaneEntry {
    const element = this.#pendingElements.get(p.id)!;
    this.#pendingElements.delete(p.id);
    const page = this.#pagePane === p.id
      ? [...element.children] as HTMLElement[]
      : null;
    // A tab not shown measures its area as the tab shown does: its session
    // gets its size from the start.
    element.hidden = false;
    // The page's first pane keeps the keys a page always had.
    const suffix = page ? "" : `-pane-${p.id}`;
    const view = new TerminalView({
      root: element.firstElementChild as HTMLElement,
      status: page?.[1],
      gridNote: page?.[2],
      key: this.key,
      session: p.session,
      storage: {
        session: `domterm-session${suffix}`,
        pager: `domterm-pager${suffix}`,
      },
      connection: this.#takeEarly(p.session),
    }, this);
    const entry: PaneEntry = {
      pane: p,
      element,
      view,
      marks: new PaneMarks(),
      command: [],
      shown: true,
    };
    this.#entries.set(p.id, entry);
    this.#byView.set(view, entry);
    this.menu.attach(view.root);
    return entry;
  }

  /** The early connection, if it is for `session` (or for any); else none. */
  #takeEarly(session: number): Connection | undefined {
    const early = this.#early;
    const s = early?.position.session;
    if (!early || (s !== null && s !== session)) return undefined;
    this.#early = null;
    return early;
  }

  #drop(e: PaneEntry): void {
    this.#entries.delete(e.pane.id);
    e.view.dispose();
    e.element.remove();
    this.#exited.delete(e.view);
    if (this.#active === e.view) this.#active = null;
  }

  #tabLabel(p: Pane) {
    const e = this.#entries.get(p.id);
    if (!e) {
      return tabLabel(
        p.title,
        { title: "", cwd: "", windowName: "" },
        [],
        new PaneMarks(),
      );
    }
    return tabLabel(p.title, e.view.term, e.command, e.marks);
  }

  #updateTab(e: PaneEntry): void {
    this.layoutView.updateTab(e.pane);
  }

  /** The side a new pane goes beside pane `id`: its longer one. */
  #newPaneSide(id: number): Side {
    const e = this.#entries.get(id);
    const r = e?.element.getBoundingClientRect();
    return !r || r.width >= r.height ? "right" : "below";
  }

  #registerActions(): void {
    // The getters: each action acts on the terminal active when it runs.
    const active = () => this.active;
    registerActions(this.actions, {
      get root() {
        return active()?.root ?? document.body;
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
      inputMode: () => this.active?.lineInput.mode ?? "auto",
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
      panes: (actions) => this.#registerPaneActions(actions),
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

  #registerPaneActions(actions: Actions): void {
    registerPaneActions(actions, {
      layout: () => this.layoutView.layout,
      op: (op) => this.#op(op),
      newPaneSide: (id) => this.#newPaneSide(id),
      close: (id) => this.closePane(id),
      rename: (id) => {
        const e = this.#entries.get(id);
        if (e) this.layoutView.editTitle(e.pane);
      },
      prefix: () => this.keymap.startPrefix(),
      origin: () => this.#launch.from,
    });
  }

  #newWindow(): void {
    // No session in the address: the server starts one for the window.
    const w = Math.max(outerWidth, 400), h = Math.max(outerHeight, 300);
    globalThis.open(
      `${location.pathname}#${keyParam(this.key)}`,
      "_blank",
      `popup,width=${w},height=${h}`,
    );
  }

  #close(): void {
    const busy = this.#busyPanes();
    if (
      busy.length > 0 &&
      !confirm(
        `Closing this window ends ${busy.join(", ")}` +
          `${busy.length > 1 ? " (one per pane)" : ""}. Close it?`,
      )
    ) return;
    this.#closeConfirmed = true;
    setTimeout(() => this.#closeConfirmed = false, 1000);
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
    const entry = this.#byView.get(view);
    const active = view === this.#active;
    switch (e.type) {
      case "title":
      case "cwd":
      case "window-name":
        if (entry) this.#updateTab(entry);
        return active ? this.ui.handle(e) : true;
      case "progress":
        if (entry) {
          entry.marks.progress = view.term.progress;
          this.#updateTab(entry);
        }
        return active ? this.ui.handle(e) : true;
      case "command":
        if (entry && e.phase === "end") {
          entry.marks.failed = e.exit !== null && e.exit !== 0;
          this.#updateTab(entry);
        }
        return this.ui.handle(e);
      case "bell":
        if (entry && !(entry.shown && active)) {
          entry.marks.bell = true;
          this.#updateTab(entry);
        }
        return false;
      case "notify":
        return this.ui.handle(e);
    }
    return false;
  }

  output(view: TerminalView): void {
    const entry = this.#byView.get(view);
    if (!entry || entry.shown || entry.marks.activity) return;
    entry.marks.activity = true;
    this.#updateTab(entry);
  }

  ready(view: TerminalView, command: readonly string[]): void {
    const entry = this.#byView.get(view);
    if (entry) {
      entry.command = command;
      this.#updateTab(entry);
    }
    if (view === this.#active) this.ui.setCommand(command);
  }

  loaded(view: TerminalView): void {
    const entry = this.#byView.get(view);
    if (entry) {
      entry.marks.progress = view.term.progress;
      this.#updateTab(entry);
    }
    if (view === this.#active) this.ui.reset();
  }

  gridChanged(_view: TerminalView): void {
    this.menu?.placeButton();
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
    // The server takes an ended session's panes out of the layout; while
    // its channel is down, the window closes when its last session exited.
    if (!this.channel.connected && this.#exited.size === this.views.length) {
      setTimeout(() => globalThis.close(), CLOSE_DELAY_MS);
    }
  }

  focused(view: TerminalView): void {
    this.#active = view;
    const entry = this.#byView.get(view);
    const layout = this.layoutView.layout;
    if (entry && layout && layout.focus !== entry.pane.id) {
      this.channel.send({ op: "focus", pane: entry.pane.id });
    }
  }

  warn(message: string): void {
    console.warn(`domterm: ${message}`);
  }
}

/**
 * What runs in `view` other than its shell, or null: a command the shell
 * said it started (shell integration) and did not end, or a program on
 * the alternate screen.
 */
export function busyWith(view: TerminalView): string | null {
  const { term, shellUi } = view;
  shellUi.update();
  const last = shellUi.groups.at(-1);
  if (last && last.output !== null && last.end === null) {
    // The shell's own word for it, else what was typed at the prompt.
    const typed = last.commandLine || commandText(last, term.normalBuffer);
    return typed ? `"${typed}"` : "A command";
  }
  if (term.buffer !== term.normalBuffer) {
    return term.title ? `"${term.title}"` : "A program";
  }
  return null;
}
