/**
 * axe-core (npm, pinned in deno.json) on the real page: a session, the
 * menu open, the find bar open and the settings page, in both themes; and a
 * window with two tabs and a split (tab lists, panels, a splitter). No
 * serious or critical violations. The source is injected over CDP (the
 * page's Content-Security-Policy allows no inline script). Every
 * violation found, of any impact, is printed.
 */
import axe from "axe-core";
import { join } from "node:path";
import { assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";
import { run, waitConnectedPanes, waitPaneRow } from "./panes_helpers.ts";

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Run axe on the page; the violations. */
async function check(page: Page): Promise<Violation[]> {
  const injected = await page.evaluate(() => "axe" in globalThis);
  if (!injected) await page.evaluate(axe.source);
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const a = (globalThis as any).axe;
    const r = await a.run(document, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.map((n: any) => ({ target: n.target })),
    }));
  });
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DT_SCREENSHOT_DIR");
  if (dir) await page.screenshot({ path: join(dir, name) });
}

Deno.test("e2e axe-core: no serious or critical violations with a session, the menu, the find bar and the settings page, in both themes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-axe-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  const t = await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
  });
  const { page } = t;
  const report: string[] = [];
  const bad: string[] = [];
  const run = async (what: string) => {
    const vs = await check(page);
    for (const v of vs) {
      const line = `${what}: ${v.impact} ${v.id} (${v.help}): ${
        v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")
      }`;
      report.push(line);
      if (v.impact === "serious" || v.impact === "critical") bad.push(line);
    }
    if (vs.length === 0) report.push(`${what}: no violations`);
  };
  try {
    await waitForRow(page, "$");
    await page.keyboard.type(
      "ls -l / | head -5; printf '\\e[1;97mbright\\e[0m\\n'; false",
    );
    await page.keyboard.press("Enter");
    await waitForRow(page, "bright");
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      await run(`${scheme}, session`);
      await screenshot(page, `axe-${scheme}-session.png`);

      await page.keyboard.press("Shift+F10");
      await page.waitForSelector(".dt-menu");
      await run(`${scheme}, menu`);
      await screenshot(page, `axe-${scheme}-menu.png`);
      await page.keyboard.press("Escape");

      await page.keyboard.press("Control+Shift+F");
      await page.waitForSelector(".dt-find:not([hidden])");
      await page.keyboard.type("bright");
      await run(`${scheme}, find bar`);
      await screenshot(page, `axe-${scheme}-find.png`);
      await page.keyboard.press("Escape");

      await page.keyboard.press("Shift+F10");
      await page.click('.dt-menu-item[data-action="settings"]');
      await page.waitForSelector(".dt-settings", { state: "visible" });
      await run(`${scheme}, settings page`);
      await screenshot(page, `axe-${scheme}-settings.png`);
      await page.keyboard.press("Escape");
      await page.waitForSelector(".dt-settings", { state: "hidden" });
    }
    console.log(report.join("\n"));
    assertEquals(bad, []);
  } finally {
    await t.close();
  }
});

Deno.test("e2e axe-core: no serious or critical violations on a window with two tabs and a split, in both themes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-axe-panes-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  const t = await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
    viewport: { width: 1000, height: 600 },
  });
  const { page } = t;
  const report: string[] = [];
  const bad: string[] = [];
  try {
    await waitConnectedPanes(page, 1);
    await page.keyboard.press("Control+Shift+T");
    await waitConnectedPanes(page, 2);
    await page.keyboard.press("Control+Shift+N");
    const layout = await waitConnectedPanes(page, 3);
    await run(page, "ls -l / | head -3; false");
    await waitPaneRow(page, layout.focus, "$");
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      // A tab has the focus (its ring drawn), as when a user tabs to it.
      await page.focus(".dt-tab[tabindex='0']");
      await page.keyboard.press("ArrowRight");
      const vs = await check(page);
      for (const v of vs) {
        const line =
          `${scheme}, two tabs and a split: ${v.impact} ${v.id} (${v.help}): ${
            v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")
          }`;
        report.push(line);
        if (v.impact === "serious" || v.impact === "critical") bad.push(line);
      }
      if (vs.length === 0) report.push(`${scheme}: no violations`);
      await screenshot(page, `axe-${scheme}-panes.png`);
    }
    console.log(report.join("\n"));
    assertEquals(bad, []);
  } finally {
    await t.close();
  }
});
