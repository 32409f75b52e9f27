/**
 * Rectangular area operations of the VT400 family, as xterm has them:
 * DECCRA (copy), DECFRA (fill), DECERA (erase), DECSERA (selective erase),
 * DECCARA / DECRARA (change / reverse attributes, honouring DECSACE) and
 * DECRQCRA (checksum).
 *
 * Rectangles are 0-based inclusive screen coordinates, already clamped.
 *
 * @module
 */
import {
  A_BLINK,
  A_BOLD,
  A_INVERSE,
  A_INVISIBLE,
  A_UNDERLINE_MASK,
  A_UNDERLINE_SHIFT,
  A_WIDE,
  A_WIDE_TAIL,
  ATTR,
  CELL_STRIDE,
} from "../model/cell.ts";
import type { Line } from "../model/line.ts";
import { coverCells } from "../model/line_extras.ts";
import {
  eraseCells,
  selectiveEraseCells,
  splitWideAt,
} from "../model/line_ops.ts";

/** A rectangle on the screen, 0-based, inclusive. */
export interface Rect {
  /** First row. */
  top: number;
  /** First column. */
  left: number;
  /** Last row. */
  bottom: number;
  /** Last column. */
  right: number;
}

/** Screen row access. */
export type RowAccess = (y: number) => Line;

/** DECFRA: fill with `code` in the given colours and attributes. */
export function fillRect(
  row: RowAccess,
  r: Rect,
  code: number,
  fg: number,
  bg: number,
  attr: number,
): void {
  for (let y = r.top; y <= r.bottom; y++) {
    const line = row(y);
    splitWideAt(line, r.left);
    splitWideAt(line, r.right + 1);
    line.fill(r.left, r.right + 1, code, fg, bg, attr);
    coverCells(line, r.left, r.right + 1, false);
  }
}

/** DECERA: erase to blanks with background `bg`. */
export function eraseRect(row: RowAccess, r: Rect, bg: number): void {
  for (let y = r.top; y <= r.bottom; y++) {
    eraseCells(row(y), r.left, r.right + 1, bg);
    coverCells(row(y), r.left, r.right + 1, true);
  }
}

/** DECSERA: erase the unprotected characters. */
export function selectiveEraseRect(row: RowAccess, r: Rect): void {
  for (let y = r.top; y <= r.bottom; y++) {
    selectiveEraseCells(row(y), r.left, r.right + 1);
    coverCells(row(y), r.left, r.right + 1, true);
  }
}

/**
 * DECCRA: copy the rectangle `src` so that its top-left corner lands at
 * (`dstTop`, `dstLeft`); the part that would fall off the screen is cut.
 * Overlapping source and destination work (the source is read first).
 */
export function copyRect(
  row: RowAccess,
  src: Rect,
  dstTop: number,
  dstLeft: number,
  rows: number,
  cols: number,
): void {
  const height = Math.min(src.bottom - src.top + 1, rows - dstTop);
  const width = Math.min(src.right - src.left + 1, cols - dstLeft);
  if (height <= 0 || width <= 0) return;
  const saved: { data: Uint32Array; clusters: [number, string][] }[] = [];
  for (let k = 0; k < height; k++) {
    const line = row(src.top + k);
    const data = line.data.slice(
      src.left * CELL_STRIDE,
      (src.left + width) * CELL_STRIDE,
    );
    const clusters: [number, string][] = [];
    if (line.clusters !== null) {
      for (const [x, s] of line.clusters) {
        if (x >= src.left && x < src.left + width) {
          clusters.push([x - src.left, s]);
        }
      }
    }
    saved.push({ data, clusters });
  }
  for (let k = 0; k < height; k++) {
    const line = row(dstTop + k);
    splitWideAt(line, dstLeft);
    splitWideAt(line, dstLeft + width);
    line.fill(dstLeft, dstLeft + width, 0, 0, 0, 0);
    line.data.set(saved[k].data, dstLeft * CELL_STRIDE);
    for (const [x, s] of saved[k].clusters) {
      (line.clusters ??= new Map()).set(x + dstLeft, s);
    }
    // Wide characters cut by the source edges lose their other half.
    const d = line.data;
    const first = dstLeft * CELL_STRIDE + ATTR;
    const last = (dstLeft + width - 1) * CELL_STRIDE + ATTR;
    if ((d[first] & A_WIDE_TAIL) !== 0) {
      d[first - ATTR] = 0;
      d[first] &= ~A_WIDE_TAIL;
    }
    if ((d[last] & A_WIDE) !== 0) {
      d[last - ATTR] = 0;
      line.clusters?.delete(dstLeft + width - 1);
      d[last] &= ~(A_WIDE | (1 << 13));
    }
    coverCells(line, dstLeft, dstLeft + width, false);
    line.dirty = true;
  }
}

/** The attribute changes DECCARA / DECRARA understand: SGR value -> [set, clear] masks. */
function attrChange(p: number): [number, number] | null {
  switch (p) {
    case 0:
      return [0, A_BOLD | A_UNDERLINE_MASK | A_BLINK | A_INVERSE | A_INVISIBLE];
    case 1:
      return [A_BOLD, 0];
    case 4:
      return [1 << A_UNDERLINE_SHIFT, A_UNDERLINE_MASK];
    case 5:
      return [A_BLINK, 0];
    case 7:
      return [A_INVERSE, 0];
    case 8:
      return [A_INVISIBLE, 0];
    case 22:
      return [0, A_BOLD];
    case 24:
      return [0, A_UNDERLINE_MASK];
    case 25:
      return [0, A_BLINK];
    case 27:
      return [0, A_INVERSE];
    case 28:
      return [0, A_INVISIBLE];
    default:
      return null;
  }
}

/** Visit the cells of `r` as a rectangle, or as a stream of text (DECSACE 0/1). */
function forEachCell(
  row: RowAccess,
  r: Rect,
  cols: number,
  rectangle: boolean,
  f: (d: Uint32Array, i: number) => void,
): void {
  for (let y = r.top; y <= r.bottom; y++) {
    const line = row(y);
    const from = rectangle || y === r.top ? r.left : 0;
    const to = rectangle || y === r.bottom ? r.right : cols - 1;
    for (let x = from; x <= to; x++) f(line.data, x * CELL_STRIDE + ATTR);
    line.touch(to + 1);
    line.dirty = true;
  }
}

/** DECCARA: set / clear attributes given as SGR values. */
export function changeAttributes(
  row: RowAccess,
  r: Rect,
  cols: number,
  rectangle: boolean,
  sgr: number[],
): void {
  let set = 0, clear = 0;
  for (const p of sgr.length === 0 ? [0] : sgr) {
    const c = attrChange(p);
    if (c === null) continue;
    clear = (clear | c[1]) & ~c[0];
    set = (set & ~c[1]) | c[0];
  }
  if (set === 0 && clear === 0) return;
  forEachCell(row, r, cols, rectangle, (d, i) => {
    d[i] = (d[i] & ~clear) | set;
  });
}

/** DECRARA: toggle attributes given as SGR values (0 = all of them). */
export function reverseAttributes(
  row: RowAccess,
  r: Rect,
  cols: number,
  rectangle: boolean,
  sgr: number[],
): void {
  let flip = 0;
  for (const p of sgr.length === 0 ? [0] : sgr) {
    if (p === 0) {
      flip |= A_BOLD | (1 << A_UNDERLINE_SHIFT) | A_BLINK | A_INVERSE;
    } else if (p === 1) flip |= A_BOLD;
    else if (p === 4) flip |= 1 << A_UNDERLINE_SHIFT;
    else if (p === 5) flip |= A_BLINK;
    else if (p === 7) flip |= A_INVERSE;
    else if (p === 8) flip |= A_INVISIBLE;
  }
  if (flip === 0) return;
  forEachCell(row, r, cols, rectangle, (d, i) => {
    let a = d[i] ^ (flip & ~A_UNDERLINE_MASK);
    if ((flip & A_UNDERLINE_MASK) !== 0) {
      // Any underline style toggles to none, none to single.
      a = (a & A_UNDERLINE_MASK) !== 0
        ? a & ~A_UNDERLINE_MASK
        : a | (1 << A_UNDERLINE_SHIFT);
    }
    d[i] = a;
  });
}

/**
 * DECRQCRA checksum as current xterm reports it by default: the 16-bit sum
 * of the code points (a blank cell counts as a space, a wide character's
 * tail as nothing), attributes not included.
 */
export function checksumRect(row: RowAccess, r: Rect): number {
  let sum = 0;
  for (let y = r.top; y <= r.bottom; y++) {
    const line = row(y);
    const d = line.data;
    for (let x = r.left; x <= r.right; x++) {
      const i = x * CELL_STRIDE;
      if ((d[i + ATTR] & A_WIDE_TAIL) !== 0) continue;
      const c = d[i];
      sum = (sum + (c === 0 ? 0x20 : c)) & 0xffff;
    }
  }
  return sum;
}
