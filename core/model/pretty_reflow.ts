/**
 * Reflow of a DomTerm pretty-printed block (`LineExtras.pretty`): the rows
 * it was printed on are laid out again at the new width, as a fresh
 * layout at that width would print them.
 *
 * The rows are checked first: when their text is no longer what the
 * layout printed (later output overwrote it, a wide character, a rigid
 * line...), the caller falls back to ordinary re-wrapping.
 *
 * @module
 */
import { A_WIDE_TAIL, ATTR, CELL_STRIDE, CODE } from "./cell.ts";
import { Line, LINE_SINGLE } from "./line.ts";
import type { LineExtras, PrettyRun } from "./line_extras.ts";
import { charWidth } from "../unicode/width.ts";

/** Lines to reflow, oldest first. */
export interface PrettySource {
  readonly length: number;
  getLine(i: number): Line;
}

/** A block laid out again: unwrapped lines to re-wrap at the new width. */
export interface PrettyUnit {
  /** Source rows the block occupied (from the first one). */
  used: number;
  /** New logical lines, each one unwrapped row (maybe wider than the width). */
  lines: Line[];
  /**
   * Where a point on source row `row` (within the unit), column `x`, goes:
   * [index into `lines`, column].
   */
  map(row: number, x: number): [number, number];
}

const SPACE = 0x20;

const codesOf = (s: string): number[] =>
  Array.from(s, (c) => c.codePointAt(0)!);

/** Code points of each laid-out row, or null when one is not one column wide. */
function rowCodes(rows: PrettyRun[][]): number[][] | null {
  const out: number[][] = [];
  for (const row of rows) {
    const codes: number[] = [];
    for (const run of row) {
      for (const cp of codesOf(run.text)) {
        if (charWidth(cp) !== 1) return null;
        codes.push(cp);
      }
    }
    out.push(codes);
  }
  return out;
}

/** One logical line of the source: its rows and their cells end to end. */
interface OldLine {
  /** First source row (absolute). */
  row: number;
  /** Rows it spans. */
  count: number;
  /** Offset of each of its rows. */
  starts: number[];
  /** All its cells as [row, x] by offset. */
  cell(off: number): [Line, number];
  length: number;
}

/** The logical line starting at source row `a`, or null (rigid line). */
function oldLine(src: PrettySource, a: number): OldLine | null {
  const rows: Line[] = [];
  const starts: number[] = [];
  let length = 0;
  for (let i = a; i < src.length; i++) {
    const l = src.getLine(i);
    if (l.size !== LINE_SINGLE || l.extras?.block !== undefined) return null;
    rows.push(l);
    starts.push(length);
    length += l.cols;
    if (!l.wrapped) break;
  }
  return {
    row: a,
    count: rows.length,
    starts,
    length,
    cell(off) {
      let r = 0;
      while (r + 1 < rows.length && off >= starts[r + 1]) r++;
      return [rows[r], off - starts[r]];
    },
  };
}

/** Offset just after the last non-blank cell of `ol` (0 if none). */
function contentEnd(ol: OldLine): number {
  for (let off = ol.length - 1; off >= 0; off--) {
    const [l, x] = ol.cell(off);
    const i = x * CELL_STRIDE;
    if (l.data[i + CODE] !== 0 || (l.data[i + ATTR] & A_WIDE_TAIL) !== 0) {
      return off + 1;
    }
  }
  return 0;
}

/** Copy the cell `off` of `ol` (and its cluster text) to `line` at `x`. */
function copyCell(ol: OldLine, off: number, line: Line, x: number): void {
  const [l, sx] = ol.cell(off);
  const s = sx * CELL_STRIDE, d = x * CELL_STRIDE;
  for (let k = 0; k < CELL_STRIDE; k++) line.data[d + k] = l.data[s + k];
  line.touch(x + 1);
  const cluster = l.clusters?.get(sx);
  if (cluster !== undefined) (line.clusters ??= new Map()).set(x, cluster);
}

/**
 * Lay out again the pretty-printed block recorded on source row `a` for
 * `cols` columns; null when its rows no longer hold what was printed.
 */
export function reflowPretty(
  src: PrettySource,
  a: number,
  cols: number,
): PrettyUnit | null {
  const record = src.getLine(a).extras?.pretty;
  if (record === undefined) return null;
  const oldRows = rowCodes(record.relayout(record.cols));
  const newRuns = record.relayout(cols);
  const newRows = rowCodes(newRuns);
  if (oldRows === null || newRows === null) return null;
  const sc = record.startCol;

  // Check each old logical line against the laid-out row it printed.
  const old: OldLine[] = [];
  let row = a;
  for (let i = 0; i < oldRows.length; i++) {
    if (row >= src.length) return null;
    const ol = oldLine(src, row);
    if (ol === null) return null;
    const c0 = i === 0 ? sc : 0;
    const codes = oldRows[i];
    if (c0 + codes.length > ol.length) return null;
    for (let k = 0; k < codes.length; k++) {
      const [l, x] = ol.cell(c0 + k);
      if (l.code(x) !== codes[k]) return null;
    }
    // Only the last row may have more text after the block.
    if (i + 1 < oldRows.length && contentEnd(ol) > c0 + codes.length) {
      return null;
    }
    old.push(ol);
    row += ol.count;
  }
  const last = old.length - 1;
  const oldEnd = (last === 0 ? sc : 0) + oldRows[last].length;
  const tailEnd = Math.max(oldEnd, contentEnd(old[last]));

  // The new lines: cells before the block, the runs, the text after it.
  const lines: Line[] = [];
  for (let i = 0; i < newRuns.length; i++) {
    const c0 = i === 0 ? sc : 0;
    const isLast = i === newRuns.length - 1;
    const tail = isLast ? tailEnd - oldEnd : 0;
    const width = Math.max(cols, c0 + newRows[i].length + tail);
    const line = new Line(width);
    for (let x = 0; x < c0; x++) copyCell(old[0], x, line, x);
    let x = c0;
    for (const run of newRuns[i]) {
      for (const cp of codesOf(run.text)) {
        line.set(x++, cp, run.fg, run.bg, run.attr);
      }
    }
    if (isLast) {
      for (let off = oldEnd; off < tailEnd; off++) {
        copyCell(old[last], off, line, x++);
      }
    }
    lines.push(line);
  }
  const newEnd = (lines.length === 1 ? sc : 0) +
    newRows[newRows.length - 1].length;

  // Points: before the block and after it keep their place relative to
  // it; inside, they follow the character (counting indentation).
  const rowOf: [number, number][] = []; // unit row -> [old line, offset]
  for (let i = 0; i < old.length; i++) {
    for (let r = 0; r < old[i].count; r++) rowOf.push([i, old[i].starts[r]]);
  }
  const map = (r: number, x: number): [number, number] => {
    const [i, base] = rowOf[Math.max(0, Math.min(r, rowOf.length - 1))];
    const off = base + x;
    if (i === 0 && off < sc) return [0, off];
    if (i === last && off >= oldEnd) {
      return [lines.length - 1, newEnd + off - oldEnd];
    }
    // Count the non-blank characters before the point (blanks differ
    // between layouts: indentation, nonbreak text) and find the same one.
    const at = Math.max(0, Math.min(oldRows[i].length, off - (i ? 0 : sc)));
    let k = 0;
    for (let j = 0; j <= i; j++) {
      const row = oldRows[j];
      for (let c = 0; c < (j === i ? at : row.length); c++) {
        if (row[c] !== SPACE) k++;
      }
    }
    const onBlank = at >= oldRows[i].length || oldRows[i][at] === SPACE;
    if (onBlank && k === 0) return [0, sc];
    // The k-th (on a character) or the (k-1)-th non-blank one (then just after it).
    let want = onBlank ? k - 1 : k;
    for (let j = 0; j < newRows.length; j++) {
      const row = newRows[j];
      for (let c = 0; c < row.length; c++) {
        if (row[c] !== SPACE && want-- === 0) {
          const x = (j ? 0 : sc) + c;
          return [j, onBlank ? x + 1 : x];
        }
      }
    }
    return [lines.length - 1, Math.max(0, newEnd - 1)];
  };

  // Extras of the old rows: positioned items follow their cells, the
  // rest goes to the first row; the record is renewed for the new width.
  const first: LineExtras = { pretty: { ...record, cols } };
  lines[0].extras = first;
  for (let r = 0; r < rowOf.length; r++) {
    const e = src.getLine(a + r).extras;
    if (e === null) continue;
    for (const key of Object.keys(e) as (keyof LineExtras)[]) {
      if (key === "marks" || key === "inline") {
        for (const m of e[key] ?? []) {
          const [t, nx] = map(r, m.x);
          m.x = nx;
          const ex = lines[t].extras ??= {};
          // deno-lint-ignore no-explicit-any
          ((ex[key] ??= []) as any[]).push(m);
        }
      } else if (key !== "pretty" && e[key] !== undefined) {
        const f = first as Record<string, unknown>;
        if (f[key] === undefined) f[key] = e[key];
      }
    }
  }
  return { used: rowOf.length, lines, map };
}
