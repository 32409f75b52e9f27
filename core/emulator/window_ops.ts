/**
 * `CSI Ps ; ... t`: xterm's window operations (XTWINOPS) that make sense in
 * a browser window: resize requests, the size reports and the title stack.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { csiReply } from "./replies.ts";

/** Largest accepted number of columns. */
export const MAX_COLS = 4096;
/** Largest accepted number of rows. */
export const MAX_ROWS = 2048;
/** Depth of the title stack (`CSI 22 t`). */
export const TITLE_STACK_DEPTH = 10;

/** Set the icon title and/or window title (null = leave unchanged); a new window title is reported. */
export function setTitles(
  t: Emulator,
  icon: string | null,
  title: string | null,
): void {
  const s = t.s;
  if (icon !== null) s.iconTitle = icon;
  if (title !== null && title !== s.title) {
    s.title = title;
    t.emit({ type: "title", title });
  }
}

/** `CSI Ps ; ... t` XTWINOPS: 8 resize, 11/13/14/15/16/18/19 reports, 22/23 push/pop titles. */
export function xtwinops(t: Emulator, p: Params): void {
  const s = t.s;
  switch (p.get(0, 0)) {
    case 8: { // resize the text area: the client decides what fits
      // Omitted keeps the current size, 0 asks for the whole window (as xterm).
      const rows = p.get(1, s.rows), cols = p.get(2, s.cols);
      t.emit({
        type: "resize-request",
        rows: Math.min(rows, MAX_ROWS),
        cols: Math.min(cols, MAX_COLS),
      });
      break;
    }
    case 11: // iconified? never
      t.send(csiReply("1t"));
      break;
    case 13: // window position
      t.send(csiReply("3;0;0t"));
      break;
    case 14: // text area in pixels
      t.send(csiReply(`4;${pixelHeight(t)};${pixelWidth(t)}t`));
      break;
    case 15: // screen in pixels: the text area is all we know of
      t.send(csiReply(`5;${pixelHeight(t)};${pixelWidth(t)}t`));
      break;
    case 16: // cell size in pixels
      t.send(
        csiReply(`6;${Math.round(s.cellHeight)};${Math.round(s.cellWidth)}t`),
      );
      break;
    case 18: // text area in characters
      t.send(csiReply(`8;${s.rows};${s.cols}t`));
      break;
    case 19: // screen in characters
      t.send(csiReply(`9;${s.rows};${s.cols}t`));
      break;
    case 22: { // push title(s)
      const which = p.get(1, 0);
      if (which > 2) break;
      if (s.titleStack.length >= TITLE_STACK_DEPTH) s.titleStack.shift();
      s.titleStack.push({
        icon: which === 0 || which === 1 ? s.iconTitle : null,
        title: which === 0 || which === 2 ? s.title : null,
      });
      break;
    }
    case 23: { // pop title(s)
      const which = p.get(1, 0);
      if (which > 2) break;
      const e = s.titleStack.pop();
      if (e === undefined) break;
      setTitles(
        t,
        which === 0 || which === 1 ? e.icon : null,
        which === 0 || which === 2 ? e.title : null,
      );
      break;
    }
  }
}

function pixelHeight(t: Emulator): number {
  return Math.round(t.s.rows * t.s.cellHeight);
}
function pixelWidth(t: Emulator): number {
  return Math.round(t.s.cols * t.s.cellWidth);
}

/** BEL: the bell (an event; the window decides how to ring it). */
export function bel(t: Emulator): void {
  t.emit({ type: "bell" });
}
