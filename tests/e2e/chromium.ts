/**
 * Finds and launches a Chromium for the browser tests: CHROME_PATH, then a
 * system Chromium/Chrome on PATH or in the usual places, else the one that
 * ships inside the npm package `@sparticuz/chromium`. Never downloads a
 * browser from anywhere else.
 *
 * @module
 */
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { which } from "../../server/browser.ts";

const CANDIDATES = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

let cached: string | undefined;

/** Path of a Chromium executable for tests; throws saying what is missing. */
export async function findChromium(): Promise<string> {
  if (cached) return cached;
  const env = Deno.env.get("CHROME_PATH");
  if (env) {
    if (!which(env.includes("/") ? env : `./${env}`)) {
      throw new Error(`CHROME_PATH=${env} is not an executable file`);
    }
    return cached = env;
  }
  for (const c of CANDIDATES) {
    const p = which(c);
    if (p) return cached = p;
  }
  try {
    const mod = await import("@sparticuz/chromium");
    return cached = await mod.default.executablePath();
  } catch (e) {
    throw new Error(
      "no Chromium found: install Debian's `chromium` package, set CHROME_PATH, " +
        `or make npm:@sparticuz/chromium available (${(e as Error).message})`,
    );
  }
}

/** Flags that keep Chromium quiet on a machine without network access. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** Launch a headless Chromium through playwright-core (`extraArgs` after ours). */
export async function launchChromium(
  extraArgs: string[] = [],
): Promise<Browser> {
  return await chromium.launch({
    executablePath: await findChromium(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * One headless Chromium for the tests of this test file, launched on first
 * use and reused by every test after it: a launch costs about a second of
 * both cores. Tests stay independent by opening their pages in a browser
 * context of their own and closing it when they end (`startDomterm` does).
 * It is closed after the file's last test (`deno test --parallel` runs the
 * files in one process, so it would otherwise live on to the end of the
 * run); if it dies or is closed, the next call launches another.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launched = launchChromium();
    const forget = () => {
      if (shared === launched) shared = undefined;
    };
    shared = launched;
    launched.then((b) => b.on("disconnected", forget), forget);
  }
  return shared;
}

/** The viewport of the shared context's pages unless a test sets its own. */
export const DEFAULT_VIEWPORT = { width: 800, height: 480 };

let sharedCtx:
  | { browser: Browser; context: Promise<BrowserContext> }
  | undefined;

/**
 * One browser context of the shared Chromium for the tests of this file
 * that need a page of their own and nothing else of a context
 * (`startDomterm`), with a blank page kept open in it while the file runs.
 * A new context for each test cost about 2 s of CPU more per test: in
 * tests/e2e/mouse_test.ts (10 tests, each a server, a page and a program),
 * 56.8 and 56.5 s of CPU against 33.8 and 33.7 s this way, run in turn
 * under load 12-17 (upper bounds). Without the blank page no saving was
 * measured (41.7 and 42.7 s against 40.9 and 54.5 s): the context is
 * likely torn down with its last page and built again. Each test still gets a page of its own, and what it
 * leaves in the context (its pages, popups among them, cookies,
 * permissions) is removed when it ends (`startDomterm`'s `close`); each
 * test's server listens on a port of its own, so storage (per origin) is
 * not shared either. Closed (by a test) or with its browser gone, the next
 * call makes another.
 */
export async function sharedContext(): Promise<BrowserContext> {
  const browser = await sharedChromium();
  if (sharedCtx?.browser !== browser) {
    const context = browser.newContext({ viewport: DEFAULT_VIEWPORT }).then(
      async (c) => {
        // Kept open while the file runs (see above).
        await (await c.newPage()).goto("about:blank");
        return c;
      },
    );
    const entry = { browser, context };
    sharedCtx = entry;
    const forget = () => {
      if (sharedCtx === entry) sharedCtx = undefined;
    };
    context.then((c) => c.on("close", forget), forget);
  }
  return await sharedCtx!.context;
}

/** Close the shared Chromium, if one was launched. */
export async function closeSharedChromium(): Promise<void> {
  const launched = shared;
  shared = undefined;
  sharedCtx = undefined;
  if (launched) await (await launched.catch(() => null))?.close();
}

// Under `deno test`, after the last test of the file that imported this.
// (`deno run` of a script that imports this has no test hooks.)
if (typeof Deno.test?.afterAll === "function") {
  Deno.test.afterAll(closeSharedChromium);
}
