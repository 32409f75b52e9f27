/**
 * The server key stays out of the app window's Chromium profile: a real
 * Chromium (with a display: Xvfb, since headless Chromium writes no
 * History and no ukm_db) opened by the real launcher code path
 * (server/browser.ts openBrowser) on a temporary profile, connected to a
 * real server, closed; then no file of the profile holds the key (as
 * ASCII or UTF-16). Before launch tokens, `segmentation_platform/ukm_db`
 * (and `Default/History`, once flushed) held `#key=K`.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { chooseBrowser, openBrowser } from "../../server/browser.ts";
import { ASSETS } from "../../static/gen/assets.ts";
import type { Inspected } from "../../client/inspect.ts";

const CHROMIUM = "/usr/bin/chromium";

/** Start Xvfb on a free display; its number and process. */
async function startXvfb(): Promise<
  { display: string; child: Deno.ChildProcess }
> {
  const child = new Deno.Command("Xvfb", {
    args: [
      "-displayfd",
      "1",
      "-screen",
      "0",
      "1280x800x24",
      "-nolisten",
      "tcp",
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("Xvfb exited before naming its display");
    text += value;
  }
  await reader.cancel();
  return { display: `:${text.trim()}`, child };
}

/** Every file under `dir` whose bytes contain `needle` as ASCII or UTF-16LE. */
async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const ascii = new TextEncoder().encode(needle);
  const utf16 = new Uint8Array(needle.length * 2);
  for (let i = 0; i < needle.length; i++) utf16[2 * i] = needle.charCodeAt(i);
  const found: string[] = [];
  const has = (hay: Uint8Array, n: Uint8Array) => {
    outer: for (let i = 0; i + n.length <= hay.length; i++) {
      if (hay[i] !== n[0]) continue;
      for (let j = 1; j < n.length; j++) {
        if (hay[i + j] !== n[j]) continue outer;
      }
      return true;
    }
    return false;
  };
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.isFile) {
        const bytes = await Deno.readFile(p).catch(() => new Uint8Array());
        if (has(bytes, ascii) || has(bytes, utf16)) found.push(p);
      }
    }
  };
  await walk(dir);
  return found;
}

async function waitFor(
  what: string,
  ms: number,
  ok: () => Promise<boolean> | boolean,
) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test("app window: the server key is in no file of its Chromium profile", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-profile-" });
  const oldConfig = Deno.env.get("XDG_CONFIG_HOME");
  Deno.env.set("XDG_CONFIG_HOME", dir);
  const xvfb = await startXvfb();
  let connected = 0;
  const server = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    onConnect: () => connected++,
  });
  // The real launcher path, with the flags a container needs, on Xvfb.
  const wrapper = `${dir}/chromium`;
  await Deno.writeTextFile(
    wrapper,
    `#!/bin/sh\necho $$ > '${dir}/pid'\nexport DISPLAY='${xvfb.display}'\n` +
      `exec ${CHROMIUM} --no-sandbox --disable-gpu --password-store=basic "$@"\n`,
  );
  await Deno.chmod(wrapper, 0o755);
  const profile = `${dir}/domterm/browser-profile`;
  let pid = 0;
  try {
    const s = server.newSession();
    const launcher = await openBrowser(
      `${server.url}&session=${s.id}`,
      chooseBrowser(wrapper),
    );
    assert(
      !(await Deno.readTextFile(launcher)).includes(server.key),
      "the launcher file holds the key",
    );
    await waitFor("the app window to connect", 60_000, () => connected > 0);
    pid = Number(await Deno.readTextFile(`${dir}/pid`));
    // Let the browser write what it writes for a visited page (History
    // batches its commits), then close it the way a desktop does.
    await new Promise((r) => setTimeout(r, 12_000));
    Deno.kill(pid, "SIGTERM");
    await waitFor("Chromium to exit", 30_000, async () => {
      const st = await new Deno.Command("kill", { args: ["-0", String(pid)] })
        .output();
      return !st.success;
    });
    pid = 0;
    // The page was recorded (so the check below means something) ...
    const visited = await filesHolding(profile, "launch=");
    assert(visited.length > 0, "the profile recorded no visit at all");
    // ... and the key is nowhere.
    assertEquals(await filesHolding(profile, server.key), []);
  } finally {
    if (pid) Deno.kill(pid, "SIGKILL");
    await server.shutdown();
    xvfb.child.kill("SIGTERM");
    await xvfb.child.status;
    if (oldConfig === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", oldConfig);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("page: a reload reconnects with no key in sessionStorage; a launch token works once", async () => {
  const { startDomterm } = await import("./domterm.ts");
  const { launchUrl } = await import("../../server/launch_token.ts");
  const run = await startDomterm(["sh"]);
  try {
    const key = new URLSearchParams(new URL(run.url).hash.slice(1)).get("key")!;
    const connected = (p: typeof run.page) =>
      p.waitForFunction(() =>
        "domtermInspect" in globalThis &&
        (globalThis as unknown as Inspected).domtermInspect.connected
      );
    const stored = (p: typeof run.page) =>
      p.evaluate(() => JSON.stringify({ ...sessionStorage }));
    await connected(run.page);
    const session = await run.page.evaluate(() =>
      sessionStorage.getItem("domterm-session")
    );
    // A window opened with a launch token (as the launcher opens it)
    // connects; it also keeps the session attached while the first page
    // reloads (alone, a slow reload under load would outlast the 3 s close
    // grace and the session would end).
    const opened = launchUrl(`${run.url}&session=${session}`);
    assert(!opened.includes(key), opened);
    const other = await run.browser.newPage();
    await other.goto(opened);
    await connected(other);
    assert(!(await stored(other)).includes(key), await stored(other));
    // The same token again is refused.
    const token = new URLSearchParams(new URL(opened).hash.slice(1)).get(
      "launch",
    )!;
    const again = await fetch(new URL("/launch", run.url), {
      method: "POST",
      body: token,
    });
    assertEquals(again.status, 403);
    await again.body?.cancel();
    // Reloads get the key from the token the page left as it unloaded.
    assert(!(await stored(run.page)).includes(key), await stored(run.page));
    for (let i = 0; i < 2; i++) {
      await run.page.reload();
      await connected(run.page);
      assert(!(await stored(run.page)).includes(key), await stored(run.page));
      assertEquals(new URL(run.page.url()).hash, "");
    }
    await other.close();
  } finally {
    await run.close();
  }
});
