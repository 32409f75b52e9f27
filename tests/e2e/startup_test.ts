/**
 * Start-up (issue 31 §7): the page opens its first terminal's socket as it
 * starts, beside the window channel, not once the channel's layout came
 * (client/window.ts, Connection.early); its hello waits for the view,
 * which takes that connection over, on a new session as on one the page
 * knows (`#session=N`: a second `domterm`, `domterm new`, `attach`): one
 * hello, with the view's size, and the session works through it. These
 * are orderings of the page's start-up marks (client/startup_marks.ts),
 * not timings.
 *
 * And the server's own Chromium starts before the server is ready
 * (server/cli/open_window.ts, startEarlyWindow): its launcher waits for
 * the URL, then goes on to the page.
 *
 * And a second `domterm` has a page already open open its window
 * (`open-in-page`, server/windows/control.ts): no new browser process;
 * a browser that blocks the window gets the launcher as before.
 */
import { assert } from "../assert.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";
import { sharedChromium } from "./chromium.ts";
import { openPage, startDomterm, waitForRow } from "./domterm.ts";
import type { Page } from "playwright-core";
import type { Inspected } from "../../client/inspect.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

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
    // layout; its hello waits for the view (the layout names the session).
    await waitForRow(t.page, "$", 20_000);
    const first = await marks(t.page);
    const m = JSON.stringify(first);
    assert(first.connect?.length === 1 && first.layout?.length === 1, m);
    assert(first.connect[0] < first.layout[0], `connect after layout: ${m}`);
    assert(first.hello?.length === 1, `one hello, one connection: ${m}`);
    assert(first.layout[0] <= first.hello[0], `hello before layout: ${m}`);

    // A new window on the known session 1: the same.
    const second = await openPage(t.browser, `${t.url}&session=1`);
    await waitForRow(second, "$", 20_000);
    const known = await marks(second);
    const k = JSON.stringify(known);
    assert(known.connect?.length === 1 && known.layout?.length === 1, k);
    assert(known.connect[0] < known.layout[0], `connect after layout: ${k}`);
    assert(known.hello?.length === 1, `one hello, one connection: ${k}`);
    assert(known.layout[0] <= known.hello[0], `hello before layout: ${k}`);
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

Deno.test("e2e startup: the server's Chromium starts before the server is ready, on a launcher that waits for the URL, and reaches the prompt", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-early-" });
  // A "Chromium" (found as CHROME_PATH, as domterm finds its own) that
  // notes its launcher, and whether the launcher had a URL when called.
  const fake = `${dir}/chromium.sh`;
  await Deno.writeTextFile(
    fake,
    "#!/bin/sh\n" +
      'for a; do case "$a" in --app=file://*) f="${a#--app=file://}";; esac; done\n' +
      `if grep -q 'launch=' "$f"; then w=url; else w=waits; fi\n` +
      `echo "$w $f" > ${dir}/called.tmp && mv ${dir}/called.tmp ${dir}/called\n`,
    { mode: 0o755 },
  );
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--", "bash", "--norc", "-i"],
    env: privateRuntimeEnv({
      PS1: "$ ",
      CHROME_PATH: fake,
      XDG_CONFIG_HOME: `${dir}/config`,
    }),
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    let called = "";
    for (let i = 0; i < 3000 && !called; i++) {
      called = await Deno.readTextFile(`${dir}/called`).catch(() => "");
      if (!called) await new Promise((r) => setTimeout(r, 10));
    }
    const [when, launcher] = called.trim().split(" ");
    // Called before the server had a URL: its launcher waits for it.
    assert(when === "waits", `the browser was called with ${called}`);
    const browser = await sharedChromium();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`file://${launcher}`);
      await page.waitForURL((u) => u.protocol === "http:", {
        timeout: 30_000,
      });
      await waitForRow(page, "$", 30_000);
      // The script with the URL (a one-time token) goes once the window
      // connected.
      const js = launcher.replace(/\.html$/, ".js");
      let gone = false;
      for (let i = 0; i < 500 && !gone; i++) {
        gone = !(await Deno.stat(js).then(() => true, () => false));
        if (!gone) await new Promise((r) => setTimeout(r, 20));
      }
      assert(
        gone,
        "the launcher's script is removed once the window connected",
      );
    } finally {
      await context.close();
    }
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Runs a second `domterm` against the server of `runtime`, with a
 * "Chromium" (CHROME_PATH, as domterm finds its own) that only notes
 * that it was called. Whether it was called, and the exit status.
 */
async function secondDomterm(
  runtime: string,
  dir: string,
  waitMs: number,
): Promise<{ called: boolean; code: number }> {
  const fake = `${dir}/chromium.sh`;
  await Deno.writeTextFile(fake, `#!/bin/sh\ntouch ${dir}/called\n`, {
    mode: 0o755,
  });
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--", "bash", "--norc", "-i"],
    env: privateRuntimeEnv({
      PS1: "$ ",
      DOMTERM_RUNTIME_DIR: runtime,
      CHROME_PATH: fake,
      XDG_CONFIG_HOME: `${dir}/config`,
      DOMTERM_WINDOW_WAIT_MS: String(waitMs),
    }),
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).output();
  const called = await Deno.stat(`${dir}/called`).then(() => true, () => false);
  await Deno.remove(`${dir}/called`).catch(() => {});
  return { called, code };
}

Deno.test("e2e startup: a second domterm has the page already open open its window, with no new browser process; a blocked window falls back to the browser", async () => {
  const runtime = await Deno.makeTempDir({ prefix: "domterm-test-run-" });
  const dir = await Deno.makeTempDir({ prefix: "domterm-second-" });
  const t = await startDomterm(["bash", "--norc", "-i"], {
    env: { PS1: "$ ", DOMTERM_RUNTIME_DIR: runtime },
  });
  try {
    await waitForRow(t.page, "$", 20_000);
    const popup = t.page.waitForEvent("popup", { timeout: 30_000 });
    const second = await secondDomterm(runtime, dir, 30_000);
    assert(!second.called, "the second domterm started a browser");
    assert(second.code === 0, `exit status ${second.code}`);
    // The window the page opened shows the new session, which works.
    const page = await popup;
    await waitForRow(page, "$", 20_000);
    await page.click("#terminal");
    await page.keyboard.type("echo popup-$((6*7))\n");
    await waitForRow(page, "popup-42");
    const session = await page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.position().session
    );
    assert(session === 2, `the new window shows session ${session}`);

    // A browser that blocks the window (window.open gives null): the
    // command starts the browser itself, as before (both pages are asked).
    for (const p of [t.page, page]) {
      await p.evaluate(() => {
        globalThis.open = () => null;
      });
    }
    const blocked = await secondDomterm(runtime, dir, 1000);
    assert(blocked.called, "no browser was started for a blocked window");
    assert(blocked.code === 0, `exit status ${blocked.code}`);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
