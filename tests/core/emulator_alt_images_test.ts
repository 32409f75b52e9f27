/**
 * Images on the alternate screen (core/emulator/images.ts): a sixel or an
 * iTerm2 image covers the cells under it from the cursor, one piece per
 * row, instead of being dropped (sixel) or inserting block lines that
 * scroll the grid (File=). The pieces scroll, are erased and overwritten
 * with their cells, and go with the alternate screen.
 */
import type { Terminal } from "../../core/emulator/terminal.ts";
import { sixelSize } from "../../core/emulator/images.ts";
import {
  assertEquals,
  CSI,
  DCS,
  expectEqual,
  makeTerminal,
  OSC,
  ST,
} from "./helpers.ts";

/** A sixel of `w` x `h` pixels by its raster attributes (one red band). */
const sixel = (w: number, h: number) =>
  `${DCS}0;1;0q"1;1;${w};${h}#0;2;100;0;0#0!${w}~${ST}`;

/** The pieces on the active screen: "y: x+cols @col,row of WxH". */
function pieces(term: Terminal): string[] {
  const out: string[] = [];
  const buf = term.buffer;
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.length - term.rows + y);
    for (const p of line.extras?.images ?? []) {
      out.push(
        `${y}: ${p.x}+${p.cols} @${p.col},${p.row} of ${+p.width.toFixed(
          2,
        )}x${+p.height.toFixed(2)}`,
      );
    }
  }
  return out;
}

/** A 20 x 10 terminal with 10 x 20 pixel cells, on the alternate screen. */
function altTerm(cols = 20, rows = 10) {
  const t = makeTerminal(cols, rows);
  t.term.setCellSize(10, 20);
  t.term.write(`${CSI}?1049h`);
  return t;
}

Deno.test("alt images: sixelSize from raster attributes, else from the data", () => {
  assertEquals(sixelSize('0;1;0q"1;1;25;50#0~~'), { width: 25, height: 50 });
  // No raster attributes: the widest band, 6 pixels per band.
  assertEquals(sixelSize("0;0;0q#0;2;0;0;0#0~~~$~-!5~-"), {
    width: 5,
    height: 12,
  });
  // A trailing graphics new line adds no band.
  assertEquals(sixelSize("q~~-"), { width: 2, height: 6 });
  assertEquals(sixelSize("q"), { width: 0, height: 0 });
});

Deno.test("alt images: a sixel covers the cells from the cursor; the cursor ends on its last row, first column", () => {
  const t = altTerm();
  t.term.write(`${CSI}2;3H${sixel(25, 50)}`);
  expectEqual(pieces(t.term), [
    "1: 2+3 @0,0 of 2.5x2.5",
    "2: 2+3 @0,1 of 2.5x2.5",
    "3: 2+3 @0,2 of 2.5x2.5",
  ], "pieces");
  assertEquals([t.term.cursorX, t.term.cursorY], [2, 3]);
  // Nothing was inserted: the grid did not scroll, no block lines.
  assertEquals(t.term.buffer.length, 10);
});

Deno.test("alt images: a sixel at the bottom scrolls the grid (sixel scrolling); one wider than the screen is cut", () => {
  const t = altTerm(4, 3);
  t.term.write(`top${CSI}3;2H${sixel(100, 40)}`);
  expectEqual(pieces(t.term), [
    "1: 1+3 @0,0 of 10x2",
    "2: 1+3 @0,1 of 10x2",
  ], "pieces");
  assertEquals(t.term.buffer.getLine(0).toString(true), "");
  assertEquals([t.term.cursorX, t.term.cursorY], [1, 2]);
});

Deno.test("alt images: with sixel scrolling off (DECSDM ?80) the image goes at the top-left and the cursor stays", () => {
  const t = altTerm(20, 2);
  t.term.write(`${CSI}?80h${CSI}2;5H${sixel(30, 60)}`);
  expectEqual(pieces(t.term), [
    "0: 0+3 @0,0 of 3x3",
    "1: 0+3 @0,1 of 3x3",
  ], "pieces");
  assertEquals([t.term.cursorX, t.term.cursorY], [4, 1]);
  t.replies.length = 0;
  t.term.write(`${CSI}?80$p`);
  assertEquals(t.replies, [`${CSI}?80;1$y`]);
});

Deno.test("alt images: ED 2, EL and text over it remove the pieces of those cells", () => {
  const t = altTerm();
  t.term.write(`${sixel(50, 60)}${CSI}1;3HAB${CSI}2;1H${CSI}2K`);
  expectEqual(pieces(t.term), [
    "0: 0+2 @0,0 of 5x3",
    "0: 4+1 @4,0 of 5x3",
    "2: 0+5 @0,2 of 5x3",
  ], "pieces");
  t.term.write(`${CSI}2J`);
  expectEqual(pieces(t.term), [], "after ED 2");
});

Deno.test("alt images: a new image over an old one replaces it where they overlap; SU scrolls pieces with their rows", () => {
  const t = altTerm();
  t.term.write(`${sixel(40, 20)}${CSI}1;3H${sixel(10, 20)}${CSI}S`);
  // The second image's row scrolled off the top with the first one's.
  expectEqual(pieces(t.term), [], "scrolled off");
  t.term.write(`${CSI}2;1H${sixel(40, 20)}${CSI}2;3H${sixel(10, 20)}`);
  expectEqual(pieces(t.term), [
    "1: 0+2 @0,0 of 4x1",
    "1: 3+1 @3,0 of 4x1",
    "1: 2+1 @0,0 of 1x1",
  ], "overlap");
});

Deno.test("alt images: leaving the alternate screen (?1049l, ?1047l) and RIS take them away; the normal screen still gets a block line", () => {
  const t = altTerm();
  t.term.write(`${sixel(10, 20)}${CSI}?1049l`);
  expectEqual(pieces(t.term), [], "normal screen shown");
  t.term.write(`${CSI}?1049h`);
  expectEqual(pieces(t.term), [], "?1049h clears the alternate screen");
  t.term.write(`${sixel(10, 20)}${CSI}?1047l${CSI}?47h`);
  expectEqual(pieces(t.term), [], "?1047l cleared it");
  t.term.write(`${sixel(10, 20)}\x1bc`);
  expectEqual(pieces(t.term), [], "RIS");
  t.term.write(sixel(10, 20));
  assertEquals(t.term.buffer.isAlt, false);
  assertEquals(
    t.term.buffer.getLine(0).extras?.block?.image?.mime,
    "image/x-sixel",
  );
});

/** Base64 of the first 24 bytes of a PNG of `w` x `h` pixels. */
function pngHead(w: number, h: number): string {
  const b = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
  b.push(0x49, 0x48, 0x44, 0x52);
  for (const v of [w, h]) {
    b.push(v >>> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
  }
  return btoa(String.fromCharCode(...b));
}

Deno.test("alt images: an iTerm2 image covers the cells its size gives; the cursor ends right of its last row", () => {
  const t = altTerm();
  t.term.write(`${CSI}3;2H${OSC}1337;File=inline=1:${pngHead(20, 40)}\x07`);
  expectEqual(pieces(t.term), [
    "2: 1+2 @0,0 of 2x2",
    "3: 1+2 @0,1 of 2x2",
  ], "natural size");
  assertEquals([t.term.cursorX, t.term.cursorY], [3, 3]);
  t.term.write(
    `${CSI}2J${CSI}H` +
      `${OSC}1337;File=inline=1;width=4;height=2:${pngHead(20, 40)}\x07`,
  );
  // The box is 4 x 2 cells; the image keeps its shape inside it.
  expectEqual(pieces(t.term), [
    "0: 0+4 @0,0 of 2x2",
    "1: 0+4 @0,1 of 2x2",
  ], "sized box");
  t.term.write(
    `${CSI}2J${OSC}1337;File=name=${btoa("a.txt")}:${btoa("hello")}\x07`,
  );
  expectEqual(pieces(t.term), [], "a download has no place on the grid");
  assertEquals(t.term.buffer.length, 10);
});
