/**
 * Mouse reports as xterm sends them, for the tracking modes a program sets
 * (?9 X10, ?1000 press and release, ?1002 plus motion while a button is
 * held, ?1003 plus all motion) in the encoding it chose (default X10
 * bytes, ?1005 UTF-8, ?1006 SGR, ?1015 urxvt, ?1016 SGR with pixels).
 * Pure data in, a string out; no DOM.
 *
 * The button code is the button (0 left, 1 middle, 2 right; 3 "released"
 * outside SGR), 64..67 for the wheel (up, down, left, right), 128/129 for
 * the back/forward buttons, plus 4 for Shift, 8 for Alt (xterm's Meta) and
 * 16 for Ctrl, plus 32 for motion.
 *
 * The default encoding is bytes: `CSI M`, then 32 + code, 33 + column and
 * 33 + row, each one byte, so positions stop at 223 (a position of 223 or
 * more is sent as the byte 0, as xterm does). {@link encodeMouse} returns it
 * as a string of char codes 0..255; send it with {@link mouseBytes}, not
 * as UTF-8. The other encodings are text.
 *
 * @module
 */
import type { InputModes } from "./terminal_view.ts";

/** What happened. */
export type MouseAction = "press" | "release" | "move" | "wheel";

/** Wheel directions (buttons 4..7 in X11 terms). */
export type WheelDirection = "up" | "down" | "left" | "right";

/** A pointer event as plain data (what the client copies out of a DOM event). */
export interface MouseReport {
  action: MouseAction;
  /**
   * For press/release: the DOM button (0 left, 1 middle, 2 right, 3 back,
   * 4 forward). For move: the held button reported (the lowest held DOM
   * button), or -1 when none is held.
   */
  button: number;
  /** For wheel. */
  wheel?: WheelDirection;
  /** Cell column and row, 0-based, already clamped to the screen. */
  col: number;
  row: number;
  /** Pixel position inside the text area, 0-based (for ?1016). */
  x: number;
  y: number;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
}

const CSI = "\x1b[";

/** Largest 0-based position the default encoding can carry (255 - 32). */
export const X10_LIMIT = 223;
/** Largest 0-based position of the UTF-8 (?1005) encoding (2047 - 32). */
export const UTF8_LIMIT = 2015;

/** xterm button number (before modifiers) of a DOM button, or -1. */
function buttonCode(domButton: number): number {
  switch (domButton) {
    case 0:
    case 1:
    case 2:
      return domButton;
    case 3: // back: X11 button 8
      return 128;
    case 4: // forward: X11 button 9
      return 129;
  }
  return -1;
}

const WHEEL_CODE: Readonly<Record<WheelDirection, number>> = {
  up: 64,
  down: 65,
  left: 66,
  right: 67,
};

/** One coordinate in the default (byte) or UTF-8 encoding. */
function encodeCoord(value: number, limit: number): string {
  const v = Math.max(0, Math.min(value, limit));
  return v === limit ? "\x00" : String.fromCharCode(33 + v);
}

/**
 * The bytes (as a string) a program asked for with its mouse modes, or
 * null when this event is not reported (tracking off, motion not wanted,
 * releases in X10 mode, modified clicks in X10 mode...). Deduplicating
 * motion within one cell is the caller's job.
 */
export function encodeMouse(
  ev: MouseReport,
  modes: Pick<InputModes, "mouseTracking" | "mouseEncoding">,
): string | null {
  const tracking = modes.mouseTracking;
  if (tracking === 0) return null;
  let code: number;
  let release = false;
  switch (ev.action) {
    case "press":
      code = buttonCode(ev.button);
      if (code < 0) return null;
      break;
    case "release":
      if (tracking === 9) return null;
      code = buttonCode(ev.button);
      if (code < 0) return null;
      release = true;
      break;
    case "wheel":
      if (tracking === 9 || ev.wheel === undefined) return null;
      code = WHEEL_CODE[ev.wheel];
      break;
    case "move":
      if (tracking !== 1002 && tracking !== 1003) return null;
      if (ev.button < 0 && tracking !== 1003) return null;
      code = ev.button < 0 ? 3 : buttonCode(ev.button);
      if (code < 0) return null;
      code += 32;
      break;
  }
  if (tracking === 9) {
    // X10: presses of buttons 1-3 without modifiers only.
    if (code > 2 || ev.shift || ev.alt || ev.ctrl) return null;
  } else {
    code += (ev.shift ? 4 : 0) + (ev.alt ? 8 : 0) + (ev.ctrl ? 16 : 0);
  }
  const enc = modes.mouseEncoding;
  const sgr = enc === 1006 || enc === 1016;
  // Outside SGR a release does not say which button: code 3.
  if (release && !sgr) code = (code & ~0xc3) | 3;
  const col = Math.max(0, ev.col), row = Math.max(0, ev.row);
  switch (enc) {
    case 1006:
      return `${CSI}<${code};${col + 1};${row + 1}${release ? "m" : "M"}`;
    case 1016:
      return `${CSI}<${code};${Math.max(0, Math.round(ev.x)) + 1};${
        Math.max(0, Math.round(ev.y)) + 1
      }${release ? "m" : "M"}`;
    case 1015:
      return `${CSI}${32 + code};${col + 1};${row + 1}M`;
    case 1005:
      return `${CSI}M${String.fromCharCode(32 + code)}${
        encodeCoord(col, UTF8_LIMIT)
      }${encodeCoord(row, UTF8_LIMIT)}`;
    default:
      return `${CSI}M${String.fromCharCode(32 + code)}${
        encodeCoord(col, X10_LIMIT)
      }${encodeCoord(row, X10_LIMIT)}`;
  }
}

/**
 * A report from {@link encodeMouse} ready to send: raw bytes for the
 * default encoding (char codes 0..255), the string itself (to be sent as
 * UTF-8) for the others.
 */
export function mouseBytes(
  report: string,
  encoding: InputModes["mouseEncoding"],
): string | Uint8Array<ArrayBuffer> {
  if (encoding !== 0) return report;
  const bytes = new Uint8Array(report.length);
  for (let i = 0; i < report.length; i++) bytes[i] = report.charCodeAt(i);
  return bytes;
}

/**
 * ?1007 alternate scroll: `lines` presses of cursor up or down (CSI or SS3
 * form as DECCKM says), which is what the wheel sends on the alternate
 * screen while mouse tracking is off.
 */
export function encodeAlternateScroll(
  direction: "up" | "down",
  lines: number,
  modes: Pick<InputModes, "applicationCursorKeys">,
): string {
  const key = (modes.applicationCursorKeys ? "\x1bO" : CSI) +
    (direction === "up" ? "A" : "B");
  return key.repeat(Math.max(0, Math.floor(lines)));
}
