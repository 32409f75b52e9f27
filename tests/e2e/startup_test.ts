/**
 * Start-up (issue 31 §7): a new window on a session the page knows
 * (`#session=N`: a second `domterm`, `domterm new`, `attach`) attaches to
 * it beside the window channel's round trip, not after the layout came
 * (client/window.ts, Connection.early): the terminal's socket is asked for
 * before the first layout is drawn, and the prompt comes on it.
 */
import { assert } from "../assert.ts";
import { openPage, startDomterm, waitForRow } from "./domterm.ts";

Deno.test("e2e startup: a new window on a known session opens its terminal socket before the layout comes", async () => {
  const t = await startDomterm(["bash", "--norc", "-i"], {
    env: { PS1: "$ " },
  });
  try {
    await waitForRow(t.page, "$", 20_000);
    const second = await openPage(t.browser, `${t.url}&session=1`);
    await waitForRow(second, "$", 20_000);
    const marks = await second.evaluate(() => {
      const at = (name: string) =>
        performance.getEntriesByName(name).map((e) => e.startTime);
      return {
        connect: at("domterm:connect"),
        layout: at("domterm:layout"),
        hello: at("domterm:hello"),
      };
    });
    // One connection (the early one, taken over by the pane), one layout.
    assert(
      marks.connect.length === 1 && marks.layout.length === 1,
      JSON.stringify(marks),
    );
    assert(
      marks.connect[0] < marks.layout[0],
      `the terminal's socket waited for the layout: ${JSON.stringify(marks)}`,
    );
    // The pane shows the session it took over: typing there reaches it.
    await second.click("#terminal");
    await second.keyboard.type("echo early-$((6*7))\n");
    await waitForRow(second, "early-42");
    await waitForRow(t.page, "early-42");
    // A page without a session asks the window for one: no early socket.
    const third = await openPage(t.browser, t.url);
    await waitForRow(third, "$", 20_000);
    const order = await third.evaluate(() =>
      ["domterm:connect", "domterm:layout"].map((n) =>
        performance.getEntriesByName(n)[0]?.startTime ?? NaN
      )
    );
    assert(order[1] <= order[0], `a new session's page: ${order}`);
  } finally {
    await t.close();
  }
});
