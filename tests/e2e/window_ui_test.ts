/**
 * Notifications, progress, title and window name end to end (real
 * domterm, real bash with shell integration on a PTY, real Chromium):
 * OSC 9 / 777 / 99 notifications through the Notification API (recorded by
 * wrapping its constructor), only when the window is not focused, rate
 * limited, the permission asked once; the OSC 9 ; 4 progress bar and its
 * states; the title from OSC 2 and its fallback from the command and the
 * OSC 7 directory; OSC 30 as an attribute CSS selects on; the opt-in
 * notification when a long command ends. These two wait on the clock (a
 * rate limit's interval, a command's length), so the suite runs this file
 * alone; the permission, title, name and progress tests are in
 * window_page_test.ts.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { waitForRow } from "./domterm.ts";
import {
  notes,
  run,
  runAndWait,
  setFocused,
  start,
} from "./window_ui_helpers.ts";

Deno.test("e2e window: OSC 9, 777 and 99 notify when not focused, as plain text, rate limited", async () => {
  const t = await start({ grant: true, fakePermission: false });
  try {
    const { page } = t;
    assertEquals(
      await page.evaluate(() => Notification.permission),
      "granted",
    );
    // Focused: the user sees the terminal; nothing pops up.
    await setFocused(page, true);
    await runAndWait(page, "printf '\\e]777;notify;Seen;here\\a'", "f1");
    assertEquals(await notes(page), []);

    await setFocused(page, false);
    await runAndWait(
      page,
      "printf '\\e]777;notify;Build;done <b>not bold</b>\\a'",
      "n1",
    );
    await runAndWait(page, "printf '\\e]9;hello from nine\\a'", "n2");
    await runAndWait(
      page,
      "printf '\\e]99;i=7:d=0;Kitty title\\e\\\\'; " +
        "printf '\\e]99;i=7:p=body;kitty body\\e\\\\'",
      "n3",
    );
    const got = await notes(page);
    assertEquals(got.length, 3, JSON.stringify(got));
    assertEquals(got[0], {
      title: "Build",
      body: "done <b>not bold</b>",
      tag: null,
    });
    // OSC 9 has no title: the window's ("command — directory").
    assertEquals(got[1].body, "hello from nine");
    assertMatch(got[1].title, /^bash \u2014 \//);
    assertEquals(got[2], {
      title: "Kitty title",
      body: "kitty body",
      tag: "osc99-7",
    });
    // The burst (3) is spent: more within the interval are dropped.
    await runAndWait(
      page,
      "printf '\\e]777;notify;Too;many\\a\\e]9;again\\a'",
      "n4",
    );
    assertEquals((await notes(page)).length, 3);
    assertEquals(
      await page.evaluate(() =>
        // deno-lint-ignore no-explicit-any
        (globalThis as any).domtermInspect.notifications().dropped
      ),
      2,
    );
    // A long title and body are cut.
    await page.waitForTimeout(5200); // one more after the interval
    await runAndWait(
      page,
      `printf '\\e]777;notify;%s;%s\\a' "$(printf 'T%.0s' {1..300})" "$(printf 'B%.0s' {1..900})"`,
      "n5",
    );
    const last = (await notes(page))[3];
    assertEquals(last.title.length, 120);
    assertEquals(last.body.length, 400);
    assert(last.title.endsWith("\u2026"));
  } finally {
    await t.close();
  }
});

Deno.test("e2e window: a long command that ends unfocused notifies, only when turned on", async () => {
  const t = await start({ grant: true, fakePermission: false });
  try {
    const { page } = t;
    await setFocused(page, false);
    // Off by default.
    assertEquals(
      await page.evaluate(() =>
        // deno-lint-ignore no-explicit-any
        (globalThis as any).domtermInspect.notifications().longCommands
      ),
      { on: false, thresholdSeconds: 10 },
    );
    await runAndWait(page, "sleep 1.3", "l1");
    assertEquals(await notes(page), []);

    await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.setNotifyLongCommands(true, 1)
    );
    await run(page, "echo short");
    await waitForRow(page, "short");
    await run(page, "sleep 1.3; false");
    await page.waitForFunction(() =>
      (globalThis as unknown as { __dtNotes: unknown[] }).__dtNotes.length > 0
    );
    const got = await notes(page);
    assertEquals(got.length, 1, JSON.stringify(got));
    assertMatch(got[0].title, /^Command failed \(exit 1\) after \d+ s$/);
    assertMatch(got[0].body, /^bash \u2014 /);

    // Focused: no notification.
    await setFocused(page, true);
    await runAndWait(page, "sleep 1.3", "l2");
    await page.waitForTimeout(300);
    assertEquals((await notes(page)).length, 1);
  } finally {
    await t.close();
  }
});
