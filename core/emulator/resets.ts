/**
 * RIS (`ESC c`, full reset) and DECSTR (`CSI ! p`, soft reset).
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import { Buffer } from "../model/buffer.ts";
import type { Emulator } from "./context.ts";
import { applyGraphemeSetting, Modes } from "./modes.ts";
import { updateAttr } from "./pen.ts";
import { resetMargins } from "./scroll_region.ts";
import { defaultPen } from "./sgr.ts";
import { setElementEvents } from "./element_events.ts";
import { activate, homeCursor } from "./state.ts";
import { requestSize } from "./window_ops.ts";

/**
 * RIS without the parser: modes (title modes and the conformance level
 * too), charsets, tab stops, colours, rendition, margins, cursor, title
 * stack, kitty stacks and saved state back to power-on (the element-event
 * mode ?7101 off: what was printed under it is inert); the screen is
 * cleared, the history kept; after DECCOLM's 132 columns the window is
 * asked for 80.
 */
export function fullReset(t: Emulator): void {
  const s = t.s;
  const wasAlt = s.buf.isAlt;
  const was132 = s.modes.column132;
  // Before the modes go: what was printed under ?7101 becomes inert.
  setElementEvents(t, false);
  activate(s, s.normal);
  s.alt.buffer = new Buffer(s.cols, s.rows, 0, true);
  s.normal.buffer.clearScreen(0);
  const graphemeSetting = s.modes.graphemeSetting;
  s.modes = new Modes();
  applyGraphemeSetting(s.modes, graphemeSetting);
  s.charsets.reset();
  s.vt52Charsets = null;
  s.tabs.reset();
  s.colors.reset();
  s.pen = defaultPen();
  s.link = null;
  s.linkId = "";
  s.errorOutput = 0;
  s.pretty = null;
  updateAttr(s);
  resetMargins(s);
  s.x = 0;
  s.y = 0;
  s.wrapPending = false;
  s.cursorStyle = "block";
  s.titleStack = [];
  s.kitty.reset();
  s.savedModes.clear();
  s.normal.saved = homeCursor(); // xterm saves home
  s.alt.saved = null;
  s.rectExtent = false;
  s.lastChar = 0;
  s.joinNext = false;
  if (wasAlt) t.emit({ type: "buffer" });
  t.emit({ type: "modes" });
  // Back to 80 columns after DECCOLM's 132, as xterm.
  if (was132) requestSize(t, 80, s.rows);
}

/** `ESC c` RIS: full reset. */
export function ris(t: Emulator): void {
  t.fullReset();
}

/**
 * `CSI ! p` DECSTR: soft reset, what xterm's soft reset resets: cursor
 * shown with its default shape, margins and DECLRMM, DECOM, charsets,
 * DECSCA, DECCKM, DECKPAM, IRM, autowrap on (xterm's default, which
 * terminfo's is2 relies on), reverse wrap (?45, ?1045) off, the
 * rendition, the saved cursor (home with these defaults), and ours: the
 * element-event mode ?7101 (what was printed under it is inert). The cursor
 * does not move.
 */
export function decstr(t: Emulator, _p: Params): void {
  const s = t.s;
  setElementEvents(t, false);
  const m = s.modes;
  m.cursorVisible = true;
  m.cursorBlink = false;
  s.cursorStyle = "block";
  m.insert = false;
  m.origin = false;
  m.autowrap = true;
  m.applicationCursorKeys = false;
  m.applicationKeypad = false;
  m.reverseWrap = false;
  m.reverseWrapExtended = false; // as xterm (esctest2 test_DECSTR_ReverseWraparound)
  m.leftRightMargins = false;
  s.kitty.reset();
  m.kittyFlags = 0;
  resetMargins(s);
  s.charsets.reset();
  s.pen = defaultPen();
  s.link = null;
  s.linkId = "";
  updateAttr(s);
  s.screen.saved = homeCursor(); // as xterm
  s.wrapPending = false;
  t.emit({ type: "modes" });
}
