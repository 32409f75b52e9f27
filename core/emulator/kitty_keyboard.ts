/**
 * The kitty keyboard protocol's state in the emulator: the progressive
 * enhancement flags, one stack for the main screen and one for the
 * alternate screen, changed by
 *
 * - `CSI > flags u`: push (the flags become current; the old ones are kept),
 * - `CSI < n u`: pop n entries (default 1); an emptied stack means flags 0,
 * - `CSI = flags ; mode u`: mode 1 (default) set exactly, 2 set the bits,
 *   3 clear the bits, of the current entry,
 * - `CSI ? u`: query, answered with `CSI ? flags u`.
 *
 * The stacks ({@link KittyKeyboard}, `kitty_keyboard_state.ts`) are
 * bounded (`KITTY_STACK_LIMIT`): a push onto a full
 * stack drops the oldest entry. The encoder is `core/kitty_keys.ts`.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";

/**
 * `CSI > flags u` push, `CSI < n u` pop, `CSI = flags ; mode u` set,
 * `CSI ? u` query: the kitty keyboard protocol on the active screen.
 */
export function kittyKeyboard(t: Emulator, p: Params, prefix: string): void {
  const s = t.s;
  const alt = s.buf.isAlt;
  const arg = (i: number) => p.has(i) ? p.get(i, 0) : undefined;
  const reply = s.kitty.handle(prefix, arg(0), arg(1), alt);
  if (reply !== null) t.send(reply);
  const flags = s.kitty.flags(alt);
  if (flags !== s.modes.kittyFlags) {
    s.modes.kittyFlags = flags;
    t.emit({ type: "modes" });
  }
}
/** `CSI > flags u`: push flags. */
export function kittyPush(t: Emulator, p: Params): void {
  kittyKeyboard(t, p, ">");
}
/** `CSI < n u`: pop n entries. */
export function kittyPop(t: Emulator, p: Params): void {
  kittyKeyboard(t, p, "<");
}
/** `CSI = flags ; mode u`: set, add or clear flags. */
export function kittySet(t: Emulator, p: Params): void {
  kittyKeyboard(t, p, "=");
}
/** `CSI ? u`: query the flags. */
export function kittyQuery(t: Emulator, p: Params): void {
  kittyKeyboard(t, p, "?");
}
