import { A_WIDE } from "../../core/model/cell.ts";
import {
  assert,
  assertEquals,
  checkCells,
  checkInvariants,
  CSI,
  historyLines,
  makeTerminal,
  screenLine,
  screenText,
} from "./helpers.ts";

Deno.test("resize: growing columns extends lines and keeps content", () => {
  const { term, events } = makeTerminal(5, 3);
  term.write("abcde\r\nxy");
  term.resize(8, 3);
  checkInvariants(term);
  assertEquals(screenText(term), "abcde\nxy");
  assertEquals(screenLine(term, 0).cols, 8);
  assertEquals(events.at(-1), { type: "resize", cols: 8, rows: 3 });
  term.write("\r\n12345678");
  assertEquals(screenText(term), "abcde\nxy\n12345678");
});

Deno.test("resize: shrinking columns reflows, history too", () => {
  const { term } = makeTerminal(6, 2);
  term.write("hello!\r\nworld?\r\nabcdef");
  term.resize(3, 2);
  checkInvariants(term);
  assertEquals(screenText(term), "abc\ndef");
  assertEquals(historyLines(term), ["hel", "lo!", "wor", "ld?"]);
  assertEquals(term.normalBuffer.getLine(0).cols, 3);
  assertEquals([term.cursorX, term.cursorY, term.wrapPending], [2, 1, true]);
});

Deno.test("resize: a pending wrap stays pending where the text still ends at the edge", () => {
  const { term } = makeTerminal(10, 3);
  term.write("0123456789");
  assert(term.wrapPending);
  term.resize(5, 3);
  assertEquals([term.cursorX, term.cursorY], [4, 1]);
  assert(term.wrapPending);
  term.write("x");
  assertEquals(screenText(term), "01234\n56789\nx");
  term.resize(20, 3);
  assertEquals([term.cursorX, term.cursorY], [11, 0]);
  assert(!term.wrapPending);
});

Deno.test("resize: a wide char that does not fit moves to the next row", () => {
  const { term } = makeTerminal(6, 2);
  term.write("ab字cd");
  term.resize(3, 2);
  checkInvariants(term);
  checkCells(term);
  assertEquals(screenText(term), "字c\nd");
  assertEquals(historyLines(term), ["ab"]);
  assertEquals(term.normalBuffer.getLine(0).attr(2) & A_WIDE, 0);
  assertEquals([term.cursorX, term.cursorY], [1, 1]);
});

Deno.test("resize: fewer rows push top lines into history when the cursor is low", () => {
  const { term } = makeTerminal(10, 5);
  term.write("1\r\n2\r\n3\r\n4\r\n5");
  term.resize(10, 3);
  checkInvariants(term);
  assertEquals(screenText(term), "3\n4\n5");
  assertEquals(historyLines(term), ["1", "2"]);
  assertEquals(term.cursorY, 2);
});

Deno.test("resize: fewer rows drop lines below the cursor first", () => {
  const { term } = makeTerminal(10, 5);
  term.write(`1\r\n2${CSI}H`);
  term.resize(10, 3);
  checkInvariants(term);
  assertEquals(screenText(term), "1\n2");
  assertEquals(historyLines(term), []);
  assertEquals(term.cursorY, 0);
});

Deno.test("resize: more rows pull lines back from history", () => {
  const { term } = makeTerminal(10, 5);
  term.write("1\r\n2\r\n3\r\n4\r\n5");
  term.resize(10, 3);
  term.resize(10, 5);
  checkInvariants(term);
  assertEquals(screenText(term), "1\n2\n3\n4\n5");
  assertEquals(historyLines(term), []);
  assertEquals(term.cursorY, 4);
});

Deno.test("resize: more rows without history add blank lines", () => {
  const { term } = makeTerminal(10, 2);
  term.write("a\r\nb");
  term.resize(10, 4);
  checkInvariants(term);
  assertEquals(screenText(term), "a\nb");
  assertEquals(term.cursorY, 1);
  assertEquals(term.buffer.length, 4);
});

Deno.test("resize: margins are reset", () => {
  const { term } = makeTerminal(10, 5);
  term.write(`${CSI}2;4r${CSI}?69h${CSI}2;5s`);
  term.resize(12, 6);
  assertEquals(term.scrollRegion, { top: 0, bottom: 5 });
  assertEquals(term.margins, { left: 0, right: 11 });
});

Deno.test("resize: the alternate screen and the normal buffer both change", () => {
  const { term } = makeTerminal(10, 4);
  term.write(`1\r\n2\r\n3\r\n4${CSI}?1049h${CSI}Halt`);
  term.resize(6, 2);
  checkInvariants(term);
  assertEquals(term.buffer.isAlt, true);
  assertEquals(screenText(term), "alt");
  term.write(`${CSI}?1049l`);
  checkInvariants(term);
  assertEquals(screenText(term), "3\n4");
  assertEquals(historyLines(term), ["1", "2"]);
  assertEquals([term.cursorX, term.cursorY], [1, 1]);
});

Deno.test("resize: the saved cursor follows its cell", () => {
  const { term } = makeTerminal(10, 5);
  term.write(`${CSI}5;10H\x1b7`);
  term.resize(4, 2);
  term.write("\x1b8");
  checkInvariants(term);
  assertEquals([term.cursorX, term.cursorY], [1, 1]);
});

Deno.test("resize: tab stops follow the width", () => {
  const { term } = makeTerminal(10, 2);
  term.resize(30, 2);
  term.write("\t\t\t");
  assertEquals(term.cursorX, 24);
});

Deno.test("resize: same size is a no-op without an event", () => {
  const { term, events } = makeTerminal(10, 2);
  term.resize(10, 2);
  assertEquals(events, []);
});

Deno.test("resize: nonsense sizes are clamped", () => {
  const { term } = makeTerminal(10, 2);
  term.resize(0, -5);
  checkInvariants(term);
  assertEquals([term.cols, term.rows], [1, 1]);
  term.resize(NaN, 1e9);
  checkInvariants(term);
  term.write("hello\r\nworld 字");
  checkInvariants(term);
});

Deno.test("resize: writing after a resize uses the new width", () => {
  const { term } = makeTerminal(4, 3);
  term.write("abcd");
  term.resize(6, 3);
  term.write("efgh");
  assertEquals(screenText(term), "abcdef\ngh");
});
