import { A_BOLD } from "../../core/model/cell.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import {
  assert,
  assertEquals,
  cell,
  CSI,
  ESC,
  historyLines,
  runCases,
  screenText,
  type TestTerminal,
} from "./helpers.ts";

const modeEvents = (t: TestTerminal) =>
  t.events.filter((e) => e.type === "modes").length;
const bufferEvents = (t: TestTerminal) =>
  t.events.filter((e) => e.type === "buffer").length;

runCases("modes", [
  {
    name: "DECTCEM",
    input: `${CSI}?25l`,
    check: (t) => {
      assertEquals(t.term.cursorVisible, false);
      assertEquals(modeEvents(t), 1);
    },
  },
  {
    name: "DECTCEM on",
    input: `${CSI}?25l${CSI}?25h`,
    check: (t) => assert(t.term.cursorVisible),
  },
  {
    name: "DECCKM",
    input: `${CSI}?1h`,
    check: (t) => assert(t.term.modes.applicationCursorKeys),
  },
  {
    name: "DECCKM off",
    input: `${CSI}?1h${CSI}?1l`,
    check: (t) => assert(!t.term.modes.applicationCursorKeys),
  },
  {
    name: "DECKPAM / DECKPNM",
    input: `${ESC}=`,
    check: (t) => {
      assert(t.term.modes.applicationKeypad);
      t.term.write(`${ESC}>`);
      assert(!t.term.modes.applicationKeypad);
      assertEquals(modeEvents(t), 2);
    },
  },
  {
    name: "DECNKM (?66)",
    input: `${CSI}?66h`,
    check: (t) => assert(t.term.modes.applicationKeypad),
  },
  {
    name: "bracketed paste",
    input: `${CSI}?2004h`,
    check: (t) => assert(t.term.modes.bracketedPaste),
  },
  {
    name: "focus events",
    input: `${CSI}?1004h`,
    check: (t) => assert(t.term.modes.sendFocus),
  },
  {
    name: "mouse X10 (?9)",
    input: `${CSI}?9h`,
    check: (t) => assertEquals(t.term.modes.mouseTracking, 9),
  },
  {
    name: "mouse ?1000",
    input: `${CSI}?1000h`,
    check: (t) => assertEquals(t.term.modes.mouseTracking, 1000),
  },
  {
    name: "mouse ?1002",
    input: `${CSI}?1002h`,
    check: (t) => assertEquals(t.term.modes.mouseTracking, 1002),
  },
  {
    name: "mouse ?1003",
    input: `${CSI}?1003h`,
    check: (t) => assertEquals(t.term.modes.mouseTracking, 1003),
  },
  {
    name: "mouse off",
    input: `${CSI}?1002h${CSI}?1002l`,
    check: (t) => assertEquals(t.term.modes.mouseTracking, 0),
  },
  {
    name: "SGR mouse encoding",
    input: `${CSI}?1006h`,
    check: (t) => assertEquals(t.term.modes.mouseEncoding, 1006),
  },
  {
    name: "UTF-8 mouse encoding",
    input: `${CSI}?1005h`,
    check: (t) => assertEquals(t.term.modes.mouseEncoding, 1005),
  },
  {
    name: "urxvt mouse encoding",
    input: `${CSI}?1015h`,
    check: (t) => assertEquals(t.term.modes.mouseEncoding, 1015),
  },
  {
    name: "SGR-pixels mouse encoding",
    input: `${CSI}?1016h`,
    check: (t) => assertEquals(t.term.modes.mouseEncoding, 1016),
  },
  {
    name: "resetting another encoding keeps the current one",
    input: `${CSI}?1006h${CSI}?1015l`,
    check: (t) => assertEquals(t.term.modes.mouseEncoding, 1006),
  },
  {
    name: "several modes in one sequence",
    input: `${CSI}?1000;1006;2004h`,
    check: (t) => {
      assertEquals(t.term.modes.mouseTracking, 1000);
      assertEquals(t.term.modes.mouseEncoding, 1006);
      assert(t.term.modes.bracketedPaste);
    },
  },
  {
    name: "LNM",
    input: `${CSI}20h`,
    check: (t) => assert(t.term.modes.newlineMode),
  },
  {
    name: "DECSCNM",
    input: `${CSI}?5h`,
    check: (t) => assert(t.term.reverseVideo),
  },
  {
    name: "cursor blink ?12",
    input: `${CSI}?12h`,
    check: (t) => assert(t.term.cursorBlink),
  },
  {
    name: "synchronized output ?2026",
    input: `${CSI}?2026h`,
    check: (t) => assert(t.term.synchronizedOutput),
  },
  {
    name: "DECSCUSR 4: steady underline",
    input: `${CSI}4 q`,
    check: (t) => {
      assertEquals(t.term.cursorStyle, "underline");
      assertEquals(t.term.cursorBlink, false);
    },
  },
  {
    name: "DECSCUSR 5: blinking bar",
    input: `${CSI}5 q`,
    check: (t) => {
      assertEquals(t.term.cursorStyle, "bar");
      assertEquals(t.term.cursorBlink, true);
    },
  },
  {
    name: "DECSCUSR 0: blinking block",
    input: `${CSI}6 q${CSI}0 q`,
    check: (t) => {
      assertEquals(t.term.cursorStyle, "block");
      assertEquals(t.term.cursorBlink, true);
    },
  },
  {
    name: "DECSCUSR 2: steady block",
    input: `${CSI}2 q`,
    check: (t) => assertEquals(t.term.cursorBlink, false),
  },
  {
    name: "XTMODKEYS modifyOtherKeys",
    input: `${CSI}>4;2m`,
    check: (t) => assertEquals(t.term.modes.modifyOtherKeys, 2),
  },
  {
    name: "XTMODKEYS reset",
    input: `${CSI}>4;2m${CSI}>4m`,
    check: (t) => assertEquals(t.term.modes.modifyOtherKeys, 0),
  },
  {
    name: "unknown modes are ignored",
    input: `${CSI}?31337h${CSI}99h${CSI}?h`,
    check: (t) => assertEquals(t.events.length, 0),
  },
  {
    name: "XTSAVE / XTRESTORE of a DEC mode",
    input: `${CSI}?7s${CSI}?7l${CSI}?7r`,
    check: (t) => assert(t.term.wrapPending === false),
    cols: 5,
    rows: 2,
    screen: "",
  },
  {
    name: "XTRESTORE brings autowrap back",
    cols: 5,
    rows: 2,
    input: `${CSI}?7s${CSI}?7l${CSI}?7rabcdefg`,
    screen: "abcde\nfg",
  },
  {
    name:
      "DECCOLM with ?40 clears, homes, resets margins and is 132 columns at once",
    cols: 10,
    rows: 3,
    input: `abc${CSI}2;3r${CSI}?40h${CSI}?3h`,
    screen: "",
    cursor: [0, 0],
    check: (t) => {
      assertEquals(t.term.cols, 132);
      assertEquals(t.term.scrollRegion, { top: 0, bottom: 2 });
    },
  },
  {
    name: "DECCOLM without ?40 is ignored (xterm's default)",
    cols: 10,
    rows: 3,
    input: `abc${CSI}2;3r${CSI}?3h${CSI}?3$p`,
    screen: "abc",
    cursor: [0, 0],
    replies: [`${CSI}?3;2$y`],
  },
]);

runCases("alternate screen", [
  {
    name: "?1049 saves the cursor, switches and clears",
    cols: 10,
    rows: 3,
    input: `main${CSI}?1049h`,
    screen: "",
    cursor: [4, 0],
    check: (t) => {
      assert(t.term.buffer.isAlt);
      assertEquals(bufferEvents(t), 1);
    },
  },
  {
    name: "?1049 reset restores the screen and the cursor",
    cols: 10,
    rows: 3,
    input: `main${CSI}?1049h${CSI}2;2Halt${CSI}?1049l`,
    screen: "main",
    cursor: [4, 0],
    check: (t) => {
      assert(!t.term.buffer.isAlt);
      assertEquals(bufferEvents(t), 2);
    },
  },
  {
    name: "?1049 clears the alternate screen on every entry",
    cols: 10,
    rows: 3,
    input: `${CSI}?1049hold${CSI}?1049l${CSI}?1049h`,
    screen: "",
  },
  {
    name: "?47 switches without clearing",
    cols: 10,
    rows: 3,
    input: `${CSI}?47hold${CSI}?47l${CSI}H${CSI}?47h`,
    screen: "old",
  },
  {
    name: "?47 keeps the cursor position",
    cols: 10,
    rows: 3,
    input: `ab${CSI}?47h`,
    cursor: [2, 0],
  },
  {
    name: "?1047 reset clears the alternate screen",
    cols: 10,
    rows: 3,
    input: `${CSI}?1047hold${CSI}?1047l${CSI}?47h`,
    screen: "",
  },
  {
    name: "?1048 saves and restores the cursor",
    cols: 10,
    rows: 3,
    input: `${CSI}2;3H${CSI}?1048h${CSI}H${CSI}?1048l`,
    cursor: [2, 1],
  },
  {
    name: "the alternate screen has no history",
    cols: 10,
    rows: 2,
    input: `keep\r\n${CSI}?1049h1\r\n2\r\n3\r\n4`,
    screen: "3\n4",
    check: (t) => {
      assertEquals(t.term.buffer.length, 2);
      assertEquals(historyLines(t.term), []);
    },
  },
  {
    name: "normal history is untouched by alternate output",
    cols: 10,
    rows: 2,
    input: `a\r\nb\r\nc${CSI}?1049h1\r\n2\r\n3${CSI}?1049l`,
    screen: "b\nc",
    history: ["a"],
  },
  {
    name: "saved cursors are per buffer",
    cols: 10,
    rows: 3,
    input: `${CSI}2;2H${ESC}7${CSI}?47h${CSI}3;3H${ESC}7${CSI}?47l${ESC}8`,
    cursor: [1, 1],
  },
]);

runCases("resets", [
  {
    name: "DECSTR",
    cols: 10,
    rows: 5,
    input:
      `${CSI}?25l${CSI}4h${CSI}?6h${CSI}2;3r${CSI}1m${CSI}?1h${ESC}(0${CSI}!px`,
    check: (t) => {
      const m = t.term.modes;
      assert(t.term.cursorVisible);
      assert(!m.applicationCursorKeys);
      assertEquals(t.term.scrollRegion, { top: 0, bottom: 4 });
      assertEquals(cell(t.term, 0, 1).attr, 0);
      assertEquals(cell(t.term, 0, 1).text, "x");
    },
  },
  {
    name: "DECSTR does not clear the screen or move the cursor",
    cols: 10,
    rows: 5,
    input: `abc${CSI}!p`,
    screen: "abc",
    cursor: [3, 0],
  },
  {
    name: "DECSTR keeps autowrap on",
    cols: 5,
    rows: 2,
    input: `${CSI}!pabcdefg`,
    screen: "abcde\nfg",
  },
  {
    name: "RIS clears the screen and resets modes",
    cols: 10,
    rows: 3,
    input: `${CSI}?1049habc${CSI}1m${CSI}?25l${CSI}?2004h${ESC}cx`,
    screen: "x",
    cursor: [1, 0],
    check: (t) => {
      assert(!t.term.buffer.isAlt);
      assert(t.term.cursorVisible);
      assert(!t.term.modes.bracketedPaste);
      assertEquals(cell(t.term, 0, 0).attr & A_BOLD, 0);
    },
  },
  {
    name: "RIS keeps history",
    cols: 10,
    rows: 2,
    input: `1\r\n2\r\n3${ESC}c`,
    history: ["1"],
    screen: "",
  },
  {
    name: "RIS resets tab stops",
    cols: 20,
    rows: 2,
    input: `${CSI}3g${ESC}c\t`,
    cursor: [8, 0],
  },
]);

runCases("modes (more)", [
  {
    name: "alternate scroll ?1007",
    input: `${CSI}?1007h`,
    check: (t) => assert(t.term.modes.alternateScroll),
  },
  {
    name: "DECST8C resets tab stops",
    cols: 20,
    rows: 2,
    input: `${CSI}3g${CSI}?5W\t`,
    cursor: [8, 0],
  },
  {
    name: "RIS in the middle of a chunk: parsing goes on",
    cols: 10,
    rows: 2,
    input: `abc${ESC}cxy${CSI}1mz`,
    screen: "xyz",
    check: (t) => assertEquals(cell(t.term, 2, 0).attr, A_BOLD),
  },
]);

Deno.test("write from inside a reply callback is queued, not re-entered", () => {
  const seen: string[] = [];
  const term: Terminal = new Terminal({
    cols: 10,
    rows: 2,
    reply: (d) => {
      seen.push(d);
      term.write("R");
    },
  });
  term.write(`a${CSI}5nb`);
  assertEquals(seen, [`${CSI}0n`]);
  assertEquals(screenText(term), "abR");
});
