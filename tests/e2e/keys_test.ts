/**
 * The window's history keys through the key table (client/key_table.ts):
 * Shift+PgUp / Shift+End move in the history on the normal screen, and
 * reach the program on the alternate screen.
 *
 * @module
 */
import { assert } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

Deno.test("e2e keys: Shift+PgUp and Shift+End scroll the history; on the alternate screen they are the program's", async () => {
  const t = await startDomterm(["sh"], { env: { PS1: "$ " } });
  try {
    const { page } = t;
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.connected
    );
    await page.click("#terminal");
    await page.keyboard.type("seq 200");
    await page.keyboard.press("Enter");
    await waitForRow(page, "200");
    const jumpHidden = () =>
      page.evaluate(() =>
        document.querySelector<HTMLElement>("#terminal .dt-jump")!.hidden
      );
    assert(await jumpHidden(), "at the bottom");
    await page.keyboard.press("Shift+PageUp");
    await page.waitForFunction(() =>
      !document.querySelector<HTMLElement>("#terminal .dt-jump")!.hidden
    );
    await page.keyboard.press("Shift+End");
    await page.waitForFunction(() =>
      document.querySelector<HTMLElement>("#terminal .dt-jump")!.hidden
    );

    // On the alternate screen the program gets them: cat -v shows the bytes
    // (raw: the window's line editor stays out of it).
    await page.keyboard.type("printf '\\033[?1049h'; stty raw -echo; cat -v");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.term.buffer.isAlt
    );
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.inputMode !==
        "line" &&
      !(globalThis as unknown as Inspected).domtermInspect.lineEditing
    );
    await new Promise((r) => setTimeout(r, 300)); // stty has run
    await page.keyboard.press("Shift+PageUp");
    await page.waitForFunction(
      () =>
        (globalThis as unknown as Inspected).domtermInspect.screenText()
          .some((r) => r.includes("^[[5;2~")),
      undefined,
      { timeout: 10_000 },
    );
    assert(await jumpHidden(), "no history moved");
  } finally {
    await t.close();
  }
});
