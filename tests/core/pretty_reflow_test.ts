/**
 * Pretty-printed output (OSC 110-118) re-breaks when the width changes:
 * output bytes printed at one width, then a sequence of resizes; after
 * each, the screen (and history) must be what a fresh layout at that width
 * prints, with the cursor where it belongs and the colours kept.
 */
import { A_BOLD, paletteColor } from "../../core/model/cell.ts";
import {
  assertEquals,
  cell,
  checkInvariants,
  CSI,
  expectEqual,
  historyLines,
  makeTerminal,
  screenText,
  type TestTerminal,
} from "./helpers.ts";
import {
  close,
  fill,
  form,
  indent,
  linear,
  open,
} from "../fixtures/pretty_print.ts";

/**
 * The fixture: a Lisp function, printed as a Lisp pretty printer would,
 * with a red `defun`, a bold `if`, fill newlines in argument lists and
 * linear ones between the body forms.
 */
const FIXTURE = open("(") + `${CSI}31mdefun${CSI}0m` + indent(1) + fill +
  "factorial" + fill + form(["n"], fill) + linear +
  form(
    [
      `${CSI}1mif${CSI}0m`,
      form(["<=", "n", "1"], fill),
      "1",
      form(
        ["*", "n", form(["factorial", form(["-", "n", "1"], fill)], fill)],
        fill,
      ),
    ],
    linear,
    1,
  ) + ")" + close;

/** One resize and what must follow it. */
interface Step {
  cols: number;
  screen: string;
  cursor: [number, number];
  history?: string[];
  /** The screen is what a fresh terminal of this width shows for the input. */
  fresh?: boolean;
}

interface Case {
  name: string;
  cols: number;
  rows?: number;
  input: string;
  steps: Step[];
  check?: (t: TestTerminal) => void;
}

const AT_80 =
  "$ (defun factorial (n) (if (<= n 1) 1 (* n (factorial (- n 1)))))";
const AT_30 = [
  "$ (defun",
  "    factorial",
  "    (n)",
  "    (if",
  "      (<= n 1)",
  "      1",
  "      (*",
  "       n",
  "       (factorial (- n 1)))))",
].join("\n");
const AT_50 = [
  "$ (defun factorial (n)",
  "    (if (<= n 1) 1 (* n (factorial (- n 1)))))",
].join("\n");

/** `defun` red and `if` bold, wherever they are. */
function checkColours(t: TestTerminal): void {
  const text = screenText(t.term).split("\n");
  const find = (word: string): [number, number] => {
    const y = text.findIndex((l) => l.includes(word));
    return [text[y].indexOf(word), y];
  };
  const [dx, dy] = find("defun");
  assertEquals(cell(t.term, dx, dy).fg, paletteColor(1));
  assertEquals(cell(t.term, dx + 4, dy).fg, paletteColor(1));
  assertEquals(cell(t.term, dx + 5, dy).fg, 0);
  const [ix, iy] = find("(if");
  assertEquals(cell(t.term, ix + 1, iy).attr & A_BOLD, A_BOLD);
  assertEquals(cell(t.term, ix, iy).attr & A_BOLD, 0);
}

const cases: Case[] = [
  {
    name: "the fixture re-breaks at 30, 50 and 80 columns",
    cols: 80,
    input: "$ " + FIXTURE + "\r\n$ ",
    steps: [
      { cols: 30, screen: AT_30 + "\n$ ", cursor: [2, 9], fresh: true },
      { cols: 50, screen: AT_50 + "\n$ ", cursor: [2, 2], fresh: true },
      { cols: 80, screen: AT_80 + "\n$ ", cursor: [2, 1], fresh: true },
    ],
    check: checkColours,
  },
  {
    name: "text after the block on its last row follows it; the cursor too",
    cols: 80,
    input: "$ " + FIXTURE + " ;ok",
    steps: [
      { cols: 50, screen: AT_50 + " ;ok", cursor: [49, 1], fresh: true },
      { cols: 30, screen: AT_30 + " \n;ok", cursor: [3, 9], fresh: true },
      { cols: 80, screen: AT_80 + " ;ok", cursor: [69, 0], fresh: true },
    ],
    check: checkColours,
  },
  {
    name: "printed narrow, re-broken wider, then narrow again",
    cols: 30,
    input: "$ " + FIXTURE + "\r\n",
    steps: [
      { cols: 80, screen: AT_80, cursor: [0, 1] },
      { cols: 50, screen: AT_50, cursor: [0, 2] },
      { cols: 30, screen: AT_30, cursor: [0, 9] },
    ],
    check: checkColours,
  },
  {
    name: "a cursor inside the block follows its character",
    cols: 30,
    // Row 4, column 6: the "i" of "(if".
    input: "$ " + FIXTURE + `${CSI}4;6H`,
    steps: [
      { cols: 80, screen: AT_80, cursor: [AT_80.indexOf("(if") + 1, 0] },
      { cols: 50, screen: AT_50, cursor: [5, 1] },
      { cols: 30, screen: AT_30, cursor: [5, 3] },
    ],
  },
  {
    name:
      "a cursor on a blank inside the block stays after the character before",
    cols: 80,
    // Column 9: the blank after "(defun".
    input: "$ " + FIXTURE + `${CSI}1;9H`,
    steps: [
      { cols: 30, screen: AT_30, cursor: [8, 0] },
      { cols: 80, screen: AT_80, cursor: [8, 0] },
    ],
  },
  {
    name: "rows that scrolled into the history re-break with the rest",
    cols: 30,
    rows: 4,
    input: "$ " + FIXTURE + "\r\n$ ",
    steps: [
      { cols: 80, screen: AT_80 + "\n$ ", cursor: [2, 1], history: [] },
      {
        cols: 30,
        screen: AT_30.split("\n").slice(-3).join("\n") + "\n$ ",
        cursor: [2, 3],
        history: AT_30.split("\n").slice(0, -3),
      },
    ],
  },
  {
    name: "rows overwritten after printing fall back to ordinary reflow",
    cols: 30,
    input: "$ " + FIXTURE + `\r\n${CSI}3;5HXX${CSI}10;1H`,
    steps: [{
      cols: 80,
      screen: AT_30.replace("(n)", "XX)"),
      cursor: [0, 9],
    }],
  },
  {
    name: "a block printed in the alternate screen is not kept",
    cols: 80,
    input: `${CSI}?1049h$ ` + FIXTURE,
    steps: [{ cols: 50, screen: AT_80.slice(0, 50), cursor: [49, 0] }],
  },
];

for (const c of cases) {
  Deno.test(`pretty reflow: ${c.name}`, () => {
    const rows = c.rows ?? 12;
    const t = makeTerminal(c.cols, rows);
    t.term.write(c.input);
    for (const step of c.steps) {
      t.term.resize(step.cols, rows);
      checkInvariants(t.term);
      const at = `at ${step.cols} columns`;
      expectEqual(screenText(t.term), step.screen, `screen ${at}`);
      expectEqual(
        [t.term.cursorX, t.term.cursorY],
        step.cursor,
        `cursor ${at}`,
      );
      if (step.history) {
        expectEqual(historyLines(t.term), step.history, `history ${at}`);
      }
      if (step.fresh) {
        const f = makeTerminal(step.cols, rows);
        f.term.write(c.input);
        expectEqual(screenText(t.term), screenText(f.term), `fresh ${at}`);
      }
      c.check?.(t);
    }
  });
}
