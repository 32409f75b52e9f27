/**
 * One display row of the terminal: a fixed number of cells plus a soft-wrap
 * flag. See `cell.ts` for the cell layout.
 *
 * @module
 */
import {
  A_CLUSTER,
  A_GLYPH_MASK,
  A_WIDE_TAIL,
  ATTR,
  BG,
  CELL_STRIDE,
  CODE,
  FG,
} from "./cell.ts";
import { cloneExtras, type LineExtras } from "./line_extras.ts";

/** The cap on a cell's cluster text (`Line.setCluster`): see `core/unicode/clusters.ts`. */
export { MAX_CLUSTER_LENGTH } from "../unicode/clusters.ts";

/**
 * How a line is drawn (DEC line attributes, `ESC # 5/6/3/4`): single size,
 * double width (DECDWL), or the top / bottom half of double height
 * (DECDHL; both halves are double width too). A double-size line holds
 * only the first half of its cells (`cols >> 1`) in view.
 */
export type LineSize = 0 | 1 | 2 | 3;
/** Single width and height (DECSWL, the default). */
export const LINE_SINGLE = 0;
/** Double width (DECDWL). */
export const LINE_DOUBLE_WIDTH = 1;
/** Top half of a double-height line (DECDHL top). */
export const LINE_DOUBLE_TOP = 2;
/** Bottom half of a double-height line (DECDHL bottom). */
export const LINE_DOUBLE_BOTTOM = 3;

/** A row of cells. */
export class Line {
  /** Cells, {@link CELL_STRIDE} words each. */
  data: Uint32Array;
  /** Number of cells. */
  cols: number;
  /** True when the text continues on the next line (soft wrap, autowrap). */
  wrapped = false;
  /**
   * Set by every change to the line; the renderer clears it after it has
   * drawn the line. New lines start dirty.
   */
  dirty = true;
  /** Grapheme-cluster text of cells that have the A_CLUSTER attribute. */
  clusters: Map<number, string> | null = null;
  /** Marks and embedded content (see `line_extras.ts`), or null. */
  extras: LineExtras | null = null;
  /** DEC line size (see {@link LineSize}); {@link LINE_SINGLE} for ordinary lines. */
  size: LineSize = LINE_SINGLE;
  /**
   * Every cell at or past this one is all zero (all four words): a line
   * handed out again (LineStore in buffer.ts) clears only the cells before
   * it, not 16 bytes for each of `cols` cells in memory that history has
   * left cold. Whatever writes cells raises it ({@link touch}); it may be
   * too high, never too low.
   */
  hi = 0;

  /**
   * A blank line of `cols` cells with background `bg` (erase colour).
   * `storage`, if given, must be a zero-filled array of exactly
   * `cols * CELL_STRIDE` words (e.g. a view into a larger block, so that
   * scrolling does not allocate one backing store per line).
   */
  constructor(cols: number, bg = 0, storage?: Uint32Array) {
    this.cols = cols;
    this.data = storage ?? new Uint32Array(cols * CELL_STRIDE);
    if (bg !== 0) this.fill(0, cols, 0, 0, bg, 0);
  }

  /**
   * Make a recycled line (its `data` already zero-filled, `cols` cells) a
   * new blank line, as the constructor would (see LineStore in buffer.ts).
   */
  reset(cols: number, bg: number): void {
    this.cols = cols;
    this.hi = 0;
    this.wrapped = false;
    this.dirty = true;
    this.clusters = null;
    this.extras = null;
    this.size = LINE_SINGLE;
    if (bg !== 0) this.fill(0, cols, 0, 0, bg, 0);
  }

  /** Cells before `to` may be written (not all zero): raise {@link hi}. */
  touch(to: number): void {
    if (to > this.hi) this.hi = Math.min(to, this.cols);
  }

  /** Code point of cell `x` (0 for blank cells and wide-character tails). */
  code(x: number): number {
    return this.data[x * CELL_STRIDE + CODE];
  }
  /** Foreground colour word of cell `x` (the renderer reads `data` directly). */
  fg(x: number): number {
    return this.data[x * CELL_STRIDE + FG];
  }
  /** Background colour word of cell `x` (the renderer reads `data` directly). */
  bg(x: number): number {
    return this.data[x * CELL_STRIDE + BG];
  }
  /** Attribute word of cell `x`. */
  attr(x: number): number {
    return this.data[x * CELL_STRIDE + ATTR];
  }

  /** Write one cell. Clears any cluster text the cell had. */
  set(x: number, code: number, fg: number, bg: number, attr: number): void {
    const i = x * CELL_STRIDE;
    const d = this.data;
    if ((d[i + ATTR] & A_CLUSTER) !== 0) this.clusters?.delete(x);
    d[i + CODE] = code;
    d[i + FG] = fg;
    d[i + BG] = bg;
    d[i + ATTR] = attr;
    if (x >= this.hi) this.hi = x + 1;
    this.dirty = true;
  }

  /** Give cell `x` grapheme-cluster text (sets A_CLUSTER). */
  setCluster(x: number, text: string): void {
    (this.clusters ??= new Map()).set(x, text);
    this.data[x * CELL_STRIDE + ATTR] |= A_CLUSTER;
    if (x >= this.hi) this.hi = x + 1;
    this.dirty = true;
  }

  /** Fill cells [from, to) with `code`, colours and attributes (clamped to the line). */
  fill(
    from: number,
    to: number,
    code: number,
    fg: number,
    bg: number,
    attr: number,
  ): void {
    from = Math.max(0, from);
    to = Math.min(this.cols, to);
    if (from >= to) return;
    const d = this.data;
    if (this.clusters) {
      for (let x = from; x < to; x++) this.clusters.delete(x);
    }
    for (
      let i = from * CELL_STRIDE, e = to * CELL_STRIDE;
      i < e;
      i += CELL_STRIDE
    ) {
      d[i + CODE] = code;
      d[i + FG] = fg;
      d[i + BG] = bg;
      d[i + ATTR] = attr;
    }
    if (to > this.hi) this.hi = to;
    this.dirty = true;
  }

  /** The text of cell `x`: "" for a wide-character tail, " " for a blank. */
  text(x: number): string {
    const i = x * CELL_STRIDE;
    const a = this.data[i + ATTR];
    if ((a & A_GLYPH_MASK) !== 0) {
      if ((a & A_WIDE_TAIL) !== 0) return "";
      if ((a & A_CLUSTER) !== 0) {
        const s = this.clusters?.get(x);
        if (s !== undefined) return s;
      }
    }
    const c = this.data[i + CODE];
    return c === 0 ? " " : String.fromCodePoint(c);
  }

  /** Cells up to and including the last non-blank one (0: all blank). */
  contentEnd(): number {
    const d = this.data;
    let i = this.hi * CELL_STRIDE; // every cell past hi is blank
    while (i > 0 && d[i - CELL_STRIDE + CODE] === 0) {
      if ((d[i - CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) break;
      i -= CELL_STRIDE;
    }
    return i / CELL_STRIDE;
  }

  /**
   * The line's text from `start` to `end` (cells), blanks as spaces. With
   * `trimRight`, trailing blank cells are left out.
   */
  toString(trimRight = false, start = 0, end = this.cols): string {
    end = Math.min(end, this.cols);
    if (trimRight) {
      end = Math.max(start, Math.min(end, this.hi)); // blank past hi
      while (end > start && this.data[(end - 1) * CELL_STRIDE + CODE] === 0) {
        end--;
      }
    }
    let s = "";
    for (let x = start; x < end; x++) s += this.text(x);
    return s;
  }

  /** A deep copy (cells, clusters and extras), to compare with later. */
  clone(): Line {
    const l = new Line(0);
    l.cols = this.cols;
    l.data = this.data.slice();
    l.hi = this.hi;
    l.wrapped = this.wrapped;
    l.size = this.size;
    l.clusters = this.clusters ? new Map(this.clusters) : null;
    l.extras = cloneExtras(this.extras);
    return l;
  }

  /**
   * Change the number of cells: truncate, or extend with blank cells of
   * background `bg`. Does not rewrap.
   */
  resize(cols: number, bg = 0): void {
    if (cols === this.cols) return;
    const data = new Uint32Array(cols * CELL_STRIDE);
    data.set(this.data.subarray(0, Math.min(cols, this.cols) * CELL_STRIDE));
    const old = this.cols;
    this.data = data;
    this.cols = cols;
    this.hi = Math.min(this.hi, cols);
    if (cols > old && bg !== 0) this.fill(old, cols, 0, 0, bg, 0);
    if (this.clusters) {
      for (const x of this.clusters.keys()) {
        if (x >= cols) this.clusters.delete(x);
      }
    }
    this.dirty = true;
  }
}
