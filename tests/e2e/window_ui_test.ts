/**
 * Notifications, progress, title and window name end to end (real
 * domterm, real bash with shell integration on a PTY, real Chromium):
 * OSC 9 / 777 / 99 notifications through the Notification API (recorded by
 * wrapping its constructor), only when the window is not focused, rate
 * limited, the permission asked once; the OSC 9 ; 4 progress bar and its
 * states; the title from OSC 2 and its fallback from the command and the
 * OSC 7 directory; OSC 30 as an attribute CSS selects on; the opt-in
 * notification when a long command ends.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { spawnServer, waitForRow } from "./domterm.ts";
import { sharedChromium } from "./chromium.ts";

interface Recorded {
  title: string;
  body: string;
  tag: string | null;
}

/**
 * Runs before the page's scripts: records every Notification made, lets the
 * test say whether the document has the focus (`__dtFocused`), and, with
 * `fakePermission`, replaces the permission flow by one the test controls
 * (`__dtPerm`, "granted" from the start with `granted`; `__dtAsked` counts
 * requestPermission calls).
 */
function recorder(fakePermission: boolean, granted = false): string {
  return `(() => {
    const g = globalThis;
    g.__dtNotes = [];
    g.__dtAsked = 0;
    g.__dtPerm = ${granted ? '"granted"' : '"default"'};
    const realFocus = Document.prototype.hasFocus;
    Document.prototype.hasFocus = function () {
      return g.__dtFocused ?? realFocus.call(this);
    };
    const Real = g.Notification;
    function Recording(title, options) {
      g.__dtNotes.push({ title, body: options?.body ?? "", tag: options?.tag ?? null });
      if (${fakePermission}) return { close() {}, onclick: null };
      return new Real(title, options);
    }
    Object.defineProperty(Recording, "permission", {
      get: () => ${fakePermission} ? g.__dtPerm : Real.permission,
    });
    Recording.requestPermission = ${fakePermission}
      ? () => { g.__dtAsked++; g.__dtPerm = "granted"; return Promise.resolve("granted"); }
      : () => Real.requestPermission();
    g.Notification = Recording;
  })();`;
}

let notificationPlatform: boolean | undefined;

/**
 * Whether this Chromium can show notifications at all. The headless shell
 * that `@sparticuz/chromium` ships has no notification platform: a granted
 * permission still reads `Notification.permission === "denied"` there (the
 * Permissions API says "granted"). On it the tests simulate the browser's
 * side of the permission (the `fakePermission` recorder) and still check
 * everything domterm does; with a full Chromium they use the real API.
 */
async function showsNotifications(
  browser: Browser,
  url: string,
): Promise<boolean> {
  if (notificationPlatform !== undefined) return notificationPlatform;
  const context = await browser.newContext();
  try {
    await context.grantPermissions(["notifications"], {
      origin: new URL(url).origin,
    });
    const page = await context.newPage();
    await page.goto(new URL("/favicon.ico", url).href).catch(() => {});
    const [permission, state] = await page.evaluate(async () => [
      Notification.permission,
      (await navigator.permissions.query({ name: "notifications" })).state,
    ]);
    notificationPlatform = permission === "granted";
    if (!notificationPlatform) {
      assertEquals(state, "granted", "the grant did not reach the browser");
      console.warn(
        `  (${browser.version()}: no notification platform (a headless shell); ` +
          "the browser's permission is simulated)",
      );
    }
    return notificationPlatform;
  } finally {
    await context.close();
  }
}

interface Page2 {
  page: Page;
  dir: string;
  close(): Promise<void>;
}

/** domterm running bash (integration on, prompt "$ ") in a fresh context. */
async function start(
  options: { grant: boolean; fakePermission: boolean },
): Promise<Page2> {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-window-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  const { child, url } = await spawnServer(["--", "bash"], {
    HOME: dir,
    INPUTRC: "/dev/null",
    LANG: "C.UTF-8",
  });
  let context: BrowserContext | null = null;
  try {
    const browser = await sharedChromium();
    context = await browser.newContext({
      viewport: { width: 800, height: 480 },
    });
    if (options.grant) {
      await context.grantPermissions(["notifications"], {
        origin: new URL(url).origin,
      });
    }
    const fake = options.fakePermission ||
      (options.grant && !await showsNotifications(browser, url));
    await context.addInitScript(recorder(fake, options.grant));
    const page = await context.newPage();
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(url);
    await page.waitForFunction(() => "domtermInspect" in globalThis);
    await waitForRow(page, "$");
    const c = context;
    return {
      page,
      dir,
      async close() {
        await c.close();
        child.kill("SIGTERM");
        await child.status;
        await Deno.remove(dir, { recursive: true });
      },
    };
  } catch (e) {
    await context?.close();
    child.kill("SIGTERM");
    await child.status;
    throw e;
  }
}

/** Type a command line and press Enter. */
async function run(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}

/** Run `line`, then wait for "marker" to be printed after it. */
async function runAndWait(page: Page, line: string, marker: string) {
  await run(page, `${line}; echo ${marker}`);
  await waitForRow(page, marker);
}

function notes(page: Page): Promise<Recorded[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { __dtNotes: Recorded[] }).__dtNotes
  );
}

function setFocused(page: Page, focused: boolean): Promise<void> {
  return page.evaluate((f) => {
    (globalThis as unknown as { __dtFocused: boolean }).__dtFocused = f;
  }, focused);
}

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
