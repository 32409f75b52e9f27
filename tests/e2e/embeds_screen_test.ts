/**
 * Block embeds on the screen, end to end, measured in the real client:
 * `clear` after an HTML table leaves only what xterm would (no stale
 * table, the next lines at the top of the window), and a block taller
 * than a row on the screen does not push the screen's top rows out of
 * the window while blank rows fill the bottom. Set DT_SHOT_DIR to keep
 * screenshots.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";

const BASH = ["bash", "--norc", "--noprofile"];
const ENV = { PS1: "$ ", INPUTRC: "/dev/null", LANG: "C.UTF-8" };

async function run(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}

/** Two frames, so that what came has been drawn. */
function frames(page: Page): Promise<unknown> {
  return page.evaluate(() =>
    new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
  );
}

/** Each shown row of the normal buffer: text and top/bottom relative to the viewport's content box. */
function rowBoxes(page: Page) {
  return page.evaluate(() => {
    const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
    const pad = parseFloat(getComputedStyle(vp).paddingTop) || 0;
    const top = vp.getBoundingClientRect().top + pad;
    const cellH = parseFloat(
      getComputedStyle(document.getElementById("terminal")!)
        .getPropertyValue("--dt-cell-h"),
    );
    const rows = Array.from(
      document.querySelectorAll<HTMLElement>(".dt-viewport .dt-row"),
    ).filter((r) => getComputedStyle(r).display !== "none").map((r) => {
      const b = r.getBoundingClientRect();
      return {
        text: (r.textContent ?? "").replace(/\s+$/, ""),
        top: b.top - top,
        bottom: b.bottom - top,
      };
    });
    return {
      rows,
      cellH,
      height: vp.clientHeight - 2 * pad,
      embeds: document.querySelectorAll(".dt-embed").length,
    };
  });
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DT_SHOT_DIR");
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

const TABLE =
  "<table border=1><tr><th>name</th></tr><tr><td>TBL</td></tr></table>";

Deno.test("e2e embeds on screen: clear after an HTML table leaves no table; the next lines start at the top of the window", async () => {
  const t = await startDomterm(BASH, {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  try {
    const { page } = t;
    await waitForRow(page, "$");
    await run(page, `printf '\\e]72;${TABLE}\\a\\n'`);
    await page.waitForSelector(".dt-embed-block table");
    await run(page, "clear; echo FIRSTROW; echo SECONDROW");
    await waitForRow(page, "SECONDROW");
    await frames(page);
    await shot(page, "clear-after-table");
    let r = await rowBoxes(page);
    assertEquals(r.embeds, 0, "the table is gone");
    const texts = r.rows.map((x) => x.text);
    const i = texts.indexOf("FIRSTROW");
    assertEquals(texts.slice(i, i + 3), ["FIRSTROW", "SECONDROW", "$"]);
    // The first row is at the top of the window, the others follow it.
    assert(Math.abs(r.rows[i].top) < 1, `FIRSTROW top at ${r.rows[i].top}`);
    for (let k = i; k < i + 3; k++) {
      assert(
        Math.abs(r.rows[k].top - (k - i) * r.cellH) < 1,
        `row ${k - i} at ${r.rows[k].top}`,
      );
    }

    // A long line that wraps, after clear: its first row is at the top.
    await run(page, `printf '\\e]72;${TABLE}\\a\\n'`);
    await page.waitForSelector(".dt-embed-block table");
    await run(page, "clear; printf 'W%.0s' $(seq 300); echo; echo END");
    await waitForRow(page, "END");
    await frames(page);
    await shot(page, "clear-wrapped");
    r = await rowBoxes(page);
    assertEquals(r.embeds, 0);
    const w = r.rows.findIndex((x) => x.text.startsWith("WWW"));
    assert(Math.abs(r.rows[w].top) < 1, `wrapped line top at ${r.rows[w].top}`);
    const wrapped = r.rows.slice(w).filter((x) => /^W+$/.test(x.text));
    assertEquals(wrapped.map((x) => x.text).join("").length, 300);
  } finally {
    await t.close();
  }
});

Deno.test("e2e embeds on screen: a tall block on the screen keeps the rows above it in view (blank rows at the bottom give way)", async () => {
  const t = await startDomterm(BASH, {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  try {
    const { page } = t;
    await waitForRow(page, "$");
    await run(page, "echo TOPLINE");
    await run(
      page,
      `printf '\\e]72;<div style="height:200px;border:1px solid red">TALL</div>\\a'; echo AFTER`,
    );
    await waitForRow(page, "AFTER");
    await frames(page);
    await shot(page, "tall-block");
    const r = await rowBoxes(page);
    const texts = r.rows.map((x) => x.text);
    const top = r.rows[texts.indexOf("$ echo TOPLINE")];
    // Nothing was scrolled out: the screen's first row is at the top.
    assert(Math.abs(top.top) < 1, `first row at ${top.top}`);
    const after = r.rows[texts.indexOf("AFTER")];
    const tall = r.rows[texts.indexOf("TALL")];
    assert(
      tall.bottom - tall.top > 190,
      `block height ${tall.bottom - tall.top}`,
    );
    assert(
      Math.abs(after.top - tall.bottom) < 1,
      "AFTER right below the block",
    );
    // The prompt after it is in the window.
    const prompt = r.rows[texts.lastIndexOf("$")];
    assert(prompt.bottom <= r.height + 1, `prompt bottom ${prompt.bottom}`);

    // Enough output to fill the screen: the rows come back and the screen
    // scrolls as usual, the last line at the bottom of the window.
    await run(page, "seq 1 40");
    await waitForRow(page, "40");
    await frames(page);
    const s = await rowBoxes(page);
    const last = s.rows[s.rows.length - 1];
    assert(
      Math.abs(last.bottom - s.height) < s.cellH,
      `last row bottom ${last.bottom} vs ${s.height}`,
    );
  } finally {
    await t.close();
  }
});
