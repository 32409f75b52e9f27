/**
 * The page's inspector: `globalThis.domtermInspect`, what tests (tests/e2e,
 * bench/) and a curious user in the console read the page through. It is
 * read-mostly: it answers questions (the screen's text, the cursor, the
 * connection, the input mode...) and offers the few pokes tests need
 * (drop the connection, scroll, paste, set a policy). Production code
 * never uses it.
 *
 * `domtermInspect.view(i)` is terminal `i` of the page (its panes in
 * layout order: left to right, top to bottom, then tab order; 0: the
 * first); `domtermInspect` itself also answers for terminal 0, so
 * `domtermInspect.screenText()` is `domtermInspect.view(0).screenText()`.
 *
 * Two objects are exposed on purpose, for tests that check the model
 * itself: `term`, the page's emulator (core `Terminal`: read its `cols`,
 * `rows`, `modes`, buffers, `snapshot()`; writing to it bypasses the
 * session), and `shellUi`, the shell-integration UI (its command
 * `groups`, `outputText`, `copyOutput`, `fold`), which tests drive as its
 * buttons do.
 *
 * @module
 */
import type { Terminal } from "../core/emulator/terminal.ts";
import type { Layout } from "../core/layout.ts";
import type { CommandGroup } from "../core/model/command_groups.ts";
import type { ClipboardReadPolicy } from "./clipboard_read.ts";
import type { ShellUi } from "./shell_ui.ts";
import type { TerminalView } from "./terminal_view.ts";
import type { DomtermWindow } from "./window.ts";

/** What the inspector tells and does about one terminal. */
export interface ViewInspect {
  /** The terminal element. */
  readonly root: HTMLElement;
  /** The page's emulator (read it; see the module doc). */
  readonly term: Terminal;
  /** The shell-integration UI (see the module doc). */
  readonly shellUi: ShellUi;
  /** The screen's rows as text, trailing blanks left out. */
  screenText(): string[];
  /** The cursor, in cells of the screen. */
  cursor(): { x: number; y: number };
  /** The command groups (shell integration), brought up to date. */
  groups(): readonly CommandGroup[];
  /** The WebSocket is open and the session attached. */
  readonly connected: boolean;
  /** The session and the stream offset received. */
  position(): { session: number | null; offset: number };
  /** Drop the WebSocket as a lost network would (it reconnects). */
  dropConnection(): void;
  /** The status banner's text ("" while hidden). */
  readonly status: string;
  /** The cell size in CSS pixels. */
  cell(): { width: number; height: number };
  /** The grid that fits the element. */
  fit(): { cols: number; rows: number };
  scrollToTop(): void;
  scrollToBottom(): void;
  /** Give this terminal the keyboard. */
  focus(): void;
  /** Paste `text` as the paste key would. */
  paste(text: string): void;
  /** The input mode (auto, char, line, pipe). */
  readonly inputMode: string;
  /** Set the input mode, as the input-mode key and `domterm input-mode` do. */
  setInputMode(mode: "auto" | "char" | "line" | "pipe"): void;
  /** A line is being edited in the window. */
  readonly lineEditing: boolean;
  /** The line edited is masked (a password). */
  readonly lineMasked: boolean;
  /** Output is stopped by the pager (its bar shows). */
  readonly pagerPaused: boolean;
  /** The automatic pager is on. */
  readonly pagerAutomatic: boolean;
  /** The connection holds output back (the pager asked it to). */
  readonly outputHeld: boolean;
  /** The older history of the last snapshot is still loading (in slices). */
  readonly historyLoading: boolean;
  /** The element that draws buffer line `line` (absolute index), if drawn. */
  rowElement(line: number): HTMLElement | null;
  /** Scroll buffer line `line` into view and return its element. */
  revealLine(line: number): HTMLElement | null;
  /** How often the visual bell rang. */
  readonly bellCount: number;
  /** The find bar's count, current match and error. */
  findStatus(): { count: number; current: number; error: string | null };
  /** Predictive echo on or off. */
  setPredict(mode: "on" | "off"): void;
  /** The OSC 52 read policy (the `clipboard.read` setting, for this page). */
  setClipboardRead(policy: ClipboardReadPolicy): void;
  /**
   * The output announcer (client/a11y/): announcements made, frames seen,
   * model reads and their time; `frameCallMs(n)` times n frame callbacks.
   */
  a11y(): {
    announcements: number;
    frames: number;
    ticks: number;
    tickMs: number;
    maxTickMs: number;
  };
  /** Time `n` calls of the announcer's frame callback, in ms (a benchmark). */
  a11yFrameCallMs(n: number): number;
}

/** The whole inspector: terminal 0's answers, and the window's. */
export interface DomtermInspect extends ViewInspect {
  /** How many terminals the page has. */
  views(): number;
  /** Terminal `i` (0: the first). */
  view(i?: number): ViewInspect;
  /** The terminal the window's keys and actions act on. */
  activeView(): number;
  /** The window's layout as the server last sent it (core/layout.ts). */
  layout(): Layout | null;
  /** The server's id of the window shown. */
  window(): number | null;
  /** The pane id of terminal `i`. */
  paneOf(i?: number): number | null;
  /** What pane `pane`'s tab says: its title and marks. */
  tab(pane: number): { title: string; marks: string[] } | null;
  /** Drop the window channel as a lost network would (it reconnects). */
  dropWindowChannel(): void;
  /** The effective settings (server, then this window's own). */
  settings(): Readonly<Record<string, unknown>>;
  /** The label the menu shows for an action, if there is one. */
  actionLabel(name: string): string | undefined;
  /** The key the menu shows for an action, if any. */
  actionKey(name: string): string | undefined;
  /** Run an action (as its menu entry does); false if none or disabled. */
  runAction(name: string): boolean;
  /** The notifier's state: notifications dropped, long-command notices on. */
  notifications(): {
    dropped: number;
    longCommands: { on: boolean; thresholdSeconds: number };
  };
  /** Notify when a command ran longer than `seconds` (`notify.long-command`). */
  setNotifyLongCommands(on: boolean, seconds?: number): void;
}

/** The inspector of one view. */
function viewInspect(v: TerminalView): ViewInspect {
  return {
    root: v.root,
    term: v.term,
    shellUi: v.shellUi,
    screenText: () => {
      const rows: string[] = [];
      for (let y = 0; y < v.term.rows; y++) {
        rows.push(v.term.buffer.screenLine(y).toString(true));
      }
      return rows;
    },
    cursor: () => ({ x: v.term.cursorX, y: v.term.cursorY }),
    groups: () => {
      v.shellUi.update();
      return v.shellUi.groups;
    },
    get connected() {
      return v.conn.connected;
    },
    position: () => ({ ...v.conn.position }),
    dropConnection: () => v.conn.drop(),
    get status() {
      return v.status.text;
    },
    cell: () => v.renderer.measureCell(),
    fit: () => v.renderer.fit(),
    scrollToTop: () => v.renderer.scrollToTop(),
    scrollToBottom: () => v.renderer.scrollToBottom(),
    focus: () => v.input.focus(),
    paste: (text) => v.input.paste(text),
    setInputMode: (mode) => v.lineInput.setMode(mode),
    get inputMode() {
      return v.lineInput.mode;
    },
    get lineEditing() {
      return v.lineInput.editing;
    },
    get lineMasked() {
      return v.lineInput.masked;
    },
    get pagerPaused() {
      return v.pager.paused;
    },
    get pagerAutomatic() {
      return v.pager.automatic;
    },
    get outputHeld() {
      return v.conn.held;
    },
    get historyLoading() {
      return v.historyLoading;
    },
    rowElement: (line) => v.renderer.rowElement(line) ?? null,
    revealLine: (line) => v.renderer.revealLine(line),
    get bellCount() {
      return v.bell.count;
    },
    findStatus: () => ({ ...v.find.status }),
    setPredict: (mode) => v.predict.setMode(mode),
    setClipboardRead: (policy) => v.clipboardRead.setPolicy(policy),
    a11y: () => ({
      announcements: v.a11y.live.count,
      ...v.a11y.announcer.stats,
    }),
    a11yFrameCallMs: (n) => {
      const an = v.a11y.announcer;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) an.frame();
      return performance.now() - t0;
    },
  };
}

/** Puts the inspector of `win` on `globalThis.domtermInspect`. */
export function installInspector(win: DomtermWindow): DomtermInspect {
  const cache = new WeakMap<TerminalView, ViewInspect>();
  const inspectOf = (v: TerminalView) => {
    let i = cache.get(v);
    if (!i) cache.set(v, i = viewInspect(v));
    return i;
  };
  const view = (i = 0) => {
    const v = win.views[i];
    if (v === undefined) throw new RangeError(`no terminal ${i}`);
    return inspectOf(v);
  };
  const own: Omit<DomtermInspect, keyof ViewInspect> = {
    views: () => win.views.length,
    view,
    activeView: () => win.views.indexOf(win.active),
    layout: () => structuredClone(win.layoutView.layout),
    window: () => win.channel.window,
    paneOf: (i = 0) => win.paneOf(win.views[i])?.id ?? null,
    tab: (pane: number) => win.tabText(pane) ?? null,
    dropWindowChannel: () => win.channel.drop(),
    settings: () => ({ ...win.settings.get() }),
    actionLabel: (name: string) => win.actions.get(name)?.label,
    actionKey: (name: string) => win.keymap.keyOf(name),
    runAction: (name: string) => win.actions.run(name),
    notifications: () => ({
      dropped: win.ui.notifier.dropped,
      longCommands: win.ui.notifier.longCommands,
    }),
    setNotifyLongCommands: (on: boolean, seconds?: number) =>
      win.ui.notifier.setNotifyLongCommands(on, seconds),
  };
  // The window's own answers, and terminal 0's for the rest (whichever
  // terminal is first now).
  const inspect = new Proxy(own, {
    get: (target, key) =>
      key in target
        ? (target as Record<PropertyKey, unknown>)[key]
        : Reflect.get(view(0), key),
    has: (target, key) => key in target || key in view(0),
  }) as DomtermInspect;
  Object.assign(globalThis, { domtermInspect: inspect });
  return inspect;
}

/** `globalThis` with the inspector, for tests: `(globalThis as unknown as Inspected).domtermInspect`. */
export type Inspected = { domtermInspect: DomtermInspect };
