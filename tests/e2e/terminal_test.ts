/**
 * The whole product end to end: the real domterm server with a real bash on
 * a PTY, the real client in a real headless Chromium.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { rowTexts, startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const BASH = ["bash", "--norc", "--noprofile", "-i"];
type DomtermGlobal = Inspected;

/** The emulator's current size in the page. */
function termSize(page: Page): Promise<{ cols: number; rows: number }> {
  return page.evaluate(() => {
    const t = (globalThis as unknown as DomtermGlobal).domtermInspect.term;
    return { cols: t.cols, rows: t.rows };
  });
}

/** Computed colour of the text `needle` inside the row whose text is `rowText`. */
function colorOf(page: Page, rowText: string, needle: string): Promise<string> {
  return page.evaluate(([rowText, needle]) => {
    const rows = Array.from(document.querySelectorAll("#terminal .dt-row"));
    const row = rows.find((r) => (r.textContent ?? "").trim() === rowText);
    if (!row) return "";
    const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.textContent?.includes(needle)) {
        return getComputedStyle(n.parentElement!).color;
      }
    }
    return "";
  }, [rowText, needle]);
}

const ENV = {
  PS1: "$ ",
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
};

Deno.test("e2e: typing a command shows its output as a DOM row", async () => {
  const t = await startDomterm(BASH, { env: ENV });
  try {
    await waitForRow(t.page, "$");
    await t.page.keyboard.type("echo $((6*7))");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "42");
    await waitForRow(t.page, "$ echo $((6*7))");
  } finally {
    await t.close();
  }
});

Deno.test("e2e: red text is drawn red", async () => {
  const t = await startDomterm(BASH, { env: ENV });
  try {
    await waitForRow(t.page, "$");
    await t.page.keyboard.type("printf '\\033[31mALARM\\033[0m ok\\n'");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "ALARM ok");
    const color = await colorOf(t.page, "ALARM ok", "ALARM");
    const m = color.match(/rgba?\((\d+), (\d+), (\d+)/);
    assert(m, `computed colour ${color}`);
    const [r, g, b] = m.slice(1).map(Number);
    assert(r > 150 && g < 110 && b < 110, `ALARM is red: ${color}`);
    const plain = await colorOf(t.page, "ALARM ok", "ok");
    assert(plain !== color, `the text after SGR 0 is not red (${plain})`);
  } finally {
    await t.close();
  }
});

Deno.test("e2e: resizing the window changes stty size", async () => {
  const t = await startDomterm(BASH, {
    env: ENV,
    viewport: { width: 800, height: 480 },
  });
  try {
    await waitForRow(t.page, "$");
    const before = await termSize(t.page);
    await t.page.keyboard.type("stty size");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, `${before.rows} ${before.cols}`);

    await t.page.setViewportSize({ width: 1100, height: 640 });
    await t.page.waitForFunction((b) => {
      const t = (globalThis as unknown as DomtermGlobal).domtermInspect.term;
      return t.cols > b.cols && t.rows > b.rows;
    }, before);
    const after = await termSize(t.page);
    // The PTY learns the size once it has been quiet for a moment (debounced).
    await t.page.keyboard.type("sleep 0.5; stty size");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, `${after.rows} ${after.cols}`);
  } finally {
    await t.close();
  }
});

Deno.test("e2e: a multi-line paste arrives bracketed and runs both lines", async () => {
  const t = await startDomterm(BASH, { env: ENV });
  try {
    await waitForRow(t.page, "$");
    const bracketed = await t.page.evaluate(() =>
      (globalThis as unknown as Inspected)
        .domtermInspect.term.modes.bracketedPaste
    );
    await t.page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData("text/plain", "echo first-$((1+1))\necho second-$((2+2))");
      const target = document.activeElement ?? document.body;
      target.dispatchEvent(
        new ClipboardEvent("paste", {
          clipboardData: dt,
          bubbles: true,
          cancelable: true,
        }),
      );
    });
    if (bracketed) {
      // readline holds a bracketed paste in the line until Enter.
      await t.page.keyboard.press("Enter");
    }
    await waitForRow(t.page, "first-2");
    await waitForRow(t.page, "second-4");
  } finally {
    await t.close();
  }
});

Deno.test("e2e: when the shell exits the window says so", async () => {
  const t = await startDomterm(BASH, { env: ENV });
  try {
    await waitForRow(t.page, "$");
    await t.page.keyboard.type("exit 3");
    await t.page.keyboard.press("Enter");
    try {
      await t.page.waitForFunction(() =>
        (document.getElementById("status")?.textContent ?? "").includes(
          "exited with code 3",
        )
      );
    } catch (e) {
      const status = await t.page.evaluate(() =>
        document.getElementById("status")?.textContent ?? "(no status)"
      );
      const rows = await rowTexts(t.page);
      throw new Error(
        `no exit status; status ${JSON.stringify(status)}, rows ${
          JSON.stringify(rows.slice(-8))
        }`,
        { cause: e },
      );
    }
    // The status may come a frame before the echo's row is drawn.
    await waitForRow(t.page, "$ exit 3");
    await t.page.waitForEvent("close", { timeout: 5000 });
    const status = await t.child.status;
    assertEquals(
      status.code,
      0,
      "the server exits once its last session ended",
    );
  } finally {
    await t.close();
  }
});
