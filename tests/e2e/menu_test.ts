/**
 * The window's menu end to end (client/menu.ts): a right click, the menu
 * button and Shift+F10 open it; the keyboard moves in it and runs an
 * entry; the entries run what their keys run (zoom, save as HTML, copy,
 * detach); a program that tracks the mouse gets the right click instead.
 * Screenshots of the open menu (dark and light theme) go to
 * $DT_SCREENSHOT_DIR when it is set.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import type { Page } from "playwright-core";
import { rowTexts, startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const ENV = {
  PS1: "$ ",
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
  DOMTERM_SHELL_INTEGRATION: "0",
};

/** The open menu's entries as "label|key|disabled", or null when closed. */
function menuEntries(page: Page): Promise<string[] | null> {
  return page.evaluate(() => {
    const m = document.querySelector('.dt-menu[role="menu"]');
    if (!m) return null;
    return [...m.querySelectorAll('[role^="menuitem"]')].map((el) =>
      [
        el.querySelector(".dt-menu-label")?.textContent,
        el.querySelector(".dt-menu-key")?.textContent ?? "",
        el.getAttribute("aria-disabled") === "true" ? "disabled" : "",
      ].join("|")
    );
  });
}

/** The label of the focused menu entry. */
function focused(page: Page): Promise<string | null> {
  return page.evaluate(() =>
    document.activeElement?.closest(".dt-menu-item")?.querySelector(
      ".dt-menu-label",
    )?.textContent ?? null
  );
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DT_SCREENSHOT_DIR");
  if (dir) await page.screenshot({ path: join(dir, name) });
}

Deno.test("e2e menu: right click, the button and Shift+F10 open it; keys move and run; entries do what their keys do", async () => {
  const run = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
    env: ENV,
    // Tall enough for the whole menu below the pointer (with its tab and
    // pane entries).
    viewport: { width: 800, height: 720 },
  });
  const { page } = run;
  try {
    await page.emulateMedia({ colorScheme: "dark" });
    await waitForRow(page, "$");
    await page.keyboard.type("echo menu-test-line");
    await page.keyboard.press("Enter");
    await waitForRow(page, "menu-test-line");
    const box = (await page.locator("#terminal").boundingBox())!;
    const grid = () =>
      page.evaluate(() => {
        const t = (globalThis as unknown as Inspected).domtermInspect.term;
        return `${t.cols}x${t.rows}`;
      });
    const startGrid = await grid();

    // A right click: the menu at the pointer, the first entry focused.
    await page.mouse.click(box.x + 300, box.y + 30, { button: "right" });
    assertEquals(await menuEntries(page), [
      "Copy|Ctrl+Shift+C|disabled",
      "Copy as HTML||disabled",
      "Paste|Ctrl+Shift+V|",
      "Select all||",
      "Find\u2026|Ctrl+Shift+F|",
      "Clear scrollback||",
      "Save as HTML\u2026|Ctrl+Shift+S|",
      "Automatic pager||",
      "Pause output|Ctrl+Shift+M|",
      "Zoom in|Ctrl+Shift+=|",
      "Zoom out|Ctrl+Shift+-|",
      "Reset zoom|Ctrl+Shift+0|",
      "Input mode: Automatic|Ctrl+Shift+L|",
      "Settings\u2026||",
      "New tab|Ctrl+Shift+T|",
      "New pane|Ctrl+Shift+N|",
      "Rename tab\u2026||",
      "Move to a new window||",
      "Close pane|Ctrl+Shift+W|",
      "New window||",
      "Detach|Ctrl+Shift+D|",
      "Close||",
    ]);
    const at = await page.locator(".dt-menu").boundingBox();
    assert(
      at !== null && Math.abs(at.x - (box.x + 300)) < 2 &&
        Math.abs(at.y - (box.y + 30)) < 2,
      `menu at the pointer: ${JSON.stringify(at)}`,
    );
    assertEquals(await focused(page), "Copy");
    await screenshot(page, "menu-dark.png");
    // The button is right of the last column: it covers no cell.
    const strip = await page.evaluate(() => {
      const b = document.querySelector(".dt-menu-button")!
        .getBoundingClientRect();
      const root = document.getElementById("terminal")!;
      const t = (globalThis as unknown as Inspected).domtermInspect.term;
      const vp = root.querySelector(".dt-viewport")!;
      const left = root.getBoundingClientRect().left +
        parseFloat(getComputedStyle(vp).paddingLeft);
      const w = parseFloat(root.style.getPropertyValue("--dt-cell-w"));
      return { button: b.left, gridRight: left + t.cols * w, width: b.width };
    });
    assert(
      strip.button >= strip.gridRight - 0.5 && strip.width >= 10,
      `menu button clear of the grid: ${JSON.stringify(strip)}`,
    );
    // Keys: down, End, Home, a first letter; the disabled Copy is skipped
    // by nothing (it is focusable, as the ARIA pattern has it) but does
    // nothing when run.
    await page.keyboard.press("ArrowDown");
    assertEquals(await focused(page), "Copy as HTML");
    await page.keyboard.press("End");
    assertEquals(await focused(page), "Close");
    await page.keyboard.press("ArrowDown");
    assertEquals(await focused(page), "Copy", "wraps around");
    await page.keyboard.press("z");
    assertEquals(await focused(page), "Zoom in");
    await page.keyboard.press("z");
    assertEquals(await focused(page), "Zoom out");
    // Escape closes and gives the keyboard back to the shell.
    await page.keyboard.press("Escape");
    assertEquals(await menuEntries(page), null);
    await page.keyboard.type("echo back-to-shell");
    await page.keyboard.press("Enter");
    await waitForRow(page, "back-to-shell");
    const rows = await rowTexts(page);
    assert(
      !rows.some((r) => /\$ .*z/.test(r) && !r.includes("echo")),
      `no menu key reached the shell: ${JSON.stringify(rows)}`,
    );

    // Shift+F10, then "Zoom in" with Enter: the font grows.
    const fontSize = () =>
      page.evaluate(() =>
        parseFloat(
          getComputedStyle(document.getElementById("terminal")!).fontSize,
        )
      );
    const before = await fontSize();
    await page.keyboard.press("Shift+F10");
    assert((await menuEntries(page)) !== null, "Shift+F10 opens the menu");
    await page.keyboard.press("z");
    await page.keyboard.press("Enter");
    assertEquals(await menuEntries(page), null, "running an entry closes it");
    assert((await fontSize()) > before, `zoomed in from ${before}`);
    // The button: "Reset zoom" by mouse.
    await page.locator(".dt-menu-button").click();
    assertEquals(
      await page.locator(".dt-menu-button").getAttribute("aria-expanded"),
      "true",
    );
    await page.locator('.dt-menu-item[data-action="zoom-reset"]').click();
    assertEquals(await fontSize(), before, "zoom reset");
    // The session's grid comes back to its size (a redraw would drop the
    // selection made next).
    for (let i = 0; i < 50 && await grid() !== startGrid; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(await grid(), startGrid);
    await page.evaluate(() =>
      new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
    );

    // Copy is enabled with a selection and copies it.
    const selected = await page.evaluate(() => {
      const row = [...document.querySelectorAll("#terminal .dt-row")].find(
        (r) => r.textContent?.startsWith("menu-test-line"),
      )!;
      getSelection()!.selectAllChildren(row);
      const r = row.getBoundingClientRect();
      return { x: r.x + 20, y: r.y + r.height / 2 };
    });
    await page.context().grantPermissions(["clipboard-read"]);
    // A right click on the selection keeps it (elsewhere Chromium moves it).
    await page.mouse.click(selected.x, selected.y, { button: "right" });
    assertEquals((await menuEntries(page))![0], "Copy|Ctrl+Shift+C|");
    await page.locator('.dt-menu-item[data-action="copy"]').click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assertEquals(copied.trimEnd(), "menu-test-line");
    // Copy as HTML: the source, as text.
    await page.mouse.click(selected.x, selected.y, { button: "right" });
    await page.locator('.dt-menu-item[data-action="copy-html"]').click();
    const html = await page.evaluate(() => navigator.clipboard.readText());
    assertMatch(html, /^<[a-z][\s\S]*menu-test-line[\s\S]*>$/);

    // Save as HTML from the menu: a download.
    await page.locator(".dt-menu-button").click();
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 15_000 }),
      page.locator('.dt-menu-item[data-action="save-html"]').click(),
    ]);
    assertMatch(download.suggestedFilename(), /^domterm-\d{8}-\d{6}\.html$/);

    // A click outside closes it, and does nothing else.
    await page.locator(".dt-menu-button").click();
    await page.mouse.click(box.x + 100, box.y + 300);
    assertEquals(await menuEntries(page), null);

    // A program that tracks the mouse gets the right click: no menu.
    await page.keyboard.type("printf '\\e[?1000h'; cat -v");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.term.modes
        .mouseTracking === 1000
    );
    await page.mouse.click(box.x + 300, box.y + 120, { button: "right" });
    assertEquals(await menuEntries(page), null, "no menu while tracked");
    await page.waitForFunction(() =>
      [...document.querySelectorAll("#terminal .dt-row")].some((r) =>
        r.textContent?.includes("^[[M")
      )
    );
    // With Shift the click is the window's, as for selecting.
    await page.keyboard.down("Shift");
    await page.mouse.click(box.x + 300, box.y + 120, { button: "right" });
    await page.keyboard.up("Shift");
    assert((await menuEntries(page)) !== null, "Shift+right click: the menu");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+c");
    await page.keyboard.type("printf '\\e[?1000l'");
    await page.keyboard.press("Enter");

    // Detach from the menu: the window says so; the session goes on.
    await page.keyboard.press("ContextMenu");
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowUp");
    assertEquals(await focused(page), "Detach");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () =>
        document.getElementById("status")?.textContent?.includes("Detached"),
      undefined,
      { timeout: 10_000 },
    );
  } finally {
    await run.close();
  }
});

Deno.test("e2e menu: in the light theme it takes the light colours", async () => {
  const run = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
    env: ENV,
    viewport: { width: 640, height: 360 },
  });
  const { page } = run;
  try {
    await page.emulateMedia({ colorScheme: "light" });
    await waitForRow(page, "$");
    await page.keyboard.press("Shift+F10");
    const colours = await page.evaluate(() => {
      const m = getComputedStyle(document.querySelector(".dt-menu")!);
      const term = getComputedStyle(document.getElementById("terminal")!);
      return { menu: m.backgroundColor, text: m.color, page: term.color };
    });
    await screenshot(page, "menu-light.png");
    // Light: a light menu with the page's dark text.
    // Chromium reports color-mix() results as color(srgb r g b), 0..1.
    const lum = (c: string) => {
      const [r, g, b] = (c.match(/[\d.]+/g) ?? []).map(Number);
      return (r + g + b) / 3 * (c.startsWith("color(") ? 255 : 1);
    };
    assert(lum(colours.menu) > 200, `light menu: ${colours.menu}`);
    assertEquals(colours.text, colours.page, "the terminal's text colour");
  } finally {
    await run.close();
  }
});

/** Lines of history in the window's model (the renderer draws the last few). */
function historyLength(page: Page): Promise<number> {
  return page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.term.normalBuffer
      .historyLength
  );
}

async function runEntry(page: Page, action: string): Promise<void> {
  await page.keyboard.press("Shift+F10");
  await page.locator(`.dt-menu-item[data-action="${action}"]`).click();
}

Deno.test("e2e menu: Select all, Clear scrollback (the session's history, not just this window's), New window, Close", async () => {
  const run = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
    env: ENV,
    viewport: { width: 800, height: 480 },
  });
  const { page, browser } = run;
  try {
    await waitForRow(page, "$");
    await page.keyboard.type("seq -f 'hist-%g' 1 200");
    await page.keyboard.press("Enter");
    await waitForRow(page, "hist-200");

    // Select all, then Copy: the whole history and screen.
    await page.context().grantPermissions(["clipboard-read"]);
    await runEntry(page, "select-all");
    await runEntry(page, "copy");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const lines = copied.split("\n");
    assert(lines.includes("hist-1") && lines.includes("hist-200"), copied);
    await page.evaluate(() => getSelection()?.removeAllRanges());

    // Clear scrollback: the history goes, the screen stays.
    await runEntry(page, "clear-scrollback");
    await page.waitForFunction(() =>
      ![...document.querySelectorAll("#terminal .dt-row")].some((r) =>
        r.textContent === "hist-1"
      )
    );
    assertEquals(await historyLength(page), 0);
    assert((await rowTexts(page)).includes("hist-200"), "the screen stays");
    // The server's model was cleared too: a reload attaches to a snapshot
    // without it, and the shell goes on.
    await page.reload();
    await waitForRow(page, "hist-200");
    assertEquals(await historyLength(page), 0, "history after a reload");
    await page.keyboard.type("echo after-clear");
    await page.keyboard.press("Enter");
    await waitForRow(page, "after-clear");

    // New window: another app window on a new session.
    const [popup] = await Promise.all([
      page.context().waitForEvent("page", { timeout: 15_000 }),
      runEntry(page, "new-window"),
    ]);
    await popup.waitForFunction(() => "domtermInspect" in globalThis);
    await waitForRow(popup, "$");
    const sessions = await Promise.all(
      [page, popup].map((p) =>
        p.evaluate(() => sessionStorage.getItem("domterm-session"))
      ),
    );
    assert(
      sessions[0] !== null && sessions[1] !== null &&
        sessions[0] !== sessions[1],
      `two sessions: ${JSON.stringify(sessions)}`,
    );
    assert(!(await rowTexts(popup)).includes("after-clear"), "a new shell");

    // Close: the window goes.
    await Promise.all([
      popup.waitForEvent("close", { timeout: 10_000 }),
      (async () => {
        await popup.keyboard.press("Shift+F10");
        await popup.locator('.dt-menu-item[data-action="close"]').click();
      })(),
    ]);
    assertEquals(browser.contexts()[0].pages().includes(popup), false);
  } finally {
    await run.close();
  }
});

Deno.test("e2e menu: in a window 500px tall the whole menu shows; its button is left of the scrollbar", async () => {
  const t = await startDomterm(["bash", "--norc", "-i"], {
    env: { PS1: "$ " },
    viewport: { width: 700, height: 500 },
  });
  try {
    await waitForRow(t.page, "$", 20_000);
    await t.page.keyboard.type("seq 100\n");
    await waitForRow(t.page, "100");
    await t.page.click("#terminal", {
      button: "right",
      position: { x: 300, y: 400 },
    });
    await t.page.waitForSelector(".dt-menu");
    const r = await t.page.evaluate(() => {
      const m = document.querySelector<HTMLElement>(".dt-menu")!;
      const box = m.getBoundingClientRect();
      const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
      const btn = document.querySelector(".dt-menu-button")!
        .getBoundingClientRect();
      return {
        scrolls: m.scrollHeight > m.clientHeight + 1,
        top: box.top,
        bottom: box.bottom,
        inner: innerHeight,
        buttonRight: btn.right,
        buttonTop: btn.top,
        scrollbarWidth: vp.offsetWidth - vp.clientWidth,
        scrollbarLeft: vp.getBoundingClientRect().left + vp.clientLeft +
          vp.clientWidth,
      };
    });
    assert(!r.scrolls, "the menu scrolls: some entries are cut off");
    assert(r.top >= 0 && r.bottom <= r.inner, JSON.stringify(r));
    // Not over the scrollbar's up arrow: beside it, or below it.
    assert(
      r.buttonRight <= r.scrollbarLeft + 0.5 ||
        r.buttonTop >= r.scrollbarWidth,
      JSON.stringify(r),
    );
  } finally {
    await t.close();
  }
});
