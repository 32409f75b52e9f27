/**
 * The terminal emulator: bytes in (through the parser), model changes and
 * replies out. Pure and synchronous: no Deno.*, no DOM.
 *
 * xterm semantics (ctlseqs). The change feed: every modified {@link Line}
 * gets `dirty = true`; title, bell, modes, buffer switches and resizes are
 * reported through `onEvent`.
 *
 * @module
 */
import { Parser } from "../parser/parser.ts";
import type { Params, ParserHandler } from "../parser/handler.ts";
import {
  A_CLUSTER,
  A_ERROR,
  A_GLYPH_MASK,
  A_PROTECTED,
  A_WIDE,
  A_WIDE_TAIL,
  ATTR,
  BG,
  CELL_STRIDE,
  CODE,
  FG,
} from "../model/cell.ts";
import { Buffer, DEFAULT_SCROLLBACK } from "../model/buffer.ts";
import type { Line, LineSize } from "../model/line.ts";
import {
  deleteCells,
  eraseCells,
  insertCells,
  selectiveEraseCells,
  splitWideAt,
} from "../model/line_ops.ts";
import type {
  CursorStyle,
  ExtStyle,
  TerminalEvent,
  TerminalView,
} from "../terminal_view.ts";
import {
  BMP_UNKNOWN,
  BMP_WIDTH,
  charWidth,
  fillBmpWidth,
  hasEmojiPresentationWithVs16,
  isEmojiModifier,
  isEmojiModifierBase,
  isRegionalIndicator,
  VS16,
  ZWJ,
} from "../unicode/width.ts";
import {
  charset96ForFinal,
  charsetForFinal,
  CharsetState,
} from "./charsets.ts";
import { ColorOverrides } from "./colors.ts";
import { ExtTable } from "./ext_table.ts";
import { KittyKeyboard } from "./kitty_keyboard.ts";
import {
  ansiModeReport,
  DEC_FLAG_MODES,
  decModeReport,
  Modes,
} from "./modes.ts";
import { type OscHandler, splitOsc, standardOscHandlers } from "./osc.ts";
import { HtmlEmbeds } from "./html_embed.ts";
import { parseITermFile, sixelImage } from "./images.ts";
import {
  csiReply,
  DA1_REPLY,
  DA2_REPLY,
  DA3_REPLY,
  dcsReply,
  decrqssReply,
  oscReply,
  STATUS_OK_REPLY,
  XTVERSION_REPLY,
} from "./replies.ts";
import {
  changeAttributes,
  checksumRect,
  copyRect,
  eraseRect,
  fillRect,
  type Rect,
  reverseAttributes,
  selectiveEraseRect,
} from "./rect_ops.ts";
import {
  domtermCsiU,
  type ShellMarksHost,
  shellOscHandlers,
} from "./shell_marks.ts";
import {
  flush as flushPretty,
  isPrettyPrintOsc,
  type PrettyDocument,
  type PrettyHost,
  prettyOsc,
  prettyRecord,
} from "./pretty_print.ts";
import { applySgr, defaultPen, type Pen, penToSgr } from "./sgr.ts";
import { TabStops } from "./tabs.ts";

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
}

/** Largest accepted number of columns. */
export const MAX_COLS = 4096;
/** Largest accepted number of rows. */
export const MAX_ROWS = 2048;
/** Grapheme clusters stop growing at this many UTF-16 code units. */
export const MAX_CLUSTER_LENGTH = 32;
/** Depth of the title stack (`CSI 22 t`). */
export const TITLE_STACK_DEPTH = 10;

/** Cursor state saved by DECSC (and ?1048, ?1049, SCOSC). */
interface SavedCursor {
  x: number;
  y: number;
  wrapPending: boolean;
  pen: Pen;
  link: string | null;
  linkId: string;
  origin: boolean;
  charsets: CharsetState;
}

interface TitleEntry {
  icon: string | null;
  title: string | null;
}

const encoder = new TextEncoder();

/** The last code point of a non-empty string. */
function lastCodePoint(s: string): number {
  const n = s.length;
  const lo = s.charCodeAt(n - 1);
  return n > 1 && lo >= 0xdc00 && lo <= 0xdfff ? s.codePointAt(n - 2)! : lo;
}

function clampDim(n: number, max: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.min(max, Math.floor(n))) : 1;
}

/** A count parameter: missing or 0 means 1. */
function count(params: Params, i: number): number {
  const v = params.get(i, 1);
  return v === 0 ? 1 : v;
}

/** The xterm-compatible terminal emulator. */
export class Terminal implements TerminalView {
  #cols: number;
  #rows: number;
  #normal: Buffer;
  #alt: Buffer;
  #buf: Buffer;

  #x = 0;
  #y = 0;
  /** xterm's "last column flag": the next printable wraps first. */
  #wrapPending = false;

  #pen: Pen = defaultPen();
  /** The ATTR word written into cells: pen flags | ext id << 16. */
  #attr = 0;
  #link: string | null = null;
  #linkId = "";
  #ext = new ExtTable();

  #top = 0;
  #bottom: number;
  #left = 0;
  #right: number;

  #modes = new Modes();
  #charsets = new CharsetState();
  #tabs: TabStops;
  #colors = new ColorOverrides();
  #cursorStyle: CursorStyle = "block";
  #title = "";
  #iconTitle = "";
  #cwd = "";
  #titleStack: TitleEntry[] = [];
  #kitty = new KittyKeyboard();
  #savedPrivateModes = new Map<number, boolean>();

  /** The last printed character, for REP. */
  #lastChar = 0;
  /** The previous printable was a ZWJ: the next one joins its cluster. */
  #joinNext = false;

  #cellWidth = 8;
  #cellHeight = 16;

  #parser: Parser;
  #reply: (data: string) => void;
  #onEvent: (e: TerminalEvent) => void;
  #osc: Map<number, OscHandler>;
  /** OSC 72/721 HTML and images (html_embed.ts). */
  #embeds: HtmlEmbeds;
  /** A_ERROR while DomTerm's error output (`CSI 12 u`) is on, else 0. */
  #errorOutput = 0;
  #marksVersion = 0;
  /** DomTerm pretty-printing (OSC 110-118): the block being collected. */
  #pretty: PrettyHost | null = null;

  /** Create a terminal of `options.cols` x `options.rows` cells. */
  constructor(options: TerminalOptions) {
    this.#cols = clampDim(options.cols, MAX_COLS);
    this.#rows = clampDim(options.rows, MAX_ROWS);
    const scrollback = options.scrollback ?? DEFAULT_SCROLLBACK;
    this.#normal = new Buffer(this.#cols, this.#rows, scrollback, false);
    this.#alt = new Buffer(this.#cols, this.#rows, 0, true);
    this.#buf = this.#normal;
    this.#bottom = this.#rows - 1;
    this.#right = this.#cols - 1;
    this.#tabs = new TabStops(this.#cols);
    this.#reply = options.reply ?? (() => {});
    this.#onEvent = options.onEvent ?? (() => {});
    this.#osc = standardOscHandlers({
      setTitles: (icon, title) => this.#setTitles(icon, title),
      setLink: (uri, id) => this.#setLink(uri, id),
      colors: this.#colors,
      colorsChanged: () => this.#emit({ type: "modes" }),
      reply: (data) => this.#send(data),
      replyOsc: (body) =>
        this.#send(this.#oscBel ? `\x1b]${body}\x07` : oscReply(body)),
      setCwd: (url) => {
        this.#cwd = url;
        this.#emit({ type: "cwd", url });
      },
      emit: (e) => this.#emit(e),
    });
    this.#embeds = new HtmlEmbeds({
      buffer: () => this.#buf,
      cursorLine: () => this.#line(),
      cursorX: () => this.#x,
      cursorY: () => this.#y,
      rows: () => this.#rows,
      maxImageMemory: options.maxImageMemory,
      buffers: () => [this.#normal, this.#alt],
      maxHtmlMemory: options.maxHtmlMemory,
      newline: () => {
        this.#carriageReturn();
        this.#index();
      },
    });
    this.#osc.set(72, (a) => this.#embeds.osc72(a));
    this.#osc.set(721, (a) => this.#embeds.osc721(a));
    this.#osc.set(1337, (a) => {
      const f = parseITermFile(a);
      if ("image" in f) this.#embeds.insertImage(f.image);
    });
    const next1337 = this.#osc.get(1337);
    for (const [code, h] of shellOscHandlers(this.#marksHost(), next1337)) {
      this.#osc.set(code, h);
    }
    const handler: ParserHandler = {
      print: (codes, start, end) => this.#print(codes, start, end),
      execute: (code) => this.#execute(code),
      csi: (prefix, params, intermediates, final) =>
        this.#csi(prefix, params, intermediates, final),
      esc: (intermediates, final) => this.#esc(intermediates, final),
      osc: (data, bel) => this.#oscDispatch(data, bel),
      dcs: (prefix, params, intermediates, final, payload) =>
        this.#dcs(prefix, params, intermediates, final, payload),
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

  // ---------------------------------------------------------------- view

  /** Columns. */
  get cols(): number {
    return this.#cols;
  }
  /** Rows. */
  get rows(): number {
    return this.#rows;
  }
  /** The active buffer (normal or alternate). */
  get buffer(): Buffer {
    return this.#buf;
  }
  /** The normal buffer (history + screen), also while the alternate screen is shown. */
  get normalBuffer(): Buffer {
    return this.#normal;
  }
  /** Cursor column, 0-based. */
  get cursorX(): number {
    return this.#x;
  }
  /** Cursor row on the screen, 0-based. */
  get cursorY(): number {
    return this.#y;
  }
  /** True when the next printable character wraps to the next line first. */
  get wrapPending(): boolean {
    return this.#wrapPending;
  }
  /** DECTCEM (?25). */
  get cursorVisible(): boolean {
    return this.#modes.cursorVisible;
  }
  /** DECSCUSR shape. */
  get cursorStyle(): CursorStyle {
    return this.#cursorStyle;
  }
  /** DECSCUSR blink / ?12. */
  get cursorBlink(): boolean {
    return this.#modes.cursorBlink;
  }
  /** DECSCNM (?5). */
  get reverseVideo(): boolean {
    return this.#modes.reverseVideo;
  }
  /** Window title (OSC 0 / 2). */
  get title(): string {
    return this.#title;
  }
  /** The current directory URL from OSC 7 ("" until a program sends one). */
  get cwd(): string {
    return this.#cwd;
  }
  /** Icon title (OSC 0 / 1). */
  get iconTitle(): string {
    return this.#iconTitle;
  }
  /**
   * All modes, including those the input side needs (`InputModes`). The
   * object is replaced only by RIS; read it again when "modes" fires.
   */
  get modes(): Modes {
    return this.#modes;
  }
  /** ?2026: while true the renderer should hold its frames. */
  get synchronizedOutput(): boolean {
    return this.#modes.synchronizedOutput;
  }
  /** xterm modifyOtherKeys level (`CSI > 4 ; Pv m`): 0, 1 or 2. */
  get modifyOtherKeys(): number {
    return this.#modes.modifyOtherKeys;
  }
  /** Scroll region (DECSTBM), 0-based inclusive rows. */
  get scrollRegion(): { top: number; bottom: number } {
    return { top: this.#top, bottom: this.#bottom };
  }
  /** Left/right margins (DECSLRM), 0-based inclusive columns. */
  get margins(): { left: number; right: number } {
    return { left: this.#left, right: this.#right };
  }

  /**
   * Sizes of the emulator's internal tables, so tests can check they stay
   * bounded: title stack entries, extended-style entries, XTSAVE entries,
   * writes queued from callbacks, bytes the parser holds.
   */
  get stats(): {
    titleStack: number;
    extStyles: number;
    savedModes: number;
    pendingWrites: number;
    parserBytes: number;
  } {
    return {
      titleStack: this.#titleStack.length,
      extStyles: this.#ext.size,
      savedModes: this.#savedPrivateModes.size,
      pendingWrites: this.#pending.length,
      parserBytes: this.#parser.retainedBytes,
    };
  }

  /** Extended style `id` (underline colour, hyperlink). */
  ext(id: number): ExtStyle {
    return this.#ext.get(id);
  }
  /** Palette colour `index` as "#rrggbb" if a program set it (OSC 4), else null. */
  paletteOverride(index: number): string | null {
    return this.#colors.palette.get(index) ?? null;
  }
  /**
   * Default foreground (0), background (1) or cursor (2) colour as
   * "#rrggbb" if a program set it (OSC 10/11/12), else null.
   */
  dynamicColorOverride(which: 0 | 1 | 2): string | null {
    return this.#colors.dynamic[which] ?? null;
  }

  // ---------------------------------------------------------------- API

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
      this.#parser.feed(bytes);
    } catch {
      // The parser reports handler errors through onError; this is a last resort.
    }
    this.#repair();
  }

  /**
   * Change the size. A width change reflows the normal buffer, history
   * included (the alternate screen is truncated or extended); the cursor
   * and the saved cursors stay on the same character. Fewer rows push top
   * lines into history (blank lines below the cursor go first), more rows
   * pull lines back from history. Margins are reset. See `Buffer.resize`.
   */
  resize(cols: number, rows: number): void {
    cols = clampDim(cols, MAX_COLS);
    rows = clampDim(rows, MAX_ROWS);
    if (cols === this.#cols && rows === this.#rows) return;
    const active = this.#buf;
    const other = active === this.#normal ? this.#alt : this.#normal;
    const cursor = { x: this.#x, y: this.#y, wrapPending: this.#wrapPending };
    const activeSaved = this.#savedFor(active);
    active.resize(cols, rows, cursor, activeSaved ? [activeSaved] : []);
    // The inactive buffer's cursor is the one saved for it, if any.
    const otherSaved = this.#savedFor(other) ??
      { x: 0, y: this.#rows - 1, wrapPending: false };
    other.resize(cols, rows, otherSaved);
    this.#cols = cols;
    this.#rows = rows;
    this.#x = cursor.x;
    this.#y = cursor.y;
    this.#wrapPending = cursor.wrapPending && this.#modes.autowrap;
    this.#resetMargins();
    this.#tabs.resize(cols);
    this.#emit({ type: "resize", cols, rows });
  }

  /** RIS: full reset (history is kept; the screen is cleared). */
  reset(): void {
    this.#parser.reset();
    this.#fullReset();
  }

  /** RIS without touching the parser (ESC c arrives from inside it). */
  #fullReset(): void {
    const wasAlt = this.#buf.isAlt;
    this.#buf = this.#normal;
    this.#alt = new Buffer(this.#cols, this.#rows, 0, true);
    this.#normal.clearScreen(0);
    this.#modes = new Modes();
    this.#charsets.reset();
    this.#tabs.reset();
    this.#colors.reset();
    this.#pen = defaultPen();
    this.#link = null;
    this.#linkId = "";
    this.#errorOutput = 0;
    if (this.#pretty) this.#pretty.document = null;
    this.#updateAttr();
    this.#resetMargins();
    this.#x = 0;
    this.#y = 0;
    this.#wrapPending = false;
    this.#cursorStyle = "block";
    this.#titleStack = [];
    this.#kitty.reset();
    this.#savedPrivateModes.clear();
    this.#saved.clear();
    this.#saved.set(this.#normal, this.#homeCursor()); // xterm saves home
    this.#rectExtent = false;
    this.#lastChar = 0;
    this.#joinNext = false;
    if (wasAlt) this.#emit({ type: "buffer" });
    this.#emit({ type: "modes" });
  }

  /** Cell size in pixels, for the `CSI 14 t` / `CSI 16 t` reports (default 8x16). */
  setCellSize(width: number, height: number): void {
    if (Number.isFinite(width) && width > 0) {
      this.#cellWidth = Math.min(width, 1000);
    }
    if (Number.isFinite(height) && height > 0) {
      this.#cellHeight = Math.min(height, 1000);
    }
  }

  /**
   * Register (or with null remove) the handler of `OSC code ; args`. The
   * handler receives the text after "code;".
   */
  setOscHandler(code: number, handler: ((args: string) => void) | null): void {
    if (handler === null) this.#osc.delete(code);
    else this.#osc.set(code, handler);
  }

  /**
   * Counts shell-integration marks added (OSC 133 etc.): a view re-derives
   * command groups (`core/model/command_groups.ts`) when it changes.
   */
  get marksVersion(): number {
    return this.#marksVersion;
  }

  /** What `pretty_print.ts` acts on. */
  #prettyHost(): PrettyHost {
    if (this.#pretty) return this.#pretty;
    return this.#pretty = {
      document: null as PrettyDocument | null,
      style: () => ({
        fg: this.#pen.fg,
        bg: this.#pen.bg,
        attr: this.#attr,
      }),
      cols: () => this.#cols,
      cursorX: () => this.#x,
      print: (rows, block) => {
        const pen = this.#pen;
        const saved = [pen.fg, pen.bg, this.#attr];
        // The row the block starts on keeps the document, so that reflow
        // can lay it out again at a new width (normal buffer only).
        const first = block && !this.#wrapPending && !this.#buf.isAlt
          ? this.#buf.screenLine(this.#y)
          : null;
        for (let r = 0; r < rows.length; r++) {
          if (r > 0) {
            this.#carriageReturn();
            this.#index();
          }
          for (const seg of rows[r]) {
            const codes = Uint32Array.from(seg.text, (c) => c.codePointAt(0)!);
            pen.fg = seg.style.fg;
            pen.bg = seg.style.bg;
            this.#attr = seg.style.attr;
            this.#print(codes, 0, codes.length);
          }
        }
        [pen.fg, pen.bg, this.#attr] = saved;
        if (first && block) {
          (first.extras ??= {}).pretty = prettyRecord(block, this.#cols);
        }
      },
    };
  }

  /** Text inside a pretty-printed block goes into the document. */
  #collectPretty(codes: Uint32Array, start: number, end: number): void {
    const host = this.#pretty!;
    let s = "";
    for (let i = start; i < end; i++) s += String.fromCodePoint(codes[i]);
    host.document!.text(s, host.style());
    if (host.document!.full) flushPretty(host);
  }

  #shellHost: ShellMarksHost | null = null;

  /** What `shell_marks.ts` acts on. */
  #marksHost(): ShellMarksHost {
    return this.#shellHost ??= {
      cursorLine: () => this.#line(),
      linesBelowCursor: () => {
        const below: Line[] = [];
        for (let y = this.#y + 1; y < this.#rows; y++) {
          below.push(this.#buf.screenLine(y));
        }
        return below;
      },
      cursorX: () => this.#x,
      freshLine: () => {
        if (this.#x !== this.#lineStart() || this.#wrapPending) {
          this.#carriageReturn();
          this.#index();
        }
      },
      setErrorOutput: (on) => {
        this.#errorOutput = on ? A_ERROR : 0;
        this.#updateAttr();
      },
      marksChanged: () => this.#marksVersion++,
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
    try {
      this.#reply(data);
    } catch {
      // ignored, as above
    }
  }

  /** Restore the invariants (cursor and margins inside the screen). */
  #repair(): void {
    const cols = this.#cols, rows = this.#rows;
    if (!(this.#x >= 0 && this.#x < cols)) {
      this.#x = Math.max(0, Math.min(cols - 1, this.#x | 0));
    }
    if (!(this.#y >= 0 && this.#y < rows)) {
      this.#y = Math.max(0, Math.min(rows - 1, this.#y | 0));
    }
    if (!(this.#top >= 0 && this.#top <= this.#bottom && this.#bottom < rows)) {
      this.#top = 0;
      this.#bottom = rows - 1;
    }
    if (
      !(this.#left >= 0 && this.#left <= this.#right && this.#right < cols)
    ) {
      this.#left = 0;
      this.#right = cols - 1;
    }
  }

  #updateAttr(): void {
    const id = this.#ext.intern(
      this.#pen.underlineColor,
      this.#link,
      this.#linkId,
    );
    this.#attr = (this.#pen.flags & 0xffff & ~A_GLYPH_MASK) |
      this.#errorOutput | (id << 16);
  }

  #setTitles(icon: string | null, title: string | null): void {
    if (icon !== null) this.#iconTitle = icon;
    if (title !== null && title !== this.#title) {
      this.#title = title;
      this.#emit({ type: "title", title });
    }
  }

  #setLink(uri: string | null, id: string): void {
    this.#link = uri;
    this.#linkId = uri === null ? "" : id;
    this.#updateAttr();
  }

  #resetMargins(): void {
    this.#top = 0;
    this.#bottom = this.#rows - 1;
    this.#left = 0;
    this.#right = this.#cols - 1;
  }

  #line(): Line {
    return this.#buf.screenLine(this.#y);
  }

  /** The column where CR goes: the left margin, or 0 when left of it. */
  #lineStart(): number {
    return this.#x >= this.#left ? this.#left : 0;
  }

  /** True when the cursor column is inside the left/right margins. */
  #inHorizontalMargins(): boolean {
    return this.#x >= this.#left && this.#x <= this.#right;
  }

  /**
   * The end (exclusive) of the cells the cursor may use on `line` from
   * column x: the right margin, or the screen edge when right of it; on a
   * double-size line only the first half of the cells (as xterm). Moves the
   * cursor into that half first.
   */
  #printLimit(line: Line): number {
    const x = this.#x;
    const limit = x <= this.#right ? this.#right + 1 : this.#cols;
    if (line.size === 0) return limit;
    const half = Math.max(1, this.#cols >> 1);
    if (x >= half) this.#x = half - 1;
    return Math.min(limit, half);
  }

  /** The last column the cursor may reach on the cursor line (`right` normally). */
  #lastColumn(right: number): number {
    return this.#line().size === 0
      ? right
      : Math.min(right, Math.max(1, this.#cols >> 1) - 1);
  }

  /** DECSWL / DECDWL / DECDHL (`ESC # 5/6/3/4`) and DECALN (`ESC # 8`). */
  #lineSize(final: number): void {
    let size: LineSize;
    switch (final) {
      case 0x38:
        this.#screenAlignment();
        return;
      case 0x33:
        size = 2;
        break;
      case 0x34:
        size = 3;
        break;
      case 0x35:
        size = 0;
        break;
      case 0x36:
        size = 1;
        break;
      default:
        return;
    }
    const line = this.#line();
    if (line.size !== size) {
      line.size = size;
      line.dirty = true;
    }
    if (size !== 0) {
      const last = Math.max(1, this.#cols >> 1) - 1;
      if (this.#x > last) {
        this.#x = last;
        this.#wrapPending = false;
      }
    }
  }

  // ---------------------------------------------------------------- printing

  #print(codes: Uint32Array, start: number, end: number): void {
    if (this.#pretty?.document) return this.#collectPretty(codes, start, end);
    // Modes and charsets are not replaced while printing: read them once.
    const modes = this.#modes;
    const charsets = this.#charsets;
    let i = start;
    while (i < end) {
      const cp = codes[i];
      if (this.#joinNext || modes.insert || charsets.active) {
        this.#printChar(charsets.active ? charsets.translate(cp) : cp);
        i++;
      } else if (cp >= 0x20 && cp < 0x7f) {
        i = this.#printAsciiRun(codes, i, end);
      } else {
        i = this.#printRun(codes, i, end);
      }
    }
  }

  /**
   * The hot path: a run of printable ASCII with replace mode and no charset
   * translation, written straight into the line's cell array.
   */
  #printAsciiRun(codes: Uint32Array, i: number, end: number): number {
    const modes = this.#modes;
    if (this.#wrapPending) {
      if (modes.autowrap) this.#wrap();
      this.#wrapPending = false;
    }
    const line = this.#buf.screenLine(this.#y);
    const limit = this.#printLimit(line);
    let x = this.#x;
    const x0 = x;
    const d = line.data;
    if ((d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) splitWideAt(line, x);
    const fg = this.#pen.fg, bg = this.#pen.bg, attr = this.#attr;
    let j = x * CELL_STRIDE;
    let oldAttrs = 0; // as in #printRun: skip the cluster map when we can
    while (i < end && x < limit) {
      const c = codes[i];
      if (c < 0x20 || c >= 0x7f) break;
      oldAttrs |= d[j + 3];
      d[j] = c;
      d[j + 1] = fg;
      d[j + 2] = bg;
      d[j + 3] = attr;
      j += CELL_STRIDE;
      x++;
      i++;
    }
    const clusters = line.clusters;
    if (clusters !== null && (oldAttrs & A_CLUSTER) !== 0) {
      for (let k = x0; k < x; k++) clusters.delete(k);
    }
    if (x < this.#cols && (d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) {
      // The head of this wide character was overwritten: blank its tail.
      d[x * CELL_STRIDE + CODE] = 0;
      d[x * CELL_STRIDE + ATTR] &= ~A_GLYPH_MASK;
    }
    line.dirty = true;
    this.#lastChar = codes[i - 1];
    if (x >= limit) {
      x = limit - 1;
      if (modes.autowrap) {
        this.#wrapPending = true;
      } else {
        // No autowrap: the rest of the run overwrites the last column.
        const k = x * CELL_STRIDE;
        while (i < end) {
          const c = codes[i];
          if (c < 0x20 || c >= 0x7f) break;
          d[k] = c;
          this.#lastChar = c;
          i++;
        }
      }
    }
    this.#x = x;
    return i;
  }

  /**
   * The hot path for other text (CJK, emoji, Latin-1): a run of width-1 and
   * width-2 characters in replace mode with no charset translation, written
   * straight into the line's cell array. It stops at anything that may join
   * the previous cell (zero-width characters, skin-tone modifiers, regional
   * indicators), at a wide character that does not fit before the margin and
   * at the margin itself; {@link #printChar} handles those, so the result is
   * exactly what printing one character at a time gives. Always consumes at
   * least one code point.
   */
  #printRun(codes: Uint32Array, i: number, end: number): number {
    if (this.#wrapPending) {
      // The first character may be a combining mark for the cell at the
      // margin, or it wraps: the general path knows both.
      this.#printChar(codes[i]);
      return i + 1;
    }
    const i0 = i;
    const line = this.#buf.screenLine(this.#y);
    const limit = this.#printLimit(line);
    let x = this.#x;
    const x0 = x;
    const d = line.data;
    const startsOnTail = (d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0;
    const fg = this.#pen.fg, bg = this.#pen.bg, attr = this.#attr;
    const attrWide = attr | A_WIDE, attrTail = attr | A_WIDE_TAIL;
    let j = x * CELL_STRIDE;
    let last = 0;
    let oldAttrs = 0;
    // Cells [xc, x) may still need their old cluster text deleted.
    let xc = x0;
    // The cell of the last character written, for combining marks.
    let head = -1;
    while (i < end && x < limit) {
      const c = codes[i];
      let w: number;
      if (c < 0x10000) {
        w = BMP_WIDTH[c];
        if (w === BMP_UNKNOWN) w = fillBmpWidth(c);
      } else if (c >= 0x1f1e6 && c <= 0x1f1ff) {
        // Regional indicator. A lone one before the run may pair with it:
        // the general path. Within the run no lone one is left (they are
        // never written here), so a pair is a new 2-cell flag.
        if (head < 0 && this.#loneRegionalIndicatorBefore(line, x)) break;
        if (i + 1 >= end || x + 1 >= limit) break;
        const n = codes[i + 1];
        if (n < 0x1f1e6 || n > 0x1f1ff) break;
        head = x;
        oldAttrs |= d[j + 3] | d[j + 7];
        d[j] = c;
        d[j + 1] = fg;
        d[j + 2] = bg;
        d[j + 3] = attrWide;
        d[j + 4] = 0;
        d[j + 5] = fg;
        d[j + 6] = bg;
        d[j + 7] = attrTail;
        j += 2 * CELL_STRIDE;
        x += 2;
        // Old cluster text goes before the new one is set.
        if ((oldAttrs & A_CLUSTER) !== 0) {
          for (let k = xc; k < x; k++) line.clusters?.delete(k);
          oldAttrs = 0;
        }
        xc = x;
        line.setCluster(head, String.fromCodePoint(c, n));
        last = c;
        i += 2;
        continue;
      } else {
        w = charWidth(c);
        // A skin-tone modifier joins an emoji modifier base (#joinRun
        // checks); otherwise it is printed as a wide character.
        if (c >= 0x1f3fb && c <= 0x1f3ff) w = 0;
      }
      // Collect the old attributes to learn whether any overwritten cell
      // had cluster text (Map.delete per cell is costly).
      if (w === 1) {
        head = x;
        oldAttrs |= d[j + 3];
        d[j] = c;
        d[j + 1] = fg;
        d[j + 2] = bg;
        d[j + 3] = attr;
        j += CELL_STRIDE;
        x++;
      } else if (w === 2 && x + 1 < limit) {
        head = x;
        oldAttrs |= d[j + 3] | d[j + 7];
        d[j] = c;
        d[j + 1] = fg;
        d[j + 2] = bg;
        d[j + 3] = attrWide;
        d[j + 4] = 0;
        d[j + 5] = fg;
        d[j + 6] = bg;
        d[j + 7] = attrTail;
        j += 2 * CELL_STRIDE;
        x += 2;
      } else if (w === 0 && c >= 0xa0) {
        // Combining marks, VS16, skin tones and ZWJ sequences join the last
        // character of this run or, at its start, the cell before the
        // cursor (#clusterTarget: no wrap is pending here).
        if (head < 0) {
          if (x === 0) break;
          head = (d[j - CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0 && x > 1
            ? x - 2
            : x - 1;
          if (d[head * CELL_STRIDE + CODE] === 0) break;
        }
        if (
          c === VS16 && head === x - 1 && head >= x0 &&
          (d[j - CELL_STRIDE + ATTR] & A_CLUSTER) === 0 &&
          hasEmojiPresentationWithVs16(d[j - CELL_STRIDE + CODE])
        ) {
          // Emoji presentation: the narrow head (just written, so cell x
          // is before the margin) becomes wide, as #widenCluster does.
          d[j - CELL_STRIDE + ATTR] |= A_WIDE;
          oldAttrs |= d[j + 3];
          d[j] = 0;
          d[j + 1] = fg;
          d[j + 2] = bg;
          d[j + 3] = attrTail;
          j += CELL_STRIDE;
          x++;
        }
        if ((oldAttrs & A_CLUSTER) !== 0) {
          for (let k = xc; k < x; k++) line.clusters?.delete(k);
          oldAttrs = 0;
        }
        xc = x;
        const k = this.#joinRun(line, head, codes, i, end);
        if (k === i) {
          if (c < 0x1f3fb || c > 0x1f3ff || x + 1 >= limit) break;
          // A skin-tone modifier that joins nothing: a wide character.
          head = x;
          oldAttrs |= d[j + 3] | d[j + 7];
          d[j] = c;
          d[j + 1] = fg;
          d[j + 2] = bg;
          d[j + 3] = attrWide;
          d[j + 4] = 0;
          d[j + 5] = fg;
          d[j + 6] = bg;
          d[j + 7] = attrTail;
          j += 2 * CELL_STRIDE;
          x += 2;
          last = c;
          i++;
          continue;
        }
        i = k;
        continue;
      } else {
        break; // zero width, or a wide character that must wrap
      }
      last = c;
      i++;
    }
    if (i === i0) {
      this.#printChar(codes[i]);
      return i + 1;
    }
    if (x === x0) return i; // only joined: no cell written
    if (startsOnTail && x0 > 0) {
      // The tail of a wide character was overwritten: blank its head.
      const h = (x0 - 1) * CELL_STRIDE;
      d[h + CODE] = 0;
      d[h + ATTR] &= ~A_GLYPH_MASK;
      line.clusters?.delete(x0 - 1);
    }
    const clusters = line.clusters;
    if (clusters !== null && (oldAttrs & A_CLUSTER) !== 0) {
      for (let k = xc; k < x; k++) clusters.delete(k);
    }
    if (x < this.#cols && (d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) {
      // The head of this wide character was overwritten: blank its tail.
      d[x * CELL_STRIDE + CODE] = 0;
      d[x * CELL_STRIDE + ATTR] &= ~A_GLYPH_MASK;
    }
    line.dirty = true;
    this.#lastChar = last;
    if (x >= limit) {
      this.#x = limit - 1;
      if (this.#modes.autowrap) this.#wrapPending = true;
    } else {
      this.#x = x;
    }
    return i;
  }

  /**
   * For {@link #printRun}: append the zero-width characters at `codes[i..]`
   * (and each character a ZWJ joins) to the cluster of cell `head`, building
   * the text once instead of once per code point. Returns the index after
   * the last one joined. It stops where {@link #appendToCluster} would do
   * more than append (VS16 that may widen the cell, a ZWJ whose partner is
   * in the next chunk, a cluster near MAX_CLUSTER_LENGTH): the general path
   * then takes over, so the result is the same.
   */
  #joinRun(
    line: Line,
    head: number,
    codes: Uint32Array,
    i: number,
    end: number,
  ): number {
    const d = line.data;
    const h = head * CELL_STRIDE;
    const a = d[h + ATTR];
    const hasCluster = (a & A_CLUSTER) !== 0;
    let text = hasCluster
      ? line.clusters?.get(head) ?? String.fromCodePoint(d[h + CODE])
      : String.fromCodePoint(d[h + CODE]);
    const mayWiden = !hasCluster && (a & A_WIDE) === 0;
    let k = i;
    while (k < end) {
      const c = codes[k];
      if (text.length >= MAX_CLUSTER_LENGTH) {
        // Full: further combining marks and ZWJs are dropped, as
        // #appendToCluster drops them (a dropped ZWJ joins nothing),
        // without a trip through the general path for each.
        if (c < 0xa0 || (c !== ZWJ && charWidth(c) !== 0)) break;
        k++;
        continue;
      }
      if (c === ZWJ) {
        if (k + 1 >= end || text.length + 1 >= MAX_CLUSTER_LENGTH) break;
        const n = codes[k + 1];
        if (n < 0xa0 || n === ZWJ) break;
        text += "\u200d" + String.fromCodePoint(n);
        k += 2;
        continue;
      }
      if (c >= 0x1f3fb && c <= 0x1f3ff) {
        // Skin-tone modifier: joins an emoji modifier base only.
        if (!isEmojiModifierBase(lastCodePoint(text))) break;
      } else if (c < 0xa0 || charWidth(c) !== 0) {
        break;
      }
      if (c === VS16 && mayWiden && k === i) break;
      text += String.fromCodePoint(c);
      k++;
    }
    if (k > i) line.setCluster(head, text);
    return k;
  }

  /** True when the cell before column `x` is a regional indicator a second one would pair with. */
  #loneRegionalIndicatorBefore(line: Line, x: number): boolean {
    if (x === 0) return false;
    const c = line.code(x - 1);
    return c >= 0x1f1e6 && c <= 0x1f1ff &&
      (line.attr(x - 1) & (A_CLUSTER | A_WIDE | A_WIDE_TAIL)) === 0;
  }

  /** Print one (already translated) character of any width. */
  #printChar(cp: number): void {
    const w = charWidth(cp);
    if (w === 0 || this.#joinNext) {
      if (cp >= 0xa0 || w !== 0) this.#appendToCluster(cp);
      return;
    }
    if (cp >= 0x1f1e6 && cp <= 0x1f3ff && this.#joinEmoji(cp)) return;
    const modes = this.#modes;
    if (this.#wrapPending) {
      if (modes.autowrap) this.#wrap();
      this.#wrapPending = false;
    }
    let limit = this.#printLimit(this.#line());
    if (w === 2 && this.#x + 1 >= limit) {
      const start = this.#inHorizontalMargins() ? this.#left : 0;
      if (limit - start < 2) return; // no room for a wide character at all
      if (modes.autowrap) {
        eraseCells(this.#line(), this.#x, this.#x + 1, this.#pen.bg);
        this.#wrap();
        limit = this.#printLimit(this.#line());
        if (this.#x + 1 >= limit) return; // a double-size line too narrow
      } else {
        this.#x = limit - 2;
      }
    }
    const x = this.#x;
    const line = this.#line();
    if (modes.insert) insertCells(line, x, w, limit, this.#pen.bg);
    const d = line.data;
    const i = x * CELL_STRIDE;
    if ((d[i + ATTR] & A_WIDE_TAIL) !== 0) splitWideAt(line, x);
    if (
      x + w < line.cols && (d[i + w * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0
    ) {
      splitWideAt(line, x + w);
    }
    const clusters = line.clusters;
    if (clusters !== null && clusters.size > 0) {
      clusters.delete(x);
      if (w === 2) clusters.delete(x + 1);
    }
    const fg = this.#pen.fg, bg = this.#pen.bg, attr = this.#attr;
    d[i + CODE] = cp;
    d[i + 1] = fg;
    d[i + 2] = bg;
    if (w === 2) {
      d[i + ATTR] = attr | A_WIDE;
      d[i + 4] = 0;
      d[i + 5] = fg;
      d[i + 6] = bg;
      d[i + 7] = attr | A_WIDE_TAIL;
    } else {
      d[i + ATTR] = attr;
    }
    line.dirty = true;
    this.#lastChar = cp;
    const nx = x + w;
    if (nx >= limit) {
      this.#x = limit - 1;
      if (modes.autowrap) this.#wrapPending = true;
    } else {
      this.#x = nx;
    }
  }

  /**
   * The cell a zero-width character joins: the one before the cursor (the
   * cursor cell itself while a wrap is pending), the head if that is a wide
   * tail. -1 when there is none.
   */
  #clusterTarget(line: Line): number {
    let tx = this.#wrapPending ? this.#x : this.#x - 1;
    if (tx < 0) return -1;
    if ((line.attr(tx) & A_WIDE_TAIL) !== 0 && tx > 0) tx--;
    return line.code(tx) === 0 ? -1 : tx;
  }

  /** Append a combining mark / ZWJ / VS to the cell before the cursor. */
  #appendToCluster(cp: number): void {
    this.#joinNext = false;
    const line = this.#line();
    const tx = this.#clusterTarget(line);
    if (tx < 0) return;
    const a = line.attr(tx);
    const code = line.code(tx);
    const single = (a & A_CLUSTER) === 0;
    const prev = single
      ? String.fromCodePoint(code)
      : line.clusters?.get(tx) ?? String.fromCodePoint(code);
    if (prev.length >= MAX_CLUSTER_LENGTH) return;
    line.setCluster(tx, prev + String.fromCodePoint(cp));
    this.#joinNext = cp === ZWJ;
    // VS16 right after a text-default emoji (U+2764, keycap digits, U+1F3F3
    // ...) asks for emoji presentation, which programs and other terminals
    // count as 2 cells.
    if (
      cp === VS16 && single && (a & A_WIDE) === 0 &&
      hasEmojiPresentationWithVs16(code)
    ) {
      this.#widenCluster(line, tx);
    }
  }

  /**
   * Join a skin-tone modifier to an emoji modifier base, or a regional
   * indicator to a lone one before it (a flag, 2 cells). Returns false when
   * `cp` does not join and is printed as a character of its own.
   */
  #joinEmoji(cp: number): boolean {
    const modifier = isEmojiModifier(cp);
    if (!modifier && !isRegionalIndicator(cp)) return false;
    const line = this.#line();
    const tx = this.#clusterTarget(line);
    if (tx < 0) return false;
    const a = line.attr(tx);
    if (modifier) {
      const text = (a & A_CLUSTER) !== 0 ? line.clusters?.get(tx) : undefined;
      const lastCp = text === undefined ? line.code(tx) : lastCodePoint(text);
      if (!isEmojiModifierBase(lastCp)) return false;
      this.#appendToCluster(cp);
      return true;
    }
    // Regional indicator: pairs with a lone one (not already a flag).
    if ((a & (A_CLUSTER | A_WIDE)) !== 0) return false;
    if (!isRegionalIndicator(line.code(tx))) return false;
    this.#appendToCluster(cp);
    this.#widenCluster(line, tx);
    return true;
  }

  /**
   * Make the narrow cluster at `tx` (just before the cursor) 2 cells wide.
   * When it sits in the last column there is no room: it stays 1 cell
   * rather than moving to the next line (simpler, and the cluster text is
   * kept either way).
   */
  #widenCluster(line: Line, tx: number): void {
    let limit = tx <= this.#right ? this.#right + 1 : this.#cols;
    if (line.size !== 0) limit = Math.min(limit, Math.max(1, this.#cols >> 1));
    if (tx + 1 >= limit) return;
    const bg = this.#pen.bg;
    if (this.#modes.insert) insertCells(line, tx + 1, 1, limit, bg);
    splitWideAt(line, tx + 2 < line.cols ? tx + 2 : line.cols);
    line.clusters?.delete(tx + 1);
    const d = line.data;
    const i = tx * CELL_STRIDE;
    d[i + ATTR] |= A_WIDE;
    d[i + 4 + CODE] = 0;
    d[i + 4 + FG] = d[i + FG];
    d[i + 4 + BG] = d[i + BG];
    d[i + 4 + ATTR] = (d[i + ATTR] & ~A_GLYPH_MASK) | A_WIDE_TAIL;
    line.dirty = true;
    const nx = tx + 2;
    if (nx >= limit) {
      this.#x = limit - 1;
      if (this.#modes.autowrap) this.#wrapPending = true;
    } else {
      this.#x = nx;
    }
  }

  /** Soft wrap: mark the line, go to the start of the next one (scrolling if needed). */
  #wrap(): void {
    const line = this.#line();
    line.wrapped = true;
    line.dirty = true;
    this.#x = this.#lineStart();
    this.#index();
  }

  // ---------------------------------------------------------------- motion

  /** IND / LF: down one line, scrolling the region at its bottom margin. */
  #index(): void {
    this.#wrapPending = false;
    if (this.#y === this.#bottom) {
      if (this.#inHorizontalMargins()) this.#scrollUp(1);
    } else if (this.#y < this.#rows - 1) {
      this.#y++;
    }
  }

  /** RI: up one line, scrolling the region down at its top margin. */
  #reverseIndex(): void {
    this.#wrapPending = false;
    if (this.#y === this.#top) {
      if (this.#inHorizontalMargins()) this.#scrollDown(1);
    } else if (this.#y > 0) {
      this.#y--;
    }
  }

  #carriageReturn(): void {
    this.#x = this.#lineStart();
    this.#wrapPending = false;
  }

  #lineFeed(): void {
    if (this.#modes.newlineMode) this.#carriageReturn();
    this.#index();
  }

  #backspace(): void {
    const modes = this.#modes;
    const reverse = modes.reverseWrap && modes.autowrap;
    if (this.#wrapPending) {
      this.#wrapPending = false;
      if (reverse) return; // xterm: the BS cancels the pending wrap
    }
    const start = this.#lineStart();
    if (this.#x > start) {
      this.#x--;
    } else if (reverse && this.#x === start) {
      const top = this.#y >= this.#top ? this.#top : 0;
      if (this.#y > top) {
        this.#y--;
        this.#x = this.#right;
      }
    }
  }

  #tab(n: number): void {
    const limit = this.#lastColumn(
      this.#x <= this.#right ? this.#right : this.#cols - 1,
    );
    for (let k = 0; k < n && this.#x < limit; k++) {
      this.#x = this.#tabs.next(this.#x, limit);
    }
    // Like xterm, HT and CHT keep a pending wrap (the cursor cannot move on
    // from the last column then): the next character still wraps.
  }

  #backTab(n: number): void {
    const start = this.#lineStart();
    for (let k = 0; k < n && this.#x > start; k++) {
      this.#x = this.#tabs.prev(this.#x, start);
    }
    this.#wrapPending = false;
  }

  #cursorUp(n: number): void {
    const top = this.#y >= this.#top ? this.#top : 0;
    this.#y = Math.max(top, this.#y - n);
    this.#wrapPending = false;
  }
  #cursorDown(n: number): void {
    const bottom = this.#y <= this.#bottom ? this.#bottom : this.#rows - 1;
    this.#y = Math.min(bottom, this.#y + n);
    this.#wrapPending = false;
  }
  #cursorForward(n: number): void {
    const right = this.#lastColumn(
      this.#x <= this.#right ? this.#right : this.#cols - 1,
    );
    this.#x = Math.max(0, Math.min(right, this.#x + n));
    this.#wrapPending = false;
  }
  #cursorBackward(n: number): void {
    this.#x = Math.max(this.#lineStart(), this.#x - n);
    this.#wrapPending = false;
  }

  /** Absolute column (1-based `col`), relative to the left margin in origin mode. */
  #setColumn(col: number): void {
    if (this.#modes.origin) {
      this.#x = Math.min(this.#right, this.#left + Math.max(0, col - 1));
    } else {
      this.#x = Math.min(this.#cols - 1, Math.max(0, col - 1));
    }
    this.#x = Math.min(this.#x, this.#lastColumn(this.#cols - 1));
    this.#wrapPending = false;
  }
  /** Absolute row (1-based `row`), relative to the top margin in origin mode. */
  #setRow(row: number): void {
    if (this.#modes.origin) {
      this.#y = Math.min(this.#bottom, this.#top + Math.max(0, row - 1));
    } else {
      this.#y = Math.min(this.#rows - 1, Math.max(0, row - 1));
    }
    this.#wrapPending = false;
  }
  #setPosition(row: number, col: number): void {
    this.#setRow(row);
    this.#setColumn(col);
  }

  // ---------------------------------------------------------------- scrolling

  /** Scroll the region up `n` lines (full width: to history when the top margin is 0). */
  #scrollUp(n: number): void {
    const bg = this.#pen.bg;
    if (this.#left === 0 && this.#right === this.#cols - 1) {
      this.#buf.scrollUp(this.#top, this.#bottom, n, bg, this.#top === 0);
    } else {
      this.#buf.scrollRectUp(
        this.#top,
        this.#bottom,
        this.#left,
        this.#right,
        n,
        bg,
      );
    }
  }

  #scrollDown(n: number): void {
    const bg = this.#pen.bg;
    if (this.#left === 0 && this.#right === this.#cols - 1) {
      this.#buf.scrollDown(this.#top, this.#bottom, n, bg);
    } else {
      this.#buf.scrollRectDown(
        this.#top,
        this.#bottom,
        this.#left,
        this.#right,
        n,
        bg,
      );
    }
  }

  /** Insert (n > 0) or delete (n < 0) columns at `x` in the scroll region (DECIC, DECDC, DECBI, DECFI). */
  #shiftColumns(x: number, n: number): void {
    const bg = this.#pen.bg;
    for (let y = this.#top; y <= this.#bottom; y++) {
      const line = this.#buf.screenLine(y);
      if (n > 0) insertCells(line, x, n, this.#right + 1, bg);
      else deleteCells(line, x, -n, this.#right + 1, bg);
    }
  }

  #insertLines(n: number): void {
    if (
      this.#y < this.#top || this.#y > this.#bottom ||
      !this.#inHorizontalMargins()
    ) return;
    const bg = this.#pen.bg;
    if (this.#left === 0 && this.#right === this.#cols - 1) {
      this.#buf.scrollDown(this.#y, this.#bottom, n, bg);
    } else {
      this.#buf.scrollRectDown(
        this.#y,
        this.#bottom,
        this.#left,
        this.#right,
        n,
        bg,
      );
    }
    this.#x = this.#left;
    this.#wrapPending = false;
  }

  #deleteLines(n: number): void {
    if (
      this.#y < this.#top || this.#y > this.#bottom ||
      !this.#inHorizontalMargins()
    ) return;
    const bg = this.#pen.bg;
    if (this.#left === 0 && this.#right === this.#cols - 1) {
      this.#buf.scrollUp(this.#y, this.#bottom, n, bg, false);
    } else {
      this.#buf.scrollRectUp(
        this.#y,
        this.#bottom,
        this.#left,
        this.#right,
        n,
        bg,
      );
    }
    this.#x = this.#left;
    this.#wrapPending = false;
  }

  // ---------------------------------------------------------------- erasing

  /** ED / DECSED. */
  #eraseInDisplay(mode: number, selective: boolean): void {
    const buf = this.#buf;
    const rows = this.#rows, cols = this.#cols;
    switch (mode) {
      case 0:
        this.#eraseInLine(0, selective);
        for (let y = this.#y + 1; y < rows; y++) {
          this.#eraseRow(buf.screenLine(y), 0, cols, selective, true);
        }
        break;
      case 1:
        for (let y = 0; y < this.#y; y++) {
          this.#eraseRow(buf.screenLine(y), 0, cols, selective, true);
        }
        this.#eraseInLine(1, selective);
        break;
      case 2:
        for (let y = 0; y < rows; y++) {
          this.#eraseRow(buf.screenLine(y), 0, cols, selective, true);
        }
        break;
      case 3:
        if (!selective) buf.clearHistory();
        break;
    }
    this.#wrapPending = false;
  }

  /** EL / DECSEL. */
  #eraseInLine(mode: number, selective: boolean): void {
    const line = this.#line();
    const x = this.#x;
    switch (mode) {
      case 0:
        this.#eraseRow(line, x, this.#cols, selective);
        break;
      case 1:
        this.#eraseRow(line, 0, x + 1, selective);
        break;
      case 2:
        this.#eraseRow(line, 0, this.#cols, selective);
        break;
    }
    this.#wrapPending = false;
  }

  #eraseRow(
    line: Line,
    from: number,
    to: number,
    selective: boolean,
    wholeLine = false,
  ): void {
    if (selective) selectiveEraseCells(line, from, to);
    else eraseCells(line, from, to, this.#pen.bg);
    // ED makes every line it erases completely single size (VT100).
    if (wholeLine && line.size !== 0 && !selective) line.size = 0;
    if (to >= this.#cols) {
      line.wrapped = false;
      line.dirty = true;
    }
  }

  // ---------------------------------------------------------------- cursor save

  #saved = new Map<Buffer, SavedCursor>();

  #savedFor(b: Buffer): SavedCursor | undefined {
    return this.#saved.get(b);
  }

  /** What DECSTR and RIS leave saved: home with the default rendition. */
  #homeCursor(): SavedCursor {
    return {
      x: 0,
      y: 0,
      wrapPending: false,
      pen: defaultPen(),
      link: null,
      linkId: "",
      origin: false,
      charsets: new CharsetState(),
    };
  }

  /** DECSC. */
  #saveCursor(): void {
    this.#saved.set(this.#buf, {
      x: this.#x,
      y: this.#y,
      wrapPending: this.#wrapPending,
      pen: { ...this.#pen },
      link: this.#link,
      linkId: this.#linkId,
      origin: this.#modes.origin,
      charsets: this.#charsets.clone(),
    });
  }

  /** DECRC (home and default rendition when nothing was saved, as xterm). */
  #restoreCursor(): void {
    const s = this.#saved.get(this.#buf);
    if (s === undefined) {
      this.#pen = { ...defaultPen(), flags: 0 };
      this.#link = null;
      this.#linkId = "";
      this.#modes.origin = false;
      this.#charsets.reset();
      this.#x = 0;
      this.#y = 0;
      this.#wrapPending = false;
    } else {
      this.#pen = { ...s.pen };
      this.#link = s.link;
      this.#linkId = s.linkId;
      this.#modes.origin = s.origin;
      this.#charsets = s.charsets.clone();
      this.#x = Math.min(s.x, this.#cols - 1);
      this.#y = Math.min(s.y, this.#rows - 1);
      this.#wrapPending = s.wrapPending && this.#modes.autowrap;
    }
    this.#updateAttr();
  }

  // ---------------------------------------------------------------- screens

  #switchScreen(alt: boolean, clearAlt: boolean): void {
    if (alt && clearAlt) this.#alt.clearScreen(this.#pen.bg);
    const target = alt ? this.#alt : this.#normal;
    this.#modes.altScreen = alt;
    this.#modes.kittyFlags = this.#kitty.flags(alt); // one stack per screen
    if (target === this.#buf) return;
    this.#buf = target;
    this.#wrapPending = false;
    for (let y = 0; y < this.#rows; y++) target.screenLine(y).dirty = true;
    this.#emit({ type: "buffer" });
  }

  /** DECALN: fill the screen with E, reset margins, home. */
  #screenAlignment(): void {
    this.#resetMargins();
    for (let y = 0; y < this.#rows; y++) {
      const line = this.#buf.screenLine(y);
      line.fill(0, this.#cols, 0x45, 0, 0, 0);
      line.wrapped = false;
      line.size = 0;
    }
    this.#x = 0;
    this.#y = 0;
    this.#wrapPending = false;
  }

  /**
   * DECSTR: soft reset, what xterm's soft reset resets: cursor shown with
   * its default shape, margins and DECLRMM, DECOM, charsets, DECSCA,
   * DECCKM, DECKPAM, IRM, autowrap on (xterm's default, which terminfo's
   * is2 relies on), reverse wrap off, the rendition, and the saved cursor
   * (home with these defaults). The cursor does not move.
   */
  #softReset(): void {
    const m = this.#modes;
    m.cursorVisible = true;
    m.cursorBlink = false;
    this.#cursorStyle = "block";
    m.insert = false;
    m.origin = false;
    m.autowrap = true;
    m.applicationCursorKeys = false;
    m.applicationKeypad = false;
    m.reverseWrap = false;
    m.leftRightMargins = false;
    this.#kitty.reset();
    m.kittyFlags = 0;
    this.#resetMargins();
    this.#charsets.reset();
    this.#pen = defaultPen();
    this.#link = null;
    this.#linkId = "";
    this.#updateAttr();
    this.#saved.set(this.#buf, this.#homeCursor()); // as xterm
    this.#wrapPending = false;
    this.#emit({ type: "modes" });
  }

  // ---------------------------------------------------------------- modes

  #setAnsiMode(mode: number, on: boolean): void {
    if (mode === 4) this.#modes.insert = on;
    else if (mode === 20) {
      this.#modes.newlineMode = on;
      this.#emit({ type: "modes" });
    }
  }

  #setDecMode(mode: number, on: boolean): void {
    const m = this.#modes;
    const flag = DEC_FLAG_MODES[mode];
    if (flag !== undefined) {
      const old = m[flag];
      (m as unknown as Record<string, boolean>)[flag] = on;
      if (mode === 7 && !on) this.#wrapPending = false;
      if (old !== on && mode !== 7 && mode !== 45) {
        this.#emit({ type: "modes" });
      }
      return;
    }
    switch (mode) {
      case 3: // DECCOLM: only with ?40 (as xterm); the screen is not resized
        if (!m.allow132) break;
        m.column132 = on;
        this.#resetMargins();
        for (let y = 0; y < this.#rows; y++) {
          this.#eraseRow(this.#buf.screenLine(y), 0, this.#cols, false);
        }
        this.#x = 0;
        this.#y = 0;
        this.#wrapPending = false;
        break;
      case 6:
        m.origin = on;
        this.#setPosition(1, 1);
        break;
      case 69:
        m.leftRightMargins = on;
        if (!on) {
          this.#left = 0;
          this.#right = this.#cols - 1;
        }
        break;
      case 9:
      case 1000:
      case 1002:
      case 1003:
        m.mouseTracking = on ? mode : 0;
        this.#emit({ type: "modes" });
        break;
      case 1005:
      case 1006:
      case 1015:
      case 1016:
        if (on) m.mouseEncoding = mode;
        else if (m.mouseEncoding === mode) m.mouseEncoding = 0;
        this.#emit({ type: "modes" });
        break;
      case 47:
        this.#switchScreen(on, false);
        break;
      case 1047:
        if (on) this.#switchScreen(true, false);
        else {
          if (this.#buf.isAlt) this.#alt.clearScreen(this.#pen.bg);
          this.#switchScreen(false, false);
        }
        break;
      case 1048:
        if (on) this.#saveCursor();
        else this.#restoreCursor();
        break;
      case 1049:
        if (on) {
          if (!this.#buf.isAlt) this.#saveCursor();
          this.#switchScreen(true, true);
        } else if (this.#buf.isAlt) {
          this.#switchScreen(false, false);
          this.#restoreCursor();
        }
        break;
    }
  }

  /** XTSAVE (`CSI ? Pm s`) / XTRESTORE (`CSI ? Pm r`) of DEC private flag modes. */
  #savePrivateModes(params: Params, restore: boolean): void {
    for (let i = 0; i < params.length; i++) {
      const mode = params.get(i, 0);
      const report = decModeReport(this.#modes, mode);
      if (report === 0) continue;
      if (restore) {
        const v = this.#savedPrivateModes.get(mode);
        if (v !== undefined) this.#setDecMode(mode, v);
      } else {
        this.#savedPrivateModes.set(mode, report === 1);
      }
    }
  }

  // ---------------------------------------------------------------- C0 / C1 / ESC

  #execute(code: number): void {
    this.#joinNext = false;
    if (this.#pretty?.document && (code === 0x0a || code === 0x0d)) {
      // Inside a pretty-printed block a newline is a required one.
      if (code === 0x0a) prettyOsc(this.#pretty, 118, "");
      return;
    }
    switch (code) {
      case 0x07:
        this.#emit({ type: "bell" });
        break;
      case 0x08:
        this.#backspace();
        break;
      case 0x09:
        this.#tab(1);
        break;
      case 0x0a:
      case 0x0b:
      case 0x0c:
        this.#lineFeed();
        break;
      case 0x0d:
        this.#carriageReturn();
        break;
      case 0x0e: // SO: G1 into GL
        this.#charsets.gl = 1;
        break;
      case 0x0f: // SI: G0 into GL
        this.#charsets.gl = 0;
        break;
      case 0x84: // IND
        this.#index();
        break;
      case 0x85: // NEL
        this.#carriageReturn();
        this.#index();
        break;
      case 0x88: // HTS
        this.#tabs.set(this.#x);
        break;
      case 0x8d: // RI
        this.#reverseIndex();
        break;
      case 0x8e: // SS2
        this.#charsets.singleShift = 2;
        break;
      case 0x8f: // SS3
        this.#charsets.singleShift = 3;
        break;
    }
  }

  #esc(intermediates: string, final: number): void {
    this.#joinNext = false;
    if (intermediates === "") {
      switch (final) {
        case 0x37: // 7 DECSC
          this.#saveCursor();
          break;
        case 0x38: // 8 DECRC
          this.#restoreCursor();
          break;
        case 0x44: // D IND
          this.#index();
          break;
        case 0x45: // E NEL
          this.#carriageReturn();
          this.#index();
          break;
        case 0x48: // H HTS
          this.#tabs.set(this.#x);
          break;
        case 0x4d: // M RI
          this.#reverseIndex();
          break;
        case 0x4e: // N SS2
          this.#charsets.singleShift = 2;
          break;
        case 0x4f: // O SS3
          this.#charsets.singleShift = 3;
          break;
        case 0x63: // c RIS
          this.#fullReset();
          break;
        case 0x3d: // = DECKPAM
        case 0x3e: // > DECKPNM
          if (this.#modes.applicationKeypad !== (final === 0x3d)) {
            this.#modes.applicationKeypad = final === 0x3d;
            this.#emit({ type: "modes" });
          }
          break;
        case 0x6e: // n LS2
          this.#charsets.gl = 2;
          break;
        case 0x6f: // o LS3
          this.#charsets.gl = 3;
          break;
        case 0x5a: // Z DECID
          this.#send(DA1_REPLY);
          break;
        case 0x36: // 6 DECBI
          if (this.#x > this.#left || !this.#inHorizontalMargins()) {
            if (this.#x > 0) this.#x--;
          } else if (this.#y >= this.#top && this.#y <= this.#bottom) {
            this.#shiftColumns(this.#left, 1);
          }
          this.#wrapPending = false;
          break;
        case 0x39: // 9 DECFI
          if (this.#x < this.#right || !this.#inHorizontalMargins()) {
            if (this.#x < this.#cols - 1) this.#x++;
          } else if (this.#y >= this.#top && this.#y <= this.#bottom) {
            this.#shiftColumns(this.#left, -1);
          }
          this.#wrapPending = false;
          break;
      }
      return;
    }
    switch (intermediates) {
      case "-":
      case ".":
      case "/": { // 96-character sets into G1-G3
        const set = charset96ForFinal(final);
        if (set !== undefined) {
          this.#charsets.g["-./".indexOf(intermediates) + 1] = set;
        }
        break;
      }
      case "#":
        this.#lineSize(final);
        break;
      default: {
        // SCS: ( ) * + designate G0-G3, a further intermediate ("%") widens the final.
        const g = "()*+".indexOf(intermediates[0]);
        if (g < 0) break;
        const set = charsetForFinal(
          final,
          intermediates.slice(1),
          this.#modes.nationalCharsets,
        );
        if (set !== undefined) this.#charsets.g[g] = set;
        break;
      }
        // "%G" / "%@" (UTF-8 / default): input is always UTF-8; nothing to do.
        // " F" / " G" (S7C1T / S8C1T): replies are always 7-bit.
    }
  }

  // ---------------------------------------------------------------- CSI

  #csi(
    prefix: string,
    params: Params,
    intermediates: string,
    final: number,
  ): void {
    this.#joinNext = false;
    if (intermediates === "") {
      if (final === 0x75 && prefix !== "") {
        return this.#kittyKeyboard(prefix, params);
      }
      if (prefix === "") this.#csiPlain(params, final);
      else if (prefix === "?") this.#csiPrivate(params, final);
      else if (prefix === ">") this.#csiGreater(params, final);
      else if (prefix === "=" && final === 0x63 && params.get(0, 0) === 0) {
        this.#send(DA3_REPLY);
      }
      return;
    }
    switch (intermediates) {
      case " ":
        if (prefix !== "") return;
        if (final === 0x71) this.#setCursorStyle(params.get(0, 0)); // DECSCUSR
        else if (final === 0x40) this.#shiftColumnsAll(-count(params, 0)); // SL
        else if (final === 0x41) this.#shiftColumnsAll(count(params, 0)); // SR
        return;
      case "!":
        if (final === 0x70 && prefix === "") this.#softReset(); // DECSTR
        return;
      case "$":
        if (prefix === "" && final !== 0x70) {
          this.#rectangleOp(params, final);
          return;
        }
        if (final === 0x70) { // DECRQM
          const mode = params.get(0, 0);
          if (prefix === "?") {
            this.#send(
              csiReply(
                `?${mode};${
                  decModeReport(this.#modes, mode, this.#saved.has(this.#buf))
                }$y`,
              ),
            );
          } else if (prefix === "") {
            this.#send(
              csiReply(`${mode};${ansiModeReport(this.#modes, mode)}$y`),
            );
          }
        }
        return;
      case '"':
        if (final === 0x71 && prefix === "") { // DECSCA
          const p = params.get(0, 0);
          if (p === 1) this.#pen.flags |= A_PROTECTED;
          else if (p === 0 || p === 2) this.#pen.flags &= ~A_PROTECTED;
          this.#updateAttr();
        }
        return;
      case "*":
        if (prefix !== "") return;
        if (final === 0x78) { // DECSACE
          const p = params.get(0, 0);
          if (p <= 2) this.#rectExtent = p === 2;
        } else if (final === 0x79) { // DECRQCRA
          const id = params.get(0, 0);
          const r = this.#rectParams(params, 2);
          const sum = r === null ? 0 : checksumRect(this.#rowAccess, r);
          this.#send(
            dcsReply(
              `${id}!~${sum.toString(16).toUpperCase().padStart(4, "0")}`,
            ),
          );
        }
        return;
      case "'":
        if (prefix !== "") return;
        if (
          (final === 0x7d || final === 0x7e) && this.#inHorizontalMargins() &&
          this.#y >= this.#top && this.#y <= this.#bottom
        ) {
          // DECIC / DECDC
          const n = Math.min(count(params, 0), this.#cols);
          this.#shiftColumns(this.#x, final === 0x7d ? n : -n);
        }
        return;
    }
  }

  /** DECSACE: DECCARA / DECRARA act on a rectangle (true) or a stream (false). */
  #rectExtent = false;
  #rowAccess = (y: number): Line => this.#buf.screenLine(y);

  /**
   * The rectangle in parameters i..i+3 (Pt;Pl;Pb;Pr, 1-based, relative to
   * the margins in origin mode; missing bottom/right = the page's), clamped,
   * or null when empty.
   */
  #rectParams(params: Params, i: number, stream = false): Rect | null {
    const origin = this.#modes.origin;
    const top0 = origin ? this.#top : 0, left0 = origin ? this.#left : 0;
    const maxY = origin ? this.#bottom : this.#rows - 1;
    const maxX = origin ? this.#right : this.#cols - 1;
    const top = top0 + (params.get(i, 1) || 1) - 1;
    const left = left0 + (params.get(i + 1, 1) || 1) - 1;
    const b = params.get(i + 2, 0), r = params.get(i + 3, 0);
    const bottom = Math.min(maxY, b === 0 ? maxY : top0 + b - 1);
    const right = Math.min(maxX, r === 0 ? maxX : left0 + r - 1);
    if (top > bottom || (left > right && !(stream && top < bottom))) {
      return null;
    }
    return { top, left, bottom, right };
  }

  /** DECCRA, DECFRA, DECERA, DECSERA, DECCARA, DECRARA (`CSI ... $ final`). */
  #rectangleOp(params: Params, final: number): void {
    const row = this.#rowAccess;
    switch (final) {
      case 0x78: { // x DECFRA
        const ch = params.get(0, 0);
        if (!((ch >= 0x20 && ch <= 0x7e) || (ch >= 0xa0 && ch <= 0xff))) return;
        const r = this.#rectParams(params, 1);
        if (r) fillRect(row, r, ch, this.#pen.fg, this.#pen.bg, this.#attr);
        break;
      }
      case 0x7a: { // z DECERA
        const r = this.#rectParams(params, 0);
        if (r) eraseRect(row, r, this.#pen.bg);
        break;
      }
      case 0x7b: { // { DECSERA
        const r = this.#rectParams(params, 0);
        if (r) selectiveEraseRect(row, r);
        break;
      }
      case 0x72: // r DECCARA
      case 0x74: { // t DECRARA
        const r = this.#rectParams(params, 0, !this.#rectExtent);
        if (!r) return;
        const sgr: number[] = [];
        for (let k = 4; k < params.length; k++) sgr.push(params.get(k, 0));
        if (final === 0x72) {
          changeAttributes(row, r, this.#cols, this.#rectExtent, sgr);
        } else {
          reverseAttributes(row, r, this.#cols, this.#rectExtent, sgr);
        }
        break;
      }
      case 0x76: { // v DECCRA (pages are ignored: there is one)
        const src = this.#rectParams(params, 0);
        if (!src) return;
        const origin = this.#modes.origin;
        const dstTop = (origin ? this.#top : 0) + (params.get(5, 1) || 1) - 1;
        const dstLeft = (origin ? this.#left : 0) + (params.get(6, 1) || 1) - 1;
        copyRect(row, src, dstTop, dstLeft, this.#rows, this.#cols);
        break;
      }
    }
  }

  /** SL / SR: shift the whole scroll region left (n < 0) or right. */
  #shiftColumnsAll(n: number): void {
    n = Math.max(-this.#cols, Math.min(this.#cols, n));
    this.#shiftColumns(this.#left, n);
  }

  #setCursorStyle(p: number): void {
    if (p > 6) return;
    const style: CursorStyle = p <= 2 ? "block" : p <= 4 ? "underline" : "bar";
    this.#cursorStyle = style;
    this.#modes.cursorBlink = p === 0 || p % 2 === 1;
    this.#emit({ type: "modes" });
  }

  #cursorStyleParam(): number {
    const base = this.#cursorStyle === "block"
      ? 1
      : this.#cursorStyle === "underline"
      ? 3
      : 5;
    return this.#modes.cursorBlink ? base : base + 1;
  }

  #csiPlain(params: Params, final: number): void {
    const rows = this.#rows, cols = this.#cols;
    switch (final) {
      case 0x40: { // @ ICH
        if (this.#x < this.#left) break;
        const limit = this.#x <= this.#right ? this.#right + 1 : cols;
        insertCells(
          this.#line(),
          this.#x,
          Math.min(count(params, 0), cols),
          limit,
          this.#pen.bg,
        );
        this.#wrapPending = false;
        break;
      }
      case 0x41: // A CUU
        this.#cursorUp(count(params, 0));
        break;
      case 0x42: // B CUD
      case 0x65: // e VPR
        this.#cursorDown(count(params, 0));
        break;
      case 0x43: // C CUF
      case 0x61: // a HPR
        this.#cursorForward(count(params, 0));
        break;
      case 0x44: // D CUB
        this.#cursorBackward(count(params, 0));
        break;
      case 0x45: // E CNL
        this.#cursorDown(count(params, 0));
        this.#carriageReturn();
        break;
      case 0x46: // F CPL
        this.#cursorUp(count(params, 0));
        this.#carriageReturn();
        break;
      case 0x47: // G CHA
      case 0x60: // ` HPA
        this.#setColumn(count(params, 0));
        break;
      case 0x48: // H CUP
      case 0x66: // f HVP
        this.#setPosition(count(params, 0), count(params, 1));
        break;
      case 0x49: // I CHT
        this.#tab(Math.min(count(params, 0), cols));
        break;
      case 0x4a: // J ED
        this.#eraseInDisplay(params.get(0, 0), false);
        break;
      case 0x4b: // K EL
        this.#eraseInLine(params.get(0, 0), false);
        break;
      case 0x4c: // L IL
        this.#insertLines(Math.min(count(params, 0), rows));
        break;
      case 0x4d: // M DL
        this.#deleteLines(Math.min(count(params, 0), rows));
        break;
      case 0x50: { // P DCH
        if (this.#x < this.#left) break;
        const limit = this.#x <= this.#right ? this.#right + 1 : cols;
        deleteCells(
          this.#line(),
          this.#x,
          Math.min(count(params, 0), cols),
          limit,
          this.#pen.bg,
        );
        this.#wrapPending = false;
        break;
      }
      case 0x53: // S SU
        this.#scrollUp(Math.min(count(params, 0), rows));
        break;
      case 0x54: // T SD (with more parameters: mouse highlight tracking, ignored)
        if (params.length <= 1) {
          this.#scrollDown(Math.min(count(params, 0), rows));
        }
        break;
      case 0x58: { // X ECH
        const n = Math.min(count(params, 0), cols);
        eraseCells(this.#line(), this.#x, this.#x + n, this.#pen.bg);
        this.#wrapPending = false;
        break;
      }
      case 0x5a: // Z CBT
        this.#backTab(Math.min(count(params, 0), cols));
        break;
      case 0x62: { // b REP
        const ch = this.#lastChar;
        if (ch === 0) break;
        const n = Math.min(count(params, 0), cols * rows);
        for (let k = 0; k < n; k++) this.#printChar(ch);
        break;
      }
      case 0x63: // c DA1
        if (params.get(0, 0) === 0) this.#send(DA1_REPLY);
        break;
      case 0x64: // d VPA
        this.#setRow(count(params, 0));
        break;
      case 0x67: { // g TBC
        const p = params.get(0, 0);
        if (p === 0) this.#tabs.clear(this.#x);
        else if (p === 3) this.#tabs.clearAll();
        break;
      }
      case 0x68: // h SM
      case 0x6c: // l RM
        for (let i = 0; i < params.length; i++) {
          this.#setAnsiMode(params.get(i, 0), final === 0x68);
        }
        break;
      case 0x6d: // m SGR
        applySgr(this.#pen, params);
        this.#updateAttr();
        break;
      case 0x6e: // n DSR
        this.#deviceStatus(params.get(0, 0), false);
        break;
      case 0x72: { // r DECSTBM
        const top = params.get(0, 1) || 1;
        const bottom = Math.min(params.get(1, rows) || rows, rows);
        if (top < bottom) {
          this.#top = top - 1;
          this.#bottom = bottom - 1;
          this.#setPosition(1, 1);
        }
        break;
      }
      case 0x73: // s DECSLRM (with ?69) or SCOSC
        if (this.#modes.leftRightMargins) {
          const left = params.get(0, 1) || 1;
          const right = Math.min(params.get(1, cols) || cols, cols);
          if (left < right) {
            this.#left = left - 1;
            this.#right = right - 1;
            this.#setPosition(1, 1);
          }
        } else if (params.length === 0) {
          this.#saveCursor();
        }
        break;
      case 0x74: // t window operations
        this.#windowOp(params);
        break;
      case 0x75: // u SCORC (only without parameters; CSI Ps u belongs to others)
        if (params.length === 0) this.#restoreCursor();
        else domtermCsiU(this.#marksHost(), params);
        break;
    }
  }

  #csiPrivate(params: Params, final: number): void {
    switch (final) {
      case 0x6d: { // ?m XTQMODKEYS: modifyKeyboard, -CursorKeys, -FunctionKeys, -OtherKeys
        const r = params.get(0, -1);
        const v = [0, 2, 2, -1, this.#modes.modifyOtherKeys][r] ?? -1;
        if (v >= 0) this.#send(csiReply(`>${r};${v}m`));
        break;
      }
      case 0x4a: // ?J DECSED
        this.#eraseInDisplay(params.get(0, 0), true);
        break;
      case 0x4b: // ?K DECSEL
        this.#eraseInLine(params.get(0, 0), true);
        break;
      case 0x68: // ?h DECSET
      case 0x6c: // ?l DECRST
        for (let i = 0; i < params.length; i++) {
          this.#setDecMode(params.get(i, 0), final === 0x68);
        }
        break;
      case 0x6e: // ?n DECDSR
        this.#deviceStatus(params.get(0, 0), true);
        break;
      case 0x57: // ?5W DECST8C: tab stops every 8 columns
        if (params.get(0, 0) === 5) this.#tabs.reset();
        break;
      case 0x73: // ?s XTSAVE
        this.#savePrivateModes(params, false);
        break;
      case 0x72: // ?r XTRESTORE
        this.#savePrivateModes(params, true);
        break;
    }
  }

  #csiGreater(params: Params, final: number): void {
    switch (final) {
      case 0x63: // >c DA2
        if (params.get(0, 0) === 0) this.#send(DA2_REPLY);
        break;
      case 0x71: // >q XTVERSION
        if (params.get(0, 0) === 0) this.#send(XTVERSION_REPLY);
        break;
      case 0x6d: // >m XTMODKEYS: only modifyOtherKeys (resource 4) is kept
        if (params.length === 0) {
          if (this.#modes.modifyOtherKeys !== 0) {
            this.#modes.modifyOtherKeys = 0;
            this.#emit({ type: "modes" });
          }
        } else if (params.get(0, -1) === 4) {
          const v = params.has(1) ? params.get(1, 0) : 0;
          const level = v === 1 || v === 2 ? v : 0;
          if (level !== this.#modes.modifyOtherKeys) {
            this.#modes.modifyOtherKeys = level;
            this.#emit({ type: "modes" });
          }
        }
        break;
    }
  }

  /** Kitty keyboard protocol: `CSI > u`, `CSI < u`, `CSI = u`, `CSI ? u`. */
  #kittyKeyboard(prefix: string, params: Params): void {
    const alt = this.#buf.isAlt;
    const arg = (i: number) => params.has(i) ? params.get(i, 0) : undefined;
    const reply = this.#kitty.handle(prefix, arg(0), arg(1), alt);
    if (reply !== null) this.#send(reply);
    const flags = this.#kitty.flags(alt);
    if (flags !== this.#modes.kittyFlags) {
      this.#modes.kittyFlags = flags;
      this.#emit({ type: "modes" });
    }
  }

  #deviceStatus(p: number, dec: boolean): void {
    if (!dec) {
      if (p === 5) this.#send(STATUS_OK_REPLY);
      else if (p === 6) {
        const [r, c] = this.#reportedPosition();
        this.#send(csiReply(`${r};${c}R`));
      }
      return;
    }
    switch (p) {
      case 6: { // DECXCPR
        const [r, c] = this.#reportedPosition();
        this.#send(csiReply(`?${r};${c};1R`));
        break;
      }
      case 15: // printer: none
        this.#send(csiReply("?13n"));
        break;
      case 25: // user-defined keys: locked
        this.#send(csiReply("?21n"));
        break;
      case 26: // keyboard: North American
        this.#send(csiReply("?27;1;0;0n"));
        break;
      case 53:
      case 55: // locator: none
        this.#send(csiReply("?50n"));
        break;
    }
  }

  /** 1-based cursor position as CPR reports it (relative to the margins in origin mode). */
  #reportedPosition(): [number, number] {
    if (this.#modes.origin) {
      return [this.#y - this.#top + 1, this.#x - this.#left + 1];
    }
    return [this.#y + 1, this.#x + 1];
  }

  #windowOp(params: Params): void {
    const op = params.get(0, 0);
    switch (op) {
      case 8: { // resize the text area: the client decides what fits
        // Omitted keeps the current size, 0 asks for the whole window (as xterm).
        const rows = params.get(1, this.#rows),
          cols = params.get(2, this.#cols);
        this.#emit({
          type: "resize-request",
          rows: Math.min(rows, MAX_ROWS),
          cols: Math.min(cols, MAX_COLS),
        });
        break;
      }
      case 11: // iconified? never
        this.#send(csiReply("1t"));
        break;
      case 13: // window position
        this.#send(csiReply("3;0;0t"));
        break;
      case 14: // text area in pixels
        this.#send(
          csiReply(
            `4;${Math.round(this.#rows * this.#cellHeight)};${
              Math.round(this.#cols * this.#cellWidth)
            }t`,
          ),
        );
        break;
      case 16: // cell size in pixels
        this.#send(
          csiReply(
            `6;${Math.round(this.#cellHeight)};${Math.round(this.#cellWidth)}t`,
          ),
        );
        break;
      case 15: // screen in pixels: the text area is all we know of
        this.#send(
          csiReply(
            `5;${Math.round(this.#rows * this.#cellHeight)};${
              Math.round(this.#cols * this.#cellWidth)
            }t`,
          ),
        );
        break;
      case 18: // text area in characters
        this.#send(csiReply(`8;${this.#rows};${this.#cols}t`));
        break;
      case 19: // screen in characters
        this.#send(csiReply(`9;${this.#rows};${this.#cols}t`));
        break;
      case 22: { // push title(s)
        const which = params.get(1, 0);
        if (which > 2) break;
        if (this.#titleStack.length >= TITLE_STACK_DEPTH) {
          this.#titleStack.shift();
        }
        this.#titleStack.push({
          icon: which === 0 || which === 1 ? this.#iconTitle : null,
          title: which === 0 || which === 2 ? this.#title : null,
        });
        break;
      }
      case 23: { // pop title(s)
        const which = params.get(1, 0);
        if (which > 2) break;
        const e = this.#titleStack.pop();
        if (e === undefined) break;
        this.#setTitles(
          which === 0 || which === 1 ? e.icon : null,
          which === 0 || which === 2 ? e.title : null,
        );
        break;
      }
    }
  }

  // ---------------------------------------------------------------- OSC / DCS

  /** The OSC being handled ended with BEL (its replies end with BEL too). */
  #oscBel = false;

  #oscDispatch(data: string, bel: boolean): void {
    this.#joinNext = false;
    const parsed = splitOsc(data);
    if (parsed === null) return;
    if (
      parsed[0] >= 110 && parsed[0] <= 118 &&
      isPrettyPrintOsc(
        parsed[0],
        parsed[1],
        data.includes(";"),
        this.#pretty?.document != null,
      )
    ) {
      return prettyOsc(this.#prettyHost(), parsed[0], parsed[1]);
    }
    const handler = this.#osc.get(parsed[0]);
    if (handler === undefined) return;
    this.#oscBel = bel;
    try {
      handler(parsed[1]);
    } finally {
      this.#oscBel = false;
    }
  }

  #dcs(
    prefix: string,
    params: Params,
    intermediates: string,
    final: number,
    payload: Uint8Array,
  ): void {
    this.#joinNext = false;
    if (prefix === "" && intermediates === "" && final === 0x71) {
      if (!this.#buf.isAlt) {
        this.#embeds.insertImage(sixelImage(params.toString(), payload));
      }
      return;
    }
    if (prefix === "" && intermediates === "$" && final === 0x71) {
      let s = "";
      for (let i = 0; i < payload.length && i < 16; i++) {
        s += String.fromCharCode(payload[i]);
      }
      this.#send(decrqssReply(this.#statusString(s)));
    }
  }

  /** DECRQSS: the setting named by `request`, or null when unknown. */
  #statusString(request: string): string | null {
    switch (request) {
      case "m":
        return penToSgr(this.#pen) + "m";
      case "r":
        return `${this.#top + 1};${this.#bottom + 1}r`;
      case "s":
        return `${this.#left + 1};${this.#right + 1}s`;
      case " q":
        return `${this.#cursorStyleParam()} q`;
      case '"q':
        return `${(this.#pen.flags & A_PROTECTED) !== 0 ? 1 : 0}"q`;
      case '"p':
        return '65;1"p';
      case "t": // DECSLPP
        return `${this.#rows}t`;
      case "$|": // DECSCPP
        return `${this.#cols}$|`;
      case "*|": // DECSNLS
        return `${this.#rows}*|`;
      default:
        return null;
    }
  }
}
