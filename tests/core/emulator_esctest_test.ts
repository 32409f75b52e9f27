/**
 * Tests from esctest2 (George Nachman's esctest as extended by Thomas
 * Dickey), each named after the esctest2 test it follows: the same
 * sequences sent, the same values expected (cursor positions are esctest's
 * 1-based Point(column, row); a blank cell reads as " "). The harness
 * honours resize requests at once, as the window does.
 */
import {
  assertEquals,
  CSI,
  DCS,
  ESC,
  makeTerminal,
  OSC,
  ST,
} from "./helpers.ts";
import type { TestTerminal } from "./helpers.ts";
import { screenLine } from "./helpers.ts";

/** A terminal driven the way esctest drives one. */
class Esc {
  t: TestTerminal;
  constructor(cols = 80, rows = 24) {
    this.t = makeTerminal(cols, rows);
  }
  get width(): number {
    return this.t.term.cols;
  }
  get height(): number {
    return this.t.term.rows;
  }
  /** Write, then apply the resize requests (the window's part). */
  w(s: string): this {
    const before = this.t.events.length;
    this.t.term.write(s);
    for (const e of this.t.events.slice(before)) {
      if (e.type === "resize-request") this.t.term.resize(e.cols, e.rows);
    }
    return this;
  }
  cup(x: number, y: number): this {
    return this.w(`${CSI}${y};${x}H`);
  }
  decset(m: number): this {
    return this.w(`${CSI}?${m}h`);
  }
  decreset(m: number): this {
    return this.w(`${CSI}?${m}l`);
  }
  /** GetCursorPosition: [column, row], 1-based. */
  pos(): [number, number] {
    return [this.t.term.cursorX + 1, this.t.term.cursorY + 1];
  }
  /** The characters of Rect(left, top, right, bottom), a string per row. */
  chars(left: number, top: number, right: number, bottom: number): string[] {
    const out: string[] = [];
    for (let y = top; y <= bottom; y++) {
      let row = "";
      const l = screenLine(this.t.term, y - 1);
      for (let x = left; x <= right; x++) row += l.text(x - 1) || " ";
      out.push(row);
    }
    return out;
  }
  /** Everything replied since the last call. */
  read(): string {
    const r = this.t.replies.join("");
    this.t.replies.length = 0;
    return r;
  }
}

const DECAWM = 7, DECLRMM = 69, MORE_FIX = 41;
const REVERSE_WRAP_INLINE = 45, REVERSE_WRAP_EXTEND = 1045;
const NEL = `${ESC}E`, TAB = "\t", BS = "\b", CRLF = "\r\n";
const SPA = `${ESC}V`, EPA = `${ESC}W`;

function esctest(name: string, fn: (e: Esc) => void): void {
  Deno.test(`esctest2: ${name}`, () => fn(new Esc()));
}

// ------------------------------------------------------ left/right margins

esctest("test_NEL_MovesDoesNotScrollOutsideLeftRight", (e) => {
  e.w(`${CSI}2;5r`).decset(DECLRMM).w(`${CSI}2;5s`);
  e.cup(3, 5).w("x");
  e.cup(6, 5).w(NEL);
  assertEquals(e.pos(), [2, 5]);
  assertEquals(e.chars(3, 5, 3, 5), ["x"]);
  e.cup(6, 4).w(NEL);
  assertEquals(e.pos(), [2, 5]);
  e.cup(6, e.height).w(NEL);
  assertEquals(e.pos(), [2, e.height]);
  assertEquals(e.chars(3, 5, 3, 5), ["x"]);
  e.cup(1, 5).w(NEL);
  assertEquals(e.pos(), [1, 5]);
  assertEquals(e.chars(3, 5, 3, 5), ["x"]);
  e.cup(1, e.height).w(NEL);
  assertEquals(e.pos(), [1, e.height]);
  assertEquals(e.chars(3, 5, 3, 5), ["x"]);
});

esctest("test_DECSET_DECAWM_NoLineWrapOnTabWithLeftRightMargin", (e) => {
  e.decset(DECAWM).w(`${CSI}8;24;80t`).decset(DECLRMM).w(`${CSI}10;20s`);
  assertEquals(e.pos(), [1, 1]);
  e.w(TAB);
  assertEquals(e.pos(), [9, 1]);
  e.w(TAB);
  assertEquals(e.pos(), [17, 1]);
  e.w(TAB);
  assertEquals(e.pos(), [20, 1]);
  e.w(TAB);
  assertEquals(e.pos(), [20, 1]);
});

esctest("test_DECSET_DECAWM_TabDoesNotWrapAround", (e) => {
  e.decset(DECAWM);
  e.w(TAB.repeat(e.width / 8 + 2));
  assertEquals(e.pos(), [e.width, 1]);
});

// ----------------------------------------------------------- more(1) fix

function fillLineAndWriteTab(e: Esc): void {
  e.w(CRLF + "x".repeat(e.width) + TAB);
}

esctest("test_DECSET_MoreFix", (e) => {
  e.decset(MORE_FIX);
  fillLineAndWriteTab(e);
  assertEquals(e.pos()[0], 9);
  e.w("1");
  assertEquals(e.chars(9, 3, 9, 3), ["1"]);
  e.decreset(MORE_FIX);
  fillLineAndWriteTab(e);
  assertEquals(e.pos()[0], e.width);
  e.w("2");
  assertEquals(e.chars(1, 5, 1, 5), ["2"]);
});

// ------------------------------------------------------- reverse wrap

// esctest's ReverseWraparound() is 1045 for xterm 383 and later.
const RW = REVERSE_WRAP_EXTEND;

esctest("test_DECSET_ReverseWraparound_BS", (e) => {
  e.decset(RW).decset(DECAWM).cup(1, 2).w(BS);
  assertEquals(e.pos()[0], e.width);
});

esctest("test_DECSET_ReverseWraparoundLastCol_BS", (e) => {
  e.decset(RW).decset(DECAWM).cup(e.width - 1, 1).w("a");
  assertEquals(e.pos()[0], e.width);
  e.w("b");
  assertEquals(e.pos()[0], e.width);
  e.w(BS);
  assertEquals(e.pos()[0], e.width);
});

esctest("test_DECSET_ReverseWraparound_Multi", (e) => {
  e.cup(e.width - 1, 1).w("abcd").decset(RW).decset(DECAWM).w(`${CSI}4D`);
  assertEquals(e.pos()[0], e.width - 1);
});

esctest("test_DECSET_ResetReverseWraparoundDisablesIt", (e) => {
  e.decreset(RW).decset(DECAWM).cup(1, 2).w(BS);
  assertEquals(e.pos()[0], 1);
});

esctest("test_DECSET_ReverseWraparound_RequiresDECAWM", (e) => {
  e.cup(1, 2).decset(RW).decreset(DECAWM).w(BS);
  assertEquals(e.pos()[0], 1);
});

esctest("test_BS_WrapsInWraparoundMode", (e) => {
  e.decset(DECAWM).decset(RW).cup(1, 3).w(BS);
  assertEquals(e.pos(), [e.width, 2]);
});

esctest("test_BS_InitialReverseWraparound", (e) => {
  e.decset(DECAWM).decset(REVERSE_WRAP_INLINE).cup(1, 1).w(NEL).w(BS);
  assertEquals(e.pos(), [1, 2]);
});

esctest("test_BS_ReverseWrapRequiresDECAWM", (e) => {
  e.decreset(DECAWM).decset(RW).cup(1, 3).w(BS);
  assertEquals(e.pos(), [1, 3]);
  e.decset(DECAWM).decreset(RW).cup(1, 3).w(BS);
  assertEquals(e.pos(), [1, 3]);
});

esctest("test_BS_ReverseWrapWithLeftRight", (e) => {
  e.decset(DECAWM).decset(RW).decset(DECLRMM).w(`${CSI}5;10s`);
  e.cup(5, 3).w(BS);
  assertEquals(e.pos(), [10, 2]);
});

esctest("test_BS_ReversewrapFromLeftEdgeToRightMargin", (e) => {
  e.decset(DECAWM).decset(RW).decset(DECLRMM).w(`${CSI}5;10s`);
  e.cup(1, 3).w(BS);
  assertEquals(e.pos(), [10, 2]);
});

esctest("test_BS_ReverseWrapGoesToBottom", (e) => {
  e.decset(DECAWM).decset(RW).w(`${CSI}2;5r`).cup(1, 2).w(BS);
  assertEquals(e.pos(), [80, 5]);
});

esctest("test_BS_ReverseWrapStartingInDoWrapPosition", (e) => {
  e.decset(DECAWM).decset(RW).cup(e.width - 1, 1).w("ab").w(BS).w("X");
  assertEquals(e.chars(e.width - 1, 1, e.width, 1), ["aX"]);
});

esctest("test_BS_CursorStartsInDoWrapPosition", (e) => {
  e.cup(e.width - 1, 1).w("ab").w(BS).w("X");
  assertEquals(e.chars(e.width - 1, 1, e.width, 1), ["Xb"]);
});

esctest("test_BS_AfterNoWrappedInlines", (e) => {
  e.decset(DECAWM).decset(REVERSE_WRAP_INLINE);
  const fill = "*".repeat(e.width - 2) + "\n";
  e.cup(1, 3).w(fill).w(fill);
  e.cup(5, 5).w(BS.repeat(e.width * 2));
  assertEquals(e.pos(), [1, 4]);
});

esctest("test_BS_AfterOneWrappedInline", (e) => {
  e.decset(DECAWM).decset(REVERSE_WRAP_INLINE);
  const fill = "*".repeat((e.width + 2) * 2);
  e.cup(1, 3).w(fill + "\n" + fill);
  e.w(BS.repeat(e.width * 5));
  assertEquals(e.pos(), [1, 6]);
});

// ------------------------------------------------- ISO protection, DECSERA

esctest("test_DECSERA_doesNotRespectISOProtect", (e) => {
  e.w("a").w(SPA).w("b").w(EPA).w(`${CSI}1;1;1;2\${`);
  assertEquals(e.chars(1, 1, 2, 1), ["  "]);
});

esctest("test_DECSED_doesNotRespectISOProtect", (e) => {
  e.w("a").w(SPA).w("b").w(EPA).w(`${CSI}?2J`);
  assertEquals(e.chars(1, 1, 2, 1), ["  "]);
});

esctest("test_DECSEL_doesNotRespectISOProtect", (e) => {
  e.w("a").w(SPA).w("b").w(EPA).w(`${CSI}?2K`);
  assertEquals(e.chars(1, 1, 2, 1), ["  "]);
});

// ------------------------------------------------------- the title stack

const setWindow = (s: string) => `${OSC}2;${s}${ST}`;
const setIcon = (s: string) => `${OSC}1;${s}${ST}`;
const setBoth = (s: string) => `${OSC}0;${s}${ST}`;
const push = (w: number) => `${CSI}22;${w}t`;
const pop = (w: number) => `${CSI}23;${w}t`;

/** [window title, icon title] as the reports (21 t, 20 t) give them. */
function titles(e: Esc): [string, string] {
  e.read();
  e.w(`${CSI}21t`);
  const w = e.read();
  e.w(`${CSI}20t`);
  const i = e.read();
  const body = (r: string, k: string) => {
    if (!r.startsWith(OSC + k) || !r.endsWith(ST)) throw new Error(r);
    return r.slice(OSC.length + 1, -ST.length);
  };
  return [body(w, "l"), body(i, "L")];
}

esctest("test_XtermWinops_PushIconAndWindow_PopIconAndWindow", (e) => {
  e.w(setBoth("s")).w(push(0));
  e.w(setWindow("x")).w(setIcon("x"));
  assertEquals(titles(e), ["x", "x"]);
  e.w(pop(0));
  assertEquals(titles(e), ["s", "s"]);
});

esctest("test_XtermWinops_PushIconAndWindow_PopIcon", (e) => {
  e.w(setBoth("s")).w(push(0));
  e.w(setWindow("x")).w(setIcon("x"));
  e.w(pop(1));
  assertEquals(titles(e), ["x", "s"]);
  e.w(pop(2)); // the entry is used up: nothing to pop
  assertEquals(titles(e), ["x", "s"]);
});

esctest("test_XtermWinops_PushIconAndWindow_PopWindow", (e) => {
  e.w(setBoth("s")).w(push(0));
  e.w(setWindow("x")).w(setIcon("x"));
  e.w(pop(2));
  assertEquals(titles(e), ["s", "x"]);
  e.w(pop(1));
  assertEquals(titles(e), ["s", "x"]);
});

esctest("test_XtermWinops_PushIcon_PopIcon", (e) => {
  e.w(setWindow("x")).w(setIcon("s")).w(push(1));
  e.w(setIcon("y")).w(pop(1));
  assertEquals(titles(e), ["x", "s"]);
});

esctest("test_XtermWinops_PushWindow_PopWindow", (e) => {
  e.w(setIcon("x")).w(setWindow("s")).w(push(2));
  e.w(setWindow("y")).w(pop(2));
  assertEquals(titles(e), ["s", "x"]);
});

esctest("test_XtermWinops_PushIconThenWindowThenPopBoth", (e) => {
  e.w(setWindow("a1")).w(setIcon("b2"));
  e.w(push(1)).w(push(2));
  e.w(setWindow("y")).w(setIcon("z"));
  e.w(pop(0));
  assertEquals(titles(e), ["a1", "b2"]);
});

esctest("test_XtermWinops_PushMultiplePopMultiple_Icon", (e) => {
  for (const s of ["a1", "b2"]) e.w(setIcon(s)).w(push(1));
  e.w(setIcon("z")).w(pop(1));
  assertEquals(titles(e)[1], "b2");
  e.w(pop(1));
  assertEquals(titles(e)[1], "a1");
});

esctest("test_XtermWinops_PushMultiplePopMultiple_Window", (e) => {
  for (const s of ["a1", "b2"]) e.w(setWindow(s)).w(push(2));
  e.w(setWindow("z")).w(pop(2));
  assertEquals(titles(e)[0], "b2");
  e.w(pop(2));
  assertEquals(titles(e)[0], "a1");
});

// ---------------------------------------------------------------- DECRQSS

esctest("test_DECRQSS_DECSACE", (e) => {
  e.w(`${CSI}0*x`).read();
  e.w(`${DCS}$q*x${ST}`);
  assertEquals(e.read(), `${DCS}1$r0*x${ST}`);
});

esctest("test_DECRQSS_DECSLPP", (e) => {
  e.w(`${CSI}27t`).read();
  e.w(`${DCS}$qt${ST}`);
  assertEquals(e.read(), `${DCS}1$r27t${ST}`);
});

esctest("test_XtermWinops_DECSLPP", (e) => {
  e.w(`${CSI}8;10;90t`);
  assertEquals([e.width, e.height], [90, 10]);
  e.w(`${CSI}24t`);
  assertEquals([e.width, e.height], [90, 24]);
});

// -------------------------------- 8-bit controls (sent as UTF-8 C1, as
// esctest's ALLOW_C2_CONTROLS: domterm reads UTF-8)

const S8C1T = `${ESC} G`, S7C1T = `${ESC} F`;

esctest("test_S8C1T_CSI", (e) => {
  e.w(S8C1T).w("\x9b2;1H").w(S7C1T);
  assertEquals(e.pos(), [1, 2]);
});

esctest("test_S8C1T_DCS", (e) => {
  e.w(`${CSI}5;6r`).w(S8C1T).read();
  e.w("\x90$qr\x9c");
  const result = e.read();
  e.w(S7C1T);
  assertEquals(result, "\x901$r5;6r\x9c");
});

esctest("test_S8C1T_SPA_EPA", (e) => {
  e.w(S8C1T).w("a").w("b").w("\x96").w("c").w("\x97").w(S7C1T);
  e.cup(1, 1).w(`${CSI}3X`);
  assertEquals(e.chars(1, 1, 3, 1), ["  c"]);
});

// ----------------------------------------------------------------- DECSCL

const decscl = (level: number, seven?: number) =>
  `${CSI}${level}${seven === undefined ? "" : `;${seven}`}"p`;

esctest("test_DECSCL_Level2DoesntSupportDECRQM", (e) => {
  e.w("Hello world.").w(decscl(62, 1)).read();
  e.w(`${CSI}4$p`);
  assertEquals(e.read(), "");
});

esctest("test_DSCSCL_Level2Supports7BitControls", (e) => {
  e.w(decscl(62, 1)).cup(2, 2);
  assertEquals(e.pos(), [2, 2]);
});

esctest("test_DSCSCL_Level3_SupportsDECRQMDoesntSupportDECSLRM", (e) => {
  e.w(decscl(63, 1)).read();
  e.w(`${CSI}4$p`);
  assertEquals(e.read(), `${CSI}4;2$y`);
  e.decset(DECLRMM).w(`${CSI}5;6s`).cup(5, 1).w("abc");
  assertEquals(e.pos()[0], 8);
});

esctest("test_DECSCL_Level4_SupportsDECSLRMDoesntSupportDECNCSM", (e) => {
  e.w(decscl(64, 1)).decset(40).decreset(3).decset(95).cup(1, 1).w("1");
  e.decset(3);
  assertEquals(e.chars(1, 1, 1, 1), [" "]);
  e.decset(DECLRMM).w(`${CSI}5;6s`).cup(5, 1).w("abc");
  assertEquals(e.pos()[0], 6);
});

esctest("test_DECSCL_Level5_SupportsDECNCSM", (e) => {
  e.w(decscl(65, 1)).decset(40).decreset(3).decset(95).cup(1, 1).w("1");
  e.decset(3);
  assertEquals(e.chars(1, 1, 1, 1), ["1"]);
});

// ----------------------------------------------------------------- DECRQM

/** esctest's requestAnsiMode / requestDECMode: [mode, value]. */
function requestMode(e: Esc, mode: number, dec: boolean): [number, number] {
  e.read();
  e.w(`${CSI}${dec ? "?" : ""}${mode}$p`);
  const r = e.read();
  const m = r.startsWith(CSI)
    ? r.slice(CSI.length).match(/^\??(\d+);(\d+)\$y$/)
    : null;
  if (m === null) throw new Error(`no DECRPM: ${JSON.stringify(r)}`);
  return [Number(m[1]), Number(m[2])];
}

/** doModifiableAnsiTest / doModifiableDecTest. */
function modifiable(e: Esc, mode: number, dec: boolean): void {
  const q = dec ? "?" : "";
  const set = () => e.w(`${CSI}${q}${mode}h`);
  const reset = () => e.w(`${CSI}${q}${mode}l`);
  const [first, second] = requestMode(e, mode, dec)[1] === 2
    ? [set, reset]
    : [reset, set];
  const want = first === set ? [1, 2] : [2, 1];
  first();
  assertEquals(requestMode(e, mode, dec), [mode, want[0]]);
  second();
  assertEquals(requestMode(e, mode, dec), [mode, want[1]]);
}

esctest("test_DECRQM", (e) => {
  assertEquals(requestMode(e, 4, false).length, 2);
});

for (
  const [name, mode] of [["KAM", 2], ["IRM", 4], ["SRM", 12], ["LNM", 20]] as [
    string,
    number,
  ][]
) {
  esctest(`test_DECRQM_ANSI_${name}`, (e) => modifiable(e, mode, false));
}

for (
  const [name, mode] of [
    ["GATM", 1],
    ["SRTM", 5],
    ["VEM", 7],
    ["HEM", 10],
    ["PUM", 11],
    ["FEAM", 13],
    ["FETM", 14],
    ["MATM", 15],
    ["TTM", 16],
    ["SATM", 17],
    ["TSM", 18],
    ["EBM", 19],
  ] as [string, number][]
) {
  esctest(`test_DECRQM_ANSI_${name}`, (e) => {
    assertEquals(requestMode(e, mode, false), [mode, 4]);
  });
}

for (
  const [name, mode] of [
    ["DECCKM", 1],
    ["DECCOLM", 3],
    ["DECSCLM", 4],
    ["DECSCNM", 5],
    ["DECOM", 6],
    ["DECAWM", 7],
    ["DECARM", 8], // an xterm known bug in esctest2: xterm reports 4
    ["DECPFF", 18],
    ["DECPEX", 19],
    ["DECTCEM", 25],
    ["DECHEBM", 35],
    ["DECNRCM", 42],
    ["DECNKM", 66],
    ["DECBKM", 67],
    ["DECLRMM", 69],
    ["DECNCSM", 95],
    // Beyond xterm (esctest2 marks them xterm's known bugs): modes whose
    // effect domterm cannot show, so either value is true of it.
    ["DECVCCM", 61],
    ["DECPCCM", 64],
    ["DECXRLM", 73],
    ["DECCRTSM", 97],
    ["DECMCM", 99],
    ["DECAAM", 100],
    ["DECCANSM", 101],
    ["DECNULM", 102],
    ["DECOSCNM", 106],
  ] as [string, number][]
) {
  esctest(`test_DECRQM_DEC_${name}`, (e) => {
    e.decset(40); // Allow80To132, as esctest does for xterm
    modifiable(e, mode, true);
  });
}

esctest("test_DECRQM_DEC_DECHCCM", (e) => {
  assertEquals(requestMode(e, 60, true), [60, 4]);
});

// ------------------------------------------- IND, RI, LF outside margins

/** The esctest2 setup of the *_MovesDoesNotScrollOutsideLeftRight tests. */
function marginsWithX(e: Esc): void {
  e.w(`${CSI}2;5r`).decset(DECLRMM).w(`${CSI}2;5s`).cup(3, 5).w("x");
}

esctest("test_IND_MovesDoesNotScrollOutsideLeftRight", (e) => {
  marginsWithX(e);
  for (
    const [x, y] of [[6, 5], [6, e.height], [1, 5], [1, e.height]]
  ) {
    e.cup(x, y).w(`${ESC}D`);
    assertEquals(e.pos(), [x, y]);
    assertEquals(e.chars(3, 5, 3, 5), ["x"]);
  }
});

esctest("test_RI_MovesDoesNotScrollOutsideLeftRight", (e) => {
  marginsWithX(e);
  for (const [x, y] of [[6, 2], [6, 1], [1, 2], [1, 1]]) {
    e.cup(x, y).w(`${ESC}M`);
    assertEquals(e.pos(), [x, y]);
    assertEquals(e.chars(3, 5, 3, 5), ["x"]);
  }
});

esctest("test_LF_MovesDoesNotScrollOutsideLeftRight", (e) => {
  marginsWithX(e);
  e.cup(6, 5).w("\n");
  assertEquals(e.pos(), [6, 5]);
  assertEquals(e.chars(3, 5, 3, 5), ["x"]);
  e.cup(6, 4).w("\n");
  assertEquals(e.pos(), [6, 5]);
  for (const [x, y] of [[6, e.height], [1, 5], [1, e.height]]) {
    e.cup(x, y).w("\n");
    assertEquals(e.pos(), [x, y]);
    assertEquals(e.chars(3, 5, 3, 5), ["x"]);
  }
});

esctest("test_IND_8bit", (e) => {
  e.cup(5, 3).w(S8C1T).w("\x84").w(S7C1T);
  assertEquals(e.pos(), [5, 4]);
});

esctest("test_NEL_8bit", (e) => {
  e.cup(5, 3).w(S8C1T).w("\x85").w(S7C1T);
  assertEquals(e.pos(), [1, 4]);
});

esctest("test_RI_8bit", (e) => {
  e.cup(5, 3).w(S8C1T).w("\x8d").w(S7C1T);
  assertEquals(e.pos(), [5, 2]);
});

// ----------------------------------------------------------------- DECAWM

esctest("test_DECSET_DECAWM", (e) => {
  e.cup(e.width - 1, 1).decset(DECAWM).w("abc");
  assertEquals(e.chars(1, 2, 1, 2), ["c"]);
  e.cup(e.width - 1, 1).decreset(DECAWM).w("ABC");
  assertEquals(e.chars(e.width - 1, 1, e.width, 1), ["AC"]);
  assertEquals(e.chars(1, 2, 1, 2), ["c"]);
});

esctest("test_DECSET_DECAWM_CursorAtRightMargin", (e) => {
  e.decset(DECAWM);
  assertEquals(e.pos()[0], 1);
  e.w("x".repeat(e.width - 2));
  assertEquals(e.pos()[0], e.width - 1);
  e.w("x");
  assertEquals(e.pos()[0], e.width);
  e.w("x");
  assertEquals(e.pos()[0], e.width);
  e.w("x");
  assertEquals(e.pos()[0], 2);
});

esctest("test_DECSET_DECAWM_OnRespectsLeftRightMargin", (e) => {
  e.decset(DECLRMM).w(`${CSI}5;9s`).w(`${CSI}5;9r`).cup(8, 9).decset(DECAWM);
  e.w("abcdef");
  assertEquals(e.chars(5, 8, 9, 9), ["   ab", "cdef "]);
});

esctest("test_DECSET_DECAWM_OffRespectsLeftRightMargin", (e) => {
  e.decset(DECLRMM).w(`${CSI}5;9s`).w(`${CSI}5;9r`).cup(8, 9);
  e.decreset(DECAWM).w("abcdef");
  assertEquals(e.pos()[0], 9);
  assertEquals(e.chars(5, 8, 9, 9), ["     ", "   af"]);
});

// ---------------------------------------- protection: ECH, EL, ED, DECSED

const DECSCA = (n: number) => `${CSI}${n}"q`;

for (
  const [name, erase] of [["ECH", `${CSI}3X`], ["EL", `${CSI}2K`], [
    "ED",
    `${CSI}0J`,
  ]]
) {
  esctest(`test_${name}_doesNotRespectDECProtection`, (e) => {
    e.w("ab").w(DECSCA(1)).w("c").w(DECSCA(0)).cup(1, 1).w(erase);
    assertEquals(e.chars(1, 1, 3, 1), ["   "]);
  });
  esctest(`test_${name}_respectsISOProtection`, (e) => {
    e.w("ab").w(SPA).w("c").w(EPA).cup(1, 1).w(erase);
    assertEquals(e.chars(1, 1, 3, 1), ["  c"]);
  });
}

/** esctest2's EDTests.prepare ("a", "bcd", "e" on rows 1, 3, 5; cursor on the c). */
function prepareEd(e: Esc): void {
  e.cup(1, 1).w("a").cup(1, 3).w("bcd").cup(1, 5).w("e").cup(2, 3);
}

const PROTECTED_KEPT = ["a  ", "   ", "bcd", "   ", "e  "];

for (
  const [name, sca, at, decsed, want] of [
    ["test_DECSED_Default_Protection", 0, [2, 5], "", PROTECTED_KEPT],
    ["test_DECSED_DECSCA_2", 2, [2, 5], "", PROTECTED_KEPT],
    ["test_DECSED_0_Protection", 0, [2, 5], "0", PROTECTED_KEPT],
    ["test_DECSED_1_Protection", 0, [2, 1], "1", PROTECTED_KEPT],
    ["test_DECSED_2_Protection", 0, [2, 1], "2", PROTECTED_KEPT],
    ["test_DECSED_3_Protection", 0, [2, 1], "3", [
      "aX ",
      ...PROTECTED_KEPT.slice(1),
    ]],
  ] as [string, number, [number, number], string, string[]][]
) {
  esctest(name, (e) => {
    e.w(DECSCA(1));
    prepareEd(e);
    e.w(DECSCA(sca)).cup(...at).w("X");
    if (decsed !== "2" && decsed !== "3") e.cup(2, 3); // as esctest2
    e.w(`${CSI}?${decsed}J`);
    assertEquals(e.chars(1, 1, 3, 5), want);
  });
}

// ------------------------------------------------------------------- tabs

esctest("test_CHT_IgnoresScrollingRegion", (e) => {
  e.decset(DECLRMM).w(`${CSI}5;30s`).cup(7, 9).w(`${CSI}2I`);
  assertEquals(e.pos()[0], 17);
});

esctest("test_CBT_StopsAtLeftEdge", (e) => {
  e.cup(25, 2).w(`${CSI}5Z`);
  assertEquals(e.pos(), [1, 2]);
});

esctest("test_CBT_IgnoresRegion", (e) => {
  e.decset(DECLRMM).w(`${CSI}5;30s`).cup(7, 9).w(`${CSI}2Z`);
  assertEquals(e.pos()[0], 1);
});

esctest("test_HTS_Basic", (e) => {
  e.w(`${CSI}3g`).cup(20, 1).w(`${ESC}H`).cup(1, 1).w(TAB);
  assertEquals(e.pos()[0], 20);
});

esctest("test_HTS_8bit", (e) => {
  e.w(`${CSI}3g`).cup(20, 1).w(S8C1T).w("\x88").w(S7C1T).cup(1, 1).w(TAB);
  assertEquals(e.pos()[0], 20);
});

// ------------------------------------------------ alternate screen, DECSET

/** esctest2's doAltBuftest. */
function altBufTest(
  e: Esc,
  code: number,
  altClearedBeforeMain: boolean,
  cursorSaved: boolean,
  movesCursorOnEnter = false,
): void {
  e.w("abc" + CRLF + "abc");
  const main = e.pos();
  let before = e.pos();
  e.decset(code);
  if (!movesCursorOnEnter) assertEquals(e.pos(), before);
  e.w(`${CSI}2J`).cup(1, 2).w("def" + CRLF + "def");
  assertEquals(e.chars(1, 1, 3, 3), ["   ", "def", "def"]);
  before = e.pos();
  e.decreset(code);
  assertEquals(e.pos(), cursorSaved ? main : before);
  assertEquals(e.chars(1, 1, 3, 3), ["abc", "abc", "   "]);
  before = e.pos();
  e.decset(code);
  if (!movesCursorOnEnter) assertEquals(e.pos(), before);
  assertEquals(
    e.chars(1, 1, 3, 3),
    altClearedBeforeMain ? ["   ", "   ", "   "] : ["   ", "def", "def"],
  );
}

esctest("test_DECSET_OPT_ALTBUF", (e) => altBufTest(e, 1047, true, false));
esctest("test_DECSET_ALTBUF", (e) => altBufTest(e, 47, false, false));
esctest(
  "test_DECSET_OPT_ALTBUF_CURSOR",
  (e) => altBufTest(e, 1049, true, true, true),
);

esctest("test_DECSET_DECLRMM", (e) => {
  e.decset(DECLRMM).w(`${CSI}2;4s`).w("abcdefgh").decreset(DECLRMM);
  assertEquals(e.chars(1, 1, 4, 3), ["abcd", " efg", " h  "]);
  e.cup(1, 1).w("ABCDEFGH");
  assertEquals(e.chars(1, 1, 8, 1), ["ABCDEFGH"]);
});

esctest("test_DECSET_DECLRMM_MarginsResetByDECSTR", (e) => {
  e.w(`${CSI}2;4s`).w(`${CSI}!p`).decset(DECLRMM).cup(3, 3).w("abc");
  assertEquals(e.pos()[0], 6);
});

esctest("test_DECSET_DECLRMM_ModeResetByDECSTR", (e) => {
  e.decset(DECLRMM).w(`${CSI}!p`).w(`${CSI}2;4s`).cup(3, 3).w("abc");
  assertEquals(e.pos()[0], 6);
});

esctest("test_DECSET_DECNCSM", (e) => {
  e.decset(40); // xterm needs Allow80To132 (esctest's XTERM_WINOPS_ENABLED)
  const step = (col132: boolean, ncsm: boolean, ch: string, want: string) => {
    if (col132) e.decset(3);
    else e.decreset(3);
    if (ncsm) e.decset(95);
    else e.decreset(95);
    e.cup(1, 1).w(ch);
    if (col132) e.decreset(3);
    else e.decset(3);
    assertEquals(e.chars(1, 1, 1, 1), [want]);
  };
  step(false, true, "1", "1");
  step(true, true, "2", "2");
  step(false, false, "3", " ");
  step(true, false, "4", " ");
});

esctest("test_DECSET_SaveRestoreCursor", (e) => {
  e.cup(2, 3).decset(1048).cup(5, 5).decreset(1048);
  assertEquals(e.pos(), [2, 3]);
});

esctest("test_XtermSave_SaveSetState", (e) => {
  e.decset(DECAWM).w(`${CSI}?7s`).decreset(DECAWM).w(`${CSI}?7r`);
  e.cup(e.width - 1, 1).w("xxx");
  assertEquals(e.pos()[0], 2);
});

esctest("test_XtermSave_SaveResetState", (e) => {
  e.decreset(DECAWM).w(`${CSI}?7s`).decset(DECAWM).w(`${CSI}?7r`);
  e.cup(e.width - 1, 1).w("xxx");
  assertEquals(e.pos()[0], e.width);
});

// ------------------------------------------------------- DECSTR, DECSC/DECRC

const DECSTR = `${CSI}!p`;

esctest("test_DECSTR_DECAWM", (e) => {
  e.decset(DECAWM).w(DECSTR).cup(e.width - 1, 1).w("xxx");
  assertEquals(e.pos()[0], 2);
});

esctest("test_DECSTR_ReverseWraparound", (e) => {
  e.decset(RW).w(DECSTR).cup(1, 2).w(BS);
  assertEquals(e.pos()[0], 1);
});

esctest("test_DECSTR_STBM", (e) => {
  e.w(`${CSI}3;4r`).w(DECSTR).cup(1, 4).w(CRLF);
  assertEquals(e.pos()[1], 5);
});

esctest("test_DECSTR_DECSCA", (e) => {
  e.w(DECSCA(1)).w(DECSTR).cup(1, 1).w("X").w(`${CSI}?2J`);
  assertEquals(e.chars(1, 1, 1, 1), [" "]);
});

esctest("test_DECSTR_DECSASD", (e) => {
  e.w(`${CSI}1$}`).w(DECSTR);
  assertEquals(e.pos(), [1, 1]);
  e.w("X");
  assertEquals(e.chars(1, 1, 1, 1), ["X"]);
});

esctest("test_DECSTR_DECLRMM", (e) => {
  e.decset(DECLRMM).w(`${CSI}5;6s`).w(DECSTR).cup(5, 5).w("ab");
  assertEquals(e.pos()[0], 7);
});

esctest("test_DECSTR_CursorStaysPut", (e) => {
  e.cup(5, 6).w(DECSTR);
  assertEquals(e.pos(), [5, 6]);
});

esctest("test_SaveRestoreCursor_Protection", (e) => {
  e.w(DECSCA(1)).w(`${ESC}7`).w(DECSCA(0)).w(`${ESC}8`);
  e.w("a").w(`${CSI}1;1;1;1\${`);
  assertEquals(e.chars(1, 1, 1, 1), ["a"]);
});

esctest("test_SaveRestoreCursor_Wrap", (e) => {
  e.decset(DECAWM).w(`${ESC}7`).decreset(DECAWM).w(`${ESC}8`);
  e.cup(e.width - 1, 1).w("abcd");
  assertEquals(e.pos()[1], 1); // xterm: DECRC does not restore DECAWM
});

esctest("test_SaveRestoreCursor_ReverseWrapNotAffected", (e) => {
  e.decset(RW).w(`${ESC}7`).decreset(RW).w(`${ESC}8`).cup(1, 2).w(BS);
  assertEquals(e.pos()[0], 1);
});

esctest("test_SaveRestoreCursor_InsertNotAffected", (e) => {
  e.w(`${CSI}4h`).w(`${ESC}7`).w(`${CSI}4l`).w(`${ESC}8`);
  e.cup(1, 1).w("a").cup(1, 1).w("b");
  assertEquals(e.chars(1, 1, 2, 1), ["b "]);
});

// ---------------------------------------------------------------- DECRQSS

for (
  const [name, set, request, want] of [
    ["DECSASD", `${CSI}0$}`, "$}", "0$}"],
    ["DECSCA", DECSCA(1), '"q', '1"q'],
    ["DECSCL", decscl(65, 1), '"p', '65;1"p'],
    ["DECSTBM", `${CSI}5;6r`, "r", "5;6r"],
    ["SGR", `${CSI}1m`, "m", "0;1m"],
    ["DECSCUSR", `${CSI}4 q`, " q", "4 q"],
    ["DECSLRM", `${CSI}?69h${CSI}3;4s`, "s", "3;4s"],
    ["DECSNLS", `${CSI}24*|`, "*|", "24*|"],
    ["DECSSDT", `${CSI}0$~`, "$~", "0$~"],
    // Beyond xterm: keyboard settings domterm has only as their defaults.
    ["DECELF", `${CSI}0+q`, "+q", "0+q"],
    ["DECLFKC", `${CSI}0*}`, "*}", "0*}"],
    ["DECSMKR", `${CSI}0+r`, "+r", "0+r"],
  ]
) {
  esctest(`test_DECRQSS_${name}`, (e) => {
    e.w(set).read();
    e.w(`${DCS}$q${request}${ST}`);
    assertEquals(e.read(), `${DCS}1$r${want}${ST}`);
  });
}
