/**
 * The page's own features end to end (real domterm, real bash on a PTY,
 * real Chromium): the window title (OSC 0/2), the visual bell, moving
 * through the history (keys, wheel, jump-to-bottom button), the scrollback
 * limit and the user's stylesheet. The visual bell and font zoom, which
 * wait on the clock (a flash that ends soon, a refit two frames later), are
 * in ui_timing_test.ts, which the suite runs alone.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { waitForRow } from "./domterm.ts";
import { type Dt, ENV, run, withDomterm } from "./ui_helpers.ts";

/** Viewport scroll state and the jump button's visibility. */
function scrollState(page: Page) {
  return page.evaluate(() => {
    const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
    const b = document.querySelector<HTMLElement>(".dt-jump")!;
    return {
      top: vp.scrollTop,
      max: vp.scrollHeight - vp.clientHeight,
      jump: getComputedStyle(b).display !== "none",
      focusInTerminal: document.activeElement?.tagName === "TEXTAREA",
    };
  });
}

/** The scroll state once `done` holds, or after 2 s (for the assertion). */
async function settledScrollState(
  page: Page,
  done: (s: Awaited<ReturnType<typeof scrollState>>) => boolean,
) {
  const deadline = Date.now() + 2000;
  let s = await scrollState(page);
  while (!done(s) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    s = await scrollState(page);
  }
  return s;
}

Deno.test("e2e ui: the window title follows OSC 0 and OSC 2", async () => {
  await withDomterm(async ({ page }) => {
    await run(page, "printf '\\e]0;first title\\a'");
    await page.waitForFunction(() => document.title === "first title");
    await run(page, "printf '\\e]2;second title\\e\\\\'");
    await page.waitForFunction(() => document.title === "second title");
    // OSC 1 sets only the icon name.
    await run(page, "printf '\\e]1;icon\\a'; echo done1");
    await waitForRow(page, "done1");
    assertEquals(await page.title(), "second title");
  });
});

Deno.test("e2e ui: Shift+PgUp/PgDn/Home/End, the wheel and the jump button move through history", async () => {
  await withDomterm(async ({ page }) => {
    await run(page, "seq 1 300");
    await waitForRow(page, "300");
    let s = await scrollState(page);
    assert(s.max > 0 && s.top >= s.max - 1, "follows output");
    assert(!s.jump, "no jump button at the bottom");
    const pageH = await page.evaluate(() => {
      const d = (globalThis as unknown as Dt).domtermInspect;
      return d.term.rows * d.cell().height;
    });

    await page.keyboard.press("Shift+PageUp");
    s = await settledScrollState(
      page,
      (s) => Math.abs(s.max - s.top - pageH) < 1 && s.jump,
    );
    assert(Math.abs(s.max - s.top - pageH) < 1, `one page up: ${s.top}`);
    assert(s.jump, "jump button shows when scrolled up");
    await page.keyboard.press("Shift+PageUp");
    await page.keyboard.press("Shift+PageDown");
    s = await settledScrollState(
      page,
      (s) => Math.abs(s.max - s.top - pageH) < 1,
    );
    assert(Math.abs(s.max - s.top - pageH) < 1, `back down a page: ${s.top}`);

    // New output does not pull the view down while scrolled up (typing
    // does: Enter goes to the bottom, so scroll up after it).
    await run(page, "sleep 1; echo more");
    await page.keyboard.press("Shift+PageUp");
    await waitForRow(page, "more");
    const held = await scrollState(page);
    assert(held.top < held.max - pageH / 2, "stays in the history");

    await page.keyboard.press("Shift+Home");
    s = await settledScrollState(page, (s) => s.top === 0);
    assertEquals(s.top, 0);
    await page.keyboard.press("Shift+End");
    // The button follows the viewport's scroll event, which comes a frame later.
    s = await settledScrollState(page, (s) => s.top >= s.max - 1 && !s.jump);
    assert(
      s.top >= s.max - 1 && !s.jump,
      `Shift+End: bottom, no button: ${JSON.stringify(s)}`,
    );

    // The wheel scrolls history (no mouse tracking in bash).
    const box = (await page.locator("#terminal").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(() => {
      const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
      return vp.scrollHeight - vp.clientHeight - vp.scrollTop > 100;
    });
    s = await settledScrollState(page, (s) => s.jump);
    assert(s.jump, "jump button after wheeling up");

    // Clicking the button goes to the bottom and keeps keys on the terminal.
    await page.click(".dt-jump");
    await page.waitForFunction(() => {
      const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
      return vp.scrollHeight - vp.clientHeight - vp.scrollTop < 2;
    });
    s = await scrollState(page);
    assert(!s.jump && s.focusInTerminal, JSON.stringify(s));

    // Keyboard only: focus the button, press Enter.
    await page.keyboard.press("Shift+Home");
    await page.focus(".dt-jump");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => {
      const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
      return vp.scrollHeight - vp.clientHeight - vp.scrollTop < 2;
    });
    s = await scrollState(page);
    assert(!s.jump && s.focusInTerminal, JSON.stringify(s));

    // In the alternate screen the keys belong to the program.
    await run(
      page,
      "printf '\\e[?1049h'; read -rsn6 k; printf '\\e[?1049l'; printf '%q\\n' \"$k\"",
    );
    await page.waitForFunction(() =>
      !document.querySelector(".dt-alt")?.hasAttribute("hidden")
    );
    await page.keyboard.press("Shift+PageUp");
    await waitForRow(page, "$'\\E[5;2~'");
  });
});

Deno.test("e2e ui: --scrollback limits the history; unlimited keeps it all", async () => {
  await withDomterm(async ({ page }) => {
    const sb = await page.evaluate(() =>
      (globalThis as unknown as Dt).domtermInspect.term.normalBuffer.scrollback
    );
    assertEquals(sb, 100);
    await run(page, "seq 1 500");
    await waitForRow(page, "500");
    const r = await page.evaluate(() => {
      const d = (globalThis as unknown as Dt).domtermInspect;
      // Rows in the DOM, drawn or not yet (a dormant chunk has none).
      const chunks = document.querySelectorAll<HTMLElement>(
        ".dt-viewport .dt-chunk",
      );
      let dom = 0;
      for (const c of chunks) dom += Number(c.style.getPropertyValue("--dt-n"));
      return { length: d.term.normalBuffer.length, rows: d.term.rows, dom };
    });
    assertEquals(r.length, 100 + r.rows);
    assertEquals(r.dom, r.length);
  }, { serverArgs: ["--scrollback", "100"] });

  await withDomterm(async ({ page }) => {
    const sb = await page.evaluate(() =>
      (globalThis as unknown as Dt).domtermInspect.term.normalBuffer.scrollback
    );
    assertEquals(sb, Infinity);
    await run(page, "seq 1 12000");
    await waitForRow(page, "12000", 30_000);
    // The oldest line is still there (drawn once it comes into view).
    await page.keyboard.press("Shift+Home");
    await page.waitForFunction(() =>
      document.querySelector(".dt-viewport .dt-row")?.textContent ===
        "$ seq 1 12000"
    );
  }, { serverArgs: ["--scrollback", "unlimited"] });
});

Deno.test("e2e ui: ~/.config/domterm/style.css restyles the terminal; none is no error", async () => {
  const home = await Deno.makeTempDir({ prefix: "domterm-home-" });
  try {
    // No file: nothing added, nothing reported.
    await withDomterm(async ({ page }) => {
      const warnings: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "warning" || m.type() === "error") {
          warnings.push(m.text());
        }
      });
      await run(page, "echo ok");
      await waitForRow(page, "ok");
      const r = await page.evaluate(() => ({
        style: document.getElementById("dt-user-style") !== null,
        status: document.getElementById("status")!.hidden,
      }));
      assertEquals(r, { style: false, status: true });
      assertEquals(warnings, []);
    }, { env: { ...ENV, HOME: home, XDG_CONFIG_HOME: "" } });

    await Deno.mkdir(`${home}/.config/domterm`, { recursive: true });
    await Deno.writeTextFile(
      `${home}/.config/domterm/style.css`,
      ":root { --dt-bg: rgb(1, 2, 3); --dt-color-1: rgb(200, 100, 0); }\n" +
        ".domterm { --dt-font-size: 20px; }\n",
    );
    await withDomterm(async ({ page }) => {
      await page.waitForFunction(() =>
        document.getElementById("dt-user-style") !== null
      );
      await run(page, "printf '\\e[31mred\\e[0m\\n'");
      await waitForRow(page, "red");
      // The grid is the session's: it follows the refit once the server's
      // grid message comes back.
      await page.waitForFunction(() => {
        const root = document.getElementById("terminal")!;
        const d = (globalThis as unknown as Dt).domtermInspect;
        return d.term.rows * d.cell().height <=
          root.clientHeight;
      });
      const r = await page.evaluate(() => {
        const root = document.getElementById("terminal")!;
        const span = Array.from(root.querySelectorAll(".dt-row span")).find(
          (s) => s.textContent === "red",
        )!;
        const d = (globalThis as unknown as Dt).domtermInspect;
        return {
          bg: getComputedStyle(root).backgroundColor,
          red: getComputedStyle(span).color,
          font: getComputedStyle(root).fontSize,
          // The grid was refitted to the bigger font.
          cellH: d.cell().height,
          rows: d.term.rows,
          fits: d.term.rows * d.cell().height <=
            root.clientHeight,
        };
      });
      assertEquals(
        [r.bg, r.red, r.font, r.fits],
        ["rgb(1, 2, 3)", "rgb(200, 100, 0)", "20px", true],
      );
      assert(r.cellH > 20, `cell height ${r.cellH}`);
      assertEquals(r.rows, Math.floor((480 - 12) / r.cellH));
    }, { env: { ...ENV, HOME: home, XDG_CONFIG_HOME: "" } });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
