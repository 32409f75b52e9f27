/**
 * What the window e2e tests share (window_ui_test.ts, which the suite runs
 * alone, and window_page_test.ts): domterm running bash with shell
 * integration in a fresh context of the file's shared Chromium, with every
 * Notification recorded and the focus and permission under the test's
 * control.
 *
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../assert.ts";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { spawnServer, waitForRow } from "./domterm.ts";
import { sharedChromium } from "./chromium.ts";

/** A notification the page made, as the recorder saw it. */
export interface Recorded {
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
export function recorder(fakePermission: boolean, granted = false): string {
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

/** A page of domterm running bash, and how to close both. */
export interface Page2 {
  page: Page;
  dir: string;
  close(): Promise<void>;
}

/** domterm running bash (integration on, prompt "$ ") in a fresh context. */
export async function start(
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
export async function run(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}

/** Run `line`, then wait for "marker" to be printed after it. */
export async function runAndWait(page: Page, line: string, marker: string) {
  await run(page, `${line}; echo ${marker}`);
  await waitForRow(page, marker);
}

/** The notifications recorded so far. */
export function notes(page: Page): Promise<Recorded[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { __dtNotes: Recorded[] }).__dtNotes
  );
}

/** Make the document say it has the focus, or not. */
export function setFocused(page: Page, focused: boolean): Promise<void> {
  return page.evaluate((f) => {
    (globalThis as unknown as { __dtFocused: boolean }).__dtFocused = f;
  }, focused);
}
