/**
 * Keyboard settings that are not DEC modes: DECKPAM / DECKPNM, xterm's
 * modifyOtherKeys (XTMODKEYS, XTQMODKEYS). The kitty keyboard protocol is
 * `kitty_keyboard.ts`; the encoders are `core/keys.ts`.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { csiReply } from "./replies.ts";

function setKeypad(t: Emulator, on: boolean): void {
  if (t.s.modes.applicationKeypad !== on) {
    t.s.modes.applicationKeypad = on;
    t.emit({ type: "modes" });
  }
}
/** `ESC =` DECKPAM: application keypad. */
export function deckpam(t: Emulator): void {
  setKeypad(t, true);
}
/** `ESC >` DECKPNM: numeric keypad. */
export function deckpnm(t: Emulator): void {
  setKeypad(t, false);
}

/** `CSI > Pp ; Pv m` XTMODKEYS: only modifyOtherKeys (resource 4) is kept; no parameters resets it. */
export function xtmodkeys(t: Emulator, p: Params): void {
  const m = t.s.modes;
  if (p.length === 0) {
    if (m.modifyOtherKeys !== 0) {
      m.modifyOtherKeys = 0;
      t.emit({ type: "modes" });
    }
  } else if (p.get(0, -1) === 4) {
    const v = p.has(1) ? p.get(1, 0) : 0;
    const level = v === 1 || v === 2 ? v : 0;
    if (level !== m.modifyOtherKeys) {
      m.modifyOtherKeys = level;
      t.emit({ type: "modes" });
    }
  }
}

/** `CSI ? Pp m` XTQMODKEYS: report modifyKeyboard, modifyCursorKeys, modifyFunctionKeys or modifyOtherKeys. */
export function xtqmodkeys(t: Emulator, p: Params): void {
  const r = p.get(0, -1);
  const v = [0, 2, 2, -1, t.s.modes.modifyOtherKeys][r] ?? -1;
  if (v >= 0) t.send(csiReply(`>${r};${v}m`));
}
