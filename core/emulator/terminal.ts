/**
 * The terminal emulator: bytes in (through the parser), model changes and
 * replies out. Pure and synchronous: no Deno.*, no DOM.
 *
 * xterm semantics (ctlseqs). The change feed: every modified {@link Line}
 * gets `dirty = true`; title, bell, modes, buffer switches and resizes are
 * reported through `onEvent`.
 *
 * This file is the wiring: the parser calls it, it looks the sequence up
 * in the dispatch table (`sequences.ts`, `dispatch.ts`) and calls the
 * handler with an {@link Emulator} (`context.ts`). All state is one
 * {@link TerminalState} (`state.ts`), which `snapshot()` writes out and
 * {@link Terminal.restore} reads back (`core/serialize/snapshot.ts`). What
 * stays here is the print path: printing text is the hot path, so its
 * methods read the state directly and are written for speed (runs of
 * ASCII and of other text straight into the cell arrays), with the
 * general one-character path beside them for what the runs leave out.
 *
 * @module
 */
import { oversizedSequence } from "./images.ts";
import { Parser } from "../parser/parser.ts";
import type { Params, ParserHandler } from "../parser/handler.ts";
import { A_ERROR } from "../model/cell.ts";
import { Buffer, DEFAULT_SCROLLBACK } from "../model/buffer.ts";
import { type Line, LINE_SINGLE } from "../model/line.ts";
import { MAX_CLUSTER_LENGTH } from "../unicode/clusters.ts";
import { print, printChar } from "./print.ts";
import { hasEmbeds } from "../model/line_extras.ts";
import { lineDamaged, resetLineDamage } from "./damage.ts";
import type {
  CursorStyle,
  ExtStyle,
  TerminalEvent,
  TerminalView,
} from "../terminal_view.ts";
import type { Emulator, ShellMarksHost } from "./context.ts";
import {
  carriageReturn,
  cup,
  cursorLine,
  lineFeed,
  lineStart,
  newline,
  reverseIndex,
} from "./cursor.ts";
import {
  controlHandler,
  csiHandler,
  dcsHandler,
  escHandler,
  oscHandler,
} from "./dispatch.ts";
import type { OscHandler as SeqOscHandler } from "./sequences.ts";
import { HtmlEmbeds } from "./html_embed.ts";
import { planHiddenOutput, sgrReplay } from "./hidden_output.ts";
import {
  applyGraphemeSetting,
  GRAPHEME_SETTINGS,
  type GraphemeSetting,
  type Modes,
} from "./modes.ts";
import { splitOsc } from "./osc.ts";
import { setLink, sgr, updateAttr } from "./pen.ts";
import type { ExtTable } from "./ext_table.ts";
import { remapExtIds } from "./ext_sweep.ts";
import { el } from "./erase.ts";
import {
  flush as flushPretty,
  isPrettyPrintOsc,
  type PrettyDocument,
  type PrettyHost,
  prettyOsc,
  prettyRecord,
} from "./pretty_print.ts";
import { clipboardReadReply } from "./clipboard_read.ts";
import {
  BUILTIN_DEFAULT_COLORS,
  type DefaultColors,
  withDefaultColors,
} from "./colors.ts";
import { oscReply, toC1 } from "./replies.ts";
import { fullReset } from "./resets.ts";
import { printGeneration, setElementEvents } from "./element_events.ts";
import { dl, il } from "./scroll.ts";
import { resetMargins } from "./scroll_region.ts";
import { initialState, type TerminalState } from "./state.ts";
import { vt52Sequence } from "./vt52.ts";
import { MAX_COLS, MAX_ROWS, setTitles } from "./window_ops.ts";
import {
  readSnapshot,
  type TerminalSnapshot,
  writeSnapshot,
} from "../serialize/snapshot.ts";

export { MAX_COLS, MAX_ROWS } from "./window_ops.ts";
export type { TerminalSnapshot } from "../serialize/snapshot.ts";
export type { GraphemeSetting } from "./modes.ts";

/** Options of a {@link Terminal}. */
export interface TerminalOptions {
  /** Columns (clamped to 1..{@link MAX_COLS}). */
  cols: number;
  /** Rows (clamped to 1..{@link MAX_ROWS}). */
  rows: number;
  /** History limit of the normal buffer in lines (default 10,000; `Infinity` allowed). */
  scrollback?: number;
  /** Receives replies to queries (DA, CPR, ...) as strings; the caller encodes them. */
  reply?: (data: string) => void;
  /** Receives title, bell, mode, buffer-switch and resize events. */
  onEvent?: (e: TerminalEvent) => void;
  /**
   * Called with any error thrown while handling input (a bug); the emulator
   * repairs its invariants and goes on. For tests and diagnostics.
   */
  onError?: (err: unknown) => void;
  /** Image data kept in the model, in characters (default {@link MAX_IMAGE_MEMORY}); older images are dropped past it. */
  maxImageMemory?: number;
  /** HTML kept in the model, in characters (default {@link MAX_HTML_MEMORY}); older fragments are dropped past it. */
  maxHtmlMemory?: number;
  /**
   * Skip printing lines of a write that leave the scrollback before that
   * write ends (`hidden_output.ts`): the model comes out the same, with
   * less work. For a terminal nobody watches line by line (the server's
   * copy of a session); a window's renderer would miss those lines.
   */
  skipHiddenOutput?: boolean;
  /**
   * The default foreground, background, cursor and palette colours (a
   * theme): what colour queries answer and resets go back to. Missing
   * ones keep today's defaults (`colors.ts`).
   */
  colors?: Partial<DefaultColors>;
  /**
   * Handlers of `OSC code ; args` in place of the built-in ones for those
   * codes (see `sequences.ts`): an embedder's own OSC commands. A handler
   * receives the text after "code;"; an error it throws goes to
   * {@link TerminalOptions.onError}, as any handler's does, and the output
   * goes on.
   */
  oscHandlers?: ReadonlyMap<number, (args: string) => void>;
  /**
   * The `grapheme-clusters` setting (default "off"): whether mode 2027
   * (grapheme clusters instead of `wcwidth` widths) starts set, and
   * whether programs may change it. A restored terminal keeps its
   * snapshot's.
   */
  graphemeClusters?: GraphemeSetting;
}

/** The longest cluster text a cell keeps, in UTF-16 code units (a bound on the model's memory). */
export { MAX_CLUSTER_LENGTH };

const encoder = new TextEncoder();

function clampDim(n: number, max: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.min(max, Math.floor(n))) : 1;
}

/** The xterm-compatible terminal emulator. */
export class Terminal implements TerminalView {
  #s: TerminalState;
  #t: Emulator;
  #titleReports = true;
  #parser: Parser;
  #reply: (data: string) => void;
  #onEvent: (e: TerminalEvent) => void;
  /** The handler of an OSC code: the built-in table, or with `options.oscHandlers` first. */
  #oscHandler: (code: number) => SeqOscHandler | undefined;

  #options: TerminalOptions;
  #defaultColors: DefaultColors;

  /** Create a terminal of `options.cols` x `options.rows` cells. */
  constructor(options: TerminalOptions, state?: TerminalState) {
    this.#options = options;
    this.#defaultColors = withDefaultColors(
      BUILTIN_DEFAULT_COLORS,
      options.colors ?? {},
    );
    const own = options.oscHandlers;
    this.#oscHandler = own === undefined ? oscHandler : (code) => {
      const h = own.get(code);
      return h === undefined ? oscHandler(code) : (_t, args) => h(args);
    };
    const cols = clampDim(options.cols, MAX_COLS);
    const rows = clampDim(options.rows, MAX_ROWS);
    this.#reply = options.reply ?? (() => {});
    this.#onEvent = options.onEvent ?? (() => {});
    if (state === undefined) {
      state = initialState(
        cols,
        rows,
        options.scrollback ?? DEFAULT_SCROLLBACK,
      );
      const g = GRAPHEME_SETTINGS.indexOf(options.graphemeClusters ?? "off");
      applyGraphemeSetting(state.modes, Math.max(0, g));
    }
    [this.#s, this.#t] = this.#wire(state);
    const handler: ParserHandler = {
      print: (codes, start, end) => this.#print(codes, start, end),
      execute: (code) => this.#execute(code),
      csi: (prefix, params, intermediates, final) =>
        this.#csi(prefix, params, intermediates, final),
      esc: (intermediates, final) => this.#esc(intermediates, final),
      vt52: (final, row, column) => vt52Sequence(this.#t, final, row, column),
      osc: (data, bel) => this.#oscDispatch(data, bel),
      dcs: (prefix, params, intermediates, final, payload) =>
        this.#dcs(prefix, params, intermediates, final, payload),
      oversized: (kind, id, cap) => oversizedSequence(this.#t, kind, id, cap),
    };
    const onError = options.onError;
    this.#parser = new Parser(handler, {
      onError: (err) => {
        this.#repair();
        try {
          onError?.(err);
        } catch {
          // ignored
        }
      },
    });
  }

  /** The handlers' view of state `s` (see `context.ts`). */
  #wire(s: TerminalState): [TerminalState, Emulator] {
    const options = this.#options;
    s.colors.defaults = this.#defaultColors; // configuration, not in snapshots
    const embeds = new HtmlEmbeds({
      buffer: () => s.buf,
      cursorLine: () => cursorLine(s),
      cursorX: () => s.x,
      cursorY: () => s.y,
      rows: () => s.rows,
      maxImageMemory: options.maxImageMemory,
      buffers: () => [s.normal.buffer, s.alt.buffer],
      maxHtmlMemory: options.maxHtmlMemory,
      newline: () => newline(s),
      eventsGeneration: () => printGeneration(t),
    }, () => s.embeds);
    const t: Emulator = {
      s,
      emit: (e) => this.#emit(e),
      send: (data) => this.#send(data),
      printChar: (cp) => printChar(s, cp),
      print: (codes, start, end) => this.#print(codes, start, end),
      resize: (cols, rows) => this.resize(cols, rows),
      fullReset: () => {
        fullReset(t);
        this.#parser.vt52 = false;
      },
      setVt52: (on) => {
        s.modes.vt52 = on;
        this.#parser.vt52 = on;
        s.joinNext = false;
        this.#emit({ type: "modes" });
      },
      embeds,
      marks: this.#marksHost(s),
      pretty: this.#prettyHost(s),
      oscBel: false,
      titleReports: this.#titleReports,
      // OscHost
      setTitles: (icon, title) => setTitles(t, icon, title),
      setLink: (uri, id) => setLink(s, uri, id),
      colors: s.colors,
      colorsChanged: () => this.#emit({ type: "modes" }),
      reply: (data) => this.#send(data),
      replyOsc: (body) =>
        this.#send(t.oscBel ? `\x1b]${body}\x07` : oscReply(body)),
      setCwd: (url) => {
        s.cwd = url;
        this.#emit({ type: "cwd", url });
      },
    };
    return [s, t];
  }

  /**
   * The whole state as a JSON-safe, versioned value (see
   * `core/serialize/snapshot.ts`): {@link Terminal.restore} makes a
   * terminal that behaves exactly as this one from here on. Call it
   * between writes, not from a reply or event callback. With
   * `historyTail`, only the newest that many history lines of the normal
   * buffer are in it (a frame's: `normal.trimmed` counts the others).
   */
  snapshot(historyTail = Infinity): TerminalSnapshot {
    return writeSnapshot(this.#s, this.#parser.saveState(), historyTail);
  }

  /**
   * A terminal in the state `snapshot` describes; `options` gives the
   * callbacks and caps (its size comes from the snapshot). Throws an Error
   * naming what is wrong when the snapshot is malformed.
   */
  static restore(
    snapshot: TerminalSnapshot,
    options: Omit<TerminalOptions, "cols" | "rows"> = {},
  ): Terminal {
    const { state, parser } = readSnapshot(snapshot);
    const term = new Terminal(
      { ...options, cols: state.cols, rows: state.rows },
      state,
    );
    term.#parser.restoreState(parser);
    term.#parser.vt52 = state.modes.vt52;
    return term;
  }

  /**
   * Become the terminal `snapshot` describes, in place (a window that
   * attaches to a session, or resyncs). The callbacks stay; the size and
   * everything else come from the snapshot. Throws, changing nothing, when
   * the snapshot is malformed. A view must redraw everything afterwards.
   */
  load(snapshot: TerminalSnapshot): void {
    const { state, parser } = readSnapshot(snapshot);
    this.#parser.restoreState(parser);
    this.#parser.vt52 = state.modes.vt52;
    this.#pending.length = 0;
    [this.#s, this.#t] = this.#wire(state);
  }

  /**
   * Put `lines` (whose last one is the line right before the oldest this
   * terminal's normal buffer holds, by absolute number: they end at
   * `end`) above its history, as many as its history limit leaves room
   * for, the newest of them first. Returns how many went in: none when
   * they do not join up (`end` is not the buffer's first line). The
   * caller checks that they have this terminal's width. `ext` is the table
   * their ids come from when it may not be this terminal's (the snapshot's,
   * `readSnapshotExt`: this terminal may have freed and reused ids since
   * it loaded it); they get this terminal's ids for the same entries.
   */
  prependHistory(lines: Line[], end: number, ext?: ExtTable): number {
    const buf = this.#s.normal.buffer;
    if (end !== buf.trimmed || lines.length === 0) return 0;
    const room = Math.max(0, buf.scrollback - buf.historyLength);
    const n = Math.min(room, lines.length);
    if (n === 0) return 0;
    const all = lines.slice(lines.length - n);
    if (ext !== undefined) remapExtIds(all, ext, this.#s.ext);
    for (let i = 0; i < buf.length; i++) all.push(buf.getLine(i));
    const s = this.#s;
    s.normal.buffer = Buffer.fromLines(
      buf.cols,
      buf.rows,
      buf.scrollback,
      false,
      all,
      end - n,
    );
    if (s.screen === s.normal) s.buf = s.normal.buffer;
    return n;
  }

  /**
   * Become the terminal a frame describes (a snapshot whose normal buffer
   * holds only its newest history lines, `snapshot(historyTail)`), keeping
   * the history lines this terminal already has that come right before
   * the frame's (same absolute numbers, same width; `keep` false when
   * they may have changed since: a grid change, a cleared history). The
   * lines in neither (a frame skipped them) are left out: the history then
   * starts at the frame's. Returns how many lines were kept.
   */
  loadFrame(snapshot: TerminalSnapshot, keep: boolean): number {
    const old = this.#s.normal.buffer;
    const oldCols = this.#s.cols;
    const { state, parser } = readSnapshot(snapshot);
    const kept = keep && oldCols === state.cols
      ? keptHistory(old, state.normal.buffer)
      : null;
    if (kept !== null) {
      // They carry this terminal's ids: give them the frame's.
      remapExtIds(kept.lines, this.#s.ext, state.ext);
      const buf = state.normal.buffer;
      for (let i = 0; i < buf.length; i++) kept.lines.push(buf.getLine(i));
      state.normal.buffer = Buffer.fromLines(
        buf.cols,
        buf.rows,
        buf.scrollback,
        false,
        kept.lines,
        kept.from,
      );
      if (state.screen === state.normal) state.buf = state.normal.buffer;
    }
    this.#parser.restoreState(parser);
    this.#parser.vt52 = state.modes.vt52;
    this.#pending.length = 0;
    [this.#s, this.#t] = this.#wire(state);
    return kept === null ? 0 : kept.count;
  }

  // ---------------------------------------------------------------- view

  /** Columns. */
  get cols(): number {
    return this.#s.cols;
  }
  /** Rows. */
  get rows(): number {
    return this.#s.rows;
  }
  /** The active buffer (normal or alternate). */
  get buffer(): Buffer {
    return this.#s.buf;
  }
  /** The normal buffer (history + screen), also while the alternate screen is shown. */
  get normalBuffer(): Buffer {
    return this.#s.normal.buffer;
  }
  /** Bytes of output not printed because nobody could see them (`skipHiddenOutput`). */
  get skippedOutput(): number {
    return this.#skipped;
  }
  #skipped = 0;
  /** Cursor column, 0-based. */
  get cursorX(): number {
    return this.#s.x;
  }
  /** Cursor row on the screen, 0-based. */
  get cursorY(): number {
    return this.#s.y;
  }
  /** True when the next printable character wraps to the next line first. */
  get wrapPending(): boolean {
    return this.#s.wrapPending;
  }
  /** DECTCEM (?25). */
  get cursorVisible(): boolean {
    return this.#s.modes.cursorVisible;
  }
  /** DECSCUSR shape. */
  get cursorStyle(): CursorStyle {
    return this.#s.cursorStyle;
  }
  /** DECSCUSR blink / ?12. */
  get cursorBlink(): boolean {
    return this.#s.modes.cursorBlink;
  }
  /** DECSCNM (?5). */
  get reverseVideo(): boolean {
    return this.#s.modes.reverseVideo;
  }
  /** Window title (OSC 0 / 2). */
  get title(): string {
    return this.#s.title;
  }
  /** The current directory URL from OSC 7 ("" until a program sends one). */
  get cwd(): string {
    return this.#s.cwd;
  }
  /** Window name (OSC 30), "" for none. */
  get windowName(): string {
    return this.#s.windowName;
  }
  /** The OSC 9 ; 4 progress (state 0: none). */
  get progress(): { state: 0 | 1 | 2 | 3 | 4; percent: number } {
    return { ...this.#s.progress };
  }
  /** Icon title (OSC 0 / 1). */
  get iconTitle(): string {
    return this.#s.iconTitle;
  }
  /**
   * All modes, including those the input side needs (`InputModes`). The
   * object is replaced only by RIS; read it again when "modes" fires.
   */
  get modes(): Modes {
    return this.#s.modes;
  }
  /**
   * The events generation (`element_events.ts`): a fragment is live while
   * `modes.elementEvents` is on and its `events` is this number.
   */
  get eventsGeneration(): number {
    return this.#s.embeds.eventsGen;
  }
  /** ?2026: while true the renderer should hold its frames. */
  get synchronizedOutput(): boolean {
    return this.#s.modes.synchronizedOutput;
  }
  /** Scroll region (DECSTBM), 0-based inclusive rows. */
  get scrollRegion(): { top: number; bottom: number } {
    return { top: this.#s.top, bottom: this.#s.bottom };
  }
  /** Left/right margins (DECSLRM), 0-based inclusive columns. */
  get margins(): { left: number; right: number } {
    return { left: this.#s.left, right: this.#s.right };
  }

  /**
   * Sizes of the emulator's internal tables, to check that they stay
   * bounded: title stack entries, extended-style ids (the highest handed
   * out; the entries held; sweeps run), XTSAVE entries, writes queued from
   * callbacks, bytes the parser holds.
   */
  get stats(): {
    titleStack: number;
    extStyles: number;
    extLive: number;
    extSweeps: number;
    savedModes: number;
    pendingWrites: number;
    parserBytes: number;
  } {
    return {
      titleStack: this.#s.titleStack.length,
      extStyles: this.#s.ext.size,
      extLive: this.#s.ext.live,
      extSweeps: this.#s.ext.sweeps,
      savedModes: this.#s.savedModes.size,
      pendingWrites: this.#pending.length,
      parserBytes: this.#parser.retainedBytes,
    };
  }

  /** Extended style `id` (underline colour, hyperlink). */
  ext(id: number): ExtStyle {
    return this.#s.ext.get(id);
  }
  /** Palette colour `index` as "#rrggbb" if a program set it (OSC 4), else null. */
  paletteOverride(index: number): string | null {
    return this.#s.colors.palette.get(index) ?? null;
  }
  /**
   * Default foreground (0), background (1) or cursor (2) colour as
   * "#rrggbb" if a program set it (OSC 10/11/12), else null.
   */
  dynamicColorOverride(which: 0 | 1 | 2): string | null {
    return this.#s.colors.dynamic[which] ?? null;
  }
  /** Whether `line` changed since its damage was last reset (damage.ts). */
  isDamaged(line: Line): boolean {
    return lineDamaged(line);
  }
  /** `line` was drawn as it is now: reset its damage (damage.ts). */
  resetDamage(line: Line): void {
    resetLineDamage(line);
  }

  // ---------------------------------------------------------------- API

  /**
   * Change the default colours (a theme): colour queries answer them
   * and OSC 104 / 110-119 / RIS go back to them from now on; colours a
   * program set stay. Missing or unparsable ones are left as they were.
   */
  setDefaultColors(colors: Partial<DefaultColors>): void {
    this.#defaultColors = withDefaultColors(this.#defaultColors, colors);
    this.#s.colors.defaults = this.#defaultColors;
    this.#emit({ type: "modes" });
  }
  /**
   * Turn the element-event mode (?7101) off, as `CSI ? 7101 l` would,
   * without parsing anything: the server's `eventsOff` (the program that
   * set it left the foreground) reaches every copy of the model at one
   * point of the stream.
   */
  stopElementEvents(): void {
    setElementEvents(this.#t, false);
  }
  /** The default colours ("#rrggbb"; `palette` has 256 entries). */
  get defaultColors(): DefaultColors {
    return this.#defaultColors;
  }

  /** Feed program output. Strings are UTF-8 encoded first. Never throws. */
  write(data: Uint8Array | string): void {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    if (this.#writing) {
      // Called from a reply or event callback: finish the current input first.
      this.#pending.push(bytes.slice());
      return;
    }
    this.#writing = true;
    try {
      this.#feed(bytes);
      while (this.#pending.length > 0) this.#feed(this.#pending.shift()!);
    } finally {
      this.#writing = false;
    }
  }

  #writing = false;
  #pending: Uint8Array[] = [];

  #feed(bytes: Uint8Array): void {
    try {
      if (this.#options.skipHiddenOutput) {
        if (!this.#parser.betweenCharacters) {
          // The last write ended inside a character or a sequence (a read
          // cuts anywhere): parse up to the next line feed first.
          const lf = bytes.indexOf(0x0a);
          if (lf >= 0 && lf + 1 < bytes.length) {
            this.#parser.feed(bytes.subarray(0, lf + 1));
            bytes = bytes.subarray(lf + 1);
          }
        }
        bytes = this.#skipHidden(bytes);
      }
      this.#parser.feed(bytes);
    } catch {
      // The parser reports handler errors through onError; this is a last resort.
    }
    this.#repair();
  }

  /**
   * Parse the part of `bytes` that `planHiddenOutput` finds unseen as its
   * plan says, and return the rest. Returns `bytes` as they are unless
   * the state is one the plan assumes.
   */
  #skipHidden(bytes: Uint8Array): Uint8Array {
    const s = this.#s;
    const buf = s.buf;
    // An unlimited scrollback makes `keep` Infinity: it never skips.
    const keep = buf.scrollback + s.rows + 1;
    if (
      bytes.length <= keep || buf.isAlt ||
      !this.#parser.betweenCharacters || s.modes.vt52 || s.modes.insert ||
      s.modes.leftRightMargins || s.pretty !== null || s.joinNext ||
      s.charsets.active || s.link !== null || s.top !== 0 ||
      s.bottom !== s.rows - 1
    ) return bytes;
    for (let y = s.y; y < s.rows; y++) {
      const line = buf.screenLine(y);
      if (line.size !== LINE_SINGLE || line.extras !== null) return bytes;
    }
    const plan = planHiddenOutput(
      bytes,
      s.x,
      s.wrapPending,
      s.cols,
      s.modes.autowrap,
      s.modes.newlineMode,
      keep,
      s.modes.graphemes,
    );
    if (plan === null) return bytes;
    for (let k = 0; k < plan.count; k++) {
      const from = plan.from[k], to = plan.to[k];
      if (to > from) {
        const replay = sgrReplay(
          bytes,
          from,
          to,
          s.pen.underlineColor !== 0,
          plan.underline,
        );
        if (replay.length > 0) this.#parser.feed(replay);
        // The line feeds and wraps: down to the bottom row, then scrolling
        // (the region is the whole screen). The lines they scroll in leave
        // the history before the write ends, so their background does not
        // matter.
        const rows = plan.rowsDown[k];
        const down = Math.min(rows, s.rows - 1 - s.y);
        s.y += down;
        buf.scrollUpLines(rows - down, s.pen.bg);
        s.x = plan.x[k];
        s.wrapPending = false;
        if (plan.lastChar[k] >= 0) s.lastChar = plan.lastChar[k];
        this.#skipped += to - from;
      }
      if (k + 1 < plan.count) {
        // Lines the plan does not follow: printed (their rows leave too).
        const next = plan.from[k + 1];
        this.#parser.feed(bytes.subarray(to, next));
        if (
          s.x !== 0 || s.wrapPending || s.joinNext ||
          !this.#parser.betweenCharacters
        ) return bytes.subarray(next);
      }
    }
    return bytes.subarray(plan.end);
  }

  /**
   * Change the size. A width change reflows the normal buffer, history
   * included (the alternate screen is truncated or extended); the cursor
   * and the saved cursors stay on the same character. Fewer rows push top
   * lines into history (blank lines below the cursor go first), more rows
   * pull lines back from history. Margins are reset. See `Buffer.resize`.
   */
  resize(cols: number, rows: number): void {
    const s = this.#s;
    cols = clampDim(cols, MAX_COLS);
    rows = clampDim(rows, MAX_ROWS);
    if (cols === s.cols && rows === s.rows) return;
    const active = s.screen;
    const other = active === s.normal ? s.alt : s.normal;
    const cursor = { x: s.x, y: s.y, wrapPending: s.wrapPending };
    active.buffer.resize(
      cols,
      rows,
      cursor,
      active.saved ? [active.saved] : [],
    );
    // The inactive buffer's cursor is the one saved for it, if any.
    const otherSaved = other.saved ??
      { x: 0, y: s.rows - 1, wrapPending: false };
    other.buffer.resize(cols, rows, otherSaved);
    s.cols = cols;
    s.rows = rows;
    s.x = cursor.x;
    s.y = cursor.y;
    s.wrapPending = cursor.wrapPending && s.modes.autowrap;
    resetMargins(s);
    s.tabs.resize(cols);
    this.#emit({ type: "resize", cols, rows });
  }

  /** Cell size in pixels, for the `CSI 14 t` / `CSI 16 t` reports (default 8x16). */
  setCellSize(width: number, height: number): void {
    if (Number.isFinite(width) && width > 0) {
      this.#s.cellWidth = Math.min(width, 1000);
    }
    if (Number.isFinite(height) && height > 0) {
      this.#s.cellHeight = Math.min(height, 1000);
    }
  }

  /**
   * The answer to an OSC 52 clipboard query (a `clipboard-read` event) for
   * `selection` with `text`, in the reply form the terminal is in (8-bit
   * introducers after S8C1T). A window sends it to the program as input.
   */
  clipboardReply(selection: string, text: string): string {
    return clipboardReadReply(selection, text, this.#s.modes.c1Replies);
  }

  /**
   * Whether programs may read the titles back (XTWINOPS 20 and 21; on by
   * default). Off, those queries get no answer.
   */
  setTitleReports(on: boolean): void {
    this.#titleReports = on;
    this.#t.titleReports = on;
  }

  /**
   * Counts shell-integration marks added (OSC 133 etc.): a view re-derives
   * command groups (`core/model/command_groups.ts`) when it changes.
   */
  get marksVersion(): number {
    return this.#s.marksVersion;
  }

  /** What `pretty_print.ts` acts on. */
  #prettyHost(s: TerminalState): PrettyHost {
    return {
      get document(): PrettyDocument | null {
        return s.pretty;
      },
      set document(d: PrettyDocument | null) {
        s.pretty = d;
      },
      style: () => ({ fg: s.pen.fg, bg: s.pen.bg, attr: s.attr }),
      cols: () => s.cols,
      cursorX: () => s.x,
      print: (rows, block) => {
        const pen = s.pen;
        const saved = [pen.fg, pen.bg, s.attr];
        // The row the block starts on keeps the document, so that reflow
        // can lay it out again at a new width (normal buffer only).
        const first = block && !s.wrapPending && !s.buf.isAlt
          ? s.buf.screenLine(s.y)
          : null;
        for (let r = 0; r < rows.length; r++) {
          if (r > 0) newline(s);
          for (const seg of rows[r]) {
            const codes = Uint32Array.from(seg.text, (c) => c.codePointAt(0)!);
            pen.fg = seg.style.fg;
            pen.bg = seg.style.bg;
            s.attr = seg.style.attr;
            this.#print(codes, 0, codes.length);
          }
        }
        [pen.fg, pen.bg, s.attr] = saved;
        if (first && block) {
          (first.extras ??= {}).pretty = prettyRecord(block, s.cols);
        }
      },
    };
  }

  /** Text inside a pretty-printed block goes into the document. */
  #collectPretty(codes: Uint32Array, start: number, end: number): void {
    const host = this.#t.pretty;
    let text = "";
    for (let i = start; i < end; i++) text += String.fromCodePoint(codes[i]);
    host.document!.text(text, host.style());
    if (host.document!.full) flushPretty(host);
  }

  /** What `shell_marks.ts` acts on. */
  #marksHost(s: TerminalState): ShellMarksHost {
    return {
      cursorLine: () => cursorLine(s),
      linesBelowCursor: () => {
        const below: Line[] = [];
        for (let y = s.y + 1; y < s.rows; y++) below.push(s.buf.screenLine(y));
        return below;
      },
      cursorX: () => s.x,
      freshLine: () => {
        // A line holding only an embed is not empty either.
        if (
          s.x !== lineStart(s) || s.wrapPending ||
          hasEmbeds(cursorLine(s).extras)
        ) newline(s);
      },
      setErrorOutput: (on) => {
        s.errorOutput = on ? A_ERROR : 0;
        updateAttr(s);
      },
      marksChanged: () => s.marksVersion++,
    };
  }

  // ---------------------------------------------------------------- helpers

  #emit(e: TerminalEvent): void {
    try {
      this.#onEvent(e);
    } catch {
      // A listener's error must not break the emulator.
    }
  }

  #send(data: string): void {
    if (this.#s.modes.c1Replies) data = toC1(data);
    try {
      this.#reply(data);
    } catch {
      // ignored, as above
    }
  }

  /** Restore the invariants (cursor and margins inside the screen). */
  #repair(): void {
    const s = this.#s;
    const cols = s.cols, rows = s.rows;
    if (!(s.x >= 0 && s.x < cols)) {
      s.x = Math.max(0, Math.min(cols - 1, s.x | 0));
    }
    if (!(s.y >= 0 && s.y < rows)) {
      s.y = Math.max(0, Math.min(rows - 1, s.y | 0));
    }
    if (!(s.top >= 0 && s.top <= s.bottom && s.bottom < rows)) {
      s.top = 0;
      s.bottom = rows - 1;
    }
    if (!(s.left >= 0 && s.left <= s.right && s.right < cols)) {
      s.left = 0;
      s.right = cols - 1;
    }
  }

  // ---------------------------------------------------------------- printing

  #print(codes: Uint32Array, start: number, end: number): void {
    const s = this.#s;
    if (s.pretty) return this.#collectPretty(codes, start, end);
    print(s, codes, start, end);
  }

  // ---------------------------------------------------------------- dispatch

  #execute(code: number): void {
    const s = this.#s;
    s.joinNext = false;
    if (s.pretty !== null && (code === 0x0a || code === 0x0d)) {
      // Inside a pretty-printed block a newline is a required one.
      if (code === 0x0a) prettyOsc(this.#t.pretty, 118, "");
      return;
    }
    // LF and CR end every line of text: called directly, as part of the
    // print path (through the table the call could not be inlined).
    if (code === 0x0a) return lineFeed(s);
    if (code === 0x0d) return carriageReturn(s);
    controlHandler(code)?.(this.#t);
  }

  #esc(intermediates: string, final: number): void {
    const s = this.#s;
    s.joinNext = false;
    // Reverse index scrolls regions in full-screen programs: called
    // directly, as LF is (see #csi).
    if (final === 0x4d && intermediates === "") return reverseIndex(s);
    escHandler(intermediates, final)?.(this.#t, final, intermediates);
  }

  #csi(
    prefix: string,
    params: Params,
    intermediates: string,
    final: number,
  ): void {
    const t = this.#t;
    t.s.joinNext = false;
    if (prefix === "" && intermediates === "") {
      // The commonest sequences of full-screen programs are called
      // directly: through the table the call site sees every handler and
      // V8 cannot inline it (measured with bench/core_ab.ts: `cursor` and
      // `region` were 5-9% slower than the switch this table replaced).
      // They are registered in sequences.ts like every other.
      switch (final) {
        case 0x6d: // m
          return sgr(t, params);
        case 0x48: // H
          return cup(t, params);
        case 0x4b: // K
          return el(t, params);
        case 0x4c: // L
          return il(t, params);
        case 0x4d: // M
          return dl(t, params);
      }
    }
    csiHandler(prefix, intermediates, final)?.(t, params);
  }

  #oscDispatch(data: string, bel: boolean): void {
    const t = this.#t;
    t.s.joinNext = false;
    const parsed = splitOsc(data);
    if (parsed === null) return;
    const [code, args] = parsed;
    if (
      code >= 110 && code <= 118 &&
      isPrettyPrintOsc(code, args, data.includes(";"), t.s.pretty !== null)
    ) {
      return prettyOsc(t.pretty, code, args);
    }
    t.oscBel = bel;
    try {
      this.#oscHandler(code)?.(t, args);
    } finally {
      t.oscBel = false;
    }
  }

  #dcs(
    prefix: string,
    params: Params,
    intermediates: string,
    final: number,
    payload: Uint8Array,
  ): void {
    this.#s.joinNext = false;
    dcsHandler(prefix, intermediates, final)?.(this.#t, params, payload);
  }
}

/**
 * The history lines of `old` right before `frame`'s first line (by
 * absolute number), as many as `frame`'s history limit leaves room for;
 * null when `old`'s history does not reach that line (a gap) or holds
 * nothing before it.
 */
function keptHistory(
  old: Buffer,
  frame: Buffer,
): { lines: Line[]; from: number; count: number } | null {
  const start = frame.trimmed;
  const oldEnd = old.trimmed + old.historyLength;
  if (oldEnd < start || old.trimmed >= start) return null;
  const room = Math.max(0, frame.scrollback - frame.historyLength);
  const from = Math.max(old.trimmed, start - room);
  if (from >= start) return null;
  const lines: Line[] = [];
  for (let abs = from; abs < start; abs++) {
    lines.push(old.getLine(abs - old.trimmed));
  }
  return { lines, from, count: start - from };
}
