/**
 * Output that nobody can ever see: in one large write of plain lines, the
 * lines that will have left the scrollback by the end of that same write.
 * A terminal that only keeps a model (the server's copy of a session) can
 * skip printing them: it replays only what changes state beyond those
 * lines (the SGR sequences, which set the pen), moves the cursor down as
 * their line feeds and wraps would (scrolling and trimming as before),
 * then sets the cursor column the text would have left. The model after
 * the write is then the same as if every character had been printed. See
 * {@link planHiddenOutput}.
 *
 * @module
 */

/** What {@link planHiddenOutput} found to skip. */
export interface HiddenOutputPlan {
  /** Bytes [0, end) are covered by the plan; parse the rest as usual. */
  end: number;
  /** What to parse instead of bytes [0, end): their SGR sequences, in order. */
  replay: Uint8Array;
  /** Rows the cursor goes down in bytes [0, end): their line feeds and wraps. */
  rowsDown: number;
  /** The cursor column after bytes [0, end) (no wrap is pending there). */
  x: number;
  /** The last character printed by bytes [0, end), or -1 if none. */
  lastChar: number;
}

const ESC = 0x1b, LBRACKET = 0x5b, SGR_FINAL = 0x6d;
const CR = 0x0d, LF = 0x0a;

/** A byte of an SGR sequence's parameters: digits, `:` and `;`. */
function isSgrParam(b: number): boolean {
  return b >= 0x30 && b <= 0x3b;
}

/**
 * Plans what of `data` may go unprinted, for a terminal whose parser sits
 * between characters and sequences, with the cursor at column `x`
 * (`wrapPending` as given) on a screen of `cols` columns with no margins,
 * in replace mode with no character set translation, whose rows from the
 * cursor down are single-width and hold no embeds, with a full-screen
 * scroll region, and which keeps `keep` lines at most (screen and
 * scrollback, plus one). The caller checks those conditions.
 *
 * Only a leading run of "plain lines" is considered: printable ASCII, CR,
 * LF and `CSI [0-9;:]* m` (anything else ends it), whose long lines wrap
 * as the terminal wraps them. Every line printed before a line feed that
 * has `keep` rows or more after it in the run (line feeds and wraps) has
 * left the scrollback by the run's end: the bytes up to the last such
 * line feed are planned as skipped. Returns null when there is nothing to
 * skip.
 */
export function planHiddenOutput(
  data: Uint8Array,
  x: number,
  wrapPending: boolean,
  cols: number,
  autowrap: boolean,
  newlineMode: boolean,
  keep: number,
): HiddenOutputPlan | null {
  const n = data.length;
  if (n <= keep) return null; // each of the keep + 1 lines is at least its LF
  // Pass 1: the line feeds of the plain run, with the column after each and
  // the rows the cursor went down by then (line feeds and wraps). Runs of
  // printable characters are taken whole: this pass must cost far less
  // than printing them would.
  let lfs = 0;
  let down = 0;
  let cx = x, w = wrapPending;
  let firstEsc = -1;
  let i = 0;
  while (i < n) {
    const k = printableEnd(data, i, n);
    if (k > i) {
      // Print k - i characters: fill to the margin, wrap, and so on.
      let len = k - i;
      for (;;) {
        if (w) { // the next character wraps first
          down++;
          cx = 0;
          w = false;
        }
        const room = cols - cx;
        if (len < room) {
          cx += len;
          break;
        }
        cx = cols - 1;
        if (!autowrap) break; // the rest overwrites the last column
        w = true;
        len -= room;
        if (len === 0) break;
      }
      i = k;
      if (i >= n) break;
    }
    const b = data[i];
    if (b === LF) {
      w = false;
      if (newlineMode) cx = 0;
      if (lfs === lfEnds.length) growLineFeeds();
      down++;
      lfEnds[lfs] = i + 1;
      lfColumns[lfs] = cx;
      lfDown[lfs] = down;
      lfs++;
      i++;
    } else if (b === CR) {
      cx = 0;
      w = false;
      i++;
    } else if (b === ESC) {
      const end = sgrEnd(data, i);
      if (end < 0) break;
      if (firstEsc < 0) firstEsc = i;
      i = end;
    } else break;
  }
  // The last line feed with `keep` rows or more after it in the run.
  let j = lfs - 1;
  while (j >= 0 && down - lfDown[j] < keep) j--;
  if (j < 0) return null;
  const end = lfEnds[j];
  const endX = lfColumns[j];
  const rowsDown = lfDown[j];
  if (firstEsc < 0 || firstEsc >= end) {
    // Text alone: its last character is the last before the line breaks.
    let k = end - 1;
    while (k >= 0 && (data[k] === LF || data[k] === CR)) k--;
    const lastChar = k >= 0 ? data[k] : -1;
    return { end, replay: NO_BYTES, rowsDown, x: endX, lastChar };
  }
  // Pass 2: the SGR sequences of bytes [0, end), and the last character.
  const replay = new Uint8Array(end - firstEsc);
  let r = 0;
  let lastChar = -1;
  i = 0;
  while (i < end) {
    const k = printableEnd(data, i, end);
    if (k > i) {
      lastChar = data[k - 1];
      i = k;
      if (i >= end) break;
    }
    if (data[i] === ESC) {
      const stop = sgrEnd(data, i);
      while (i < stop) replay[r++] = data[i++];
    } else i++; // CR or LF (pass 1 saw nothing else here)
  }
  return {
    end,
    replay: replay.subarray(0, r),
    rowsDown,
    x: endX,
    lastChar,
  };
}

const NO_BYTES = new Uint8Array(0);

/**
 * Where each line feed of the plain run ends, the cursor column after it
 * and the rows gone down by then (reused from call to call).
 */
let lfEnds = new Int32Array(4096);
let lfColumns = new Int32Array(4096);
let lfDown = new Int32Array(4096);

function growLineFeeds(): void {
  const ends = new Int32Array(lfEnds.length * 2);
  ends.set(lfEnds);
  lfEnds = ends;
  const columns = new Int32Array(lfColumns.length * 2);
  columns.set(lfColumns);
  lfColumns = columns;
  const rows = new Int32Array(lfDown.length * 2);
  rows.set(lfDown);
  lfDown = rows;
}

/** The end of the run of printable ASCII in `data` from `i`, at most `end`. */
function printableEnd(data: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const b = data[i];
    if (b < 0x20 || b > 0x7e) break;
    i++;
  }
  return i;
}

/** The end of the SGR sequence (`ESC [ [0-9;:]* m`) at `i`, or -1 if there is none there. */
function sgrEnd(data: Uint8Array, i: number): number {
  const n = data.length;
  if (i + 1 >= n || data[i + 1] !== LBRACKET) return -1;
  let j = i + 2;
  while (j < n && isSgrParam(data[j])) j++;
  return j < n && data[j] === SGR_FINAL ? j + 1 : -1;
}
