/**
 * Pretty-printing end to end: the real domterm server and client in
 * headless Chromium. A Lisp form printed with DomTerm's pretty-printing
 * escapes (OSC 110-118) by printf is laid out at the window's width and
 * re-breaks when the window gets narrower and wider again: the rows shown
 * are each time what a fresh layout at that width prints (the core
 * emulator computes it here).
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { Terminal } from "../../core/emulator/terminal.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import {
  close,
  fill,
  form,
  indent,
  linear,
  open,
} from "../fixtures/pretty_print.ts";
import type { Inspected } from "../../client/inspect.ts";

const CSI = "\x1b[";

/** A Lisp function with fill newlines in argument lists, linear between forms. */
const FIXTURE = open("(") + `${CSI}31mdefun${CSI}0m` + indent(1) + fill +
  "factorial" + fill + form(["n"], fill) + linear +
  form(
    [
      "if",
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

const SCRIPT = `printf '%s\\nend-marker\\n' "$FIXTURE"; exec sleep 600`;

/** The rows a fresh layout at `cols` columns prints for the fixture. */
function expectedRows(cols: number): string[] {
  const term = new Terminal({ cols, rows: 40, reply: () => {} });
  term.write(FIXTURE);
  const buf = term.buffer;
  const out: string[] = [];
  for (let y = 0; y <= term.cursorY; y++) {
    out.push(buf.getLine(buf.length - term.rows + y).toString(true));
  }
  return out;
}

/** The emulator's width and the rendered rows from "(defun" to "end-marker". */
function shown(page: Page): Promise<{ cols: number; rows: string[] }> {
  return page.evaluate(() => {
    const g = globalThis as unknown as Inspected;
    const texts = Array.from(document.querySelectorAll("#terminal .dt-row"))
      .map((r) => (r.textContent ?? "").replace(/\s+$/, ""));
    const from = texts.findIndex((t) => t.startsWith("(defun"));
    const to = texts.indexOf("end-marker");
    return {
      cols: g.domtermInspect.term.cols,
      rows: from >= 0 && to > from ? texts.slice(from, to) : texts,
    };
  });
}

/** Wait until the fixture is shown as laid out for the current width. */
async function waitForLayout(
  page: Page,
  wantCols: (c: number) => boolean,
): Promise<{ cols: number; rows: string[] }> {
  let last = null;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const s = last = await shown(page);
    if (
      wantCols(s.cols) &&
      JSON.stringify(s.rows) === JSON.stringify(expectedRows(s.cols))
    ) {
      return s;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `fixture not laid out for the width: ${JSON.stringify(last)}; want ${
      last ? JSON.stringify(expectedRows(last.cols)) : "?"
    }`,
  );
}

Deno.test("e2e pretty print: a pretty-print fixture re-breaks at two widths", async () => {
  const t = await startDomterm(["/bin/sh", "-c", SCRIPT], {
    env: { FIXTURE },
    viewport: { width: 900, height: 480 },
  });
  try {
    await waitForRow(t.page, "end-marker");
    const wide = await waitForLayout(t.page, () => true);
    assertEquals(wide.rows.length, 1, `one row at ${wide.cols} columns`);

    await t.page.setViewportSize({ width: 300, height: 480 });
    const narrow = await waitForLayout(t.page, (c) => c < wide.cols);
    assert(
      narrow.rows.length >= 3,
      `re-broken at ${narrow.cols}: ${JSON.stringify(narrow.rows)}`,
    );
    // Broken at newlines, not cut at the edge: every row starts at an item.
    assert(narrow.rows.slice(1).every((r) => /^ +\S/.test(r)));

    await t.page.setViewportSize({ width: 500, height: 480 });
    const middle = await waitForLayout(
      t.page,
      (c) => c > narrow.cols && c < wide.cols,
    );
    assert(middle.rows.length < narrow.rows.length);

    await t.page.setViewportSize({ width: 900, height: 480 });
    const back = await waitForLayout(t.page, (c) => c === wide.cols);
    assertEquals(back, wide);
    await waitForRow(t.page, "end-marker");
  } finally {
    await t.close();
  }
});
