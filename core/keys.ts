/**
 * Keyboard, paste and focus encoding: what an xterm sends to the host for a
 * key press, a paste or a focus change. Pure data in, a string of code
 * points out (the connection UTF-8-encodes it); no DOM, no Deno.
 *
 * The encoding follows xterm's "PC-style function keys" in its default
 * configuration (modifyOtherKeys off, modifyCursorKeys 2, modifyFunctionKeys
 * 2): cursor and function keys carry modifiers as the parameter
 * 1 + (Shift 1 | Alt 2 | Ctrl 4 | Meta 8), Ctrl+character maps to C0 controls
 * as X11 does, and Alt prefixes ESC.
 *
 * Three encoders, chosen from the modes the emulator reports in
 * `InputModes`: the kitty keyboard protocol when a program set kitty flags
 * (`core/kitty_keys.ts`), else xterm's modifyOtherKeys levels 1 and 2
 * (`CSI 27 ; m ; code ~`) when set by `CSI > 4 ; level m`, else the legacy
 * encoding. Key releases (`type: "keyup"`) are reported only by kitty flag 2.
 *
 * @module
 */
import type { InputModes } from "./terminal_view.ts";
import { encodeKitty, usLayoutChar } from "./kitty_keys.ts";
import type { KeyOptions, KeyPress } from "./key_press.ts";

export type { KeyOptions, KeyPress } from "./key_press.ts";

const ESC = "\x1b";
const CSI = "\x1b[";
const SS3 = "\x1bO";
/** VT52 mode's application keypad prefix (`ESC ? x`). */
const VT52_KEYPAD = "\x1b?";

/** Modifier bits as in xterm's modifier parameter (parameter = 1 + bits). */
export const MOD_SHIFT = 1;
export const MOD_ALT = 2;
export const MOD_CTRL = 4;
export const MOD_META = 8;

/**
 * A key press reduced to what the encoders need: either a named key
 * (`name`, e.g. "ArrowUp", "F5", "Enter") or a character (`char`, one
 * grapheme), plus modifier bits and the physical key.
 */
export interface NormalizedKey {
  name: string | null;
  char: string | null;
  /** MOD_* bits. */
  mods: number;
  code: string;
  altGraph: boolean;
}

/** Cursor-type keys: final byte; CSI in normal and SS3 in application cursor mode. */
const CURSOR_FINAL = {
  ArrowUp: "A",
  ArrowDown: "B",
  ArrowRight: "C",
  ArrowLeft: "D",
  Home: "H",
  End: "F",
  // Keypad 5 with NumLock off (xterm's KP_Begin).
  Clear: "E",
} as const satisfies Readonly<Record<string, string>>;

/** A cursor-type key (see {@link cursorKey}). */
export type CursorKeyName = keyof typeof CURSOR_FINAL;

/**
 * An unmodified cursor-type key in the legacy encoding: `CSI final`, or
 * `SS3 final` in application cursor mode (DECCKM, `applicationCursorKeys`).
 */
export function cursorKey(
  name: CursorKeyName,
  applicationCursorKeys: boolean,
): string {
  return (applicationCursorKeys ? SS3 : CSI) + CURSOR_FINAL[name];
}

/** Keys sent as `CSI n ~`. */
const TILDE_NUMBER: Readonly<Record<string, number>> = {
  Insert: 2,
  Delete: 3,
  PageUp: 5,
  PageDown: 6,
  F5: 15,
  F6: 17,
  F7: 18,
  F8: 19,
  F9: 20,
  F10: 21,
  F11: 23,
  F12: 24,
  F13: 25,
  F14: 26,
  F15: 28,
  F16: 29,
  F17: 31,
  F18: 32,
  F19: 33,
  F20: 34,
};

/** F1-F4: `SS3 P..S` unmodified, `CSI 1 ; m P..S` with modifiers. */
const PF_FINAL: Readonly<Record<string, string>> = {
  F1: "P",
  F2: "Q",
  F3: "R",
  F4: "S",
};

/** Application keypad (DECKPAM): final byte of the `SS3 x` form, by `code`. */
const KEYPAD_APP_FINAL: Readonly<Record<string, string>> = {
  NumpadEnter: "M",
  NumpadMultiply: "j",
  NumpadAdd: "k",
  NumpadComma: "l",
  NumpadSubtract: "m",
  NumpadDecimal: "n",
  NumpadDivide: "o",
  Numpad0: "p",
  Numpad1: "q",
  Numpad2: "r",
  Numpad3: "s",
  Numpad4: "t",
  Numpad5: "u",
  Numpad6: "v",
  Numpad7: "w",
  Numpad8: "x",
  Numpad9: "y",
  NumpadEqual: "X",
};

/** A `key` that names a key rather than a character ("Enter", "F5", "Dead"). */
function isKeyName(key: string): boolean {
  return key.length > 1 && /^[A-Z][A-Za-z0-9]*$/.test(key);
}

/** Copy the modifier flags into MOD_* bits. */
function modifierBits(k: KeyPress): number {
  return (k.shiftKey ? MOD_SHIFT : 0) | (k.altKey ? MOD_ALT : 0) |
    (k.ctrlKey ? MOD_CTRL : 0) | (k.metaKey ? MOD_META : 0);
}

/** Reduce a key press to a named key or a character plus modifier bits. */
export function normalizeKey(k: KeyPress): NormalizedKey {
  const named = isKeyName(k.key);
  return {
    // Space is both: a character, but with Ctrl it is a control key.
    name: named ? k.key : null,
    char: named || k.key === "" ? null : k.key,
    mods: modifierBits(k),
    code: k.code,
    altGraph: k.altGraph ?? false,
  };
}

/**
 * The control character that Ctrl+`ch` produces, as X11 maps it for xterm:
 * `@`..`~` (letters either case, `[ \ ] ^ _` and `` ` { | } ~``) -> ch & 0x1f,
 * space and `2` -> NUL, `3`..`7` -> ESC, FS, GS, RS, US, `8` -> DEL,
 * `/` -> US. Ctrl+? -> DEL is the VT convention (`^?`). Null when Ctrl
 * does not change the character (Ctrl+1, Ctrl+=, ...). `encodeKey` uses
 * it.
 */
export function controlCharacter(ch: string): string | null {
  if (ch.length !== 1) return null;
  const c = ch.charCodeAt(0);
  if ((c >= 0x40 && c <= 0x7e) || c === 0x20) {
    return String.fromCharCode(c & 0x1f);
  }
  if (ch === "2") return "\x00";
  if (ch >= "3" && ch <= "7") return String.fromCharCode(c - 0x33 + 0x1b);
  if (ch === "8") return "\x7f";
  if (ch === "/") return "\x1f";
  if (ch === "?") return "\x7f";
  return null;
}

/**
 * The unshifted (or shifted) US-layout character of a physical letter or
 * digit key, for layouts whose `key` is not Latin (Ctrl+С on a Russian
 * layout is still Ctrl+C) and for macOS Option-as-Meta.
 */
function charFromCode(code: string, shift: boolean): string | null {
  return /^(Key[A-Z]|Digit[0-9])$/.test(code)
    ? usLayoutChar(code, shift)
    : null;
}

const isAsciiLetter = (ch: string) => /^[A-Za-z]$/.test(ch);

/** `CSI number final`, or `CSI number ; 1+mods final` when modified. */
function csiWithMods(number: number, mods: number, final: string): string {
  return mods === 0
    ? `${CSI}${number}${final}`
    : `${CSI}${number};${mods + 1}${final}`;
}

/**
 * Bytes (as a string of code points) an xterm sends for this key, or null if
 * the terminal should not handle it: unmodified or shifted printable keys
 * (their text arrives through the `input` event), dead keys, IME processing,
 * lone modifiers, and combinations left to the browser (Ctrl+Shift+letter,
 * Cmd/Meta+character, Ctrl+= ...). Key releases give null except under
 * kitty flag 2.
 */
export function encodeKey(
  k: KeyPress,
  modes: InputModes,
  options: KeyOptions = {},
): string | null {
  if (modes.kittyFlags) return encodeKitty(k, modes, options);
  if (k.type === "keyup") return null;
  const n = normalizeKey(k);
  if (modes.modifyOtherKeys) {
    const s = encodeModifyOtherKeys(n, modes.modifyOtherKeys, options);
    if (s !== undefined) return s;
  }
  return encodeLegacy(n, modes, options);
}

/** A key as xterm's modifyOtherKeys logic sees it (X keysym terms). */
interface OtherKey {
  /** The keysym: the (shifted) character's code point, or an X function keysym. */
  sym: number;
  /** The code reported in `CSI 27 ; m ; code ~`. */
  code: number;
  /** An X "predefined" (function) keysym: Enter, Tab, Escape. */
  predefined: boolean;
  /** Enter or Tab (modifiers are never filtered away from these). */
  returnOrTab: boolean;
  /** The key with its modifiers produces a single control character. */
  alias: boolean;
}

const XK_RETURN = 0xff0d, XK_TAB = 0xff09, XK_ESCAPE = 0xff1b;

/** Ctrl+`ch` as Xlib maps it (the VT table without the `?` -> DEL rule). */
function xlibControl(ch: string): string | null {
  return ch === "?" ? null : controlCharacter(ch);
}

const isControl = (c: number) => c < 0x20 || (c >= 0x7f && c <= 0x9f);

/**
 * The modifiers modifyOtherKeys may report for `key` (xterm's
 * allowedCharModifiers). Level 1 drops those with a traditional meaning:
 * Ctrl on keys that make control characters, Shift on printable keys, and
 * Alt when it sends ESC (xterm's metaSendsEscape).
 */
function otherKeysModifiers(
  state: number,
  key: OtherKey,
  level: number,
  altSendsEscape: boolean,
): number {
  let r = state & (MOD_SHIFT | MOD_CTRL | MOD_ALT);
  if (level >= 2) return r;
  const controlInput = key.sym >= 0x40 && key.sym <= 0x7f;
  if (controlInput && (r & ~MOD_CTRL) === 0) {
    // Ctrl+letter: already a control character; decided below.
  } else if (key.returnOrTab) {
    // Keep everything.
  } else if (key.alias) {
    if ((r & ~(MOD_CTRL | MOD_SHIFT)) === 0) r = 0;
  } else if (!key.predefined && (r & MOD_CTRL) === 0) {
    r &= ~MOD_SHIFT;
  }
  if (r & MOD_ALT) {
    if (altSendsEscape) r &= ~MOD_ALT;
    if ((r & ~MOD_ALT) === 0) r &= ~MOD_ALT;
    if (controlInput && (r & MOD_CTRL)) r &= ~(MOD_ALT | MOD_CTRL);
    if (key.returnOrTab) r &= ~(MOD_ALT | MOD_CTRL);
  }
  return r;
}

/** `CSI 27 ; 1+mods ; code ~` */
const otherKey = (mods: number, code: number) =>
  `${CSI}27;${mods + 1};${code}~`;

/**
 * xterm's modifyOtherKeys (levels 1 and 2) for keys that are not cursor,
 * function or keypad keys: the report, or undefined when the legacy
 * encoding applies. Cmd/Meta and AltGr combinations are left alone.
 */
function encodeModifyOtherKeys(
  n: NormalizedKey,
  level: number,
  options: KeyOptions,
): string | undefined {
  const state = n.mods & (MOD_SHIFT | MOD_CTRL | MOD_ALT);
  if (state === 0 || (n.mods & MOD_META) || n.altGraph) return undefined;
  if (options.isMac && (state & MOD_ALT) && !options.macOptionIsMeta) {
    return undefined; // Option composes characters
  }
  const altSendsEscape = options.altSendsEscape ?? true;
  const shift = (state & MOD_SHIFT) !== 0, ctrl = (state & MOD_CTRL) !== 0;
  let key: OtherKey;
  switch (n.name) {
    case "Tab":
      if (shift) {
        // Shift+Tab is the ISO_Left_Tab key: CSI Z, unless level 2 and
        // another modifier is held.
        return level >= 2 && (state & ~MOD_SHIFT) !== 0
          ? otherKey(state, 9)
          : undefined;
      }
      key = {
        sym: XK_TAB,
        code: 9,
        predefined: true,
        returnOrTab: true,
        alias: true,
      };
      break;
    case "Enter":
      key = {
        sym: XK_RETURN,
        code: 13,
        predefined: true,
        returnOrTab: true,
        alias: true,
      };
      break;
    case "Escape":
      key = {
        sym: XK_ESCAPE,
        code: 27,
        predefined: true,
        returnOrTab: false,
        alias: true,
      };
      break;
    case "Backspace":
      // Level 1 leaves Backspace alone. At level 2 Backspace (DEL) is
      // reported with any modifier and Ctrl+Backspace (BS) only with
      // another one.
      if (level < 2) return undefined;
      if (!ctrl) return otherKey(state, 0x7f);
      return (state & ~MOD_CTRL) !== 0 ? otherKey(state, 0x08) : undefined;
    case null: {
      let ch = n.char;
      if (ch === null) return undefined;
      if (ctrl && (ch.length !== 1 || ch.charCodeAt(0) > 0x7e)) {
        ch = charFromCode(n.code, shift);
        if (ch === null) return undefined;
      }
      const sym = ch.codePointAt(0)!;
      const out = ctrl ? xlibControl(ch) : null;
      key = {
        sym,
        code: sym,
        predefined: false,
        returnOrTab: false,
        alias: out !== null && isControl(out.charCodeAt(0)),
      };
      break;
    }
    default:
      return undefined;
  }
  // Whether xterm reports the key (its ModifyOtherKeys), then with which
  // modifiers (allowedCharModifiers); no modifiers left: legacy.
  const st = key.predefined
    ? state
    : otherKeysModifiers(state, key, level, altSendsEscape);
  if (st === 0) return undefined;
  const controlInput = key.sym >= 0x40 && key.sym <= 0x7f;
  let report: boolean;
  if (key.returnOrTab) report = true;
  else if (level < 2) {
    if (controlInput) report = st !== MOD_CTRL && st !== MOD_SHIFT;
    else if (key.alias) report = st !== MOD_SHIFT && (st & ~MOD_CTRL) !== 0;
    else report = true;
  } else if (controlInput) report = true;
  else if (st === MOD_SHIFT) report = key.sym === 0x20;
  else report = (st & ~MOD_SHIFT) !== 0;
  if (!report) return undefined;
  const mods = otherKeysModifiers(state, key, level, altSendsEscape);
  return mods === 0 ? undefined : otherKey(mods, key.code);
}

/** xterm's default (legacy) key encoding. */
function encodeLegacy(
  n: NormalizedKey,
  modes: InputModes,
  options: KeyOptions,
): string | null {
  const altSendsEscape = options.altSendsEscape ?? true;
  const { mods, code } = n;
  const shift = (mods & MOD_SHIFT) !== 0;
  const alt = (mods & MOD_ALT) !== 0;
  const ctrl = (mods & MOD_CTRL) !== 0;
  const meta = (mods & MOD_META) !== 0;
  // Alt on a key that has no modifier parameter: ESC prefix, if enabled.
  const altPrefix = (s: string) => alt ? (altSendsEscape ? ESC + s : s) : s;

  // Application keypad: keypad keys that produce their NumLock-on character
  // (with NumLock off they produce "ArrowUp" etc. and are cursor keys).
  if (
    modes.applicationKeypad && code in KEYPAD_APP_FINAL &&
    (n.char !== null || n.name === "Enter") && !ctrl && !alt && !meta
  ) {
    return (modes.vt52 ? VT52_KEYPAD : SS3) + KEYPAD_APP_FINAL[code];
  }

  if (n.name !== null) {
    const name = n.name;
    if (modes.vt52) {
      // A VT52 has no modifier parameters: cursor keys are ESC A..D, PF1-4
      // (F1-F4) ESC P..S, in every mode.
      if (name in CURSOR_FINAL) {
        return ESC + CURSOR_FINAL[name as CursorKeyName];
      }
      if (name in PF_FINAL) return ESC + PF_FINAL[name];
    }
    if (name in CURSOR_FINAL) {
      const cursor = name as CursorKeyName;
      if (mods !== 0) return csiWithMods(1, mods, CURSOR_FINAL[cursor]);
      return cursorKey(cursor, modes.applicationCursorKeys);
    }
    if (name in TILDE_NUMBER) return csiWithMods(TILDE_NUMBER[name], mods, "~");
    if (name in PF_FINAL) {
      return mods === 0
        ? SS3 + PF_FINAL[name]
        : csiWithMods(1, mods, PF_FINAL[name]);
    }
    // C0 keys: the Cmd/Meta combinations belong to the OS and browser.
    if (meta) return null;
    switch (name) {
      case "Enter":
        return altPrefix(modes.newlineMode ? "\r\n" : "\r");
      case "Tab":
        return altPrefix(shift ? CSI + "Z" : "\t");
      case "Backspace": // DECBKM set swaps BS and DEL
        return altPrefix(ctrl !== !!modes.backarrowBs ? "\x08" : "\x7f");
      case "Escape":
        return altPrefix(ESC);
    }
    // Dead, Process, Unidentified, modifiers, media keys...
    return null;
  }

  if (n.char === null) return null;
  let ch = n.char;
  // Cmd (macOS) / Super: browser and OS shortcuts (Cmd+C, Cmd+V, ...).
  if (meta) return null;
  // The browser produces the AltGr character itself.
  if (n.altGraph) return null;

  if (ctrl) {
    // Non-Latin layouts: use the physical key's Latin letter or digit.
    if (ch.length !== 1 || ch.charCodeAt(0) > 0x7e) {
      const fromCode = charFromCode(code, shift);
      if (fromCode === null) return null;
      ch = fromCode;
    }
    // Ctrl+Shift+letter is the same control character as Ctrl+letter in
    // xterm; leave it to the browser (Ctrl+Shift+I devtools, ...).
    if (shift && !alt && isAsciiLetter(ch)) return null;
    const c = controlCharacter(ch);
    if (c === null) return null; // Ctrl+=, Ctrl+- (zoom), Ctrl+1 (tabs)...
    return altPrefix(c);
  }

  if (alt) {
    if (options.isMac) {
      // Option composes characters unless it is configured as Meta; then
      // the physical key's plain character is wanted, not the composed one.
      if (!options.macOptionIsMeta) return null;
      ch = charFromCode(code, shift) ?? ch;
    }
    return altSendsEscape ? ESC + ch : null;
  }
  // Plain or shifted text (including Space): the input event sends it.
  return null;
}

/**
 * Wrap pasted text for the PTY: newlines (`\r\n`, `\n`) become `\r` as if
 * typed. In bracketed-paste mode (?2004) the text is wrapped in
 * `ESC[200~` ... `ESC[201~`, and any bracket markers and ESC (and C1 CSI)
 * characters inside it are removed, so pasted text cannot end the bracket
 * early and smuggle in keystrokes.
 */
export function encodePaste(text: string, bracketed: boolean): string {
  let s = text.replace(/\r\n|\n/g, "\r");
  if (!bracketed) return s;
  // Removing a marker could join its neighbours into a new one: repeat.
  let prev: string;
  do {
    prev = s;
    // deno-lint-ignore no-control-regex
    s = s.replace(/(?:\x1b\[|\x9b)20[01]~/g, "");
  } while (s !== prev);
  // deno-lint-ignore no-control-regex
  s = s.replace(/[\x1b\x9b]/g, "");
  return `${CSI}200~${s}${CSI}201~`;
}

/** Focus report for ?1004: `ESC[I` on focus, `ESC[O` on blur. */
export function encodeFocus(focused: boolean): string {
  return focused ? CSI + "I" : CSI + "O";
}
