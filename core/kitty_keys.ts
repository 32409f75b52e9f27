/**
 * The kitty keyboard protocol (progressive enhancement): how a key event is
 * encoded while a program has set kitty keyboard flags (`CSI = flags u`,
 * `CSI > flags u`). Pure data in, a string of code points out.
 *
 * Flags: 1 disambiguate escape codes, 2 report event types (press, repeat,
 * release), 4 report alternate keys (shifted and base-layout key), 8 report
 * all keys as escape codes (text keys and lone modifiers too), 16 report
 * associated text. The main form is
 * `CSI key[:shifted[:base]] ; mods[:event] ; text u`, with `CSI 1;mods X`
 * and `CSI n;mods ~` kept for the keys that have them. Modifier bits are
 * shift 1, alt 2, ctrl 4, super 8 (the browser's Meta/Cmd key), caps lock 64
 * and num lock 128, sent as 1 + bits.
 *
 * @module
 */
import type { KeyOptions, KeyPress } from "./key_press.ts";
import type { InputModes } from "./terminal_view.ts";

/** Kitty progressive-enhancement flags. */
export const KITTY_DISAMBIGUATE = 1;
export const KITTY_REPORT_EVENTS = 2;
export const KITTY_REPORT_ALTERNATES = 4;
export const KITTY_REPORT_ALL_KEYS = 8;
export const KITTY_REPORT_TEXT = 16;
/** All flags this terminal knows; others are dropped when set. */
export const KITTY_ALL_FLAGS = 31;

const SHIFT = 1, ALT = 2, CTRL = 4, SUPER = 8, CAPS_LOCK = 64, NUM_LOCK = 128;
const LOCKS = CAPS_LOCK | NUM_LOCK;

const PRESS = 1, REPEAT = 2, RELEASE = 3;

const ESC = "\x1b";
const CSI = "\x1b[";
const SS3 = "\x1bO";

/** Functional keys by `KeyboardEvent.key`: [number, final byte]. */
const FUNCTIONAL: Readonly<Record<string, readonly [number, string]>> = {
  Escape: [27, "u"],
  Enter: [13, "u"],
  Tab: [9, "u"],
  Backspace: [127, "u"],
  Insert: [2, "~"],
  Delete: [3, "~"],
  ArrowLeft: [1, "D"],
  ArrowRight: [1, "C"],
  ArrowUp: [1, "A"],
  ArrowDown: [1, "B"],
  PageUp: [5, "~"],
  PageDown: [6, "~"],
  Home: [1, "H"],
  End: [1, "F"],
  CapsLock: [57358, "u"],
  ScrollLock: [57359, "u"],
  NumLock: [57360, "u"],
  PrintScreen: [57361, "u"],
  Pause: [57362, "u"],
  ContextMenu: [57363, "u"],
  F1: [1, "P"],
  F2: [1, "Q"],
  // Not CSI R: that is also the cursor position report.
  F3: [13, "~"],
  F4: [1, "S"],
  F5: [15, "~"],
  F6: [17, "~"],
  F7: [18, "~"],
  F8: [19, "~"],
  F9: [20, "~"],
  F10: [21, "~"],
  F11: [23, "~"],
  F12: [24, "~"],
  MediaPlay: [57428, "u"],
  MediaPause: [57429, "u"],
  MediaPlayPause: [57430, "u"],
  MediaStop: [57432, "u"],
  MediaFastForward: [57433, "u"],
  MediaRewind: [57434, "u"],
  MediaTrackNext: [57435, "u"],
  MediaTrackPrevious: [57436, "u"],
  MediaRecord: [57437, "u"],
  AudioVolumeDown: [57438, "u"],
  AudioVolumeUp: [57439, "u"],
  AudioVolumeMute: [57440, "u"],
};
// F13..F35 are 57376..57398.
const F13 = 57376;

/** Keypad keys with NumLock off (named), by `key`: their KP_ number. */
const KEYPAD_NAMED: Readonly<Record<string, number>> = {
  Enter: 57414,
  ArrowLeft: 57417,
  ArrowRight: 57418,
  ArrowUp: 57419,
  ArrowDown: 57420,
  PageUp: 57421,
  PageDown: 57422,
  Home: 57423,
  End: 57424,
  Insert: 57425,
  Delete: 57426,
  Clear: 57427, // KP_BEGIN, sent as CSI 1;m E like kitty
};

/** Keypad keys that produce characters, by `code`: KP_ number. */
const KEYPAD_CHAR: Readonly<Record<string, number>> = {
  Numpad0: 57399,
  Numpad1: 57400,
  Numpad2: 57401,
  Numpad3: 57402,
  Numpad4: 57403,
  Numpad5: 57404,
  Numpad6: 57405,
  Numpad7: 57406,
  Numpad8: 57407,
  Numpad9: 57408,
  NumpadDecimal: 57409,
  NumpadDivide: 57410,
  NumpadMultiply: 57411,
  NumpadSubtract: 57412,
  NumpadAdd: 57413,
  NumpadEqual: 57415,
  NumpadComma: 57416, // KP_SEPARATOR
};

/** Modifier keys by `code` (reported only with flag 8). */
const MODIFIER_CODES: Readonly<Record<string, number>> = {
  ShiftLeft: 57441,
  ControlLeft: 57442,
  AltLeft: 57443,
  MetaLeft: 57444,
  OSLeft: 57444,
  ShiftRight: 57447,
  ControlRight: 57448,
  AltRight: 57449,
  MetaRight: 57450,
  OSRight: 57450,
};
const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "OS"]);
const ISO_LEVEL3_SHIFT = 57453;

/** US (PC-101) layout: unshifted and shifted character of a physical key. */
const US_LAYOUT: Readonly<Record<string, readonly [string, string]>> = {
  Backquote: ["`", "~"],
  Minus: ["-", "_"],
  Equal: ["=", "+"],
  BracketLeft: ["[", "{"],
  BracketRight: ["]", "}"],
  Backslash: ["\\", "|"],
  IntlBackslash: ["\\", "|"],
  Semicolon: [";", ":"],
  Quote: ["'", '"'],
  Comma: [",", "<"],
  Period: [".", ">"],
  Slash: ["/", "?"],
  Space: [" ", " "],
};
const DIGIT_SHIFTED = ")!@#$%^&*(";

/** The US-layout character of physical key `code`, unshifted or shifted. */
export function usLayoutChar(code: string, shifted: boolean): string | null {
  let m = /^Key([A-Z])$/.exec(code);
  if (m) return shifted ? m[1] : m[1].toLowerCase();
  m = /^Digit([0-9])$/.exec(code);
  if (m) return shifted ? DIGIT_SHIFTED[Number(m[1])] : m[1];
  const pair = US_LAYOUT[code];
  return pair ? pair[shifted ? 1 : 0] : null;
}

/** Keys whose legacy Ctrl/Alt/Shift encodings kitty keeps (US ASCII keys). */
const LEGACY_ASCII = new Set(
  "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*()`~-_=+[{]}\\|;:'\",<.>/? "
    .split("").map((c) => c.codePointAt(0)!),
);

/** Kitty's Ctrl mapping of ASCII keys (a superset of the VT100 table). */
function kittyCtrl(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (ch >= "a" && ch <= "z") return cp - 0x60;
  switch (ch) {
    case " ":
    case "2":
    case "@":
      return 0;
    case "3":
    case "[":
      return 27;
    case "4":
    case "\\":
      return 28;
    case "5":
    case "]":
      return 29;
    case "6":
    case "^":
    case "~":
      return 30;
    case "7":
    case "/":
    case "_":
      return 31;
    case "8":
    case "?":
      return 127;
  }
  return cp;
}

/** What a key event is, for the kitty encoder. */
interface KittyKey {
  /** Key number: Unicode code point (unshifted) or a functional number. */
  number: number;
  /** Final byte: "u", "~" or a letter (CSI 1;m X keys). */
  final: string;
  /** A functional key (its own encoding rules) rather than a text key. */
  functional: boolean;
  /** A lone modifier key (reported with flag 8 only). */
  modifier: boolean;
  /** Keypad keys: the plain key they count as without disambiguation. */
  plainTwin: { number: number; final: string; functional: boolean } | null;
  /** Shifted key (0: none). */
  shifted: number;
  /** Key at the same place on a US layout (0: none or the same). */
  base: number;
  /** Text the key produces ("" for none). */
  text: string;
  /** Modifier bits used up in producing `text` (AltGr, macOS Option). */
  consumed: number;
}

const cp = (s: string) => s.codePointAt(0)!;
const single = (s: string) => s !== "" && [...s].length === 1;

/** Classify the key of `k`, or null if the protocol has no number for it. */
function identify(k: KeyPress, options: KeyOptions): KittyKey | null {
  const key = k.key;
  const none = {
    shifted: 0,
    base: 0,
    text: "",
    consumed: 0,
    modifier: false,
    plainTwin: null,
  };
  if (MODIFIER_KEYS.has(key) || key === "AltGraph") {
    const number = key === "AltGraph"
      ? ISO_LEVEL3_SHIFT
      : MODIFIER_CODES[k.code] ?? MODIFIER_CODES[`${key}Left`];
    if (number === undefined) return null;
    return { ...none, number, final: "u", functional: true, modifier: true };
  }
  const isKeypad = k.code.startsWith("Numpad");
  if (key.length > 1 && /^[A-Z][A-Za-z0-9]*$/.test(key)) {
    if (isKeypad && key in KEYPAD_NAMED) {
      if (key === "Clear") {
        return { ...none, number: 1, final: "E", functional: true };
      }
      const plain = FUNCTIONAL[key];
      return {
        ...none,
        number: KEYPAD_NAMED[key],
        final: "u",
        functional: true,
        plainTwin: { number: plain[0], final: plain[1], functional: true },
      };
    }
    const f = /^F([0-9]+)$/.exec(key);
    if (f && Number(f[1]) >= 13 && Number(f[1]) <= 35) {
      return {
        ...none,
        number: F13 + Number(f[1]) - 13,
        final: "u",
        functional: true,
      };
    }
    if (key === "Clear") {
      return { ...none, number: 1, final: "E", functional: true };
    }
    const entry = FUNCTIONAL[key];
    if (entry === undefined) return null;
    return { ...none, number: entry[0], final: entry[1], functional: true };
  }
  if (!single(key)) return null; // Dead, Process, "" ...

  const shift = k.shiftKey;
  let consumed = 0;
  let textOk = !k.ctrlKey && !k.altKey && !k.metaKey;
  let ch = key;
  if (k.altGraph) {
    // AltGr (Ctrl+Alt on Windows) produced this character.
    consumed = CTRL | ALT;
    textOk = !k.metaKey;
  } else if (k.altKey && options.isMac && !options.macOptionIsMeta) {
    // macOS Option composes characters (Option+a is å).
    consumed = ALT;
    textOk = !k.ctrlKey && !k.metaKey;
    ch = usLayoutChar(k.code, false) ?? key;
  }
  // The key number is the unshifted key: lower case, or the US layout's
  // unshifted character when the shifted one is what was typed.
  let base = ch;
  if (shift || base.toLowerCase() !== base) {
    const lower = base.toLowerCase();
    if (lower !== base && single(lower)) base = lower;
    else if (usLayoutChar(k.code, true) === base) {
      base = usLayoutChar(k.code, false)!;
    }
  }
  const number = cp(base);
  const shifted = shift && ch !== base ? cp(ch) : 0;
  const us = usLayoutChar(k.code, false);
  const baseLayout = us !== null && cp(us) !== number ? cp(us) : 0;
  const text = textOk && cp(key) >= 0x20 && cp(key) !== 0x7f ? key : "";
  if (isKeypad && k.code in KEYPAD_CHAR) {
    return {
      number: KEYPAD_CHAR[k.code],
      final: "u",
      functional: false,
      modifier: false,
      plainTwin: { number, final: "u", functional: false },
      shifted: 0,
      base: 0,
      text,
      consumed,
    };
  }
  return {
    number,
    final: "u",
    functional: false,
    modifier: false,
    plainTwin: null,
    shifted,
    base: baseLayout,
    text,
    consumed,
  };
}

/** The pieces of one `CSI ... final` key report. */
interface Report {
  number: number;
  final: string;
  /** [shifted, base] or null. */
  alternates: [number, number] | null;
  /** Modifier bits (sent as 1 + bits when non-zero). */
  mods: number;
  /** Event type, or 0 to leave it out. */
  event: number;
  text: string;
}

function serialize(r: Report): string {
  const second = r.mods !== 0 || r.event !== 0;
  const third = r.text !== "";
  let s = CSI;
  if (r.number !== 1 || r.alternates !== null || second || third) {
    s += r.number;
  }
  if (r.alternates !== null) {
    const [shifted, base] = r.alternates;
    s += ":" + (shifted ? shifted : "") + (base ? `:${base}` : "");
  }
  if (second || third) {
    s += ";";
    if (second) s += r.mods + 1;
    if (r.event !== 0) s += `:${r.event}`;
  }
  if (third) s += ";" + [...r.text].map((c) => cp(c)).join(":");
  return s + r.final;
}

/**
 * Bytes for key event `k` (a keydown, or a keyup when `k.type` says so)
 * under kitty flags `modes.kittyFlags` (non-zero), or null when nothing
 * is sent or the text arrives through the input event.
 */
export function encodeKitty(
  k: KeyPress,
  modes: InputModes,
  options: KeyOptions = {},
): string | null {
  const flags = modes.kittyFlags;
  const disambiguate = (flags & KITTY_DISAMBIGUATE) !== 0;
  const events = (flags & KITTY_REPORT_EVENTS) !== 0;
  const alternates = (flags & KITTY_REPORT_ALTERNATES) !== 0;
  const allKeys = (flags & KITTY_REPORT_ALL_KEYS) !== 0;
  const embedText = (flags & KITTY_REPORT_TEXT) !== 0;
  const action = k.type === "keyup" ? RELEASE : k.repeat ? REPEAT : PRESS;
  if (action === RELEASE && !events) return null;

  const found = identify(k, options);
  if (found === null) return null;
  let key = found;
  if (key.modifier && !allKeys) return null;
  const mods = ((k.shiftKey ? SHIFT : 0) | (k.altKey ? ALT : 0) |
    (k.ctrlKey ? CTRL : 0) | (k.metaKey ? SUPER : 0) |
    (k.capsLock ? CAPS_LOCK : 0) | (k.numLock ? NUM_LOCK : 0)) &
    ~key.consumed;
  const text = action === RELEASE ? "" : key.text;
  // Text goes through the input event unless every key is reported.
  if (!allKeys && text !== "") return null;

  // Without disambiguation, keypad keys are their plain twins.
  if (!disambiguate && !allKeys && key.plainTwin !== null) {
    key = { ...key, ...key.plainTwin, plainTwin: null };
  }
  if (key.functional) {
    return encodeFunctional(k.key, key, mods, action, modes, flags);
  }

  const event = events && action !== PRESS ? action : 0;
  const shiftedOrBase = (key.shifted !== 0 && (mods & SHIFT) !== 0) ||
    key.base !== 0;
  const alt: [number, number] | null = alternates && shiftedOrBase
    ? [(mods & SHIFT) !== 0 ? key.shifted : 0, key.base]
    : null;
  const embedded = embedText ? text : "";
  if (event === 0 && alt === null && embedded === "") {
    if (mods === 0) {
      if (!allKeys) return String.fromCodePoint(key.number);
    } else if (!disambiguate && !allKeys) {
      const legacy = legacyText(key.number, key.shifted, mods) ??
        (key.base !== 0 && !LEGACY_ASCII.has(key.number) &&
            LEGACY_ASCII.has(key.base) &&
            (mods === CTRL || mods === ALT || mods === (CTRL | ALT))
          ? legacyText(key.base, 0, mods)
          : null);
      if (legacy !== null) return legacy;
    }
  }
  return serialize({
    number: key.number,
    final: "u",
    alternates: alt,
    mods,
    event,
    text: embedded,
  });
}

/** Kitty's legacy encoding of an ASCII key with Shift/Alt/Ctrl, or null. */
function legacyText(
  number: number,
  shifted: number,
  mods: number,
): string | null {
  if (!LEGACY_ASCII.has(number) && !(shifted && LEGACY_ASCII.has(shifted))) {
    return null;
  }
  let key = number;
  let m = mods;
  if (m & SHIFT) {
    const isLower = number >= 0x61 && number <= 0x7a;
    if (shifted && shifted !== key && (!(m & CTRL) || !isLower)) {
      key = shifted;
      m &= ~SHIFT;
    }
  }
  const ch = (c: number) => String.fromCodePoint(c);
  if (mods === SHIFT) return ch(key);
  if (m === ALT) return ESC + ch(key);
  if (m === CTRL) return ch(kittyCtrl(key));
  if (m === (CTRL | ALT)) return ESC + ch(kittyCtrl(key));
  if (key === 0x20) {
    if (m === (CTRL | SHIFT)) return "\x00";
    if (m === (ALT | SHIFT)) return ESC + " ";
  }
  return null;
}

/** Functional keys (arrows, F-keys, Enter, Escape, keypad, modifiers...). */
function encodeFunctional(
  name: string,
  key: KittyKey,
  mods: number,
  action: number,
  modes: InputModes,
  flags: number,
): string | null {
  const disambiguate = (flags & KITTY_DISAMBIGUATE) !== 0;
  const events = (flags & KITTY_REPORT_EVENTS) !== 0;
  const allKeys = (flags & KITTY_REPORT_ALL_KEYS) !== 0;
  const legacyMode = !events && !disambiguate && !allKeys;
  const isKeypad = key.number >= 57399 && key.number <= 57427;
  const plainName = isKeypad ? null : name;

  if (modes.applicationCursorKeys && legacyMode && mods === 0) {
    if (
      key.final !== "u" && key.number === 1 && "ABCDEFH".includes(key.final)
    ) {
      return SS3 + key.final;
    }
  }
  // Enter, Tab and Backspace keep their bytes (so `reset` can be typed
  // after a crash) unless every key is reported; they have no release.
  const c0 = !allKeys && (mods & ~LOCKS) === 0
    ? ({ Enter: "\r", Tab: "\t", Backspace: "\x7f" } as Record<string, string>)[
      plainName ?? ""
    ]
    : undefined;
  if (mods === 0) {
    // (Not on release: kitty's legacy ESC would arrive twice.)
    if (
      !disambiguate && !allKeys && plainName === "Escape" &&
      action !== RELEASE
    ) return ESC;
    if (legacyMode && key.number === 1 && "PQS".includes(key.final)) {
      return SS3 + key.final;
    }
    if (legacyMode && plainName === "F3") return SS3 + "R";
  } else if (legacyMode) {
    const prefix = mods & ALT ? ESC : "";
    switch (plainName) {
      case "Enter":
        return prefix + "\r";
      case "Escape":
        return prefix + ESC;
      case "Backspace":
        return prefix + (mods & CTRL ? "\x08" : "\x7f");
      case "Tab":
        return mods & SHIFT ? prefix + CSI + "Z" : prefix + "\t";
    }
  }
  if (c0 !== undefined) return action === RELEASE ? null : c0;
  let number = key.number, final = key.final;
  // The Menu key is xterm's F16 in legacy mode.
  if (plainName === "ContextMenu" && legacyMode) {
    number = 29;
    final = "~";
  }
  return serialize({
    number,
    final,
    alternates: null,
    mods,
    event: events && action !== PRESS ? action : 0,
    text: "",
  });
}
