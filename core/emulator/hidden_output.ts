/**
 * Output that nobody can ever see: in one large write of lines, the lines
 * that will have left the scrollback by the end of that same write. A
 * terminal that only keeps a model (the server's copy of a session) can
 * skip printing most of them: for a stretch of lines it can follow (text,
 * CR, LF and SGR) it replays only what changes state beyond those lines
 * (the SGR sequences, which set the pen), moves the cursor down as their
 * line feeds and wraps would (scrolling and trimming as before), then sets
 * the cursor column the text would have left. A line it cannot follow
 * exactly (a tab, invalid UTF-8, a cluster near its size cap...) is printed
 * as usual between two stretches. The model after the write is the same as
 * if every character had been printed. See {@link planHiddenOutput}.
 *
 * @module
 */
import {
  clusterAction,
  dependsOnTarget,
  DROP,
  JOIN_WIDEN,
  MAX_CLUSTER_LENGTH,
  PRINT,
  TARGET_CLUSTER,
  TARGET_WIDE,
  ZWJ,
} from "../unicode/clusters.ts";
import { charWidth } from "../unicode/width.ts";

/**
 * What {@link planHiddenOutput} found to skip: `count` stretches, in order.
 * Stretch k covers bytes [from[k], to[k]): skip them, replaying their SGR
 * sequences ({@link sgrReplay}), going down rowsDown[k] rows, then the
 * cursor is at column x[k] with no wrap pending, and the last character
 * printed is lastChar[k] (-1: unchanged). Between stretch k and k + 1,
 * bytes [to[k], from[k + 1]) are whole lines to print as usual; each ends
 * with the cursor in column 0. The arrays are reused by the next call.
 */
export interface HiddenOutputPlan {
  /** Bytes [0, end) are covered by the plan; parse the rest as usual. */
  end: number;
  count: number;
  from: Int32Array;
  to: Int32Array;
  rowsDown: Int32Array;
  x: Int32Array;
  lastChar: Int32Array;
  /** Where the skipped SGR sequences that may set an underline colour start, ascending. */
  underline: Int32Array;
}

const ESC = 0x1b, LBRACKET = 0x5b, SGR_FINAL = 0x6d;
const CR = 0x0d, LF = 0x0a, TAB = 0x09;

/** The cell a zero-width character would join: none (column 0), one we know, or one we do not. */
const T_NONE = 0, T_KNOWN = 1, T_UNKNOWN = 2;

/** A byte of an SGR sequence's parameters: digits, `:` and `;`. */
function isSgrParam(b: number): boolean {
  return b >= 0x30 && b <= 0x3b;
}

/**
 * Plans what of `data` may go unprinted, for a terminal whose parser sits
 * between characters and sequences, with the cursor at column `x`
 * (`wrapPending` as given) on a screen of `cols` columns with no margins,
 * in replace mode with no character set translation and no cluster
 * waiting for a joiner, whose rows from the cursor down are single-width
 * and hold no embeds, with a full-screen scroll region, and which keeps
 * `keep` lines at most (screen and scrollback, plus one), with mode 2027
 * (grapheme clusters) as `graphemes` says. The caller checks those
 * conditions.
 *
 * Only a leading run of lines of text is considered: printable characters,
 * CR, LF and `CSI [0-9;:]* m` (any other control or sequence ends it). A
 * line is followed exactly (its wraps, the clusters it makes and the
 * column it leaves) when its characters are ASCII, or, with autowrap on,
 * any Unicode the terminal's cluster rules cover here (wide characters,
 * combining marks, ZWJ sequences, VS16, skin tones, flags). Another line
 * (with a tab, invalid UTF-8, a zero-width character whose cell is not
 * known...) is to be printed as usual; it must start in column 0 (or be
 * the first) and end with CR LF, and it counts as one row at least. Every
 * line before a line feed that has `keep` rows or more after it has left
 * the scrollback by the run's end: the bytes up to the last such line feed
 * are planned. Returns null when there is nothing to skip.
 *
 * hot path: one loop over every byte of the run, its state in locals.
 * Split into methods of a scanner object (the state in its fields, or in
 * locals loaded and stored per stretch of followed lines) it planned ASCII
 * lines at 1205 MB/s instead of 1466 and Unicode lines at 57 instead of 155
 * (best of 41 interleaved runs, 2 MB each, on a loaded 2-core machine), so
 * only pass 2 ({@link toPlan}) and the cluster rules
 * (`core/unicode/clusters.ts`) are apart.
 */
export function planHiddenOutput(
  data: Uint8Array,
  x: number,
  wrapPending: boolean,
  cols: number,
  autowrap: boolean,
  newlineMode: boolean,
  keep: number,
  graphemes: boolean,
): HiddenOutputPlan | null {
  const n = data.length;
  if (n <= keep) return null; // each of the keep + 1 lines is at least its LF
  // Pass 1: the line feeds of the run, with the column after each, the rows
  // the cursor went down by then (line feeds and wraps; a line printed as
  // usual counts one) and the last character printed since its stretch
  // began. Runs of ASCII are taken whole: this pass must cost far less than
  // printing them would. Only the last `keep + 1` line feeds can be the one
  // looked for below (each goes down a row at least): they are kept in a
  // ring.
  const mask = ringMask(keep + 1);
  const ends = lfEnds, columns = lfColumns, downs = lfDown, lasts = lfLast;
  let lfs = 0;
  let down = 0;
  let cx = x, w = wrapPending;
  let last = -1;
  let underlines = 0;
  // Stretches ended by a line printed as usual.
  let stretches = 0;
  let curFrom = 0, curBase = 0;
  // The current line: where it started, and the state then.
  let lineStart = 0, lineX0 = x, lineDown0 = 0, lineLast0 = -1;
  let followed = true; // the current line is followed exactly so far
  let crLast = false; // a line printed as usual: a CR came after its last character
  // The cluster a zero-width character would join, and a pending ZWJ.
  let tgt = x === 0 && !wrapPending ? T_NONE : T_UNKNOWN;
  let tgtCode = 0, tgtWide = false, tgtCluster = false, tgtLen = 0;
  let tgtLastCp = 0;
  let joinNext = false;
  let i = 0;
  while (i < n) {
    let b = data[i];
    if (!followed) {
      // A line printed as usual: only check that it is one, up to its LF.
      if (b >= 0x20 && b <= 0x7e) {
        crLast = false;
        i++;
      } else if (b >= 0x80) {
        // Decoded C1 controls (U+0080..U+009F) are controls, not text.
        if (
          b === 0xc2 && i + 1 < n && data[i + 1] >= 0x80 && data[i + 1] <= 0x9f
        ) break;
        crLast = false;
        i++;
      } else if (b === CR) {
        crLast = true;
        i++;
      } else if (b === TAB) {
        crLast = false;
        i++;
      } else if (b === ESC) {
        const end = sgrEnd(data, i);
        if (end < 0) break;
        i = end;
      } else if (b === LF) {
        if (!crLast && !newlineMode) break; // it would not end in column 0
        down = lineDown0 + 1;
        if (lineStart === curFrom && stretches > 0) {
          // Right after another such line: one range to print.
          stNext[stretches - 1] = i + 1;
          stNextDown[stretches - 1] = down;
        } else {
          if (stretches === stFrom.length) growStretches();
          stFrom[stretches] = curFrom;
          stTo[stretches] = lineStart;
          stRows[stretches] = lineDown0 - curBase;
          stLast[stretches] = lineLast0;
          stNext[stretches] = i + 1;
          stNextDown[stretches] = down;
          stretches++;
        }
        curFrom = i + 1;
        curBase = down;
        i++;
        const at = lfs++ & mask;
        ends[at] = i;
        columns[at] = 0;
        downs[at] = down;
        lasts[at] = -1;
        cx = 0;
        w = false;
        last = -1;
        tgt = T_NONE;
        joinNext = false;
        followed = true;
        lineStart = i;
        lineX0 = 0;
        lineDown0 = down;
        lineLast0 = -1;
      } else break;
      continue;
    }
    // Whether this line can still be followed (else it is printed as usual).
    let ok = true;
    if (b >= 0x20 && b <= 0x7e) {
      if (joinNext) {
        // A printable character after a ZWJ joins its cluster.
        if (tgt === T_KNOWN && tgtLen + 3 <= MAX_CLUSTER_LENGTH) {
          tgtLen++;
          tgtCluster = true;
          tgtLastCp = b;
          joinNext = false;
          i++;
          continue;
        }
        ok = false;
      } else {
        let k = i + 1;
        while (k < n) {
          const c = data[k];
          if (c < 0x20 || c > 0x7e) break;
          k++;
        }
        const len = k - i;
        i = k;
        last = data[k - 1];
        tgt = T_KNOWN;
        tgtCode = tgtLastCp = last;
        tgtWide = tgtCluster = false;
        tgtLen = 1;
        if (!w && len < cols - cx) cx += len;
        else {
          [cx, w, down] = printWrapping(len, cx, w, down, cols, autowrap);
        }
        if (i >= n) break;
        b = data[i];
      }
    }
    if (!ok) {
      // (below)
    } else if (b === LF) {
      w = false;
      joinNext = false;
      if (newlineMode) cx = 0;
      down++;
      i++;
      const at = lfs++ & mask;
      ends[at] = i;
      columns[at] = cx;
      downs[at] = down;
      lasts[at] = last;
      tgt = cx === 0 ? T_NONE : T_UNKNOWN;
      lineStart = i;
      lineX0 = cx;
      lineDown0 = down;
      lineLast0 = last;
      continue;
    } else if (b === CR) {
      cx = 0;
      w = false;
      joinNext = false;
      tgt = T_NONE;
      i++;
      continue;
    } else if (b === ESC) {
      const end = sgrEnd(data, i);
      if (end < 0) break;
      if (mayColourUnderline(data, i, end)) {
        if (underlines === ulPositions.length) growUnderlines();
        ulPositions[underlines++] = i;
      }
      joinNext = false;
      i = end;
      continue;
    } else if (b >= 0x80) {
      // One UTF-8 encoded code point, printed as print.ts's printChar
      // prints it (its printRun gives the same).
      const cp = decodeUtf8(data, i, n);
      if (cp === CUT || (cp >= 0x80 && cp < 0xa0)) break; // a C1 control
      ok = cp !== INVALID && autowrap;
      const wd = ok ? charWidth(cp) : 0;
      let action = PRINT;
      if (ok && dependsOnTarget(cp, wd, joinNext, graphemes)) {
        // The cluster rules (core/unicode/clusters.ts), if the cell before
        // the cursor is known.
        if (tgt === T_UNKNOWN) ok = false;
        else {
          action = clusterAction(
            cp,
            wd,
            joinNext,
            tgt === T_KNOWN ? tgtCode : 0,
            tgtLastCp,
            (tgtCluster ? TARGET_CLUSTER : 0) | (tgtWide ? TARGET_WIDE : 0),
            graphemes,
          );
        }
      }
      if (!ok) {
        // (below)
      } else if (action === DROP) {
        joinNext = false;
      } else if (action !== PRINT) {
        // It joins the known cell before the cursor (print.ts's joinCluster).
        joinNext = false;
        const len = cp > 0xffff ? 2 : 1;
        // Near the cap the terminal drops characters: not followed.
        ok = tgtLen + len + 2 <= MAX_CLUSTER_LENGTH;
        if (ok) {
          tgtLen += len;
          tgtCluster = true;
          tgtLastCp = cp;
          joinNext = graphemes && cp === ZWJ;
          if (action === JOIN_WIDEN && !w) {
            // widenCluster: the narrow cell before the cursor takes two
            // (none in the last column: it stays narrow).
            tgtWide = true;
            if (++cx >= cols) {
              cx = cols - 1;
              w = true;
            }
          }
        }
      } else {
        // A character of its own.
        if (w) {
          down++;
          cx = 0;
          w = false;
        }
        if (wd === 2 && cx + 1 >= cols) {
          if (cols < 2) ok = false;
          down++; // it does not fit: it wraps first
          cx = 0;
        }
        cx += wd;
        if (cx >= cols) {
          cx = cols - 1;
          w = true;
        }
        tgt = T_KNOWN;
        tgtCode = tgtLastCp = cp;
        tgtWide = wd === 2;
        tgtCluster = false;
        tgtLen = cp > 0xffff ? 2 : 1;
        last = cp;
      }
      if (ok) {
        i += cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        continue;
      }
    } else if (b === TAB) {
      ok = false;
    } else break;
    // This line is not followed: it is printed as usual, if it starts in
    // column 0 or is the write's first (the cells before it are then the
    // real ones), else the run ends before it.
    if (lineX0 !== 0 && lineStart !== 0) break;
    followed = false;
    crLast = false;
    i = lineStart;
  }

  return toPlan(lfs, mask, down, stretches, underlines, keep);
}

/**
 * Pass 2 of {@link planHiddenOutput}: the last line feed with `keep` rows
 * or more after it in the run (`lfs` line feeds, the last in the ring with
 * `mask`, `down` rows in all), and the stretches up to it (`stretches` of
 * them, `underlines` SGR positions).
 */
function toPlan(
  lfs: number,
  mask: number,
  down: number,
  stretches: number,
  underlines: number,
  keep: number,
): HiddenOutputPlan | null {
  const downs = lfDown;
  const oldest = Math.max(0, lfs - mask - 1);
  let j = lfs - 1;
  while (j >= oldest && down - downs[j & mask] < keep) j--;
  if (j < oldest) return null;
  const end = lfEnds[j & mask];
  // The stretches before it, then the one it ends (if it is in one).
  let c = stretches;
  while (c > 0 && stTo[c - 1] > end) c--;
  const count = c + 1;
  if (outFrom.length < count) growOut(count);
  for (let k = 0; k < c; k++) {
    outFrom[k] = stFrom[k];
    outTo[k] = stTo[k];
    outRows[k] = stRows[k];
    outX[k] = 0;
    outLast[k] = stLast[k];
  }
  const from = c > 0 ? Math.min(stNext[c - 1], end) : 0;
  outFrom[c] = from;
  outTo[c] = end;
  if (from < end) {
    outRows[c] = downs[j & mask] - (c > 0 ? stNextDown[c - 1] : 0);
    outX[c] = lfColumns[j & mask];
    outLast[c] = lfLast[j & mask];
  } else {
    outRows[c] = 0;
    outX[c] = 0;
    outLast[c] = -1;
  }
  return {
    end,
    count,
    from: outFrom,
    to: outTo,
    rowsDown: outRows,
    x: outX,
    lastChar: outLast,
    underline: ulPositions.subarray(0, underlines),
  };
}

/**
 * The SGR sequences of stretch [from, to) of a plan, to parse instead of
 * its bytes. SGR 0 sets the whole pen, so the sequences before the last
 * one that starts with it do not matter, unless an underline colour is
 * involved (the pen has one, `underlineColoured`, or one of them may set
 * one): that adds an entry to the terminal's table of extended styles
 * (ext_table.ts), which stays. A stretch holds no other sequence, so every
 * ESC in it starts one.
 */
export function sgrReplay(
  data: Uint8Array,
  from: number,
  to: number,
  underlineColoured: boolean,
  underline: Int32Array,
): Uint8Array {
  const first = data.indexOf(ESC, from);
  if (first < 0 || first >= to) return NO_BYTES;
  let start = first;
  if (!underlineColoured) {
    for (let e = data.lastIndexOf(ESC, to - 1); e >= first;) {
      if (resetsPen(data, e)) {
        start = e;
        break;
      }
      e = e > first ? data.lastIndexOf(ESC, e - 1) : -1;
    }
    // The first underline position at `first` or after: before `start`?
    let lo = 0, hi = underline.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (underline[mid] < first) lo = mid + 1;
      else hi = mid;
    }
    if (lo < underline.length && underline[lo] < start) start = first;
  }
  const replay = new Uint8Array(to - start);
  let r = 0;
  for (let e = start; e >= 0 && e < to; e = data.indexOf(ESC, e)) {
    const stop = sgrEnd(data, e);
    replay.set(data.subarray(e, stop), r);
    r += stop - e;
    e = stop;
  }
  return replay.subarray(0, r);
}

/**
 * Whether the SGR sequence [i, end) may set an underline colour (SGR 58):
 * whether "58" appears in its parameters at all.
 */
function mayColourUnderline(data: Uint8Array, i: number, end: number): boolean {
  for (let j = i + 3; j < end - 1; j++) {
    if (data[j] === 0x38 && data[j - 1] === 0x35) return true;
  }
  return false;
}

/**
 * Whether the SGR sequence at `i` starts by resetting the pen: its first
 * parameter is 0 or empty, and has no sub-parameters.
 */
function resetsPen(data: Uint8Array, i: number): boolean {
  let j = i + 2;
  while (data[j] === 0x30) j++;
  const b = data[j];
  return b === 0x3b || b === SGR_FINAL;
}

const NO_BYTES = new Uint8Array(0);

/** decodeUtf8: the sequence is cut by the end of the data. */
const CUT = -1;
/** decodeUtf8: not valid UTF-8 (the parser prints U+FFFD). */
const INVALID = -2;

/** The code point whose UTF-8 encoding starts at `i` (data[i] >= 0x80), CUT or INVALID. */
function decodeUtf8(data: Uint8Array, i: number, n: number): number {
  const b = data[i];
  if (b < 0xc2 || b > 0xf4) return INVALID;
  if (b < 0xe0) {
    if (i + 1 >= n) return CUT;
    const c1 = data[i + 1];
    return (c1 & 0xc0) === 0x80 ? ((b & 0x1f) << 6) | (c1 & 0x3f) : INVALID;
  }
  // The second byte's range excludes overlong forms and surrogates.
  const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  if (i + 1 >= n) return CUT;
  const c1 = data[i + 1];
  if (c1 < lo || c1 > hi) return INVALID;
  if (i + 2 >= n) return CUT;
  const c2 = data[i + 2];
  if ((c2 & 0xc0) !== 0x80) return INVALID;
  if (b < 0xf0) return ((b & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
  if (i + 3 >= n) return CUT;
  const c3 = data[i + 3];
  if ((c3 & 0xc0) !== 0x80) return INVALID;
  return ((b & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) |
    (c3 & 0x3f);
}

/**
 * Where each of the last line feeds of the run ends, the cursor column
 * after it, the rows gone down by then and the last character printed
 * since its stretch began (-1: none): a ring, reused from call to call.
 */
let lfEnds = new Int32Array(0);
let lfColumns = new Int32Array(0);
let lfDown = new Int32Array(0);
let lfLast = new Int32Array(0);

/** The index mask of a ring of at least `size` line feeds (grown as needed). */
function ringMask(size: number): number {
  if (lfEnds.length < size) {
    let len = 4096;
    while (len < size) len *= 2;
    lfEnds = new Int32Array(len);
    lfColumns = new Int32Array(len);
    lfDown = new Int32Array(len);
    lfLast = new Int32Array(len);
  }
  return lfEnds.length - 1;
}

/**
 * The stretches ended by a line printed as usual: their bytes, rows and
 * last character, and where the next one starts (after the line or lines
 * printed as usual) with the rows gone down by then.
 */
let stFrom = new Int32Array(256);
let stTo = new Int32Array(256);
let stRows = new Int32Array(256);
let stLast = new Int32Array(256);
let stNext = new Int32Array(256);
let stNextDown = new Int32Array(256);

function grow(
  a: Int32Array<ArrayBuffer>,
  size = a.length * 2,
): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

function growStretches(): void {
  stFrom = grow(stFrom);
  stTo = grow(stTo);
  stRows = grow(stRows);
  stLast = grow(stLast);
  stNext = grow(stNext);
  stNextDown = grow(stNextDown);
}

/** The plan's arrays. */
let outFrom = new Int32Array(256);
let outTo = new Int32Array(256);
let outRows = new Int32Array(256);
let outX = new Int32Array(256);
let outLast = new Int32Array(256);

function growOut(count: number): void {
  let size = outFrom.length;
  while (size < count) size *= 2;
  outFrom = grow(outFrom, size);
  outTo = grow(outTo, size);
  outRows = grow(outRows, size);
  outX = grow(outX, size);
  outLast = grow(outLast, size);
}

/** Where SGR sequences that may set an underline colour start. */
let ulPositions = new Int32Array(64);

function growUnderlines(): void {
  ulPositions = grow(ulPositions);
}

/**
 * Prints `len` characters from column `cx` (a wrap pending if `w`), going
 * down `down` rows so far: fills to the margin, wraps, and so on. Returns
 * the column, the wrap flag and the rows after them.
 */
function printWrapping(
  len: number,
  cx: number,
  w: boolean,
  down: number,
  cols: number,
  autowrap: boolean,
): [number, boolean, number] {
  for (;;) {
    if (w) { // the next character wraps first
      down++;
      cx = 0;
      w = false;
    }
    const room = cols - cx;
    if (len < room) return [cx + len, w, down];
    cx = cols - 1;
    if (!autowrap) return [cx, w, down]; // the rest overwrites the last column
    w = true;
    len -= room;
    if (len === 0) return [cx, w, down];
  }
}

/** The end of the SGR sequence (`ESC [ [0-9;:]* m`) at `i`, or -1 if there is none there. */
function sgrEnd(data: Uint8Array, i: number): number {
  const n = data.length;
  if (i + 1 >= n || data[i + 1] !== LBRACKET) return -1;
  let j = i + 2;
  while (j < n && isSgrParam(data[j])) j++;
  return j < n && data[j] === SGR_FINAL ? j + 1 : -1;
}
