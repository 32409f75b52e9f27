/** Predictive echo (core/line_editor/predict.ts) against a real core Terminal. */
import { assertEquals } from "../assert.ts";
import { Predictor } from "../../core/line_editor/predict.ts";
import { makeTerminal } from "./helpers.ts";

function setup() {
  const { term } = makeTerminal(20, 4);
  const p = new Predictor({
    get cursorX() {
      return term.cursorX;
    },
    get cursorY() {
      return term.cursorY;
    },
    get cols() {
      return term.cols;
    },
    cellText: (x, y) => term.buffer.screenLine(y).text(x),
  });
  p.mode = "on";
  term.write("$ ");
  return { term, p };
}

Deno.test("predict: the echo confirms predictions one by one and measures the delay", () => {
  const { term, p } = setup();
  p.sent("l", 0);
  p.sent("s", 10);
  assertEquals(p.pending.map((x) => [x.ch, x.x, x.y]), [["l", 2, 0], [
    "s",
    3,
    0,
  ]]);
  term.write("l");
  p.output(100);
  assertEquals(p.pending.map((x) => x.ch), ["s"]);
  assertEquals(p.srtt, 100);
  term.write("s");
  p.output(150);
  assertEquals(p.pending, []);
});

Deno.test("predict: a different echo, or the cursor going elsewhere, drops them all", () => {
  const { term, p } = setup();
  p.sent("a", 0);
  p.sent("b", 0);
  term.write("*"); // a password prompt echoing stars
  p.output(50);
  assertEquals(p.pending, []);
  p.sent("c", 60);
  term.write("\r\n");
  p.output(70);
  assertEquals(p.pending, []);
});

Deno.test("predict: no echo yet keeps them; a timeout, Enter or off drops or skips them", () => {
  const { term, p } = setup();
  p.sent("a", 0);
  term.write("\x1b[0m"); // output that does not move the cursor
  p.output(100);
  assertEquals(p.pending.length, 1);
  p.output(5000);
  assertEquals(p.pending, [], "timed out");
  p.sent("a", 6000);
  p.sent("\r", 6001);
  assertEquals(p.pending, [], "Enter: the next echo is unknown");
  p.mode = "off";
  p.sent("a", 7000);
  assertEquals(p.pending, []);
  p.mode = "auto";
  assertEquals(p.showing, false, "auto shows nothing before a slow echo");
  p.srtt = 120;
  assertEquals(p.showing, true);
});
