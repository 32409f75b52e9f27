/**
 * Starts the real `domterm --no-browser` (main.ts) as a subprocess for
 * end-to-end tests and opens its URL in headless Chromium.
 *
 * @module
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DEFAULT_VIEWPORT, sharedChromium, sharedContext } from "./chromium.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";
import type { Inspected } from "../../client/inspect.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** A running domterm with a page connected to it. */
export interface Running {
  url: string;
  page: Page;
  /**
   * The test file's shared Chromium (`sharedChromium`): what the test
   * opens on it is closed by `close()`.
   */
  browser: Browser;
  child: Deno.ChildProcess;
  /** Stop everything: close what the test opened in the browser, stop the server. */
  close(): Promise<void>;
}

/**
 * Start `domterm --no-browser ARGS` (ARGS: its options, then `--` and the
 * command) and return the URL with the key that it prints first. Its
 * stdout keeps being drained so that the server never blocks on it.
 * `main` is the program to run (default: this checkout's main.ts), `cwd`
 * the directory to run it in (default: this process's), `denoFlags` more
 * flags for `deno run` (e.g. `--inspect`).
 */
export async function spawnServer(
  args: string[],
  env?: Record<string, string>,
  main = MAIN,
  cwd?: string,
  denoFlags: string[] = [],
): Promise<{ child: Deno.ChildProcess; url: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...denoFlags, main, "--no-browser", ...args],
    cwd,
    env: privateRuntimeEnv(env),
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) {
      throw new Error(`domterm exited before printing its URL: ${text}`);
    }
    text += value;
  }
  (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* closed */ }
  })();
  return { child, url: text.split("\n")[0] };
}

/** Open `url` in a new page of `browser` and wait until its window is connected. */
export async function openPage(
  browser: Browser,
  url: string,
  size = { width: 800, height: 480 },
): Promise<Page> {
  const page = await browser.newPage({ viewport: size });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(url);
  await page.waitForFunction(() =>
    "domtermInspect" in globalThis &&
    (globalThis as unknown as Inspected)
      .domtermInspect.connected
  );
  return page;
}

/** Start domterm running `command` and open it in a fresh page. */
export async function startDomterm(
  command: string[],
  options: {
    env?: Record<string, string>;
    viewport?: { width: number; height: number };
    /** Options for domterm itself, before `--` (e.g. `--scrollback 100`). */
    serverArgs?: string[];
    /** The program to run (default: this checkout's main.ts). */
    main?: string;
    /** The directory to run it in (default: this process's). */
    cwd?: string;
  } = {},
): Promise<Running> {
  // The server starts while the browser does (once per test file: shared).
  const started = spawnServer(
    [...(options.serverArgs ?? []), "--", ...command],
    options.env,
    options.main,
    options.cwd,
  );
  started.catch(() => {}); // awaited below; not unhandled meanwhile
  const browser = await sharedChromium().catch(async (e) => {
    const { child } = await started;
    child.kill("SIGTERM");
    await child.status;
    throw e;
  });
  const { child, url } = await started;
  // Everything this test opens on the shared browser (pages in the shared
  // context, popups among them, and any context of its own, e.g. by
  // `browser.newPage`) is closed by close(), and what it granted or set in
  // the shared context is cleared.
  const before = new Set(browser.contexts());
  let context: BrowserContext | null = null;
  let beforePages = new Set<Page>();
  const closeOpened = async () => {
    const own = context;
    await Promise.all([
      ...browser.contexts().filter((c) => !before.has(c) && c !== own).map((
        c,
      ) => c.close().catch(() => {})),
      ...(own?.pages() ?? []).filter((p) => !beforePages.has(p)).map((p) =>
        p.close().catch(() => {})
      ),
    ]);
    await own?.clearCookies().catch(() => {});
    await own?.clearPermissions().catch(() => {});
  };
  try {
    context = await sharedContext();
    beforePages = new Set(context.pages());
    const page = await context.newPage();
    const size = options.viewport ?? DEFAULT_VIEWPORT;
    if (
      size.width !== DEFAULT_VIEWPORT.width ||
      size.height !== DEFAULT_VIEWPORT.height
    ) {
      await page.setViewportSize(size);
    }
    page.on("pageerror", (e) => console.error("page error:", e.message));
    // Like the real launcher file: replace the initial entry, so the window
    // has one history entry and may close itself when the program exits.
    await page.evaluate((u) => location.replace(u), url);
    await page.waitForURL((u) => u.protocol === "http:");
    await page.waitForFunction(() => "domtermInspect" in globalThis);
    return {
      url,
      page,
      browser,
      child,
      async close() {
        await closeOpened();
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        await child.status;
      },
    };
  } catch (e) {
    await closeOpened();
    child.kill("SIGTERM");
    await child.status;
    throw e;
  }
}

/** The text of every rendered row of the normal buffer, trailing blanks trimmed. */
export function rowTexts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("#terminal .dt-row")).map((r) =>
      (r.textContent ?? "").replace(/\s+$/, "")
    )
  );
}

/** Wait until some rendered row's text equals `line` exactly. */
export async function waitForRow(
  page: Page,
  line: string,
  timeout = 10_000,
): Promise<void> {
  try {
    await page.waitForFunction(
      (want) =>
        Array.from(document.querySelectorAll("#terminal .dt-row")).some((r) =>
          (r.textContent ?? "").replace(/\s+$/, "") === want
        ),
      line,
      { timeout },
    );
  } catch {
    // The last rows with text: below a cleared screen's output the rows
    // are blank, and the last 15 of them would say nothing.
    const rows = await rowTexts(page);
    while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
    throw new Error(
      `no row ${JSON.stringify(line)}; rows: ${
        JSON.stringify(rows.slice(-15))
      }`,
    );
  }
}
