/**
 * Embeds (HTML blocks and inline fragments, image blocks) on the screen:
 * what erasing, printing, scrolling, the alternate screen and resizing do
 * to them. The rule (core/model/line_extras.ts, `coverCells`): cells that
 * are erased or written over lose what was drawn over them, as xterm's
 * image pixels do; lines that move (full-width scrolls, IL/DL, history)
 * keep their embeds.
 */
import type { Terminal } from "../../core/emulator/terminal.ts";
import {
  assertEquals,
  CSI,
  DCS,
  expectEqual,
  makeTerminal,
  OSC,
  runCases,
  screenLines,
  ST,
} from "./helpers.ts";

const TABLE =
  "<table border=1><tr><th>name</th></tr><tr><td>TBL</td></tr></table>";
const block = (html = TABLE) => `${OSC}72;${html}\x07`;
const SIXEL = `${DCS}0;1;0q"1;1;2;6#0;2;100;0;0#0~~${ST}`;

/** The embeds of the active buffer's lines, "y kind" (y < 0: history). */
function embeds(term: Terminal): string[] {
  const buf = term.buffer;
  const out: string[] = [];
  const top = buf.length - term.rows;
  for (let i = 0; i < buf.length; i++) {
    const e = buf.getLine(i).extras;
    if (!e) continue;
    const y = i - top;
    if (e.block?.image) out.push(`${y} image`);
    else if (e.block) out.push(`${y} block ${e.block.html}`);
    for (const f of e.inline ?? []) out.push(`${y} inline@${f.x} ${f.html}`);
  }
  return out;
}

/** `clear` as ncurses' clear(1) sends it for TERM=xterm-256color. */
const CLEAR = `${CSI}H${CSI}2J${CSI}3J`;

runCases("embed on screen", [
  {
    name: "clear (CUP, ED 2, ED 3) drops a block on the screen: the lines " +
      "printed after it are plain rows",
    rows: 10,
    input: `$ printf table\r\n${block()}$ ${CLEAR}FIRSTROW\r\nSECONDROW\r\n$ `,
    screen: "FIRSTROW\nSECONDROW\n$ ",
    cursor: [2, 2],
    history: [],
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "clear, then a wrapped line: both of its rows are text",
    cols: 10,
    rows: 6,
    input: `$ x\r\n${block()}$ ${CLEAR}${"W".repeat(15)}\r\n`,
    screen: "WWWWWWWWWW\nWWWWW",
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "ED 2 alone drops blocks and inline fragments on the screen; " +
      "the history keeps its own",
    rows: 3,
    input: `${block("<div>old</div>")}a\r\nb\r\nc\r\n` +
      `${block("<div>new</div>")}x${OSC}72;<b>i</b>\x07${CSI}2J`,
    check: (t) =>
      expectEqual(embeds(t.term), ["-3 block <div>old</div>"], "embeds"),
  },
  {
    name: "ED 0 drops the blocks below the cursor, keeps those above",
    rows: 6,
    input: `${block("<div>A</div>")}x\r\n${block("<div>B</div>")}` +
      `${CSI}2;1H${CSI}J`,
    check: (t) =>
      expectEqual(embeds(t.term), ["0 block <div>A</div>"], "embeds"),
  },
  {
    name: "ED 1 drops the blocks above the cursor, keeps those below",
    rows: 6,
    input: `${block("<div>A</div>")}x\r\n${block("<div>B</div>")}` +
      `${CSI}2;1H${CSI}1J`,
    check: (t) =>
      expectEqual(embeds(t.term), ["2 block <div>B</div>"], "embeds"),
  },
  {
    name: "EL 2, EL 0 and ECH on a block line drop its block",
    rows: 6,
    input: `${block("<div>A</div>")}${block("<div>B</div>")}` +
      `${block("<div>C</div>")}${CSI}1;1H${CSI}2K${CSI}2;3H${CSI}K` +
      `${CSI}3;5H${CSI}X`,
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "text printed on a block line replaces the block",
    rows: 4,
    input: `${block()}${CSI}1;1Hover`,
    screen: "over",
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "DECALN, DECFRA and DECERA over a block line drop it",
    rows: 4,
    input: `${block("<div>A</div>")}${CSI}88;1;1;1;5$x` +
      `${block("<div>B</div>")}${CSI}2;1;2;3$z${block("<div>C</div>")}`,
    check: (t) => {
      expectEqual(embeds(t.term), ["2 block <div>C</div>"], "embeds");
      const t2 = makeTerminal(20, 3);
      t2.term.write(`${block()}\x1b#8`);
      expectEqual(embeds(t2.term), [], "after DECALN");
    },
  },
  {
    name: "inline fragments: an erase drops the ones inside it, not those " +
      "at its edge",
    input: `ab${OSC}72;<b>2</b>\x07cd${OSC}72;<b>4</b>\x07ef` +
      `${OSC}72;<b>6</b>\x07${CSI}1;3H${CSI}K`,
    screen: "ab",
    check: (t) =>
      expectEqual(embeds(t.term), ["0 inline@2 <b>2</b>"], "embeds"),
  },
  {
    name:
      "text printed at an inline fragment keeps it (it is written after it)",
    input: `a${OSC}72;<b>B</b>\x07c`,
    screen: "ac",
    check: (t) =>
      expectEqual(embeds(t.term), ["0 inline@1 <b>B</b>"], "embeds"),
  },
  {
    name: "SU scrolls a block line up into the history; SD moves it down",
    rows: 4,
    input: `${block("<div>A</div>")}x\r\n${block("<div>B</div>")}` +
      `${CSI}S${CSI}2T`,
    check: (t) =>
      expectEqual(embeds(t.term), [
        "-1 block <div>A</div>",
        "3 block <div>B</div>",
      ], "embeds"),
  },
  {
    name: "SD past the bottom and DL drop block lines with their line",
    rows: 4,
    input: `x\r\n${block("<div>A</div>")}${block("<div>B</div>")}` +
      `${CSI}2T${CSI}4;1H${CSI}M`,
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "IL moves a block line down with its line; a scroll region " +
      "scrolls it out without history",
    rows: 5,
    input: `${block("<div>A</div>")}${CSI}1;1H${CSI}L` +
      `${CSI}2;4r${CSI}4;1H\n\n`,
    check: (t) => {
      expectEqual(embeds(t.term), [], "embeds");
      expectEqual(t.term.normalBuffer.historyLength, 0, "history");
    },
  },
  {
    name: "a rectangle scrolled with left/right margins drops the blocks in it",
    rows: 4,
    input: `${block("<div>A</div>")}${CSI}?69h${CSI}2;5s${CSI}1;4r${CSI}S`,
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "the normal screen's blocks survive a visit to the alternate screen",
    rows: 4,
    input: `${block("<div>A</div>")}${CSI}?1049hX${CSI}2J${CSI}?1049l`,
    check: (t) =>
      expectEqual(embeds(t.term), ["0 block <div>A</div>"], "embeds"),
  },
  {
    name: "RIS drops blocks on the screen",
    rows: 4,
    input: `${block()}${SIXEL}\x1bc`,
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "a sixel block line goes with ED 2 like an HTML block",
    rows: 4,
    input: `${SIXEL}${CSI}2J`,
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
]);

runCases("embed after an inline fragment", [
  {
    name: "a block after an inline fragment alone at column 0 goes on the " +
      "next line; the fragment stays",
    input: `${OSC}72;<b>i</b>\x07${block("<div>d</div>")}`,
    cursor: [0, 2],
    check: (t) =>
      expectEqual(embeds(t.term), [
        "0 inline@0 <b>i</b>",
        "1 block <div>d</div>",
      ], "embeds"),
  },
  {
    name: "an image (sixel, File=) after an inline fragment keeps it too",
    input: `${OSC}72;<b>i</b>\x07${SIXEL}${OSC}72;<b>j</b>\x07` +
      `${OSC}1337;File=inline=1:${btoa("\x89PNG\r\n\x1a\n\0\0\0\r")}\x07`,
    cursor: [0, 4],
    check: (t) =>
      expectEqual(embeds(t.term), [
        "0 inline@0 <b>i</b>",
        "1 image",
        "2 inline@0 <b>j</b>",
        "3 image",
      ], "embeds"),
  },
  {
    name: "a block on a block line (the cursor moved up onto it) goes below it",
    rows: 6,
    input: `${block("<div>A</div>")}${CSI}1;1H${block("<div>B</div>")}`,
    cursor: [0, 2],
    check: (t) =>
      expectEqual(embeds(t.term), [
        "0 block <div>A</div>",
        "1 block <div>B</div>",
      ], "embeds"),
  },
  {
    name: "a block written where the cursor was moved up over text replaces " +
      "that row (the model keeps no text hidden under a block)",
    rows: 6,
    input: `a\r\nb\r\nc${CSI}1;1H${block("<div>B</div>")}`,
    screen: "a\n\nc",
    cursor: [0, 2],
    check: (t) =>
      expectEqual(embeds(t.term), ["1 block <div>B</div>"], "embeds"),
  },
]);

Deno.test("embed on screen: resize keeps a block a line of its own; ED 2 after it drops it", () => {
  const t = makeTerminal(20, 6);
  t.term.write(`abc\r\n${block("<div>A</div>")}def`);
  t.term.resize(8, 6);
  t.term.resize(30, 4);
  expectEqual(embeds(t.term), ["1 block <div>A</div>"], "after resizes");
  assertEquals(screenLines(t.term).slice(0, 3), ["abc", "", "def"]);
  t.term.write(`${CSI}2J`);
  expectEqual(embeds(t.term), [], "after ED 2");
});

Deno.test("embed on screen: fresh-line (CSI 20 u, OSC 133 A) counts a line holding only an inline fragment as not empty", () => {
  const t = makeTerminal(20, 4);
  t.term.write(`${OSC}72;<b>B</b>\x07${OSC}133;A\x07$ ${CSI}K`);
  expectEqual(embeds(t.term), ["0 inline@0 <b>B</b>"], "embeds");
  assertEquals([t.term.cursorX, t.term.cursorY], [2, 1]);
});
