/**
 * xterm sequences that reach the browser, in the real product (domterm
 * server, bash on a PTY, Chromium): XTWINOPS `CSI 8 ; rows ; cols t`
 * resizes the grid within the window (and the PTY with it) and `CSI 14 t`
 * reports the measured cell size; OSC 52 writes the clipboard; DEC
 * double-size lines are drawn twice as large.
 */
import { assert, assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const BASH = ["bash", "--norc", "--noprofile", "-i"];
const ENV = {
  PS1: "$ ",
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
};

Deno.test("e2e: CSI 8 t resizes the grid, at most to what fits", async () => {
  const t = await startDomterm(BASH, {
    env: ENV,
    viewport: { width: 800, height: 480 },
  });
  try {
    await waitForRow(t.page, "$");
    const fit = await t.page.evaluate(() =>
      (globalThis as unknown as Inspected)
        .domtermInspect.fit()
    ) as { cols: number; rows: number };
    // The PTY takes a new size a moment after the request (the server
    // settles sizes for 120 ms; the window's answer is a round trip
    // through the page): the shell asks until its size changed, rather
    // than sleeping a fixed time (half a second was not always enough on
    // a loaded machine, and stty still saw the old size).
    await t.page.keyboard.type(
      "printf '\\033[8;10;40t'; until [ \"$(stty size)\" = '10 40' ];" +
        ' do sleep 0.1; done; echo "size $(stty size)"',
    );
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "size 10 40", 20_000);
    // Larger than the window: clamped to what fits. The PTY may have the
    // request's own size for a moment (the model took it at once, up to
    // 500 rows), until the window's answer, what fits, reaches it.
    await t.page.keyboard.type(
      "printf '\\033[8;500;500t'; while s=$(stty size);" +
        ` [ "$s" = '10 40' ] || [ "$s" = '500 500' ]; do sleep 0.1; done;` +
        ' echo "fits $s"',
    );
    await t.page.keyboard.press("Enter");
    // The size stty reports is what fits the window now (measured again:
    // under load the cell may have been measured anew meanwhile).
    const sizeRow = await t.page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll("#terminal .dt-row")).map((r) =>
          (r.textContent ?? "").trim()
        ).find((x) => /^fits \d+ \d+$/.test(x))?.slice(5) ?? null,
      undefined,
      { timeout: 20_000 },
    ).then((h) => h.jsonValue() as Promise<string>);
    const fitNow = await t.page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.fit()
    ) as { cols: number; rows: number };
    assertEquals(sizeRow, `${fitNow.rows} ${fitNow.cols}`);
    // A pixel report follows the measured cell, not the 8x16 default.
    const px = await t.page.evaluate(() => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      const c = d.cell();
      return {
        w: Math.round(c.width * d.term.cols),
        h: Math.round(c.height * d.term.rows),
      };
    });
    assert(px.w !== 8 * fit.cols || px.h !== 16 * fit.rows, "a real cell size");
    await t.page.keyboard.type(
      "printf '\\033[14t'; IFS=';' read -rs -d t a h w; echo \"px $h $w\"",
    );
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, `px ${px.h} ${px.w}`);
  } finally {
    await t.close();
  }
});

Deno.test("e2e: OSC 52 from a program writes the clipboard", async () => {
  const t = await startDomterm(BASH, { env: ENV });
  try {
    await t.page.context().grantPermissions([
      "clipboard-read",
      "clipboard-write",
    ], { origin: new URL(t.page.url()).origin });
    await waitForRow(t.page, "$");
    // "héllo 52" in base64, written by printf from the shell.
    await t.page.keyboard.type(
      "printf '\\033]52;c;aMOpbGxvIDUy\\a'; echo sent",
    );
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "sent");
    let text = "";
    for (let i = 0; i < 50 && text !== "héllo 52"; i++) {
      text = await t.page.evaluate(() => navigator.clipboard.readText());
      if (text !== "héllo 52") await new Promise((r) => setTimeout(r, 100));
    }
    assert(text === "héllo 52", `clipboard has ${JSON.stringify(text)}`);
  } finally {
    await t.close();
  }
});

Deno.test("e2e: double-width and double-height lines are drawn twice as large", async () => {
  const t = await startDomterm(BASH, { env: ENV });
  try {
    await waitForRow(t.page, "$");
    await t.page.keyboard.type(
      "printf '\\033#6WIDE\\n\\033#3TALL\\n\\033#4TALL\\nWIDE\\n'",
    );
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "TALL");
    const rows = await t.page.evaluate(() =>
      Array.from(document.querySelectorAll("#terminal .dt-row")).filter((r) =>
        ["WIDE", "TALL"].includes((r.textContent ?? "").trim())
      ).map((r) => {
        const range = document.createRange();
        range.selectNodeContents(r);
        const box = range.getBoundingClientRect();
        return {
          cls: r.className,
          width: box.width,
          height: box.height,
        };
      })
    );
    assertEquals(rows.map((r) => r.cls), [
      "dt-row dt-dw",
      "dt-row dt-dh-top",
      "dt-row dt-dh-bottom",
      "dt-row",
    ]);
    const normal = rows[3];
    const ratio = (a: number, b: number) => Math.round((a / b) * 10) / 10;
    assertEquals(ratio(rows[0].width, normal.width), 2, "double width");
    assertEquals(ratio(rows[1].width, normal.width), 2, "top half width");
    assertEquals(ratio(rows[1].height, normal.height), 2, "top half height");
  } finally {
    await t.close();
  }
});
