/**
 * Settings in real Chromium: a change of settings.toml recolours an open
 * window at once (colours, palette, theme, font, cursor); a bad value is
 * reported with its line and the old value stays; domterm starts with a bad
 * file; the settings page saves to the file and a key binding opens it;
 * OSC 88 recolours the window it is printed in. Set DT_SHOT_DIR to keep
 * screenshots of the settings page.
 */
import { SETTINGS } from "../../core/settings/schema.ts";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Page } from "playwright-core";
import { request, socketPath } from "../../server/control.ts";
import { CLOSE_GRACE_MS } from "../../core/protocol.ts";

/** Write `text` as an editor does: a new file renamed over the old one. */
function writeSettings(path: string, text: string): void {
  Deno.writeTextFileSync(`${path}.tmp`, text);
  Deno.renameSync(`${path}.tmp`, path);
}

/** The computed value of a CSS property of the terminal element. */
function termStyle(page: Page, prop: string): Promise<string> {
  return page.evaluate(
    (p) =>
      getComputedStyle(document.querySelector(".domterm")!).getPropertyValue(
        p,
      ).trim(),
    prop,
  );
}

async function waitStyle(page: Page, prop: string, want: string, what: string) {
  try {
    await page.waitForFunction(
      ([p, w]) =>
        getComputedStyle(document.querySelector(".domterm")!)
          .getPropertyValue(p).trim() === w,
      [prop, want],
      { timeout: 15_000 },
    );
  } catch {
    throw new Error(
      `${what}: ${prop} is ${await termStyle(page, prop)}, not ${want}`,
    );
  }
}

/** The text of the settings notice ("" when hidden). */
function noticeText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLElement>(".dt-settings-notice")!;
    return el.hidden ? "" : el.textContent ?? "";
  });
}

const shot = async (page: Page, name: string) => {
  const dir = Deno.env.get("DT_SHOT_DIR");
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
};

Deno.test("settings e2e: a settings file change recolours an open window at once; a bad value is reported with its line and the old value kept", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-settings-" });
  const path = `${dir}/settings.toml`;
  writeSettings(path, '[colors]\nbackground = "#102030"\n');
  const dt = await startDomterm(
    ["sh", "-c", "printf 'plain \\033[31mred\\033[0m\\n'; exec sleep 120"],
    { env: { DOMTERM_SETTINGS: path } },
  );
  const { page } = dt;
  try {
    await page.emulateMedia({ colorScheme: "dark" });
    await waitForRow(page, "plain red");
    await waitStyle(page, "background-color", "rgb(16, 32, 48)", "at attach");
    const cellBefore = await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.cell().height
    );
    writeSettings(
      path,
      [
        'theme = "light"',
        'palette = ["#000000", "#ff0000"]',
        // Pure red on this background is under 4.5:1: without this the
        // minimum contrast would draw it lighter (a11y_test.ts checks that).
        "minimum-contrast-ratio = 1",
        "[colors]",
        'background = "#405060"',
        "[font]",
        "size = 22",
        "[cursor]",
        'style = "bar"',
        "",
      ].join("\n"),
    );
    await waitStyle(page, "background-color", "rgb(64, 80, 96)", "changed");
    // The palette: SGR 31 is the new red.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll(".dt-row span")).some((s) =>
          s.textContent === "red" &&
          getComputedStyle(s).color === "rgb(255, 0, 0)"
        ),
      undefined,
      { timeout: 10_000 },
    );
    // The theme: the light theme's text colour, though the system is dark.
    await waitStyle(page, "color", "rgb(47, 51, 59)", "light theme");
    // The font: larger cells; the cursor: a bar.
    await page.waitForFunction(
      (h) =>
        // deno-lint-ignore no-explicit-any
        (globalThis as any).domtermInspect.cell().height > h * 1.3,
      cellBefore,
      { timeout: 10_000 },
    );
    await page.waitForSelector(".dt-cursor.dt-cursor-bar", { timeout: 10_000 });
    assertEquals(await noticeText(page), "", "no problem shown");

    // A bad value: reported with file and line; the old value stays.
    writeSettings(
      path,
      [
        'theme = "light"',
        "[colors]",
        'background = "#405060"',
        "[font]",
        "size = 500",
        "",
      ].join("\n"),
    );
    await page.waitForFunction(
      () =>
        /font\.size/.test(
          document.querySelector(".dt-settings-notice")!.textContent ?? "",
        ),
      undefined,
      { timeout: 15_000 },
    );
    assertEquals(
      await noticeText(page),
      `${path}:5: bad value 500 for 'font.size': allowed: a number from 6 to 72`,
    );
    assertEquals(await termStyle(page, "--dt-font-size"), "22px");
    // The palette was taken out of the file: back to the theme's red.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll(".dt-row span")).some((s) =>
          s.textContent === "red" &&
          getComputedStyle(s).color !== "rgb(255, 0, 0)"
        ),
      undefined,
      { timeout: 10_000 },
    );
  } finally {
    await dt.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("settings e2e: domterm starts with a bad settings file and says where; OSC 88 recolours the window it is printed in, also after a reload", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-settings-" });
  const path = `${dir}/settings.toml`;
  writeSettings(
    path,
    '# mine\ntheme = "dark"\ncursor.style = "beam"\nscrollback = -4\n',
  );
  const dt = await startDomterm(["sh"], {
    env: { DOMTERM_SETTINGS: path, PS1: "$ " },
  });
  const { page } = dt;
  try {
    await page.waitForFunction(
      () =>
        /beam/.test(
          document.querySelector(".dt-settings-notice")!.textContent ?? "",
        ),
      undefined,
      { timeout: 15_000 },
    );
    const text = await noticeText(page);
    assertMatch(
      text,
      new RegExp(
        `^${path}:3: bad value "beam" for 'cursor.style': allowed: "block", "underline", "bar"\n` +
          `${path}:4: bad value -4 for 'scrollback'`,
      ),
    );
    await shot(page, "settings-bad-file");
    await page.click(".dt-settings-notice");
    assertEquals(await noticeText(page), "", "a click closes the notice");
    await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.focus()
    );
    // The good key applies; the shell runs.
    await waitStyle(page, "background-color", "rgb(28, 31, 38)", "dark theme");
    await page.keyboard.type("echo $((6*7))\n");
    await waitForRow(page, "42");
    // OSC 88 from the program: this window's background.
    await page.keyboard.type(
      `printf '\\033]88;{"colors.background":"#300000"}\\a'\n`,
    );
    await waitStyle(page, "background-color", "rgb(48, 0, 0)", "OSC 88");
    // The server keeps it for the session: a reload (a new window on the
    // same session) looks the same.
    await page.reload();
    await page.waitForFunction(() => "domtermInspect" in globalThis);
    await waitStyle(
      page,
      "background-color",
      "rgb(48, 0, 0)",
      "OSC 88 after a reload",
    );
  } finally {
    await dt.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("settings e2e: the settings page shows every key, saves to the file, and a key binding opens it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-settings-" });
  const path = `${dir}/settings.toml`;
  writeSettings(
    path,
    '# my comment\n[keys]\n"Ctrl+Shift+Y" = "settings"\n',
  );
  const dt = await startDomterm(["sh", "-c", "echo hi; exec sleep 120"], {
    env: { DOMTERM_SETTINGS: path },
    viewport: { width: 900, height: 640 },
  });
  const { page } = dt;
  try {
    await page.emulateMedia({ colorScheme: "dark" });
    await waitForRow(page, "hi");
    await page.waitForFunction(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.settings().keys["Ctrl+Shift+Y"]
    );
    await page.keyboard.press("Control+Shift+KeyY");
    await page.waitForSelector("dialog.dt-settings[open]", { timeout: 10_000 });
    const keys = await page.$$eval(
      ".dt-settings-key",
      (els) => els.map((e) => e.textContent),
    );
    // Every key of the schema.
    assertEquals(keys.length, SETTINGS.length);
    assert(keys.includes("font.size") && keys.includes("clipboard.read"));
    assert(keys.includes("minimum-contrast-ratio"));
    assertEquals(
      await page.inputValue("#dt-setting-keys"),
      "Ctrl+Shift+Y = settings",
    );
    await shot(page, "settings-page-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await shot(page, "settings-page-light");
    // A bad value is marked and nothing is sent.
    await page.fill("#dt-setting-font-size", "99");
    await page.keyboard.press("Enter");
    await page.waitForSelector(
      "#dt-setting-font-size[aria-invalid=true]",
    );
    assertEquals(
      Deno.readTextFileSync(path),
      '# my comment\n[keys]\n"Ctrl+Shift+Y" = "settings"\n',
    );
    await shot(page, "settings-page-error");
    // Fixed, with the keyboard only: the font size, then the cursor style.
    await page.fill("#dt-setting-font-size", "17");
    await page.focus("#dt-setting-cursor-style");
    await page.selectOption("#dt-setting-cursor-style", "underline");
    await page.focus("#dt-setting-font-size");
    await page.keyboard.press("Enter");
    await page.waitForSelector("dialog.dt-settings:not([open])", {
      state: "attached",
    });
    await waitStyle(page, "--dt-font-size", "17px", "saved font size");
    const text = Deno.readTextFileSync(path);
    assertEquals(
      text,
      '# my comment\n[keys]\n"Ctrl+Shift+Y" = "settings"\n\n[font]\nsize = 17\n\n[cursor]\nstyle = "underline"\n',
    );
    await page.waitForSelector(".dt-cursor.dt-cursor-underline");
    // Escape closes without saving; the menu has the entry. A bound key
    // typed in the page is the page's.
    await page.keyboard.press("Control+Shift+KeyY");
    await page.waitForSelector("dialog.dt-settings[open]");
    await page.focus("#dt-setting-font-family");
    await page.keyboard.press("Control+Shift+KeyY");
    assertEquals(
      await page.evaluate(() => document.activeElement?.id),
      "dt-setting-font-family",
    );
    await page.keyboard.press("Escape");
    await page.waitForSelector("dialog.dt-settings:not([open])", {
      state: "attached",
    });
    assertEquals(
      await page.evaluate(() =>
        // deno-lint-ignore no-explicit-any
        (globalThis as any).domtermInspect.actionLabel("settings")
      ),
      "Settings\u2026",
    );
  } finally {
    await dt.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("settings e2e: with detach-on-close, closing the last window detaches its session instead of ending it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-settings-" });
  const path = `${dir}/settings.toml`;
  const run = `${dir}/run`;
  Deno.mkdirSync(run, { mode: 0o700 });
  writeSettings(path, "detach-on-close = true\n");
  const dt = await startDomterm(["sh", "-c", "echo hi; exec sleep 120"], {
    env: { DOMTERM_SETTINGS: path, DOMTERM_RUNTIME_DIR: run },
  });
  try {
    await waitForRow(dt.page, "hi");
    await dt.page.waitForFunction(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.settings()["detach-on-close"] === true
    );
    await dt.page.close();
    // Longer than the grace a closed last window gets (CLOSE_GRACE_MS).
    await new Promise((r) => setTimeout(r, CLOSE_GRACE_MS + 1500));
    const res = await request(socketPath(run), { op: "list" });
    assert(res !== null, "the server still runs");
    assertEquals(res.sessions?.map((s) => s.state), ["detached"]);
  } finally {
    await dt.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
