/**
 * A history line stored compactly: its cells up to the last one that is not
 * entirely zero, as code units plus style runs, in a shared block of 16-bit
 * units ({@link PackedStore}). A {@link Line} costs 16 bytes a cell, blank
 * cells included, in an off-heap array; a line of history in the server's
 * emulator, which never draws, needs only its content.
 * `Buffer.compactHistory` packs history lines; `Buffer.getLine` unpacks one
 * on demand, so readers only ever see `Line`s.
 *
 * A packed line's units: the format (bit 0: code points take two units
 * each, high half first), the number of cells kept (two units), one code
 * per cell, then per style run its length and its foreground, background
 * and attribute words (two units each). Blocks are allocated one after
 * the other and never reused: history leaves from the top, so a block is
 * garbage once the lines packed in it are gone.
 *
 * @module
 */
import { ATTR, BG, CELL_STRIDE, CODE, FG } from "./cell.ts";
import type { Line, LineSize } from "./line.ts";

/** A line of history packed by {@link PackedStore.pack}. */
export class PackedLine {
  constructor(
    /** Number of cells of the line it came from. */
    readonly cols: number,
    readonly wrapped: boolean,
    readonly size: LineSize,
    /** The line's cluster texts (kept as they were, rare). */
    readonly clusters: Map<number, string> | null,
    /** The block that holds the cells, from `start`. */
    readonly units: Uint16Array,
    readonly start: number,
    readonly end: number,
  ) {}
}

/** Format bit: two units per code point. */
const WIDE_CODES = 1;
/** Units per block (128 KiB). */
const BLOCK_UNITS = 64 * 1024;

/** Packs lines into blocks of its own (one per buffer). */
export class PackedStore {
  #block = new Uint16Array(0);
  #used = 0;

  /**
   * Pack `line` (which must have no `extras`: marks and embeds are kept on
   * `Line`s, whose identity they rely on). The line itself is not changed.
   */
  pack(line: Line): PackedLine {
    const d = line.data;
    // Cells kept: up to the last one with any word set (none past `hi`).
    let used = line.hi;
    while (used > 0) {
      const i = (used - 1) * CELL_STRIDE;
      if ((d[i + CODE] | d[i + FG] | d[i + BG] | d[i + ATTR]) !== 0) break;
      used--;
    }
    // Room for the worst case: a run per cell, two units per code.
    const worst = 3 + used * 10;
    if (this.#used + worst > this.#block.length) {
      this.#block = new Uint16Array(Math.max(BLOCK_UNITS, worst));
      this.#used = 0;
    }
    const u = this.#block;
    const start = this.#used;
    u[start + 1] = used >>> 16;
    u[start + 2] = used & 0xffff;
    let p = start + 3;
    let wide = false;
    const e = used * CELL_STRIDE;
    for (let i = 0; i < e; i += CELL_STRIDE) {
      const c = d[i + CODE];
      if (c > 0xffff || (c >= 0xd800 && c < 0xe000)) {
        wide = true;
        break;
      }
      u[p++] = c;
    }
    if (wide) {
      p = start + 3;
      for (let i = 0; i < e; i += CELL_STRIDE) {
        const c = d[i + CODE];
        u[p++] = c >>> 16;
        u[p++] = c & 0xffff;
      }
    }
    u[start] = wide ? WIDE_CODES : 0;
    let runStart = 0;
    for (let i = CELL_STRIDE; i <= e; i += CELL_STRIDE) {
      if (
        i === e || d[i + FG] !== d[runStart + FG] ||
        d[i + BG] !== d[runStart + BG] || d[i + ATTR] !== d[runStart + ATTR]
      ) {
        const len = (i - runStart) / CELL_STRIDE;
        const fg = d[runStart + FG], bg = d[runStart + BG];
        const attr = d[runStart + ATTR];
        u[p] = len >>> 16;
        u[p + 1] = len & 0xffff;
        u[p + 2] = fg >>> 16;
        u[p + 3] = fg & 0xffff;
        u[p + 4] = bg >>> 16;
        u[p + 5] = bg & 0xffff;
        u[p + 6] = attr >>> 16;
        u[p + 7] = attr & 0xffff;
        p += 8;
        runStart = i;
      }
    }
    this.#used = p;
    return new PackedLine(
      line.cols,
      line.wrapped,
      line.size,
      line.clusters,
      u,
      start,
      p,
    );
  }
}

/**
 * Write `packed` into `line`, a blank line (all cell words zero) of
 * `packed.cols` cells, and give it the packed flags and clusters.
 */
export function unpackInto(packed: PackedLine, line: Line): void {
  const u = packed.units;
  const d = line.data;
  const start = packed.start;
  const wide = (u[start] & WIDE_CODES) !== 0;
  const used = u[start + 1] * 0x10000 + u[start + 2];
  let p = start + 3;
  const e = used * CELL_STRIDE;
  if (wide) {
    for (let i = 0; i < e; i += CELL_STRIDE, p += 2) {
      d[i + CODE] = (u[p] << 16 | u[p + 1]) >>> 0;
    }
  } else {
    for (let i = 0; i < e; i += CELL_STRIDE) d[i + CODE] = u[p++];
  }
  for (let i = 0; p < packed.end; p += 8) {
    const len = u[p] * 0x10000 + u[p + 1];
    const fg = (u[p + 2] << 16 | u[p + 3]) >>> 0;
    const bg = (u[p + 4] << 16 | u[p + 5]) >>> 0;
    const attr = (u[p + 6] << 16 | u[p + 7]) >>> 0;
    for (const end = i + len * CELL_STRIDE; i < end; i += CELL_STRIDE) {
      d[i + FG] = fg;
      d[i + BG] = bg;
      d[i + ATTR] = attr;
    }
  }
  line.touch(used);
  line.wrapped = packed.wrapped;
  line.size = packed.size;
  line.clusters = packed.clusters;
  line.dirty = true;
}
