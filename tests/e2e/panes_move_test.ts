/**
 * Issue 33, §3: a pane moves to a new window and back. The pane prefix's
 * O (Move to a new window, also in the menu) opens a window with the
 * pane's session; in that window, the prefix's B (Move back to its
 * window) takes it back to the window it came from, in the same session,
 * and the emptied window closes.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";
import { waitConnectedPanes as waitPanes } from "./panes_helpers.ts";
import { panes } from "../../core/layout.ts";

async function waitRow(page: Page, text: string) {
  await page.waitForFunction(
    (text) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      for (let i = 0; i < d.views(); i++) {
        if (d.view(i).screenText().some((r) => r.trimEnd() === text)) {
          return true;
        }
      }
      return false;
    },
    text,
    { timeout: 30_000 },
  );
}

function windowOf(page: Page): Promise<number | null> {
  return page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.window()
  );
}

Deno.test("e2e panes: a pane moves to a new window (prefix, O) and back (prefix, B)", async () => {
  const dt = await startDomterm(["sh"], {
    env: { PS1: "$ ", ENV: "" },
    viewport: { width: 1000, height: 600 },
  });
  const { page } = dt;
  try {
    await waitPanes(page, 1);
    await page.keyboard.press("Control+Shift+N");
    const two = await waitPanes(page, 2);
    const moving = panes(two).find((p) => p.id === two.focus)!;
    await page.keyboard.type("echo moving-$((6*7))\n");
    await waitRow(page, "moving-42");
    const home = await windowOf(page);

    // The pane prefix, then O: the pane goes to a new window.
    const opened = page.context().waitForEvent("page", { timeout: 30_000 });
    await page.keyboard.press("Control+Shift+A");
    await page.keyboard.press("O");
    const other = await opened;
    other.on("pageerror", (e) => console.error("page error:", e.message));
    const there = await waitPanes(other, 1);
    assertEquals(panes(there)[0].session, moving.session, "its session");
    assert(await windowOf(other) !== home, "a window of its own");
    await waitRow(other, "moving-42");
    const left = await waitPanes(page, 1);
    assert(
      panes(left).every((p) => p.session !== moving.session),
      "gone from the first window",
    );

    // In the new window: the prefix, then B takes it back.
    const closed = other.waitForEvent("close", { timeout: 30_000 });
    await other.keyboard.press("Control+Shift+A");
    await other.keyboard.press("B");
    const back = await waitPanes(page, 2);
    assertEquals(
      panes(back).filter((p) => p.session === moving.session).length,
      1,
      "back in its window, the same session",
    );
    await closed; // the emptied window closes itself
    // The same shell, in its pane.
    await page.keyboard.type("echo back-$((6*8))\n");
    await waitRow(page, "back-48");
  } finally {
    await dt.close();
  }
});
