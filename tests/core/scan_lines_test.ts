/**
 * DEC special graphics scan lines (`o p r s`, U+23BA-U+23BD) in a long
 * `tput smacs` line: the row painter (core/style_runs.ts) writes each as a
 * span the stylesheet draws itself (`.dt-scan`, a line at scan line 1, 3,
 * 7 or 9), since few fonts have the glyphs; the text stays for copying.
 * Other line-drawing characters stay text.
 */
import { assert, assertEquals } from "../assert.ts";
import { RowPainter } from "../../core/style_runs.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { sessionHtml } from "../../core/serialize/html.ts";
import { screenLine } from "./helpers.ts";

Deno.test("scan lines: o p r s in DEC special graphics are drawn as .dt-scan spans, the rest as text", () => {
  const t = new Terminal({ cols: 120, rows: 3 });
  // A long line as `tput smacs` programs draw it, coloured part way.
  const line = "opqrs".repeat(20);
  t.write(`\x1b(0${line.slice(0, 50)}\x1b[31m${line.slice(50)}\x1b(B`);
  const painter = new RowPainter((id) => t.ext(id));
  const html = painter.html(screenLine(t, 0));
  const spans = [
    ...html.matchAll(/<span class="dt-scan dt-scan(\d)">(.)<\/span>/g),
  ];
  // 4 of each 5 characters: o p r s (q is U+2500, a box-drawing line).
  assertEquals(spans.length, 80);
  assertEquals(
    spans.slice(0, 4).map((m) => [m[1], m[2]]),
    [["0", "\u23ba"], ["1", "\u23bb"], ["2", "\u23bc"], ["3", "\u23bd"]],
  );
  const text = html.replace(/<[^>]*>/g, "");
  assertEquals(text, "\u23ba\u23bb\u2500\u23bc\u23bd".repeat(20));
  // The saved file has the rules for them.
  const file = sessionHtml(t, { sanitize: (h) => h });
  assert(file.includes("span.dt-scan{"), "saved file styles .dt-scan");
  assert(file.includes('class="dt-scan dt-scan3"'));
});
