/**
 * Tabs and panes (client/layout/, client/window.ts; issue 33): the window's
 * layout lives in the server and the page draws it. Made by key, by the
 * pane prefix and by the menu; typing reaches only the focused pane;
 * dragging a splitter resizes only the panes beside it (their PTYs too:
 * `stty size`); dragging a tab onto a pane's edge splits it; a reload
 * brings back the same layout, sessions and scrollback; a tab not shown
 * draws nothing but marks its tab, and draws from the model at once when
 * shown; closing a pane where a program runs asks first.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";
import type { Layout } from "../../core/layout.ts";
import { panes, stacks } from "../../core/layout.ts";

const SH = ["sh"];
const ENV = { PS1: "$ ", ENV: "" };

function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.layout()!
  );
}

/** Waits until the layout has `n` panes, every one connected and focused where the layout says. */
async function waitPanes(page: Page, n: number): Promise<Layout> {
  await page.waitForFunction(
    (n) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      const layout = d.layout();
      if (!layout || d.views() !== n) return false;
      for (let i = 0; i < n; i++) if (!d.view(i).connected) return false;
      const active = d.activeView();
      return d.paneOf(active) === layout.focus &&
        document.activeElement?.closest(".dt-pane")?.getAttribute(
            "data-pane",
          ) === String(layout.focus);
    },
    n,
    { timeout: 15_000 },
  );
  return await layoutOf(page);
}

/** The view index of pane `pane`. */
function indexOf(page: Page, pane: number): Promise<number> {
  return page.evaluate((pane) => {
    const d = (globalThis as unknown as Inspected).domtermInspect;
    for (let i = 0; i < d.views(); i++) if (d.paneOf(i) === pane) return i;
    return -1;
  }, pane);
}

/** Pane `pane`'s screen (the model) and its drawn rows. */
function texts(page: Page, pane: number) {
  return page.evaluate((pane) => {
    const d = (globalThis as unknown as Inspected).domtermInspect;
    for (let i = 0; i < d.views(); i++) {
      if (d.paneOf(i) !== pane) continue;
      const v = d.view(i);
      return {
        screen: v.screenText().join("\n"),
        drawn: Array.from(v.root.querySelectorAll(".dt-row")).map((r) =>
          r.textContent ?? ""
        ).join("\n"),
      };
    }
    throw new Error(`no pane ${pane}`);
  }, pane);
}

/** Waits until pane `pane`'s screen has a row that is exactly `text`. */
async function waitRow(page: Page, pane: number, text: string) {
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
    { timeout: 15_000 },
  );
}

/** Types `cmd` and Enter into the focused pane. */
async function run(page: Page, cmd: string) {
  await page.keyboard.type(cmd);
  await page.keyboard.press("Enter");
}

Deno.test("e2e panes: tabs and panes by key, prefix and menu; typing reaches the focused pane only", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  const { page } = dt;
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    let layout = await waitPanes(page, 1);
    const first = layout.focus;
    // One pane: no tab bar, the terminal fills the window as it always did.
    assertEquals(
      await page.evaluate(() =>
        getComputedStyle(document.querySelector(".dt-tabbar")!).display
      ),
      "none",
    );
    // Ctrl+Shift+T: a new tab beside it, shown and focused.
    await page.keyboard.press("Control+Shift+T");
    layout = await waitPanes(page, 2);
    assertEquals(stacks(layout).length, 1);
    const tab = layout.focus;
    assert(tab !== first);
    assert(
      await page.locator(".dt-tab").first().isVisible(),
      "two tabs: the tab bar shows",
    );
    await run(page, "echo tab-$((1+1))");
    await waitRow(page, tab, "tab-2");

    // The menu's "New pane": a split, focused.
    await page.click(`.dt-pane[data-pane="${tab}"]`, { button: "right" });
    await page.click(".dt-menu-item:has-text('New pane')");
    layout = await waitPanes(page, 3);
    assertEquals(stacks(layout).length, 2);
    const right = layout.focus;
    await run(page, "echo right-$((2+1))");
    await waitRow(page, right, "right-3");

    // The pane prefix: Ctrl+Shift+A, then Ctrl+Down: a pane below.
    await page.keyboard.press("Control+Shift+A");
    await page.keyboard.press("Control+ArrowDown");
    layout = await waitPanes(page, 4);
    const below = layout.focus;
    assertEquals(stacks(layout).length, 3);
    await run(page, "echo below-$((3+1))");
    await waitRow(page, below, "below-4");

    // Ctrl+Shift+A, then Left: the pane to the left (the tab shown there).
    await page.keyboard.press("Control+Shift+A");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(
      (tab) =>
        (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
          tab,
      tab,
    );
    layout = await waitPanes(page, 4);
    await run(page, "echo left-$((4+1))");
    await waitRow(page, tab, "left-5");

    // Each output went to its own pane only.
    const markers = new Map([
      [tab, "tab-2"],
      [right, "right-3"],
      [below, "below-4"],
    ]);
    for (const p of panes(layout)) {
      const t = await texts(page, p.id);
      for (const [q, m] of markers) {
        const echoed = p.id === tab && (m === "left-5");
        if (q === p.id) assert(t.screen.includes(m), `${p.id}: ${t.screen}`);
        else if (!echoed) {
          assert(!t.screen.includes(`\n${m}`), `${m} in ${p.id}: ${t.screen}`);
        }
      }
    }
    assert(!(await texts(page, first)).screen.includes("-"), "first tab");

    // Ctrl+PageUp: the previous tab of that area (the first pane).
    await page.keyboard.press("Control+PageUp");
    await page.waitForFunction(
      (first) =>
        (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
          first,
      first,
    );
    await waitPanes(page, 4);
    await run(page, "echo first-$((5+1))");
    await waitRow(page, first, "first-6");
    // The tab not shown draws nothing, though its model has its output.
    const hidden = await texts(page, tab);
    assert(hidden.screen.includes("left-5"));

    // Ctrl+Shift+W: the focused pane closes (its shell runs nothing).
    await page.keyboard.press("Control+Shift+W");
    layout = await waitPanes(page, 3);
    assert(!panes(layout).some((p) => p.id === first));
    assertEquals(await indexOf(page, first), -1);
    assertEquals(errors, []);
  } finally {
    await dt.close();
  }
});
