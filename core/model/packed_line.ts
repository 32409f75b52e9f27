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
 * each, high half first; bit 1: every code point is below 256, two to a
 * unit, low byte first; bit 2: a style run takes two units instead of
 * four; bit 3: the line wrapped; bits 4-5: its size), the number of cells
 * kept and the line's columns (two units each), the codes, then per style
 * run its length and its style: the index of a (foreground, background,
 * attributes) triple in its block's palette (one unit each, or two, high
 * half first). A line of plain text in a few colours thus costs about a
 * byte a cell (a 44-cell line with 5 runs: 47 units, against 87 when each
 * run spelt out its three words and each code took a unit). Blocks are
 * allocated one after the other and never reused: history leaves from the
 * top, so a block (and its palette) is garbage once the lines packed in it
 * are gone.
 *
 * @module
 */
import { ATTR, BG, CELL_STRIDE, CODE, FG } from "./cell.ts";
import type { Line, LineSize } from "./line.ts";

/** A block of packed lines: their units and their styles. */
export class PackedBlock {
  constructor(
    readonly units: Uint16Array,
    /** Foreground, background, attributes of each style, by index. */
    readonly styles: number[],
  ) {}
}

/**
 * A line of history packed by {@link PackedStore.pack}: where it is in its
 * block (the line's size, flags and cells are there) and its clusters.
 * Four fields: the server keeps one per history line of every session.
 */
export class PackedLine {
  constructor(
    readonly block: PackedBlock,
    readonly start: number,
    readonly end: number,
    /** The line's cluster texts (kept as they were, rare). */
    readonly clusters: Map<number, string> | null,
  ) {}

  /** The units of its block; its own are `start` to `end`. */
  get units(): Uint16Array {
    return this.block.units;
  }

  /** Its block's styles: foreground, background, attributes, by index. */
  get styles(): number[] {
    return this.block.styles;
  }

  /** Number of cells of the line it came from. */
  get cols(): number {
    const u = this.block.units;
    return u[this.start + 3] * 0x10000 + u[this.start + 4];
  }

  get wrapped(): boolean {
    return (this.block.units[this.start] & WRAPPED) !== 0;
  }

  get size(): LineSize {
    return (this.block.units[this.start] >> SIZE_SHIFT & 3) as LineSize;
  }
}

/** Format bit: two units per code point. */
const WIDE_CODES = 1;
/** Format bit: one byte per code point. */
const BYTE_CODES = 2;
/** Format bit: runs of one unit of length and one of style. */
const SHORT_RUNS = 4;
/** Format bit: the line wrapped. */
const WRAPPED = 8;
/** Format bits 4 and 5: the line's size ({@link LineSize}). */
const SIZE_SHIFT = 4;
/** Units before the codes: format, cells kept (two), columns (two). */
const HEADER = 5;
/** Units per block (128 KiB). */
const BLOCK_UNITS = 64 * 1024;

/** Packs lines into blocks of its own (one per buffer). */
export class PackedStore {
  #block = new PackedBlock(new Uint16Array(0), []);
  #used = 0;
  /** Index in the block's styles by foreground, background, attributes. */
  #index = new Map<number, Map<number, Map<number, number>>>();
  /** The last two styles looked up (their first word's index; -1: none). */
  #recentA = -1;
  #recentB = -1;

  /**
   * Forget which styles the current block's palette holds (after
   * {@link mapPackedAttrs} changed entries of it): styles packed from now
   * on get new entries.
   */
  forgetStyles(): void {
    this.#index = new Map();
    this.#recentA = this.#recentB = -1;
  }

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
    // Room for the worst case: a run per cell of four units, two units a code.
    const worst = HEADER + used * 6;
    if (this.#used + worst > this.#block.units.length) {
      this.#block = new PackedBlock(
        new Uint16Array(Math.max(BLOCK_UNITS, worst)),
        [],
      );
      this.#used = 0;
      this.#index = new Map();
      this.#recentA = this.#recentB = -1;
    }
    const u = this.#block.units;
    const start = this.#used;
    u[start + 1] = used >>> 16;
    u[start + 2] = used & 0xffff;
    u[start + 3] = line.cols >>> 16;
    u[start + 4] = line.cols & 0xffff;
    const e = used * CELL_STRIDE;
    let widest = 0;
    for (let i = 0; i < e; i += CELL_STRIDE) widest |= d[i + CODE];
    let format = (line.wrapped ? WRAPPED : 0) | line.size << SIZE_SHIFT;
    let p = start + HEADER;
    if (widest < 0x100) {
      format |= BYTE_CODES;
      for (let i = 0; i < e; i += 2 * CELL_STRIDE) {
        const hi = i + CELL_STRIDE < e ? d[i + CELL_STRIDE + CODE] : 0;
        u[p++] = d[i + CODE] | hi << 8;
      }
    } else if (!this.#narrow(d, e)) {
      format |= WIDE_CODES;
      for (let i = 0; i < e; i += CELL_STRIDE) {
        const c = d[i + CODE];
        u[p++] = c >>> 16;
        u[p++] = c & 0xffff;
      }
    } else {
      for (let i = 0; i < e; i += CELL_STRIDE) u[p++] = d[i + CODE];
    }
    let end = this.#runs(d, e, p);
    if (used <= 0xffff && this.#block.styles.length <= 3 * 0xffff) {
      // Every length and index fits a unit: halve the runs in place.
      format |= SHORT_RUNS;
      let q = p;
      for (let r = p; r < end; r += 4) {
        u[q++] = u[r + 1];
        u[q++] = u[r + 3];
      }
      end = q;
    }
    p = end;
    u[start] = format;
    this.#used = p;
    return new PackedLine(this.#block, start, p, line.clusters);
  }

  /** Whether the codes of `d` up to `e` each fit a unit (no surrogates either). */
  #narrow(d: Uint32Array, e: number): boolean {
    for (let i = 0; i < e; i += CELL_STRIDE) {
      const c = d[i + CODE];
      if (c > 0xffff || (c >= 0xd800 && c < 0xe000)) return false;
    }
    return true;
  }

  /**
   * Write the style runs of `d` (cells up to `e`) at `p`, four units each;
   * returns where they end.
   */
  #runs(d: Uint32Array, e: number, p: number): number {
    const u = this.#block.units;
    let q = p;
    let runStart = 0;
    for (let i = CELL_STRIDE; i <= e; i += CELL_STRIDE) {
      if (
        i === e || d[i + FG] !== d[runStart + FG] ||
        d[i + BG] !== d[runStart + BG] || d[i + ATTR] !== d[runStart + ATTR]
      ) {
        const len = (i - runStart) / CELL_STRIDE;
        const style = this.#style(
          d[runStart + FG],
          d[runStart + BG],
          d[runStart + ATTR],
        );
        u[q] = len >>> 16;
        u[q + 1] = len & 0xffff;
        u[q + 2] = style >>> 16;
        u[q + 3] = style & 0xffff;
        q += 4;
        runStart = i;
      }
    }
    return q;
  }

  /** The palette index of a style, added if new. */
  #style(fg: number, bg: number, attr: number): number {
    // Most runs alternate between a few styles: try the last two first.
    const st = this.#block.styles;
    const a = this.#recentA, b = this.#recentB;
    if (a >= 0 && st[a] === fg && st[a + 1] === bg && st[a + 2] === attr) {
      return a / 3;
    }
    if (b >= 0 && st[b] === fg && st[b + 1] === bg && st[b + 2] === attr) {
      this.#recentA = b;
      this.#recentB = a;
      return b / 3;
    }
    const i = this.#lookup(fg, bg, attr);
    this.#recentB = a;
    this.#recentA = 3 * i;
    return i;
  }

  #lookup(fg: number, bg: number, attr: number): number {
    let byBg = this.#index.get(fg);
    if (byBg === undefined) this.#index.set(fg, byBg = new Map());
    let byAttr = byBg.get(bg);
    if (byAttr === undefined) byBg.set(bg, byAttr = new Map());
    let i = byAttr.get(attr);
    if (i === undefined) {
      i = this.#block.styles.length / 3;
      this.#block.styles.push(fg, bg, attr);
      byAttr.set(attr, i);
    }
    return i;
  }
}

/**
 * Pass the ATTR word of each style run of `packed` that has an
 * extended-style id (high 16 bits) to `visit`, and store what it returns in
 * the block's style palette (shared by the block's lines: a palette entry
 * may change only where every line that uses it would change alike).
 * Returns true when an entry changed: its {@link PackedStore} must then
 * {@link PackedStore.forgetStyles}.
 */
export function mapPackedAttrs(
  packed: PackedLine,
  visit: (attr: number) => number,
): boolean {
  const u = packed.units;
  const start = packed.start;
  const format = u[start];
  const used = u[start + 1] * 0x10000 + u[start + 2];
  const codes = format & BYTE_CODES
    ? (used + 1) >> 1
    : format & WIDE_CODES
    ? 2 * used
    : used;
  const short = (format & SHORT_RUNS) !== 0;
  const styles = packed.styles;
  let changed = false;
  for (let p = start + HEADER + codes; p < packed.end; p += short ? 2 : 4) {
    const k = 3 * (short ? u[p + 1] : u[p + 2] * 0x10000 + u[p + 3]) + 2;
    const a = styles[k];
    if (a >>> 16 === 0) continue;
    const b = visit(a);
    if (b !== a) {
      styles[k] = b;
      changed = true;
    }
  }
  return changed;
}

/**
 * Write `packed` into `line`, a blank line (all cell words zero) of
 * `packed.cols` cells, and give it the packed flags and clusters.
 */
export function unpackInto(packed: PackedLine, line: Line): void {
  const u = packed.units;
  const d = line.data;
  const start = packed.start;
  const format = u[start];
  const used = u[start + 1] * 0x10000 + u[start + 2];
  let p = start + HEADER;
  const e = used * CELL_STRIDE;
  if (format & BYTE_CODES) {
    for (let i = 0; i < e; i += 2 * CELL_STRIDE) {
      const w = u[p++];
      d[i + CODE] = w & 0xff;
      if (i + CELL_STRIDE < e) d[i + CELL_STRIDE + CODE] = w >>> 8;
    }
  } else if (format & WIDE_CODES) {
    for (let i = 0; i < e; i += CELL_STRIDE, p += 2) {
      d[i + CODE] = (u[p] << 16 | u[p + 1]) >>> 0;
    }
  } else {
    for (let i = 0; i < e; i += CELL_STRIDE) d[i + CODE] = u[p++];
  }
  const short = (format & SHORT_RUNS) !== 0;
  const styles = packed.styles;
  for (let i = 0; p < packed.end;) {
    let len: number, s: number;
    if (short) {
      len = u[p];
      s = 3 * u[p + 1];
      p += 2;
    } else {
      len = u[p] * 0x10000 + u[p + 1];
      s = 3 * (u[p + 2] * 0x10000 + u[p + 3]);
      p += 4;
    }
    const fg = styles[s], bg = styles[s + 1], attr = styles[s + 2];
    for (const end = i + len * CELL_STRIDE; i < end; i += CELL_STRIDE) {
      d[i + FG] = fg;
      d[i + BG] = bg;
      d[i + ATTR] = attr;
    }
  }
  line.touch(used);
  line.wrapped = (format & WRAPPED) !== 0;
  line.size = (format >> SIZE_SHIFT & 3) as LineSize;
  line.clusters = packed.clusters;
  line.dirty = true;
}
