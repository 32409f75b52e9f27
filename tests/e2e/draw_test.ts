/**
 * What programs draw (issue 32 §3), in a real window in Chromium: bold text
 * in colours 0-7 is drawn in the bright colours 8-15, as xterm does by
 * default (the `bold-is-bright` setting turns it off); an overline (SGR 53)
 * stays inside its cell at any font size; DEC special graphics scan lines
 * are drawn by the stylesheet, each in its cell.
 */
import { assert, assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Page } from "playwright-core";

/** Write `text` as an editor does: a new file renamed over the old one. */
function writeSettings(path: string, text: string): void {
  Deno.writeTextFileSync(`${path}.tmp`, text);
  Deno.renameSync(`${path}.tmp`, path);
}

const PROGRAM = [
  "printf '\\033[1;31mBOLDRED\\033[m \\033[31mRED\\033[m \\033[91mBRIGHT\\033[m \\033[1;7;32mBOLDREV\\033[m \\033[92mGREEN\\033[m\\n'",
  "printf 'above\\n\\033[53;35mOVER\\033[m \\033[53;1;44mOVERBG\\033[m\\nbelow\\n'",
  // A long `tput smacs` line: scan lines 1, 3, 7, 9 and the middle line.
  `printf '\\033(0${"opqrs".repeat(14)}\\033(B\\n'`,
  // Combining marks that fallback fonts draw with an advance of their own.
  "printf 'a\\314\\241b\\342\\203\\235c\\342\\203\\243X\\n'",
  "exec sleep 600",
].join("; ");

/** Colours of the texts of the first row, and where the overlines are. */
function look(page: Page) {
  return page.evaluate(() => {
    const rows = Array.from(
      document.querySelectorAll<HTMLElement>("#terminal .dt-row"),
    );
    const el = (text: string): HTMLElement => {
      for (const r of rows) {
        const w = document.createTreeWalker(r, NodeFilter.SHOW_TEXT);
        for (let n = w.nextNode(); n; n = w.nextNode()) {
          if (n.textContent === text) return n.parentElement!;
        }
      }
      throw new Error(`no ${text}`);
    };
    const cs = (text: string) => getComputedStyle(el(text));
    const over = (text: string) => {
      const e = el(text);
      const row = e.closest(".dt-row")!.getBoundingClientRect();
      const box = e.getBoundingClientRect();
      const s = getComputedStyle(e);
      return {
        // The line is the top inset shadow of the span's box.
        top: box.top - row.top,
        bottom: row.bottom - box.bottom,
        shadow: s.boxShadow,
        decoration: s.textDecorationLine,
        rowHeight: row.height,
      };
    };
    const scans = Array.from(
      document.querySelectorAll<HTMLElement>("#terminal .dt-row .dt-scan"),
    ).map((e) => {
      const b = e.getBoundingClientRect();
      const row = e.closest(".dt-row")!.getBoundingClientRect();
      const s = getComputedStyle(e);
      return {
        w: b.width,
        h: b.height,
        rowH: row.height,
        image: s.backgroundImage,
        pos: s.backgroundPositionY,
      };
    });
    // Where the X after a̡b⃝c⃣ sits, in cells.
    const xRow = rows.find((r) => r.textContent!.startsWith("a\u0321"))!;
    const xNode = Array.from(xRow.querySelectorAll("*")).concat([xRow])
      .flatMap((e) => Array.from(e.childNodes))
      .find((n) => n.nodeType === 3 && n.textContent!.includes("X"))!;
    const range = document.createRange();
    const xi = xNode.textContent!.indexOf("X");
    range.setStart(xNode, xi);
    range.setEnd(xNode, xi + 1);
    const markX = range.getBoundingClientRect().left -
      xRow.getBoundingClientRect().left;
    return {
      markX,
      scans,
      cellW: rows[0].getBoundingClientRect().width /
        Number(getComputedStyle(rows[0]).getPropertyValue("--dt-cols")),
      boldRed: cs("BOLDRED").color,
      red: cs("RED").color,
      bright: cs("BRIGHT").color,
      boldRevBg: cs("BOLDREV").backgroundColor,
      // Colour 10 as a background (backgrounds are not adjusted for
      // contrast; text in colour 10 may be).
      green: (() => {
        const probe = document.createElement("span");
        probe.style.backgroundColor = "var(--dt-color-10)";
        document.getElementById("terminal")!.append(probe);
        const v = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return v;
      })(),
      over: [over("OVER"), over("OVERBG")],
    };
  });
}

Deno.test("e2e draw: bold colours 0-7 are drawn bright (bold-is-bright), overline inside its cell at any font size", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-draw-" });
  const settings = `${dir}/settings.toml`;
  writeSettings(settings, "");
  const run = await startDomterm(["bash", "--norc", "-c", PROGRAM], {
    env: { DOMTERM_SETTINGS: settings },
  });
  const { page } = run;
  try {
    await waitForRow(page, "a\u0321b\u20ddc\u20e3X");
    let r = await look(page);
    // Bold red is drawn as colour 9, as SGR 91 is; under inverse video the
    // bright colour is the background.
    assertEquals(r.boldRed, r.bright);
    assert(r.boldRed !== r.red, "bold red differs from red");
    assertEquals(r.boldRevBg, r.green);
    // The marks join their cells: X is in column 3.
    assert(Math.abs(r.markX / r.cellW - 3) < 0.05, `X at ${r.markX / r.cellW}`);
    // Each scan line is drawn by the stylesheet in its own cell, at its
    // height, whatever the fonts have. (Where the cells sit in the row is
    // another matter: the ─ between them is text, from whatever font has
    // it.)
    assertEquals(r.scans.length, 56);
    for (const [i, sc] of r.scans.entries()) {
      assert(Math.abs(sc.w - r.cellW) < 0.05, JSON.stringify(sc));
      assert(Math.abs(sc.h - sc.rowH) < 0.05, JSON.stringify(sc));
      assert(/gradient/.test(sc.image), sc.image);
      const k = i % 4;
      assertEquals(sc.pos, ["0px", "25%", "75%", "100%"][k]);
    }
    for (const o of r.over) {
      assert(o.top >= -0.01 && o.bottom >= -0.01, JSON.stringify(o));
      assert(/inset/.test(o.shadow), o.shadow);
      assert(!/overline/.test(o.decoration), o.decoration);
    }
    // A larger, odd font size: still inside.
    writeSettings(settings, "[font]\nsize = 23\n");
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLElement>("#terminal .dt-row")!
          .getBoundingClientRect().height > 24,
      undefined,
      { timeout: 10_000 },
    );
    r = await look(page);
    for (const o of r.over) {
      assert(o.rowHeight > 24, `row height ${o.rowHeight}`);
      assert(o.top >= -0.01 && o.bottom >= -0.01, JSON.stringify(o));
    }
    // The setting off: bold red is plain red.
    writeSettings(settings, "bold-is-bright = false\n");
    await page.waitForFunction(
      () =>
        document.querySelector("#terminal")!.classList.contains(
          "dt-bold-plain",
        ),
      undefined,
      { timeout: 10_000 },
    );
    r = await look(page);
    assertEquals(r.boldRed, r.red);
  } finally {
    await run.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
