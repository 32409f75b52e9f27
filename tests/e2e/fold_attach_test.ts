/**
 * A folded DomTerm span (`CSI 83;2 u`: hidden at first) stays folded in a
 * window that attaches from a snapshot (a reload, a restored session),
 * whether it is on the screen (its rows are drawn after the snapshot is
 * loaded) or in the history (its rows are drawn when scrolled back to).
 */
import { assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** The span's rows as `text:hidden` (in the page). */
function spanRows(): string[] {
  return Array.from(document.querySelectorAll<HTMLElement>("#terminal .dt-row"))
    .filter((r) =>
      ["one", "two", "tail"].includes((r.textContent ?? "").trimEnd())
    )
    .map((r) => `${(r.textContent ?? "").trimEnd()}:${r.hidden}`);
}

const FOLDED = ["one:true", "two:true", "tail:false"];

for (const lines of [0, 300]) {
  Deno.test(`e2e fold: a folded span ${lines ? "in the history" : "on the screen"} stays folded after a reload`, async () => {
    const t = await startDomterm([
      "sh",
      "-c",
      `i=0; while [ $i -lt ${lines} ]; do echo pre-$i; i=$((i+1)); done; printf '\\033[16u-\\033[17u head\\n\\033[83;2uone\\ntwo\\n\\033[83;0utail\\n'; i=0; while [ $i -lt ${lines} ]; do echo post-$i; i=$((i+1)); done; exec sleep 100`,
    ]);
    const page = t.page;
    const settle = () => new Promise((r) => setTimeout(r, 500));
    try {
      if (lines === 0) await waitForRow(page, "tail");
      else await waitForRow(page, `post-${lines - 1}`);
      await page.evaluate(() =>
        (globalThis as Any).domtermInspect.scrollToTop()
      );
      await page.waitForFunction(() =>
        document.querySelector(".dt-span-button")
      );
      await settle();
      assertEquals(await page.evaluate(spanRows), FOLDED, "live");
      await page.reload();
      await page.waitForFunction(() =>
        (globalThis as Any).domtermInspect?.connected
      );
      await page.evaluate(() =>
        (globalThis as Any).domtermInspect.scrollToTop()
      );
      await page.waitForFunction(() =>
        document.querySelector(".dt-span-button")
      );
      await settle();
      assertEquals(await page.evaluate(spanRows), FOLDED, "after a reload");
    } finally {
      await t.close();
    }
  });
}
