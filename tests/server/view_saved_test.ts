/**
 * `domterm view-saved FILE`, run as a real process with a fake browser (a
 * script that records its arguments): a saved session opens as an app
 * window on its file URL; a missing file, a directory or a file domterm
 * did not save fail with a clear message and start nothing.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { sessionHtml, sourceSanitizer } from "../../core/serialize/html.ts";
import {
  notSavedReason,
  viewCommand,
} from "../../server/commands/view_saved.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const dec = new TextDecoder();

async function run(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

/** A fake browser that writes its arguments, one a line, to `log`. */
async function fakeBrowser(
  dir: string,
): Promise<{ path: string; log: string }> {
  const path = join(dir, "fake-browser");
  const log = join(dir, "browser.log");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${log}.tmp'\nmv '${log}.tmp' '${log}'\n`,
  );
  await Deno.chmod(path, 0o755);
  return { path, log };
}

async function waitForFile(path: string, ms = 10_000): Promise<string> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      return await Deno.readTextFile(path);
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${path} never appeared`);
}

function savedSession(): string {
  const t = new Terminal({ cols: 20, rows: 4 });
  t.write("\x1b[31mhello\x1b[0m");
  return sessionHtml(t, { sanitize: sourceSanitizer });
}

Deno.test("view-saved: opens a saved session as an app window on its file URL", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-view-saved-" });
  try {
    const file = join(dir, "my session #1.html");
    await Deno.writeTextFile(file, savedSession());
    const browser = await fakeBrowser(dir);
    // The profile goes under $XDG_CONFIG_HOME (HOME stays: Deno's cache).
    const r = await run(["view-saved", "--browser", browser.path, file], {
      XDG_CONFIG_HOME: join(dir, "config"),
    });
    assertEquals([r.code, r.stderr], [0, ""]);
    const args = (await waitForFile(browser.log)).trim().split("\n");
    assertEquals(args[0], `--app=${pathToFileURL(file).href}`);
    assertMatch(args[0], /my%20session%20%231\.html$/);
    assertEquals(
      args[1],
      `--user-data-dir=${join(dir, "config", "domterm", "browser-profile")}`,
    );
    assert(args.includes("--no-first-run"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view-saved: a missing file, a directory, another HTML file or no operand fail clearly", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-view-saved-" });
  try {
    const browser = await fakeBrowser(dir);
    const missing = join(dir, "nope.html");
    let r = await run(["view-saved", "--browser", browser.path, missing]);
    assertEquals(r.code, 1);
    assertEquals(
      r.stderr.trim(),
      `domterm view-saved: ${missing}: no such file`,
    );
    r = await run(["view-saved", "--browser", browser.path, dir]);
    assertEquals(r.code, 1);
    assertMatch(r.stderr, /: is a directory/);
    const other = join(dir, "other.html");
    await Deno.writeTextFile(other, "<!DOCTYPE html><script>alert(1)</script>");
    r = await run(["view-saved", "--browser", browser.path, other]);
    assertEquals(r.code, 1);
    assertMatch(r.stderr, /not a session saved by domterm/);
    r = await run(["view-saved"]);
    assertEquals(r.code, 2);
    assertMatch(r.stderr, /missing file operand\nUsage: domterm view-saved/);
    // Nothing was started.
    let started = true;
    try {
      await Deno.stat(browser.log);
    } catch {
      started = false;
    }
    assertEquals(started, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view-saved: recognises saved files; the opener gets the URL alone", () => {
  assertEquals(notSavedReason(savedSession().slice(0, 4096)), null);
  assertEquals(notSavedReason("hello"), "not an HTML document");
  assertMatch(
    notSavedReason("<!DOCTYPE html><title>x</title>") ?? "",
    /not a session saved by domterm/,
  );
  assertEquals(
    viewCommand("file:///a.html", {
      kind: "opener",
      path: "/usr/bin/xdg-open",
    }),
    { path: "/usr/bin/xdg-open", args: ["file:///a.html"] },
  );
});
