/**
 * Cursor motion and cursor save/restore: CUU/CUD/CUF/CUB, CNL/CPL,
 * CHA/HPA/HPR, VPA/VPR, CUP/HVP, IND/RI/NEL, CR/LF/BS, DECSC/DECRC,
 * SCOSC/SCORC, DECBI/DECFI.
 *
 * The primitives (index, carriageReturn...) take the state; the handlers
 * take the {@link Emulator} and the sequence's parameters.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Line } from "../model/line.ts";
import { LINE_SINGLE } from "../model/line.ts";
import type { CursorStyle } from "../terminal_view.ts";
import type { Emulator } from "./context.ts";
import { count } from "./params.ts";
import { scrollDown, scrollUp, shiftColumns } from "./scroll_region.ts";
import { defaultPen } from "./sgr.ts";
import { updateAttr } from "./pen.ts";
import type { TerminalState } from "./state.ts";

/** The line the cursor is on. */
export function cursorLine(s: TerminalState): Line {
  return s.buf.screenLine(s.y);
}

/** The column where CR goes: the left margin, or 0 when left of it. */
export function lineStart(s: TerminalState): number {
  return s.x >= s.left ? s.left : 0;
}

/** True when the cursor column is inside the left/right margins. */
export function inHorizontalMargins(s: TerminalState): boolean {
  return s.x >= s.left && s.x <= s.right;
}

/** The last column the cursor may reach on the cursor line (`right` normally; half on double-size lines). */
export function lastColumn(s: TerminalState, right: number): number {
  return cursorLine(s).size === LINE_SINGLE
    ? right
    : Math.min(right, Math.max(1, s.cols >> 1) - 1);
}

/** IND / LF: down one line, scrolling the region at its bottom margin. */
export function index(s: TerminalState): void {
  s.wrapPending = false;
  if (s.y === s.bottom) {
    if (inHorizontalMargins(s)) scrollUp(s, 1);
  } else if (s.y < s.rows - 1) {
    s.y++;
  }
}

/** RI: up one line, scrolling the region down at its top margin. */
export function reverseIndex(s: TerminalState): void {
  s.wrapPending = false;
  if (s.y === s.top) {
    if (inHorizontalMargins(s)) scrollDown(s, 1);
  } else if (s.y > 0) {
    s.y--;
  }
}

/** CR: to the start of the line (the left margin when inside it). */
export function carriageReturn(s: TerminalState): void {
  s.x = lineStart(s);
  s.wrapPending = false;
}

/** CR then IND. */
export function newline(s: TerminalState): void {
  carriageReturn(s);
  index(s);
}

/** LF, VT, FF: IND, with CR first in newline mode (LNM). */
export function lineFeed(s: TerminalState): void {
  if (s.modes.newlineMode) carriageReturn(s);
  index(s);
}

/**
 * Left `n` columns, as xterm's BS and CUB: at the line start they stop,
 * unless reverse wraparound is on with autowrap: then they go on at the
 * end of the previous line (within the left/right margins when the cursor
 * is inside them), and a pending wrap counts as one step. Plain ?45 (as
 * xterm since patch 383) goes back only over soft-wrapped lines, so it
 * edits one long wrapped line; extended ?1045 goes to any previous line,
 * and from the top row (or the top margin) to the bottom one (the bottom
 * margin).
 */
export function cursorBack(s: TerminalState, n: number): void {
  const modes = s.modes;
  const ext = modes.reverseWrapExtended;
  const rev = (modes.reverseWrap || ext) && modes.autowrap;
  if (rev && s.wrapPending) n--;
  s.wrapPending = false;
  const left = lineStart(s);
  const x = s.x - n;
  if (x >= left) {
    s.x = x;
    return;
  }
  if (!rev) {
    s.x = left;
    return;
  }
  const right = s.x <= s.right ? s.right : s.cols - 1;
  const inRow = right - left + 1;
  // Within the top/bottom margins the cursor stays within them.
  const inRegion = s.y >= s.top && s.y <= s.bottom;
  const top = inRegion ? s.top : 0;
  const height = (inRegion ? s.bottom + 1 : s.rows) - top;
  let offset = inRow * (s.y - top) + x - left;
  if (!ext) {
    offset = Math.max(offset, inRow * (Math.max(top, wrappedFrom(s)) - top));
  } else if (offset < 0) { // from the top to the bottom
    const length = inRow * height;
    offset += (Math.floor(-offset / length) + 1) * length;
  }
  s.y = top + Math.floor(offset / inRow);
  s.x = (offset % inRow) + left;
}

/** The first screen row of the soft-wrapped line the cursor is on. */
function wrappedFrom(s: TerminalState): number {
  let y = s.y;
  while (y > 0 && s.buf.screenLine(y - 1).wrapped) y--;
  return y;
}

/** BS, with reverse wraparound (?45) when autowrap is on. */
export function backspace(s: TerminalState): void {
  cursorBack(s, 1);
}

/** Up `n` rows, stopping at the top margin (when below it). */
export function cursorUp(s: TerminalState, n: number): void {
  const top = s.y >= s.top ? s.top : 0;
  s.y = Math.max(top, s.y - n);
  s.wrapPending = false;
}
/** Down `n` rows, stopping at the bottom margin (when above it). */
export function cursorDown(s: TerminalState, n: number): void {
  const bottom = s.y <= s.bottom ? s.bottom : s.rows - 1;
  s.y = Math.min(bottom, s.y + n);
  s.wrapPending = false;
}
/** Right `n` columns, stopping at the right margin (when left of it). */
export function cursorForward(s: TerminalState, n: number): void {
  const right = lastColumn(s, s.x <= s.right ? s.right : s.cols - 1);
  s.x = Math.max(0, Math.min(right, s.x + n));
  s.wrapPending = false;
}
/** Left `n` columns, stopping at the left margin (when right of it). */
export function cursorBackward(s: TerminalState, n: number): void {
  s.x = Math.max(lineStart(s), s.x - n);
  s.wrapPending = false;
}

/** Absolute column (1-based `col`), relative to the left margin in origin mode. */
export function setColumn(s: TerminalState, col: number): void {
  if (s.modes.origin) {
    s.x = Math.min(s.right, s.left + Math.max(0, col - 1));
  } else {
    s.x = Math.min(s.cols - 1, Math.max(0, col - 1));
  }
  s.x = Math.min(s.x, lastColumn(s, s.cols - 1));
  s.wrapPending = false;
}
/** Absolute row (1-based `row`), relative to the top margin in origin mode. */
export function setRow(s: TerminalState, row: number): void {
  if (s.modes.origin) {
    s.y = Math.min(s.bottom, s.top + Math.max(0, row - 1));
  } else {
    s.y = Math.min(s.rows - 1, Math.max(0, row - 1));
  }
  s.wrapPending = false;
}
/** Absolute position, 1-based. */
export function setPosition(s: TerminalState, row: number, col: number): void {
  setRow(s, row);
  setColumn(s, col);
}

/** DECSC: save position, rendition, link, origin mode and charsets for this screen. */
export function saveCursor(s: TerminalState): void {
  s.screen.saved = {
    x: s.x,
    y: s.y,
    wrapPending: s.wrapPending,
    pen: { ...s.pen },
    link: s.link,
    linkId: s.linkId,
    origin: s.modes.origin,
    charsets: s.charsets.clone(),
  };
}

/** DECRC (home and default rendition when nothing was saved, as xterm). */
export function restoreCursor(s: TerminalState): void {
  const saved = s.screen.saved;
  if (saved === null) {
    s.pen = { ...defaultPen(), flags: 0 };
    s.link = null;
    s.linkId = "";
    s.modes.origin = false;
    s.charsets.reset();
    s.x = 0;
    s.y = 0;
    s.wrapPending = false;
  } else {
    s.pen = { ...saved.pen };
    s.link = saved.link;
    s.linkId = saved.linkId;
    s.modes.origin = saved.origin;
    s.charsets = saved.charsets.clone();
    s.x = Math.min(saved.x, s.cols - 1);
    s.y = Math.min(saved.y, s.rows - 1);
    s.wrapPending = saved.wrapPending && s.modes.autowrap;
  }
  updateAttr(s);
}

// ------------------------------------------------------------ handlers

/** `CSI Ps A` CUU: cursor up Ps rows. */
export function cuu(t: Emulator, p: Params): void {
  cursorUp(t.s, count(p, 0));
}
/** `CSI Ps B` CUD / `CSI Ps e` VPR: cursor down Ps rows. */
export function cud(t: Emulator, p: Params): void {
  cursorDown(t.s, count(p, 0));
}
/** `CSI Ps C` CUF / `CSI Ps a` HPR: cursor right Ps columns. */
export function cuf(t: Emulator, p: Params): void {
  cursorForward(t.s, count(p, 0));
}
/** `CSI Ps D` CUB: cursor left Ps columns (reverse wraparound as BS). */
export function cub(t: Emulator, p: Params): void {
  cursorBack(t.s, Math.min(count(p, 0), t.s.cols * t.s.rows));
}
/** `CSI Ps E` CNL: down Ps rows, to the line start. */
export function cnl(t: Emulator, p: Params): void {
  cursorDown(t.s, count(p, 0));
  carriageReturn(t.s);
}
/** `CSI Ps F` CPL: up Ps rows, to the line start. */
export function cpl(t: Emulator, p: Params): void {
  cursorUp(t.s, count(p, 0));
  carriageReturn(t.s);
}
/** `CSI Ps G` CHA / `` CSI Ps ` `` HPA: to column Ps. */
export function cha(t: Emulator, p: Params): void {
  setColumn(t.s, count(p, 0));
}
/** `CSI Ps ; Ps H` CUP / `CSI Ps ; Ps f` HVP: to row, column. */
export function cup(t: Emulator, p: Params): void {
  setPosition(t.s, count(p, 0), count(p, 1));
}
/** `CSI Ps d` VPA: to row Ps. */
export function vpa(t: Emulator, p: Params): void {
  setRow(t.s, count(p, 0));
}

/** `CSI s` SCOSC (without ?69), `CSI Pl ; Pr s` DECSLRM (with ?69). */
export function scoscOrDecslrm(t: Emulator, p: Params): void {
  const s = t.s;
  if (s.modes.leftRightMargins) {
    const cols = s.cols;
    const left = p.get(0, 1) || 1;
    const right = Math.min(p.get(1, cols) || cols, cols);
    if (left < right) {
      s.left = left - 1;
      s.right = right - 1;
      setPosition(s, 1, 1);
    }
  } else if (p.length === 0) {
    saveCursor(s);
  }
}

/** `ESC 7` DECSC. */
export function decsc(t: Emulator): void {
  saveCursor(t.s);
}
/** `ESC 8` DECRC. */
export function decrc(t: Emulator): void {
  restoreCursor(t.s);
}
/** `ESC D` IND / C1 0x84. */
export function ind(t: Emulator): void {
  index(t.s);
}
/**
 * `ESC E` NEL / C1 0x85: IND then CR, as xterm: whether the region scrolls
 * is decided where the cursor was, so NEL right of the right margin on the
 * bottom margin does not scroll (it only goes to the left margin).
 */
export function nel(t: Emulator): void {
  index(t.s);
  carriageReturn(t.s);
}
/** `ESC M` RI / C1 0x8d. */
export function ri(t: Emulator): void {
  reverseIndex(t.s);
}
/** BS. */
export function bs(t: Emulator): void {
  backspace(t.s);
}
/** LF, VT, FF. */
export function lf(t: Emulator): void {
  lineFeed(t.s);
}
/** CR. */
export function cr(t: Emulator): void {
  carriageReturn(t.s);
}

/** `ESC 6` DECBI: back index (left, or shift the region right at the left margin). */
export function decbi(t: Emulator): void {
  const s = t.s;
  if (s.x > s.left || !inHorizontalMargins(s)) {
    if (s.x > 0) s.x--;
  } else if (s.y >= s.top && s.y <= s.bottom) {
    shiftColumns(s, s.left, 1);
  }
  s.wrapPending = false;
}
/** `ESC 9` DECFI: forward index (right, or shift the region left at the right margin). */
export function decfi(t: Emulator): void {
  const s = t.s;
  if (s.x < s.right || !inHorizontalMargins(s)) {
    if (s.x < s.cols - 1) s.x++;
  } else if (s.y >= s.top && s.y <= s.bottom) {
    shiftColumns(s, s.left, -1);
  }
  s.wrapPending = false;
}

/** `CSI Ps SP q` DECSCUSR: cursor shape (0-2 block, 3-4 underline, 5-6 bar; odd or 0 blinks). */
export function decscusr(t: Emulator, p: Params): void {
  const v = p.get(0, 0);
  if (v > 6) return;
  const style: CursorStyle = v <= 2 ? "block" : v <= 4 ? "underline" : "bar";
  t.s.cursorStyle = style;
  t.s.modes.cursorBlink = v === 0 || v % 2 === 1;
  t.emit({ type: "modes" });
}
