/**
 * One terminal of the page: its emulator, renderer, input, line editor,
 * find bar, pager, shell UI, links, mouse, zoom and WebSocket connection,
 * built in that order in the constructor, each given what it needs. A page
 * holds one or more of them (client/window.ts); nothing here is shared
 * between two views but the window they report to ({@link ViewHost}).
 *
 * @module
 */
import { firstPart, HistorySlices } from "./snapshot_slices.ts";
import { Terminal, type TerminalSnapshot } from "../core/emulator/terminal.ts";
import type {
  InputMode,
  ServerMessage,
  SettingsMessage,
} from "../core/protocol.ts";
import type { TerminalEvent } from "../core/terminal_view.ts";
import type { MarkRef } from "../core/model/command_groups.ts";
import { Connection, type ConnectionHandlers } from "./connection.ts";
import { startupMark } from "./startup_marks.ts";
import { InputHandler } from "./input.ts";
import { LineInput } from "./line_input.ts";
import { LineEditorView } from "./line_editor_view.ts";
import { PredictiveEcho } from "./predict_view.ts";
import { MouseHandler } from "./mouse.ts";
import { Renderer } from "./renderer.ts";
import { installCopyHandler } from "./selection.ts";
import { installWordSelect } from "./word_select.ts";
import { VisualBell } from "./bell.ts";
import { ScrollControls } from "./scrollback.ts";
import { Zoom } from "./zoom.ts";
import { LinkHandler } from "./links.ts";
import { ElementEvents } from "./element_events.ts";
import { ShellUi } from "./shell_ui.ts";
import { installSaveHtml } from "./save_html.ts";
import { FindBar } from "./find.ts";
import { ClipboardRead, type ClipboardReadPolicy } from "./clipboard_read.ts";
import { Pager } from "./pager.ts";
import type { SettingsStore } from "./settings.ts";
import type { Settings } from "../core/settings/schema.ts";
import { applyLook } from "./apply_settings.ts";
import { StatusLine } from "./status_line.ts";
import { shownColors } from "./theme_colors.ts";
import { ViewA11y } from "./a11y/view_a11y.ts";

/** The most columns a program's size request shrinks the font for. */
const MAX_SHRINK_COLS = 132;

/** How long a notice (a link that could not be opened) stays shown. */
const NOTICE_MS = 6000;

/** What a view asks of the window it is in. */
export interface ViewHost {
  /** The window's settings (OSC 88 sets this window's own). */
  readonly settings: SettingsStore;
  /** Window-level events (title, progress, notifications): true if taken. */
  windowEvent(view: TerminalView, e: TerminalEvent): boolean;
  /** The session said `ready` (its command line). */
  ready(view: TerminalView, command: readonly string[]): void;
  /** A snapshot was loaded: window state from the new model. */
  loaded(view: TerminalView): void;
  /** The grid or the window's size changed (the menu button follows). */
  gridChanged(view: TerminalView): void;
  /** The remote listener's login let this window in. */
  login(): void;
  /** The session is shared read-only. */
  readOnly(message: string): void;
  /** The server's settings, or the problems of its file. */
  serverSettings(msg: SettingsMessage): void;
  /** The session ended (exit) or the view was detached from it. */
  ended(view: TerminalView, exit: boolean): void;
  /** The view got the keyboard. */
  focused(view: TerminalView): void;
  /** Output came (the window marks a tab not shown); cheap, called often. */
  output?(view: TerminalView): void;
  warn(message: string): void;
}

/** Where a view keeps what a reload of the tab restores (sessionStorage keys). */
export interface ViewStorage {
  /** The session attached to. */
  session: string;
  /** The automatic pager's on/off. */
  pager: string;
}

/** How to build a view. */
export interface ViewOptions {
  /** Its terminal element (gets the `domterm` class from the renderer). */
  root: HTMLElement;
  /** Its status banner (connection lost, exited); made next to root if absent. */
  status?: HTMLElement;
  /** Its note that the grid is another window's; made next to root if absent. */
  gridNote?: HTMLElement;
  /** The server key. */
  key: string;
  /** The session to attach to (null: a new one). */
  session: number | null;
  storage: ViewStorage;
  /**
   * A connection opened before the view (Connection.early, made by
   * client/window.ts as the page starts), which it takes over for
   * `session` instead of opening one.
   */
  connection?: Connection;
}

/** What the "process exited" text says. */
function exitText(
  msg: { code: number | null; signal: number | null; reason?: string },
): string {
  // domterm ended it (the server stopped): say that, not the signal.
  if (msg.reason) return `Process ended: ${msg.reason}`;
  if (msg.signal !== null) return `Process killed by signal ${msg.signal}`;
  return `Process exited with code ${msg.code}`;
}

/** One terminal: its parts, and the session it shows. */
export class TerminalView {
  readonly root: HTMLElement;
  readonly term: Terminal;
  readonly renderer: Renderer;
  readonly bell: VisualBell;
  readonly shellUi: ShellUi;
  readonly lineInput: LineInput;
  readonly input: InputHandler;
  readonly lineView: LineEditorView;
  readonly predict: PredictiveEcho;
  readonly find: FindBar;
  readonly pager: Pager;
  readonly links: LinkHandler;
  /** Events from printed elements to the program (docs/interactive.md). */
  readonly elementEvents: ElementEvents;
  readonly mouse: MouseHandler;
  readonly scroll: ScrollControls;
  readonly zoom: Zoom;
  readonly clipboardRead: ClipboardRead;
  /** Saves the session as HTML (a download). */
  readonly saveHtml: () => Promise<void>;
  readonly status: StatusLine;
  /** The live region and what it announces (client/a11y/). */
  readonly a11y: ViewA11y;
  readonly conn: Connection;
  readonly #host: ViewHost;
  readonly #storage: ViewStorage;
  readonly #gridNote: HTMLElement;
  /** What fits the element, and the cell size last told to the server. */
  #size: { cols: number; rows: number };
  #cellSize: { width: number; height: number };
  /** A snapshot was loaded and is not drawn yet (for the attach timing marks). */
  #attachPending = false;
  /** Output came (the start-up mark `output-drawn`, client/startup_marks.ts). */
  #outputSeen = false;
  #ended = false;
  /** The session is shared read-only with this window (its folds stay here). */
  #readOnly = false;
  #refitPending = 0;
  #resizeObserver: ResizeObserver;
  #onPageHide: () => void = () => {};

  constructor(options: ViewOptions, host: ViewHost) {
    const { root } = options;
    this.root = root;
    this.#host = host;
    this.#storage = options.storage;
    this.status = new StatusLine(options.status ?? this.#make("dt-status"));
    this.#gridNote = options.gridNote ?? this.#make("dt-grid-note");
    this.term = new Terminal({
      cols: 80,
      rows: 24,
      // The session's emulator in the server answers the program's queries
      // (once, for every window): this copy only draws.
      reply: () => {},
      onEvent: (e) => this.#onEvent(e),
    });
    const term = this.term;
    this.renderer = new Renderer(root, term);
    this.a11y = new ViewA11y(root, term);
    installCopyHandler(root); // soft-wrapped rows copy as one line
    installWordSelect(root); // double-click: root@vm, a path, a URL
    this.bell = new VisualBell(root);
    this.shellUi = new ShellUi(
      term,
      this.renderer,
      (d) => this.conn.sendInput(d),
      (ref, folded) => this.#sendFold(ref, folded),
    );
    this.saveHtml = installSaveHtml(root, term, this.renderer, this.shellUi);
    this.#size = this.renderer.fit();
    term.resize(this.#size.cols, this.#size.rows);
    this.#cellSize = this.renderer.measureCell();
    term.setCellSize(this.#cellSize.width, this.#cellSize.height);
    this.renderer.schedule();
    this.lineInput = new LineInput({
      sendBytes: (data) => this.conn.sendInput(data),
      sendMessage: (msg) => this.conn.sendMessage(msg),
      changed: () => this.lineView.update(),
    });
    this.input = this.#makeInput();
    this.find = this.#makeFind();
    this.pager = this.#makePager();
    this.predict = this.#makePredict();
    this.lineView = new LineEditorView(root, this.lineInput, {
      cursorRect: () => this.renderer.cursorRect(),
      cell: () => this.renderer.measureCell(),
      cols: () => term.cols,
    });
    this.links = new LinkHandler(root, {
      lineOfRow: (row) => this.renderer.lineOfRow(row),
      cellWidth: () => this.renderer.measureCell().width,
      ext: (id) => term.ext(id),
      open: (msg) => this.conn.sendOpen(msg),
    });
    this.elementEvents = new ElementEvents(
      root,
      term,
      (msg) => this.conn.sendMessage(msg),
    );
    this.mouse = new MouseHandler(root, {
      send: (data) => this.conn.sendInput(data),
      modes: () => term.modes,
      size: () => ({ cols: term.cols, rows: term.rows }),
    });
    this.scroll = new ScrollControls(
      root,
      this.renderer,
      () => this.input.focus(),
    );
    this.zoom = new Zoom(root, () => this.refit());
    this.clipboardRead = new ClipboardRead(root.ownerDocument, {
      send: (data) => this.conn.sendInput(data),
      reply: (sel, text) => term.clipboardReply(sel, text),
      focusTerminal: () => this.input.refocus(),
    });
    this.renderer.onRender = () => this.#drawn();
    this.#resizeObserver = new ResizeObserver(() => {
      if (!this.#refitPending) {
        this.#refitPending = requestAnimationFrame(() => this.refit());
      }
    });
    this.#resizeObserver.observe(root);
    this.conn = this.#connect(
      options.key,
      options.session,
      options.connection,
    );
    this.syncColors();
  }

  /**
   * The colours shown may have changed (theme, colour settings, the
   * desktop's light/dark, a user stylesheet): the page's emulator and the
   * session's (which answers the program's colour queries) take them.
   */
  syncColors(): void {
    const colors = shownColors(this.root);
    // The desktop asks for more contrast: at least 7:1 (WCAG AAA), unless
    // the setting turned the adjustment off.
    const ratio = this.#host.settings.get()["minimum-contrast-ratio"] as number;
    const more = matchMedia("(prefers-contrast: more)").matches;
    this.renderer.setContrast(
      more && ratio > 1 ? Math.max(ratio, 7) : ratio,
      colors,
    );
    if (colors === null) return;
    this.term.setDefaultColors(colors);
    this.conn.sendColors(colors);
  }

  /** A status or note element of this view, next to its root. */
  #make(className: string): HTMLElement {
    const el = this.root.ownerDocument.createElement("div");
    el.className = className;
    el.setAttribute("role", "status");
    el.hidden = true;
    this.root.after(el);
    return el;
  }

  #makeInput(): InputHandler {
    const { term, renderer, lineInput } = this;
    const input = new InputHandler(this.root, {
      send: (data) => {
        this.a11y.typed(data);
        // Keys that reach the program at once may be echoed ahead (off by default).
        const direct = !lineInput.editing &&
          (lineInput.mode === "char" || lineInput.mode === "auto");
        lineInput.input(data);
        if (direct) this.predict.sent(data);
      },
      paste: (text, data) => lineInput.paste(text, data),
      modes: () => term.modes,
      // While a line is edited, the IME opens at its caret.
      cursorRect: () => this.lineView.caretRect() ?? renderer.cursorRect(),
      onUserInput: () => {
        this.pager.noteUser();
        renderer.noteUserInput();
        renderer.scrollToBottom();
      },
    });
    input.onFocusChange = (focused) => {
      renderer.setFocused(focused);
      if (!focused) return;
      this.conn.sendFocus();
      this.#host.focused(this);
    };
    return input;
  }

  #makeFind(): FindBar {
    const { term, renderer } = this;
    const find = new FindBar(this.root.ownerDocument, {
      term,
      shownRow: (i) => renderer.shownRow(i),
      revealLine: (i) => renderer.revealLine(i),
      viewLines: () => renderer.viewLines(),
      unfoldLine: (i) => !term.buffer.isAlt && this.shellUi.unfoldLine(i),
      focusTerminal: () => this.input.refocus(),
    });
    // Scroll events do not bubble; a capturing listener sees the viewport's.
    this.root.addEventListener("scroll", () => find.onScroll(), {
      capture: true,
      passive: true,
    });
    return find;
  }

  #makePager(): Pager {
    const { term, renderer } = this;
    const key = this.#storage.pager;
    const pager = new Pager(this.root, {
      term,
      hold: () => this.conn.hold(),
      release: () => this.conn.release(),
      send: (d) => this.conn.sendInput(d),
      scrollPages: (n) => renderer.scrollPages(n),
      scrollToTop: () => renderer.scrollToTop(),
      scrollToBottom: () => renderer.scrollToBottom(),
      shownRow: (i) => renderer.shownRow(i),
      focusTerminal: () => this.input.refocus(),
      // A reload of this tab keeps the choice.
      onAutomaticChange: (on) => sessionStorage.setItem(key, on ? "1" : "0"),
    });
    if (sessionStorage.getItem(key) === "1") pager.setAutomatic(true);
    return pager;
  }

  #makePredict(): PredictiveEcho {
    const { term, renderer } = this;
    return new PredictiveEcho(this.root, {
      get cursorX() {
        return term.cursorX;
      },
      get cursorY() {
        return term.cursorY;
      },
      get cols() {
        return term.cols;
      },
      cellText: (x, y) => term.buffer.screenLine(y).text(x),
    }, {
      cursorRect: () => renderer.cursorRect(),
      cell: () => renderer.measureCell(),
    });
  }

  /** After each frame: what is drawn over the rows follows them. */
  #drawn(): void {
    this.shellUi.update();
    this.lineView.update();
    this.predict.update();
    this.find.onRender();
    this.a11y.frame();
    if (this.#outputSeen) startupMark("output-drawn");
    if (this.#attachPending) {
      this.#attachPending = false;
      // bench/attach_bench.ts reads these marks.
      performance.mark("domterm:attach-drawn");
    }
  }

  #connect(
    key: string,
    session: number | null,
    early?: Connection,
  ): Connection {
    const { term, renderer } = this;
    // An echo is drawn in the next animation frame, as all output is. Drawn
    // at once when it had been processed (2-3 ms after the key), the rows
    // were in the DOM sooner, but the frame that showed them came later:
    // Chromium then drew at the next vsync (key to frame, median 7.4-7.9 ms)
    // where a frame asked for by requestAnimationFrame came at once (3.4-3.9
    // ms; docs/benchmarks.md, "Key to the frame that draws the echo").
    const handlers: ConnectionHandlers = {
      admit: (data) => this.pager.admit(data),
      output: (data) => {
        this.#outputSeen = true;
        term.write(data);
        this.predict.output();
        renderer.schedule();
        this.find.noteOutput();
        this.#host.output?.(this);
      },
      message: (msg) => this.#onMessage(msg),
      closed: (code, reason) => {
        if (this.#ended) return;
        this.status.show(
          `Disconnected from domterm${reason ? `: ${reason}` : ""} (${code})`,
          true,
        );
      },
      reconnecting: (ms, _attempt, reason, serverGone) => {
        if (ms === null) this.status.hide();
        else if (serverGone) {
          this.status.show(
            "The domterm server is gone (nothing answers at this address: " +
              "it stopped or was killed). Run `domterm` to start it again; " +
              `this window tries again in ${(ms / 1000).toFixed(0)} s.`,
            true,
          );
        } else {
          // A remote session's server says its ssh link is down.
          this.status.show(
            `${reason || "Connection lost"}: reconnecting in ${
              (ms / 1000).toFixed(1)
            } s…`,
          );
        }
      },
    };
    const size = () => this.#size;
    let conn: Connection;
    if (early && session !== null) {
      conn = early;
      early.adopt(handlers, size, session);
    } else conn = new Connection(key, size, handlers, session);
    // Closing or reloading the tab is on purpose; a crash or a lost network
    // is not. With the detach-on-close setting a close only detaches.
    this.#onPageHide = () => {
      if (!this.#host.settings.get()["detach-on-close"]) conn.sendClosing();
    };
    addEventListener("pagehide", this.#onPageHide);
    return conn;
  }

  #onEvent(e: TerminalEvent): void {
    if (e.type === "command" && e.phase === "end") {
      this.a11y.commandEnded(e.exit);
    } else if (e.type === "notify") this.a11y.notified(e.title, e.body);
    // Title, window name, progress, notifications, command ends.
    if (this.#host.windowEvent(this, e)) return;
    if (e.type === "resize-request") {
      // XTWINOPS 8, DECCOLM...: the model took the size; the window
      // follows after this write (not inside it), within the window.
      queueMicrotask(() => this.#followRequest(e.cols, e.rows));
    } else if (e.type === "clipboard") {
      // OSC 52: programs may write the clipboard; reading is below.
      navigator.clipboard?.writeText(e.text).catch(() => {});
    } else if (e.type === "clipboard-read") {
      this.clipboardRead.request(e.selection);
    } else if (e.type === "bell") this.bell.ring();
    else if (e.type === "pager") this.pager.setAutomatic(e.automatic);
    else if (e.type === "input-mode") this.lineInput.setMode(e.mode);
    else if (e.type === "element-events") this.elementEvents.update();
    else if (e.type === "settings") {
      // OSC 88: this window's own settings.
      for (const p of this.#host.settings.setWindow(e.json)) {
        this.#host.warn(p);
      }
    }
    this.renderer.schedule();
  }

  /** A fold made by hand here: the session keeps it (a read-only window's stays its own). */
  #sendFold(ref: MarkRef, folded: boolean): void {
    if (!this.#readOnly) {
      this.conn.sendMessage({ type: "fold", ...ref, folded });
    }
  }

  #onMessage(msg: ServerMessage): void {
    const { term, lineInput } = this;
    switch (msg.type) {
      case "ready":
        sessionStorage.setItem(this.#storage.session, String(msg.session));
        this.#host.ready(this, msg.command ?? []);
        lineInput.reset();
        break;
      case "snapshot":
        this.#loadSnapshot(
          msg.snapshot as TerminalSnapshot,
          msg.frame ? undefined : msg.droppedLines,
          msg.frame,
        );
        break;
      case "grid":
        if (msg.cols !== term.cols) this.#slices?.finishNow();
        term.resize(msg.cols, msg.rows);
        if (msg.clearHistory) term.normalBuffer.clearHistory();
        if (msg.eventsOff) term.stopElementEvents();
        this.find.noteOutput();
        this.renderer.schedule();
        this.#showGrid();
        break;
      case "detached":
        this.#ended = true;
        this.status.show(
          `Detached from session ${msg.session}; it goes on. ` +
            `\`domterm attach ${msg.session}\` shows it again.`,
        );
        this.#host.ended(this, false);
        break;
      case "exit":
        this.#ended = true;
        sessionStorage.removeItem(this.#storage.session);
        this.status.show(exitText(msg));
        // What the program printed can no longer reach it.
        term.stopElementEvents();
        this.#host.ended(this, true);
        break;
      case "error":
        this.status.show(msg.message, true);
        break;
      case "notice":
        this.#notice(msg.message);
        break;
      case "event":
        // In output this window skipped (it was fed snapshots): as if its
        // emulator had parsed it.
        this.#onEvent(msg.event);
        break;
      case "edit":
        this.predict.clear();
        lineInput.onEdit(msg);
        break;
      case "raw":
        lineInput.onRaw();
        break;
      case "bulk-ack":
        lineInput.onBulkAck(msg.seq);
        break;
      case "input-mode":
        lineInput.setMode(msg.mode);
        break;
      case "edit-state":
        lineInput.onRemoteState(msg);
        break;
      case "login":
        this.#host.login();
        break;
      case "read-only":
        this.#readOnly = true;
        this.elementEvents.setReadOnly(true);
        this.#host.readOnly(msg.message);
        break;
      case "settings":
        this.#host.serverSettings(msg);
        break;
      case "fold":
        this.shellUi.applyFold(msg, msg.folded);
        break;
    }
  }

  /** Shows `message` for {@link NOTICE_MS}, unless something replaced it. */
  #notice(message: string): void {
    const status = this.status;
    status.show(message, true);
    setTimeout(() => {
      if (!this.#ended && status.text === message) status.hide();
    }, NOTICE_MS);
  }

  /** The history of the last snapshot still loading, if any. */
  #slices: HistorySlices | null = null;

  /** The older history of the last snapshot is still loading. */
  get historyLoading(): boolean {
    return this.#slices?.loading ?? false;
  }

  #loadSnapshot(
    snapshot: TerminalSnapshot,
    droppedLines?: number,
    frame?: { keep: boolean },
  ): void {
    performance.mark("domterm:snapshot-received");
    this.#slices?.cancel();
    this.#slices = null;
    try {
      // The screen first; a large history follows in slices.
      const { first, older } = firstPart(snapshot);
      // A frame (this window fell behind) keeps the history lines the
      // page has before the frame's, when they join up.
      if (frame) this.term.loadFrame(first, frame.keep);
      else this.term.load(first);
      if (older > 0) {
        this.#slices = new HistorySlices(this.term, snapshot, older, () => {
          this.renderer.reset();
          this.shellUi.reset();
          this.find.noteOutput();
        });
      }
    } catch (e) {
      this.status.show(
        `Cannot show the session: ${(e as Error).message}`,
        true,
      );
      return;
    }
    performance.mark("domterm:snapshot-loaded");
    this.a11y.loaded();
    this.#attachPending = true;
    this.find.noteOutput();
    this.renderer.reset();
    this.shellUi.reset();
    this.elementEvents.update();
    this.#host.loaded(this);
    this.pager.reset();
    if (droppedLines) {
      this.#host.warn(
        `${droppedLines} old history lines were too much to send`,
      );
    }
    this.#showGrid();
  }

  /** True once the session exited or the view was detached from it. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Says so when the grid is another window's, not what fits this one. */
  #showGrid(): void {
    this.#host.gridChanged(this);
    const { term } = this;
    const note = this.#gridNote;
    const other = term.cols !== this.#size.cols ||
      term.rows !== this.#size.rows;
    note.hidden = !other;
    if (other) {
      note.textContent =
        `${term.cols}\u00d7${term.rows}: the size of the window last used`;
    }
  }

  /** Pixels between the grid's last column and the element's right edge. */
  gapRight(): number {
    const r = this.root.getBoundingClientRect();
    const viewport = this.root.querySelector<HTMLElement>(".dt-viewport");
    const pad = viewport
      ? parseFloat(getComputedStyle(viewport).paddingLeft)
      : 0;
    return r.right - (r.left + pad + this.term.cols * this.#cellSize.width);
  }

  /** Resize the grid to cols x rows (0 = as many as fit), at most what fits. */
  /**
   * A program asked for `cols` x `rows` (0: the whole window). More
   * columns than fit (DECCOLM's 132, as xterm grows its window) shrink the
   * font until they fit; a request that fits restores it. Then the grid
   * is what fits of the request.
   */
  #followRequest(cols: number, rows: number): void {
    const zoom = this.zoom;
    zoom.setScale(1);
    let fit = this.renderer.fit();
    // A VT's 132-column mode (DECCOLM) is what a smaller font is for; a
    // wider request (XTWINOPS 8 with 500 columns) gets what fits.
    if (cols > fit.cols && cols <= MAX_SHRINK_COLS) {
      // The cell's width goes with the font size, nearly linearly.
      let scale = fit.cols / cols;
      for (let i = 0; i < 8; i++) {
        zoom.setScale(scale);
        fit = this.renderer.fit();
        if (fit.cols >= cols) break;
        scale *= 0.98;
      }
    }
    this.applySize(cols, rows);
  }

  applySize(cols: number, rows: number): void {
    const fit = this.renderer.fit();
    const next = {
      cols: cols > 0 ? Math.min(cols, fit.cols) : fit.cols,
      rows: rows > 0 ? Math.min(rows, fit.rows) : fit.rows,
    };
    const cell = this.renderer.measureCell();
    const size = this.#size, old = this.#cellSize;
    // Unchanged, unless a program's request changed the model: then the
    // grid the window has room for goes back to the session.
    if (
      next.cols === size.cols && next.rows === size.rows &&
      next.cols === this.term.cols && next.rows === this.term.rows &&
      cell.width === old.width && cell.height === old.height
    ) return;
    // A zoom may keep the grid: the pixel size still changed.
    this.#cellSize = cell;
    this.#size = next;
    // The grid changes when the server says so (a grid message), at the
    // same point of the stream as the session's emulator.
    this.term.setCellSize(cell.width, cell.height);
    this.#showGrid();
    this.conn.sendResize(
      next.cols,
      next.rows,
      Math.round(cell.width * next.cols),
      Math.round(cell.height * next.rows),
    );
    this.renderer.schedule();
  }

  /** Fit the grid to the element again (after a resize, a zoom, a font). */
  refit(): void {
    this.#refitPending = 0;
    // A view not shown has no size: it fits when it is shown again.
    if (!this.renderer.shown || this.root.clientWidth === 0) return;
    this.applySize(0, 0);
  }

  /**
   * Shown (true) or hidden (a tab behind another, false): hidden, it
   * draws nothing; shown, it draws from the model at once and fits its
   * element again.
   */
  setShown(shown: boolean): void {
    this.renderer.setShown(shown);
    if (shown) this.refit();
  }

  /**
   * The view goes away (its pane closed or moved to another window): its
   * socket closes without a word (the session goes on, or the server ends
   * it with the pane) and its parts stop.
   */
  dispose(): void {
    this.#ended = true;
    removeEventListener("pagehide", this.#onPageHide);
    this.#resizeObserver.disconnect();
    if (this.#refitPending) cancelAnimationFrame(this.#refitPending);
    this.conn.close();
    this.renderer.dispose();
    this.find.close();
  }

  /** Give this view the keyboard. */
  focus(): void {
    this.input.focus();
  }

  /** The settings changed: the features' own keys, and the look. */
  settingsChanged(s: Readonly<Settings>, changed: readonly string[]): void {
    // Each takes its key only when it changed, so a window's own choice,
    // e.g. Ctrl+Shift+L, stays until then.
    if (changed.includes("input-mode")) {
      this.lineInput.setMode(s["input-mode"] as InputMode);
    }
    if (changed.includes("pager.auto")) {
      this.pager.setAutomatic(s["pager.auto"] === true);
    }
    if (changed.includes("clipboard.read")) {
      this.clipboardRead.setPolicy(s["clipboard.read"] as ClipboardReadPolicy);
    }
    if (applyLook(this.root.ownerDocument, s, changed, this.renderer)) {
      this.zoom.baseChanged();
      this.refit();
    }
    this.syncColors();
  }
}
