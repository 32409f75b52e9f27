/**
 * The single-file build end to end: `deno task bundle` writes
 * dist/domterm.js; that file alone, copied into an empty directory (no
 * checkout, no deno.json beside it), runs with `deno run -A domterm.js
 * --no-browser`, and in a real Chromium its shell answers, its emulator
 * thread (embedded in the file) answers the program's queries, and the
 * `domterm` on the session's PATH runs that same file.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { rowTexts, startDomterm, waitForRow } from "../e2e/domterm.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const DIST = join(ROOT, "dist", "domterm.js");

/** Run `deno task bundle` in the checkout; throws with its output. */
async function bundleTask(): Promise<void> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["task", "bundle"],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!r.success) {
    throw new Error(
      `deno task bundle failed:\n${dec.decode(r.stdout)}${
        dec.decode(r.stderr)
      }`,
    );
  }
}

/** Wait until a rendered row matches `re`; the error shows the rows. */
async function waitForRowMatching(
  page: Page,
  re: RegExp,
  what: string,
): Promise<void> {
  try {
    await page.waitForFunction(
      ([source, flags]) =>
        Array.from(document.querySelectorAll("#terminal .dt-row")).some((r) =>
          new RegExp(source, flags).test(
            (r.textContent ?? "").replace(/\s+$/, ""),
          )
        ),
      [re.source, re.flags],
      { timeout: 30_000 },
    );
  } catch {
    throw new Error(
      `no row matching ${re} (${what}); the last rows that are not blank: ${
        JSON.stringify((await rowTexts(page)).filter((r) => r).slice(-15))
      }`,
    );
  }
}

Deno.test("the bundled single file runs alone and its shell answers in Chromium", async () => {
  await bundleTask();
  const text = await Deno.readTextFile(DIST);
  assert(
    text.startsWith("#!/usr/bin/env -S deno run -A\n"),
    "dist/domterm.js starts with its shebang",
  );
  // Everything is inside: no import that would need a checkout or a registry.
  const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((
    m,
  ) => m[1]);
  assertEquals(imports.filter((s) => !s.startsWith("node:")), []);

  const dir = await Deno.makeTempDir({ prefix: "domterm-bundle-run-" });
  const home = await Deno.makeTempDir({ prefix: "domterm-bundle-home-" });
  await Deno.copyFile(DIST, join(dir, "domterm.js"));
  await Deno.writeTextFile(join(home, ".bashrc"), "PS1='$ '\n");
  assertEquals(
    [...Deno.readDirSync(dir)].map((e) => e.name),
    ["domterm.js"],
  );
  const t = await startDomterm(["bash"], {
    main: "domterm.js",
    cwd: dir,
    env: { HOME: home, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
  });
  try {
    await waitForRow(t.page, "$", 30_000);
    await t.page.keyboard.type("echo $((6*7))");
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, "42", 30_000);

    // Cursor position report: only the session's emulator, on the
    // emulator thread, answers it (the page's emulator never replies).
    await t.page.keyboard.type(
      `printf '\\033[6n'; IFS= read -rs -d R -t 20 p; echo "cpr=\${p#*[}"`,
    );
    await t.page.keyboard.press("Enter");
    await waitForRowMatching(
      t.page,
      /^cpr=\d+;\d+$/,
      "the cursor position report (is the emulator thread running?)",
    );

    // The `domterm` first on the session's PATH runs this same file.
    await t.page.keyboard.type(
      `grep -o "'[^']*domterm.js'" "$(command -v domterm)"; domterm --version | sed 's/^/v=/'`,
    );
    await t.page.keyboard.press("Enter");
    await waitForRow(t.page, `'${join(dir, "domterm.js")}'`, 30_000);
    const version = JSON.parse(
      await Deno.readTextFile(join(ROOT, "deno.json")),
    ).version;
    await waitForRowMatching(
      t.page,
      new RegExp(`^v=.*\\b${version}$`),
      "version",
    );
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
