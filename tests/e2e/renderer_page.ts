/**
 * The renderer harness page for the renderer e2e tests
 * (renderer_test.ts, and renderer_frames_test.ts, which the suite runs
 * alone because it counts frames in a time): the harness under
 * fixtures/renderer/ bundled for the browser and served with
 * static/domterm.css, opened in a fresh context of the file's shared
 * Chromium.
 *
 * @module
 */
import { bundleForBrowser } from "./bundle.ts";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { assertEquals } from "../assert.ts";
import { DEFAULT_VIEWPORT, sharedChromium, sharedContext } from "./chromium.ts";
import type { Harness } from "./fixtures/renderer/harness.ts";

declare global {
  // The harness, in the page.
  var dt: Harness;
}

const ROOT = new URL("../../", import.meta.url);
const FIXTURES = new URL("./fixtures/renderer/", import.meta.url);

/** Bundle the harness for the browser, once per run. */
function bundle(): Promise<string> {
  return bundleForBrowser(new URL("harness.ts", FIXTURES));
}

/** What a test gets: the harness page and the shared browser it is in. */
export interface Ctx {
  page: Page;
  browser: Browser;
}

/** Serve the harness page, open it in a fresh context of the shared Chromium, run `fn`, close everything. */
export async function withPage(
  fn: (c: Ctx) => Promise<void>,
  viewport = { width: 800, height: 480 },
  deviceScaleFactor = 1,
  /** A context of its own even at scale 1 (the frame timing test). */
  ownContext = false,
): Promise<void> {
  const js = await bundle();
  const html = await Deno.readTextFile(new URL("index.html", FIXTURES));
  const css = await Deno.readTextFile(new URL("static/domterm.css", ROOT));
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/") {
        return new Response(html, {
          headers: { "content-type": "text/html" },
        });
      }
      if (path === "/domterm.css") {
        return new Response(css, { headers: { "content-type": "text/css" } });
      }
      if (path === "/harness.js") {
        return new Response(js, {
          headers: { "content-type": "text/javascript" },
        });
      }
      return new Response("not found", { status: 404 });
    },
  );
  // At scale 1 the page is opened in the file's shared context (as
  // startDomterm does: a context per test costs about 2 s of CPU more),
  // else in a context of its own; what the test opened is closed after it.
  let context: BrowserContext | null = null;
  let own = false;
  let before = new Set<Page>();
  try {
    const browser = await sharedChromium();
    if (deviceScaleFactor === 1 && !ownContext) {
      context = await sharedContext();
      before = new Set(context.pages());
    } else {
      own = true;
      context = await browser.newContext({ viewport, deviceScaleFactor });
    }
    const page = await context.newPage();
    if (
      !own && (viewport.width !== DEFAULT_VIEWPORT.width ||
        viewport.height !== DEFAULT_VIEWPORT.height)
    ) {
      await page.setViewportSize(viewport);
    }
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.addr.port}/`);
    await page.waitForFunction(() => "dt" in globalThis);
    await fn({ page, browser });
    assertEquals(errors, [], "no errors in the page");
  } finally {
    if (own) await context?.close();
    else if (context) {
      await Promise.all(
        context.pages().filter((p) => !before.has(p)).map((p) =>
          p.close().catch(() => {})
        ),
      );
      await context.clearPermissions().catch(() => {});
    }
    await server.shutdown();
  }
}
