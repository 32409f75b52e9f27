/**
 * Find in the scrollback: a query compiled to a regular expression, and
 * every match in a buffer's lines (history and screen), soft-wrapped rows
 * joined into one logical line so that a match may cross a wrap. The text
 * of embedded HTML (inline fragments and blocks) is searched too; a match
 * there covers its row.
 *
 * Pure and synchronous: the window's find bar (client/find.ts) runs it on
 * the page's model, which holds every line, drawn or not.
 *
 * @module
 */
import type { BufferView } from "../terminal_view.ts";
import type { Line } from "../model/line.ts";
import {
  A_CLUSTER,
  A_GLYPH_MASK,
  A_WIDE_TAIL,
  ATTR,
  CELL_STRIDE,
  CODE,
} from "../model/cell.ts";

/** How a query is read. */
export interface FindOptions {
  /** Match case exactly (default: case-insensitive). */
  caseSensitive?: boolean;
  /** Only whole words (the match is not inside a longer word). */
  wholeWord?: boolean;
  /** The query is a JavaScript regular expression, not literal text. */
  regex?: boolean;
}

/** One match: from (line, col) to (endLine, endCol), end exclusive. */
export interface FindMatch {
  /** Buffer index of the row where the match starts. */
  line: number;
  col: number;
  /** Buffer index of the row where it ends (later than `line` across a wrap). */
  endLine: number;
  endCol: number;
  /** The match is in embedded HTML on row `line` (cols are 0 and the row's width). */
  embed?: boolean;
}

/** Matches are counted up to this many; a search stops there. */
export const MAX_MATCHES = 100_000;

/**
 * `query` as a global regular expression, or an error message for the
 * find bar (a bad regular expression, or one that matches the empty
 * string, which would match everywhere). An empty query is null.
 */
export function compileFind(
  query: string,
  options: FindOptions = {},
): RegExp | string | null {
  if (query === "") return null;
  let source = options.regex
    ? query
    : query.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
  if (options.wholeWord) {
    // A word boundary that knows letters beyond ASCII.
    source = `(?<![\\p{L}\\p{N}_])(?:${source})(?![\\p{L}\\p{N}_])`;
  }
  let re: RegExp;
  try {
    re = new RegExp(source, options.caseSensitive ? "gu" : "giu");
  } catch (e) {
    return `Bad regular expression: ${
      (e as Error).message.replace(/^.*: /, "")
    }`;
  }
  if (re.test("")) return "The expression matches empty text";
  re.lastIndex = 0;
  return re;
}

/** The column of string offset `at` in row `line` (a row that is not plain). */
function columnOf(line: Line, at: number): number {
  let o = 0;
  for (let x = 0; x < line.cols; x++) {
    const t = line.text(x);
    if (t === "") continue;
    if (o >= at) return x;
    o += t.length;
  }
  return line.cols;
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Text of an HTML fragment, for searching (tags dropped, entities read). */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, e) => {
      const k = (e as string).toLowerCase();
      if (k[0] === "#") {
        const n = k[1] === "x" ? parseInt(k.slice(2), 16) : Number(k.slice(1));
        return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : " ";
      }
      return ENTITIES[k] ?? " ";
    });
}

/** Code units gathered before a batch of rows is searched. */
const BATCH_UNITS = 1 << 18;
const decoder = new TextDecoder("utf-16le");

/**
 * Every match of `re` (from {@link compileFind}) in `buf`, oldest first,
 * up to `limit`.
 *
 * Rows are gathered into one string per batch of about 256 Ki code units
 * (logical lines separated by "\n"), so the regular expression runs over
 * long strings and a row costs a strided copy, not a string of its own.
 */
export function findAll(
  buf: BufferView,
  re: RegExp,
  limit = MAX_MATCHES,
): FindMatch[] {
  const out: FindMatch[] = [];
  const n = buf.length;
  let units = new Uint16Array(BATCH_UNITS + 1024);
  // Per row of the batch: its buffer index, where its text starts, and
  // whether string offsets in it are its columns.
  let rowIndex = new Int32Array(1024);
  let rowStart = new Int32Array(1024);
  let rowPlain = new Uint8Array(1024);
  const embedRows: number[] = [];
  let k = 0;
  while (k < n && out.length < limit) {
    let len = 0;
    let count = 0;
    // Whole logical lines until the batch is full.
    while (k < n && len < BATCH_UNITS) {
      const line = buf.getLine(k);
      const end = line.wrapped ? line.cols : line.contentEnd();
      if (units.length < len + end * 2 + 2) {
        const grown = new Uint16Array((len + end * 2 + 2) * 2);
        grown.set(units.subarray(0, len));
        units = grown;
      }
      if (count === rowIndex.length) {
        rowIndex = grow(rowIndex);
        rowStart = grow(rowStart);
        const p = new Uint8Array(count * 2);
        p.set(rowPlain);
        rowPlain = p;
      }
      rowIndex[count] = k;
      rowStart[count] = len;
      const d = line.data;
      let plain = 1;
      for (let x = 0; x < end; x++) {
        const i = x * CELL_STRIDE;
        const a = d[i + ATTR];
        let c = d[i + CODE];
        if ((a & A_GLYPH_MASK) !== 0) {
          plain = 0;
          if ((a & A_WIDE_TAIL) !== 0) continue;
          if ((a & A_CLUSTER) !== 0) {
            const t = line.clusters?.get(x);
            if (t !== undefined) {
              if (units.length < len + t.length + end * 2) {
                const grown = new Uint16Array((len + t.length + end * 2) * 2);
                grown.set(units.subarray(0, len));
                units = grown;
              }
              for (let j = 0; j < t.length; j++) units[len++] = t.charCodeAt(j);
              continue;
            }
          }
        }
        if (c === 0) c = 32;
        if (c > 0xffff) {
          plain = 0;
          c -= 0x10000;
          units[len++] = 0xd800 + (c >> 10);
          units[len++] = 0xdc00 + (c & 0x3ff);
        } else {
          // A newline in a cell (there is none) must not split a line.
          units[len++] = c === 10 ? 32 : c;
        }
      }
      rowPlain[count++] = plain;
      const e = line.extras;
      if (e !== null && (e.block !== undefined || e.inline !== undefined)) {
        embedRows.push(k);
      }
      k++;
      if (!line.wrapped || k === n) units[len++] = 10;
    }
    const text = decoder.decode(units.subarray(0, len));
    re.lastIndex = 0;
    for (let m = re.exec(text); m && out.length < limit; m = re.exec(text)) {
      // Within one logical line only (a regex such as \s could cross).
      if (m[0].includes("\n")) continue;
      const [line, col] = position(
        buf,
        rowIndex,
        rowStart,
        rowPlain,
        count,
        m.index,
        false,
      );
      const [endLine, endCol] = position(
        buf,
        rowIndex,
        rowStart,
        rowPlain,
        count,
        m.index + m[0].length,
        true,
      );
      out.push({ line, col, endLine, endCol });
    }
  }
  return embedMatches(buf, re, embedRows, out, limit);
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * Row and column of string offset `at` in the batch; `end` places an
 * offset at a row boundary at the end of the earlier row.
 */
function position(
  buf: BufferView,
  rowIndex: Int32Array,
  rowStart: Int32Array,
  rowPlain: Uint8Array,
  count: number,
  at: number,
  end: boolean,
): [number, number] {
  // The last row starting at or before `at` (before, for an end).
  let lo = 0, hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (end ? rowStart[mid] < at : rowStart[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  const k = rowIndex[lo];
  const off = at - rowStart[lo];
  return [k, rowPlain[lo] ? off : columnOf(buf.getLine(k), off)];
}

/** Matches in the embedded HTML of rows `rows`, merged into `out` in row order. */
function embedMatches(
  buf: BufferView,
  re: RegExp,
  rows: number[],
  out: FindMatch[],
  limit: number,
): FindMatch[] {
  if (rows.length === 0) return out;
  const found: FindMatch[] = [];
  for (const k of rows) {
    const line = buf.getLine(k);
    const e = line.extras!;
    let html = e.block?.html ?? "";
    for (const f of e.inline ?? []) html += " " + f.html;
    const t = htmlText(html);
    re.lastIndex = 0;
    for (let m = re.exec(t); m; m = re.exec(t)) {
      found.push({
        line: k,
        col: 0,
        endLine: k,
        endCol: line.cols,
        embed: true,
      });
    }
  }
  const all = [...out, ...found].sort((a, b) =>
    a.line - b.line || a.col - b.col
  );
  return all.slice(0, limit);
}
