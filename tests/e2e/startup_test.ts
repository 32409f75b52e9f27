/**
 * Start-up (issue 31 §7): the page opens its first terminal's socket as it
 * starts, beside the window channel, not once the channel's layout came
 * (client/window.ts, Connection.early). On a session the page knows
 * (`#session=N`: a second `domterm`, `domterm new`, `attach`) its hello
 * goes at once too; on a new window's new session it waits for the layout
 * that names the session, and goes before the view is built. Either way
 * the first pane takes that connection over: one hello, and the session
 * works through it. These are orderings of the page's start-up marks
 * (client/startup_marks.ts), not timings.
 */
import { assert } from "../assert.ts";
import { openPage, startDomterm, waitForRow } from "./domterm.ts";
import type { Page } from "playwright-core";

/** The page's start-up marks: each name's times, ms from its start. */
function marks(page: Page): Promise<Record<string, number[]>> {
  return page.evaluate(() => {
    const out: Record<string, number[]> = {};
    for (const e of performance.getEntriesByType("mark")) {
      if (!e.name.startsWith("domterm:")) continue;
      (out[e.name.slice(8)] ??= []).push(e.startTime);
    }
    return out;
  });
}

Deno.test("e2e startup: the first terminal's socket opens before the layout comes, and its pane takes it over", async () => {
  const t = await startDomterm(["bash", "--norc", "-i"], {
    env: { PS1: "$ " },
  });
  try {
    // A new window, new session: the socket is asked for before the
    // layout; its hello waits for the layout (which names the session).
    await waitForRow(t.page, "$", 20_000);
    const first = await marks(t.page);
    const m = JSON.stringify(first);
    assert(first.connect?.length === 1 && first.layout?.length === 1, m);
    assert(first.connect[0] < first.layout[0], `connect after layout: ${m}`);
    assert(first.hello?.length === 1, `one hello, one connection: ${m}`);
    assert(first.layout[0] <= first.hello[0], `hello before layout: ${m}`);

    // A new window on the known session 1: the hello does not wait.
    const second = await openPage(t.browser, `${t.url}&session=1`);
    await waitForRow(second, "$", 20_000);
    const known = await marks(second);
    const k = JSON.stringify(known);
    assert(known.connect?.length === 1 && known.layout?.length === 1, k);
    assert(known.connect[0] < known.layout[0], `connect after layout: ${k}`);
    assert(known.hello?.length === 1, `one hello, one connection: ${k}`);
    // The pane shows the session it took over: typing there reaches it,
    // and the first window shows it too.
    await second.click("#terminal");
    await second.keyboard.type("echo early-$((6*7))\n");
    await waitForRow(second, "early-42");
    await waitForRow(t.page, "early-42");
  } finally {
    await t.close();
  }
});
