/**
 * What a read-only share's window may send: only what concerns its own
 * copy of the output (acks, the pager's pause). Input, sizes, focus,
 * detach, close, settings, links and the line editor are dropped.
 *
 * @module
 */
import type { ClientMessage } from "../../core/protocol.ts";

/**
 * True when a read-only window's message must be dropped: `m` is the
 * parsed text frame, a string for one that did not parse, null for a
 * binary frame (input bytes).
 */
export function dropForReadOnly(m: ClientMessage | string | null): boolean {
  if (m === null || typeof m === "string") return true;
  return m.type !== "ack" && m.type !== "pause";
}
