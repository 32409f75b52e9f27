/**
 * Waits and keys shared by the tabs-and-panes e2e tests: a layout whose
 * panes are all connected, a row in one pane's screen, a command typed
 * into the focused pane.
 *
 * @module
 */
import type { Page } from "playwright-core";
import type { Inspected } from "../../client/inspect.ts";
import type { Layout } from "../../core/layout.ts";

/** Waits until the page's layout has `n` panes, every one connected, and returns it. */
export async function waitConnectedPanes(
  page: Page,
  n: number,
): Promise<Layout> {
  await page.waitForFunction(
    (n) => {
      if (!("domtermInspect" in globalThis)) return false;
      const d = (globalThis as unknown as Inspected).domtermInspect;
      const layout = d.layout();
      if (!layout || d.views() !== n) return false;
      for (let i = 0; i < n; i++) if (!d.view(i).connected) return false;
      return d.paneOf(d.activeView()) === layout.focus;
    },
    n,
    { timeout: 30_000 },
  );
  return await page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.layout()!
  );
}

/** Waits until pane `pane`'s screen has a row that is exactly `text`. */
export async function waitPaneRow(
  page: Page,
  pane: number,
  text: string,
  timeout = 30_000,
): Promise<void> {
  await page.waitForFunction(
    ({ pane, text }) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      for (let i = 0; i < d.views(); i++) {
        if (d.paneOf(i) !== pane) continue;
        return d.view(i).screenText().some((r) => r.trimEnd() === text);
      }
      return false;
    },
    { pane, text },
    { timeout },
  );
}

/** Types `cmd` and Enter into the focused pane. */
export async function run(page: Page, cmd: string): Promise<void> {
  await page.keyboard.type(cmd);
  await page.keyboard.press("Enter");
}
