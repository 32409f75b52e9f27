import { Terminal } from "../../core/emulator/terminal.ts";
import { Buffer } from "../../core/model/buffer.ts";
import { Line } from "../../core/model/line.ts";
import { paletteColor } from "../../core/model/cell.ts";
import { assert, assertEquals } from "./helpers.ts";

function lineOf(cols: number, text: string): Line {
  const l = new Line(cols);
  for (let i = 0; i < text.length && i < cols; i++) {
    l.set(i, text.charCodeAt(i), 0, 0, 0);
  }
  return l;
}

function screen(b: Buffer): string[] {
  const out: string[] = [];
  for (let y = 0; y < b.rows; y++) out.push(b.screenLine(y).toString(true));
  return out;
}

function all(b: Buffer): string[] {
  const out: string[] = [];
  for (let i = 0; i < b.length; i++) out.push(b.getLine(i).toString(true));
  return out;
}

/** Resize with the cursor on row `y`; returns the cursor row after. */
function resizeAt(b: Buffer, cols: number, rows: number, y: number): number {
  const cursor = { x: 0, y, wrapPending: false };
  b.resize(cols, rows, cursor);
  return cursor.y;
}

/** Scroll the full screen once and write `text` on the new bottom line. */
function pushText(b: Buffer, text: string): void {
  b.scrollUp(0, b.rows - 1, 1, 0, true);
  b.setScreenLine(b.rows - 1, lineOf(b.cols, text));
}

Deno.test("buffer: starts with rows blank lines", () => {
  const b = new Buffer(5, 3, 100);
  assertEquals(b.length, 3);
  assertEquals(b.historyLength, 0);
  assertEquals(b.trimmed, 0);
  assertEquals(b.screenLine(0).cols, 5);
  assert(!b.isAlt);
});

Deno.test("buffer: scrolling the full screen moves lines into history", () => {
  const b = new Buffer(5, 2, 100);
  b.setScreenLine(0, lineOf(5, "a"));
  b.setScreenLine(1, lineOf(5, "b"));
  pushText(b, "c");
  assertEquals(all(b), ["a", "b", "c"]);
  assertEquals(screen(b), ["b", "c"]);
  assertEquals(b.historyLength, 1);
});

Deno.test("buffer: the scrollback limit trims the oldest lines (ring wrap-around)", () => {
  const b = new Buffer(6, 3, 5);
  for (let i = 0; i < 100; i++) pushText(b, `L${i}`);
  assertEquals(b.length, 8);
  assertEquals(b.trimmed, 100 + 3 - 8);
  assertEquals(b.getLine(0).toString(true), "L92");
  assertEquals(screen(b), ["L97", "L98", "L99"]);
});

Deno.test("buffer: trimmed + index is a stable line number", () => {
  const b = new Buffer(6, 2, 3);
  for (let i = 0; i < 20; i++) pushText(b, `L${i}`);
  const line = b.getLine(2);
  const absolute = b.trimmed + 2;
  pushText(b, "more");
  assertEquals(b.getLine(absolute - b.trimmed), line);
});

Deno.test("buffer: infinite scrollback keeps everything", () => {
  const b = new Buffer(8, 2, Infinity);
  for (let i = 0; i < 5000; i++) pushText(b, `L${i}`);
  assertEquals(b.length, 5002);
  assertEquals(b.trimmed, 0);
  assertEquals(b.getLine(2).toString(true), "L0");
  assertEquals(b.getLine(5001).toString(true), "L4999");
});

Deno.test("buffer: scrollback 0 keeps only the screen", () => {
  const b = new Buffer(5, 2, 0);
  for (let i = 0; i < 10; i++) pushText(b, `${i}`);
  assertEquals(all(b), ["8", "9"]);
});

Deno.test("buffer: partial region scroll discards the top line", () => {
  const b = new Buffer(5, 4, 100);
  for (let y = 0; y < 4; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  b.scrollUp(1, 2, 1, 0, true);
  assertEquals(all(b), ["0", "2", "", "3"]);
});

Deno.test("buffer: top-0 region scroll goes to history, rows below stay", () => {
  const b = new Buffer(5, 4, 100);
  for (let y = 0; y < 4; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  b.scrollUp(0, 1, 1, 0, true);
  assertEquals(all(b), ["0", "1", "", "2", "3"]);
  assertEquals(b.historyLength, 1);
});

Deno.test("buffer: scroll by more than the region", () => {
  const b = new Buffer(5, 3, 100);
  for (let y = 0; y < 3; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  b.scrollUp(0, 2, 99, 0, false);
  assertEquals(all(b), ["", "", ""]);
});

Deno.test("buffer: new lines take the erase background", () => {
  const b = new Buffer(5, 2, 100);
  b.scrollUp(0, 1, 1, paletteColor(4), true);
  assertEquals(b.screenLine(1).bg(3), paletteColor(4));
});

Deno.test("buffer: scrollDown", () => {
  const b = new Buffer(5, 4, 100);
  for (let y = 0; y < 4; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  b.scrollDown(1, 3, 2, 0);
  assertEquals(screen(b), ["0", "", "", "1"]);
});

Deno.test("buffer: rectangle scrolls move cells only", () => {
  const b = new Buffer(4, 3, 100);
  b.setScreenLine(0, lineOf(4, "abcd"));
  b.setScreenLine(1, lineOf(4, "efgh"));
  b.setScreenLine(2, lineOf(4, "ijkl"));
  b.scrollRectUp(0, 2, 1, 2, 1, 0);
  assertEquals(screen(b), ["afgd", "ejkh", "i  l"]);
  b.scrollRectDown(0, 2, 1, 2, 1, 0);
  assertEquals(screen(b), ["a  d", "efgh", "ijkl"]);
  assertEquals(b.historyLength, 0);
});

Deno.test("buffer: clearHistory counts trimmed lines", () => {
  const b = new Buffer(5, 2, 100);
  for (let i = 0; i < 7; i++) pushText(b, `${i}`);
  b.clearHistory();
  assertEquals(b.length, 2);
  assertEquals(b.trimmed, 7);
  assertEquals(screen(b), ["5", "6"]);
});

Deno.test("buffer: the alternate buffer never keeps history", () => {
  const b = new Buffer(5, 2, 100, true);
  assert(b.isAlt);
  for (let i = 0; i < 5; i++) pushText(b, `${i}`);
  assertEquals(all(b), ["3", "4"]);
});

Deno.test("buffer: resize rows down with the cursor at the bottom", () => {
  const b = new Buffer(5, 4, 100);
  for (let y = 0; y < 4; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  assertEquals(resizeAt(b, 5, 2, 3), 1);
  assertEquals(screen(b), ["2", "3"]);
  assertEquals(b.historyLength, 2);
});

Deno.test("buffer: resize rows down drops blank lines below the cursor first", () => {
  const b = new Buffer(5, 5, 100);
  for (let y = 0; y < 3; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  assertEquals(resizeAt(b, 5, 3, 1), 1);
  assertEquals(all(b), ["0", "1", "2"]);
});

Deno.test("buffer: resize rows down keeps lines below the cursor that have text", () => {
  const b = new Buffer(5, 4, 100);
  for (let y = 0; y < 4; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  assertEquals(resizeAt(b, 5, 3, 1), 0);
  assertEquals(screen(b), ["1", "2", "3"]);
  assertEquals(b.historyLength, 1);
});

Deno.test("buffer: resize rows down drops lines below a cursor at the top", () => {
  const b = new Buffer(5, 4, 100);
  for (let y = 0; y < 4; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  assertEquals(resizeAt(b, 5, 2, 0), 0);
  assertEquals(all(b), ["0", "1"]);
});

Deno.test("buffer: resize rows up pulls history back", () => {
  const b = new Buffer(5, 2, 100);
  for (let i = 0; i < 3; i++) pushText(b, `${i}`);
  // History holds the two initial blank lines and "0".
  assertEquals(resizeAt(b, 5, 4, 1), 3);
  assertEquals(screen(b), ["", "0", "1", "2"]);
  assertEquals(b.historyLength, 1);
  assertEquals(resizeAt(b, 5, 6, 3), 4);
  assertEquals(screen(b), ["", "", "0", "1", "2", ""]);
  assertEquals(b.historyLength, 0);
});

Deno.test("buffer: alternate resize down drops top lines", () => {
  const b = new Buffer(5, 3, 0, true);
  for (let y = 0; y < 3; y++) b.setScreenLine(y, lineOf(5, `${y}`));
  assertEquals(resizeAt(b, 5, 2, 2), 1);
  assertEquals(all(b), ["1", "2"]);
});

Deno.test("buffer: resize columns reflows history", () => {
  const b = new Buffer(5, 2, 100);
  pushText(b, "hello");
  pushText(b, "world");
  resizeAt(b, 3, 2, 1);
  for (let i = 0; i < b.length; i++) assertEquals(b.getLine(i).cols, 3);
  assertEquals(all(b), ["", "", "hel", "lo", "wor", "ld"]);
  assertEquals(screen(b), ["wor", "ld"]);
});

Deno.test("buffer: the alternate buffer truncates instead of reflowing", () => {
  const b = new Buffer(5, 2, 0, true);
  b.setScreenLine(0, lineOf(5, "hello"));
  resizeAt(b, 3, 2, 1);
  assertEquals(all(b), ["hel", ""]);
});

Deno.test("buffer: reflow keeps the top line when blank rows were at the bottom", () => {
  const b = new Buffer(6, 4, 100);
  b.setScreenLine(0, lineOf(6, "abcdef"));
  b.setScreenLine(1, lineOf(6, "$"));
  const cursor = { x: 1, y: 1, wrapPending: false };
  b.resize(3, 4, cursor);
  assertEquals(screen(b), ["abc", "def", "$", ""]);
  assertEquals(cursor, { x: 1, y: 2, wrapPending: false });
  b.resize(6, 4, cursor);
  assertEquals(screen(b), ["abcdef", "$", "", ""]);
  assertEquals(cursor, { x: 1, y: 1, wrapPending: false });
  assertEquals(b.historyLength, 0);
});

Deno.test("buffer: reflow of a full screen keeps its bottom", () => {
  const b = new Buffer(6, 2, 100);
  pushText(b, "abcdef");
  pushText(b, "$");
  const cursor = { x: 1, y: 1, wrapPending: false };
  b.resize(3, 2, cursor);
  assertEquals(screen(b), ["def", "$"]);
  assertEquals(cursor.y, 1);
  b.resize(6, 2, cursor);
  assertEquals(screen(b), ["abcdef", "$"]);
  assertEquals(b.historyLength, 2);
});

Deno.test("buffer: reflow trims to the scrollback limit", () => {
  const b = new Buffer(4, 2, 3);
  for (let i = 0; i < 5; i++) pushText(b, `${i}${i}${i}${i}`);
  const before = b.trimmed;
  const cursor = { x: 0, y: 1, wrapPending: false };
  b.resize(2, 2, cursor);
  assertEquals(b.length, 5);
  assertEquals(b.trimmed, before + 5);
  assertEquals(all(b), ["22", "33", "33", "44", "44"]);
  assertEquals(cursor.y, 0);
  assertEquals(screen(b), ["44", "44"]);
});

Deno.test("buffer: lowering the scrollback limit trims", () => {
  const b = new Buffer(5, 2, 100);
  for (let i = 0; i < 10; i++) pushText(b, `${i}`);
  b.scrollback = 3;
  assertEquals(b.length, 5);
  assertEquals(b.getLine(0).toString(true), "5");
});

// Line.hi: a line handed out again is cleared only below its `hi`, so every
// way of writing cells must raise it. Each input writes cells its own way;
// then the lines scroll out of a 3-line history and come back as new blank
// lines, which must be blank in every word.
const HI_WRITERS: [string, string][] = [
  ["print ASCII", "hello world"],
  ["print wide and combining", "字😀e\u0301❤\ufe0f"],
  ["erase to end of line in colour", "\x1b[44m\x1b[K\x1b[m"],
  ["erase characters in colour", "\x1b[41m\x1b[30X\x1b[m"],
  ["insert characters shift text right", "abc\r\x1b[40@"],
  ["insert mode", "xyz\r\x1b[4h\x1b[42m1234\x1b[4l\x1b[m"],
  ["repeat", "a\x1b[60b"],
  ["change attributes in a rectangle", "\x1b[1;1;2;70;1;4$r"],
  ["reverse attributes in a rectangle", "\x1b[1;1;2;70;7$t"],
  ["fill a rectangle", "\x1b[35;1;1;2;70$x"],
  ["copy a rectangle", "text\x1b[1;1;1;10;1;2;30;1$v"],
  ["double width line", "\x1b#6dw"],
  ["alignment test", "\x1b#8"],
];

for (const [name, input] of HI_WRITERS) {
  Deno.test(`Line.hi: recycled lines come back blank after ${name}`, () => {
    const t = new Terminal({ cols: 80, rows: 2, scrollback: 3 });
    for (let k = 0; k < 3; k++) {
      t.write(`\x1b[H\x1b[2J${input}`);
      // Every line, the ones just written included, goes through history
      // and back into the free list.
      t.write("\n".repeat(12));
    }
    const b = t.normalBuffer;
    for (let i = 0; i < b.length; i++) {
      const l = b.getLine(i);
      assert(
        l.data.every((w) => w === 0),
        `${name}: line ${i} of ${b.length} is not blank: ${
          JSON.stringify(l.toString(true))
        }`,
      );
    }
  });
}

Deno.test("buffer: scrollUpLines(n) is n full-screen scrolls, whatever n, the lines held and the limit", () => {
  for (const scrollback of [0, 2, 7]) {
    for (const held of [0, 3, 9]) {
      for (const n of [0, 1, 2, 5, 9, 10, 13, 40]) {
        const a = new Buffer(4, 3, scrollback);
        const b = new Buffer(4, 3, scrollback);
        for (let i = 0; i < held; i++) {
          pushText(a, `h${i}`);
          pushText(b, `h${i}`);
        }
        for (let k = 0; k < n; k++) a.scrollUp(0, a.rows - 1, 1, 0, true);
        b.scrollUpLines(n, 0);
        const label = `scrollback ${scrollback}, ${held} held, n ${n}`;
        assertEquals(all(b), all(a), label);
        assertEquals(b.trimmed, a.trimmed, label);
        assertEquals(b.length, a.length, label);
      }
    }
  }
});
