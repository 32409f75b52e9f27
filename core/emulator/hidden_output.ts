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
 * scrollback, plus one). The caller checks those conditions, and says
 * whether the pen has an underline colour.
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
  underlineColoured = false,
): HiddenOutputPlan | null {
  const n = data.length;
  if (n <= keep) return null; // each of the keep + 1 lines is at least its LF
  // Pass 1: the line feeds of the plain run, with the column after each and
  // the rows the cursor went down by then (line feeds and wraps). Runs of
  // printable characters are taken whole: this pass must cost far less
  // than printing them would. Only the last `keep + 1` line feeds can be
  // the one looked for below (each goes down a row at least), so they are
  // kept in a ring.
  const mask = ringMask(keep + 1);
  const ends = lfEnds, columns = lfColumns, downs = lfDown, lasts = lfLast;
  let lfs = 0;
  let last = -1;
  let down = 0;
  let cx = x, w = wrapPending;
  let firstEsc = -1;
  let lastUnderlineColour = -1;
  let i = 0;
  while (i < n) {
    let b = data[i];
    if (b >= 0x20 && b <= 0x7e) {
      let k = i + 1;
      while (k < n) {
        const c = data[k];
        if (c < 0x20 || c > 0x7e) break;
        k++;
      }
      const len = k - i;
      i = k;
      last = data[k - 1];
      if (!w && len < cols - cx) cx += len;
      else {
        [cx, w, down] = printWrapping(len, cx, w, down, cols, autowrap);
      }
      if (i >= n) break;
      b = data[i];
    }
    if (b === LF) {
      w = false;
      if (newlineMode) cx = 0;
      down++;
      const at = lfs++ & mask;
      ends[at] = i + 1;
      columns[at] = cx;
      downs[at] = down;
      lasts[at] = last;
      i++;
    } else if (b === CR) {
      cx = 0;
      w = false;
      i++;
    } else if (b === ESC) {
      const end = sgrEnd(data, i);
      if (end < 0) break;
      if (firstEsc < 0) firstEsc = i;
      if (mayColourUnderline(data, i, end)) lastUnderlineColour = i;
      i = end;
    } else break;
  }
  // The last line feed with `keep` rows or more after it in the run.
  const oldest = Math.max(0, lfs - mask - 1);
  let j = lfs - 1;
  while (j >= oldest && down - downs[j & mask] < keep) j--;
  if (j < oldest) return null;
  const end = ends[j & mask];
  const endX = columns[j & mask];
  const rowsDown = downs[j & mask];
  const lastChar = lasts[j & mask];
  if (firstEsc < 0 || firstEsc >= end) {
    return { end, replay: NO_BYTES, rowsDown, x: endX, lastChar };
  }
  // Pass 2: the SGR sequences of bytes [0, end). SGR 0 sets the whole pen,
  // so the sequences before the last one that starts with it do not matter,
  // unless one of them set an underline colour: that adds an entry to the
  // terminal's table of extended styles (ext_table.ts), which stays.
  // Pass 1 found only SGR sequences there, so every ESC starts one.
  let from = firstEsc;
  if (!underlineColoured) {
    for (let e = data.lastIndexOf(ESC, end - 1); e >= firstEsc;) {
      if (resetsPen(data, e)) {
        from = e;
        break;
      }
      e = e > firstEsc ? data.lastIndexOf(ESC, e - 1) : -1;
    }
    if (lastUnderlineColour >= 0 && lastUnderlineColour < from) {
      from = firstEsc;
    }
  }
  const replay = new Uint8Array(end - from);
  let r = 0;
  for (let e = from; e >= 0 && e < end; e = data.indexOf(ESC, e)) {
    const stop = sgrEnd(data, e);
    replay.set(data.subarray(e, stop), r);
    r += stop - e;
    e = stop;
  }
  return {
    end,
    replay: replay.subarray(0, r),
    rowsDown,
    x: endX,
    lastChar,
  };
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

/**
 * Where each of the last line feeds of the plain run ends, the cursor
 * column after it, the rows gone down by then and the last character
 * printed before it (-1: none): a ring, reused from call to call.
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
