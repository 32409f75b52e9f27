/**
 * `domterm install-desktop [--uninstall]`, run as a real process in a
 * temporary XDG_DATA_HOME; the entry is checked with desktop-file-validate.
 */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import { join } from "node:path";
import {
  desktopEntry,
  desktopPaths,
  execArgument,
} from "../../../server/commands/install_desktop.ts";

const MAIN_TS = new URL("../../../main.ts", import.meta.url).pathname;
import { runDomterm as run } from "../../run_domterm.ts";
const ICON = new URL("../../../static/icon.svg", import.meta.url);

/** desktop-file-validate's complaints about `path` ("" when none). */
async function validate(path: string): Promise<string> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("desktop-file-validate", { args: [path] })
      .output();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(
        "desktop-file-validate is missing: install the Debian package desktop-file-utils",
      );
    }
    throw e;
  }
  const dec = new TextDecoder();
  const text = dec.decode(out.stdout) + dec.decode(out.stderr);
  return out.code === 0 ? text : `exit ${out.code}: ${text}`;
}

Deno.test("install-desktop: writes a valid entry that runs this domterm, and the icon; --uninstall removes them", async () => {
  const data = await Deno.makeTempDir({ prefix: "domterm-xdg-" });
  try {
    const env = { XDG_DATA_HOME: data };
    const installed = await run(["install-desktop"], env);
    assertEquals(installed.code, 0, installed.stderr);
    const entry = join(data, "applications", "domterm.desktop");
    const icon = join(
      data,
      "icons",
      "hicolor",
      "scalable",
      "apps",
      "domterm.svg",
    );
    assertEquals(installed.stdout, `wrote ${entry}\nwrote ${icon}\n`);
    assertEquals(await validate(entry), "");
    const text = await Deno.readTextFile(entry);
    assertMatch(text, /^\[Desktop Entry\]\n/);
    // From a checkout: deno run -A with this checkout's main.ts.
    assert(
      text.includes(`\nExec=${Deno.execPath()} run -A ${MAIN_TS}\n`),
      text,
    );
    assertMatch(text, /\nIcon=domterm\n/);
    assertMatch(text, /\nCategories=System;TerminalEmulator;\n/);
    assertEquals(await Deno.readTextFile(icon), await Deno.readTextFile(ICON));

    // Installing again replaces both.
    assertEquals((await run(["install-desktop"], env)).code, 0);

    const removed = await run(["install-desktop", "--uninstall"], env);
    assertEquals(removed.code, 0, removed.stderr);
    assertEquals(removed.stdout, `removed ${entry}\nremoved ${icon}\n`);
    for (const path of [entry, icon]) {
      assertEquals(await Deno.stat(path).then(() => true, () => false), false);
    }
    const again = await run(["install-desktop", "--uninstall"], env);
    assertEquals(again.code, 0);
    assertMatch(again.stdout, /^nothing to remove/);
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("install-desktop: without XDG_DATA_HOME (or with a relative one) it uses ~/.local/share", () => {
  const want = "/home/u/.local/share/applications/domterm.desktop";
  assertEquals(desktopPaths(undefined, "/home/u").entry, want);
  assertEquals(desktopPaths("", "/home/u").entry, want);
  assertEquals(desktopPaths("rel/data", "/home/u").entry, want);
  assertEquals(
    desktopPaths("/x", "/home/u").icon,
    "/x/icons/hicolor/scalable/apps/domterm.svg",
  );
});

Deno.test("install-desktop: Exec quotes odd paths so that the entry stays valid", async () => {
  assertEquals(execArgument("/usr/bin/domterm"), "/usr/bin/domterm");
  assertEquals(execArgument("/opt/my apps/domterm"), '"/opt/my apps/domterm"');
  assertEquals(execArgument("/a/100%/dt"), "/a/100%%/dt");
  // `$` is escaped inside quotes, then the backslash is doubled.
  assertEquals(execArgument("/a/$x/dt"), '"/a/\\\\$x/dt"');
  const dir = await Deno.makeTempDir({ prefix: "domterm-desktop-" });
  try {
    const path = join(dir, "domterm.desktop");
    await Deno.writeTextFile(
      path,
      desktopEntry([
        "/usr/bin/deno",
        "run",
        "-A",
        '/home/me/my checkout/100% "domterm"/$main.ts',
      ]),
    );
    assertEquals(await validate(path), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
