/**
 * Reflow: re-wrap display rows to a new width.
 *
 * A *logical line* is a run of rows joined by `Line.wrapped` (the text of
 * one row goes on in the next). Reflow lays every logical line out again
 * at the new width:
 *
 * - Cells keep their colours, attributes (including the extended-style id
 *   in the high ATTR bits) and grapheme-cluster text.
 * - A wide character never splits across rows: when only its left half
 *   fits, it moves to the next row and the last cell of the row stays
 *   blank, as xterm leaves it on autowrap. Such a padding cell in the old
 *   layout (a blank last cell of a wrapped row whose next row starts with a
 *   wide character) is dropped, so narrow-then-wide round trips are exact.
 * - Trailing blank cells (erased, code 0) of a logical line are not
 *   content. The last row is padded with the background of the old last
 *   cell when that cell was blank, so a line erased in a colour stays
 *   coloured to the right edge at any width.
 * - `Line.extras`: marks and inline embeds (items with an `x`) move to the
 *   row and column that now hold their cell; other fields stay with the
 *   row that holds the first cell of their old row. A line with a `block`
 *   embed is never joined with other rows (it is only resized).
 * - A DomTerm pretty-printed block (`LineExtras.pretty`) is laid out again
 *   for the new width as a whole (`pretty_reflow.ts`), unless its rows no
 *   longer hold what it printed.
 * - A logical line of one row whose content fits keeps its `Line` object
 *   (a renderer that compares identity redraws nothing for it).
 *
 * Points (the cursor, the saved cursor, the top of the screen) are carried
 * through: each ends on the row and column that now hold its cell.
 *
 * The function is pure with respect to its input list: it returns new
 * lines; lines that keep their identity are changed in place, all other
 * input lines must not be used afterwards.
 *
 * @module
 */
import {
  A_CLUSTER,
  A_GLYPH_MASK,
  A_WIDE,
  A_WIDE_TAIL,
  ATTR,
  BG,
  CELL_STRIDE,
  CODE,
} from "./cell.ts";
import { Line, LINE_SINGLE } from "./line.ts";
import type { LineExtras } from "./line_extras.ts";
import { reflowPretty } from "./pretty_reflow.ts";

/** Lines to reflow, oldest first (a `Buffer` is one). */
export interface LineSource {
  readonly length: number;
  getLine(i: number): Line;
}

/** A position to carry through a reflow. */
export interface ReflowPoint {
  /** Index of the line in the source. */
  line: number;
  /** Column in that line. */
  x: number;
  /** The point is just after cell `x` (the cursor with a pending wrap). */
  after?: boolean;
  /**
   * The cell at `x` must exist after the reflow (the cursor: its logical
   * line is laid out at least up to it, even past the last character).
   * Other points beyond the content land on the last row of their line.
   */
  occupies?: boolean;
}

/** Where a {@link ReflowPoint} ended up. */
export interface ReflowedPoint {
  line: number;
  /** Column, 0 <= x < cols. */
  x: number;
  /** A pending wrap: the point is just after the last cell of its row. */
  after: boolean;
}

/** The result of {@link reflow}. */
export interface ReflowResult {
  lines: Line[];
  /** The points, in the order given. */
  points: ReflowedPoint[];
}

/** Rows carved out of one allocation (typed arrays are costly one by one). */
const BLOCK_ROWS = 256;

/** Hands out zeroed cell arrays of one width, carved from shared blocks. */
class CellArrays {
  #block = new Uint32Array(0);
  #offset = 0;
  constructor(readonly cols: number) {}

  take(): Uint32Array {
    const words = this.cols * CELL_STRIDE;
    if (this.#offset + words > this.#block.length) {
      this.#block = new Uint32Array(words * BLOCK_ROWS);
      this.#offset = 0;
    }
    const a = this.#block.subarray(this.#offset, this.#offset + words);
    this.#offset += words;
    return a;
  }
}

/** True when cell `x` of `d` holds nothing (code 0 and not a wide tail). */
function blankCell(d: Uint32Array, x: number): boolean {
  const i = x * CELL_STRIDE;
  return d[i + CODE] === 0 && (d[i + ATTR] & A_WIDE_TAIL) === 0;
}

/** True when the cells of `line` from `cols` on are all blank. */
function fitsIn(line: Line, cols: number): boolean {
  const d = line.data;
  for (
    let i = cols * CELL_STRIDE, e = line.cols * CELL_STRIDE;
    i < e;
    i += CELL_STRIDE
  ) {
    if (d[i + CODE] !== 0 || (d[i + ATTR] & A_WIDE_TAIL) !== 0) return false;
  }
  return true;
}

/** Copy `words` words from `src` at `from` to `dst` at `to`. */
function copyWords(
  dst: Uint32Array,
  to: number,
  src: Uint32Array,
  from: number,
  words: number,
): void {
  // Short runs: a loop beats allocating a subarray view for set().
  if (words <= 32) {
    for (let i = 0; i < words; i++) dst[to + i] = src[from + i];
  } else {
    dst.set(src.subarray(from, from + words), to);
  }
}

/** The largest `x + 1` of the positioned extras of `e` (0 if none). */
function extrasExtent(e: LineExtras | null): number {
  if (e === null) return 0;
  let n = 0;
  if (e.marks) { for (const m of e.marks) n = Math.max(n, m.x + 1); }
  if (e.inline) { for (const m of e.inline) n = Math.max(n, m.x + 1); }
  return n;
}

/** Background to pad the last row with: the old last cell's, if it was blank. */
function fillBackground(line: Line): number {
  const last = line.cols - 1;
  return last >= 0 && blankCell(line.data, last)
    ? line.data[last * CELL_STRIDE + BG]
    : 0;
}

/**
 * The full cell array behind a line's array that {@link refit} narrowed to
 * a view: the cells past the view belong to nobody else (a line's array is
 * never shared), so getting wider again needs no copy.
 */
const wider = new WeakMap<Uint32Array, Uint32Array>();

/** Give `line` `cols` cells in place, padding with background `bg`. */
function refit(line: Line, cols: number, bg: number, arrays: CellArrays): void {
  line.wrapped = false;
  if (line.cols === cols) return;
  const keep = Math.min(cols, line.cols);
  let data: Uint32Array;
  const full = wider.get(line.data);
  if (cols < line.cols) {
    // Narrower: a view of the cells kept (no copy; the rest was blank).
    // The whole array is remembered for getting wider again.
    data = line.data.subarray(0, cols * CELL_STRIDE);
    wider.set(data, full ?? line.data);
  } else if (full !== undefined && full.length >= cols * CELL_STRIDE) {
    // Wider again: the cells are still there; blank the ones uncovered.
    data = full.subarray(0, cols * CELL_STRIDE);
    data.fill(0, line.cols * CELL_STRIDE);
    wider.set(data, full);
  } else {
    data = arrays.take();
    copyWords(data, 0, line.data, 0, keep * CELL_STRIDE);
  }
  // A wide head whose tail was cut off becomes a blank.
  if (keep > 0 && (data[(keep - 1) * CELL_STRIDE + ATTR] & A_WIDE) !== 0) {
    data[(keep - 1) * CELL_STRIDE + CODE] = 0;
    data[(keep - 1) * CELL_STRIDE + ATTR] &= ~A_GLYPH_MASK;
  }
  if (bg !== 0) {
    for (let x = line.cols; x < cols; x++) data[x * CELL_STRIDE + BG] = bg;
  }
  if (line.clusters !== null) {
    for (const x of line.clusters.keys()) {
      if (x >= keep || (data[x * CELL_STRIDE + ATTR] & A_CLUSTER) === 0) {
        line.clusters.delete(x);
      }
    }
  }
  line.data = data;
  line.cols = cols;
  line.hi = bg !== 0 ? cols : Math.min(line.hi, cols);
  line.dirty = true;
}

/**
 * Re-wrap every logical line of `src` to `cols` cells per row and carry
 * `points` along. See the module documentation for the rules.
 */
export function reflow(
  src: LineSource,
  cols: number,
  points: readonly ReflowPoint[],
): ReflowResult {
  cols = Math.max(1, Math.floor(cols) || 1);
  const out: Line[] = [];
  const n = src.length;
  const result: ReflowedPoint[] = points.map(() => ({
    line: 0,
    x: 0,
    after: false,
  }));
  // Point indexes sorted by source line, consumed logical line by line.
  // Points outside the source (bad input) are clamped to it.
  const lineOf = (p: ReflowPoint) =>
    Number.isFinite(p.line) ? Math.max(0, Math.min(n - 1, p.line)) : 0;
  const order = points.map((_, i) => i).sort((a, b) =>
    lineOf(points[a]) - lineOf(points[b])
  );
  let next = 0;
  const arrays = new CellArrays(cols);
  const group: Line[] = [];
  const groupPoints: GroupPoint[] = [];
  for (let a = 0; a < n;) {
    // A pretty-printed block is laid out again as a whole.
    const unit = reflowPretty(src, a, cols);
    if (unit !== null) {
      const end = a + unit.used - 1;
      const byLine: GroupPoint[][] = unit.lines.map(() => []);
      while (next < order.length && lineOf(points[order[next]]) <= end) {
        const id = order[next++];
        const p = points[id];
        const [t, x] = unit.map(
          lineOf(p) - a,
          Number.isFinite(p.x) ? Math.max(0, Math.floor(p.x)) : 0,
        );
        const w = unit.lines[t].cols;
        byLine[t].push({
          id,
          row: 0,
          x: Math.min(x, w - 1),
          after: p.after === true || x >= w,
          occupies: p.occupies === true,
        });
      }
      for (let t = 0; t < unit.lines.length; t++) {
        layoutGroup([unit.lines[t]], cols, byLine[t], result, out, arrays);
      }
      a = end + 1;
      continue;
    }
    // The logical line: rows a..b joined by `wrapped`, never across a block.
    let b = a;
    const first = src.getLine(a);
    group.length = 0;
    group.push(first);
    if (!isRigid(first)) {
      while (b + 1 < n && src.getLine(b).wrapped) {
        const l = src.getLine(b + 1);
        if (isRigid(l)) break;
        group.push(l);
        b++;
      }
    }
    groupPoints.length = 0;
    while (next < order.length && lineOf(points[order[next]]) <= b) {
      const id = order[next++];
      const p = points[id];
      groupPoints.push({
        id,
        row: lineOf(p) - a,
        x: Number.isFinite(p.x) ? Math.floor(p.x) : 0,
        after: p.after === true,
        occupies: p.occupies === true,
      });
    }
    if (
      b === a && groupPoints.length === 0 &&
      (first.extras === null || isRigid(first) ||
        extrasExtent(first.extras) <= cols) &&
      (fitsIn(first, cols) || isRigid(first))
    ) {
      // The common case: one row that fits. Keep the Line, change its width.
      refit(first, cols, fillBackground(first), arrays);
      out.push(first);
    } else {
      layoutGroup(group, cols, groupPoints, result, out, arrays);
    }
    a = b + 1;
  }
  return { lines: out, points: result };
}

/**
 * A line that keeps its rows as they are: a block embed, or a DEC
 * double-size line (its cells are drawn twice as wide, so re-wrapping them
 * by cell count would be wrong). It is only cut or padded.
 */
function isRigid(l: Line): boolean {
  return l.size !== LINE_SINGLE || l.extras?.block !== undefined;
}

/** A point inside one logical line. */
interface GroupPoint {
  /** Index into the caller's points. */
  id: number;
  /** Old row within the logical line. */
  row: number;
  x: number;
  after: boolean;
  occupies: boolean;
}

/** Store point `p` at cell (`line`, `x`), applying its pending-wrap rule. */
function place(
  result: ReflowedPoint[],
  p: GroupPoint,
  line: number,
  x: number,
  cols: number,
): void {
  // Just after a cell: the next column, or a pending wrap at the edge.
  if (p.after && x + 1 < cols) result[p.id] = { line, x: x + 1, after: false };
  else result[p.id] = { line, x, after: p.after };
}

/** Copy logical cells [from, to) of the rows into `data` (from column 0). */
function copyRange(
  rows: Line[],
  segStart: number[],
  segLen: number[],
  from: number,
  to: number,
  data: Uint32Array,
): void {
  let dx = 0;
  for (let r = 0; r < rows.length && from < to; r++) {
    const s = segStart[r], e = s + segLen[r];
    if (from >= e) continue;
    const upto = Math.min(to, e);
    const count = upto - from;
    const sx = from - s;
    copyWords(
      data,
      dx * CELL_STRIDE,
      rows[r].data,
      sx * CELL_STRIDE,
      count * CELL_STRIDE,
    );
    dx += count;
    from = upto;
  }
}

/** Move marks and inline embeds of an old row to the rows now holding their cells. */
function moveExtras(
  extras: LineExtras,
  rowStart: number,
  locate: (off: number) => [number, number],
  out: Line[],
  base: number,
): void {
  const target = (x: number) => {
    const [row, nx] = locate(rowStart + Math.max(0, x));
    return [out[base + row], nx] as const;
  };
  const extrasOf = (line: Line) => line.extras ??= {};
  for (const key of Object.keys(extras) as (keyof LineExtras)[]) {
    if (key === "marks") {
      for (const m of extras.marks ?? []) {
        const [line, x] = target(m.x);
        m.x = x;
        (extrasOf(line).marks ??= []).push(m);
      }
    } else if (key === "inline") {
      for (const m of extras.inline ?? []) {
        const [line, x] = target(m.x);
        m.x = x;
        (extrasOf(line).inline ??= []).push(m);
      }
    } else if (extras[key] !== undefined) {
      // A field without a column stays with the start of its old row.
      const [line] = target(0);
      const e = extrasOf(line) as Record<string, unknown>;
      if (e[key] === undefined) e[key] = extras[key];
    }
  }
}

/** Lay out one logical line (`rows`) at `cols` and append it to `out`. */
function layoutGroup(
  rows: Line[],
  cols: number,
  points: GroupPoint[],
  result: ReflowedPoint[],
  out: Line[],
  arrays: CellArrays,
): void {
  const base = out.length;
  const k = rows.length;
  // Logical start offset of each old row, and its usable length.
  const segStart = new Array<number>(k);
  const segLen = new Array<number>(k);
  let total = 0;
  for (let r = 0; r < k; r++) {
    const l = rows[r];
    let len = l.cols;
    // A blank last cell before a row that starts with a wide character is
    // the padding autowrap left: not content.
    if (
      r + 1 < k && len > 0 && blankCell(l.data, len - 1) &&
      rows[r + 1].cols > 0 && (rows[r + 1].attr(0) & A_WIDE) !== 0
    ) {
      len--;
    }
    segStart[r] = total;
    segLen[r] = len;
    total += len;
  }
  const offsetOf = (r: number, x: number) =>
    segStart[r] + Math.max(0, Math.min(x, rows[r].cols - 1));

  // The extent to lay out: the content, plus the cells that occupying
  // points and positioned extras need.
  let extent = 0;
  for (let r = k - 1; r >= 0; r--) {
    const end = Math.min(rows[r].contentEnd(), segLen[r]);
    if (end > 0) {
      extent = segStart[r] + end;
      break;
    }
  }
  for (let r = 0; r < k; r++) {
    const e = extrasExtent(rows[r].extras);
    if (e > 0) extent = Math.max(extent, segStart[r] + Math.min(e, segLen[r]));
  }
  for (const p of points) {
    if (p.occupies) extent = Math.max(extent, offsetOf(p.row, p.x) + 1);
  }
  const fill = fillBackground(rows[k - 1]);

  // One row that fits (or a block line): keep the Line, change its width.
  if (k === 1 && (extent <= cols || isRigid(rows[0]))) {
    refit(rows[0], cols, fill, arrays);
    out.push(rows[0]);
    for (const p of points) {
      place(result, p, base, Math.max(0, Math.min(p.x, cols - 1)), cols);
    }
    return;
  }

  // Cut the logical cells [0, extent) into rows of at most `cols` cells.
  const starts: number[] = [];
  let seg = 0; // old row of the last attrAt lookup (lookups go forward)
  const attrAt = (off: number): number => {
    while (seg + 1 < k && off >= segStart[seg + 1]) seg++;
    const x = off - segStart[seg];
    return x < rows[seg].cols ? rows[seg].attr(x) : 0;
  };
  let start = 0;
  do {
    starts.push(start);
    const data = arrays.take();
    const line = new Line(cols, 0, data);
    let end = Math.min(start + cols, extent);
    if (end < extent && (attrAt(end) & A_WIDE_TAIL) !== 0) {
      if (end - 1 > start) {
        end--; // the wide character moves to the next row
      } else {
        // One column: a wide character cannot be shown; a blank in its
        // colours stands for both halves.
        end++;
        copyRange(rows, segStart, segLen, start, start + 1, data);
        data[CODE] = 0;
        data[ATTR] &= ~A_GLYPH_MASK;
      }
    }
    if (end - start <= cols) {
      copyRange(rows, segStart, segLen, start, end, data);
    }
    if (end >= extent && fill !== 0) {
      for (let x = end - start; x < cols; x++) {
        data[x * CELL_STRIDE + BG] = fill;
      }
    }
    // Written straight into `data`: cells [0, end - start), one more in
    // the one-column case, the whole row when padded.
    line.touch(end >= extent && fill !== 0 ? cols : end - start + 1);
    line.wrapped = end < extent;
    out.push(line);
    start = end;
  } while (start < extent);

  // Where logical offset `off` is now: [row within the group, column].
  const last = starts.length - 1;
  const locate = (off: number): [number, number] => {
    let lo = 0, hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= off) lo = mid;
      else hi = mid - 1;
    }
    return [lo, Math.max(0, Math.min(off - starts[lo], cols - 1))];
  };

  // Clusters and extras follow their cells.
  for (let r = 0; r < k; r++) {
    const old = rows[r];
    if (old.clusters !== null) {
      for (const [x, text] of old.clusters) {
        if (x >= segLen[r] || segStart[r] + x >= extent) continue;
        const [row, nx] = locate(segStart[r] + x);
        const line = out[base + row];
        if ((line.attr(nx) & A_CLUSTER) !== 0) {
          (line.clusters ??= new Map()).set(nx, text);
        }
      }
    }
    if (old.extras !== null) {
      moveExtras(old.extras, segStart[r], locate, out, base);
    }
  }

  for (const p of points) {
    const [row, x] = locate(offsetOf(p.row, p.x));
    place(result, p, base + row, x, cols);
  }
}
