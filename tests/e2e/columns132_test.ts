/**
 * 132-column mode in the real window (issue 32 §1): vttest switches to
 * 132 columns with DECCOLM; the model takes the width at once, the window
 * shrinks its font until 132 columns fit (as xterm grows its window), and
 * back at 80 the font is restored. The screens are compared with what
 * vttest draws: a border of `*` and `+` around the whole screen.
 */
import { assert, assertEquals } from "../assert.ts";
import { startDomterm } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";
import type { Page } from "playwright-core";

interface Shown {
  cols: number;
  rows: number;
  screen: string[];
  drawn: string[];
  cell: { width: number; height: number };
  /** Right edge of the last column of the first row, and the viewport's. */
  right: number;
  viewport: number;
}

function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const i = (globalThis as unknown as Inspected).domtermInspect;
    const rows = Array.from(
      document.querySelectorAll<HTMLElement>("#terminal .dt-viewport .dt-row"),
    ).slice(-i.term.rows);
    const cell = i.cell();
    const vp = document.querySelector(".dt-viewport")!.getBoundingClientRect();
    const left = rows[0]?.getBoundingClientRect().left ?? 0;
    return {
      cols: i.term.cols,
      rows: i.term.rows,
      screen: i.screenText(),
      drawn: rows.map((r) => r.textContent ?? ""),
      cell,
      right: left + i.term.cols * cell.width,
      viewport: vp.right,
    };
  });
}

async function waitFor(page: Page, test: string): Promise<void> {
  await page.waitForFunction(
    (want) =>
      (globalThis as unknown as Inspected).domtermInspect.screenText()
        .some((l) => l.includes(want)),
    test,
    { timeout: 15_000 },
  );
}

/**
 * vttest's border screen (menu 1, screens 1 and 2): a frame of `*` and,
 * inside it, one of `+`, around the whole screen.
 */
/** Waits until vttest has drawn the whole frame of a `cols`-column screen. */
async function waitBorder(page: Page, cols: number): Promise<void> {
  await page.waitForFunction(
    (cols) => {
      const s = (globalThis as unknown as Inspected).domtermInspect
        .screenText();
      const edge = "*".repeat(cols), inner = "*" + "+".repeat(cols - 2) + "*";
      return s[0] === edge && s[1] === inner && s[22] === inner &&
        s[23] === edge;
    },
    cols,
    { timeout: 15_000 },
  );
}

function assertBorder(s: Shown, cols: number): void {
  assertEquals(s.cols, cols);
  const edge = "*".repeat(cols), inner = "*" + "+".repeat(cols - 2) + "*";
  assertEquals([s.screen[0], s.screen[1]], [edge, inner]);
  assertEquals([s.screen[22], s.screen[23]], [inner, edge]);
  for (let y = 2; y < 22; y++) {
    const line = s.screen[y];
    assert(
      line.length === cols && line.startsWith("*+") && line.endsWith("+*"),
      `row ${y}: ${JSON.stringify(line)}`,
    );
  }
  // The page draws what the model holds, and all of it is in the window.
  assertEquals(
    s.drawn.slice(0, 24).map((l) => l.trimEnd()),
    s.screen.slice(0, 24).map((l) => l.trimEnd()),
  );
  assert(
    s.right <= s.viewport + 0.5,
    `grid ends at ${s.right} > ${s.viewport}`,
  );
}

Deno.test("e2e: vttest's 132-column screens fit the window", async () => {
  const t = await startDomterm(["vttest"], {
    viewport: { width: 800, height: 480 },
  });
  const { page } = t;
  try {
    await waitFor(page, "Enter choice number");
    const before = await shown(page);
    await page.keyboard.type("1");
    await page.keyboard.press("Enter");
    await waitBorder(page, 80);
    const s80 = await shown(page);
    await page.screenshot({ path: "/tmp/columns_shots/vttest-1-1.png" });
    assertBorder(s80, 80);
    await page.keyboard.press("Enter");
    await waitBorder(page, 132);
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.term.cols === 132
    );
    await new Promise((r) => setTimeout(r, 500));
    const s132 = await shown(page);
    await page.screenshot({ path: "/tmp/columns_shots/vttest-1-2.png" });
    assertBorder(s132, 132);
    assert(s132.cell.width < before.cell.width, "the font shrank");
    // Screen 3 is 80 columns again: the font comes back.
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.term.cols === 80
    );
    await new Promise((r) => setTimeout(r, 500));
    const back = await shown(page);
    assertEquals(back.cell, before.cell);
    assertEquals(
      back.drawn.map((l) => l.trimEnd()),
      back.screen.map((l) => l.trimEnd()),
    );
    // Screen 4: the autowrap test in 132 columns, drawn as the model holds
    // it, inside the window.
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.term.cols === 132
    );
    await new Promise((r) => setTimeout(r, 1000));
    const wrap = await shown(page);
    await page.screenshot({ path: "/tmp/columns_shots/vttest-1-4.png" });
    assertEquals(
      wrap.drawn.map((l) => l.trimEnd()),
      wrap.screen.map((l) => l.trimEnd()),
    );
    assert(wrap.right <= wrap.viewport + 0.5, `grid ends at ${wrap.right}`);
    assertEquals(wrap.cell, s132.cell);
  } finally {
    await t.close();
  }
});
