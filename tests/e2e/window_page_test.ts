/**
 * The window's notification permission, title, name and progress bar end
 * to end (real domterm, real bash with shell integration on a PTY, real
 * Chromium): the permission asked once, on the first notification; the
 * title from OSC 2 and its fallback from the command and the OSC 7
 * directory; OSC 30 as an attribute CSS selects on; the OSC 9 ; 4 progress
 * bar and its states. The notification tests that wait on the clock are in
 * window_ui_test.ts (run alone).
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { notes, runAndWait, setFocused, start } from "./window_ui_helpers.ts";

Deno.test("e2e window: the permission is asked once, on the first notification", async () => {
  const t = await start({ grant: false, fakePermission: true });
  try {
    const { page } = t;
    await setFocused(page, false);
    const asked = () =>
      page.evaluate(() =>
        (globalThis as unknown as { __dtAsked: number }).__dtAsked
      );
    assertEquals(await asked(), 0); // not at start
    await runAndWait(page, "printf '\\e]9;first\\a'", "p1");
    await page.waitForFunction(() =>
      (globalThis as unknown as { __dtNotes: unknown[] }).__dtNotes.length ===
        1
    );
    assertEquals(await asked(), 1);
    await runAndWait(page, "printf '\\e]9;second\\a'", "p2");
    assertEquals((await notes(page)).map((n) => n.body), ["first", "second"]);
    assertEquals(await asked(), 1);
    // The user dismissed the prompt (still "default"): never asked again,
    // also after a reload (remembered).
    await page.evaluate(() => {
      (globalThis as unknown as { __dtPerm: string }).__dtPerm = "default";
    });
    await runAndWait(page, "printf '\\e]9;third\\a'", "p3");
    assertEquals(await asked(), 1);
    assertEquals((await notes(page)).length, 2);
  } finally {
    await t.close();
  }
});

/** The progress element's state, width (% of the terminal) and the title. */
function progressState(page: Page) {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLElement>(".dt-progress")!;
    const fill = el.querySelector<HTMLElement>(".dt-progress-fill")!;
    const r = el.getBoundingClientRect();
    return {
      shown: !el.hidden && getComputedStyle(el).display !== "none",
      state: el.dataset.state ?? "",
      percent: Math.round(
        (fill.getBoundingClientRect().width / r.width) * 100,
      ),
      height: r.height,
      top: r.top,
      animated: getComputedStyle(fill).animationName,
      color: getComputedStyle(fill).backgroundColor,
      title: document.title,
    };
  });
}

Deno.test("e2e window: title (OSC 2, command and OSC 7 directory), OSC 30 name, progress bar and its states", async () => {
  const t = await start({ grant: true, fakePermission: false });
  try {
    const { page, dir } = t;
    // No program title: "command — directory" from the shell's OSC 7.
    await runAndWait(page, `cd ${dir}`, "c1");
    await page.waitForFunction(
      (d) => document.title === `bash \u2014 ${d}`,
      dir,
    );
    await runAndWait(page, "printf '\\e]2;my title\\a'", "c2");
    await page.waitForFunction(() => document.title === "my title");

    // OSC 30: an attribute stylesheets select on.
    await runAndWait(page, "printf '\\e]30;build box\\a'", "c3");
    await page.addStyleTag({
      content:
        '#terminal[window-name="build box"] { outline: 3px solid rgb(1, 2, 3); }',
    });
    assertEquals(
      await page.evaluate(() =>
        getComputedStyle(document.getElementById("terminal")!).outlineColor
      ),
      "rgb(1, 2, 3)",
    );

    // Progress: 40%, a slim bar at the top, percentage in the title.
    await runAndWait(page, "printf '\\e]9;4;1;40\\a'", "c4");
    await page.waitForFunction(() =>
      (document.querySelector(".dt-progress-fill") as HTMLElement)
        .getBoundingClientRect().width > 0
    );
    await page.waitForTimeout(300); // the width transition
    let s = await progressState(page);
    assertEquals(s.shown, true);
    assertEquals(s.state, "normal");
    assertEquals(s.percent, 40);
    assert(s.height <= 3 && s.height >= 2, `height ${s.height}`);
    assertEquals(s.title, "[40%] my title");
    const normalColor = s.color;

    // A reload (a new window on the session) shows the same progress,
    // name and title: they are part of the session's state.
    await page.reload();
    await page.waitForFunction(() => "domtermInspect" in globalThis);
    await page.waitForFunction(() => document.title === "[40%] my title");
    await page.waitForTimeout(300);
    s = await progressState(page);
    assertEquals([s.shown, s.state, s.percent], [true, "normal", 40]);
    assertEquals(
      await page.evaluate(() =>
        document.getElementById("terminal")!.getAttribute("window-name")
      ),
      "build box",
    );
    await page.click("#terminal");

    await runAndWait(page, "printf '\\e]9;4;2;70\\a'", "c5");
    await page.waitForTimeout(300);
    s = await progressState(page);
    assertEquals([s.state, s.percent, s.title], [
      "error",
      70,
      "[70% error] my title",
    ]);
    assert(s.color !== normalColor, "error has its own colour");

    await runAndWait(page, "printf '\\e]9;4;4;70\\a'", "c6");
    s = await progressState(page);
    assertEquals([s.state, s.title], ["paused", "[70% paused] my title"]);

    await runAndWait(page, "printf '\\e]9;4;3\\a'", "c7");
    s = await progressState(page);
    assertEquals([s.state, s.animated, s.title], [
      "indeterminate",
      "dt-progress-slide",
      "[\u2026] my title",
    ]);

    await runAndWait(page, "printf '\\e]9;4;0\\a'", "c8");
    s = await progressState(page);
    assertEquals([s.shown, s.title], [false, "my title"]);
  } finally {
    await t.close();
  }
});
