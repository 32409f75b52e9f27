/**
 * The fixed answers of the terminal to identification queries, and helpers
 * that format replies. Replies are strings of 7-bit controls; the caller
 * encodes them as UTF-8.
 *
 * @module
 */

/** Our name and version as reported by XTVERSION. */
export const TERMINAL_NAME = "domterm";
/** Version reported by XTVERSION. */
export const TERMINAL_VERSION = "0.1.0";
/**
 * Firmware version in the DA2 reply (`CSI > 990 ; version ; 0 c`); 990 means
 * "DM" (DomTerm). `domterm is-domterm` checks the 990 (the terminal sends
 * {@link DA2_REPLY}).
 */
export const DA2_VERSION = 10;
/** The DA2 terminal type (990 = DomTerm). */
export const DA2_TERMINAL_TYPE = 990;

const ESC = "\x1b";
const CSI = "\x1b[";
const DCS = "\x1bP";
const ST = "\x1b\\";

/**
 * DA1 (`CSI c`): xterm's answer when it emulates a VT525 (decTerminalID
 * 525, no sixel/ReGIS): 65 = VT500 family, then 1 132 columns, 2 printer,
 * 6 selective erase, 8 user-defined keys, 9 national replacement charsets,
 * 15 technical characters, 16 locator port, 17 terminal state
 * interrogation, 18 user windows, 21 horizontal scrolling, 22 ANSI colour,
 * 28 rectangular editing.
 */
export const DA1_REPLY = `${CSI}?65;1;2;6;8;9;15;16;17;18;21;22;28c`;
/** DA2 (`CSI > c`). */
export const DA2_REPLY = `${CSI}>${DA2_TERMINAL_TYPE};${DA2_VERSION};0c`;
/** DA3 (`CSI = c`): the unit id, all zeros as in xterm. */
export const DA3_REPLY = `${DCS}!|00000000${ST}`;
/** XTVERSION (`CSI > q`). */
export const XTVERSION_REPLY =
  `${DCS}>|${TERMINAL_NAME}(${TERMINAL_VERSION})${ST}`;
/** DSR 5 (`CSI 5 n`): "OK". */
export const STATUS_OK_REPLY = `${CSI}0n`;

/** A CSI reply: `CSI body`. */
export function csiReply(body: string): string {
  return CSI + body;
}
/** A DCS reply: `DCS body ST`. */
export function dcsReply(body: string): string {
  return DCS + body + ST;
}
/** An OSC reply: `OSC body ST`. */
export function oscReply(body: string): string {
  return `${ESC}]${body}${ST}`;
}
/** DECRQSS answer: valid (`DCS 1 $ r Pt ST`) or not (`DCS 0 $ r ST`). */
export function decrqssReply(setting: string | null): string {
  return setting === null ? dcsReply("0$r") : dcsReply("1$r" + setting);
}

const C1: Record<string, string> = {
  "[": "\x9b",
  "]": "\x9d",
  P: "\x90",
  "\\": "\x9c",
  _: "\x9f",
  "^": "\x9e",
  X: "\x98",
};

/**
 * A reply with its 7-bit introducers (ESC [, ESC ], ESC P, ESC \\ ...) as
 * 8-bit C1 controls (S8C1T). Encoded as UTF-8 by the caller, as xterm
 * sends C1 in UTF-8 mode.
 */
export function toC1(reply: string): string {
  // deno-lint-ignore no-control-regex
  return reply.replace(/\x1b([[\]P\\_^X])/g, (_m, c: string) => C1[c]);
}
