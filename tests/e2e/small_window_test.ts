/**
 * A window smaller than its session's grid (the grid follows the window
 * last used; a second window or a read-only viewer may be smaller) shows
 * the cursor and the latest output, not the screen's empty bottom.
 */
import { assert } from "../assert.ts";
import { openPage, startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

Deno.test("e2e small window: a window smaller than the grid shows the cursor, not the empty bottom", async () => {
  const t = await startDomterm(["bash", "--norc", "-i"], {
    env: { PS1: "$ " },
    viewport: { width: 800, height: 480 },
  });
  try {
    await waitForRow(t.page, "$", 20_000);
    const small = await openPage(t.browser, `${t.url}&session=1`, {
      width: 800,
      height: 200,
    });
    // The big window typed last: the grid is its size.
    await t.page.bringToFront();
    await t.page.click("#terminal");
    await t.page.keyboard.type("seq 5\n");
    await waitForRow(small, "5");
    const inView = () =>
      small.evaluate(() => {
        const vp = document.querySelector(".dt-viewport")!
          .getBoundingClientRect();
        const cur = document.querySelector(".dt-cursor")
          ?.getBoundingClientRect();
        const rows = Array.from(document.querySelectorAll("#terminal .dt-row"));
        const five = rows.find((r) => r.textContent?.trim() === "5")!
          .getBoundingClientRect();
        return cur !== undefined && cur.top >= vp.top &&
          cur.bottom <= vp.bottom + 1 && five.top >= vp.top;
      });
    let ok = false;
    for (let i = 0; i < 50 && !ok; i++) {
      ok = await inView();
      if (!ok) await small.waitForTimeout(100);
    }
    assert(ok, "the small window does not show its cursor and the last output");
    // Output past the small window's height: still the cursor at the bottom.
    await t.page.keyboard.type("seq 100 130\n");
    await waitForRow(small, "130");
    ok = false;
    for (let i = 0; i < 50 && !ok; i++) {
      ok = await small.evaluate(() => {
        const vp = document.querySelector(".dt-viewport")!
          .getBoundingClientRect();
        const cur = document.querySelector(".dt-cursor")
          ?.getBoundingClientRect();
        return cur !== undefined && cur.top >= vp.top &&
          cur.bottom <= vp.bottom + 1;
      });
      if (!ok) await small.waitForTimeout(100);
    }
    assert(ok, "after more output the cursor is out of view");
  } finally {
    await t.close();
  }
});

Deno.test("e2e small window: zooming in keeps the lines on the screen (none pushed into history, no blank rows kept below)", async () => {
  const t = await startDomterm(["bash", "--norc", "-i"], {
    env: { PS1: "$ " },
  });
  try {
    await waitForRow(t.page, "$", 20_000);
    await t.page.keyboard.type("seq 5\n");
    await waitForRow(t.page, "5");
    const before = await t.page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.fit()
    );
    for (let i = 0; i < 4; i++) {
      await t.page.keyboard.press("Control+Shift+Equal");
    }
    await t.page.waitForFunction(
      (rows) =>
        (globalThis as unknown as Inspected).domtermInspect.fit().rows < rows,
      before.rows,
    );
    await t.page.waitForTimeout(500);
    const r = await t.page.evaluate(() => {
      const vp = document.querySelector(".dt-viewport")!;
      const first = Array.from(document.querySelectorAll("#terminal .dt-row"))
        .find((r) => r.textContent?.trim() === "$ seq 5")!;
      return {
        top: first.getBoundingClientRect().top -
          vp.getBoundingClientRect().top,
        scrollTop: vp.scrollTop,
      };
    });
    assert(r.scrollTop === 0, `scrolled by ${r.scrollTop}px`);
    assert(r.top >= 0 && r.top < 20, `the first line is ${r.top}px down`);
  } finally {
    await t.close();
  }
});
