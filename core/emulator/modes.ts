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
}
