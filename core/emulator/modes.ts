/**
 * The values of the terminal's modes and the DECRQM report values. How each
 * mode is set, reset, saved and reported is its entry in `mode_table.ts`.
 *
 * @module
 */
import type { InputModes } from "../terminal_view.ts";

/** DECRQM `Pm` values. */
export const ModeReport = {
  NotRecognized: 0,
  Set: 1,
  Reset: 2,
  PermanentlySet: 3,
  PermanentlyReset: 4,
} as const;
/** One of the {@link ModeReport} values. */
export type ModeReport = typeof ModeReport[keyof typeof ModeReport];

/** Every mode the emulator keeps; the fields of {@link InputModes} included. */
export class Modes implements InputModes {
  /** IRM (4): insert instead of replace. */
  insert = false;
  /** LNM (20): LF, VT and FF also do CR; Enter sends CR LF. */
  newlineMode = false;
  /** DECCKM (?1). */
  applicationCursorKeys = false;
  /** DECANM (?2) reset: VT52 mode (`vt52.ts`). */
  vt52 = false;
  /** DECCOLM (?3): 132-column mode flag (the screen is not resized). */
  column132 = false;
  /** DECSCNM (?5). */
  reverseVideo = false;
  /** DECOM (?6): cursor addressing relative to the margins. */
  origin = false;
  /** DECAWM (?7). */
  autowrap = true;
  /** ?12 (and DECSCUSR): blinking cursor. */
  cursorBlink = false;
  /** DECTCEM (?25). */
  cursorVisible = true;
  /** ?45: reverse wraparound (BS at the left margin goes to the previous line). */
  reverseWrap = false;
  /** DECNKM (?66) / DECKPAM (ESC =) / DECKPNM (ESC >). */
  applicationKeypad = false;
  /** DECLRMM (?69): left and right margins (DECSLRM) enabled. */
  leftRightMargins = false;
  /** ?9 / ?1000 / ?1002 / ?1003. */
  mouseTracking: 0 | 9 | 1000 | 1002 | 1003 = 0;
  /** ?1005 / ?1006 / ?1015 / ?1016. */
  mouseEncoding: 0 | 1005 | 1006 | 1015 | 1016 = 0;
  /** ?1004. */
  sendFocus = false;
  /** ?47 / ?1047 / ?1049: the alternate screen is active. */
  altScreen = false;
  /** ?1007: the mouse wheel sends cursor up/down keys on the alternate screen. */
  alternateScroll = false;
  /** ?2004. */
  bracketedPaste = false;
  /** ?2026: the renderer should hold frames until this is reset. */
  synchronizedOutput = false;
  /**
   * ?7101: elements printed with `data-dt-event` send the program events
   * (`element_events.ts`, docs/interactive.md).
   */
  elementEvents = false;
  /**
   * ?2027: grapheme clusters (skin tones, ZWJ sequences, flags, VS16 join
   * into one cell of 1 or 2); reset: each code point its own `wcwidth`
   * cells (`core/unicode/clusters.ts`). Starts as {@link graphemeSetting}
   * says.
   */
  graphemes = false;
  /** ?40: DECCOLM (?3) is honoured (xterm's "allow 80/132 columns"; off by default). */
  allow132 = false;
  /**
   * DECSDM (?80) set: sixel scrolling off, a sixel image on the alternate
   * screen goes at the top-left and the cursor stays (xterm's sense).
   */
  sixelDisplay = false;
  /** DECNRCM (?42): national replacement character sets may be designated. */
  nationalCharsets = false;
  /** Kitty keyboard flags of the active screen (kept by `kitty_keyboard.ts`). */
  kittyFlags = 0;
  /** xterm modifyOtherKeys level (`CSI > 4 ; Pv m`). */
  modifyOtherKeys: 0 | 1 | 2 = 0;

  // Modes that only xterm's reports and a few behaviours depend on.
  /** KAM (2): the keyboard is locked (the window drops typed keys). */
  keyboardLocked = false;
  /** SRM (12): set = no local echo (xterm's default). */
  sendReceive = true;
  /** DECSCLM (?4): smooth scrolling (reported only). */
  smoothScroll = false;
  /** DECARM (?8): auto-repeat (reported only). */
  autoRepeat = true;
  /** DECBKM (?67): Backspace sends BS (set) or DEL (reset, Debian's xterm). */
  backarrowBs = false;
  /** DECNCSM (?95): DECCOLM does not clear the screen. */
  noClearOnColumnChange = false;
  /** ?1045: extended reverse wraparound (from the top row to the bottom). */
  reverseWrapExtended = false;
  /** xterm modes kept as plain flags (reported by DECRQM, no other effect): mode -> value, as a bit set by {@link PLAIN_FLAG_MODES} index. */
  plainFlags = 0;

  // Settings that are not modes, kept here so RIS resets them and the snapshot carries them.
  /** Conformance level (DECSCL): 1 (VT100) to 5 (VT500). */
  vtLevel = 5;
  /** S8C1T: replies use 8-bit C1 introducers. */
  c1Replies = false;
  /** XTSMTITLE bits: 1 set titles in hex, 2 report in hex, 4 set in UTF-8, 8 report in UTF-8. */
  titleModes = 0;
  /** XTWINOPS 2 / 1: the window is (reported) iconified. */
  iconified = false;
  /** XTWINOPS 3: the window position reported by `CSI 13 t`. */
  windowX = 0;
  windowY = 0;
  /** Protection the erases honour: 0 none yet, 1 DECSCA (selective erases only), 2 SPA/EPA (ED, EL, ECH too). */
  protectMode = 0;
  /** DECSACE was last given 0 (a stream, as 1): DECRQSS reports the 0, as xterm. */
  saceZero = false;
  /**
   * The `grapheme-clusters` setting, as an index of
   * {@link GRAPHEME_SETTINGS}: what {@link graphemes} starts as (and RIS
   * resets it to), and whether a program may change it. Kept through RIS.
   */
  graphemeSetting = 0;
}

/**
 * Values of the `grapheme-clusters` setting (mode 2027): "off" reset until
 * a program sets it, "on" set until a program resets it, "always" and
 * "never" fixed (DECRQM reports 3 and 4).
 */
export const GRAPHEME_SETTINGS = ["off", "on", "always", "never"] as const;
/** One of {@link GRAPHEME_SETTINGS}. */
export type GraphemeSetting = typeof GRAPHEME_SETTINGS[number];

/** Modes with the `grapheme-clusters` setting `setting` (an index of {@link GRAPHEME_SETTINGS}) applied, as at power-on and RIS. */
export function applyGraphemeSetting(m: Modes, setting: number): void {
  m.graphemeSetting = setting;
  m.graphemes = setting === 1 || setting === 2;
}

/**
 * xterm's modes that domterm keeps only so DECRQM reports them as xterm
 * does: [mode, xterm's default]. Their values are bits of
 * {@link Modes.plainFlags} (bit i: entry i differs from its default).
 */
export const PLAIN_FLAG_MODES: readonly [number, string, boolean, string][] = [
  [10, "RXVT_TOOLBAR", false, "Show the toolbar (reported only)"],
  [
    13,
    "CURSOR_BLINK_MENU",
    false,
    "Blinking cursor from the menu (reported only)",
  ],
  [14, "CURSOR_BLINK_XOR", false, "XOR of the blink settings (reported only)"],
  [18, "DECPFF", false, "Print form feed (reported only)"],
  [19, "DECPEX", false, "Print extent (reported only)"],
  [30, "RXVT_SCROLLBAR", false, "Show the scrollbar (reported only)"],
  [35, "RXVT_FONTSIZE", true, "Font-shifting keys (reported only)"],
  [38, "DECTEK", false, "Tektronix mode (reported only)"],
  [41, "MORE_FIX", false, "more(1) fix: HT after the last column wraps first"],
  [44, "MARGIN_BELL", false, "Margin bell (reported only)"],
  [46, "LOGGING", false, "Logging (reported only)"],
  [1001, "HILITE_MOUSE", false, "Highlight mouse tracking (reported only)"],
  [
    1010,
    "TTY_OUTPUT_SCROLL",
    true,
    "Scroll to the bottom on output (reported only)",
  ],
  [1011, "KEY_SCROLL", false, "Scroll to the bottom on a key (reported only)"],
  [1034, "EIGHT_BIT_META", false, "Meta sets the eighth bit (reported only)"],
  [
    1035,
    "NUM_LOCK",
    true,
    "Special modifiers for Alt and NumLock (reported only)",
  ],
  [1036, "META_ESC", false, "Meta sends ESC (reported only)"],
  [1037, "DELETE_IS_DEL", false, "Delete sends DEL (reported only)"],
  [1039, "ALT_ESC", false, "Alt sends ESC (reported only)"],
  [
    1040,
    "KEEP_SELECTION",
    true,
    "Keep the selection when not highlighted (reported only)",
  ],
  [
    1041,
    "SELECT_TO_CLIPBOARD",
    false,
    "Select to the clipboard (reported only)",
  ],
  [1042, "BELL_IS_URGENT", false, "Bell sets the urgency hint (reported only)"],
  [1043, "POP_ON_BELL", false, "Raise the window on a bell (reported only)"],
  [1044, "KEEP_CLIPBOARD", false, "Reuse the clipboard data (reported only)"],
  [
    1046,
    "TITE_INHIBIT",
    true,
    "Switching to the alternate screen allowed (reported only)",
  ],
  [
    1050,
    "TERMCAP_FKEYS",
    false,
    "terminfo/termcap function keys (reported only)",
  ],
  [1051, "SUN_FKEYS", false, "Sun function keys (reported only)"],
  [1052, "HP_FKEYS", false, "HP function keys (reported only)"],
  [1053, "SCO_FKEYS", false, "SCO function keys (reported only)"],
  [1060, "LEGACY_FKEYS", false, "Legacy keyboard emulation (reported only)"],
  [1061, "VT220_FKEYS", false, "VT220 keyboard emulation (reported only)"],
  [2001, "READLINE_BUTTON1", false, "readline: click to move (reported only)"],
  [
    2002,
    "READLINE_BUTTON2",
    false,
    "readline: paste with button 2 (reported only)",
  ],
  [
    2003,
    "READLINE_BUTTON3",
    false,
    "readline: kill with button 3 (reported only)",
  ],
  [
    2005,
    "PASTE_QUOTE",
    false,
    "readline: quote pasted controls (reported only)",
  ],
  [
    2006,
    "PASTE_LITERAL_NL",
    false,
    "readline: pasted newlines literally (reported only)",
  ],
  [
    1070,
    "PRIVATE_COLOR_REGISTERS",
    true,
    "Sixel images use private colour registers (reported only)",
  ],
  [
    8452,
    "SIXEL_CURSOR_RIGHT",
    false,
    "Cursor to the right of a sixel image (reported only)",
  ],
  // Appended: a snapshot's plainFlags bits are indexes into this list.
  [
    43,
    "DECGEPM",
    false,
    "Graphics expanded print mode (reported only: no printer)",
  ],
  // DEC modes whose effect domterm cannot show, so that either value is
  // true of it (DECRQM reports what was set, as a VT510 would).
  [
    61,
    "DECVCCM",
    true,
    "Vertical cursor coupling (reported only: one page, always in view)",
  ],
  [
    64,
    "DECPCCM",
    true,
    "Page cursor coupling (reported only: one page, always in view)",
  ],
  [73, "DECXRLM", false, "Transmit rate limiting (reported only: no line)"],
  [97, "DECCRTSM", false, "CRT saver (reported only: no CRT)"],
  [99, "DECMCM", false, "Modem control (reported only: no modem)"],
  [100, "DECAAM", false, "Auto answerback (reported only: no answerback)"],
  [
    101,
    "DECCANSM",
    false,
    "Conceal answerback (reported only: no answerback)",
  ],
  [
    102,
    "DECNULM",
    true,
    "Ignore NUL (reported only: NUL is never shown, and there is no printer)",
  ],
  [106, "DECOSCNM", false, "Overscan (reported only: no border to colour)"],
];

/** Whether plain flag `i` of {@link PLAIN_FLAG_MODES} is set. */
export function plainFlag(m: Modes, i: number): boolean {
  const differs = Math.floor(m.plainFlags / 2 ** i) % 2 === 1;
  return differs !== PLAIN_FLAG_MODES[i][2];
}
/** Set plain flag `i` of {@link PLAIN_FLAG_MODES}. */
export function setPlainFlag(m: Modes, i: number, on: boolean): void {
  const bit = 2 ** i;
  const differs = Math.floor(m.plainFlags / bit) % 2 === 1;
  if (differs !== (on !== PLAIN_FLAG_MODES[i][2])) {
    m.plainFlags += differs ? -bit : bit;
  }
}
