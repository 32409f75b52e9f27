/**
 * Events from elements a Python program prints (docs/python.md, the event
 * mode of docs/escapes.md), end to end: tests/e2e/fixtures/python_events.py
 * prints a button and a lazy inspector with domterm's package; opening the
 * inspector in Chromium delivers its toggle event as JSON and the program's
 * OSC 721 answer fills it; the button's click ends the program; after that
 * a click delivers nothing (the shell's `cat -v` would show it). Set
 * DT_SHOT_DIR to keep a screenshot.
 */
import { assert, assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const PYPATH = new URL("../../integrations/python", import.meta.url).pathname;
const PROGRAM = new URL("./fixtures/python_events.py", import.meta.url)
  .pathname;

Deno.test("e2e python events: a click and a toggle reach the program as JSON; its OSC 721 fills the inspector", async () => {
  const t = await startDomterm([
    "sh",
    "-c",
    `/usr/bin/python3 '${PROGRAM}'; echo EXITED; exec cat -v`,
  ], {
    env: { PYTHONPATH: PYPATH, PYTHONDONTWRITEBYTECODE: "1" },
    viewport: { width: 1000, height: 500 },
  });
  try {
    await waitForRow(t.page, "READY", 30_000);
    await t.page.click(".dt-embed details > summary");
    await waitForRow(
      t.page,
      'EVENT {"event": "toggle", "key": "n1", "name": "tree", "value": "open"}',
      20_000,
    );
    await t.page.waitForSelector(".dt-embed details .kid", { timeout: 20_000 });
    const inspector = await t.page.evaluate(() => {
      const d = document.querySelector<HTMLDetailsElement>(
        ".dt-embed details",
      )!;
      return {
        open: d.open,
        summary: d.querySelector("summary")?.textContent,
        kid: d.querySelector(".kid")?.textContent,
      };
    });
    assertEquals(inspector, { open: true, summary: "node", kid: "child 1" });
    const shots = Deno.env.get("DT_SHOT_DIR");
    if (shots) await t.page.screenshot({ path: `${shots}/python-events.png` });
    await t.page.click(".dt-embed button");
    await waitForRow(
      t.page,
      'EVENT {"event": "click", "key": null, "name": "ok", "value": null}',
      20_000,
    );
    await waitForRow(t.page, "EXITED", 20_000);
    // The program is gone: a click now sends nothing to what runs next.
    await t.page.click(".dt-embed button");
    await t.page.keyboard.type("typed");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "typed", 10_000);
    await t.page.waitForTimeout(500);
    const screen = await t.page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.screenText()
    );
    assert(!screen.some((l) => l.includes("7101")), screen.join("\n"));
  } finally {
    await t.close();
  }
});
