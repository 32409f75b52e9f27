/**
 * Find in the scrollback (core/search/find.ts) over 100,000 lines of
 * history, as the window's find bar runs it on the page's model: the time
 * from a query to every match counted, for a rare word, a common one, a
 * whole-word search, a regular expression and a query with no match.
 *
 * Run: `deno run -A bench/find_bench.ts [--lines 100000] [--runs 9]`.
 * Prints the median and the slowest run in ms per query, cold (the text
 * gathered from the buffer first) and warm (kept from the last query), and
 * the matches found. Target (issue 15): every query under 100 ms. Exits 0 whatever
 * the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Terminal } from "../core/emulator/terminal.ts";
import {
  compileFind,
  findAll,
  type FindOptions,
  FindText,
} from "../core/search/find.ts";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "100000" },
    runs: { type: "string", default: "9" },
  },
});
const LINES = Number(values.lines);
const RUNS = Number(values.runs);

// History like a day of work: ls colours, logs, wrapped lines, some CJK.
const term = new Terminal({ cols: 120, rows: 40, scrollback: LINES });
const words = [
  "build",
  "error",
  "warning",
  "module",
  "request",
  "server",
  "client",
  "render",
  "socket",
  "buffer",
];
let chunk = "";
for (let i = 0; i < LINES; i++) {
  const w = words[i % words.length];
  switch (i % 5) {
    case 0:
      chunk +=
        `\x1b[1;34mdir${i}\x1b[0m  \x1b[32mfile_${w}.ts\x1b[0m  README.md\r\n`;
      break;
    case 1:
      chunk += `2026-12-04T10:${i % 60}:00Z INFO ${w} handled id=${i} in ${
        i % 97
      } ms\r\n`;
      break;
    case 2:
      chunk += `${w} `.repeat(30) + "\r\n"; // wraps to two rows
      break;
    case 3:
      chunk += `日本語のテキスト ${w} 行 ${i}\r\n`;
      break;
    default:
      chunk += i % 1000 === 4 ? `needle found at ${i}\r\n` : `${w}()\r\n`;
  }
  if (chunk.length > 1 << 16) {
    term.write(chunk);
    chunk = "";
  }
}
term.write(chunk);

const QUERIES: [string, string, FindOptions][] = [
  ["rare word", "needle", {}],
  ["common word", "server", {}],
  ["whole word, case", "INFO", { wholeWord: true, caseSensitive: true }],
  ["regex", "id=\\d+6 in", { regex: true }],
  ["no match", "zzzqqq", {}],
];

const buf = term.buffer;
console.log(`${buf.length} lines in the buffer, ${RUNS} runs per query`);
console.log(
  "cold: the buffer's text gathered, then searched (the first query, or one after output)",
);
console.log(
  "warm: the text kept from the last query (typing, toggling an option)",
);
console.log(
  "query               cold median   cold max   warm median   warm max   matches",
);
const median = (t: number[]) => t.sort((a, b) => a - b)[t.length >> 1];
for (const [name, q, opts] of QUERIES) {
  const cold: number[] = [], warm: number[] = [];
  let count = 0;
  for (let r = 0; r < RUNS; r++) {
    let t0 = performance.now();
    const text = new FindText(buf);
    count = findAll(buf, compileFind(q, opts) as RegExp, undefined, text)
      .length;
    cold.push(performance.now() - t0);
    t0 = performance.now();
    findAll(buf, compileFind(q, opts) as RegExp, undefined, text);
    warm.push(performance.now() - t0);
  }
  const fmt = (x: number, w: number) => x.toFixed(1).padStart(w);
  console.log(
    `${name.padEnd(20)}${fmt(median(cold), 11)}${fmt(Math.max(...cold), 11)}${
      fmt(median(warm), 14)
    }${fmt(Math.max(...warm), 11)}${String(count).padStart(10)}`,
  );
}
