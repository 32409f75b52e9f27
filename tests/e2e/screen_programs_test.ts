/**
 * Issue 31 §5, what the window shows around programs that take the screen,
 * in real Chromium with bash and its shell integration: after several
 * images (`domterm imgcat`), `clear` leaves the prompt on the top row; a
 * command that draws over the screen without the alternate screen (`top`)
 * gets no fold or copy button over what it draws; once it ended, the
 * buttons come back on its row.
 */
import { assert, assertEquals } from "../assert.ts";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";

const STATIC = new URL("../../static/", import.meta.url).pathname;

/** Fold buttons drawn (not hidden) in the terminal, with their rows' text. */
function shownFolds(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>(".dt-fold-button"))
      .filter((b) => b.getBoundingClientRect().height > 0)
      .map((b) => b.closest(".dt-row")?.textContent?.slice(0, 40) ?? "")
  );
}

/** The screen's rows (the model's) and the cursor. */
function screen(page: Page): Promise<{ rows: string[]; y: number }> {
  return page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const i = (globalThis as any).domtermInspect;
    return { rows: i.screenText(), y: i.cursor().y };
  });
}

Deno.test("e2e screen programs: clear after images puts the prompt on top; top gets no fold button over its screen", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-screen-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  const t = await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
  });
  const { page } = t;
  const type = async (s: string) => {
    await page.keyboard.type(s);
    await page.keyboard.press("Enter");
  };
  try {
    await waitForRow(page, "$");
    // Several PNGs, one taller than the window (512 px in 480).
    const pngs = ["icon-192.png", "icon-32.png", "icon-512.png", "icon-192.png"]
      .map((f) => STATIC + f).join(" ");
    await type(`domterm imgcat ${pngs}; echo IMGS-DONE`);
    await waitForRow(page, "IMGS-DONE", 60_000);
    await type("clear");
    await page.waitForFunction(() => {
      // deno-lint-ignore no-explicit-any
      const i = (globalThis as any).domtermInspect;
      return i.screenText()[0].trimEnd() === "$" && i.cursor().y === 0;
    });
    const top = await page.evaluate(() => {
      const rows = Array.from(
        document.querySelectorAll<HTMLElement>("#terminal .dt-row"),
      ).filter((r) => (r.textContent ?? "").trim() === "$");
      const t = document.getElementById("terminal")!.getBoundingClientRect();
      return rows.at(-1)!.getBoundingClientRect().top - t.top;
    });
    assert(top < 20, `the prompt is drawn ${top} px below the top`);
    assertEquals(await shownFolds(page), [], "no fold button after clear");

    // A command group with output, then top (no alternate screen).
    await type("ls /; echo LS-DONE");
    await waitForRow(page, "LS-DONE");
    await type("top -d 1");
    await page.waitForFunction(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.screenText()[0].startsWith("top - ")
    );
    await page.waitForTimeout(1500);
    const s = await screen(page);
    assert(s.rows[0].startsWith("top - "), s.rows[0]);
    const folds = await shownFolds(page);
    assertEquals(folds, [], `fold buttons over top: ${JSON.stringify(folds)}`);
    await page.keyboard.type("q");
    await waitForRow(page, "$", 20_000);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
