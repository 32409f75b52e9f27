/**
 * The JSR package: `deno task publish:check` (`deno publish --dry-run`,
 * which also fails on slow types in the public API) passes offline; the
 * package holds the program and its embedded client and none of the
 * checkout's tests, scripts or builds; and those files alone make a
 * domterm that runs, worker thread included (what `deno run -A
 * jsr:@x/domterm` would load).
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "../assert.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dec = new TextDecoder();

/** Run deno with `args` in `cwd`; its status and its output (no colours). */
async function deno(
  args: string[],
  cwd: string,
): Promise<{ ok: boolean; out: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { ok: r.success, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

Deno.test("publish dry run: passes, with the program and its client and nothing of the checkout's own", async (t) => {
  const { ok, out } = await deno(["task", "publish:check"], ROOT);
  assert(ok, `deno task publish:check failed:\n${out}`);
  assert(/Dry run complete/.test(out), out);
  const files = [...out.matchAll(/^\s+(file:\/\/\S+) \(/gm)].map((m) =>
    relative(ROOT, fileURLToPath(m[1]))
  );
  for (
    const want of [
      "main.ts",
      "deno.json",
      "LICENSE",
      "README.md",
      "server/emulator_worker.ts",
      "server/shell/bash.sh",
      "static/gen/assets.ts",
    ]
  ) {
    assert(files.includes(want), `${want} is in the package: ${files}`);
  }
  const stray = files.filter((f) =>
    /^(tests|scripts|bench|dist|node_modules)\//.test(f) ||
    f === "static/gen/client.js" || f === "domterm"
  );
  assertEquals(stray, [], "files the package must not hold");

  await t.step("those files alone run, worker thread included", async () => {
    const dir = await Deno.makeTempDir({ prefix: "domterm-package-" });
    try {
      for (const f of files) {
        await Deno.mkdir(join(dir, dirname(f)), { recursive: true });
        await Deno.copyFile(join(ROOT, f), join(dir, f));
      }
      const version = JSON.parse(
        await Deno.readTextFile(join(ROOT, "deno.json")),
      ).version;
      const run = await deno(["run", "-A", "main.ts", "--version"], dir);
      assert(run.ok, run.out);
      assertEquals(run.out.trim(), `domterm ${version}`);
      // The worker is started by URL, so no import reaches it: load its
      // module graph on its own.
      const worker = await deno(["cache", "server/emulator_worker.ts"], dir);
      assert(worker.ok, `the worker's modules: ${worker.out}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
