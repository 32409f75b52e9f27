import { assertEquals } from "../assert.ts";
import {
  compileFind,
  findAll,
  type FindMatch,
  type FindOptions,
  htmlText,
} from "../../core/search/find.ts";
import { makeTerminal } from "./helpers.ts";

/** Matches of `query` after writing `input` to a cols x rows terminal, as [line, col, endLine, endCol]. */
function find(
  input: string,
  query: string,
  options: FindOptions = {},
  cols = 20,
  rows = 4,
): (number | boolean)[][] | string | null {
  const { term } = makeTerminal(cols, rows, 1000);
  term.write(input);
  const re = compileFind(query, options);
  if (re === null || typeof re === "string") return re;
  return findAll(term.buffer, re).map((m: FindMatch) =>
    m.embed
      ? [m.line, m.col, m.endLine, m.endCol, true]
      : [m.line, m.col, m.endLine, m.endCol]
  );
}

const CASES: {
  name: string;
  input: string;
  query: string;
  options?: FindOptions;
  want: (number | boolean)[][] | string | null;
}[] = [
  { name: "empty query", input: "abc", query: "", want: null },
  {
    name: "literal, case-insensitive by default",
    input: "Foo foo FOO",
    query: "foo",
    want: [[0, 0, 0, 3], [0, 4, 0, 7], [0, 8, 0, 11]],
  },
  {
    name: "case-sensitive",
    input: "Foo foo FOO",
    query: "foo",
    options: { caseSensitive: true },
    want: [[0, 4, 0, 7]],
  },
  {
    name: "literal text with regex characters is literal",
    input: "a.c abc (x)",
    query: "a.c",
    want: [[0, 0, 0, 3]],
  },
  {
    name: "parentheses literal",
    input: "a.c abc (x)",
    query: "(x)",
    want: [[0, 8, 0, 11]],
  },
  {
    name: "whole word",
    input: "cat concat cat_x cat",
    query: "cat",
    options: { wholeWord: true },
    want: [[0, 0, 0, 3], [0, 17, 0, 20]],
  },
  {
    name: "whole word knows letters beyond ASCII",
    input: "écat cat",
    query: "cat",
    options: { wholeWord: true },
    want: [[0, 5, 0, 8]],
  },
  {
    name: "regular expression",
    input: "err1 ok err22",
    query: "err\\d+",
    options: { regex: true },
    want: [[0, 0, 0, 4], [0, 8, 0, 13]],
  },
  {
    name: "^ and $ anchor at each logical line",
    input: "ab\r\nab ab\r\n" + "x".repeat(19) + "ab",
    query: "^ab$",
    options: { regex: true },
    want: [[0, 0, 0, 2]],
  },
  {
    name: "$ is the end of a logical line, past its wrap",
    input: "ab\r\n" + "x".repeat(19) + "ab",
    query: "xab$",
    options: { regex: true },
    want: [[1, 18, 2, 1]],
  },
  {
    name: "a bad regular expression is a message, not a throw",
    input: "x",
    query: "a(",
    options: { regex: true },
    want: "Bad regular expression: Unterminated group",
  },
  {
    name: "an expression matching empty text is refused",
    input: "x",
    query: "a*",
    options: { regex: true },
    want: "The expression matches empty text",
  },
  {
    name: "rows of history and screen, oldest first",
    input: "one\r\nhit\r\ntwo\r\nthree\r\nhit\r\nfour\r\nfive",
    query: "hit",
    want: [[1, 0, 1, 3], [4, 0, 4, 3]],
  },
  {
    name: "a match across a soft wrap",
    input: "x".repeat(18) + "needle",
    query: "needle",
    want: [[0, 18, 1, 4]],
  },
  {
    name: "a match ending at the wrap ends on the earlier row",
    input: "x".repeat(14) + "needle" + "yy",
    query: "needle",
    want: [[0, 14, 0, 20]],
  },
  {
    name: "no match across a hard line break",
    input: "nee\r\ndle",
    query: "needle",
    want: [],
  },
  {
    name: "wide characters: columns, not string offsets",
    input: "日本語 text 日本",
    query: "text",
    want: [[0, 7, 0, 11]],
  },
  {
    name: "a wide character match covers both cells",
    input: "ab日本c",
    query: "本",
    want: [[0, 4, 0, 6]],
  },
  {
    name: "astral characters",
    input: "\u{1F600} smile",
    query: "smile",
    want: [[0, 3, 0, 8]],
  },
  {
    name: "trailing blanks of a row do not join the next row",
    input: "end   \r\nstart",
    query: "end start",
    want: [],
  },
  {
    name: "embedded HTML text is searched; the match covers its row",
    input: "before\r\n\x1b]72;<div>A <b>secret</b> &amp; more</div>\x07after",
    query: "secret & more",
    want: [[1, 0, 1, 20, true]],
  },
  {
    name: "tags themselves are not text",
    input: "\x1b]72;<span class=secret>x</span>\x07",
    query: "secret",
    want: [],
  },
];

for (const c of CASES) {
  Deno.test(`find: ${c.name}`, () => {
    assertEquals(find(c.input, c.query, c.options), c.want);
  });
}

Deno.test("find: the count stops at the limit", () => {
  const { term } = makeTerminal(20, 4, 1000);
  term.write("ab ".repeat(100));
  const re = compileFind("ab") as RegExp;
  assertEquals(findAll(term.buffer, re).length, 100);
  assertEquals(findAll(term.buffer, re, 7).length, 7);
});

Deno.test("find: a compiled query can be reused", () => {
  const { term } = makeTerminal(20, 4, 1000);
  term.write("x y x");
  const re = compileFind("x") as RegExp;
  assertEquals(findAll(term.buffer, re).length, 2);
  assertEquals(findAll(term.buffer, re).length, 2);
});

Deno.test("htmlText: tags, scripts and entities", () => {
  assertEquals(
    htmlText("<p>a&lt;b&#x41;&#66;</p><script>no()</script>c"),
    " a<bAB c",
  );
});
