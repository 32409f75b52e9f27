/**
 * Every control sequence the emulator implements, one registration line
 * each: the sequence, its mnemonic, the handler (a named function with a
 * doc comment, in the module that groups what it does) and a summary.
 * `dispatch.ts` builds the lookup tables from these lists, and
 * `scripts/gen_escapes.ts` writes the implemented-sequence tables of
 * docs/escapes.md from them (CI checks that the file is current).
 *
 * Keys: a control is its code. An ESC sequence is its intermediates and
 * final (`"#8"`); a key of one intermediate and `*` matches any final
 * (SCS). A CSI or DCS sequence is its private prefix, intermediates and
 * final (`"?$p"` is `CSI ? Ps $ p`). An OSC is its number.
 *
 * DEC and ANSI modes are listed in `mode_table.ts`.
 *
 * @module
 */
// deno-fmt-ignore-file -- registrations read best as aligned columns
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import * as charsets from "./charset_shifts.ts";
import * as cursor from "./cursor.ts";
import * as erase from "./erase.ts";
import { osc72, osc721 } from "./html_osc.ts";
import { osc1337, sixel } from "./images.ts";
import * as keyboard from "./keyboard_modes.ts";
import * as kitty from "./kitty_keyboard.ts";
import * as lineSize from "./line_size.ts";
import * as modes from "./mode_table.ts";
import * as osc from "./osc.ts";
import * as notify from "./notify.ts";
import * as pen from "./pen.ts";
import * as rect from "./rectangles.ts";
import { rep } from "./repeat.ts";
import { xtgettcap } from "./xtgettcap.ts";
import * as reports from "./reports.ts";
import * as resets from "./resets.ts";
import * as scroll from "./scroll.ts";
import * as marks from "./shell_marks.ts";
import * as tabs from "./tabs.ts";
import * as win from "./window_ops.ts";

/** Handles a C0 or C1 control. */
export type ControlHandler = (t: Emulator) => void;
/** Handles an ESC sequence (the final byte and the intermediates). */
export type EscHandler = (t: Emulator, final: number, intermediates: string) => void;
/** Handles a CSI sequence. */
export type CsiHandler = (t: Emulator, params: Params) => void;
/** Handles the text of an OSC after `Ps;`. */
export type OscHandler = (t: Emulator, args: string) => void;
/** Handles a DCS string. */
export type DcsHandler = (t: Emulator, params: Params, payload: Uint8Array) => void;

/** One registration. */
export interface Registration<K, H> {
  key: K;
  name: string;
  handler: H;
  summary: string;
}

const ctl = (key: number, name: string, handler: ControlHandler, summary: string): Registration<number, ControlHandler> => ({ key, name, handler, summary });
const esc = (key: string, name: string, handler: EscHandler, summary: string): Registration<string, EscHandler> => ({ key, name, handler, summary });
const csi = (key: string, name: string, handler: CsiHandler, summary: string): Registration<string, CsiHandler> => ({ key, name, handler, summary });
const osc_ = (key: number, name: string, handler: OscHandler, summary: string): Registration<number, OscHandler> => ({ key, name, handler, summary });
const dcs = (key: string, name: string, handler: DcsHandler, summary: string): Registration<string, DcsHandler> => ({ key, name, handler, summary });

/**
 * `handler` only from conformance level `level` (DECSCL), as xterm gates
 * the VT220 and VT400 features; below it the sequence is ignored. Keeps the
 * handler's name for docs/escapes.md.
 */
function atLevel(level: number, handler: CsiHandler): CsiHandler {
  const gated: CsiHandler = (t, p) => {
    if (t.s.modes.vtLevel >= level) handler(t, p);
  };
  Object.defineProperty(gated, "name", { value: handler.name });
  return gated;
}

/** Recognized and deliberately ignored. */
function ignore(): void {}

/** C0 and C1 controls (C1 as 8-bit bytes or UTF-8 code points). */
export const CONTROLS: readonly Registration<number, ControlHandler>[] = [
  ctl(0x07, "BEL",  win.bel,          "Bell: a `bell` event"),
  ctl(0x08, "BS",   cursor.bs,        "Backspace (reverse wraparound with ?45 and ?7)"),
  ctl(0x09, "HT",   tabs.ht,          "To the next tab stop (keeps a pending wrap, as xterm)"),
  ctl(0x0a, "LF",   cursor.lf,        "Line feed (also CR in LNM)"),
  ctl(0x0b, "VT",   cursor.lf,        "As LF"),
  ctl(0x0c, "FF",   cursor.lf,        "As LF"),
  ctl(0x0d, "CR",   cursor.cr,        "Carriage return (to the left margin when inside it)"),
  ctl(0x0e, "SO",   charsets.so,      "Shift out: G1 into GL"),
  ctl(0x0f, "SI",   charsets.si,      "Shift in: G0 into GL"),
  ctl(0x84, "IND",  cursor.ind,       "Index"),
  ctl(0x85, "NEL",  cursor.nel,       "Next line"),
  ctl(0x88, "HTS",  tabs.hts,         "Set a tab stop"),
  ctl(0x8d, "RI",   cursor.ri,        "Reverse index"),
  ctl(0x8e, "SS2",  charsets.ss2,     "Single shift 2"),
  ctl(0x8f, "SS3",  charsets.ss3,     "Single shift 3"),
  ctl(0x96, "SPA",  pen.spa,          "Start of guarded area: protected from ED, EL, ECH and the selective erases"),
  ctl(0x97, "EPA",  pen.epa,          "End of guarded area"),
];

/** ESC sequences. */
export const ESC_SEQUENCES: readonly Registration<string, EscHandler>[] = [
  esc("6",  "DECBI",   cursor.decbi,     "Back index"),
  esc("7",  "DECSC",   cursor.decsc,     "Save cursor (position, rendition, link, DECOM, charsets) for this screen"),
  esc("8",  "DECRC",   cursor.decrc,     "Restore cursor (home and default rendition when none was saved)"),
  esc("9",  "DECFI",   cursor.decfi,     "Forward index"),
  esc("=",  "DECKPAM", keyboard.deckpam, "Application keypad"),
  esc(">",  "DECKPNM", keyboard.deckpnm, "Numeric keypad"),
  esc("D",  "IND",     cursor.ind,       "Index"),
  esc("E",  "NEL",     cursor.nel,       "Next line"),
  esc("H",  "HTS",     tabs.hts,         "Set a tab stop at the cursor column"),
  esc("M",  "RI",      cursor.ri,        "Reverse index"),
  esc("N",  "SS2",     charsets.ss2,     "Single shift 2"),
  esc("O",  "SS3",     charsets.ss3,     "Single shift 3"),
  esc("V",  "SPA",     pen.spa,          "Start of guarded area (ISO protection): what follows is protected from ED, EL, ECH and the selective erases"),
  esc("W",  "EPA",     pen.epa,          "End of guarded area"),
  esc("Z",  "DECID",   reports.decid,    "Identify: answered as DA1"),
  esc("c",  "RIS",     resets.ris,       "Full reset (the history is kept)"),
  esc("n",  "LS2",     charsets.ls2,     "G2 into GL"),
  esc("o",  "LS3",     charsets.ls3,     "G3 into GL"),
  esc("#3", "DECDHL",  lineSize.decdhlTop,    "Double-height line, top half"),
  esc("#4", "DECDHL",  lineSize.decdhlBottom, "Double-height line, bottom half"),
  esc("#5", "DECSWL",  lineSize.decswl,  "Single-width line"),
  esc("#6", "DECDWL",  lineSize.decdwl,  "Double-width line"),
  esc("#8", "DECALN",  erase.decaln,     "Screen alignment pattern: fill with E"),
  esc("(*", "SCS",     charsets.scs94,   "Designate G0 (94 characters: B, 0, A, <, national sets with ?42, %5, %6)"),
  esc(")*", "SCS",     charsets.scs94,   "Designate G1"),
  esc("**", "SCS",     charsets.scs94,   "Designate G2"),
  esc("+*", "SCS",     charsets.scs94,   "Designate G3"),
  esc("-*", "SCS",     charsets.scs96,   "Designate G1 (96 characters: A, Latin-1 supplemental)"),
  esc(".*", "SCS",     charsets.scs96,   "Designate G2 (96 characters)"),
  esc("/*", "SCS",     charsets.scs96,   "Designate G3 (96 characters)"),
  esc("%G", "DOCS",    ignore,           "UTF-8: input is always UTF-8 (ignored)"),
  esc("%@", "DOCS",    ignore,           "Default charset: input is always UTF-8 (ignored)"),
  esc(" F", "S7C1T",   reports.s7c1t,    "Replies with 7-bit introducers (ESC [, ESC P, ...)"),
  esc(" G", "S8C1T",   reports.s8c1t,    "Replies with 8-bit C1 introducers (CSI, DCS, OSC, ST as UTF-8), from level 2"),
];

/** CSI sequences. */
export const CSI_SEQUENCES: readonly Registration<string, CsiHandler>[] = [
  csi("@",   "ICH",      erase.ich,          "Insert Ps blank characters"),
  csi("A",   "CUU",      cursor.cuu,         "Cursor up Ps rows"),
  csi("B",   "CUD",      cursor.cud,         "Cursor down Ps rows"),
  csi("C",   "CUF",      cursor.cuf,         "Cursor right Ps columns"),
  csi("D",   "CUB",      cursor.cub,         "Cursor left Ps columns"),
  csi("E",   "CNL",      cursor.cnl,         "Down Ps rows, to the line start"),
  csi("F",   "CPL",      cursor.cpl,         "Up Ps rows, to the line start"),
  csi("G",   "CHA",      cursor.cha,         "To column Ps"),
  csi("H",   "CUP",      cursor.cup,         "To row Ps, column Ps"),
  csi("I",   "CHT",      tabs.cht,           "Forward Ps tab stops"),
  csi("J",   "ED",       erase.ed,           "Erase in display (0 below, 1 above, 2 all, 3 history)"),
  csi("K",   "EL",       erase.el,           "Erase in line (0 right, 1 left, 2 all)"),
  csi("L",   "IL",       scroll.il,          "Insert Ps lines"),
  csi("M",   "DL",       scroll.dl,          "Delete Ps lines"),
  csi("P",   "DCH",      erase.dch,          "Delete Ps characters"),
  csi("S",   "SU",       scroll.su,          "Scroll up Ps lines"),
  csi("T",   "SD",       scroll.sd,          "Scroll down Ps lines (more parameters: mouse highlight tracking, ignored)"),
  csi("X",   "ECH",      erase.ech,          "Erase Ps characters"),
  csi("Z",   "CBT",      tabs.cbt,           "Back Ps tab stops"),
  csi("`",   "HPA",      cursor.cha,         "To column Ps"),
  csi("a",   "HPR",      cursor.cuf,         "Right Ps columns"),
  csi("b",   "REP",      rep,                "Repeat the last character Ps times"),
  csi("c",   "DA1",      reports.da1,        "Primary device attributes"),
  csi("d",   "VPA",      cursor.vpa,         "To row Ps"),
  csi("e",   "VPR",      cursor.cud,         "Down Ps rows"),
  csi("f",   "HVP",      cursor.cup,         "To row Ps, column Ps"),
  csi("g",   "TBC",      tabs.tbc,           "Clear tab stops (0 here, 3 all)"),
  csi("h",   "SM",       modes.sm,           "Set ANSI modes"),
  csi("l",   "RM",       modes.rm,           "Reset ANSI modes"),
  csi("m",   "SGR",      pen.sgr,            "Select graphic rendition"),
  csi("n",   "DSR",      reports.dsr,        "Device status (5 status, 6 cursor position)"),
  csi("r",   "DECSTBM",  scroll.decstbm,     "Set the scroll region"),
  csi("x",   "DECREQTPARM", reports.decreqtparm, "Request terminal parameters (VT100): 0 or 1"),
  csi("s",   "DECSLRM",  cursor.scoscOrDecslrm, "Set left/right margins with ?69, else SCOSC (save cursor)"),
  csi("t",   "XTWINOPS", win.xtwinops,       "Window operations: 1/2 (de)iconify, 3 move, 8 and 24+ resize, 11/13/14/15/16/18/19 reports, 20/21 title reports, 22/23 title stacks"),
  csi("u",   "SCORC",    marks.csiU,         "Restore cursor; with parameters DomTerm's shell marks (11-20, 83), pager (92), input mode (80)"),
  csi("?J",  "DECSED",   atLevel(2, erase.decsed),       "Selective erase in display"),
  csi("?K",  "DECSEL",   atLevel(2, erase.decsel),       "Selective erase in line"),
  csi("?W",  "DECST8C",  tabs.decst8c,       "Tab stops every 8 columns (Ps 5)"),
  csi("?h",  "DECSET",   modes.decset,       "Set DEC private modes"),
  csi("?l",  "DECRST",   modes.decrst,       "Reset DEC private modes"),
  csi("?m",  "XTQMODKEYS", keyboard.xtqmodkeys, "Query key modifier options"),
  csi("?n",  "DECDSR",   reports.decdsr,     "DEC device status (6, 15, 25, 26, 53, 55, 56, 62, 63, 75, 85)"),
  csi("?r",  "XTRESTORE", modes.xtrestore,   "Restore DEC private modes"),
  csi("?s",  "XTSAVE",   modes.xtsave,       "Save DEC private modes"),
  csi("?u",  "KITTY_QUERY", kitty.kittyQuery, "Kitty keyboard: report the flags"),
  csi(">c",  "DA2",      reports.da2,        "Secondary device attributes"),
  csi(">m",  "XTMODKEYS", keyboard.xtmodkeys, "Set modifyOtherKeys (resource 4)"),
  csi(">q",  "XTVERSION", reports.xtversion, "Report name and version"),
  csi(">t",  "XTSMTITLE", win.xtsmtitle,     "Title modes on: 0 set in hex, 1 report in hex, 2 set in UTF-8, 3 report in UTF-8"),
  csi(">T",  "XTRMTITLE", win.xtrmtitle,     "Title modes off"),
  csi(">u",  "KITTY_PUSH", kitty.kittyPush,  "Kitty keyboard: push flags"),
  csi("<u",  "KITTY_POP", kitty.kittyPop,    "Kitty keyboard: pop Ps entries"),
  csi("=c",  "DA3",      reports.da3,        "Tertiary device attributes"),
  csi("=u",  "KITTY_SET", kitty.kittySet,    "Kitty keyboard: set, add or clear flags"),
  csi(" @",  "SL",       scroll.sl,          "Shift left Ps columns"),
  csi(" A",  "SR",       scroll.sr,          "Shift right Ps columns"),
  csi(" q",  "DECSCUSR", cursor.decscusr,    "Cursor shape and blink"),
  csi("!p",  "DECSTR",   resets.decstr,      "Soft reset"),
  csi('"p',  "DECSCL",   reports.decscl,     "Conformance level 61-65 and 7/8-bit replies (with a soft reset)"),
  csi('"q',  "DECSCA",   atLevel(2, pen.decsca),         "Character protection attribute"),
  csi("$p",  "DECRQM",   modes.decrqmAnsi,   "Request an ANSI mode"),
  csi("?$p", "DECRQM",   modes.decrqmDec,    "Request a DEC private mode"),
  csi("$r",  "DECCARA",  atLevel(4, rect.deccara),       "Change attributes in a rectangle"),
  csi("$t",  "DECRARA",  atLevel(4, rect.decrara),       "Reverse attributes in a rectangle"),
  csi("$v",  "DECCRA",   atLevel(4, rect.deccra),        "Copy a rectangle"),
  csi("$x",  "DECFRA",   atLevel(4, rect.decfra),        "Fill a rectangle"),
  csi("$z",  "DECERA",   atLevel(4, rect.decera),        "Erase a rectangle"),
  csi("${",  "DECSERA",  atLevel(4, rect.decsera),       "Selectively erase a rectangle"),
  csi("'}",  "DECIC",    atLevel(4, scroll.decic),       "Insert Ps columns"),
  csi("'~",  "DECDC",    atLevel(4, scroll.decdc),       "Delete Ps columns"),
  csi("*x",  "DECSACE",  atLevel(4, rect.decsace),       "Attribute change extent (stream or rectangle)"),
  csi("*|",  "DECSNLS",  win.decsnls,        "Lines per screen: Ps rows at once, the window follows"),
  csi("$|",  "DECSCPP",  win.decscpp,        "Columns per page: 80 or 132 columns at once, the window follows"),
  csi("*y",  "DECRQCRA", atLevel(4, rect.decrqcra),      "Checksum of a rectangle"),
];

/** OSC commands, by number. DomTerm's pretty-printing 110-118 are told apart from the colour resets by `pretty_print.ts` first. */
export const OSC_COMMANDS: readonly Registration<number, OscHandler>[] = [
  osc_(0,    "TITLE",     osc.osc0,            "Set the icon title and the window title"),
  osc_(1,    "ICON",      osc.osc1,            "Set the icon title"),
  osc_(2,    "TITLE",     osc.osc2,            "Set the window title"),
  osc_(4,    "PALETTE",   osc.osc4,            "Set or query palette colours (256-260: the special colours)"),
  osc_(5,    "SPECIAL",   osc.osc5,            "Set or query the special colours (0 bold, 1 underline, 2 blink, 3 reverse, 4 italic)"),
  osc_(7,    "CWD",       osc.osc7,            "Current directory (file:// URL)"),
  osc_(8,    "LINK",      osc.osc8,            "Hyperlink"),
  osc_(9,    "NOTIFY",    notify.osc9,         "iTerm2 notification (9;message); progress (9;4;state;percent)"),
  osc_(10,   "FG",        osc.dynamicColorOsc(10), "Set or query the default foreground (further arguments: 11, 12, ...)"),
  osc_(11,   "BG",        osc.dynamicColorOsc(11), "Set or query the default background"),
  osc_(12,   "CURSOR",    osc.dynamicColorOsc(12), "Set or query the cursor colour"),
  osc_(13,   "POINTER_FG", osc.dynamicColorOsc(13), "Set or query the pointer foreground"),
  osc_(14,   "POINTER_BG", osc.dynamicColorOsc(14), "Set or query the pointer background"),
  osc_(15,   "TEK_FG",    osc.dynamicColorOsc(15), "Set or query the Tektronix foreground"),
  osc_(16,   "TEK_BG",    osc.dynamicColorOsc(16), "Set or query the Tektronix background"),
  osc_(17,   "HIGHLIGHT_BG", osc.dynamicColorOsc(17), "Set or query the highlight background"),
  osc_(18,   "TEK_CURSOR", osc.dynamicColorOsc(18), "Set or query the Tektronix cursor colour"),
  osc_(19,   "HIGHLIGHT_FG", osc.dynamicColorOsc(19), "Set or query the highlight foreground"),
  osc_(30,   "WINDOW_NAME", notify.osc30,      "DomTerm: name the window (the window-name attribute)"),
  osc_(52,   "CLIPBOARD", osc.osc52,           "Set the clipboard (queries get no answer)"),
  osc_(72,   "HTML",      osc72,               "DomTerm: insert HTML"),
  osc_(88,   "SETTINGS",  osc.osc88,           "DomTerm: settings for this window (JSON)"),
  osc_(99,   "KITTY_NOTIFY", notify.osc99,     "kitty notification (i=, d=, p=title|body|?, e=1 base64)"),
  osc_(104,  "RESET_PALETTE", osc.osc104,      "Reset palette colours (all, special colours too, without an index)"),
  osc_(105,  "RESET_SPECIAL", osc.osc105,      "Reset special colours (all without an index)"),
  osc_(110,  "RESET_FG",  osc.resetDynamicOsc(110), "Reset the default foreground"),
  osc_(111,  "RESET_BG",  osc.resetDynamicOsc(111), "Reset the default background"),
  osc_(112,  "RESET_CURSOR", osc.resetDynamicOsc(112), "Reset the cursor colour"),
  osc_(113,  "RESET_POINTER_FG", osc.resetDynamicOsc(113), "Reset the pointer foreground (bare, outside a pretty-printing block)"),
  osc_(114,  "RESET_POINTER_BG", osc.resetDynamicOsc(114), "Reset the pointer background (bare, outside a pretty-printing block)"),
  osc_(115,  "RESET_TEK_FG", osc.resetDynamicOsc(115), "Reset the Tektronix foreground (bare, outside a pretty-printing block)"),
  osc_(116,  "RESET_TEK_BG", osc.resetDynamicOsc(116), "Reset the Tektronix background (bare, outside a pretty-printing block)"),
  osc_(117,  "RESET_HIGHLIGHT_BG", osc.resetDynamicOsc(117), "Reset the highlight background (bare, outside a pretty-printing block)"),
  osc_(119,  "GROUP",     marks.groupStart,    "DomTerm: new group"),
  osc_(120,  "GROUP_PUSH", marks.groupPush,    "DomTerm: push a group level"),
  osc_(121,  "GROUP_POP", marks.groupPop,      "DomTerm: pop a group level"),
  osc_(133,  "PROMPT",    marks.semanticPrompt, "Semantic prompt marks (A, B, C, D, ...)"),
  osc_(633,  "VSCODE",    marks.vscodeMarks,   "VS Code shell integration marks"),
  osc_(721,  "REPLACE",   osc721,              "DomTerm: replace the children of a keyed element"),
  osc_(777,  "RXVT_NOTIFY", notify.osc777,     "rxvt-unicode notification (777;notify;title;body)"),
  osc_(1337, "ITERM2",    osc1337,             "iTerm2: File= images and downloads, SetMark, CurrentDir="),
];

/** DCS strings. */
export const DCS_SEQUENCES: readonly Registration<string, DcsHandler>[] = [
  dcs("q",   "SIXEL",    sixel,              "Sixel image (a block line; on the alternate screen over the cells at the cursor)"),
  dcs("$q",  "DECRQSS",  reports.decrqss,    "Request a setting (m, r, s, SP q, \"q, \"p, t, $|, *|, *x, $}, $~)"),
  dcs("+q",  "XTGETTCAP", xtgettcap,         "Request terminfo capabilities by hex name (TN, Co, colors, RGB, key strings)"),
];
