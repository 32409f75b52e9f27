/**
 * XTWINOPS in the real product: `CSI 8 ; rows ; cols t` from a program
 * resizes the grid within the window (and the PTY with it), and `CSI 14 t`
 * reports the measured cell size.
 */
import { assert } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";

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
      (globalThis as unknown as { domterm: { renderer: { fit(): unknown } } })
        .domterm.renderer.fit()
    ) as { cols: number; rows: number };
    await t.page.keyboard.type("printf '\\033[8;10;40t'; sleep 0.5; stty size");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "10 40");
    // Larger than the window: clamped to what fits.
    await t.page.keyboard.type(
      "printf '\\033[8;500;500t'; sleep 0.5; stty size",
    );
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, `${fit.rows} ${fit.cols}`);
    // A pixel report follows the measured cell, not the 8x16 default.
    const px = await t.page.evaluate(() => {
      const d = (globalThis as unknown as {
        domterm: {
          term: { cols: number; rows: number };
          renderer: { measureCell(): { width: number; height: number } };
        };
      }).domterm;
      const c = d.renderer.measureCell();
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
