/**
 * Sixel images on the alternate screen, end to end: a full-screen program
 * (`?1049h`) prints a sixel; the real client shows it over the cells at
 * the cursor (one piece per row, checked by position and by the pixels of
 * a screenshot), and `?1049l` takes it away with the alternate screen.
 * Set DT_SHOT_DIR to keep the screenshots.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

/** The colour of the screenshot's pixel at (x, y) as [r, g, b]. */
async function pixel(page: Page, x: number, y: number): Promise<number[]> {
  const png = await page.screenshot();
  let bin = "";
  for (const b of png) bin += String.fromCharCode(b);
  return await page.evaluate(async ([b64, x, y]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    return Array.from(ctx.getImageData(x as number, y as number, 1, 1).data)
      .slice(0, 3);
  }, [btoa(bin), x, y] as const);
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DT_SHOT_DIR");
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

Deno.test("e2e alt images: a sixel printed by a full-screen program shows over the cells at the cursor; ?1049l removes it", async () => {
  const dir = await Deno.makeTempDir();
  // 40 x 40 red pixels (7 bands of 6, cut to 40 by the raster attributes).
  const sixel = `\\033P0;1;0q"1;1;40;40#1;2;100;0;0#1` +
    "!40~-".repeat(6) + "!40~\\033\\\\";
  const t = await startDomterm([
    "sh",
    "-c",
    `printf '\\033[?1049h\\033[1;1HALT-SCREEN\\033[3;5H'; printf '${sixel}'; ` +
    `printf '\\033[1;20HALT-READY'; ` +
    `while [ ! -e '${dir}/leave' ]; do sleep 0.05; done; ` +
    `printf '\\033[?1049l'; echo BACK; sleep 60`,
  ], { viewport: { width: 800, height: 480 } });
  try {
    const { page } = t;
    await page.waitForFunction(() =>
      document.querySelector(".dt-alt .dt-row")?.textContent?.includes(
        "ALT-READY",
      )
    );
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".dt-image-piece"))
        .some((p) => p.style.backgroundImage.startsWith('url("blob:'))
    );
    await page.evaluate(() =>
      new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
    );
    await shot(page, "alt-sixel");
    const r = await page.evaluate(() => {
      const root = document.getElementById("terminal")!;
      const w = parseFloat(root.style.getPropertyValue("--dt-cell-w"));
      const h = parseFloat(root.style.getPropertyValue("--dt-cell-h"));
      const alt = document.querySelector<HTMLElement>(".dt-alt")!;
      const rows = Array.from(alt.querySelectorAll<HTMLElement>(".dt-row"));
      const first = rows[0].getBoundingClientRect();
      const pieces = Array.from(
        alt.querySelectorAll<HTMLElement>(".dt-image-piece"),
      ).map((p) => {
        const b = p.getBoundingClientRect();
        return {
          row: rows.indexOf(p.closest(".dt-row")!),
          col: Math.round((b.left - first.left) / w),
          width: b.width,
          height: b.height,
        };
      });
      return { w, h, pieces, left: first.left, top: first.top };
    });
    const n = Math.ceil(40 / r.h);
    assertEquals(r.pieces.length, n, JSON.stringify(r));
    for (const [i, p] of r.pieces.entries()) {
      assertEquals([p.row, p.col], [2 + i, 4]);
      assert(
        Math.abs(p.width - Math.ceil(40 / r.w) * r.w) < 1,
        `width ${p.width}`,
      );
    }
    // The image's pixels are on the screen: red at its middle, where the
    // cell at row 2, column 4 starts plus 20 pixels.
    const x = Math.round(r.left + 4 * r.w + 20);
    const y = Math.round(r.top + 2 * r.h + 20);
    const red = await pixel(page, x, y);
    assert(red[0] > 200 && red[1] < 60 && red[2] < 60, `pixel ${red}`);
    // Nothing was inserted into the grid: the grid did not scroll.
    const grid = await page.evaluate(() =>
      document.querySelectorAll(".dt-alt .dt-row").length
    );
    const size = await page.evaluate(() =>
      (globalThis as unknown as Inspected)
        .domtermInspect.term.rows
    );
    assertEquals(grid, size);

    await Deno.writeTextFile(`${dir}/leave`, "");
    await waitForRow(page, "BACK");
    await shot(page, "alt-sixel-left");
    const after = await page.evaluate(() => ({
      altHidden: document.querySelector<HTMLElement>(".dt-alt")!.hidden,
      visiblePieces: Array.from(document.querySelectorAll(".dt-image-piece"))
        .filter((p) => (p as HTMLElement).offsetParent !== null).length,
    }));
    assertEquals(after, { altHidden: true, visiblePieces: 0 });
    const bg = await pixel(page, x, y);
    assert(!(bg[0] > 200 && bg[1] < 60 && bg[2] < 60), `still red: ${bg}`);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
