/**
 * Browser launch with a fake browser executable: the app-mode arguments,
 * the 0600 launcher file, and that the key never reaches a command line.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../assert.ts";
import { chooseBrowser, openBrowser } from "../../server/browser.ts";

async function withFakeBrowser(
  fn: (fake: string, record: string, dir: string) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "domterm-browser-" });
  const old = Deno.env.get("XDG_CONFIG_HOME");
  Deno.env.set("XDG_CONFIG_HOME", `${dir}/config`);
  const fake = `${dir}/fake-browser`;
  const record = `${dir}/args`;
  await Deno.writeTextFile(
    fake,
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}.tmp'\nmv '${record}.tmp' '${record}'\n`,
  );
  await Deno.chmod(fake, 0o755);
  try {
    await fn(fake, record, dir);
  } finally {
    if (old === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", old);
    await Deno.remove(dir, { recursive: true });
  }
}

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    try {
      return await Deno.readTextFile(path);
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`the fake browser never wrote ${path}`);
}

Deno.test("browser: app mode through a 0600 launcher; the key is not on the command line", async () => {
  await withFakeBrowser(async (fake, record, dir) => {
    const key = "SECRETKEY0123456789abcdefghijklm";
    const url = `http://127.0.0.1:4242/#key=${key}`;
    const choice = chooseBrowser(fake);
    assertEquals(choice, { kind: "app", path: fake });
    const launcher = await openBrowser(url, choice);
    const args = (await waitForFile(record)).trim().split("\n");
    assert(
      !args.some((a) => a.includes(key)),
      `key on the command line: ${args}`,
    );
    assertEquals(args[0], `--app=file://${launcher}`);
    assert(
      args.includes(`--user-data-dir=${dir}/config/domterm/browser-profile`),
      `${args}`,
    );
    assert(args.some((a) => /^--window-size=\d+,\d+$/.test(a)), `${args}`);
    // Echoes are not held back until the next frame after a key press.
    assert(
      args.includes("--disable-features=DeferRendererTasksAfterInput"),
      `${args}`,
    );
    assertEquals((await Deno.stat(launcher)).mode! & 0o777, 0o600);
    assertEquals(
      (await Deno.stat(`${dir}/config/domterm/launch`)).mode! & 0o777,
      0o700,
    );
    // The page gets a one-time launch token, not the key: the browser
    // records the URL it opens (server/launch_token.ts).
    const html = await Deno.readTextFile(launcher);
    assertMatch(
      html,
      /location\.replace\("http:\/\/127\.0\.0\.1:4242\/#launch=[\w-]+\.\d+\.[\w-]+"\)/,
    );
    assert(!html.includes(key), html);
  });
});

Deno.test("browser: a missing browser is a clear error", async () => {
  await assertRejects(
    () => chooseBrowser("/nonexistent/browser"),
    /browser '\/nonexistent\/browser' not found/,
  );
  await assertRejects(
    () => chooseBrowser("no-such-browser-name"),
    /not found \(give chrome, chromium, edge, brave, default, or a path\)/,
  );
});
