/**
 * A terminal buffer: history (scrollback) followed by the `rows` screen
 * lines, kept in a ring so that scrolling one line costs O(1) (no shifting
 * of the whole history). The alternate screen is a Buffer without history.
 *
 * Line indexes: 0 is the oldest history line; screen row `y` is line
 * `length - rows + y`. `trimmed` counts lines dropped from the top since the
 * buffer was created, so `trimmed + i` is a stable absolute line number.
 *
 * @module
 */
import type { BufferView } from "../terminal_view.ts";
import { CELL_STRIDE } from "./cell.ts";
import { Line } from "./line.ts";
import {
  copyCells,
  eraseCells,
  mapLineExtAttrs,
  resizeLine,
} from "./line_ops.ts";
import {
  mapPackedAttrs,
  PackedLine,
  PackedStore,
  unpackInto,
} from "./packed_line.ts";
import { reflow, type ReflowPoint } from "./reflow.ts";

/** Default scrollback limit of the normal buffer, in lines. */
export const DEFAULT_SCROLLBACK = 10_000;

/** Lines carved out of one allocation by {@link LineStore}. */
const BLOCK_LINES = 64;
/** At most this many lines wait for reuse. */
const MAX_FREE = 256;

/**
 * Hands out blank lines. Allocating a typed array per line is slow (an
 * off-heap, zeroed backing store each time), so cell arrays are views into
 * shared blocks, and the arrays of lines that left the buffer for good
 * (trimmed from history, or scrolled out of a region) are reused, Line
 * objects and all. A line object that left the buffer must therefore not be
 * read (nor kept as a key) afterwards; and a line's `data.buffer` is a
 * whole block: use `data` itself.
 */
class LineStore {
  #block: Uint32Array | null = null;
  #offset = 0;
  #free: Line[] = [];
  /** Zero arrays of 64, 128... words (the last: a whole line), by length / 64 rounded up. */
  #zeros: Uint32Array[] = [];

  /** A new blank line of `cols` cells with background `bg`. */
  take(cols: number, bg: number): Line {
    const words = cols * CELL_STRIDE;
    const line = this.#free.pop();
    if (line !== undefined && line.data.length === words) {
      // The Line object is reused too: with a full scrollback every line
      // scrolled in is one trimmed, and a new object per line (each living
      // as long as the history) kept the old-generation GC busy.
      // Only the cells it used: a line recycled from the top of a full
      // history was last touched a whole scrollback ago, so clearing all
      // of it missed the cache for each of its 16 bytes a cell.
      const used = line.hi * CELL_STRIDE;
      if (used > 64) {
        // TypedArray.set from a zero array beats fill(0); one array for
        // each multiple of 64 words, so no view is made per line.
        const n = Math.min(words, (used + 63) & ~63);
        const k = (n + 63) >> 6;
        let zero = this.#zeros[k];
        if (zero === undefined || zero.length !== n) {
          zero = this.#zeros[k] = new Uint32Array(n);
        }
        line.data.set(zero);
      } else {
        const d = line.data; // a few cells: cheaper than a call
        for (let w = 0; w < used; w++) d[w] = 0;
      }
      line.reset(cols, bg);
      return line;
    }
    let block = this.#block;
    if (block === null || this.#offset + words > block.length) {
      block = this.#block = new Uint32Array(words * BLOCK_LINES);
      this.#offset = 0;
    }
    const data = block.subarray(this.#offset, this.#offset + words);
    this.#offset += words;
    return new Line(cols, bg, data);
  }

  /** `line` has left the buffer for good: it may be handed out again. */
  recycle(line: Line): void {
    if (this.#free.length < MAX_FREE) this.#free.push(line);
  }

  /** Forget reusable lines (after a width change they do not fit). */
  clear(): void {
    this.#free.length = 0;
    this.#block = null;
  }
}

/** Smallest power of two >= n (n >= 1). */
function pow2AtLeast(n: number): number {
  let c = 16;
  while (c < n) c *= 2;
  return c;
}

/** History plus screen lines of one screen buffer. */
export class Buffer implements BufferView {
  /** True for the alternate screen: no history, lines scrolled off are dropped. */
  readonly isAlt: boolean;
  /** Lines dropped from the top since creation. */
  trimmed = 0;
  #cols: number;
  #rows: number;
  #scrollback: number;
  #ring: (Line | PackedLine | undefined)[];
  #mask: number;
  #head = 0;
  #count = 0;
  #store = new LineStore();
  /**
   * History lines with an absolute number below this were packed by
   * {@link compactHistory} (except those unpacked since, listed in
   * {@link #unpacked}, and those with extras, which stay `Line`s).
   */
  #packedEnd = 0;
  #packed: PackedStore | null = null;
  /** Absolute numbers of packed lines that {@link getLine} unpacked. */
  #unpacked: number[] = [];

  /**
   * A buffer of `rows` blank screen lines and no history yet.
   *
   * @param cols cells per line
   * @param rows screen lines
   * @param scrollback history limit in lines (`Infinity` allowed; ignored
   *   for the alternate screen, which has none)
   */
  constructor(cols: number, rows: number, scrollback: number, isAlt = false) {
    this.isAlt = isAlt;
    this.#cols = cols;
    this.#rows = rows;
    this.#scrollback = isAlt ? 0 : Math.max(0, scrollback);
    const cap = pow2AtLeast(rows + Math.min(this.#scrollback, 1024));
    this.#ring = new Array(cap);
    this.#mask = cap - 1;
    for (let y = 0; y < rows; y++) this.#append(new Line(cols));
  }

  /**
   * A buffer that holds `lines` (history, then the `rows` screen lines) as
   * a snapshot recorded them; `trimmed` is the absolute number of line 0.
   * The caller checks the sizes (`core/serialize/snapshot.ts`).
   */
  static fromLines(
    cols: number,
    rows: number,
    scrollback: number,
    isAlt: boolean,
    lines: Line[],
    trimmed: number,
  ): Buffer {
    const b = new Buffer(cols, rows, scrollback, isAlt);
    b.#dropTop(b.#count, false);
    b.#ensureCapacity(lines.length);
    for (const line of lines) b.#append(line);
    b.trimmed = trimmed;
    return b;
  }

  /** Cells per line. */
  get cols(): number {
    return this.#cols;
  }
  /** Screen lines. */
  get rows(): number {
    return this.#rows;
  }
  /** Lines held: history + screen. */
  get length(): number {
    return this.#count;
  }
  /** Lines of history above the screen. */
  get historyLength(): number {
    return this.#count - this.#rows;
  }
  /** The history limit in lines. */
  get scrollback(): number {
    return this.#scrollback;
  }
  set scrollback(n: number) {
    if (this.isAlt) return;
    this.#scrollback = Math.max(0, n);
    this.#trimToLimit();
  }

  /** Line `i` (0 = oldest history line). */
  getLine(i: number): Line {
    const l = this.#ring[(this.#head + i) & this.#mask]!;
    return l instanceof PackedLine ? this.#unpackAt(i, l) : l;
  }

  /**
   * A packed history line as a `Line` again; it takes the packed one's
   * place, so that changes to it stay, until the next
   * {@link compactHistory}.
   */
  #unpackAt(i: number, packed: PackedLine): Line {
    const line = this.#store.take(packed.cols, 0);
    unpackInto(packed, line);
    this.#ring[(this.#head + i) & this.#mask] = line;
    this.#unpacked.push(this.trimmed + i);
    return line;
  }

  /**
   * Store the history lines compactly (see `packed_line.ts`): a line of
   * history then costs about its content instead of 16 bytes a cell.
   * Lines with extras (marks, embeds) stay as they are. {@link getLine}
   * gives back an equal `Line`, so nothing else sees the difference except
   * identity: call this only where no one holds a history `Line` (the
   * server's emulator calls it after each message), never for a buffer a
   * renderer draws (it keeps `Line`s by identity). Returns the number of
   * lines packed now (their cell arrays are garbage from then on).
   */
  compactHistory(): number {
    const end = this.trimmed + this.#count - this.#rows;
    let n = 0;
    for (let abs = Math.max(this.#packedEnd, this.trimmed); abs < end; abs++) {
      n += this.#pack(abs - this.trimmed);
    }
    this.#packedEnd = Math.max(this.#packedEnd, end);
    for (const abs of this.#unpacked) {
      if (abs >= this.trimmed && abs < end) n += this.#pack(abs - this.trimmed);
    }
    this.#unpacked.length = 0;
    return n;
  }

  #pack(i: number): number {
    const k = (this.#head + i) & this.#mask;
    const line = this.#ring[k];
    if (line instanceof Line && line.extras === null) {
      this.#ring[k] = (this.#packed ??= new PackedStore()).pack(line);
      this.#store.recycle(line);
      return 1;
    }
    return 0;
  }

  /**
   * Pass every ATTR word that has an extended-style id (its high 16 bits)
   * to `visit`, newest line first (the screen from its bottom row up, then
   * the history), packed lines' style runs included, and store what it
   * returns in its place (see `mapLineExtAttrs`, `mapPackedAttrs`).
   * `onLine` sees each line that is a `Line` after its cells (packed ones
   * have no extras), for what else it holds. Unpacks nothing. For the
   * extended-style sweep (`core/emulator/ext_sweep.ts`).
   */
  mapExtAttrs(
    visit: (attr: number) => number,
    onLine?: (line: Line) => void,
  ): void {
    let packedChanged = false;
    for (let i = this.#count - 1; i >= 0; i--) {
      const l = this.#ring[(this.#head + i) & this.#mask];
      if (l instanceof PackedLine) {
        if (mapPackedAttrs(l, visit)) packedChanged = true;
      } else if (l !== undefined) {
        mapLineExtAttrs(l, visit);
        onLine?.(l);
      }
    }
    if (packedChanged) this.#packed?.forgetStyles();
  }

  /** Screen row `y` (0 = top of the screen). */
  screenLine(y: number): Line {
    // Only history lines are ever packed.
    return this
      .#ring[(this.#head + this.#count - this.#rows + y) & this.#mask] as Line;
  }

  /** Replace screen row `y`. */
  setScreenLine(y: number, line: Line): void {
    this.#ring[(this.#head + this.#count - this.#rows + y) & this.#mask] = line;
  }

  #ensureCapacity(n: number): void {
    const cap = this.#ring.length;
    if (n <= cap) return;
    const newCap = pow2AtLeast(n);
    const ring: (Line | PackedLine | undefined)[] = new Array(newCap);
    for (let i = 0; i < this.#count; i++) {
      ring[i] = this.#ring[(this.#head + i) & this.#mask];
    }
    this.#ring = ring;
    this.#mask = newCap - 1;
    this.#head = 0;
  }

  /** Append a line at the bottom (no limit check). */
  #append(line: Line): void {
    this.#ensureCapacity(this.#count + 1);
    this.#ring[(this.#head + this.#count) & this.#mask] = line;
    this.#count++;
  }

  /** Drop `n` lines from the top (oldest). */
  #dropTop(n: number, countAsTrimmed: boolean): void {
    for (let i = 0; i < n; i++) {
      const line = this.#ring[this.#head];
      if (line instanceof Line) this.#store.recycle(line);
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) & this.#mask;
    }
    this.#count -= n;
    if (countAsTrimmed) this.trimmed += n;
  }

  #trimToLimit(): void {
    const excess = this.#count - this.#rows - this.#scrollback;
    if (excess > 0) this.#dropTop(excess, true);
  }

  /**
   * What `n` line feeds at the bottom of a full-screen region of the normal
   * buffer do, one `scrollUp(0, rows - 1, 1, bg, true)` each, in time that
   * grows with the lines kept rather than with `n`: the lines that would
   * be appended only to be trimmed again are counted, not made.
   */
  scrollUpLines(n: number, bg: number): void {
    if (n <= 0 || this.isAlt) return;
    const limit = this.#rows + this.#scrollback;
    const drop = Math.max(0, this.#count + n - limit);
    // Lines held now that leave, and lines appended that stay: one old line
    // out for each new one in while both last, so the store reuses them.
    let old = Math.min(this.#count, drop);
    let fresh = n - (drop - old);
    this.trimmed += drop - old;
    const cols = this.#cols;
    for (; old > 0 && fresh > 0; old--, fresh--) {
      this.#dropTop(1, true);
      this.#append(this.#store.take(cols, bg));
    }
    if (old > 0) this.#dropTop(old, true);
    for (; fresh > 0; fresh--) this.#append(this.#store.take(cols, bg));
  }

  /**
   * Scroll screen rows [top, bottom] up by `n` over the full width; `n` new
   * blank lines of background `bg` appear at `bottom`. With `toHistory`
   * (normal buffer, `top` = 0) the lines scrolled off go to history (the
   * oldest history lines are trimmed beyond the limit); otherwise they are
   * discarded.
   */
  scrollUp(
    top: number,
    bottom: number,
    n: number,
    bg: number,
    toHistory: boolean,
  ): void {
    const rows = this.#rows;
    n = Math.min(n, bottom - top + 1);
    if (n <= 0) return;
    const cols = this.#cols;
    if (toHistory && top === 0 && !this.isAlt) {
      const limit = rows + this.#scrollback;
      for (let k = 0; k < n; k++) {
        if (this.#count >= limit) this.#dropTop(1, true);
        this.#append(this.#store.take(cols, bg));
      }
      if (bottom < rows - 1) {
        // Rows below the region moved up with the rest: put them back, and
        // the new blank lines at the bottom of the region.
        const blanks: Line[] = [];
        for (let y = rows - n; y < rows; y++) blanks.push(this.screenLine(y));
        for (let y = rows - 1; y > bottom; y--) {
          this.setScreenLine(y, this.screenLine(y - n));
        }
        for (let k = 0; k < n; k++) {
          this.setScreenLine(bottom - n + 1 + k, blanks[k]);
        }
      }
      return;
    }
    for (let y = top; y < top + n; y++) this.#store.recycle(this.screenLine(y));
    for (let y = top; y + n <= bottom; y++) {
      this.setScreenLine(y, this.screenLine(y + n));
    }
    for (let y = bottom - n + 1; y <= bottom; y++) {
      this.setScreenLine(y, this.#store.take(cols, bg));
    }
  }

  /** Scroll screen rows [top, bottom] down by `n`; blank lines appear at `top`. */
  scrollDown(top: number, bottom: number, n: number, bg: number): void {
    n = Math.min(n, bottom - top + 1);
    if (n <= 0) return;
    for (let y = bottom - n + 1; y <= bottom; y++) {
      this.#store.recycle(this.screenLine(y));
    }
    for (let y = bottom; y - n >= top; y--) {
      this.setScreenLine(y, this.screenLine(y - n));
    }
    for (let y = top; y < top + n; y++) {
      this.setScreenLine(y, this.#store.take(this.#cols, bg));
    }
  }

  /**
   * Scroll the rectangle rows [top, bottom] x columns [left, right] up by
   * `n` (cells move, lines stay; nothing goes to history).
   */
  scrollRectUp(
    top: number,
    bottom: number,
    left: number,
    right: number,
    n: number,
    bg: number,
  ): void {
    n = Math.min(n, bottom - top + 1);
    if (n <= 0) return;
    const w = right - left + 1;
    for (let y = top; y + n <= bottom; y++) {
      copyCells(this.screenLine(y), left, this.screenLine(y + n), left, w);
    }
    for (let y = bottom - n + 1; y <= bottom; y++) {
      eraseCells(this.screenLine(y), left, right + 1, bg);
    }
  }

  /** Scroll the rectangle rows [top, bottom] x columns [left, right] down by `n`. */
  scrollRectDown(
    top: number,
    bottom: number,
    left: number,
    right: number,
    n: number,
    bg: number,
  ): void {
    n = Math.min(n, bottom - top + 1);
    if (n <= 0) return;
    const w = right - left + 1;
    for (let y = bottom; y - n >= top; y--) {
      copyCells(this.screenLine(y), left, this.screenLine(y - n), left, w);
    }
    for (let y = top; y < top + n; y++) {
      eraseCells(this.screenLine(y), left, right + 1, bg);
    }
  }

  /** Drop the whole history (ED 3). */
  clearHistory(): void {
    const h = this.historyLength;
    if (h > 0) this.#dropTop(h, true);
  }

  /** Replace every screen line with a blank one of background `bg`. */
  clearScreen(bg: number): void {
    for (let y = 0; y < this.#rows; y++) {
      this.setScreenLine(y, this.#store.take(this.#cols, bg));
    }
  }

  /**
   * Change the size. `cursor` is the buffer's cursor (for the inactive
   * normal buffer: its saved cursor); it and `others` (saved cursors) are
   * updated in place and stay inside the screen.
   *
   * Columns: the normal buffer reflows (see `reflow.ts`), history included;
   * the screen keeps its top line when blank lines were left at the bottom,
   * otherwise its bottom, and always shows the cursor. The alternate screen
   * only truncates or extends its lines.
   *
   * Rows (after any column change): fewer rows drop blank lines below the
   * cursor first, then move top lines into history as far as the cursor
   * allows (the alternate screen drops them), and only then drop lines
   * below the cursor. More rows pull lines back from history, then add
   * blank lines at the bottom.
   *
   * A pending wrap survives only where the cursor is still at the right
   * edge after a reflow.
   */
  resize(
    cols: number,
    rows: number,
    cursor: CursorPosition,
    others: CursorPosition[] = [],
  ): void {
    const all = [cursor, ...others];
    if (cols !== this.#cols) {
      if (this.isAlt) {
        const oldCols = this.#cols;
        for (let i = 0; i < this.#count; i++) {
          resizeLine(this.getLine(i), cols);
        }
        for (const c of all) {
          // A pending wrap becomes a real position when the line grows
          // (the next character follows the last one), else it is dropped.
          const after = c.wrapPending && c.x === oldCols - 1 ? 1 : 0;
          c.x = Math.min(c.x + after, cols - 1);
          c.wrapPending = false;
        }
      } else {
        this.#reflow(cols, all);
      }
      this.#cols = cols;
      this.#store.clear();
    }
    this.#resizeRows(rows, all);
    for (const c of all) {
      c.x = Math.max(0, Math.min(cols - 1, c.x));
      c.y = Math.max(0, Math.min(rows - 1, c.y));
    }
  }

  /** Re-wrap every line to `cols`; place the screen (see {@link resize}). */
  #reflow(cols: number, cursors: CursorPosition[]): void {
    const rows = this.#rows;
    const top = this.#count - rows;
    const cursorLine = top + clampRow(cursors[0].y, rows);
    // Blank lines at the bottom below the cursor, before the reflow.
    let blankBelow = 0;
    while (
      blankBelow < this.#count - 1 - cursorLine &&
      isBlankLine(this.getLine(this.#count - 1 - blankBelow))
    ) {
      blankBelow++;
    }
    const points: ReflowPoint[] = cursors.map((c) => ({
      line: top + clampRow(c.y, rows),
      x: c.x,
      after: c.wrapPending,
      occupies: true,
    }));
    points.push({ line: top, x: 0 }); // the screen's top line
    const { lines, points: moved } = reflow(this, cols, points);
    // Every line is a new one: none is packed.
    this.#packedEnd = 0;
    this.#unpacked.length = 0;
    const cur = moved[0].line;
    let n = lines.length;
    let newTop: number;
    if (blankBelow > 0) {
      // Blank rows at the bottom: keep the top line where it was and let
      // the content grow into them (or leave more blank rows).
      newTop = Math.max(moved[moved.length - 1].line, cur - rows + 1);
      // Lines past the screen must be blank; otherwise show them, as long
      // as the cursor stays on the screen.
      let lastContent = n - 1;
      while (lastContent > cur && isBlankLine(lines[lastContent])) {
        lastContent--;
      }
      newTop = Math.min(cur, Math.max(newTop, lastContent - rows + 1));
    } else {
      // The screen was full: keep its bottom (history comes down or goes up).
      newTop = n - rows;
    }
    newTop = Math.max(0, newTop);
    if (n > newTop + rows) n = newTop + rows;
    // Install the lines (plus blank ones if the screen is not full).
    const total = Math.max(n, newTop + rows);
    const cap = pow2AtLeast(total + 1);
    const ring: (Line | undefined)[] = new Array(cap);
    for (let i = 0; i < n; i++) ring[i] = lines[i];
    for (let i = n; i < total; i++) ring[i] = new Line(cols);
    this.#ring = ring;
    this.#mask = cap - 1;
    this.#head = 0;
    this.#count = total;
    for (let i = 0; i < cursors.length; i++) {
      const c = cursors[i], m = moved[i];
      c.x = m.x;
      c.y = m.line - newTop;
      c.wrapPending = m.after;
    }
    this.#trimToLimit();
  }

  /** The row part of {@link resize}. */
  #resizeRows(rows: number, cursors: CursorPosition[]): void {
    const oldRows = this.#rows;
    if (rows < oldRows) {
      const remove = oldRows - rows;
      const cursorY = clampRow(cursors[0].y, oldRows);
      // Blank lines below the cursor go first.
      let below = 0;
      while (
        below < remove && below < oldRows - 1 - cursorY &&
        isBlankLine(this.screenLine(oldRows - 1 - below))
      ) {
        below++;
      }
      // Then top lines, as far as the cursor can move up.
      const up = Math.min(remove - below, cursorY);
      // Then, if needed, lines below the cursor after all.
      below = remove - up;
      for (let k = 0; k < below; k++) {
        this.#count--;
        this.#ring[(this.#head + this.#count) & this.#mask] = undefined;
      }
      this.#rows = rows;
      for (const c of cursors) c.y -= up;
      if (this.isAlt) {
        if (up > 0) this.#dropTop(up, false);
      } else {
        this.#trimToLimit();
      }
    } else if (rows > oldRows) {
      const add = rows - oldRows;
      const pull = this.isAlt ? 0 : Math.min(add, this.historyLength);
      // History lines that become screen lines must be Lines.
      for (let k = 0; k < pull; k++) this.getLine(this.historyLength - 1 - k);
      const histEnd = this.trimmed + this.historyLength - pull;
      this.#packedEnd = Math.min(this.#packedEnd, histEnd);
      this.#rows = rows;
      for (const c of cursors) c.y += pull;
      for (let k = pull; k < add; k++) this.#append(new Line(this.#cols));
      for (let y = 0; y < pull; y++) this.screenLine(y).dirty = true;
    }
  }
}

/** A cursor position on the screen of a buffer (see {@link Buffer.resize}). */
export interface CursorPosition {
  x: number;
  y: number;
  wrapPending: boolean;
}

function clampRow(y: number, rows: number): number {
  return Math.max(0, Math.min(rows - 1, Math.floor(y) || 0));
}

/** True for a line with nothing to show: no cells set, no extras, no wrap. */
export function isBlankLine(line: Line): boolean {
  if (line.wrapped || line.extras !== null) return false;
  const d = line.data;
  for (let i = 0; i < d.length; i++) if (d[i] !== 0) return false;
  return true;
}
