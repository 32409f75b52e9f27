/**
 * DomTerm's pager switch (`CSI 92 ; Ps u`) and the pager's line counter.
 */
import { CSI, expectEqual, runCases, type TestTerminal } from "./helpers.ts";
import { LineCounter } from "../../core/pager_lines.ts";

const pagerEvents = (t: TestTerminal) =>
  t.events.filter((e) => e.type === "pager");

runCases("pager CSI 92 u", [
  {
    name: "CSI 92 ; 1 u turns the automatic pager on",
    input: `ab${CSI}92;1ucd`,
    screen: "abcd",
    cursor: [4, 0],
    replies: [],
    check: (t) =>
      expectEqual(
        pagerEvents(t),
        [{ type: "pager", automatic: true }],
        "events",
      ),
  },
  {
    name: "CSI 92 ; 2 u turns it off",
    input: `${CSI}92;2u`,
    check: (t) =>
      expectEqual(
        pagerEvents(t),
        [{ type: "pager", automatic: false }],
        "events",
      ),
  },
  {
    name: "on, then off, in order",
    input: `${CSI}92;1ux${CSI}92;2u`,
    screen: "x",
    check: (t) =>
      expectEqual(
        pagerEvents(t),
        [{ type: "pager", automatic: true }, {
          type: "pager",
          automatic: false,
        }],
        "events",
      ),
  },
  {
    name: "other second parameters are ignored, not taken as SCORC",
    input: `${CSI}3;5Habc${CSI}92u${CSI}92;0u${CSI}92;3u`,
    cursor: [7, 2],
    check: (t) => expectEqual(pagerEvents(t), [], "events"),
  },
  {
    name: "CSI u without parameters still restores the cursor",
    input: `${CSI}3;5H${CSI}s${CSI}1;1H${CSI}u`,
    cursor: [4, 2],
    check: (t) => expectEqual(pagerEvents(t), [], "events"),
  },
  {
    name: "DomTerm's shell numbers are unchanged (CSI 20 u fresh line)",
    input: `ab${CSI}20ucd`,
    screen: "ab\ncd",
    check: (t) => expectEqual(pagerEvents(t), [], "events"),
  },
]);

const enc = (s: string) => new TextEncoder().encode(s);

/** One case of the line counter: cols, chunks, budget -> bytes, lines per chunk. */
interface CountCase {
  name: string;
  cols: number;
  budget: number;
  chunks: string[];
  expect: { bytes: number; lines: number }[];
}

const countCases: CountCase[] = [
  {
    name: "stops before the line feed past the budget",
    cols: 80,
    budget: 2,
    chunks: ["1\n2\n3\n4\n"],
    expect: [{ bytes: 5, lines: 2 }],
  },
  {
    name: "stops before the CR of a CR LF (the PTY's newline)",
    cols: 80,
    budget: 1,
    chunks: ["1\r\n2\r\n3\r\n"],
    expect: [{ bytes: 4, lines: 1 }],
  },
  {
    name: "after a CR LF stop the next page starts with it",
    cols: 80,
    budget: 1,
    chunks: ["12\r\n3\r\n", "\r\n3\r\n"],
    expect: [{ bytes: 5, lines: 1 }, { bytes: 3, lines: 1 }],
  },
  {
    name: "takes everything within the budget",
    cols: 80,
    budget: 5,
    chunks: ["1\n2\n"],
    expect: [{ bytes: 4, lines: 2 }],
  },
  {
    name: "a budget of 0 takes text up to the first line feed",
    cols: 80,
    budget: 0,
    chunks: ["abc\ndef"],
    expect: [{ bytes: 3, lines: 0 }],
  },
  {
    name: "text wider than the screen counts its wrapped rows",
    cols: 4,
    budget: 1,
    chunks: ["abcdefghij"],
    expect: [{ bytes: 8, lines: 1 }],
  },
  {
    name: "exactly the width then LF is one line (pending wrap)",
    cols: 4,
    budget: 1,
    chunks: ["abcd\nx\n"],
    expect: [{ bytes: 6, lines: 1 }],
  },
  {
    name: "CR goes back to column 0",
    cols: 4,
    budget: 0,
    chunks: ["abc\rabc\rabcd"],
    expect: [{ bytes: 12, lines: 0 }],
  },
  {
    name: "escape sequences take no columns; an OSC may hold a newline",
    cols: 4,
    budget: 0,
    chunks: ["\x1b[31mab\x1b[0m\x1b]0;a\nb\x07cd\x1b]8;;x\x1b\\"],
    expect: [{ bytes: 29, lines: 0 }],
  },
  {
    name: "UTF-8 characters take one column each",
    cols: 2,
    budget: 0,
    chunks: ["\u00e9\u00e9\u00e9"],
    expect: [{ bytes: 4, lines: 0 }],
  },
  {
    name: "state carries over chunks: a CSI split, columns",
    cols: 3,
    budget: 1,
    chunks: ["ab\x1b[3", "1mc", "d\ne"],
    expect: [{ bytes: 5, lines: 0 }, { bytes: 3, lines: 0 }, {
      bytes: 1,
      lines: 1,
    }],
  },
];

for (const c of countCases) {
  Deno.test(`pager line counter: ${c.name}`, () => {
    const counter = new LineCounter(c.cols);
    const got = c.chunks.map((s) => counter.take(enc(s), c.budget));
    expectEqual(got, c.expect, "taken");
  });
}

Deno.test("pager line counter: counts seq's lines exactly", () => {
  let text = "";
  for (let i = 1; i <= 1000; i++) text += `${i}\n`;
  const data = enc(text);
  const counter = new LineCounter(80);
  let at = 0;
  const stops: number[] = [];
  while (at < data.length) {
    const { bytes } = counter.take(data.subarray(at), 23);
    at += bytes;
    stops.push(at);
    // Past the line feed it stopped at: the next page starts with it.
    if (at < data.length) expectEqual(data[at], 0x0a, "stops at a LF");
  }
  // Every 23 lines one stop; the last takes the rest.
  expectEqual(stops.length, Math.ceil(1000 / 23) + 0, "pages");
});
