/**
 * The print path: printable characters into the cells of the cursor's line,
 * with the cluster rules of `core/unicode/clusters.ts` (combining marks;
 * with mode 2027, `modes.graphemes`, ZWJ sequences, VS16, skin tones and
 * flags too), wide characters, autowrap,
 * margins, insert mode and double-size lines. Functions of the
 * {@link TerminalState}; the terminal calls {@link print} for the parser's
 * runs of printable characters and {@link printChar} for one character.
 *
 * Printing runs of ASCII ({@link printAsciiRun}) and of other width-1 and
 * width-2 characters ({@link printRun}) are the emulator's hot paths: they
 * write straight into the line's cell array and leave everything unusual to
 * {@link printChar}, with the same result as printing one character at a
 * time.
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
  FG,
} from "../model/cell.ts";
import { type Line, LINE_SINGLE } from "../model/line.ts";
import { coverCells } from "../model/line_extras.ts";
import { eraseCells, insertCells, splitWideAt } from "../model/line_ops.ts";
import {
  clusterAction,
  DROP,
  JOIN,
  JOIN_WIDEN,
  lastCodePoint,
  MAX_CLUSTER_LENGTH,
  PRINT,
  TARGET_CLUSTER,
  TARGET_WIDE,
  ZWJ,
} from "../unicode/clusters.ts";
import {
  BMP_UNKNOWN,
  BMP_WIDTH,
  charWidth,
  fillBmpWidth,
  hasEmojiPresentationWithVs16,
  VS16,
} from "../unicode/width.ts";
import { cursorLine, index, inHorizontalMargins, lineStart } from "./cursor.ts";
import type { TerminalState } from "./state.ts";

/**
 * The end (exclusive) of the cells the cursor may use on `line` from
 * column x: the right margin, or the screen edge when right of it; on a
 * double-size line only the first half of the cells (as xterm). Moves the
 * cursor into that half first.
 */
function printLimit(s: TerminalState, line: Line): number {
  const x = s.x;
  const limit = x <= s.right ? s.right + 1 : s.cols;
  if (line.size === LINE_SINGLE) return limit;
  const half = Math.max(1, s.cols >> 1);
  if (x >= half) s.x = half - 1;
  return Math.min(limit, half);
}

/**
 * Print `codes[start..end)` as the parser hands them over: with the
 * character sets and insert mode, joining clusters.
 */
export function print(
  s: TerminalState,
  codes: Uint32Array,
  start: number,
  end: number,
): void {
  // Modes and charsets are not replaced while printing: read them once.
  const modes = s.modes;
  const charsets = s.charsets;
  let i = start;
  while (i < end) {
    const cp = codes[i];
    if (s.joinNext || modes.insert || charsets.active) {
      printChar(s, charsets.active ? charsets.translate(cp) : cp);
      i++;
    } else if (cp >= 0x20 && cp < 0x7f) {
      i = printAsciiRun(s, codes, i, end);
    } else {
      i = printRun(s, codes, i, end);
    }
  }
}

/**
 * The hot path: a run of printable ASCII with replace mode and no charset
 * translation, written straight into the line's cell array.
 */
function printAsciiRun(
  s: TerminalState,
  codes: Uint32Array,
  i: number,
  end: number,
): number {
  const modes = s.modes;
  if (s.wrapPending) {
    if (modes.autowrap) wrap(s);
    s.wrapPending = false;
  }
  const line = s.buf.screenLine(s.y);
  const limit = printLimit(s, line);
  let x = s.x;
  const x0 = x;
  const d = line.data;
  if ((d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) splitWideAt(line, x);
  const fg = s.pen.fg, bg = s.pen.bg, attr = s.attr;
  let j = x * CELL_STRIDE;
  let oldAttrs = 0; // as in printRun: skip the cluster map when we can
  while (i < end && x < limit) {
    const c = codes[i];
    if (c < 0x20 || c >= 0x7f) break;
    oldAttrs |= d[j + 3];
    d[j] = c;
    d[j + 1] = fg;
    d[j + 2] = bg;
    d[j + 3] = attr;
    j += CELL_STRIDE;
    x++;
    i++;
  }
  tidyRun(s, line, x0, x0, x, oldAttrs);
  s.lastChar = codes[i - 1];
  if (x >= limit) {
    x = limit - 1;
    if (modes.autowrap) {
      s.wrapPending = true;
    } else {
      // No autowrap: the rest of the run overwrites the last column.
      const k = x * CELL_STRIDE;
      while (i < end) {
        const c = codes[i];
        if (c < 0x20 || c >= 0x7f) break;
        d[k] = c;
        s.lastChar = c;
        i++;
      }
    }
  }
  s.x = x;
  return i;
}

/**
 * Write the wide character `c` into the cells at `j` (an index into a
 * line's data) and the next; returns the old attributes of both (for the
 * cluster map, see {@link printRun}).
 */
function writeWide(
  d: Uint32Array,
  j: number,
  c: number,
  fg: number,
  bg: number,
  attr: number,
): number {
  const old = d[j + 3] | d[j + 7];
  d[j] = c;
  d[j + 1] = fg;
  d[j + 2] = bg;
  d[j + 3] = attr | A_WIDE;
  d[j + 4] = 0;
  d[j + 5] = fg;
  d[j + 6] = bg;
  d[j + 7] = attr | A_WIDE_TAIL;
  return old;
}

/** Drop the cluster text of cells [from, to) (their attributes said they had some). */
function dropClusters(line: Line, from: number, to: number): void {
  for (let k = from; k < to; k++) line.clusters?.delete(k);
}

/**
 * The hot path for other text (CJK, emoji, Latin-1): a run of width-1 and
 * width-2 characters in replace mode with no charset translation, written
 * straight into the line's cell array. It stops at anything that may join
 * the previous cell in a way it does not handle here (see {@link joinRun}),
 * at a wide character that does not fit before the margin and at the margin
 * itself; {@link printChar} handles those, so the result is exactly what
 * printing one character at a time gives. Always consumes at least one
 * code point.
 */
function printRun(
  s: TerminalState,
  codes: Uint32Array,
  i: number,
  end: number,
): number {
  if (s.wrapPending) {
    // The first character may be a combining mark for the cell at the
    // margin, or it wraps: the general path knows both.
    printChar(s, codes[i]);
    return i + 1;
  }
  const i0 = i;
  const line = s.buf.screenLine(s.y);
  const limit = printLimit(s, line);
  let x = s.x;
  const x0 = x;
  const d = line.data;
  const startsOnTail = (d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0;
  const fg = s.pen.fg, bg = s.pen.bg, attr = s.attr;
  const attrWide = attr | A_WIDE, attrTail = attr | A_WIDE_TAIL;
  const graphemes = s.modes.graphemes;
  let j = x * CELL_STRIDE;
  let last = 0;
  // Old attributes of the cells overwritten: whether any had cluster text
  // to delete (Map.delete per cell is costly).
  let oldAttrs = 0;
  // Cells [xc, x) may still need their old cluster text deleted.
  let xc = x0;
  // The cell of the last character written, for combining marks.
  let head = -1;
  while (i < end && x < limit) {
    const c = codes[i];
    let w: number;
    if (c < 0x10000) {
      w = BMP_WIDTH[c];
      if (w === BMP_UNKNOWN) w = fillBmpWidth(c);
    } else if (graphemes && c >= 0x1f1e6 && c <= 0x1f1ff) {
      // Regional indicator (narrow without mode 2027). A lone one before the run may pair with it:
      // the general path. Within the run no lone one is left (they are
      // never written here), so a pair is a new 2-cell flag.
      if (head < 0 && loneRegionalIndicatorBefore(line, x)) break;
      if (i + 1 >= end || x + 1 >= limit) break;
      const n = codes[i + 1];
      if (n < 0x1f1e6 || n > 0x1f1ff) break;
      head = x;
      oldAttrs |= writeWide(d, j, c, fg, bg, attr);
      j += 2 * CELL_STRIDE;
      x += 2;
      // Old cluster text goes before the new one is set.
      if ((oldAttrs & A_CLUSTER) !== 0) {
        dropClusters(line, xc, x);
        oldAttrs = 0;
      }
      xc = x;
      line.setCluster(head, String.fromCodePoint(c, n));
      last = c;
      i += 2;
      continue;
    } else {
      w = charWidth(c);
      // With mode 2027 a skin-tone modifier joins an emoji modifier base
      // (joinRun checks); otherwise it is printed as a wide character.
      if (graphemes && c >= 0x1f3fb && c <= 0x1f3ff) w = 0;
    }
    if (w === 1) {
      head = x;
      oldAttrs |= d[j + 3];
      d[j] = c;
      d[j + 1] = fg;
      d[j + 2] = bg;
      d[j + 3] = attr;
      j += CELL_STRIDE;
      x++;
    } else if (w === 2 && x + 1 < limit) {
      // (writeWide, written out: the CJK path)
      head = x;
      oldAttrs |= d[j + 3] | d[j + 7];
      d[j] = c;
      d[j + 1] = fg;
      d[j + 2] = bg;
      d[j + 3] = attrWide;
      d[j + 4] = 0;
      d[j + 5] = fg;
      d[j + 6] = bg;
      d[j + 7] = attrTail;
      j += 2 * CELL_STRIDE;
      x += 2;
    } else if (w === 0 && c >= 0xa0) {
      // Combining marks, VS16, skin tones and ZWJ sequences join the last
      // character of this run or, at its start, the cell before the
      // cursor (clusterTarget: no wrap is pending here).
      if (head < 0) {
        if (x === 0) break;
        head = (d[j - CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0 && x > 1
          ? x - 2
          : x - 1;
        if (d[head * CELL_STRIDE + CODE] === 0) break;
      }
      if (
        graphemes && c === VS16 && head === x - 1 && head >= x0 &&
        (d[j - CELL_STRIDE + ATTR] & A_CLUSTER) === 0 &&
        hasEmojiPresentationWithVs16(d[j - CELL_STRIDE + CODE])
      ) {
        // Emoji presentation: the narrow head (just written, so cell x
        // is before the margin) becomes wide, as widenCluster does.
        d[j - CELL_STRIDE + ATTR] |= A_WIDE;
        oldAttrs |= d[j + 3];
        d[j] = 0;
        d[j + 1] = fg;
        d[j + 2] = bg;
        d[j + 3] = attr | A_WIDE_TAIL;
        j += CELL_STRIDE;
        x++;
      }
      if ((oldAttrs & A_CLUSTER) !== 0) {
        dropClusters(line, xc, x);
        oldAttrs = 0;
      }
      xc = x;
      const k = joinRun(line, head, codes, i, end, graphemes);
      if (k === i) {
        if (c < 0x1f3fb || c > 0x1f3ff || x + 1 >= limit) break;
        // A skin-tone modifier that joins nothing (mode 2027: w is 0
        // only then): a wide character.
        head = x;
        oldAttrs |= writeWide(d, j, c, fg, bg, attr);
        j += 2 * CELL_STRIDE;
        x += 2;
        last = c;
        i++;
        continue;
      }
      i = k;
      continue;
    } else {
      break; // zero width, or a wide character that must wrap
    }
    last = c;
    i++;
  }
  if (i === i0) {
    printChar(s, codes[i]);
    return i + 1;
  }
  if (x === x0) return i; // only joined: no cell written
  endRun(s, line, x0, x, limit, startsOnTail, xc, oldAttrs, last);
  return i;
}

/**
 * For {@link printRun}, after it wrote cells [x0, x) of `line` (`last` the
 * last character; `startsOnTail`: cell x0 was the tail of a wide
 * character): the wide characters cut at either end, the old cluster
 * text of cells [xc, x) (when `oldAttrs` says there was some), the line's
 * extent and embeds, the cursor.
 */
function endRun(
  s: TerminalState,
  line: Line,
  x0: number,
  x: number,
  limit: number,
  startsOnTail: boolean,
  xc: number,
  oldAttrs: number,
  last: number,
): void {
  const d = line.data;
  if (startsOnTail && x0 > 0) {
    // The tail of a wide character was overwritten: blank its head.
    const h = (x0 - 1) * CELL_STRIDE;
    d[h + CODE] = 0;
    d[h + ATTR] &= ~A_GLYPH_MASK;
    line.clusters?.delete(x0 - 1);
  }
  tidyRun(s, line, xc, x0, x, oldAttrs);
  s.lastChar = last;
  if (x >= limit) {
    s.x = limit - 1;
    if (s.modes.autowrap) s.wrapPending = true;
  } else {
    s.x = x;
  }
}

/**
 * For {@link printRun}: append the code points at `codes[i..]` that join
 * the cluster of cell `head` (the cluster rules, {@link clusterAction}),
 * building the text once instead of once per code point. Returns the index
 * after the last one joined. It stops where printing one character at a
 * time would do more than append (VS16 that widens the cell, a ZWJ whose
 * partner is in the next chunk, a cluster near MAX_CLUSTER_LENGTH): the
 * general path then takes over, so the result is the same. `graphemes`:
 * mode 2027 (else a ZWJ joins as any zero-width character, alone).
 */
function joinRun(
  line: Line,
  head: number,
  codes: Uint32Array,
  i: number,
  end: number,
  graphemes: boolean,
): number {
  const d = line.data;
  const h = head * CELL_STRIDE;
  const a = d[h + ATTR];
  const code = d[h + CODE];
  let flags = (a & A_CLUSTER) !== 0 ? TARGET_CLUSTER : 0;
  if ((a & A_WIDE) !== 0) flags |= TARGET_WIDE;
  let text = flags & TARGET_CLUSTER
    ? line.clusters?.get(head) ?? String.fromCodePoint(code)
    : String.fromCodePoint(code);
  let lastCp = lastCodePoint(text);
  let k = i;
  while (k < end) {
    const c = codes[k];
    if (text.length >= MAX_CLUSTER_LENGTH) {
      // Full: further combining marks and ZWJs are dropped, as printChar
      // drops them (a dropped ZWJ joins nothing), without a trip through
      // the general path for each.
      if (c < 0xa0 || (c !== ZWJ && charWidth(c) !== 0)) break;
      k++;
      continue;
    }
    if (c === ZWJ && graphemes) {
      if (k + 1 >= end || text.length + 1 >= MAX_CLUSTER_LENGTH) break;
      const n = codes[k + 1];
      if (n < 0xa0 || n === ZWJ) break; // (JOIN whatever it is)
      text += "\u200d" + String.fromCodePoint(n);
      lastCp = n;
      flags |= TARGET_CLUSTER;
      k += 2;
      continue;
    }
    const w = charWidth(c);
    if (clusterAction(c, w, false, code, lastCp, flags, graphemes) !== JOIN) {
      break;
    }
    text += String.fromCodePoint(c);
    lastCp = c;
    flags |= TARGET_CLUSTER;
    k++;
  }
  if (k > i) line.setCluster(head, text);
  return k;
}

/** True when the cell before column `x` is a regional indicator a second one would pair with. */
function loneRegionalIndicatorBefore(line: Line, x: number): boolean {
  if (x === 0) return false;
  const c = line.code(x - 1);
  return c >= 0x1f1e6 && c <= 0x1f1ff &&
    (line.attr(x - 1) & (A_CLUSTER | A_WIDE | A_WIDE_TAIL)) === 0;
}

/** Print one (already translated) character of any width. */
export function printChar(s: TerminalState, cp: number): void {
  const w = charWidth(cp);
  if (w === 0 && cp < 0xa0) return; // a zero-width control: nothing
  if (
    w === 0 || s.joinNext ||
    (cp >= 0x1f1e6 && cp <= 0x1f3ff && s.modes.graphemes) // may join
  ) {
    if (joinCluster(s, cp, w)) return;
  }
  const modes = s.modes;
  if (s.wrapPending) {
    if (modes.autowrap) wrap(s);
    s.wrapPending = false;
  }
  let limit = printLimit(s, cursorLine(s));
  if (w === 2 && s.x + 1 >= limit) {
    const start = inHorizontalMargins(s) ? s.left : 0;
    if (limit - start < 2) return; // no room for a wide character at all
    if (modes.autowrap) {
      eraseCells(cursorLine(s), s.x, s.x + 1, s.pen.bg);
      wrap(s);
      limit = printLimit(s, cursorLine(s));
      if (s.x + 1 >= limit) return; // a double-size line too narrow
    } else {
      s.x = limit - 2;
    }
  }
  const x = s.x;
  const line = cursorLine(s);
  if (modes.insert) insertCells(line, x, w, limit, s.pen.bg);
  const d = line.data;
  const i = x * CELL_STRIDE;
  if ((d[i + ATTR] & A_WIDE_TAIL) !== 0) splitWideAt(line, x);
  if (
    x + w < line.cols && (d[i + w * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0
  ) {
    splitWideAt(line, x + w);
  }
  const clusters = line.clusters;
  if (clusters !== null && clusters.size > 0) {
    clusters.delete(x);
    if (w === 2) clusters.delete(x + 1);
  }
  const fg = s.pen.fg, bg = s.pen.bg;
  if (w === 2) {
    writeWide(d, i, cp, fg, bg, s.attr);
  } else {
    d[i + CODE] = cp;
    d[i + 1] = fg;
    d[i + 2] = bg;
    d[i + ATTR] = s.attr;
  }
  line.touch(x + w);
  line.dirty = true;
  if (line.extras !== null) coverCells(line, x, x + w, false);
  s.lastChar = cp;
  const nx = x + w;
  if (nx >= limit) {
    s.x = limit - 1;
    if (modes.autowrap) s.wrapPending = true;
  } else {
    s.x = nx;
  }
}

/**
 * The cell a zero-width character joins: the one before the cursor (the
 * cursor cell itself while a wrap is pending), the head if that is a wide
 * tail. -1 when there is none.
 */
function clusterTarget(s: TerminalState, line: Line): number {
  let tx = s.wrapPending ? s.x : s.x - 1;
  if (tx < 0) return -1;
  if ((line.attr(tx) & A_WIDE_TAIL) !== 0 && tx > 0) tx--;
  return line.code(tx) === 0 ? -1 : tx;
}

/**
 * What the cluster rules say of `cp` (width `w`) after the cell before the
 * cursor ({@link clusterAction}): join its cluster, widening it (a flag,
 * VS16 after a text-default emoji), or drop it. Returns false when `cp`
 * is a character of its own, to print.
 */
function joinCluster(s: TerminalState, cp: number, w: number): boolean {
  const line = cursorLine(s);
  const tx = clusterTarget(s, line);
  let code = 0, lastCp = 0, flags = 0, text: string | undefined;
  if (tx >= 0) {
    const a = line.attr(tx);
    code = line.code(tx);
    if ((a & A_CLUSTER) !== 0) {
      flags = TARGET_CLUSTER;
      text = line.clusters?.get(tx);
    }
    if ((a & A_WIDE) !== 0) flags |= TARGET_WIDE;
    lastCp = text === undefined ? code : lastCodePoint(text);
  }
  const graphemes = s.modes.graphemes;
  const action = clusterAction(
    cp,
    w,
    s.joinNext,
    code,
    lastCp,
    flags,
    graphemes,
  );
  if (action === PRINT) return false;
  s.joinNext = false;
  if (action === DROP) return true;
  const prev = text ?? String.fromCodePoint(code);
  if (prev.length >= MAX_CLUSTER_LENGTH) return true; // full: dropped
  line.setCluster(tx, prev + String.fromCodePoint(cp));
  s.joinNext = graphemes && cp === ZWJ;
  if (action === JOIN_WIDEN) widenCluster(s, line, tx);
  return true;
}

/**
 * Make the narrow cluster at `tx` (just before the cursor) 2 cells wide.
 * When it sits in the last column there is no room: it stays 1 cell
 * rather than moving to the next line (simpler, and the cluster text is
 * kept either way).
 */
function widenCluster(s: TerminalState, line: Line, tx: number): void {
  let limit = tx <= s.right ? s.right + 1 : s.cols;
  if (line.size !== LINE_SINGLE) {
    limit = Math.min(limit, Math.max(1, s.cols >> 1));
  }
  if (tx + 1 >= limit) return;
  const bg = s.pen.bg;
  if (s.modes.insert) insertCells(line, tx + 1, 1, limit, bg);
  splitWideAt(line, tx + 2 < line.cols ? tx + 2 : line.cols);
  line.clusters?.delete(tx + 1);
  const d = line.data;
  const i = tx * CELL_STRIDE;
  d[i + ATTR] |= A_WIDE;
  d[i + 4 + CODE] = 0;
  d[i + 4 + FG] = d[i + FG];
  d[i + 4 + BG] = d[i + BG];
  d[i + 4 + ATTR] = (d[i + ATTR] & ~A_GLYPH_MASK) | A_WIDE_TAIL;
  line.touch(tx + 2);
  line.dirty = true;
  const nx = tx + 2;
  if (nx >= limit) {
    s.x = limit - 1;
    if (s.modes.autowrap) s.wrapPending = true;
  } else {
    s.x = nx;
  }
}

/** Soft wrap: mark the line, go to the start of the next one (scrolling if needed). */
function wrap(s: TerminalState): void {
  const line = cursorLine(s);
  line.wrapped = true;
  line.dirty = true;
  s.x = lineStart(s);
  index(s);
}

/**
 * What a run printed into cells [x0, x) of `line` leaves to tidy (both
 * print paths): the cluster text of the cells from `xc` on, when the
 * overwritten cells had some (`oldAttrs`); the tail of a wide character
 * whose head was overwritten; the line's drawn extent, dirty flag and the
 * embeds the run covered.
 */
function tidyRun(
  s: TerminalState,
  line: Line,
  xc: number,
  x0: number,
  x: number,
  oldAttrs: number,
): void {
  const d = line.data;
  const clusters = line.clusters;
  if (clusters !== null && (oldAttrs & A_CLUSTER) !== 0) {
    for (let k = xc; k < x; k++) clusters.delete(k);
  }
  if (x < s.cols && (d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) {
    // The head of this wide character was overwritten: blank its tail.
    d[x * CELL_STRIDE + CODE] = 0;
    d[x * CELL_STRIDE + ATTR] &= ~A_GLYPH_MASK;
  }
  if (x > line.hi) line.hi = x;
  line.dirty = true;
  if (line.extras !== null) coverCells(line, x0, x, false);
}
