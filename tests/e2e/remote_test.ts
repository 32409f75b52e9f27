/**
 * The remote listener in a real Chromium: `domterm --listen 0.0.0.0:0`
 * with a throw-away TLS certificate (the browser context accepts it) and a
 * password. The login page takes the password, the window's shell echoes
 * what is typed; a read-only share shows the session live with a
 * "read-only" badge, and what is typed in it never reaches the shell.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { launchChromium } from "./chromium.ts";
import { waitForRow } from "./domterm.ts";
import {
  domterm,
  PASSWORD,
  type RemoteServer,
  startRemote,
} from "../server/remote/fixture.ts";
import type { Inspected } from "../../client/inspect.ts";

async function connected(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    "domtermInspect" in globalThis &&
    (globalThis as unknown as Inspected)
      .domtermInspect.connected
  );
}

/** The labels of the window's menu (opened with the menu button, then closed). */
async function menuLabels(page: Page): Promise<string[]> {
  await page.click(".dt-menu-button");
  await page.waitForSelector('.dt-menu[role="menu"]');
  const labels = await page.evaluate(() =>
    [...document.querySelectorAll(".dt-menu .dt-menu-label")].map((el) =>
      el.textContent ?? ""
    )
  );
  await page.keyboard.press("Escape");
  return labels;
}

async function newPage(browser: Browser): Promise<Page> {
  // A context per viewer: its own cookies; the test certificate accepted.
  const ctx = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 800, height: 480 },
  });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  return page;
}

Deno.test({
  name:
    "e2e remote: log in over HTTPS, type into the shell; a read-only share cannot type",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    let s: RemoteServer | null = null;
    let browser: Browser | null = null;
    try {
      s = await startRemote(["bash", "--norc", "--noprofile"]);
      browser = await launchChromium();
      const owner = await newPage(browser);

      // Not logged in: the login page, in the terminal's look.
      await owner.goto(`${s.origin}/`);
      assertEquals(new URL(owner.url()).pathname, "/login");
      // Both themes: the terminal's background, dark or light.
      const background = () =>
        owner.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await owner.emulateMedia({ colorScheme: "dark" });
      const dark = await background();
      await owner.emulateMedia({ colorScheme: "light" });
      const light = await background();
      assertEquals([dark, light], ["rgb(28, 31, 38)", "rgb(251, 251, 250)"]);
      await owner.fill("#password", "not the password");
      await owner.click("button[type=submit]");
      await owner.waitForSelector(".error");
      assertEquals(
        (await owner.textContent(".error"))?.trim(),
        "Wrong password.",
      );
      await owner.fill("#password", PASSWORD);
      await Promise.all([
        owner.waitForURL((u) => u.pathname === "/"),
        owner.click("button[type=submit]"),
      ]);
      await connected(owner);
      await owner.click("#terminal");
      await owner.keyboard.type("echo logged-in-$((40+2))");
      await owner.keyboard.press("Enter");
      await waitForRow(owner, "logged-in-42", 20_000);
      assert(
        (await menuLabels(owner)).includes("Log out\u2026"),
        "a window let in by the login offers to log out",
      );

      // A read-only share of session 1, in a browser with no login.
      const shared = await domterm(s, ["share", "1", "--read-only"]);
      assertEquals(shared.code, 0, shared.stderr);
      const url = new URL(shared.stdout.trim());
      const viewer = await newPage(browser);
      await viewer.goto(
        `${s.origin}${url.pathname}${url.hash}`,
      );
      await connected(viewer);
      await viewer.waitForSelector("#dt-read-only");
      assertEquals(
        (await viewer.textContent("#dt-read-only"))?.trim(),
        "read-only",
      );
      await waitForRow(viewer, "logged-in-42");
      const labels = await menuLabels(viewer);
      assert(!labels.includes("Log out\u2026"), "a share has no login to end");
      // It only watches: nothing that would change the session is offered.
      for (
        const l of [
          "Paste",
          "Clear scrollback",
          "Settings\u2026",
          "Detach",
          "Close",
          "New window",
        ]
      ) {
        assert(!labels.includes(l), `a read-only window offers ${l}`);
      }
      assert(labels.includes("Copy"), labels.join(", "));

      await viewer.click("#terminal");
      await viewer.keyboard.type("echo viewer-typed-$((1+1))");
      await viewer.keyboard.press("Enter");
      // The owner types after it: when this shows, the viewer's keys would
      // have come first had they reached the shell.
      await owner.keyboard.type("echo owner-$((3+4))");
      await owner.keyboard.press("Enter");
      await waitForRow(owner, "owner-7", 20_000);
      await waitForRow(viewer, "owner-7", 20_000);
      const rows = await owner.evaluate(() =>
        Array.from(document.querySelectorAll("#terminal .dt-row")).map((r) =>
          r.textContent ?? ""
        ).join("\n")
      );
      assert(
        !rows.includes("viewer-typed"),
        `the shell got the viewer's keys:\n${rows}`,
      );
      assert(!rows.includes("viewer-typed-2"));
    } finally {
      await browser?.close();
      await s?.stop();
    }
  },
});
