/**
 * The VT420 rectangular area operations: DECFRA, DECERA, DECSERA, DECCARA,
 * DECRARA, DECCRA, DECSACE and the checksum DECRQCRA. The cell work is in
 * `rect_ops.ts`; this module reads the parameters.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Line } from "../model/line.ts";
import type { Emulator } from "./context.ts";
import {
  changeAttributes,
  checksumRect,
  copyRect,
  eraseRect,
  fillRect,
  type Rect,
  reverseAttributes,
  selectiveEraseRect,
} from "./rect_ops.ts";
import { dropIsoProtection } from "./erase.ts";
import { dcsReply } from "./replies.ts";
import type { TerminalState } from "./state.ts";

/**
 * The rectangle in parameters i..i+3 (Pt;Pl;Pb;Pr, 1-based, relative to
 * the margins in origin mode; missing bottom/right = the page's), clamped,
 * or null when empty.
 */
function rectParams(
  s: TerminalState,
  params: Params,
  i: number,
  stream = false,
): Rect | null {
  const origin = s.modes.origin;
  const top0 = origin ? s.top : 0, left0 = origin ? s.left : 0;
  const maxY = origin ? s.bottom : s.rows - 1;
  const maxX = origin ? s.right : s.cols - 1;
  const top = top0 + (params.get(i, 1) || 1) - 1;
  const left = left0 + (params.get(i + 1, 1) || 1) - 1;
  const b = params.get(i + 2, 0), r = params.get(i + 3, 0);
  const bottom = Math.min(maxY, b === 0 ? maxY : top0 + b - 1);
  const right = Math.min(maxX, r === 0 ? maxX : left0 + r - 1);
  if (top > bottom || (left > right && !(stream && top < bottom))) {
    return null;
  }
  return { top, left, bottom, right };
}

function rows(s: TerminalState): (y: number) => Line {
  return (y) => s.buf.screenLine(y);
}

/** `CSI Pch ; Pt ; Pl ; Pb ; Pr $ x` DECFRA: fill a rectangle with a character. */
export function decfra(t: Emulator, p: Params): void {
  const s = t.s;
  const ch = p.get(0, 0);
  if (!((ch >= 0x20 && ch <= 0x7e) || (ch >= 0xa0 && ch <= 0xff))) return;
  const r = rectParams(s, p, 1);
  if (r) fillRect(rows(s), r, ch, s.pen.fg, s.pen.bg, s.attr);
}

/** `CSI Pt ; Pl ; Pb ; Pr $ z` DECERA: erase a rectangle. */
export function decera(t: Emulator, p: Params): void {
  const r = rectParams(t.s, p, 0);
  if (r) eraseRect(rows(t.s), r, t.s.pen.bg);
}

/**
 * `CSI Pt ; Pl ; Pb ; Pr $ {` DECSERA: erase the unprotected cells of a
 * rectangle (DECSCA protection only: ISO protection does not hold).
 */
export function decsera(t: Emulator, p: Params): void {
  const s = t.s;
  const r = rectParams(s, p, 0);
  if (r === null) return;
  for (let y = r.top; y <= r.bottom; y++) {
    dropIsoProtection(s, s.buf.screenLine(y), r.left, r.right + 1);
  }
  selectiveEraseRect(rows(s), r);
}

function sgrParams(p: Params): number[] {
  const sgr: number[] = [];
  for (let k = 4; k < p.length; k++) sgr.push(p.get(k, 0));
  return sgr;
}

/** `CSI Pt ; Pl ; Pb ; Pr ; Ps $ r` DECCARA: set attributes in a rectangle (or stream, per DECSACE). */
export function deccara(t: Emulator, p: Params): void {
  const s = t.s;
  const r = rectParams(s, p, 0, !s.rectExtent);
  if (r) changeAttributes(rows(s), r, s.cols, s.rectExtent, sgrParams(p));
}

/** `CSI Pt ; Pl ; Pb ; Pr ; Ps $ t` DECRARA: reverse attributes in a rectangle (or stream). */
export function decrara(t: Emulator, p: Params): void {
  const s = t.s;
  const r = rectParams(s, p, 0, !s.rectExtent);
  if (r) reverseAttributes(rows(s), r, s.cols, s.rectExtent, sgrParams(p));
}

/** `CSI Pts ; Pls ; Pbs ; Prs ; Pps ; Ptd ; Pld ; Ppd $ v` DECCRA: copy a rectangle (pages are ignored: there is one). */
export function deccra(t: Emulator, p: Params): void {
  const s = t.s;
  const src = rectParams(s, p, 0);
  if (!src) return;
  const origin = s.modes.origin;
  const dstTop = (origin ? s.top : 0) + (p.get(5, 1) || 1) - 1;
  const dstLeft = (origin ? s.left : 0) + (p.get(6, 1) || 1) - 1;
  copyRect(rows(s), src, dstTop, dstLeft, s.rows, s.cols);
}

/** `CSI Ps * x` DECSACE: DECCARA / DECRARA act on a stream (0, 1) or a rectangle (2). */
export function decsace(t: Emulator, p: Params): void {
  const v = p.get(0, 0);
  if (v <= 2) {
    t.s.rectExtent = v === 2;
    t.s.modes.saceZero = v === 0;
  }
}

/** `CSI Pid ; Pp ; Pt ; Pl ; Pb ; Pr * y` DECRQCRA: checksum of a rectangle, as `DCS Pid ! ~ xxxx ST`. */
export function decrqcra(t: Emulator, p: Params): void {
  const id = p.get(0, 0);
  const r = rectParams(t.s, p, 2);
  const sum = r === null ? 0 : checksumRect(rows(t.s), r);
  t.send(
    dcsReply(`${id}!~${sum.toString(16).toUpperCase().padStart(4, "0")}`),
  );
}
