/**
 * Reports and replies: device attributes (DA1/DA2/DA3, DECID), status
 * reports (DSR, DECDSR: CPR, DECXCPR, printer, UDK, keyboard, locator),
 * XTVERSION and DECRQSS. The reply strings are built in `replies.ts`.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import { A_PROTECTED } from "../model/cell.ts";
import type { Emulator } from "./context.ts";
import {
  csiReply,
  DA1_REPLY,
  DA2_REPLY,
  DA3_REPLY,
  decrqssReply,
  STATUS_OK_REPLY,
  XTVERSION_REPLY,
} from "./replies.ts";
import { penToSgr } from "./sgr.ts";
import type { TerminalState } from "./state.ts";

/** `CSI c` / `CSI 0 c` DA1: primary device attributes. */
export function da1(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0) t.send(DA1_REPLY);
}
/** `ESC Z` DECID: the same answer as DA1. */
export function decid(t: Emulator): void {
  t.send(DA1_REPLY);
}
/** `CSI > c` DA2: secondary device attributes. */
export function da2(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0) t.send(DA2_REPLY);
}
/** `CSI = c` DA3: tertiary device attributes (unit id). */
export function da3(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0) t.send(DA3_REPLY);
}
/** `CSI > q` XTVERSION: name and version. */
export function xtversion(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0) t.send(XTVERSION_REPLY);
}

/** 1-based cursor position as CPR reports it (relative to the margins in origin mode). */
function reportedPosition(s: TerminalState): [number, number] {
  if (s.modes.origin) return [s.y - s.top + 1, s.x - s.left + 1];
  return [s.y + 1, s.x + 1];
}

/** `CSI 5 n` status (OK), `CSI 6 n` CPR. */
export function dsr(t: Emulator, p: Params): void {
  const v = p.get(0, 0);
  if (v === 5) t.send(STATUS_OK_REPLY);
  else if (v === 6) {
    const [r, c] = reportedPosition(t.s);
    t.send(csiReply(`${r};${c}R`));
  }
}

/** `CSI ? Ps n` DECDSR: 6 DECXCPR, 15 printer, 25 UDK, 26 keyboard, 53/55 locator. */
export function decdsr(t: Emulator, p: Params): void {
  switch (p.get(0, 0)) {
    case 6: { // DECXCPR
      const [r, c] = reportedPosition(t.s);
      t.send(csiReply(`?${r};${c};1R`));
      break;
    }
    case 15: // printer: none
      t.send(csiReply("?13n"));
      break;
    case 25: // user-defined keys: locked
      t.send(csiReply("?21n"));
      break;
    case 26: // keyboard: North American
      t.send(csiReply("?27;1;0;0n"));
      break;
    case 53:
    case 55: // locator: none
      t.send(csiReply("?50n"));
      break;
  }
}

/** The DECSCUSR parameter that gives the current cursor shape and blink. */
export function cursorStyleParam(s: TerminalState): number {
  const base = s.cursorStyle === "block"
    ? 1
    : s.cursorStyle === "underline"
    ? 3
    : 5;
  return s.modes.cursorBlink ? base : base + 1;
}

/** DECRQSS: the setting named by `request`, or null when unknown. */
export function statusString(s: TerminalState, request: string): string | null {
  switch (request) {
    case "m":
      return penToSgr(s.pen) + "m";
    case "r":
      return `${s.top + 1};${s.bottom + 1}r`;
    case "s":
      return `${s.left + 1};${s.right + 1}s`;
    case " q":
      return `${cursorStyleParam(s)} q`;
    case '"q':
      return `${(s.pen.flags & A_PROTECTED) !== 0 ? 1 : 0}"q`;
    case '"p':
      return '65;1"p';
    case "t": // DECSLPP
      return `${s.rows}t`;
    case "$|": // DECSCPP
      return `${s.cols}$|`;
    case "*|": // DECSNLS
      return `${s.rows}*|`;
    default:
      return null;
  }
}

/** `DCS $ q Pt ST` DECRQSS: request a setting (SGR, DECSTBM, DECSLRM, DECSCUSR, DECSCA, DECSCL, DECSLPP, DECSCPP, DECSNLS). */
export function decrqss(
  t: Emulator,
  _p: Params,
  payload: Uint8Array,
): void {
  let s = "";
  for (let i = 0; i < payload.length && i < 16; i++) {
    s += String.fromCharCode(payload[i]);
  }
  t.send(decrqssReply(statusString(t.s, s)));
}
