/**
 * Closing a window while a program other than the shell runs (issue 31
 * §3), in real Chromium with vim on a real PTY: the menu's Close asks
 * first, naming what closing ends; the browser's own close
 * (`beforeunload`) asks too, with Chromium's generic dialog; the
 * `confirm-close` setting turns both off.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Dialog, Page } from "playwright-core";
import type { Inspected } from "../../client/inspect.ts";
import { openPage, startDomterm, waitForRow } from "./domterm.ts";

type G = Inspected;

function isAlt(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const i = (globalThis as unknown as G).domtermInspect;
    return i.view(i.activeView()).term.buffer.isAlt;
  });
}

/** At the shell's prompt, start vim on `file` and wait for its alternate screen. */
async function startVim(page: Page, file: string): Promise<void> {
  await waitForRow(page, "$");
  await page.keyboard.type(`vim -u NONE -N ${file}`);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => {
    const i = (globalThis as unknown as G).domtermInspect;
    return i.view(i.activeView()).term.buffer.isAlt;
  });
}

Deno.test("e2e close: closing the window while vim runs asks first and names it; the browser's close asks; confirm-close = false closes at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-close-" });
  const settings = `${dir}/settings.toml`;
  await Deno.writeTextFile(settings, "");
  await Deno.writeTextFile(`${dir}/.bashrc`, "PS1='$ '\n");
  // bash with domterm's shell integration: the pane knows its command.
  const dt = await startDomterm(["bash"], {
    env: {
      HOME: dir,
      INPUTRC: "/dev/null",
      LANG: "C.UTF-8",
      DOMTERM_SETTINGS: settings,
    },
  });
  const { page } = dt;
  try {
    await startVim(page, `${dir}/notes.txt`);
    const dialogs: { type: string; message: string }[] = [];
    const onDialog = (d: Dialog) => {
      dialogs.push({ type: d.type(), message: d.message() });
      void d.dismiss();
    };
    page.on("dialog", onDialog);

    // The menu's Close (the `close` action): a question naming vim.
    const ran = await page.evaluate(() =>
      (globalThis as unknown as G).domtermInspect.runAction("close")
    );
    assert(ran, "close ran");
    await page.waitForTimeout(500);
    assertEquals(dialogs.map((d) => d.type), ["confirm"]);
    assert(
      dialogs[0].message.includes("Closing this window ends") &&
        dialogs[0].message.toLowerCase().includes("vim"),
      dialogs[0].message,
    );
    assert(!page.isClosed() && await isAlt(page), "dismissed: vim runs on");

    // The browser's close (its button, the tab's ×): beforeunload, whose
    // dialog is Chromium's own (it cannot name vim); the page was typed
    // in, so Chromium shows it. page.close does not wait for it: it comes
    // once the page ran its beforeunload, later on a loaded machine.
    const asked = page.waitForEvent("dialog", { timeout: 10_000 });
    await page.close({ runBeforeUnload: true });
    await asked;
    assertEquals(dialogs.map((d) => d.type), ["confirm", "beforeunload"]);
    assert(!page.isClosed() && await isAlt(page), "dismissed: vim runs on");

    // The setting off: Close closes at once, no question.
    await Deno.writeTextFile(settings, "confirm-close = false\n");
    await page.waitForFunction(() =>
      (globalThis as unknown as G).domtermInspect.settings()[
        "confirm-close"
      ] === false
    );
    const closed = page.waitForEvent("close", { timeout: 10_000 });
    await page.evaluate(() =>
      (globalThis as unknown as G).domtermInspect.runAction("close")
    );
    await closed;
    assertEquals(dialogs.length, 2, "no question with confirm-close off");
  } finally {
    await dt.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e close: a window opened while vim runs names it too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-close-" });
  await Deno.writeTextFile(`${dir}/.bashrc`, "PS1='$ '\n");
  const dt = await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
  });
  const { page } = dt;
  try {
    await startVim(page, `${dir}/notes.txt`);
    // A second window on the session: its page starts from a snapshot
    // with vim's screen showing, the command's marks in the normal buffer.
    const session = await page.evaluate(() =>
      (globalThis as unknown as G).domtermInspect.position().session
    );
    const second = await openPage(dt.browser, `${dt.url}&session=${session}`);
    await second.waitForFunction(() => {
      const i = (globalThis as unknown as G).domtermInspect;
      return i.view(i.activeView()).term.buffer.isAlt;
    });
    const dialogs: string[] = [];
    second.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // confirm() holds runAction until the dialog is dismissed.
    await second.evaluate(() =>
      (globalThis as unknown as G).domtermInspect.runAction("close")
    );
    assertEquals(dialogs.length, 1);
    assert(
      dialogs[0].includes("Closing this window ends") &&
        dialogs[0].includes(`vim -u NONE -N ${dir}/notes.txt`),
      dialogs[0],
    );
    assert(!second.isClosed() && await isAlt(second), "dismissed");
  } finally {
    await dt.close();
    await Deno.remove(dir, { recursive: true });
  }
});
