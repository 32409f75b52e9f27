/**
 * A history line stored compactly: its cells up to the last one that is not
 * entirely zero, as style runs plus code units, in one string. A
 * {@link Line} costs 16 bytes a cell, blank cells included, in an off-heap
 * array; a line of history in the server's emulator, which never draws,
 * needs only its content. `Buffer.compactHistory` packs history lines;
 * `Buffer.getLine` unpacks one on demand, so readers only ever see `Line`s.
 *
 * The string: unit 0 is the format (bit 0: code points take two units
 * each), units 1-2 the number of cells kept, then the number of runs in two
 * units, then per run its length (two units) and its foreground,
 * background and attribute words (two units each, high half first), then
 * one code per cell. A string holds arbitrary 16-bit units, lives on the
 * JavaScript heap and needs no backing store of its own.
 *
 * @module
 */
import { ATTR, BG, CELL_STRIDE, CODE, FG } from "./cell.ts";
import type { Line, LineSize } from "./line.ts";

/** A line of history packed by {@link packLine}. */
export class PackedLine {
  constructor(
    /** Number of cells of the line it came from. */
    readonly cols: number,
    readonly wrapped: boolean,
    readonly size: LineSize,
    /** The line's cluster texts (kept as they were, rare). */
    readonly clusters: Map<number, string> | null,
    /** Cells as described in the module comment. */
    readonly cells: string,
  ) {}
}

/** Format bit: two units per code point. */
const WIDE_CODES = 1;

let scratch = new Uint16Array(1024);

function room(n: number): Uint16Array {
  if (scratch.length < n) {
    scratch = new Uint16Array(Math.max(n, scratch.length * 2));
  }
  return scratch;
}

/** Units to string, in slices (a spread of very many arguments overflows). */
function unitsToString(u: Uint16Array, n: number): string {
  if (n <= 8192) {
    return String.fromCharCode.apply(
      null,
      u.subarray(0, n) as unknown as number[],
    );
  }
  let s = "";
  for (let i = 0; i < n; i += 8192) {
    s += String.fromCharCode.apply(
      null,
      u.subarray(i, Math.min(n, i + 8192)) as unknown as number[],
    );
  }
  return s;
}

/**
 * Pack `line` (which must have no `extras`: marks and embeds are kept on
 * `Line`s, whose identity they rely on). The line itself is not changed.
 */
export function packLine(line: Line): PackedLine {
  const d = line.data;
  // Cells kept: up to the last one with any word set.
  let used = line.cols;
  while (used > 0) {
    const i = (used - 1) * CELL_STRIDE;
    if ((d[i + CODE] | d[i + FG] | d[i + BG] | d[i + ATTR]) !== 0) break;
    used--;
  }
  let wide = false;
  let runs = 0;
  for (let x = 0, i = 0; x < used; x++, i += CELL_STRIDE) {
    const c = d[i + CODE];
    if (c > 0xffff || (c >= 0xd800 && c < 0xe000)) wide = true;
    if (
      x === 0 || d[i + FG] !== d[i - CELL_STRIDE + FG] ||
      d[i + BG] !== d[i - CELL_STRIDE + BG] ||
      d[i + ATTR] !== d[i - CELL_STRIDE + ATTR]
    ) runs++;
  }
  const n = 5 + runs * 8 + used * (wide ? 2 : 1);
  const u = room(n);
  u[0] = wide ? WIDE_CODES : 0;
  u[1] = used >>> 16;
  u[2] = used & 0xffff;
  u[3] = runs >>> 16;
  u[4] = runs & 0xffff;
  let p = 5;
  let start = 0;
  for (let x = 1, i = CELL_STRIDE; x <= used; x++, i += CELL_STRIDE) {
    if (
      x === used || d[i + FG] !== d[i - CELL_STRIDE + FG] ||
      d[i + BG] !== d[i - CELL_STRIDE + BG] ||
      d[i + ATTR] !== d[i - CELL_STRIDE + ATTR]
    ) {
      const len = x - start;
      const j = start * CELL_STRIDE;
      u[p] = len >>> 16;
      u[p + 1] = len & 0xffff;
      u[p + 2] = d[j + FG] >>> 16;
      u[p + 3] = d[j + FG] & 0xffff;
      u[p + 4] = d[j + BG] >>> 16;
      u[p + 5] = d[j + BG] & 0xffff;
      u[p + 6] = d[j + ATTR] >>> 16;
      u[p + 7] = d[j + ATTR] & 0xffff;
      p += 8;
      start = x;
    }
  }
  if (wide) {
    for (let i = 0; i < used * CELL_STRIDE; i += CELL_STRIDE) {
      u[p++] = d[i + CODE] >>> 16;
      u[p++] = d[i + CODE] & 0xffff;
    }
  } else {
    for (let i = 0; i < used * CELL_STRIDE; i += CELL_STRIDE) {
      u[p++] = d[i + CODE];
    }
  }
  return new PackedLine(
    line.cols,
    line.wrapped,
    line.size,
    line.clusters,
    unitsToString(u, n),
  );
}

/**
 * Write `packed` into `line`, a blank line (all cell words zero) of
 * `packed.cols` cells, and give it the packed flags and clusters.
 */
export function unpackInto(packed: PackedLine, line: Line): void {
  const s = packed.cells;
  const d = line.data;
  const wide = (s.charCodeAt(0) & WIDE_CODES) !== 0;
  const used = s.charCodeAt(1) * 0x10000 + s.charCodeAt(2);
  const runs = s.charCodeAt(3) * 0x10000 + s.charCodeAt(4);
  let p = 5;
  let i = 0;
  for (let r = 0; r < runs; r++, p += 8) {
    const len = s.charCodeAt(p) * 0x10000 + s.charCodeAt(p + 1);
    const fg = (s.charCodeAt(p + 2) << 16 | s.charCodeAt(p + 3)) >>> 0;
    const bg = (s.charCodeAt(p + 4) << 16 | s.charCodeAt(p + 5)) >>> 0;
    const attr = (s.charCodeAt(p + 6) << 16 | s.charCodeAt(p + 7)) >>> 0;
    for (const e = i + len * CELL_STRIDE; i < e; i += CELL_STRIDE) {
      d[i + FG] = fg;
      d[i + BG] = bg;
      d[i + ATTR] = attr;
    }
  }
  if (wide) {
    for (let x = 0, j = CODE; x < used; x++, j += CELL_STRIDE, p += 2) {
      d[j] = (s.charCodeAt(p) << 16 | s.charCodeAt(p + 1)) >>> 0;
    }
  } else {
    for (let x = 0, j = CODE; x < used; x++, j += CELL_STRIDE) {
      d[j] = s.charCodeAt(p++);
    }
  }
  line.wrapped = packed.wrapped;
  line.size = packed.size;
  line.clusters = packed.clusters;
  line.dirty = true;
}
