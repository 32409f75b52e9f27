/**
 * Cell-range edits on a {@link Line} that keep wide characters and grapheme
 * clusters consistent: no operation leaves half of a wide character behind.
 *
 * @module
 */
import {
  A_CLUSTER,
  A_GLYPH_MASK,
  A_PROTECTED,
  A_WIDE,
  A_WIDE_TAIL,
  ATTR,
  CELL_STRIDE,
  CODE,
} from "./cell.ts";
import type { Line } from "./line.ts";

/** Turn cell `x` into a blank that keeps its colours (used for orphaned wide halves). */
function orphanToBlank(line: Line, x: number): void {
  const i = x * CELL_STRIDE;
  const d = line.data;
  if ((d[i + ATTR] & A_CLUSTER) !== 0) line.clusters?.delete(x);
  d[i + CODE] = 0;
  d[i + ATTR] &= ~A_GLYPH_MASK;
  line.dirty = true;
}

/**
 * Make `x` a clean cell boundary: when a wide character straddles cells
 * `x - 1` and `x`, both halves become blanks. `x` may be 0 or `line.cols`.
 */
export function splitWideAt(line: Line, x: number): void {
  if (x <= 0 || x >= line.cols) return;
  if ((line.data[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) {
    orphanToBlank(line, x - 1);
    orphanToBlank(line, x);
  }
}

/**
 * Erase cells [from, to) to blanks with background `bg` (background colour
 * erase), splitting wide characters at both ends.
 */
export function eraseCells(
  line: Line,
  from: number,
  to: number,
  bg: number,
): void {
  from = Math.max(0, from);
  to = Math.min(line.cols, to);
  if (from >= to) return;
  splitWideAt(line, from);
  splitWideAt(line, to);
  blank(line, from, to, bg);
}

/** Cells [from, to) (already clamped) become blanks with background `bg`. */
function blank(line: Line, from: number, to: number, bg: number): void {
  const clusters = line.clusters;
  if (clusters !== null && clusters.size > 0) {
    for (let x = from; x < to; x++) clusters.delete(x);
  }
  const d = line.data;
  if (bg === 0 && to - from > 24) {
    d.fill(0, from * CELL_STRIDE, to * CELL_STRIDE);
  } else {
    for (
      let i = from * CELL_STRIDE, e = to * CELL_STRIDE;
      i < e;
      i += CELL_STRIDE
    ) {
      d[i] = 0;
      d[i + 1] = 0;
      d[i + 2] = bg;
      d[i + 3] = 0;
    }
  }
  if (bg !== 0) line.touch(to);
  line.dirty = true;
}

/**
 * Selective erase (DECSED/DECSEL): blank the characters of cells [from, to)
 * that are not protected (DECSCA), keeping their colours and attributes.
 */
export function selectiveEraseCells(
  line: Line,
  from: number,
  to: number,
): void {
  from = Math.max(0, from);
  to = Math.min(line.cols, to);
  if (from >= to) return;
  const d = line.data;
  const unprotected = (x: number) =>
    (d[x * CELL_STRIDE + ATTR] & A_PROTECTED) === 0;
  if (unprotected(from)) splitWideAt(line, from);
  if (to < line.cols && unprotected(to)) splitWideAt(line, to);
  for (let x = from; x < to; x++) {
    if (!unprotected(x)) continue;
    // A wide character whose halves differ in protection (ISO protection
    // dropped for part of it, DECSEL 1 at its head) goes as a whole: its
    // other half keeps its attributes but not its glyph, never a lone
    // head or tail (which a snapshot restore would repair into a blank).
    const a = d[x * CELL_STRIDE + ATTR];
    if ((a & A_WIDE) !== 0 && x + 1 < line.cols) orphanToBlank(line, x + 1);
    if ((a & A_WIDE_TAIL) !== 0 && x > 0) orphanToBlank(line, x - 1);
    orphanToBlank(line, x);
  }
  line.dirty = true;
}

/** Move cluster entries with keys in [from, to) by `delta`; drop those that fall outside [0, limit). */
function shiftClusters(
  line: Line,
  from: number,
  to: number,
  delta: number,
  limit: number,
): void {
  const map = line.clusters;
  if (map === null || map.size === 0) return;
  const moved: [number, string][] = [];
  for (const [x, s] of map) {
    if (x >= from && x < to) moved.push([x, s]);
  }
  for (const [x] of moved) map.delete(x);
  for (const [x, s] of moved) {
    const nx = x + delta;
    if (nx >= 0 && nx < limit) map.set(nx, s);
  }
}

/**
 * Insert `n` blank cells (background `bg`) at `x`, shifting cells up to
 * `right` (exclusive) to the right; cells pushed past `right` are lost (ICH).
 */
export function insertCells(
  line: Line,
  x: number,
  n: number,
  right: number,
  bg: number,
): void {
  right = Math.min(right, line.cols);
  if (x < 0 || x >= right || n <= 0) return;
  n = Math.min(n, right - x);
  splitWideAt(line, x);
  splitWideAt(line, right);
  splitWideAt(line, right - n);
  const d = line.data;
  if (line.clusters !== null) {
    for (let k = right - n; k < right; k++) line.clusters.delete(k);
    shiftClusters(line, x, right - n, n, right);
  }
  line.touch(Math.min(right, line.hi + n)); // cells moved right by n
  d.copyWithin(
    (x + n) * CELL_STRIDE,
    x * CELL_STRIDE,
    (right - n) * CELL_STRIDE,
  );
  blank(line, x, x + n, bg);
}

/**
 * Delete `n` cells at `x`, shifting cells up to `right` (exclusive) to the
 * left and filling the gap at the right with blanks of background `bg` (DCH).
 */
export function deleteCells(
  line: Line,
  x: number,
  n: number,
  right: number,
  bg: number,
): void {
  right = Math.min(right, line.cols);
  if (x < 0 || x >= right || n <= 0) return;
  n = Math.min(n, right - x);
  splitWideAt(line, x);
  splitWideAt(line, x + n);
  splitWideAt(line, right);
  const d = line.data;
  if (line.clusters !== null) {
    for (let k = x; k < x + n; k++) line.clusters.delete(k);
    shiftClusters(line, x + n, right, -n, right);
  }
  d.copyWithin(x * CELL_STRIDE, (x + n) * CELL_STRIDE, right * CELL_STRIDE);
  blank(line, right - n, right, bg);
}

/**
 * Copy `count` cells from `src` at `sx` to `dst` at `dx` (different lines),
 * including cluster text. Wide characters cut by the range edges become
 * blanks in `dst`.
 */
export function copyCells(
  dst: Line,
  dx: number,
  src: Line,
  sx: number,
  count: number,
): void {
  if (count <= 0) return;
  splitWideAt(dst, dx);
  splitWideAt(dst, dx + count);
  if (dst.clusters !== null) {
    for (let k = dx; k < dx + count; k++) dst.clusters.delete(k);
  }
  dst.data.set(
    src.data.subarray(sx * CELL_STRIDE, (sx + count) * CELL_STRIDE),
    dx * CELL_STRIDE,
  );
  dst.touch(dx + count);
  if (src.clusters !== null && src.clusters.size > 0) {
    for (const [x, s] of src.clusters) {
      if (x >= sx && x < sx + count) {
        (dst.clusters ??= new Map()).set(x - sx + dx, s);
      }
    }
  }
  // A wide head copied as the last cell, or a tail copied as the first, is orphaned.
  const last = dx + count - 1;
  if ((dst.data[last * CELL_STRIDE + ATTR] & A_WIDE) !== 0) {
    orphanToBlank(dst, last);
  }
  if ((dst.data[dx * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) {
    orphanToBlank(dst, dx);
  }
  dst.dirty = true;
}

/**
 * Change `line` to `cols` cells (truncate or extend with blanks); a wide
 * character cut in half at the new right edge becomes a blank.
 */
export function resizeLine(line: Line, cols: number): void {
  if (cols === line.cols) return;
  line.resize(cols);
  if (
    cols > 0 && (line.data[(cols - 1) * CELL_STRIDE + ATTR] & A_WIDE) !== 0
  ) {
    orphanToBlank(line, cols - 1);
  }
}

/**
 * Pass the ATTR word of each cell of `line` that has an extended-style id
 * (high 16 bits) to `visit` and store what it returns (the line is damaged
 * when one changes). Its pretty-printed block, if any, is the caller's.
 */
export function mapLineExtAttrs(
  line: Line,
  visit: (attr: number) => number,
): void {
  const d = line.data;
  // Runs of cells share their word: ask once a run.
  let from = -1, to = -1;
  for (let i = ATTR, e = line.hi * CELL_STRIDE; i < e; i += CELL_STRIDE) {
    const a = d[i];
    if (a < 0x10000) continue;
    if (a !== from) {
      from = a;
      to = visit(a);
    }
    if (to !== a) {
      d[i] = to;
      line.dirty = true;
    }
  }
}
