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
    re = new RegExp(source, options.caseSensitive ? "gmu" : "gimu");
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

/** Bytes gathered before a batch of rows is searched. */
const BATCH_BYTES = 1 << 19;
// UTF-8: decoding it is about twice as fast as UTF-16 (bench/find_bench.ts).
const decoder = new TextDecoder();
/** Where rows are gathered (kept: a search is synchronous). */
let scratch = new Uint8Array(BATCH_BYTES + 4096);

/**
 * Appends code point `c` (not ASCII) to `out` at `at` as UTF-8; returns
 * the new end. A lone surrogate (never in a cell) becomes U+FFFD, one
 * unit, as the decoder would read it.
 */
function putUtf8(out: Uint8Array, at: number, c: number): number {
  if (c < 0x800) {
    out[at++] = 0xc0 | (c >> 6);
  } else {
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x10000) {
      out[at++] = 0xe0 | (c >> 12);
    } else {
      out[at++] = 0xf0 | (c >> 18);
      out[at++] = 0x80 | ((c >> 12) & 0x3f);
    }
    out[at++] = 0x80 | ((c >> 6) & 0x3f);
  }
  out[at++] = 0x80 | (c & 0x3f);
  return at;
}

/** A copy of `a` with room for at least `need` bytes. */
function room(
  a: Uint8Array<ArrayBuffer>,
  used: number,
  need: number,
): Uint8Array<ArrayBuffer> {
  if (a.length >= need) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2));
  b.set(a.subarray(0, used));
  return b;
}

/** One batch of rows gathered into one string (see {@link FindText}). */
interface Batch {
  text: string;
  /**
   * Per row of the batch: its buffer index, where its text starts (a
   * string offset), and whether string offsets in it are its columns.
   */
  rowIndex: Int32Array;
  rowStart: Int32Array;
  rowPlain: Uint8Array;
  count: number;
}

/**
 * The searchable text of a buffer: its rows gathered into one string per
 * batch of about 512 KiB of UTF-8 (logical lines separated by "\n"), so
 * that a regular expression runs over long strings and a row costs a
 * strided copy, not a string of its own. Valid until the buffer changes:
 * a find bar keeps one while the user types queries, and makes a new one
 * after output.
 */
export class FindText {
  readonly batches: Batch[] = [];
  /** Rows with embedded HTML (their text is searched separately). */
  readonly embedRows: number[] = [];

  constructor(buf: BufferView) {
    const n = buf.length;
    let bytes = scratch;
    let k = 0;
    while (k < n) {
      let rowIndex = new Int32Array(1024);
      let rowStart = new Int32Array(1024);
      let rowPlain = new Uint8Array(1024);
      let len = 0; // bytes
      let pos = 0; // UTF-16 units of the decoded string
      let count = 0;
      // Whole logical lines until the batch is full.
      while (k < n && len < BATCH_BYTES) {
        const line = buf.getLine(k);
        const end = line.wrapped ? line.cols : line.contentEnd();
        bytes = room(bytes, len, len + end * 4 + 1);
        if (count === rowIndex.length) {
          rowIndex = grow(rowIndex);
          rowStart = grow(rowStart);
          const p = new Uint8Array(count * 2);
          p.set(rowPlain);
          rowPlain = p;
        }
        rowIndex[count] = k;
        rowStart[count] = pos;
        const d = line.data;
        let plain = 1;
        for (let x = 0; x < end; x++) {
          const i = x * CELL_STRIDE;
          const a = d[i + ATTR];
          const c = d[i + CODE];
          if ((a & A_GLYPH_MASK) !== 0) {
            plain = 0;
            if ((a & A_WIDE_TAIL) !== 0) continue;
            if ((a & A_CLUSTER) !== 0) {
              const t = line.clusters?.get(x);
              if (t !== undefined) {
                bytes = room(bytes, len, len + t.length * 3 + end * 4 + 1);
                for (const ch of t) {
                  const cp = ch.codePointAt(0)!;
                  if (cp < 0x80) bytes[len++] = cp;
                  else len = putUtf8(bytes, len, cp);
                  pos += cp > 0xffff ? 2 : 1;
                }
                continue;
              }
            }
          }
          if (c < 0x80) {
            // Blank cells are spaces; a newline in a cell (there is none)
            // must not split a line.
            bytes[len++] = c === 0 || c === 10 ? 32 : c;
            pos++;
          } else {
            len = putUtf8(bytes, len, c);
            if (c > 0xffff) {
              plain = 0;
              pos += 2;
            } else pos++;
          }
        }
        rowPlain[count++] = plain;
        const e = line.extras;
        if (e !== null && (e.block !== undefined || e.inline !== undefined)) {
          this.embedRows.push(k);
        }
        k++;
        if (!line.wrapped || k === n) {
          bytes[len++] = 10;
          pos++;
        }
      }
      scratch = bytes;
      this.batches.push({
        text: decoder.decode(bytes.subarray(0, len)),
        rowIndex,
        rowStart,
        rowPlain,
        count,
      });
    }
  }
}

/**
 * Every match of `re` (from {@link compileFind}) in `buf`, oldest first,
 * up to `limit`. `text` is the buffer's gathered text, when one was kept
 * from an earlier search of the same, unchanged buffer.
 */
export function findAll(
  buf: BufferView,
  re: RegExp,
  limit = MAX_MATCHES,
  text: FindText = new FindText(buf),
): FindMatch[] {
  const out: FindMatch[] = [];
  for (const b of text.batches) {
    if (out.length >= limit) break;
    re.lastIndex = 0;
    for (
      let m = re.exec(b.text);
      m && out.length < limit;
      m = re.exec(b.text)
    ) {
      // Within one logical line only (a regex such as \s could cross).
      if (m[0].includes("\n")) continue;
      const [line, col] = position(buf, b, m.index, false);
      const [endLine, endCol] = position(
        buf,
        b,
        m.index + m[0].length,
        true,
      );
      out.push({ line, col, endLine, endCol });
    }
  }
  return embedMatches(buf, re, text.embedRows, out, limit);
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
  b: Batch,
  at: number,
  end: boolean,
): [number, number] {
  const { rowIndex, rowStart, rowPlain } = b;
  // The last row starting at or before `at` (before, for an end).
  let lo = 0, hi = b.count - 1;
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
