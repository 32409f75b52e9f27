/**
 * The answer to an OSC 52 clipboard query, as xterm sends it:
 * `OSC 52 ; Pc ; base64 ST`, the text as UTF-8 in standard base64, Pc the
 * selection asked for ("s0" when the query named none).
 *
 * @module
 */
import { oscReply, toC1 } from "./replies.ts";

/** Largest clipboard text answered, in UTF-16 code units (more is cut). */
export const MAX_CLIPBOARD_REPLY = 1 << 20;

/** `OSC 52 ; selection ; base64(text) ST`, with C1 introducers when `c1`. */
export function clipboardReadReply(
  selection: string,
  text: string,
  c1 = false,
): string {
  const bytes = new TextEncoder().encode(text.slice(0, MAX_CLIPBOARD_REPLY));
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  const reply = oscReply(
    `52;${selection === "" ? "s0" : selection};${btoa(bin)}`,
  );
  return c1 ? toC1(reply) : reply;
}
