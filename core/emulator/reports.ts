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
import { decstr } from "./resets.ts";
import {
  csiReply,
  DA1_REPLY,
  DA2_REPLY,
  DA3_REPLY,
  dcsReply,
  decrqssReply,
  STATUS_OK_REPLY,
  XTVERSION_REPLY,
} from "./replies.ts";
import { penToSgr } from "./sgr.ts";
import type { TerminalState } from "./state.ts";

/**
 * DA1's answer: always the VT525 one. xterm derives it from its
 * decTerminalID resource, not from the conformance level ("there's no
 * control sequence that modifies this"); ctlseqs: "The response depends on
 * the decTerminalID resource setting".
 */
export function da1Reply(_s: TerminalState): string {
  return DA1_REPLY;
}
/** `CSI c` / `CSI 0 c` DA1: primary device attributes (the conformance level first). */
export function da1(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0) t.send(da1Reply(t.s));
}
/** `ESC Z` DECID: the same answer as DA1. */
export function decid(t: Emulator): void {
  t.send(da1Reply(t.s));
}

/**
 * `CSI Pl ; Pc " p` DECSCL: conformance level 61-65 (VT100 to VT500) and,
 * from level 2, 8-bit (Pc 0 or 2, and as xterm when Pc is omitted) or
 * 7-bit (Pc 1) controls in replies; another Pc keeps them. Does a soft
 * reset, as xterm and the VT510 do.
 */
export function decscl(t: Emulator, p: Params): void {
  const level = p.get(0, 0) - 60;
  if (level < 1 || level > 5) return;
  decstr(t, p);
  const m = t.s.modes;
  m.vtLevel = level;
  const pc = p.get(1, 0);
  if (level < 2) m.c1Replies = false;
  else if (pc === 0 || pc === 2) m.c1Replies = true;
  else if (pc === 1) m.c1Replies = false;
}
/** `ESC SP G` S8C1T: replies use 8-bit C1 introducers (from level 2). */
export function s8c1t(t: Emulator): void {
  if (t.s.modes.vtLevel >= 2) t.s.modes.c1Replies = true;
}
/** `ESC SP F` S7C1T: replies use 7-bit introducers. */
export function s7c1t(t: Emulator): void {
  t.s.modes.c1Replies = false;
}
/** `CSI > c` DA2: secondary device attributes. */
export function da2(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0) t.send(DA2_REPLY);
}
/** `CSI = c` DA3 (DECRPTUI): tertiary device attributes (unit id), from level 4 as xterm. */
export function da3(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0 && t.s.modes.vtLevel >= 4) t.send(DA3_REPLY);
}
/** `CSI > q` XTVERSION: name and version. */
export function xtversion(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 0) t.send(XTVERSION_REPLY);
}

/**
 * `CSI Ps x` DECREQTPARM: the VT100's terminal parameters, as xterm
 * answers them: Ps 0 gives an unsolicited (2), 1 a solicited (3) report;
 * no parity, 8 bits, 38400 baud both ways, clock multiplier 1, no flags.
 */
export function decreqtparm(t: Emulator, p: Params): void {
  const v = p.get(0, 0);
  if (v === 0 || v === 1) t.send(csiReply(`${v + 2};1;1;128;128;1;0x`));
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

/**
 * `CSI ? Ps n` DECDSR, every form xterm answers, each from the conformance
 * level of the DEC terminal that had it (as xterm's charproc.c gates them):
 * 6 DECXCPR (the page, 1, from level 3, as a VT330), from level 2 15
 * printer (none), 25 user-defined keys (unlocked), 26 keyboard (North
 * American; "ready" from level 3, LK201 from level 4); from level 3 53/55
 * locator (ready), 56 locator type (mouse); from level 4 62 DECMSR macro
 * space (none), 63 DECCKSR memory checksum (of no macros), 75 data
 * integrity (no errors), 85 multiple sessions (not configured).
 */
export function decdsr(t: Emulator, p: Params): void {
  const level = t.s.modes.vtLevel;
  const v = p.get(0, 0);
  if (v === 6) { // DECXCPR
    const [r, c] = reportedPosition(t.s);
    t.send(csiReply(`?${r};${c}${level >= 3 ? ";1" : ""}R`));
    return;
  }
  if (level < 2) return;
  switch (v) {
    case 15: // printer: none
      t.send(csiReply("?13n"));
      return;
    case 25: // user-defined keys: not locked
      t.send(csiReply("?20n"));
      return;
    case 26: // keyboard: North American
      t.send(
        csiReply(`?27;1${level >= 3 ? ";0" : ""}${level >= 4 ? ";0" : ""}n`),
      );
      return;
  }
  if (level < 3) return;
  switch (v) {
    case 53:
    case 55: // locator: ready
      t.send(csiReply("?50n"));
      return;
    case 56: // locator type: mouse
      t.send(csiReply("?57;1n"));
      return;
  }
  if (level < 4) return;
  switch (v) {
    case 62: // DECMSR: no space for macros
      t.send(csiReply("0*{"));
      return;
    case 63: // DECCKSR: checksum of the (empty) macro memory, with the request's id
      t.send(dcsReply(`${p.get(1, 0)}!~0000`));
      return;
    case 75: // data integrity: no errors
      t.send(csiReply("?70n"));
      return;
    case 85: // multiple sessions: not configured
      t.send(csiReply("?83n"));
      return;
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
    case '"q': // DECSCA: only DEC protection counts
      return `${
        (s.pen.flags & A_PROTECTED) !== 0 && s.modes.protectMode === 1 ? 1 : 0
      }"q`;
    case '"p': // DECSCL (a VT100, level 1, is not asked: see decrqss)
      return `${60 + s.modes.vtLevel};${s.modes.c1Replies ? 0 : 1}"p`;
    case "*x": // DECSACE
      return `${s.rectExtent ? 2 : s.modes.saceZero ? 0 : 1}*x`;
    case "$}": // DECSASD: the main display
      return "0$}";
    case "$~": // DECSSDT: no status line
      return "0$~";
    case "t": // DECSLPP
      return `${s.rows}t`;
    case "$|": // DECSCPP
      return `${s.cols}$|`;
    case "*|": // DECSNLS
      return `${s.rows}*|`;
    // Keyboard settings a VT510 keeps and domterm has only as their
    // defaults (the page's keys are its own): 0, "as the factory set them".
    case "+q": // DECELF: local functions
    case "*}": // DECLFKC: local function keys
    case "+r": // DECSMKR: modifier key reporting
      return `0${request}`;
    default:
      return null;
  }
}

/** `DCS $ q Pt ST` DECRQSS: request a setting (SGR, DECSTBM, DECSLRM, DECSCUSR, DECSCA, DECSCL, DECSLPP, DECSCPP, DECSNLS, DECSACE, DECSASD, DECSSDT, and DECELF, DECLFKC, DECSMKR as their defaults). */
export function decrqss(
  t: Emulator,
  _p: Params,
  payload: Uint8Array,
): void {
  let s = "";
  for (let i = 0; i < payload.length && i < 16; i++) {
    s += String.fromCharCode(payload[i]);
  }
  // xterm: a VT100 has no DECRQSS; at level 1 the DECSCL query gets no
  // answer at all (what vttest checks after VT52 mode's ESC <).
  if (s === '"p' && t.s.modes.vtLevel < 2) return;
  t.send(decrqssReply(statusString(t.s, s)));
}
