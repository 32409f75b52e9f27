/**
 * Terminal modes (SM/RM `CSI Pm h/l`, DECSET/DECRST `CSI ? Pm h/l`) and
 * their DECRQM report values.
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
  /** ?40: DECCOLM (?3) is honoured (xterm's "allow 80/132 columns"; off by default). */
  allow132 = false;
  /** DECNRCM (?42): national replacement character sets may be designated. */
  nationalCharsets = false;
  /** Kitty keyboard flags of the active screen (kept by `kitty_keyboard.ts`). */
  kittyFlags = 0;
  /** xterm modifyOtherKeys level (`CSI > 4 ; Pv m`). */
  modifyOtherKeys: 0 | 1 | 2 = 0;
}

/** DEC private modes that are plain flags of {@link Modes} (no side effects). */
export const DEC_FLAG_MODES: Readonly<Record<number, keyof Modes>> = {
  1: "applicationCursorKeys",
  5: "reverseVideo",
  7: "autowrap",
  12: "cursorBlink",
  25: "cursorVisible",
  45: "reverseWrap",
  66: "applicationKeypad",
  40: "allow132",
  42: "nationalCharsets",
  1004: "sendFocus",
  1007: "alternateScroll",
  2004: "bracketedPaste",
  2026: "synchronizedOutput",
};

/**
 * DECRQM answer for DEC private mode `mode`. Modes xterm knows and we do
 * not let a program change answer "permanently" set or reset (what we
 * do); modes nobody here knows answer 0. `cursorSaved` is ?1048's state.
 */
export function decModeReport(
  modes: Modes,
  mode: number,
  cursorSaved = false,
): ModeReport {
  const flag = DEC_FLAG_MODES[mode];
  if (flag !== undefined) {
    return modes[flag] ? ModeReport.Set : ModeReport.Reset;
  }
  const b = (on: boolean) => on ? ModeReport.Set : ModeReport.Reset;
  switch (mode) {
    case 3:
      return b(modes.column132);
    case 6:
      return b(modes.origin);
    case 69:
      return b(modes.leftRightMargins);
    case 9:
    case 1000:
    case 1002:
    case 1003:
      return b(modes.mouseTracking === mode);
    case 1005:
    case 1006:
    case 1015:
    case 1016:
      return b(modes.mouseEncoding === mode);
    case 47:
    case 1047:
    case 1049:
      return b(modes.altScreen);
    case 1048:
      return b(cursorSaved);
    case 2: // DECANM: there is no VT52 mode
    case 8: // DECARM: the browser always auto-repeats
      return ModeReport.PermanentlySet;
    case 4: // DECSCLM: no smooth scrolling
    case 67: // DECBKM: Backspace sends DEL
      return ModeReport.PermanentlyReset;
    default:
      return ModeReport.NotRecognized;
  }
}

/**
 * DECRQM answer for ANSI mode `mode`: the modes xterm answers for, with
 * its values, except that KAM and CRM, which we cannot set, are
 * permanently reset, and SRM (no local echo) permanently set.
 */
export function ansiModeReport(modes: Modes, mode: number): ModeReport {
  switch (mode) {
    case 4: // IRM
      return modes.insert ? ModeReport.Set : ModeReport.Reset;
    case 20: // LNM
      return modes.newlineMode ? ModeReport.Set : ModeReport.Reset;
    case 12: // SRM
      return ModeReport.PermanentlySet;
    case 1: // GATM
    case 2: // KAM
    case 3: // CRM
    case 5: // SRTM
    case 7: // VEM
    case 10: // HEM
    case 11: // PUM
    case 13: // FEAM
    case 14: // FETM
    case 15: // MATM
    case 16: // TTM
    case 17: // SATM
    case 18: // TSM
    case 19: // EBM
      return ModeReport.PermanentlyReset;
    default:
      return ModeReport.NotRecognized;
  }
}
