/**
 * Extended-style ids in the page (core/emulator/ext_sweep.ts): the page's
 * emulator keeps a link table of its own. A second window attaches to a
 * session whose emulator swept its table (12,000 links through 2,000
 * lines of history): it loads the snapshot (its older history in slices,
 * client/snapshot_slices.ts), then 6,000 more links come, which it interns
 * into its own free ids and sweeps. Every link in its model (history and
 * screen) resolves to its own URL, and so in the first window. A real
 * server, PTY and Chromium.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

/** Print `n` lines, each a link `<p><i>` to `https://x/<p>/<i>`. */
function links(p: string, n: number): string {
  return `awk 'BEGIN { for (i = 0; i < ${n}; i++) printf "\\033]8;;https://x/${p}/%d\\033\\\\${p}%d\\033]8;;\\033\\\\\\n", i, i }'`;
}

const SCRIPT = `${links("f", 12_000)}; echo DONE; read x; ${
  links("g", 6_000)
}; echo END; sleep 600`;

/** What the page's model holds: links right, wrong, the newest of each kind, sweeps. */
function pageLinks(page: Page) {
  return page.evaluate(() => {
    const t = (globalThis as unknown as Inspected).domtermInspect.term;
    const buf = t.normalBuffer;
    let ok = 0;
    const wrong: string[] = [];
    const newest: Record<string, number> = { f: -1, g: -1 };
    for (let i = 0; i < buf.length; i++) {
      const line = buf.getLine(i);
      for (const m of line.toString().matchAll(/([fg])(\d+)/g)) {
        const got = t.ext(line.attr(m.index) >>> 16).link;
        if (got === `https://x/${m[1]}/${m[2]}`) {
          ok++;
          newest[m[1]] = Math.max(newest[m[1]], Number(m[2]));
        } else if (wrong.length < 5) wrong.push(`line ${i} ${m[0]}: ${got}`);
      }
    }
    return {
      ok,
      wrong,
      newest,
      lines: buf.length,
      sweeps: t.stats.extSweeps,
    };
  });
}

Deno.test("ext links: a window attached after the session swept its link table resolves every link, those printed later too", async () => {
  const t = await startDomterm(["/bin/sh", "-c", SCRIPT], {
    serverArgs: ["--scrollback", "2000"],
  });
  try {
    await waitForRow(t.page, "DONE", 60_000);
    const second = await t.browser.newPage({
      viewport: { width: 800, height: 480 },
    });
    second.on("pageerror", (e) => console.error("page error:", e.message));
    await second.goto(`${t.url}&session=1`);
    await second.waitForFunction(() =>
      "domtermInspect" in globalThis &&
      (globalThis as unknown as Inspected).domtermInspect.connected
    );
    await waitForRow(second, "DONE", 30_000);
    await second.keyboard.type("go\n");
    await waitForRow(second, "END", 60_000);
    await waitForRow(t.page, "END", 60_000);
    // The snapshot's older history came in slices: wait for all of it.
    await second.waitForFunction(
      () =>
        (globalThis as unknown as Inspected).domtermInspect.term.normalBuffer
          .length >= 2000,
      null,
      { timeout: 30_000 },
    );
    for (const [name, page] of [["second", second], ["first", t.page]]) {
      const r = await pageLinks(page as Page);
      assertEquals(r.wrong, [], `${name} window`);
      assertEquals(r.newest.g, 5999, `${name} window: the newest link`);
      assert(r.ok >= 1900, `${name} window: ${r.ok} links in ${r.lines} lines`);
      assert(r.sweeps > 0, `${name} window swept (${r.sweeps})`);
    }
  } finally {
    await t.close();
  }
});
