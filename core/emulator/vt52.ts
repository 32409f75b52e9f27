/**
 * VT52 mode, as xterm emulates it: `CSI ? 2 l` (DECANM reset) enters it,
 * `ESC <` leaves it. In the mode the parser (`Parser.vt52`) hands every
 * `ESC x` to {@link vt52Sequence}, which looks it up in
 * {@link VT52_SEQUENCES}; CSI, OSC, DCS and the other ESC sequences are not
 * recognised. Keys use VT52 forms (`core/keys.ts`, `InputModes.vt52`).
 *
 * As xterm does, entering the mode saves the character sets and sets up
 * G0 ASCII and G1 DEC special graphics (`ESC F` / `ESC G` shift between
 * them); leaving it restores the saved sets and sets conformance level 1
 * (VT100).
 *
 * @module
 */
// deno-fmt-ignore-file -- registrations read best as aligned columns
import type { Emulator } from "./context.ts";
import { CharsetState, DEC_SPECIAL_GRAPHICS } from "./charsets.ts";
import {
  cursorBackward,
  cursorDown,
  cursorForward,
  cursorUp,
  reverseIndex,
  setPosition,
} from "./cursor.ts";
import { eraseInDisplay, eraseInLine } from "./erase.ts";
import { deckpam, deckpnm } from "./keyboard_modes.ts";

/** Handles `ESC final` (`ESC Y` with its row and column, 0-based). */
export type Vt52Handler = (t: Emulator, row: number, column: number) => void;

/** One VT52 sequence: the byte after ESC, its name, handler and summary. */
export interface Vt52Registration {
  key: string;
  name: string;
  handler: Vt52Handler;
  summary: string;
}

/** DECANM reset: enter VT52 mode (nothing when already in it). */
export function enterVt52(t: Emulator): void {
  const s = t.s;
  if (s.modes.vt52) return;
  s.vt52Charsets = s.charsets.clone();
  const c = new CharsetState();
  c.g[1] = DEC_SPECIAL_GRAPHICS;
  s.charsets = c;
  t.setVt52(true);
}

/**
 * `ESC <`: back to ANSI mode, with the character sets of before, at
 * conformance level 1 (a VT100, as xterm and a real VT420 do: DECSCL puts
 * the level back) with 7-bit replies.
 */
export function exitVt52(t: Emulator): void {
  const s = t.s;
  s.charsets = s.vt52Charsets ?? new CharsetState();
  s.vt52Charsets = null;
  s.modes.vtLevel = 1;
  s.modes.c1Replies = false;
  t.setVt52(false);
}

/** `ESC A`: cursor up one row, stopping at the top. */
export function vt52Up(t: Emulator): void {
  cursorUp(t.s, 1);
}
/** `ESC B`: cursor down one row, stopping at the bottom. */
export function vt52Down(t: Emulator): void {
  cursorDown(t.s, 1);
}
/** `ESC C`: cursor right one column, stopping at the right edge. */
export function vt52Right(t: Emulator): void {
  cursorForward(t.s, 1);
}
/** `ESC D`: cursor left one column, stopping at the left edge. */
export function vt52Left(t: Emulator): void {
  cursorBackward(t.s, 1);
}
/** `ESC F`: graphics mode (G1, DEC special graphics, into GL). */
export function vt52Graphics(t: Emulator): void {
  t.s.charsets.gl = 1;
}
/** `ESC G`: leave graphics mode (G0, ASCII, into GL). */
export function vt52Ascii(t: Emulator): void {
  t.s.charsets.gl = 0;
}
/** `ESC H`: cursor home. */
export function vt52Home(t: Emulator): void {
  setPosition(t.s, 1, 1);
}
/** `ESC I`: reverse line feed (scrolls down at the top). */
export function vt52ReverseLineFeed(t: Emulator): void {
  reverseIndex(t.s);
}
/** `ESC J`: erase from the cursor to the end of the screen. */
export function vt52EraseScreen(t: Emulator): void {
  eraseInDisplay(t.s, 0, false);
}
/** `ESC K`: erase from the cursor to the end of the line. */
export function vt52EraseLine(t: Emulator): void {
  eraseInLine(t.s, 0, false);
}
/** `ESC Y row column`: move the cursor (each byte is value + 32, 0-based; clamped to the screen). */
export function vt52Position(t: Emulator, row: number, column: number): void {
  setPosition(t.s, row + 1, column + 1);
}
/** `ESC Z`: identify, answered `ESC / Z` ("I am a VT52"). */
export function vt52Identify(t: Emulator): void {
  t.send("\x1b/Z");
}
/** `ESC =`: alternate (application) keypad. */
export function vt52KeypadApplication(t: Emulator): void {
  deckpam(t);
}
/** `ESC >`: numeric keypad. */
export function vt52KeypadNumeric(t: Emulator): void {
  deckpnm(t);
}
/** `ESC <`: leave VT52 mode (ANSI mode again). */
export function vt52Exit(t: Emulator): void {
  exitVt52(t);
}

const reg = (key: string, name: string, handler: Vt52Handler, summary: string): Vt52Registration => ({ key, name, handler, summary });

/** Every VT52 sequence (ctlseqs, "VT52 Mode"); any other `ESC x` is ignored. */
export const VT52_SEQUENCES: readonly Vt52Registration[] = [
  reg("A", "Cursor up",          vt52Up,                "Cursor up one row"),
  reg("B", "Cursor down",        vt52Down,              "Cursor down one row"),
  reg("C", "Cursor right",       vt52Right,             "Cursor right one column"),
  reg("D", "Cursor left",        vt52Left,              "Cursor left one column"),
  reg("F", "Graphics mode",      vt52Graphics,          "Enter graphics mode: DEC special graphics (line drawing)"),
  reg("G", "Exit graphics mode", vt52Ascii,             "Exit graphics mode: ASCII"),
  reg("H", "Cursor home",        vt52Home,              "Cursor to the top-left corner"),
  reg("I", "Reverse line feed",  vt52ReverseLineFeed,   "Cursor up one row, scrolling down at the top"),
  reg("J", "Erase to end of screen", vt52EraseScreen,   "Erase from the cursor to the end of the screen"),
  reg("K", "Erase to end of line", vt52EraseLine,       "Erase from the cursor to the end of the line"),
  reg("Y", "Direct cursor address", vt52Position,       "`ESC Y row column`, each a byte of value + 32 (0-based), clamped to the screen"),
  reg("Z", "Identify",           vt52Identify,          "Answered `ESC / Z`"),
  reg("=", "Alternate keypad",   vt52KeypadApplication, "Keypad keys send `ESC ? x`"),
  reg(">", "Numeric keypad",     vt52KeypadNumeric,     "Keypad keys send their characters"),
  reg("<", "ANSI mode",          vt52Exit,              "Leave VT52 mode: the character sets of before come back, at conformance level 1 (VT100) as xterm"),
];

const table: (Vt52Handler | undefined)[] = new Array(0x80);
for (const r of VT52_SEQUENCES) table[r.key.charCodeAt(0)] = r.handler;

/** A VT52 sequence from the parser: `ESC final`, and for `ESC Y` the row and column bytes. */
export function vt52Sequence(t: Emulator, final: number, row: number, column: number): void {
  t.s.joinNext = false;
  const h = final < 0x80 ? table[final] : undefined;
  h?.(t, Math.max(0, row - 32), Math.max(0, column - 32));
}
