/**
 * DomTerm pretty-printing (OSC 110-118): output bytes -> screen text at a
 * given width, and how OSC 110/111/112 are told apart from xterm's colour
 * resets.
 */
import { parseStrings } from "../../core/emulator/pretty_print.ts";
import { assertEquals, cell, CSI, OSC, runCases } from "./helpers.ts";

const BEL = "\x07";
const start = (prefix = "") => `${OSC}110;"${prefix}"${BEL}`;
const end = `${OSC}111${BEL}`;
const fill = `${OSC}115;"","",""${BEL}`;
const linear = `${OSC}116;"",""," "${BEL}`;
const miser = `${OSC}117;"",""," "${BEL}`;
const required = `${OSC}118${BEL}`;
/** A fill newline that prints a space when it does not break. */
const fillSp = `${OSC}115;"",""," "${BEL}`;

/** (item item ...) as a Lisp printer would print a list with `nl` between items. */
const list = (items: string[], nl: string) =>
  start("(") + items.join(nl) + ")" + end;

runCases("pretty print", [
  {
    name: "a block that fits stays on one line",
    cols: 20,
    input: list(["aaa", "bbb", "ccc"], linear),
    screen: "(aaa bbb ccc)",
    cursor: [13, 0],
  },
  {
    name: "linear newlines all break when the block does not fit",
    cols: 10,
    input: list(["aaa", "bbb", "ccc"], linear),
    screen: "(aaa\n bbb\n ccc)",
  },
  {
    name: "fill newlines break only where the next section does not fit",
    cols: 50,
    input: list("abcdefgh".split("").map((c) => c.repeat(8)), fillSp),
    screen: "(aaaaaaaa bbbbbbbb cccccccc dddddddd eeeeeeee\n" +
      " ffffffff gggggggg hhhhhhhh)",
  },
  {
    name: "a required newline always breaks, indented to the block",
    cols: 40,
    input: `x ${start("[")}a${required}b]${end}`,
    screen: "x [a\n   b]",
  },
  {
    name: "LF inside a block is a required newline; CR is dropped",
    cols: 40,
    input: `${start("<")}a\r\nb>${end}`,
    screen: "<a\n b>",
  },
  {
    name: "the block starts at the cursor column: indentation follows it",
    cols: 12,
    input: `abcde${list(["11", "22", "33"], linear)}`,
    screen: "abcde(11\n      22\n      33)",
  },
  {
    name: "nested blocks: the inner one fits on its line",
    cols: 12,
    input: start("(") + "let" + linear + list(["a", "b"], linear) + linear +
      "body-form" + ")" + end,
    screen: "(let\n (a b)\n body-form)",
  },
  {
    name: "OSC 113: indent relative to the block start",
    cols: 10,
    input: `${start("(")}${OSC}113;2${BEL}when${linear}cond${linear}act)${end}`,
    screen: "(when\n   cond\n   act)",
  },
  {
    name: "OSC 112: indent relative to the current column",
    cols: 14,
    input: `${
      start("(")
    }defun${OSC}112;1${BEL} f${linear}body-1${linear}b2)${end}`,
    screen: "(defun f\n       body-1\n       b2)",
  },
  {
    name: "OSC 114: a per-line prefix on every continuation line",
    cols: 10,
    input: `${start()}${OSC}114;";; "${BEL}one${linear}two${linear}three${end}`,
    screen: ";; one\n;; two\n;; three",
  },
  {
    name: "pre and post texts of a broken newline",
    cols: 8,
    input: `${start()}abcde${OSC}116;"\\\\","> "," "${BEL}fghij${end}`,
    screen: "abcde\\\n> fghij",
  },
  {
    name:
      "miser newlines break in miser mode (the block starts within 40 columns of the edge)",
    cols: 12,
    input: list(["aaaa", "bbbb", "cccc"], miser),
    screen: "(aaaa\n bbbb\n cccc)",
  },
  {
    name: "miser newlines do not break when there is room for miser width",
    cols: 60,
    input: `${"x".repeat(5)}${start("(")}${"a".repeat(30)}${miser}${
      "b".repeat(30)
    })${end}`,
    screen: `xxxxx(${"a".repeat(30)} ${"b".repeat(23)}\n${"b".repeat(7)})`,
  },
  {
    name: "fill with an empty nonbreak joins the items",
    cols: 40,
    input: list(["a", "b"], fill),
    screen: "(ab)",
  },
  {
    name: "text colours are kept",
    cols: 10,
    input: `${start()}${CSI}31mred${CSI}0m${linear}plain${end}`,
    check: (t) => {
      assertEquals(cell(t.term, 0, 0).fg !== 0, true);
      assertEquals(cell(t.term, 4, 0).fg, 0);
    },
  },
  {
    name: "bare OSC 110 / 111 / 112 outside a block are xterm's colour resets",
    input:
      `${OSC}10;#ff0000${BEL}${OSC}11;#00ff00${BEL}${OSC}12;#0000ff${BEL}` +
      `${OSC}110${BEL}${OSC}111${BEL}${OSC}112${BEL}text`,
    screen: "text",
    check: (t) => {
      assertEquals(t.term.dynamicColorOverride(0), null);
      assertEquals(t.term.dynamicColorOverride(1), null);
      assertEquals(t.term.dynamicColorOverride(2), null);
    },
  },
  {
    name: "OSC 110 with ';' starts a block; a colour set before stays",
    input: `${OSC}10;#ff0000${BEL}${OSC}110;${BEL}ab${OSC}111${BEL}`,
    screen: "ab",
    check: (t) => assertEquals(t.term.dynamicColorOverride(0), "#ff0000"),
  },
  {
    name: "OSC 112;n outside a block does not reset the cursor colour",
    input: `${OSC}12;#0000ff${BEL}${OSC}112;3${BEL}`,
    check: (t) => assertEquals(t.term.dynamicColorOverride(2), "#0000ff"),
  },
  {
    name: "OSC 118 outside a block is a newline; 116 prints its nonbreak text",
    input: `a${OSC}118${BEL}b${OSC}116;"","","-"${BEL}c`,
    screen: "a\nb-c",
  },
  {
    name: "an unclosed block shows nothing until it ends",
    input: `${start()}pending`,
    screen: "",
  },
  {
    name: "RIS drops an open block",
    input: `${start()}pending\x1bcafter`,
    screen: "after",
  },
  {
    name: "deep nesting is flattened, output is kept",
    cols: 200,
    input: start().repeat(100) + "deep" + end.repeat(100) + "!",
    screen: "deep!",
  },
  {
    name: "a long block wraps like ordinary text when it has no newlines",
    cols: 5,
    input: `${start()}abcdefgh${end}`,
    screen: "abcde\nfgh",
  },
]);

Deno.test("pretty print: parseStrings", () => {
  assertEquals(parseStrings('"a","b\\"c",d'), ["a", 'b"c', "d"]);
  assertEquals(parseStrings(""), [""]);
  assertEquals(parseStrings('"x\\\\"'), ["x\\"]);
  assertEquals(parseStrings('"unterminated'), ["unterminated"]);
});
