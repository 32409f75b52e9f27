/**
 * Screenshots of a window with three panes and tabs, in the dark and the
 * light theme, for docs/tabs-and-panes.md:
 *
 *     deno run -A scripts/tabs_screenshots.ts [out-dir] [dark,light]
 *
 * (default: docs/screenshots/). Starts the real server and headless
 * Chromium; the panes are made as a user makes them (the actions the keys
 * run), each runs something.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { spawnServer } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";

const out = Deno.args[0] ?? new URL("../docs/screenshots/", import.meta.url)
  .pathname;

async function act(page: Page, name: string, panes: number) {
  await page.evaluate(
    (n) => (globalThis as unknown as Inspected).domtermInspect.runAction(n),
    name,
  );
  await page.waitForFunction(
    (n) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      if (d.views() !== n) return false;
      for (let i = 0; i < n; i++) if (!d.view(i).connected) return false;
      const f = d.layout()!.focus;
      return document.activeElement?.closest(".dt-pane")?.getAttribute(
        "data-pane",
      ) === String(f);
    },
    panes,
    { timeout: 20_000 },
  );
}

async function type(page: Page, line: string) {
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(700);
}

const { child, url } = await spawnServer([
  "--",
  "bash",
  "--norc",
  "--noprofile",
  "-i",
], {
  PS1: "\\[\\e[32m\\]\\w\\[\\e[0m\\]$ ",
  ENV: "",
});
const browser = await launchChromium();
try {
  const themes = (Deno.args[1] ?? "dark,light").split(
    ",",
  ) as ("dark" | "light")[];
  for (const theme of themes) {
    const page = await browser.newPage({
      viewport: { width: 1100, height: 640 },
    });
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(url.replace(/&session=\d+/, ""));
    await page.waitForFunction(() =>
      "domtermInspect" in globalThis &&
      (globalThis as unknown as Inspected).domtermInspect.connected
    );
    await type(page, "cd /usr/share && ls --color=always | head -30");
    await act(page, "new-tab", 2);
    await type(page, "printf '\\e]2;build\\a'; seq 1 5");
    await act(page, "split-right", 3);
    await type(page, "printf '\\e]9;4;1;60\\a'; cd /etc && ls -l | head -12");
    await act(page, "split-down", 4);
    await type(page, "printf '\\e]2;logs\\a'; uname -a; date");
    await act(page, "focus-left", 4);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}/tabs-and-panes-${theme}.png` });
    console.log(`${out}/tabs-and-panes-${theme}.png`);
    await page.close();
  }
} finally {
  await browser.close();
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  await child.status;
}
