/**
 * The scroll primitives that IND, RI, printing and the scrolling sequences
 * (`scroll.ts`) use: scroll the region up or down, shift its columns, reset
 * the margins. A full-width region scrolls whole lines (into history when
 * its top is the screen's top); a region with left/right margins scrolls
 * the rectangle only.
 *
 * @module
 */
import { coverCells } from "../model/line_extras.ts";
import { deleteCells, insertCells } from "../model/line_ops.ts";
import type { TerminalState } from "./state.ts";

/** Scroll the region up `n` lines (full width: to history when the top margin is 0). */
export function scrollUp(s: TerminalState, n: number): void {
  const bg = s.pen.bg;
  if (s.left === 0 && s.right === s.cols - 1) {
    s.buf.scrollUp(s.top, s.bottom, n, bg, s.top === 0);
  } else {
    s.buf.scrollRectUp(s.top, s.bottom, s.left, s.right, n, bg);
    coverRect(s, s.top, s.bottom);
  }
}

/** Scroll the region down `n` lines. */
export function scrollDown(s: TerminalState, n: number): void {
  const bg = s.pen.bg;
  if (s.left === 0 && s.right === s.cols - 1) {
    s.buf.scrollDown(s.top, s.bottom, n, bg);
  } else {
    s.buf.scrollRectDown(s.top, s.bottom, s.left, s.right, n, bg);
    coverRect(s, s.top, s.bottom);
  }
}

/**
 * Rows [top, bottom] had the cells between the margins moved (a rectangle
 * scrolled): embeds drawn over those cells do not move with them, they go
 * (whole lines, with their embeds, move only in full-width scrolls).
 */
export function coverRect(s: TerminalState, top: number, bottom: number): void {
  for (let y = top; y <= bottom; y++) {
    coverCells(s.buf.screenLine(y), s.left, s.right + 1, false);
  }
}

/** Insert (n > 0) or delete (n < 0) columns at `x` in the scroll region (DECIC, DECDC, DECBI, DECFI, SL, SR). */
export function shiftColumns(s: TerminalState, x: number, n: number): void {
  const bg = s.pen.bg;
  for (let y = s.top; y <= s.bottom; y++) {
    const line = s.buf.screenLine(y);
    if (n > 0) insertCells(line, x, n, s.right + 1, bg);
    else deleteCells(line, x, -n, s.right + 1, bg);
    coverCells(line, x, s.right + 1, false);
  }
}

/** Margins back to the whole screen. */
export function resetMargins(s: TerminalState): void {
  s.top = 0;
  s.bottom = s.rows - 1;
  s.left = 0;
  s.right = s.cols - 1;
}
