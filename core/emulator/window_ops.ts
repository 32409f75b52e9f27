/**
 * `CSI Ps ; ... t`: xterm's window operations (XTWINOPS) as a browser
 * window can honour them: iconify state, position, resize requests, the
 * size reports, title reports and the title stacks; XTSMTITLE/XTRMTITLE
 * (`CSI > Pm t` / `CSI > Pm T`); BEL.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { csiReply } from "./replies.ts";
import type { TerminalState, TitleEntry } from "./state.ts";

/** Largest accepted number of columns. */
export const MAX_COLS = 4096;
/** Largest accepted number of rows. */
export const MAX_ROWS = 2048;
/** Depth of each title stack (icon and window, `CSI 22 t`). */
export const TITLE_STACK_DEPTH = 10;

/** XTSMTITLE bits. */
export const TITLE_SET_HEX = 1, TITLE_QUERY_HEX = 2;

const utf8 = new TextDecoder();
const utf8Encode = new TextEncoder();

/**
 * A title as stored: without C0, DEL and C1 controls, so a report of it can
 * never act as a key (an Enter in a shell).
 */
export function cleanTitle(title: string): string {
  // deno-lint-ignore no-control-regex
  return title.replace(/[\x00-\x1f\x7f-\x9f]/g, "");
}

/** A title sent in hex (XTSMTITLE 0), decoded as UTF-8; null when not hex. */
function fromHex(s: string): string | null {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return null;
  const bytes = new Uint8Array(s.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  }
  return utf8.decode(bytes);
}

function toHex(s: string): string {
  let out = "";
  for (const b of utf8Encode.encode(s)) out += b.toString(16).padStart(2, "0");
  return out;
}

/** Set the icon title and/or window title (null = leave unchanged); a new window title is reported. */
export function setTitles(
  t: Emulator,
  icon: string | null,
  title: string | null,
): void {
  const s = t.s;
  if ((s.modes.titleModes & TITLE_SET_HEX) !== 0) {
    if (icon !== null) icon = fromHex(icon);
    if (title !== null) title = fromHex(title);
  }
  if (icon !== null) s.iconTitle = cleanTitle(icon);
  if (title !== null) {
    title = cleanTitle(title);
    if (title !== s.title) {
      s.title = title;
      t.emit({ type: "title", title });
    }
  }
}

/** Entries of the title stack holding an icon (`icon`) or a window title. */
function depth(s: TerminalState, icon: boolean): number {
  let n = 0;
  for (const e of s.titleStack) if ((icon ? e.icon : e.title) !== null) n++;
  return n;
}

/** Drop the oldest icon (or window) entry, and entries left empty. */
function dropOldest(s: TerminalState, icon: boolean): void {
  const e = s.titleStack.find((e) => (icon ? e.icon : e.title) !== null);
  if (e === undefined) return;
  if (icon) e.icon = null;
  else e.title = null;
  s.titleStack = s.titleStack.filter((e) =>
    e.icon !== null || e.title !== null
  );
}

/**
 * Take off the stack the newest entry holding an icon (or window) title,
 * or null when there is none. The whole entry goes: as in xterm, one push
 * of both titles is one entry, and popping either title uses it up.
 */
function popEntry(s: TerminalState, icon: boolean): TitleEntry | null {
  for (let i = s.titleStack.length - 1; i >= 0; i--) {
    const e = s.titleStack[i];
    if ((icon ? e.icon : e.title) === null) continue;
    s.titleStack.splice(i, 1);
    return e;
  }
  return null;
}

/**
 * `CSI 22 ; Ps t` (push) and `CSI 23 ; Ps t` (pop): Ps 0 both, 1 the icon
 * title, 2 the window title. An entry holds what one push saved; a pop
 * takes the newest entry holding the title it restores (for Ps 0, the
 * newest for each title: pushing 1 then 2 and popping 0 restores both),
 * as xterm and esctest2's XtermWinops tests. At most
 * {@link TITLE_STACK_DEPTH} entries hold each title.
 */
function titleStackOp(t: Emulator, push: boolean, which: number): void {
  const s = t.s;
  if (which > 2) return;
  const icon = which !== 2, title = which !== 1;
  if (push) {
    if (icon && depth(s, true) >= TITLE_STACK_DEPTH) dropOldest(s, true);
    if (title && depth(s, false) >= TITLE_STACK_DEPTH) dropOldest(s, false);
    s.titleStack.push({
      icon: icon ? s.iconTitle : null,
      title: title ? s.title : null,
    });
    return;
  }
  const ie = icon ? popEntry(s, true) : null;
  const i = ie?.icon ?? null;
  let w: string | null = null;
  if (title) w = ie?.title ?? popEntry(s, false)?.title ?? null;
  // The stack holds stored (clean, decoded) titles: bypass hex decoding.
  if (i !== null) s.iconTitle = i;
  if (w !== null && w !== s.title) {
    s.title = w;
    t.emit({ type: "title", title: w });
  }
}

/** `OSC L` / `OSC l` report of a title, in hex with XTSMTITLE 1. */
function titleReport(t: Emulator, kind: "L" | "l", title: string): void {
  if (!t.titleReports) return;
  const body = (t.s.modes.titleModes & TITLE_QUERY_HEX) !== 0
    ? toHex(title)
    : title;
  t.send(`\x1b]${kind}${body}\x1b\\`);
}

/**
 * `CSI Ps ; ... t` XTWINOPS: 1/2 de-iconify/iconify (the state is kept and
 * reported by 11; a browser window cannot be minimized from a page), 3
 * move (kept and reported by 13), 8 and 24+ (DECSLPP) resize requests,
 * 11/13/14/15/16/18/19 reports, 20/21 title reports, 22/23 title stacks.
 */
export function xtwinops(t: Emulator, p: Params): void {
  const s = t.s;
  const op = p.get(0, 0);
  switch (op) {
    case 1:
      s.modes.iconified = false;
      break;
    case 2:
      s.modes.iconified = true;
      break;
    case 3:
      s.modes.windowX = Math.min(p.get(1, 0), 0xffff);
      s.modes.windowY = Math.min(p.get(2, 0), 0xffff);
      break;
    case 8: { // resize the text area: the client decides what fits
      // Omitted keeps the current size, 0 asks for the whole window (as xterm).
      const rows = p.get(1, s.rows), cols = p.get(2, s.cols);
      requestSize(t, cols, rows);
      break;
    }
    case 11:
      t.send(csiReply(s.modes.iconified ? "2t" : "1t"));
      break;
    case 13:
      t.send(csiReply(`3;${s.modes.windowX};${s.modes.windowY}t`));
      break;
    case 14: // text area (or with 2 the window) in pixels
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
    case 20:
      titleReport(t, "L", s.iconTitle);
      break;
    case 21:
      titleReport(t, "l", s.title);
      break;
    case 22:
    case 23:
      titleStackOp(t, op === 22, p.get(1, 0));
      break;
    default:
      if (op >= 24) requestSize(t, s.cols, op); // DECSLPP: that many lines
  }
}

/** `CSI Ps * |` DECSNLS: the window is asked for Ps lines. */
export function decsnls(t: Emulator, p: Params): void {
  const rows = p.get(0, 0);
  if (rows < 1) return;
  requestSize(t, t.s.cols, rows);
}
/** `CSI Ps $ |` DECSCPP: the window is asked for 80 (Ps 0 or up to 80) or 132 columns. */
export function decscpp(t: Emulator, p: Params): void {
  requestSize(t, p.get(0, 0) <= 80 ? 80 : 132, t.s.rows);
}

/**
 * The largest size a request changes the model to at once; the window
 * then gives what fits, which may be less (a larger request still goes to
 * the window, clamped to {@link MAX_COLS} x {@link MAX_ROWS}).
 */
export const APPLY_MAX_COLS = 1000, APPLY_MAX_ROWS = 500;

/**
 * A program asks for `cols` x `rows` (0: the whole window, as xterm): the
 * model takes the size at once, so that a size query later in the same
 * write sees it (and the session's and the windows' emulators agree, since
 * they read the same bytes); the `resize-request` event asks the window to
 * follow. What fits in the window comes back later as a grid change.
 */
export function requestSize(t: Emulator, cols: number, rows: number): void {
  const s = t.s;
  t.resize(
    cols > 0 ? Math.min(cols, APPLY_MAX_COLS) : s.cols,
    rows > 0 ? Math.min(rows, APPLY_MAX_ROWS) : s.rows,
  );
  t.emit({
    type: "resize-request",
    rows: Math.min(rows, MAX_ROWS),
    cols: Math.min(cols, MAX_COLS),
  });
}

/** `CSI > Pm t` XTSMTITLE: set title modes (0 set in hex, 1 report in hex, 2 set in UTF-8, 3 report in UTF-8); none given: all. */
export function xtsmtitle(t: Emulator, p: Params): void {
  titleModes(t, p, true);
}
/** `CSI > Pm T` XTRMTITLE: reset title modes; none given: all. */
export function xtrmtitle(t: Emulator, p: Params): void {
  titleModes(t, p, false);
}
function titleModes(t: Emulator, p: Params, on: boolean): void {
  const m = t.s.modes;
  if (p.length === 0 || (p.length === 1 && p.get(0, -1) === -1)) {
    m.titleModes = on ? 15 : 0;
    return;
  }
  for (let i = 0; i < p.length; i++) {
    const v = p.get(i, 0);
    if (v > 3) continue;
    if (on) m.titleModes |= 1 << v;
    else m.titleModes &= ~(1 << v);
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
