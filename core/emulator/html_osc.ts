/**
 * The HTML embed sequences, OSC 72 and OSC 721: handlers of the
 * {@link Emulator}'s `embeds` (`html_embed.ts`).
 *
 * @module
 */
import type { Emulator } from "./context.ts";

/** `OSC 72 ; html`: insert an HTML fragment at the cursor (a block on a line of its own). */
export function osc72(t: Emulator, args: string): void {
  t.embeds.osc72(args);
}

/** `OSC 721 ; key ; html`: replace the children of the element with replace-key `key`. */
export function osc721(t: Emulator, args: string): void {
  t.embeds.osc721(args);
}
