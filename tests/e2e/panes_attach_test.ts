/**
 * Issue 33: the layout lives in the server. A window of three panes (a
 * split and a tab), its Chromium killed with SIGKILL (no pagehide, no
 * word to the server); then `domterm attach` gives the window's URL, and
 * a new Chromium shows the same layout with the same sessions in the same
 * places, each pane's screen as it was, and the same shells answering.
 *
 * @module
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import type { Page } from "playwright-core";
import { launchChromium } from "./chromium.ts";
import { spawnServer } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";
import {
  run,
  waitConnectedPanes as waitPanes,
  waitPaneRow as waitRow,
} from "./panes_helpers.ts";
import { panes } from "../../core/layout.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** The pid of the Chromium whose command line has `marker` (its first process: the browser). */
async function browserPid(marker: string): Promise<number> {
  const out = await new Deno.Command("pgrep", { args: ["-o", "-f", marker] })
    .output();
  const pid = Number(new TextDecoder().decode(out.stdout).trim());
  assert(pid > 0, "the browser's process");
  return pid;
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test("e2e panes: kill -9 of the browser, then `domterm attach`: the same layout, sessions and screens", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-e2e-panes-attach-" });
  const { child, url } = await spawnServer(["--", "sh"], {
    DOMTERM_RUNTIME_DIR: dir,
    PS1: "$ ",
    ENV: "",
  });
  const marker = `domterm-test-${crypto.randomUUID()}`;
  let browser = await launchChromium([`--${marker}`]);
  try {
    let page = await browser.newPage({
      viewport: { width: 1000, height: 600 },
    });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(url);
    let layout = await waitPanes(page, 1);
    const a = layout.focus;
    await run(page, "echo a-$((6*7)) $$");
    const pidA = await shellPidOf(page, a, "a-42");
    await page.keyboard.press("Control+Shift+N");
    layout = await waitPanes(page, 2);
    const b = layout.focus;
    await run(page, "echo b-$((6*8))");
    await waitRow(page, b, "b-48");
    await page.keyboard.press("Control+Shift+T");
    layout = await waitPanes(page, 3);
    const c = layout.focus;
    await run(page, "echo c-$((6*9))");
    await waitRow(page, c, "c-54");
    const window = await page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.window()
    );

    // The browser dies without a word.
    const pid = await browserPid(marker);
    Deno.kill(pid, "SIGKILL");
    for (let i = 0; i < 100 && alive(pid); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await browser.close().catch(() => {});

    // `domterm attach` (from a shell) gives the page of the window no page shows.
    let attach: Deno.CommandOutput | null = null;
    for (let i = 0; i < 100; i++) {
      attach = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "attach", "--no-browser"],
        env: { DOMTERM_RUNTIME_DIR: dir, DOMTERM_SOCKET: "" },
        stdin: "null",
      }).output();
      // Until the server saw the page go, every window is open.
      if (attach.code === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(attach!.code, 0, new TextDecoder().decode(attach!.stderr));
    const back = new TextDecoder().decode(attach!.stdout).trim();
    assertMatch(new URL(back).hash, new RegExp(`&window=${window}$`));

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(back);
    const again = await waitPanes(page, 3);
    assertEquals(again, layout, "the same layout, panes and sessions");
    assertEquals(
      panes(again).map((p) => p.session),
      panes(layout).map((p) => p.session),
    );
    await waitRow(page, a, `a-42 ${pidA}`);
    await waitRow(page, b, "b-48");
    await waitRow(page, c, "c-54");
    // The same shells go on, each in its pane.
    await run(page, "echo c-again");
    await waitRow(page, c, "c-again");
  } finally {
    await browser.close().catch(() => {});
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
  }
});

/** The pid that the row starting with `tag ` of pane `pane` shows. */
function shellPidOf(page: Page, pane: number, tag: string): Promise<string> {
  return page.waitForFunction(
    ({ pane, tag }) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      for (let i = 0; i < d.views(); i++) {
        if (d.paneOf(i) !== pane) continue;
        const row = d.view(i).screenText().find((r) => r.startsWith(`${tag} `));
        return row ? row.trim().split(" ")[1] : false;
      }
      return false;
    },
    { pane, tag },
    { timeout: 30_000 },
  ).then((h) => h.jsonValue() as Promise<string>);
}
