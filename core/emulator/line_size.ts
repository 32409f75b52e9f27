/**
 * DEC line sizes: DECSWL, DECDWL and the two halves of DECDHL
 * (`ESC # 5/6/3/4`). A double-size line shows only its first `cols >> 1`
 * cells, so the cursor is moved into that half.
 *
 * @module
 */
import {
  LINE_DOUBLE_BOTTOM,
  LINE_DOUBLE_TOP,
  LINE_DOUBLE_WIDTH,
  LINE_SINGLE,
  type LineSize,
} from "../model/line.ts";
import type { Emulator } from "./context.ts";
import { cursorLine } from "./cursor.ts";

function setLineSize(t: Emulator, size: LineSize): void {
  const s = t.s;
  const line = cursorLine(s);
  if (line.size !== size) {
    line.size = size;
    line.dirty = true;
  }
  if (size !== LINE_SINGLE) {
    const last = Math.max(1, s.cols >> 1) - 1;
    if (s.x > last) {
      s.x = last;
      s.wrapPending = false;
    }
  }
}

/** `ESC # 3` DECDHL: the cursor line is the top half of a double-height line. */
export function decdhlTop(t: Emulator): void {
  setLineSize(t, LINE_DOUBLE_TOP);
}
/** `ESC # 4` DECDHL: the cursor line is the bottom half of a double-height line. */
export function decdhlBottom(t: Emulator): void {
  setLineSize(t, LINE_DOUBLE_BOTTOM);
}
/** `ESC # 5` DECSWL: the cursor line is single width. */
export function decswl(t: Emulator): void {
  setLineSize(t, LINE_SINGLE);
}
/** `ESC # 6` DECDWL: the cursor line is double width. */
export function decdwl(t: Emulator): void {
  setLineSize(t, LINE_DOUBLE_WIDTH);
}
