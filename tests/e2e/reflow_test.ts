/**
 * Reflow end to end: the real domterm server and client in headless
 * Chromium. A long line re-wraps when the window gets narrower and wider,
 * soft-wrapped rows show the wrap marker, and copying a selection across a
 * soft-wrapped line gives one line (hard line breaks stay).
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

/** 240 characters: "w000 w001 ... w047 " (spaces fall on some wrap points). */
const LONG = Array.from(
  { length: 48 },
  (_, i) => `w${String(i).padStart(3, "0")} `,
).join("");

const SCRIPT = `printf '%s\\nsecond line\\n' "$LONG"; exec sleep 600`;

interface Layout {
  cols: number;
  /** Texts of the rows of the long line (untrimmed), in order. */
  texts: string[];
  /** Their `dt-wrapped` flags. */
  wrapped: boolean[];
}

/** The rows that show the long line, from the first one on. */
function longLineRows(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const g = globalThis as unknown as Inspected;
    const rows = Array.from(
      document.querySelectorAll("#terminal .dt-viewport .dt-row"),
    );
    const first = rows.findIndex((r) =>
      (r.textContent ?? "").startsWith("w000 ")
    );
    const texts: string[] = [], wrapped: boolean[] = [];
    for (let i = first; first >= 0 && i < rows.length; i++) {
      texts.push(rows[i].textContent ?? "");
      const w = rows[i].classList.contains("dt-wrapped");
      wrapped.push(w);
      if (!w) break;
    }
    return { cols: g.domtermInspect.term.cols, texts, wrapped };
  });
}

/** Wait until the long line is drawn wrapped at the emulator's width `cols`. */
async function waitForWrap(page: Page, cols: (c: number) => boolean) {
  let last: Layout | null = null;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const l = last = await longLineRows(page);
    const rowsNeeded = Math.ceil(LONG.trimEnd().length / l.cols);
    if (
      cols(l.cols) && l.texts.length === rowsNeeded &&
      l.texts.join("").trimEnd() === LONG.trimEnd()
    ) {
      return l;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`long line not re-wrapped: ${JSON.stringify(last)}`);
}

/** Check a layout: full rows marked wrapped, the last one not. */
function checkLayout(l: Layout): void {
  const n = l.texts.length;
  assert(n >= 2, `the line should wrap at ${l.cols} columns`);
  for (let i = 0; i < n - 1; i++) {
    assertEquals(l.texts[i].length, l.cols, `row ${i} is full`);
    assert(l.wrapped[i], `row ${i} is marked wrapped`);
  }
  assert(!l.wrapped[n - 1], "the last row is not wrapped");
}

Deno.test("e2e reflow: a long line re-wraps narrower and wider, with the wrap marker", async () => {
  const t = await startDomterm(["/bin/sh", "-c", SCRIPT], {
    env: { LONG },
    viewport: { width: 800, height: 480 },
  });
  try {
    await waitForRow(t.page, "second line");
    const start = await waitForWrap(t.page, () => true);
    checkLayout(start);

    // The marker: a visible bar after every soft-wrapped row, none after
    // the last row of the line.
    const marker = await t.page.evaluate(() => {
      const rows = Array.from(
        document.querySelectorAll(".dt-viewport .dt-row"),
      );
      const wrapped = rows.find((r) => r.classList.contains("dt-wrapped"))!;
      const plain = rows.find((r) => r.textContent === "second line")!;
      const a = getComputedStyle(wrapped, "::after");
      const b = getComputedStyle(plain, "::after");
      return {
        content: a.content,
        width: a.width,
        background: a.backgroundColor,
        plain: b.content,
      };
    });
    assertEquals(marker.content, '""');
    assertEquals(marker.width, "2px");
    assert(
      marker.background !== "rgba(0, 0, 0, 0)" &&
        marker.background !== "transparent",
      `marker colour ${marker.background}`,
    );
    assertEquals(marker.plain, "none");

    await t.page.setViewportSize({ width: 420, height: 480 });
    const narrow = await waitForWrap(t.page, (c) => c < start.cols);
    checkLayout(narrow);
    assert(narrow.texts.length > start.texts.length);

    await t.page.setViewportSize({ width: 1200, height: 480 });
    const wide = await waitForWrap(t.page, (c) => c > start.cols);
    checkLayout(wide);
    assert(wide.texts.length < start.texts.length);

    // Back to the first width: the same rows as at the start.
    await t.page.setViewportSize({ width: 800, height: 480 });
    const back = await waitForWrap(t.page, (c) => c === start.cols);
    assertEquals(back, start);
    await waitForRow(t.page, "second line");
  } finally {
    await t.close();
  }
});

Deno.test("e2e reflow: copying across a soft-wrapped line gives one line", async () => {
  const t = await startDomterm(["/bin/sh", "-c", SCRIPT], {
    env: { LONG },
    viewport: { width: 800, height: 480 },
  });
  try {
    await waitForRow(t.page, "second line");
    const layout = await waitForWrap(t.page, () => true);
    checkLayout(layout);
    // Where to press and release: in cell 3 of the first row of the long
    // line, and in cell 6 of "second line", just past the cell border.
    const points = await t.page.evaluate(() => {
      const g = globalThis as unknown as Inspected;
      const w = g.domtermInspect.cell().width;
      const rows = Array.from(
        document.querySelectorAll(".dt-viewport .dt-row"),
      );
      const first = rows.find((r) => (r.textContent ?? "").startsWith("w000 "))!
        .getBoundingClientRect();
      const second = rows.find((r) => r.textContent === "second line")!
        .getBoundingClientRect();
      const copied: string[] = [];
      document.addEventListener("copy", (e) => {
        copied.push(e.clipboardData?.getData("text/plain") ?? "");
      });
      Object.assign(globalThis, { copied });
      return {
        from: { x: first.left + 3 * w + 1, y: first.top + first.height / 2 },
        to: { x: second.left + 6 * w + 1, y: second.top + second.height / 2 },
      };
    });
    await t.page.mouse.move(points.from.x, points.from.y);
    await t.page.mouse.down();
    await t.page.mouse.move(points.to.x, points.to.y, { steps: 8 });
    await t.page.mouse.up();
    const selected = await t.page.evaluate(() =>
      document.getSelection()?.toString() ?? ""
    );
    // The browser alone would put a line break after every row.
    assert(selected.split("\n").length > 2, JSON.stringify(selected));

    await t.page.keyboard.press("Control+Shift+C");
    await t.page.waitForFunction(() =>
      (globalThis as unknown as { copied: string[] }).copied.length > 0
    );
    const copied = await t.page.evaluate(() =>
      (globalThis as unknown as { copied: string[] }).copied
    );
    assertEquals(copied, [`${LONG.slice(3)}\nsecond`]);
  } finally {
    await t.close();
  }
});
