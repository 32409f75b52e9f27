/**
 * Four panes in one window (issue 33's cost figures), in headless Chromium
 * against the real server:
 *
 * - key to echo in one pane, the other three idle, then while the other
 *   three flood with `yes` (the target: within 2x);
 * - all four flooding: Ctrl+C in each, from the key to its prompt drawn
 *   (the target: under 300 ms).
 *
 * Times are the page's: from the keydown event to the DOM holding the
 * echo (or the prompt). Run: `deno run -A bench/panes_bench.ts [--keys N]`.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { spawnServer } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";
import { panes } from "../core/layout.ts";

const KEYS = Number(
  Deno.args[Deno.args.indexOf("--keys") + 1] ?? "",
) || 40;

function median(xs: number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function pct(xs: number[], p: number): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

async function action(page: Page, name: string, count: number) {
  await page.evaluate(
    (name) =>
      (globalThis as unknown as Inspected).domtermInspect.runAction(name),
    name,
  );
  await page.waitForFunction(
    (n) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      if (d.views() !== n) return false;
      for (let i = 0; i < n; i++) if (!d.view(i).connected) return false;
      return true;
    },
    count,
    { timeout: 20_000 },
  );
}

async function focusPane(page: Page, pane: number) {
  const box = (await page.locator(`.dt-pane[data-pane="${pane}"]`)
    .boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(
    (pane) =>
      (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
        pane && document.activeElement?.closest(".dt-pane")?.getAttribute(
          "data-pane",
        ) === String(pane),
    pane,
  );
}

/** Installs the page's stopwatch: keydown time to a DOM change that `done` accepts. */
function installStopwatch(page: Page) {
  return page.evaluate(() => {
    const w = globalThis as unknown as {
      __t0: number;
      __wait: (pane: number, text: string, last: boolean) => Promise<number>;
    };
    addEventListener("keydown", () => w.__t0 = performance.now(), {
      capture: true,
    });
    w.__wait = (pane, text, last) =>
      new Promise((resolve) => {
        // Never seen within 10 s: NaN.
        setTimeout(() => resolve(NaN), 10_000);
        const el = document.querySelector(`.dt-pane[data-pane="${pane}"]`)!;
        const ok = () => {
          const rows = [...el.querySelectorAll(".dt-row")].map((r) =>
            (r.textContent ?? "").trimEnd()
          ).filter((r) => r !== "");
          return last
            ? rows.at(-1) === text
            : rows.some((r) => r.endsWith(text));
        };
        const obs = new MutationObserver(() => {
          if (!ok()) return;
          obs.disconnect();
          resolve(performance.now() - w.__t0);
        });
        obs.observe(el, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      });
  });
}

/** Key to echo for `n` letters typed into pane `pane` (focused). */
async function keyToEcho(page: Page, pane: number, n: number) {
  const out: number[] = [];
  let typed = "echo ";
  await page.keyboard.type(typed);
  await page.waitForTimeout(200);
  for (let i = 0; i < n; i++) {
    const ch = "abcdefghijklmnopqrstuvwxyz"[i % 26];
    typed += ch;
    const wait = page.evaluate(
      ({ pane, typed }) =>
        (globalThis as unknown as {
          __wait: (p: number, t: string, l: boolean) => Promise<number>;
        }).__wait(pane, typed, false),
      { pane, typed },
    );
    await page.waitForTimeout(5);
    await page.keyboard.press(ch);
    out.push(await wait);
    await page.waitForTimeout(30);
  }
  await page.keyboard.press("Control+c");
  return out;
}

const { child, url } = await spawnServer(["--", "sh"], { PS1: "$ ", ENV: "" });
const browser = await launchChromium();
try {
  const page = await browser.newPage({
    viewport: { width: 1200, height: 800 },
  });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  page.on("close", () => console.error("the page closed"));
  await page.goto(url);
  await page.waitForFunction(() =>
    "domtermInspect" in globalThis &&
    (globalThis as unknown as Inspected).domtermInspect.connected
  );
  // Four panes: two columns of two.
  await action(page, "split-right", 2);
  await action(page, "split-down", 3);
  let layout = await page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.layout()!
  );
  await focusPane(page, panes(layout)[0].id);
  await action(page, "split-down", 4);
  layout = await page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.layout()!
  );
  const ids = panes(layout).map((p) => p.id);
  // Keys straight to the program, which echoes them (not the page's line
  // editor, which would draw them itself).
  await page.evaluate(() => {
    const d = (globalThis as unknown as Inspected).domtermInspect;
    for (let i = 0; i < d.views(); i++) d.view(i).setInputMode("char");
  });
  await installStopwatch(page);

  const typist = ids[0];
  await focusPane(page, typist);
  const idle = await keyToEcho(page, typist, KEYS);

  for (const p of ids.slice(1)) {
    await focusPane(page, p);
    await page.keyboard.type("yes\n");
  }
  await page.waitForTimeout(1500);
  await focusPane(page, typist);
  const flooded = await keyToEcho(page, typist, KEYS);

  // All four flood; Ctrl+C in each.
  await page.keyboard.type("yes\n");
  await page.waitForTimeout(1500);
  const ctrlC: number[] = [];
  for (const p of ids) {
    await focusPane(page, p);
    await page.waitForTimeout(300);
    const wait = page.evaluate(
      (pane) =>
        (globalThis as unknown as {
          __wait: (p: number, t: string, l: boolean) => Promise<number>;
        }).__wait(pane, "$", true),
      p,
    );
    await page.keyboard.press("Control+c");
    ctrlC.push(await wait);
  }
  const f = (x: number) => x.toFixed(1);
  console.log(
    `key to echo, other panes idle:     median ${f(median(idle))} ms, p90 ${
      f(pct(idle, 0.9))
    } ms (${idle.length} keys)`,
  );
  console.log(
    `key to echo, three panes flooding: median ${f(median(flooded))} ms, p90 ${
      f(pct(flooded, 0.9))
    } ms (${flooded.length} keys); ratio of medians ${
      (median(flooded) / median(idle)).toFixed(2)
    }`,
  );
  console.log(
    `Ctrl+C to prompt, four panes flooding: ${
      ctrlC.map(f).join(", ")
    } ms (max ${f(Math.max(...ctrlC))})`,
  );
} finally {
  await browser.close();
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  await child.status;
}
