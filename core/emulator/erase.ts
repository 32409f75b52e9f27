/**
 * Erasing and editing within lines: ED/DECSED, EL/DECSEL, ECH, ICH, DCH,
 * and DECALN (which fills the screen with E).
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import { A_PROTECTED, ATTR, CELL_STRIDE } from "../model/cell.ts";
import type { Line } from "../model/line.ts";
import { LINE_SINGLE } from "../model/line.ts";
import { coverCells } from "../model/line_extras.ts";
import {
  deleteCells,
  eraseCells,
  insertCells,
  selectiveEraseCells,
} from "../model/line_ops.ts";
import type { Emulator } from "./context.ts";
import { cursorLine } from "./cursor.ts";
import { count } from "./params.ts";
import { resetMargins } from "./scroll_region.ts";
import type { TerminalState } from "./state.ts";

/**
 * Erase cells [from, to) of `line` (selective: only unprotected ones). A
 * line erased to its end loses its soft wrap; ED (`wholeLine`) also makes
 * it single size (VT100).
 */
export function eraseRow(
  s: TerminalState,
  line: Line,
  from: number,
  to: number,
  selective: boolean,
  wholeLine = false,
): void {
  if (selective) {
    dropIsoProtection(s, line, from, to);
    selectiveEraseCells(line, from, to);
  } else if (s.modes.protectMode === 2) eraseUnguarded(s, line, from, to);
  else eraseCells(line, from, to, s.pen.bg);
  coverCells(line, from, to, true);
  if (wholeLine && line.size !== LINE_SINGLE && !selective) {
    line.size = LINE_SINGLE;
  }
  if (to >= s.cols) {
    line.wrapped = false;
    line.dirty = true;
  }
}

/**
 * The selective erases (DECSED, DECSEL, DECSERA) honour DEC protection
 * (DECSCA) only, as DEC documents them and esctest2 checks: when the
 * protection in use is ISO's (SPA/EPA), they erase the protected cells of
 * [from, to) too (xterm keeps ISO protection for DECSED and DECSEL).
 */
export function dropIsoProtection(
  s: TerminalState,
  line: Line,
  from: number,
  to: number,
): void {
  if (s.modes.protectMode !== 2) return;
  const d = line.data;
  const end = Math.min(to, line.cols);
  for (let x = Math.max(0, from); x < end; x++) {
    d[x * CELL_STRIDE + ATTR] &= ~A_PROTECTED;
  }
}

/**
 * ED, EL and ECH after SPA (ISO protection): erase the runs of cells in
 * [from, to) that are not protected, with the current background.
 */
function eraseUnguarded(
  s: TerminalState,
  line: Line,
  from: number,
  to: number,
): void {
  const d = line.data;
  const end = Math.min(to, line.cols);
  let x = Math.max(0, from);
  while (x < end) {
    if ((d[x * CELL_STRIDE + ATTR] & A_PROTECTED) !== 0) {
      x++;
      continue;
    }
    let y = x;
    while (y < end && (d[y * CELL_STRIDE + ATTR] & A_PROTECTED) === 0) y++;
    eraseCells(line, x, y, s.pen.bg);
    x = y;
  }
}

/** ED / DECSED `mode`: 0 below, 1 above, 2 all, 3 the history. */
export function eraseInDisplay(
  s: TerminalState,
  mode: number,
  selective: boolean,
): void {
  const buf = s.buf;
  const rows = s.rows, cols = s.cols;
  switch (mode) {
    case 0:
      eraseInLine(s, 0, selective);
      for (let y = s.y + 1; y < rows; y++) {
        eraseRow(s, buf.screenLine(y), 0, cols, selective, true);
      }
      break;
    case 1:
      for (let y = 0; y < s.y; y++) {
        eraseRow(s, buf.screenLine(y), 0, cols, selective, true);
      }
      eraseInLine(s, 1, selective);
      break;
    case 2:
      for (let y = 0; y < rows; y++) {
        eraseRow(s, buf.screenLine(y), 0, cols, selective, true);
      }
      break;
    case 3:
      if (!selective) buf.clearHistory();
      break;
  }
  s.wrapPending = false;
}

/** EL / DECSEL `mode`: 0 right of the cursor, 1 left of it, 2 the whole line. */
export function eraseInLine(
  s: TerminalState,
  mode: number,
  selective: boolean,
): void {
  const line = cursorLine(s);
  const x = s.x;
  switch (mode) {
    case 0:
      eraseRow(s, line, x, s.cols, selective);
      break;
    case 1:
      eraseRow(s, line, 0, x + 1, selective);
      break;
    case 2:
      eraseRow(s, line, 0, s.cols, selective);
      break;
  }
  s.wrapPending = false;
}

// ------------------------------------------------------------ handlers

/** `CSI Ps J` ED: erase in display. */
export function ed(t: Emulator, p: Params): void {
  eraseInDisplay(t.s, p.get(0, 0), false);
}
/** `CSI ? Ps J` DECSED: selective erase in display (protected cells stay). */
export function decsed(t: Emulator, p: Params): void {
  eraseInDisplay(t.s, p.get(0, 0), true);
}
/** `CSI Ps K` EL: erase in line. */
export function el(t: Emulator, p: Params): void {
  eraseInLine(t.s, p.get(0, 0), false);
}
/** `CSI ? Ps K` DECSEL: selective erase in line. */
export function decsel(t: Emulator, p: Params): void {
  eraseInLine(t.s, p.get(0, 0), true);
}

/** `CSI Ps X` ECH: erase Ps characters from the cursor. */
export function ech(t: Emulator, p: Params): void {
  const s = t.s;
  const n = Math.min(count(p, 0), s.cols);
  const line = cursorLine(s);
  if (s.modes.protectMode === 2) eraseUnguarded(s, line, s.x, s.x + n);
  else eraseCells(line, s.x, s.x + n, s.pen.bg);
  coverCells(line, s.x, s.x + n, true);
  s.wrapPending = false;
}

/** Insert or delete Ps cells at the cursor, up to the right margin (or the edge when right of it). */
function editCells(
  t: Emulator,
  p: Params,
  op: typeof insertCells | typeof deleteCells,
): void {
  const s = t.s;
  if (s.x < s.left) return;
  const limit = s.x <= s.right ? s.right + 1 : s.cols;
  const line = cursorLine(s);
  op(line, s.x, Math.min(count(p, 0), s.cols), limit, s.pen.bg);
  coverCells(line, s.x, limit, false);
  s.wrapPending = false;
}

/** `CSI Ps @` ICH: insert Ps blank characters at the cursor (up to the right margin). */
export function ich(t: Emulator, p: Params): void {
  editCells(t, p, insertCells);
}

/** `CSI Ps P` DCH: delete Ps characters at the cursor (up to the right margin). */
export function dch(t: Emulator, p: Params): void {
  editCells(t, p, deleteCells);
}

/** `ESC # 8` DECALN: fill the screen with E, reset the margins, home. */
export function decaln(t: Emulator): void {
  const s = t.s;
  resetMargins(s);
  for (let y = 0; y < s.rows; y++) {
    const line = s.buf.screenLine(y);
    line.fill(0, s.cols, 0x45, 0, 0, 0);
    coverCells(line, 0, s.cols, false);
    line.wrapped = false;
    line.size = LINE_SINGLE;
  }
  s.x = 0;
  s.y = 0;
  s.wrapPending = false;
}
