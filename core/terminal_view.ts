/**
 * The read-only face of the emulator that a renderer draws from. The
 * emulator (`core/emulator/terminal.ts`) implements it; the client's
 * renderer only reads through it.
 *
 * Change detection: every modified `Line` is damaged ({@link LineDamage});
 * lines that scroll into history are never modified again (until a
 * resize). The renderer keeps one element per line index, compares `Line`
 * identity and asks `isDamaged` for the screen rows, and calls
 * `resetDamage` for each line it drew; it never writes to the model.
 *
 * @module
 */
import type { Line } from "./model/line.ts";

/** One buffer: the normal one (history + screen) or the alternate screen. */
export interface BufferView {
  /** Lines held: history followed by the `rows` screen lines. */
  readonly length: number;
  /**
   * Lines dropped from the top of the history since the buffer was created
   * (the absolute number of line 0). Grows when the scrollback limit trims.
   */
  readonly trimmed: number;
  /** Line `i`, 0 <= i < length. Screen row y is line `length - rows + y`. */
  getLine(i: number): Line;
  /** True for the alternate screen (which has no history). */
  readonly isAlt: boolean;
}

/** Cursor shapes (DECSCUSR). */
export type CursorStyle = "block" | "underline" | "bar";

/** Modes that the input side (keys, paste, mouse, focus) needs to know. */
export interface InputModes {
  /** DECCKM (?1). */
  applicationCursorKeys: boolean;
  /** DECKPAM / DECKPNM (ESC = / ESC >). */
  applicationKeypad: boolean;
  /** ?2004 */
  bracketedPaste: boolean;
  /** ?1004 */
  sendFocus: boolean;
  /** Mouse tracking: 0 off, 9 X10, 1000 normal, 1002 button-event, 1003 any-event. */
  mouseTracking: 0 | 9 | 1000 | 1002 | 1003;
  /** Mouse encoding: 0 default (X10 bytes), 1005 UTF-8, 1006 SGR, 1015 urxvt, 1016 SGR-pixels. */
  mouseEncoding: 0 | 1005 | 1006 | 1015 | 1016;
  /** LNM (20): Enter sends CR LF. */
  newlineMode: boolean;
  /** Kitty keyboard protocol flags of the active screen (`CSI = flags u` ...), 0 when off. */
  kittyFlags: number;
  /** xterm modifyOtherKeys level (`CSI > 4 ; level m`). */
  modifyOtherKeys: 0 | 1 | 2;
  /** ?1007: the wheel sends cursor up/down on the alternate screen when mouse tracking is off. */
  alternateScroll: boolean;
  /** The alternate screen is active (?47 / ?1047 / ?1049). */
  altScreen: boolean;
  /** DECBKM (?67): Backspace sends BS and Ctrl+Backspace DEL (absent: reset). */
  backarrowBs?: boolean;
  /** KAM (2): the keyboard is locked, typed keys are dropped (absent: unlocked). */
  keyboardLocked?: boolean;
  /** DECANM (?2) reset: VT52 mode, keys send VT52 forms (absent: ANSI mode). */
  vt52?: boolean;
}

/**
 * The input modes after power-on or a hard reset (RIS). Test hook: the
 * emulator keeps its own modes (`Modes` in core/emulator/modes.ts); the
 * key-encoder tests, the input harness and the renderer's fake terminal
 * start from this.
 */
export const POWER_ON_INPUT_MODES: Readonly<InputModes> = Object.freeze({
  applicationCursorKeys: false,
  applicationKeypad: false,
  bracketedPaste: false,
  sendFocus: false,
  mouseTracking: 0,
  mouseEncoding: 0,
  newlineMode: false,
  kittyFlags: 0,
  modifyOtherKeys: 0,
  alternateScroll: false,
  altScreen: false,
});

/** Extended style of a cell (see `extId` in `model/cell.ts`). */
export interface ExtStyle {
  /** Underline colour word (0 = same as text). */
  underlineColor: number;
  /** OSC 8 hyperlink URI, or null. */
  link: string | null;
}

/**
 * Which lines changed since a renderer drew them (the emulator's damage,
 * `core/emulator/damage.ts`). A new line starts damaged; any change to a
 * line damages it again.
 */
export interface LineDamage {
  /** Whether `line` changed since its damage was last reset. */
  isDamaged(line: Line): boolean;
  /** `line` was drawn as it is now: reset its damage. */
  resetDamage(line: Line): void;
}

/** What a renderer reads. */
export interface TerminalView extends LineDamage {
  readonly cols: number;
  readonly rows: number;
  /** The active buffer (normal or alternate). */
  readonly buffer: BufferView;
  /** Cursor column, 0-based, 0 <= x <= cols - 1. */
  readonly cursorX: number;
  /** Cursor screen row, 0-based. */
  readonly cursorY: number;
  /** DECTCEM (?25). */
  readonly cursorVisible: boolean;
  readonly cursorStyle: CursorStyle;
  readonly cursorBlink: boolean;
  /** DECSCNM (?5): reverse video for the whole screen. */
  readonly reverseVideo: boolean;
  readonly title: string;
  readonly modes: InputModes;
  /** Extended style `id` (> 0), see `ExtStyle`. */
  ext(id: number): ExtStyle;
  /**
   * Palette colour `index` (0-255) as "#rrggbb" if a program changed it
   * (OSC 4), else null (the stylesheet's default applies).
   */
  paletteOverride(index: number): string | null;
  /**
   * Default foreground (0), background (1) or cursor (2) colour as
   * "#rrggbb" if a program changed it (OSC 10/11/12), else null.
   */
  dynamicColorOverride(which: 0 | 1 | 2): string | null;
  /**
   * Synchronized output (?2026): while true the program is in the middle
   * of an update, and a renderer holds its frames (for a while).
   */
  readonly synchronizedOutput: boolean;
}

/** Changes that are not visible in the lines (the emulator's change feed). */
export type TerminalEvent =
  | { type: "title"; title: string }
  | { type: "bell" }
  | { type: "modes" }
  | { type: "buffer" }
  | { type: "resize"; cols: number; rows: number }
  /** OSC 7: the program's current directory, a `file://host/path` URL. */
  | { type: "cwd"; url: string }
  /**
   * OSC 52 write: put `text` on the clipboard. `selection` is the Pc
   * argument as sent ("c", "p", "s", "0".."7", or "" which means "s0").
   */
  | { type: "clipboard"; selection: string; text: string }
  /**
   * OSC 52 read (`OSC 52 ; Pc ; ? ST`): the program asks for the
   * clipboard. The embedder decides (never, ask, always) and answers with
   * `Terminal.clipboardReply`.
   */
  | { type: "clipboard-read"; selection: string }
  /**
   * OSC 9 ; 4 progress (ConEmu / Windows Terminal): state 0 none, 1 normal,
   * 2 error, 3 indeterminate, 4 paused; percent 0-100.
   */
  | { type: "progress"; state: 0 | 1 | 2 | 3 | 4; percent: number }
  /**
   * XTWINOPS 8 (`CSI 8 ; rows ; cols t`): the program asks for a text area
   * of this size (an omitted parameter is the current size, 0 means as
   * large as the window allows). The client honours it within the window
   * and resizes as usual.
   */
  | { type: "resize-request"; cols: number; rows: number }
  /**
   * A desktop notification asked for by OSC 9 (iTerm2), OSC 777 ; notify
   * (rxvt-unicode) or OSC 99 (kitty). Plain text: title and body have no
   * control characters but line breaks in the body, and are length-capped
   * (`core/emulator/notify.ts`); either may be empty, not both. `id` is
   * kitty's `i=` ("" otherwise).
   */
  | {
    type: "notify";
    source: "osc9" | "osc777" | "osc99";
    title: string;
    body: string;
    id: string;
  }
  /** OSC 30 (DomTerm): the window's name ("" removes it). */
  | { type: "window-name"; name: string }
  /**
   * Shell integration (OSC 133 / 633 C and D): a command started running
   * (`start`) or finished (`end`, with its exit status when the shell said).
   */
  | { type: "command"; phase: "start" | "end"; exit: number | null }
  /**
   * DomTerm `CSI 92 ; 1 u` / `CSI 92 ; 2 u`: turn the window's automatic
   * pager on / off (the page's pager acts on it).
   */
  | { type: "pager"; automatic: boolean }
  /**
   * DomTerm's `CSI 80 ; Pm u`: the program asks for an input mode (97 'a'
   * automatic, 99 'c' character, 108 'l' line, 112 'p' pipe).
   */
  | { type: "input-mode"; mode: "auto" | "char" | "line" | "pipe" }
  /**
   * DomTerm's OSC 88 (`OSC 88 ; json ST`): settings for this window, a JSON
   * object of dotted keys (core/settings/schema.ts), unchecked; the page
   * checks it and applies it over the settings file's values.
   */
  | { type: "settings"; json: string }
  /**
   * The element-event mode (?7101) went on or off (a reset, DECSTR, the
   * server's `eventsOff`); `generation` is the events generation now
   * (`core/emulator/element_events.ts`).
   */
  | { type: "element-events"; on: boolean; generation: number };
