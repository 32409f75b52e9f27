/**
 * Two terminals in one page (`#key=K&views=2`, client/launch.ts): each
 * view has its own session, element, emulator and connection. Typing in
 * one reaches only its session, both draw on their own, and the window's
 * keys (the key table) and menu act on the terminal they are used in.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { launchChromium } from "./chromium.ts";
import { spawnServer } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

/** Wait until terminal `i`'s screen has a row that is exactly `text`. */
async function waitForScreenRow(page: Page, i: number, text: string) {
  await page.waitForFunction(
    ({ i, text }) =>
      (globalThis as unknown as Inspected).domtermInspect.view(i).screenText()
        .some((r) => r.trimEnd() === text),
    { i, text },
    { timeout: 15_000 },
  );
}

/** Terminal `i`'s screen and its drawn rows. */
function texts(page: Page, i: number) {
  return page.evaluate((i) => {
    const v = (globalThis as unknown as Inspected).domtermInspect.view(i);
    return {
      screen: v.screenText().join("\n"),
      drawn: Array.from(v.root.querySelectorAll(".dt-row")).map((r) =>
        r.textContent ?? ""
      ).join("\n"),
    };
  }, i);
}

Deno.test("e2e two views: two terminals in one page, each on its own session", async () => {
  const { child, url } = await spawnServer(["--", "sh"], { PS1: "$ " });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({
      viewport: { width: 1000, height: 480 },
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${url}&views=2`);
    await page.waitForFunction(
      () => {
        const d = (globalThis as unknown as Partial<Inspected>).domtermInspect;
        // Connected, and each grid fitted to its half of the page (the
        // first view's grid follows the split a resize later).
        return d !== undefined && d.views() === 2 && d.view(0).connected &&
          d.view(1).connected && d.view(0).term.cols < 80 &&
          d.view(1).term.cols < 80;
      },
      undefined,
      { timeout: 15_000 },
    );

    const layout = await page.evaluate(() => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      const [a, b] = [d.view(0), d.view(1)];
      const ra = a.root.getBoundingClientRect();
      const rb = b.root.getBoundingClientRect();
      return {
        sessions: [a.position().session, b.position().session],
        firstIsPageTerminal: a.root.id === "terminal",
        distinctRoots: a.root !== b.root && !a.root.contains(b.root),
        sideBySide: ra.right <= rb.left + 1 && ra.width > 300 &&
          rb.width > 300,
        cols: [a.term.cols, b.term.cols],
        // One viewport per terminal: no id or element is shared.
        viewports: [
          a.root.querySelectorAll(".dt-viewport").length,
          b.root.querySelectorAll(".dt-viewport").length,
        ],
      };
    });
    assert(layout.sessions[0] !== layout.sessions[1], `${layout.sessions}`);
    assert(layout.sessions[0] !== null && layout.sessions[1] !== null);
    assert(layout.firstIsPageTerminal);
    assert(layout.distinctRoots);
    assert(layout.sideBySide, JSON.stringify(layout));
    assert(layout.cols[0] < 80 && layout.cols[1] < 80, `${layout.cols}`);
    assertEquals(layout.viewports, [1, 1]);

    // Typing in the second terminal reaches its session only.
    await page.click("[aria-label='Terminal 2']");
    await page.keyboard.type("echo two-$((20+2))");
    await page.keyboard.press("Enter");
    await waitForScreenRow(page, 1, "two-22");
    assertEquals(
      await page.evaluate(() =>
        (globalThis as unknown as Inspected).domtermInspect.activeView()
      ),
      1,
    );
    // Then in the first: its own session.
    await page.click("#terminal");
    await page.keyboard.type("echo one-$((10+1))");
    await page.keyboard.press("Enter");
    await waitForScreenRow(page, 0, "one-11");
    const [first, second] = [await texts(page, 0), await texts(page, 1)];
    assert(first.screen.includes("one-11"), first.screen);
    assert(!first.screen.includes("two"), first.screen);
    assert(!first.drawn.includes("two"), first.drawn);
    assert(second.screen.includes("two-22"), second.screen);
    assert(!second.screen.includes("one"), second.screen);
    assert(!second.drawn.includes("one"), second.drawn);
    assert(second.drawn.includes("two-22"), second.drawn);

    // A window key acts on the terminal it is typed in: zoom the second.
    const cells = () =>
      page.evaluate(() => {
        const d = (globalThis as unknown as Inspected).domtermInspect;
        return [d.view(0).cell().height, d.view(1).cell().height];
      });
    const before = await cells();
    await page.click("[aria-label='Terminal 2']");
    await page.keyboard.press("Control+Shift+Equal");
    await page.waitForFunction(
      (h) =>
        (globalThis as unknown as Inspected).domtermInspect.view(1).cell()
          .height > h,
      before[1],
    );
    const after = await cells();
    assertEquals(after[0], before[0], "the first terminal kept its size");

    // The menu opens from either terminal and acts on the one clicked.
    await page.click("[aria-label='Terminal 2']", { button: "right" });
    await page.click(".dt-menu-item:has-text('Select all')");
    const selected = await page.evaluate(() =>
      getSelection()?.toString() ?? ""
    );
    assert(selected.includes("two-22"), selected);
    assert(!selected.includes("one-11"), selected);
    await page.click("#terminal", { button: "right" });
    await page.click(".dt-menu-item:has-text('Select all')");
    const first2 = await page.evaluate(() => getSelection()?.toString() ?? "");
    assert(first2.includes("one-11") && !first2.includes("two-22"), first2);
    assertEquals(errors, []);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
    await child.status;
  }
});
