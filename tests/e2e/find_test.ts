/**
 * Find end to end (client/find.ts): 50,000 lines of history, most of them
 * never drawn; Ctrl+Shift+F and the menu open the bar; it counts every
 * match, steps with Enter and Shift+Enter (scrolling each one into view,
 * drawn), highlights what is in view, reports a bad regular expression,
 * and Escape gives the keyboard back. Screenshots go to $DT_SCREENSHOT_DIR
 * when it is set.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const ENV = {
  PS1: "$ ",
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
  DOMTERM_SHELL_INTEGRATION: "0",
};

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DT_SCREENSHOT_DIR");
  if (dir) await page.screenshot({ path: join(dir, name) });
}

interface FindState {
  open: boolean;
  count: string;
  status: { count: number; current: number; error: string | null };
  focusInBar: boolean;
  /** Text of the row holding the current highlight, and whether it is in view. */
  current: { text: string; inView: boolean } | null;
  /** Highlights in rows now. */
  hits: number;
}

function findState(page: Page): Promise<FindState> {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>(".dt-find")!;
    const f = (globalThis as unknown as Inspected).domtermInspect.findStatus();
    const cur = document.querySelector(".dt-find-current");
    const row = cur?.closest(".dt-row") ?? null;
    let current = null;
    if (row) {
      const vp = document.querySelector(".dt-viewport")!
        .getBoundingClientRect();
      const r = row.getBoundingClientRect();
      current = {
        text: (row.textContent ?? "").trimEnd(),
        inView: r.top >= vp.top && r.bottom <= vp.bottom,
      };
    }
    return {
      open: !bar.hidden,
      count: bar.querySelector(".dt-find-count")?.textContent ?? "",
      status: f,
      focusInBar: bar.contains(document.activeElement),
      current,
      hits: document.querySelectorAll(".dt-find-hit").length,
    };
  });
}

async function waitForCount(page: Page, text: string): Promise<FindState> {
  try {
    await page.waitForFunction(
      (t) => document.querySelector(".dt-find-count")?.textContent === t,
      text,
      { timeout: 10_000 },
    );
  } catch {
    throw new Error(
      `find count never became ${JSON.stringify(text)}: ${
        JSON.stringify(await findState(page))
      }`,
    );
  }
  return findState(page);
}

Deno.test("e2e find: 50,000 lines, counts, steps with Enter and Shift+Enter, highlights, bad regex, Escape", async () => {
  const run = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
    env: ENV,
    viewport: { width: 900, height: 500 },
    serverArgs: ["--scrollback", "60000"],
  });
  const { page } = run;
  try {
    await waitForRow(page, "$");
    // Every 1000th line has "needle-N"; every line has "row".
    await page.keyboard.type(
      `for i in $(seq 1 50000); do if (( i % 1000 == 0 )); then echo "nee""dle-$i here"; else echo "row $i"; fi; done; echo fin""ished`,
    );
    await page.keyboard.press("Enter");
    await waitForRow(page, "finished", 60_000);
    const history = await page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.term.normalBuffer
        .length
    );
    assert(history > 50_000, `history holds ${history} lines`);

    // Ctrl+Shift+F: the bar opens with the keyboard in it.
    await page.keyboard.press("Control+Shift+F");
    let s = await findState(page);
    assert(s.open && s.focusInBar, JSON.stringify(s));

    // The newest match first (nearest the bottom), scrolled into view.
    await page.keyboard.type("needle-");
    s = await waitForCount(page, "50 of 50");
    assertEquals(s.current?.text, "needle-50000 here");
    assert(s.current?.inView, "the current match is in view");
    await screenshot(page, "find-bar.png");

    // Enter: older matches, each drawn and in view (their rows were
    // dormant, never drawn before).
    await page.keyboard.press("Enter");
    s = await waitForCount(page, "49 of 50");
    assertEquals(s.current?.text, "needle-49000 here");
    assert(s.current?.inView);
    for (let i = 0; i < 20; i++) await page.keyboard.press("Enter");
    s = await waitForCount(page, "29 of 50");
    assertEquals(s.current?.text, "needle-29000 here");
    assert(s.current?.inView, JSON.stringify(s));
    // Shift+Enter: newer. Wrapping around at both ends.
    await page.keyboard.press("Shift+Enter");
    s = await waitForCount(page, "30 of 50");
    assertEquals(s.current?.text, "needle-30000 here");
    for (let i = 0; i < 21; i++) await page.keyboard.press("Shift+Enter");
    s = await waitForCount(page, "1 of 50");
    assertEquals(s.current?.text, "needle-1000 here");
    assert(s.current?.inView);
    await page.keyboard.press("Enter");
    s = await waitForCount(page, "50 of 50");

    // Case, whole words, regular expressions.
    await page.keyboard.press("Control+A");
    await page.keyboard.type("ROW 4999");
    s = await waitForCount(page, "11 of 11"); // 4999 and 49990-49999
    await page.keyboard.press("Alt+C");
    s = await waitForCount(page, "No matches");
    await page.keyboard.press("Alt+C");
    await page.keyboard.press("Alt+W");
    s = await waitForCount(page, "1 of 1");
    assertEquals(s.current?.text, "row 4999");
    await page.keyboard.press("Alt+W");
    await page.keyboard.press("Alt+R");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("needle-\\d*5000 ");
    // 5000, 15000, ..., 45000; a query typed keeps the place: the match at
    // or before the last one ("row 4999"), else the first.
    s = await waitForCount(page, "1 of 5");
    assertEquals(s.current?.text, "needle-5000 here");
    // Every match in view is highlighted: "row" in the screen's rows.
    await page.keyboard.press("Control+A");
    await page.keyboard.type("^row 3333\\d$");
    s = await waitForCount(page, "1 of 10");
    assertEquals(s.current?.text, "row 33330");
    // The rows revealed by the jump are drawn at the next frame, and each
    // frame decorates what it drew: all ten within a few frames.
    try {
      await page.waitForFunction(
        () => document.querySelectorAll(".dt-find-hit").length === 10,
        undefined,
        { timeout: 2_000 },
      );
    } catch {
      s = await findState(page);
      throw new Error(`${s.hits} highlights for 10 adjacent matches`);
    }
    await screenshot(page, "find-highlights.png");

    // A bad regular expression is reported in the bar, not thrown.
    await page.keyboard.press("Control+A");
    await page.keyboard.type("needle-(");
    await page.waitForFunction(() =>
      document.querySelector(".dt-find-count")?.textContent?.startsWith(
        "Bad regular expression",
      )
    );
    s = await findState(page);
    assertMatch(s.count, /^Bad regular expression/);
    assertEquals(s.status.count, 0);
    assertEquals(s.hits, 0);
    await screenshot(page, "find-error.png");

    // Escape: closed, highlights gone, the keyboard back in the terminal.
    await page.keyboard.press("Escape");
    s = await findState(page);
    assert(!s.open && !s.focusInBar && s.hits === 0, JSON.stringify(s));
    await page.keyboard.type("echo back-in-terminal");
    await page.keyboard.press("Enter");
    await waitForRow(page, "back-in-terminal");

    // The menu's Find… opens it too, with the query kept.
    const box = (await page.locator("#terminal").boundingBox())!;
    await page.mouse.click(box.x + 300, box.y + 100, { button: "right" });
    await page.locator('.dt-menu [role^="menuitem"]', { hasText: "Find" })
      .click();
    s = await findState(page);
    assert(s.open && s.focusInBar, JSON.stringify(s));
  } finally {
    await run.close();
  }
});
