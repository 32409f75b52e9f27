/**
 * Scrolling and margins: SU/SD, SL/SR, IL/DL, DECIC/DECDC, DECSTBM, and the
 * cursor's side of them (the primitives are `scroll_region.ts`). A full-width region
 * scrolls whole lines (into history when its top is the screen's top); a
 * region with left/right margins scrolls the rectangle only.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { setPosition } from "./cursor.ts";
import { count } from "./params.ts";
import {
  coverRect,
  scrollDown,
  scrollUp,
  shiftColumns,
} from "./scroll_region.ts";
import type { TerminalState } from "./state.ts";

/** True when the cursor is inside the scroll region, margins included. */
function inRegion(s: TerminalState): boolean {
  return s.y >= s.top && s.y <= s.bottom && s.x >= s.left && s.x <= s.right;
}

// ------------------------------------------------------------ handlers

/** `CSI Ps S` SU: scroll the region up Ps lines. */
export function su(t: Emulator, p: Params): void {
  scrollUp(t.s, Math.min(count(p, 0), t.s.rows));
}

/** `CSI Ps T` SD: scroll the region down Ps lines (with more parameters it is mouse highlight tracking, ignored). */
export function sd(t: Emulator, p: Params): void {
  if (p.length <= 1) scrollDown(t.s, Math.min(count(p, 0), t.s.rows));
}

/** `CSI Ps SP @` SL: shift the region left Ps columns. */
export function sl(t: Emulator, p: Params): void {
  const s = t.s;
  shiftColumns(s, s.left, -Math.min(count(p, 0), s.cols));
}

/** `CSI Ps SP A` SR: shift the region right Ps columns. */
export function sr(t: Emulator, p: Params): void {
  const s = t.s;
  shiftColumns(s, s.left, Math.min(count(p, 0), s.cols));
}

/** IL (`down`) or DL: scroll the region from the cursor row down or up Ps lines; the cursor goes to the left margin. */
function shiftLines(t: Emulator, p: Params, down: boolean): void {
  const s = t.s;
  if (!inRegion(s)) return;
  const n = Math.min(count(p, 0), s.rows);
  const bg = s.pen.bg;
  if (s.left === 0 && s.right === s.cols - 1) {
    if (down) s.buf.scrollDown(s.y, s.bottom, n, bg);
    else s.buf.scrollUp(s.y, s.bottom, n, bg, false);
  } else {
    if (down) s.buf.scrollRectDown(s.y, s.bottom, s.left, s.right, n, bg);
    else s.buf.scrollRectUp(s.y, s.bottom, s.left, s.right, n, bg);
    coverRect(s, s.y, s.bottom);
  }
  s.x = s.left;
  s.wrapPending = false;
}

/** `CSI Ps L` IL: insert Ps lines at the cursor row, inside the region. */
export function il(t: Emulator, p: Params): void {
  shiftLines(t, p, true);
}

/** `CSI Ps M` DL: delete Ps lines at the cursor row, inside the region. */
export function dl(t: Emulator, p: Params): void {
  shiftLines(t, p, false);
}

/** `CSI Ps ' }` DECIC: insert Ps columns at the cursor, inside the region. */
export function decic(t: Emulator, p: Params): void {
  const s = t.s;
  if (inRegion(s)) shiftColumns(s, s.x, Math.min(count(p, 0), s.cols));
}

/** `CSI Ps ' ~` DECDC: delete Ps columns at the cursor, inside the region. */
export function decdc(t: Emulator, p: Params): void {
  const s = t.s;
  if (inRegion(s)) shiftColumns(s, s.x, -Math.min(count(p, 0), s.cols));
}

/** `CSI Pt ; Pb r` DECSTBM: set the scroll region; the cursor goes home. */
export function decstbm(t: Emulator, p: Params): void {
  const s = t.s;
  const rows = s.rows;
  const top = p.get(0, 1) || 1;
  const bottom = Math.min(p.get(1, rows) || rows, rows);
  if (top < bottom) {
    s.top = top - 1;
    s.bottom = bottom - 1;
    setPosition(s, 1, 1);
  }
}
