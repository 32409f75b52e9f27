/**
 * The page: wires the emulator (core), the renderer, keyboard input and the
 * WebSocket together.
 *
 * @module
 */
import { Terminal, type TerminalSnapshot } from "../core/emulator/terminal.ts";
import type { InputMode, ServerMessage } from "../core/protocol.ts";
import { Connection } from "./connection.ts";
import { InputHandler } from "./input.ts";
import { LineInput } from "./line_input.ts";
import { LineEditorView } from "./line_editor_view.ts";
import { PredictiveEcho } from "./predict_view.ts";
import { MouseHandler } from "./mouse.ts";
import { Renderer } from "./renderer.ts";
import {
  copySelectionHtml,
  installCopyHandler,
  terminalSelection,
} from "./selection.ts";
import { VisualBell } from "./bell.ts";
import { ScrollControls } from "./scrollback.ts";
import { loadUserStyle } from "./user_style.ts";
import { Zoom } from "./zoom.ts";
import { LinkHandler } from "./links.ts";
import { ShellUi } from "./shell_ui.ts";
import { installSaveHtml } from "./save_html.ts";
import { Actions } from "./actions.ts";
import { registerActions } from "./window_actions.ts";
import { Menu } from "./menu.ts";
import { FindBar } from "./find.ts";
import { ClipboardRead, type ClipboardReadPolicy } from "./clipboard_read.ts";
import { installWindowUi } from "./window_ui.ts";
import { Pager } from "./pager.ts";
import { settings } from "./settings.ts";
import { applyLook, applyTheme } from "./apply_settings.ts";
import { installKeymap } from "./keymap.ts";
import { showReadOnlyBadge } from "./read_only_badge.ts";
import { SettingsPage } from "./settings_page.ts";
import { SettingsNotice } from "./settings_notice.ts";

/** How long the "process exited" notice stays before the window closes. */
const CLOSE_DELAY_MS = 1500;

/**
 * The server key and the session to attach to. They arrive in the URL
 * fragment (`#key=K[&session=N]`: never sent to a server or logged); keep
 * them for reloads of this tab only (sessionStorage: a reload attaches to
 * the same session), and take them out of the address.
 */
function readLaunch(): { key: string; session: number | null } {
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromHash = hash.get("key");
  if (fromHash) {
    sessionStorage.setItem("domterm-key", fromHash);
    const s = hash.get("session");
    if (s && /^\d{1,9}$/.test(s)) sessionStorage.setItem("domterm-session", s);
    else sessionStorage.removeItem("domterm-session");
    history.replaceState(null, "", location.pathname + location.search);
  }
  const session = sessionStorage.getItem("domterm-session");
  return {
    key: sessionStorage.getItem("domterm-key") ?? "",
    session: session ? Number(session) : null,
  };
}

function hideStatus(): void {
  const el = document.getElementById("status");
  if (el) el.hidden = true;
}

function showStatus(text: string, isError = false): void {
  const el = document.getElementById("status");
  if (!el) return;
  el.textContent = text;
  el.classList.toggle("dt-error", isError);
  el.hidden = false;
}

function exitText(msg: { code: number | null; signal: number | null }): string {
  if (msg.signal !== null) return `Process killed by signal ${msg.signal}`;
  return `Process exited with code ${msg.code}`;
}

function start(): void {
  const root = document.getElementById("terminal");
  if (!root) throw new Error("index.html lacks #terminal");
  const { key, session } = readLaunch();

  let conn: Connection | null = null;
  /** The find bar (set up once the input handler is). */
  let find: FindBar | null = null;
  /** OSC 52 reads: the policy and its prompt (set up below). */
  let clipboardRead: ClipboardRead | null = null;
  /** The pager (set up once the renderer and input handler are). */
  let pager: Pager | null = null;
  const term = new Terminal({
    cols: 80,
    rows: 24,
    // The session's emulator in the server answers the program's queries
    // (once, for every window): this copy only draws.
    reply: () => {},
    onEvent: (e) => {
      // Title, window name, progress, notifications, command ends.
      if (windowUi.handle(e)) return;
      if (e.type === "resize-request") {
        // XTWINOPS 8: after this write (not inside it), within the window.
        queueMicrotask(() => applySize(e.cols, e.rows));
      } else if (e.type === "clipboard") {
        // OSC 52: programs may write the clipboard; reading is below.
        navigator.clipboard?.writeText(e.text).catch(() => {});
      } else if (e.type === "clipboard-read") {
        clipboardRead?.request(e.selection);
      } else if (e.type === "bell") bell.ring();
      else if (e.type === "pager") pager?.setAutomatic(e.automatic);
      else if (e.type === "input-mode") lineInput?.setMode(e.mode);
      else if (e.type === "settings") {
        // OSC 88: this window's own settings.
        for (const p of settings.setWindow(e.json)) {
          console.warn(`domterm: ${p}`);
        }
      }
      renderer.schedule();
    },
  });
  const renderer = new Renderer(root, term);
  const windowUi = installWindowUi(root, term);
  installCopyHandler(root); // soft-wrapped rows copy as one line
  const bell = new VisualBell(root);
  const shellUi = new ShellUi(term, renderer, (d) => conn?.sendInput(d));
  /** The line editor's drawing (set up once the input handler is). */
  let lineView: LineEditorView | null = null;
  /** Predictive echo (set up with the line editor's drawing). */
  let predict: PredictiveEcho | null = null;
  /** A snapshot was loaded and is not drawn yet (for the attach timing marks). */
  let attachPending = false;
  renderer.onRender = () => {
    shellUi.update();
    lineView?.update();
    predict?.update();
    find?.onRender();
    if (attachPending) {
      attachPending = false;
      // bench/attach_bench.ts reads these marks.
      performance.mark("domterm:attach-drawn");
    }
  };
  const saveHtml = installSaveHtml(root, term, renderer, shellUi); // Ctrl+Shift+S
  let size = renderer.fit();
  term.resize(size.cols, size.rows);
  let cellSize = renderer.measureCell();
  term.setCellSize(cellSize.width, cellSize.height);
  renderer.schedule();

  let exited = false;
  const settingsNotice = new SettingsNotice(document);
  const actions = new Actions();
  const viewport = root.querySelector<HTMLElement>(".dt-viewport");
  const menu = new Menu(root, actions, {
    mouseTracked: () => term.modes.mouseTracking !== 0,
    focusTerminal: () => input.refocus(),
    gapRight: () => {
      const r = root.getBoundingClientRect();
      const pad = viewport
        ? parseFloat(getComputedStyle(viewport).paddingLeft)
        : 0;
      return r.right - (r.left + pad + term.cols * cellSize.width);
    },
  });
  /** Says so when the grid is another window's, not what fits this one. */
  const showGrid = () => {
    menu.placeButton();
    const note = document.getElementById("dt-grid-note");
    const other = term.cols !== size.cols || term.rows !== size.rows;
    if (!note) return;
    note.hidden = !other;
    if (other) {
      note.textContent =
        `${term.cols}\u00d7${term.rows}: the size of the window last used`;
    }
  };
  // An echo is drawn in the next animation frame, as all output is. Drawn
  // at once when it had been processed (2-3 ms after the key), the rows
  // were in the DOM sooner, but the frame that showed them came later:
  // Chromium then drew at the next vsync (key to frame, median 7.4-7.9 ms)
  // where a frame asked for by requestAnimationFrame came at once (3.4-3.9
  // ms; docs/benchmarks.md, "Key to the frame that draws the echo").
  conn = new Connection(key, () => size, {
    admit: (data) => pager?.admit(data) ?? data.length,
    output(data) {
      term.write(data);
      predict?.output();
      renderer.schedule();
      find?.noteOutput();
    },
    message(msg: ServerMessage) {
      switch (msg.type) {
        case "ready":
          sessionStorage.setItem("domterm-session", String(msg.session));
          windowUi.setCommand(msg.command ?? []);
          lineInput.reset();
          break;
        case "snapshot":
          performance.mark("domterm:snapshot-received");
          try {
            term.load(msg.snapshot as TerminalSnapshot);
          } catch (e) {
            showStatus(
              `Cannot show the session: ${(e as Error).message}`,
              true,
            );
            break;
          }
          performance.mark("domterm:snapshot-loaded");
          attachPending = true;
          find?.noteOutput();
          renderer.reset();
          shellUi.reset();
          windowUi.reset();
          pager?.reset();
          if (msg.droppedLines) {
            console.warn(
              `domterm: ${msg.droppedLines} old history lines were too much to send`,
            );
          }
          showGrid();
          break;
        case "grid":
          term.resize(msg.cols, msg.rows);
          if (msg.clearHistory) term.normalBuffer.clearHistory();
          find?.noteOutput();
          renderer.schedule();
          showGrid();
          break;
        case "detached":
          exited = true;
          showStatus(
            `Detached from session ${msg.session}; it goes on. ` +
              `\`domterm attach ${msg.session}\` shows it again.`,
          );
          break;
        case "exit":
          exited = true;
          sessionStorage.removeItem("domterm-session");
          showStatus(exitText(msg));
          setTimeout(() => globalThis.close(), CLOSE_DELAY_MS);
          break;
        case "error":
          showStatus(msg.message, true);
          break;
        case "edit":
          predict?.clear();
          lineInput.onEdit(msg);
          break;
        case "raw":
          lineInput.onRaw();
          break;
        case "input-mode":
          lineInput.setMode(msg.mode);
          break;
        case "edit-state":
          lineInput.onRemoteState(msg);
          break;
        case "login":
          // The remote listener's login let this window in.
          actions.register({
            name: "log-out",
            label: "Log out\u2026",
            group: "session",
            run: () => location.assign("/logout"),
          });
          break;
        case "read-only":
          showReadOnlyBadge(document, msg.message);
          break;
        case "settings":
          settingsNotice.show(msg.problems);
          settings.path = msg.path;
          settings.problems = msg.problems;
          settings.setServer(msg.settings);
          break;
      }
    },
    closed(code, reason) {
      if (exited) return;
      showStatus(
        `Disconnected from domterm${reason ? `: ${reason}` : ""} (${code})`,
        true,
      );
    },
    reconnecting(ms, _attempt, reason) {
      if (ms === null) hideStatus();
      else {
        // A remote session's server says its ssh link is down.
        showStatus(
          `${reason || "Connection lost"}: reconnecting in ${
            (ms / 1000).toFixed(1)
          } s…`,
        );
      }
    },
  }, session);
  // Closing or reloading the tab is on purpose; a crash or a lost network
  // is not. With the detach-on-close setting a close only detaches.
  addEventListener("pagehide", () => {
    if (!settings.get()["detach-on-close"]) conn?.sendClosing();
  });

  const lineInput = new LineInput({
    sendBytes: (data) => conn?.sendInput(data),
    sendMessage: (msg) => conn?.sendMessage(msg),
    changed: () => lineView?.update(),
  });
  const input = new InputHandler(root, {
    send: (data) => {
      // Keys that reach the program at once may be echoed ahead (off by default).
      const direct = !lineInput.editing &&
        (lineInput.mode === "char" || lineInput.mode === "auto");
      lineInput.input(data);
      if (direct) predict?.sent(data);
    },
    paste: (text, data) => lineInput.paste(text, data),
    modes: () => term.modes,
    // While a line is edited, the IME opens at its caret.
    cursorRect: () => lineView?.caretRect() ?? renderer.cursorRect(),
    onUserInput: () => {
      pager?.noteUser();
      renderer.noteUserInput();
      renderer.scrollToBottom();
    },
  });
  find = new FindBar(document, {
    term,
    shownRow: (i) => renderer.shownRow(i),
    revealLine: (i) => renderer.revealLine(i),
    viewLines: () => renderer.viewLines(),
    unfoldLine: (i) => !term.buffer.isAlt && shellUi.unfoldLine(i),
    focusTerminal: () => input.refocus(),
  });
  pager = new Pager(root, {
    term,
    hold: () => conn?.hold(),
    release: () => conn?.release(),
    send: (d) => conn?.sendInput(d),
    scrollPages: (n) => renderer.scrollPages(n),
    scrollToTop: () => renderer.scrollToTop(),
    scrollToBottom: () => renderer.scrollToBottom(),
    shownRow: (i) => renderer.shownRow(i),
    focusTerminal: () => input.refocus(),
    // A reload of this tab keeps the choice.
    onAutomaticChange: (on) =>
      sessionStorage.setItem("domterm-pager", on ? "1" : "0"),
  });
  if (sessionStorage.getItem("domterm-pager") === "1") pager.setAutomatic(true);
  // Scroll events do not bubble; a capturing listener sees the viewport's.
  root.addEventListener("scroll", () => find?.onScroll(), {
    capture: true,
    passive: true,
  });
  predict = new PredictiveEcho(root, {
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
  lineView = new LineEditorView(root, lineInput, {
    cursorRect: () => renderer.cursorRect(),
    cell: () => renderer.measureCell(),
    cols: () => term.cols,
  });
  input.onFocusChange = (focused) => {
    renderer.setFocused(focused);
    if (focused) conn?.sendFocus();
  };
  // Ctrl+Shift+D detaches: the session goes on without a window.
  // Ctrl+Shift+F finds.
  root.addEventListener("keydown", (e) => {
    if (!e.ctrlKey || !e.shiftKey || e.altKey || e.metaKey) return;
    if (e.code === "KeyL") {
      e.preventDefault();
      e.stopPropagation();
      lineInput.cycleMode(); // Ctrl+Shift+L: the next input mode
      return;
    }
    const name = e.code === "KeyD"
      ? "detach"
      : e.code === "KeyF"
      ? "find"
      : e.code === "KeyM"
      ? "pause-output"
      : "";
    if (name === "") return;
    e.preventDefault();
    e.stopPropagation();
    actions.run(name);
  }, { capture: true });
  new LinkHandler(root, {
    lineOfRow: (row) => renderer.lineOfRow(row),
    cellWidth: () => renderer.measureCell().width,
    ext: (id) => term.ext(id),
    open: (msg) => conn?.sendOpen(msg),
  });
  input.focus();
  const mouse = new MouseHandler(root, {
    send: (data) => conn?.sendInput(data),
    modes: () => term.modes,
    size: () => ({ cols: term.cols, rows: term.rows }),
  });
  const scroll = new ScrollControls(root, renderer, () => input.focus());

  /** Resize the grid to cols x rows (0 = as many as fit), at most what fits. */
  const applySize = (cols: number, rows: number) => {
    const fit = renderer.fit();
    const next = {
      cols: cols > 0 ? Math.min(cols, fit.cols) : fit.cols,
      rows: rows > 0 ? Math.min(rows, fit.rows) : fit.rows,
    };
    const cell = renderer.measureCell();
    const sameGrid = next.cols === size.cols && next.rows === size.rows;
    if (
      sameGrid && cell.width === cellSize.width &&
      cell.height === cellSize.height
    ) return;
    // A zoom may keep the grid: the pixel size still changed.
    cellSize = cell;
    size = next;
    // The grid changes when the server says so (a grid message), at the
    // same point of the stream as the session's emulator.
    term.setCellSize(cell.width, cell.height);
    showGrid();
    conn?.sendResize(
      size.cols,
      size.rows,
      Math.round(cell.width * size.cols),
      Math.round(cell.height * size.rows),
    );
    renderer.schedule();
  };
  let pending = 0;
  const refit = () => {
    pending = 0;
    applySize(0, 0);
  };
  new ResizeObserver(() => {
    if (!pending) pending = requestAnimationFrame(refit);
  }).observe(root);
  const zoom = new Zoom(root, refit);
  registerActions(actions, {
    root,
    copy: () => input.copy(),
    copyHtml: () => copySelectionHtml(root),
    paste: () =>
      navigator.clipboard?.readText().then(
        (text) => input.paste(text),
        () => {}, // permission refused: nothing to paste
      ),
    selectAll: () => {
      // The rows of the screen shown: the history and screen, or the
      // alternate screen.
      const alt = term.buffer !== term.normalBuffer;
      const rows = root.querySelector(alt ? ".dt-alt" : ".dt-viewport");
      if (rows) getSelection()?.selectAllChildren(rows);
    },
    find: () => find?.open(terminalSelection(root)?.toString() ?? ""),
    pager: pager,
    clearHistory: () => conn?.sendClearHistory(),
    saveHtml,
    zoom: (a) => zoom.apply(a),
    newWindow: () => {
      // No session in the address: the server starts one for the window.
      const w = Math.max(outerWidth, 400), h = Math.max(outerHeight, 300);
      globalThis.open(
        `${location.pathname}#key=${encodeURIComponent(key)}`,
        "_blank",
        `popup,width=${w},height=${h}`,
      );
    },
    detach: () => conn?.sendDetach(),
    inputMode: () => lineInput.mode,
    setInputMode: (m) => lineInput.setMode(m),
    settings: () => settingsPage.open(),
    close: () => {
      // Its pagehide says "closing" to the server. A tab the browser
      // will not let a script close stays: say how instead.
      globalThis.close();
      setTimeout(() => {
        showStatus("The browser keeps this tab open: close it there (Ctrl+W)");
        setTimeout(hideStatus, 4000);
      }, 500);
    },
  });
  const settingsPage = new SettingsPage(document, {
    current: () => settings.server(),
    path: () => settings.path,
    problems: () => settings.problems,
    save: (values) => conn?.sendSaveSettings(values) ?? false,
    focusTerminal: () => input.refocus(),
  });
  settings.onChange((s, changed) => {
    // The features' own settings (each takes its key only when it changed,
    // so a window's own choice, e.g. Ctrl+Shift+L, stays until then).
    if (changed.includes("input-mode")) {
      lineInput.setMode(s["input-mode"] as InputMode);
    }
    if (changed.includes("pager.auto")) {
      pager?.setAutomatic(s["pager.auto"] === true);
    }
    if (changed.includes("clipboard.read")) {
      clipboardRead?.setPolicy(s["clipboard.read"] as ClipboardReadPolicy);
    }
    if (changed.includes("notify.long-command")) {
      const secs = s["notify.long-command"] as number;
      windowUi.notifier.setNotifyLongCommands(secs > 0, secs);
    }
    if (applyLook(document, s, changed, renderer)) {
      zoom.baseChanged();
      refit();
    }
    settingsPage.refresh();
  });
  installKeymap(
    globalThis,
    root,
    actions,
    () => settings.get().keys as Record<string, string>,
    (m) => console.warn(`domterm: ${m}`),
  );
  void loadUserStyle(document, key, (m) => console.warn(`domterm: ${m}`))
    .then((loaded) => {
      // Its colour-scheme rules follow the theme setting too.
      if (loaded) applyTheme(document, settings.get().theme as string);
      if (loaded) refit();
    });

  clipboardRead = new ClipboardRead(document, {
    send: (data) => conn?.sendInput(data),
    reply: (sel, text) => term.clipboardReply(sel, text),
    focusTerminal: () => input.refocus(),
  });

  // For tests and for poking around in the console.
  Object.assign(globalThis, {
    domterm: {
      term,
      renderer,
      input,
      mouse,
      conn,
      bell,
      scroll,
      zoom,
      shellUi,
      actions,
      find,
      clipboardRead,
      notifier: windowUi.notifier,
      progress: windowUi.progress,
      pager,
      lineInput,
      predict,
      settings,
      settingsPage,
    },
  });
}

start();
