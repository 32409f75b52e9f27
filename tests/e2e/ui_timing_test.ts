/**
 * The page's features whose tests wait on the clock, end to end (real
 * domterm, real bash on a PTY, real Chromium): the visual bell flashes
 * briefly; font zoom refits the grid and resizes the PTY. The suite runs
 * this file alone (scripts/run_tests.ts SERIAL_FILES); the other page
 * features are in ui_test.ts.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { waitForRow } from "./domterm.ts";
import { type Dt, run, withDomterm } from "./ui_helpers.ts";

Deno.test("e2e ui: BEL flashes the terminal briefly, with or without motion", async () => {
  await withDomterm(async ({ page }) => {
    for (const motion of ["no-preference", "reduce"] as const) {
      await page.emulateMedia({ reducedMotion: motion });
      const before = await page.evaluate(() =>
        (globalThis as unknown as Dt).domtermInspect.bellCount
      );
      await run(page, "printf '\\a'");
      // The flash is on now, with its animation...
      const anim = await page.waitForFunction(() => {
        const el = document.querySelector(".dt-bell.dt-ring");
        return el ? getComputedStyle(el).animationName : false;
      });
      assertEquals(
        await anim.jsonValue(),
        motion === "reduce" ? "dt-bell-still" : "dt-bell",
      );
      // ...and off again soon after.
      await page.waitForFunction(
        () => !document.querySelector(".dt-bell.dt-ring"),
        undefined,
        { timeout: 2000 },
      );
      const after = await page.evaluate(() =>
        (globalThis as unknown as Dt).domtermInspect.bellCount
      );
      assertEquals(after, before + 1);
    }
  });
});

/** Font size, emulator size and the size the program sees. */
async function zoomState(page: Page) {
  return await page.evaluate(() => {
    const d = (globalThis as unknown as Dt).domtermInspect;
    const root = document.getElementById("terminal")!;
    return {
      font: parseFloat(getComputedStyle(root).fontSize),
      cols: d.term.cols,
      rows: d.term.rows,
    };
  });
}

let sizeQueries = 0;

/**
 * Ask the shell for the PTY size until it is the emulator's size. The
 * server passes a resize to the PTY only after the size has been quiet for
 * a moment (debounced SIGWINCH), so the first answer may still be the old
 * size; asking again for up to 10 s tells "late" from "never".
 */
async function sttySize(page: Page, expect: { cols: number; rows: number }) {
  const want = `${expect.rows} ${expect.cols}`;
  const deadline = Date.now() + 10_000;
  let last = "";
  while (Date.now() < deadline) {
    const tag = `size${++sizeQueries}=`;
    await run(page, `echo "${tag}$(stty size)"`);
    const row = await page.waitForFunction(
      (tag) =>
        Array.from(document.querySelectorAll(".dt-viewport .dt-row"))
          .map((r) => r.textContent ?? "")
          .find((t) => t.startsWith(tag)),
      tag,
      { timeout: 30_000 },
    );
    last = String(await row.jsonValue()).slice(tag.length);
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assertEquals(last, want, "stty size never reached the emulator's size");
}

/**
 * The zoom state once the grid is refitted: the page measures the new
 * cell at once and asks the session for the grid that fits, but its
 * emulator takes the grid when the server's `grid` message comes back (at
 * the same point of the stream as the session's emulator), a round trip
 * through the server that a loaded machine can stretch past any number of
 * frames. So: wait until the grid is what fits the element with the font
 * now in use (a zoom that never refits the grid times out here).
 */
async function settledZoomState(page: Page) {
  await page.waitForFunction(
    () => {
      const d = (globalThis as unknown as Dt).domtermInspect;
      const fit = d.fit();
      return d.term.cols === fit.cols && d.term.rows === fit.rows;
    },
    undefined,
    { timeout: 10_000 },
  );
  return await zoomState(page);
}

Deno.test("e2e ui: Ctrl+Shift+= / Ctrl+Shift+- / Ctrl+Shift+0 zoom the font, refit the grid, resize the PTY", async () => {
  await withDomterm(async ({ page }) => {
    const start = await zoomState(page);
    await page.keyboard.press("Control+Shift+Equal");
    await page.keyboard.press("Control+Shift+Equal");
    const big = await settledZoomState(page);
    assert(big.font > start.font, `bigger font: ${big.font}`);
    assert(big.cols < start.cols && big.rows < start.rows, "fewer cells");
    await sttySize(page, big);

    await page.keyboard.press("Control+Shift+Digit0");
    const reset = await settledZoomState(page);
    assertEquals(reset, start);
    await page.keyboard.press("Control+Shift+Minus");
    const small = await settledZoomState(page);
    assert(small.font < start.font && small.cols > start.cols, "smaller");
    await sttySize(page, small);
    await page.keyboard.press("Control+Shift+Digit0");
    assertEquals(await settledZoomState(page), start);

    // Plain Ctrl+= / Ctrl+- / Ctrl+0 are the program's: no zoom.
    await page.keyboard.press("Control+Equal");
    await page.keyboard.press("Control+Minus");
    await page.keyboard.press("Control+0");
    assertEquals(await settledZoomState(page), start);

    // Ctrl+/ sends 0x1f (Ctrl+_, the undo of emacs and readline, which
    // zoom out takes on US layouts).
    await run(page, "read -rsn1 k; printf '%d\\n' \"'$k\"");
    await page.keyboard.press("Control+Slash");
    await waitForRow(page, "31", 30_000);
  });
});
