/**
 * A key press as the browser reports it, and the user's preferences for
 * encoding it: the input of both encoders (`keys.ts` for the xterm
 * encodings, `kitty_keys.ts` for the kitty protocol).
 *
 * @module
 */

/** A key press as plain data (what the client copies out of a DOM KeyboardEvent). */
export interface KeyPress {
  /** `KeyboardEvent.key`: the character produced, or a key name ("ArrowUp"). */
  key: string;
  /** `KeyboardEvent.code`: the physical key ("KeyA", "Numpad5"). */
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
  /**
   * AltGr held (`getModifierState("AltGraph")`). Windows reports AltGr as
   * Ctrl+Alt; with this set, a character key is left to the browser, which
   * produces the AltGr character itself.
   */
  altGraph?: boolean;
  /** "keyup" for a key release; a press ("keydown") when absent. */
  type?: "keydown" | "keyup";
  /** `KeyboardEvent.repeat`: an auto-repeated press. */
  repeat?: boolean;
  /** Caps Lock on (`getModifierState("CapsLock")`); reported by the kitty protocol. */
  capsLock?: boolean;
  /** Num Lock on (`getModifierState("NumLock")`); reported by the kitty protocol. */
  numLock?: boolean;
}

/** User preferences that change the encoding. */
export interface KeyOptions {
  /** Alt+x sends ESC x (xterm's metaSendsEscape). Default true. */
  altSendsEscape?: boolean;
  /**
   * On macOS (see `isMac`), Option+x normally composes a character (Option+e
   * is a dead acute). When true, Option acts as Meta/Alt instead: ESC plus
   * the unmodified character of the physical key. Default false.
   */
  macOptionIsMeta?: boolean;
  /** The client runs on macOS (Option is the Alt key there). Default false. */
  isMac?: boolean;
}
