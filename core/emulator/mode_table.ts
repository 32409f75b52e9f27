/**
 * Every ANSI mode (SM/RM `CSI Pm h/l`) and DEC private mode (DECSET/DECRST
 * `CSI ? Pm h/l`), one table entry each: how it is set and reset, and what
 * DECRQM reports. XTSAVE (`CSI ? Pm s`) saves what the entry reports (set
 * or not); XTRESTORE (`CSI ? Pm r`) sets it back through the same entry.
 * The values live in {@link Modes} (`modes.ts`); a mode with side effects
 * (screens, origin, margins) does them in its `set`.
 *
 * @module
 */
// deno-fmt-ignore-file -- a table reads best in aligned columns
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { restoreCursor, saveCursor, setPosition } from "./cursor.ts";
import { eraseRow } from "./erase.ts";
import { csiReply } from "./replies.ts";
import {
  ModeReport,
  type Modes,
  PLAIN_FLAG_MODES,
  plainFlag,
  setPlainFlag,
} from "./modes.ts";
import { resetMargins } from "./scroll_region.ts";
import { activate } from "./state.ts";
import { ELEMENT_EVENTS_MODE, setElementEvents } from "./element_events.ts";
import { enterVt52 } from "./vt52.ts";
import { requestSize } from "./window_ops.ts";

/** One mode. */
export interface ModeEntry {
  /** The mode number (`Pm`). */
  mode: number;
  /** DEC private (`CSI ? Pm h`) or ANSI (`CSI Pm h`). */
  dec: boolean;
  /** Mnemonic, e.g. "DECCKM". */
  name: string;
  /** What it does, for docs/escapes.md. */
  summary: string;
  /** DECRQM's answer. */
  report(t: Emulator): ModeReport;
  /** Set (`on`) or reset it. Absent: the mode is permanent and `h`/`l` do nothing. */
  set?(t: Emulator, on: boolean): void;
}

type FlagName = {
  [K in keyof Modes]: Modes[K] extends boolean ? K : never;
}[keyof Modes];

const b = (on: boolean): ModeReport => on ? ModeReport.Set : ModeReport.Reset;

/** A DEC mode that is a plain flag of {@link Modes}; a change is reported as a "modes" event unless `quiet`. */
function flag(mode: number, name: string, key: FlagName, summary: string, quiet = false): ModeEntry {
  return {
    mode, dec: true, name, summary,
    report: (t) => b(t.s.modes[key]),
    set: (t, on) => {
      const m = t.s.modes;
      const old = m[key];
      m[key] = on;
      if (old !== on && !quiet) t.emit({ type: "modes" });
    },
  };
}

function dec(mode: number, name: string, summary: string, report: (t: Emulator) => ModeReport, set?: (t: Emulator, on: boolean) => void): ModeEntry {
  return { mode, dec: true, name, summary, report, set };
}

function ansi(mode: number, name: string, summary: string, report: (t: Emulator) => ModeReport, set?: (t: Emulator, on: boolean) => void): ModeEntry {
  return { mode, dec: false, name, summary, report, set };
}

const permanentlyReset = () => ModeReport.PermanentlyReset;

/** `entry` whose set and reset work only from conformance level `level` (as xterm gates them). */
function atLevel(level: number, entry: ModeEntry): ModeEntry {
  const set = entry.set!;
  return { ...entry, set: (t, on) => { if (t.s.modes.vtLevel >= level) set(t, on); } };
}

/** ?9 / ?1000 / ?1002 / ?1003: one of them at a time. */
function mouseTracking(mode: 9 | 1000 | 1002 | 1003, name: string, summary: string): ModeEntry {
  return dec(mode, name, summary, (t) => b(t.s.modes.mouseTracking === mode), (t, on) => {
    t.s.modes.mouseTracking = on ? mode : 0;
    t.emit({ type: "modes" });
  });
}

/** ?1005 / ?1006 / ?1015 / ?1016: one encoding at a time; resetting another one leaves it. */
function mouseEncoding(mode: 1005 | 1006 | 1015 | 1016, name: string, summary: string): ModeEntry {
  return dec(mode, name, summary, (t) => b(t.s.modes.mouseEncoding === mode), (t, on) => {
    const m = t.s.modes;
    if (on) m.mouseEncoding = mode;
    else if (m.mouseEncoding === mode) m.mouseEncoding = 0;
    t.emit({ type: "modes" });
  });
}

/** ?2027: set or reset, or permanently so when the setting fixes it ("always", "never"). */
function graphemeReport(t: Emulator): ModeReport {
  const m = t.s.modes;
  if (m.graphemeSetting === 2) return ModeReport.PermanentlySet;
  if (m.graphemeSetting === 3) return ModeReport.PermanentlyReset;
  return b(m.graphemes);
}

function setGraphemes(t: Emulator, on: boolean): void {
  const m = t.s.modes;
  if (m.graphemeSetting < 2) m.graphemes = on;
  t.s.joinNext = false;
}

/** Show the alternate (`alt`) or the normal screen, clearing the alternate one first with `clearAlt`. */
export function switchScreen(t: Emulator, alt: boolean, clearAlt: boolean): void {
  const s = t.s;
  if (alt && clearAlt) s.alt.buffer.clearScreen(s.pen.bg);
  const target = alt ? s.alt : s.normal;
  s.modes.altScreen = alt;
  s.modes.kittyFlags = s.kitty.flags(alt); // one stack per screen
  if (target === s.screen) return;
  activate(s, target);
  s.wrapPending = false;
  for (let y = 0; y < s.rows; y++) target.buffer.screenLine(y).dirty = true;
  t.emit({ type: "buffer" });
}

/**
 * DECCOLM: with ?40, 132 (set) or 80 columns: the model at once, and the
 * window is asked to follow (`requestSize`: it shrinks its font so that
 * 132 columns fit, and back at 80 restores it); the margins are reset, the cursor homed and, unless DECNCSM (?95), the screen
 * cleared.
 */
function deccolm(t: Emulator, on: boolean): void {
  const s = t.s;
  if (!s.modes.allow132) return; // only with ?40, as xterm
  s.modes.column132 = on;
  resetMargins(s);
  s.modes.leftRightMargins = false;
  if (!s.modes.noClearOnColumnChange) {
    for (let y = 0; y < s.rows; y++) eraseRow(s, s.buf.screenLine(y), 0, s.cols, false);
  }
  // The model is 80 or 132 columns wide at once; the window follows.
  requestSize(t, on ? 132 : 80, s.rows);
  s.x = 0;
  s.y = 0;
  s.wrapPending = false;
}

function decom(t: Emulator, on: boolean): void {
  t.s.modes.origin = on;
  setPosition(t.s, 1, 1);
}

function declrmm(t: Emulator, on: boolean): void {
  const s = t.s;
  if (s.modes.vtLevel < 4) return; // a VT400 feature
  s.modes.leftRightMargins = on;
  if (!on) {
    s.left = 0;
    s.right = s.cols - 1;
  }
}

function decawm(t: Emulator, on: boolean): void {
  t.s.modes.autowrap = on;
  if (!on) t.s.wrapPending = false;
}

function altScreen1047(t: Emulator, on: boolean): void {
  if (on) return switchScreen(t, true, false);
  if (t.s.buf.isAlt) t.s.alt.buffer.clearScreen(t.s.pen.bg);
  switchScreen(t, false, false);
}

function saveCursor1048(t: Emulator, on: boolean): void {
  if (on) saveCursor(t.s);
  else restoreCursor(t.s);
}

function altScreen1049(t: Emulator, on: boolean): void {
  if (on) {
    if (!t.s.buf.isAlt) saveCursor(t.s);
    switchScreen(t, true, true);
  } else if (t.s.buf.isAlt) {
    switchScreen(t, false, false);
    restoreCursor(t.s);
  }
}

const altScreen = (t: Emulator) => b(t.s.modes.altScreen);

/** Every mode we know, DEC private and ANSI. */
export const MODES: readonly ModeEntry[] = [
  //   mode  name        key / report                   summary
  flag(1,    "DECCKM",   "applicationCursorKeys",       "Application cursor keys"),
  dec(2,     "DECANM",   "ANSI mode; reset enters VT52 mode (`ESC <` leaves it; see VT52 mode below)", (t) => b(!t.s.modes.vt52), (t, on) => { if (!on) enterVt52(t); }),
  dec(3,     "DECCOLM",  "132 or 80 columns, honoured with ?40: the model at once, the window follows (a smaller font for 132), resets the margins, homes the cursor, clears the screen unless ?95", (t) => b(t.s.modes.column132), deccolm),
  flag(4,    "DECSCLM",  "smoothScroll",                "Smooth scrolling (reported only: scrolling is immediate)", true),
  flag(5,    "DECSCNM",  "reverseVideo",                "Reverse video screen"),
  dec(6,     "DECOM",    "Origin mode: addressing relative to the margins; homes the cursor", (t) => b(t.s.modes.origin), decom),
  dec(7,     "DECAWM",   "Autowrap (reset cancels a pending wrap)", (t) => b(t.s.modes.autowrap), decawm),
  flag(8,    "DECARM",   "autoRepeat",                  "Auto-repeat (reported only: the browser repeats keys)", true),
  mouseTracking(9,       "X10_MOUSE", "X10 mouse: report button presses"),
  flag(12,   "ATT610",   "cursorBlink",                 "Blinking cursor"),
  flag(25,   "DECTCEM",  "cursorVisible",               "Cursor visible"),
  flag(40,   "XTERM_132", "allow132",                   "Allow DECCOLM (?3)"),
  atLevel(2, flag(42,   "DECNRCM",  "nationalCharsets",  "National replacement character sets may be designated (from level 2, as xterm)")),
  dec(45,    "REVERSE_WRAP", "Reverse wraparound: BS and CUB at the left margin go to the end of the previous line", (t) => b(t.s.modes.reverseWrap), (t, on) => { t.s.modes.reverseWrap = on; }),
  dec(47,    "ALTBUF",   "Alternate screen (not cleared)", altScreen, (t, on) => switchScreen(t, on, false)),
  dec(60,    "DECHCCM",  "Horizontal cursor coupling (no horizontal panning: permanently reset, as esctest2 expects)", permanentlyReset),
  flag(66,   "DECNKM",   "applicationKeypad",           "Application keypad"),
  flag(67,   "DECBKM",   "backarrowBs",                 "Backspace sends BS (set) or DEL (reset, the default)"),
  dec(69,    "DECLRMM",  "Left and right margins (DECSLRM) enabled; reset drops them", (t) => b(t.s.modes.leftRightMargins), declrmm),
  flag(80,   "DECSDM",   "sixelDisplay",                "Sixel scrolling off: an alternate-screen sixel goes at the top-left, the cursor stays", true),
  atLevel(5, flag(95,   "DECNCSM",  "noClearOnColumnChange", "DECCOLM does not clear the screen (set and reset from level 5, as xterm)", true)),
  mouseTracking(1000,    "VT200_MOUSE", "Mouse: report presses and releases"),
  mouseTracking(1002,    "BTN_EVENT_MOUSE", "Mouse: also report motion with a button down"),
  mouseTracking(1003,    "ANY_EVENT_MOUSE", "Mouse: report all motion"),
  flag(1004, "FOCUS_EVENT", "sendFocus",                "Send focus in/out (CSI I / CSI O)"),
  mouseEncoding(1005,    "UTF8_MOUSE", "Mouse coordinates in UTF-8"),
  mouseEncoding(1006,    "SGR_MOUSE", "SGR mouse encoding (CSI < ... M/m)"),
  flag(1007, "ALTERNATE_SCROLL", "alternateScroll",     "The wheel sends cursor keys on the alternate screen"),
  mouseEncoding(1015,    "URXVT_MOUSE", "urxvt mouse encoding (CSI ... M)"),
  mouseEncoding(1016,    "SGR_PIXEL_MOUSE", "SGR mouse encoding with pixel coordinates"),
  flag(1045, "REVERSE_WRAP_EXT", "reverseWrapExtended",  "Extended reverse wraparound: from the top row to the bottom one", true),
  dec(1047,  "ALTBUF_1047", "Alternate screen; leaving it clears it", altScreen, altScreen1047),
  dec(1048,  "SAVE_CURSOR", "Set: save the cursor (DECSC); reset: restore it (DECRC)", (t) => b(t.s.screen.saved !== null), saveCursor1048),
  dec(1049,  "ALTBUF_1049", "Save the cursor and switch to a cleared alternate screen; reset switches back and restores it", altScreen, altScreen1049),
  flag(2004, "BRACKETED_PASTE", "bracketedPaste",       "Bracketed paste"),
  flag(2026, "SYNC_OUTPUT", "synchronizedOutput",       "Synchronized output: the renderer holds its frames"),
  dec(ELEMENT_EVENTS_MODE, "DT_EVENTS", "domterm: elements printed with `data-dt-event` send the program an `OSC 7101` line per click, toggle or change (docs/interactive.md); reset makes every element printed so far inert", (t) => b(t.s.modes.elementEvents), setElementEvents),
  dec(2027,  "GRAPHEME_CLUSTERS", "Grapheme clusters (emoji sequences in one cell); reset: `wcwidth` widths", graphemeReport, setGraphemes),
  ...PLAIN_FLAG_MODES.map(([mode, name, _dflt, summary], i) =>
    dec(mode, name, summary, (t) => b(plainFlag(t.s.modes, i)), (t, on) => setPlainFlag(t.s.modes, i, on))),

  ansi(1,    "GATM",     "Guarded area transfer (not supported)", permanentlyReset),
  ansi(2,    "KAM",      "Keyboard action: set locks the keyboard (the window drops typed keys)", (t) => b(t.s.modes.keyboardLocked), (t, on) => { t.s.modes.keyboardLocked = on; t.emit({ type: "modes" }); }),
  ansi(3,    "CRM",      "Show control characters (not supported; reported reset, not permanently, as xterm)", () => ModeReport.Reset),
  ansi(4,    "IRM",      "Insert mode", (t) => b(t.s.modes.insert), (t, on) => { t.s.modes.insert = on; }),
  ansi(5,    "SRTM",     "Status report transfer (not supported)", permanentlyReset),
  ansi(7,    "VEM",      "Vertical editing (not supported)", permanentlyReset),
  ansi(10,   "HEM",      "Horizontal editing (not supported)", permanentlyReset),
  ansi(11,   "PUM",      "Positioning unit (not supported)", permanentlyReset),
  ansi(12,   "SRM",      "Send/receive: set (the default) means no local echo; reset is reported only", (t) => b(t.s.modes.sendReceive), (t, on) => { t.s.modes.sendReceive = on; }),
  ansi(13,   "FEAM",     "Format effector action (not supported)", permanentlyReset),
  ansi(14,   "FETM",     "Format effector transfer (not supported)", permanentlyReset),
  ansi(15,   "MATM",     "Multiple area transfer (not supported)", permanentlyReset),
  ansi(16,   "TTM",      "Transfer termination (not supported)", permanentlyReset),
  ansi(17,   "SATM",     "Selected area transfer (not supported)", permanentlyReset),
  ansi(18,   "TSM",      "Tabulation stop (not supported)", permanentlyReset),
  ansi(19,   "EBM",      "Editing boundary (not supported)", permanentlyReset),
  ansi(20,   "LNM",      "Newline mode: LF also does CR, Enter sends CR LF", (t) => b(t.s.modes.newlineMode), (t, on) => { t.s.modes.newlineMode = on; t.emit({ type: "modes" }); }),
];

const DEC_MODES = new Map<number, ModeEntry>();
const ANSI_MODES = new Map<number, ModeEntry>();
for (const m of MODES) (m.dec ? DEC_MODES : ANSI_MODES).set(m.mode, m);

/** DECRQM's answer for a mode (0 when we do not know it). */
export function modeReport(t: Emulator, mode: number, isDec: boolean): ModeReport {
  const e = (isDec ? DEC_MODES : ANSI_MODES).get(mode);
  return e === undefined ? ModeReport.NotRecognized : e.report(t);
}

function setModes(t: Emulator, p: Params, isDec: boolean, on: boolean): void {
  const table = isDec ? DEC_MODES : ANSI_MODES;
  for (let i = 0; i < p.length; i++) table.get(p.get(i, 0))?.set?.(t, on);
}

// ------------------------------------------------------------ handlers

/** `CSI Pm h` SM: set ANSI modes. */
export function sm(t: Emulator, p: Params): void {
  setModes(t, p, false, true);
}
/** `CSI Pm l` RM: reset ANSI modes. */
export function rm(t: Emulator, p: Params): void {
  setModes(t, p, false, false);
}
/** `CSI ? Pm h` DECSET: set DEC private modes. */
export function decset(t: Emulator, p: Params): void {
  setModes(t, p, true, true);
}
/** `CSI ? Pm l` DECRST: reset DEC private modes. */
export function decrst(t: Emulator, p: Params): void {
  setModes(t, p, true, false);
}

/** `CSI Ps $ p` DECRQM (ANSI): report a mode as `CSI Ps ; Pm $ y`. */
export function decrqmAnsi(t: Emulator, p: Params): void {
  if (t.s.modes.vtLevel < 3) return; // a VT300 feature
  const mode = p.get(0, 0);
  t.send(csiReply(`${mode};${modeReport(t, mode, false)}$y`));
}
/** `CSI ? Ps $ p` DECRQM (DEC private): report a mode as `CSI ? Ps ; Pm $ y`. */
export function decrqmDec(t: Emulator, p: Params): void {
  if (t.s.modes.vtLevel < 3) return;
  const mode = p.get(0, 0);
  t.send(csiReply(`?${mode};${modeReport(t, mode, true)}$y`));
}

/** `CSI ? Pm s` XTSAVE: remember DEC private modes. */
export function xtsave(t: Emulator, p: Params): void {
  for (let i = 0; i < p.length; i++) {
    const mode = p.get(i, 0);
    const report = modeReport(t, mode, true);
    if (report !== ModeReport.NotRecognized) {
      t.s.savedModes.set(mode, report === ModeReport.Set);
    }
  }
}
/** `CSI ? Pm r` XTRESTORE: set DEC private modes back to what XTSAVE remembered. */
export function xtrestore(t: Emulator, p: Params): void {
  for (let i = 0; i < p.length; i++) {
    const mode = p.get(i, 0);
    const v = t.s.savedModes.get(mode);
    if (v !== undefined) DEC_MODES.get(mode)?.set?.(t, v);
  }
}
