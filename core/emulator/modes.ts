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
  1004: "sendFocus",
  1007: "alternateScroll",
  2004: "bracketedPaste",
  2026: "synchronizedOutput",
};

/** DECRQM answer for DEC private mode `mode`. */
export function decModeReport(modes: Modes, mode: number): ModeReport {
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
      return ModeReport.Reset;
    default:
      return ModeReport.NotRecognized;
  }
}

/** DECRQM answer for ANSI mode `mode`. */
export function ansiModeReport(modes: Modes, mode: number): ModeReport {
  switch (mode) {
    case 4:
      return modes.insert ? ModeReport.Set : ModeReport.Reset;
    case 20:
      return modes.newlineMode ? ModeReport.Set : ModeReport.Reset;
    case 2: // KAM: keyboard never locked
    case 12: // SRM: no local echo... reported as xterm does (permanently set)
      return mode === 2
        ? ModeReport.PermanentlyReset
        : ModeReport.PermanentlySet;
    default:
      return ModeReport.NotRecognized;
  }
}
