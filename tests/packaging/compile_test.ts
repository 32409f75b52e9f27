/**
 * `deno task compile` (scripts/compile.ts): the argument list it hands to
 * `deno compile`, and that the executable would be the same program as
 * `deno run main.ts` and the single-file build: the same entry, the
 * embedded client in its module graph, and every worker the program
 * starts by URL included. Where `deno compile` can fetch its runtime the
 * executable is built and run; where it cannot (no network), the task
 * must fail saying exactly that, after resolving the whole program.
 */
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import {
  compileArgs,
  isRuntimeDownloadFailure,
  TARGETS,
} from "../../scripts/compile.ts";
import { entrySource } from "../../scripts/bundle.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(
  /\/$/,
  "",
);
const dec = new TextDecoder();

/** The value after `flag` in `args`, every time it occurs. */
function valuesOf(args: string[], flag: string): string[] {
  return args.flatMap((a, i) => a === flag ? [args[i + 1]] : []);
}

Deno.test("compile arguments: all permissions, the worker included, only the npm packages in use, ./domterm from main.ts", () => {
  const args = compileArgs({ root: "/src" });
  assertEquals(args[0], "compile");
  assert(args.includes("--allow-all"), `${args}`);
  assert(args.includes("--exclude-unused-npm"), `${args}`);
  assertEquals(valuesOf(args, "--include"), [
    "/src/server/emulator_worker.ts",
  ]);
  assertEquals(valuesOf(args, "--output"), ["/src/domterm"]);
  assertEquals(valuesOf(args, "--target"), []);
  assertEquals(args.at(-1), "/src/main.ts");
});

Deno.test("compile arguments: a target is passed on and names its own output; an unsupported one is refused", () => {
  for (const target of TARGETS) {
    const args = compileArgs({ root: "/src", target });
    assertEquals(valuesOf(args, "--target"), [target]);
    assertEquals(valuesOf(args, "--output"), [`/src/dist/domterm-${target}`]);
  }
  const mine = compileArgs({
    root: "/src",
    target: "aarch64-apple-darwin",
    output: "/out/dt",
  });
  assertEquals(valuesOf(mine, "--output"), ["/out/dt"]);
  let refusal = "";
  try {
    compileArgs({ target: "x86_64-pc-windows-msvc" });
  } catch (e) {
    refusal = (e as Error).message;
  }
  assertMatch(refusal, /unsupported target.*Linux or macOS/);
});

/**
 * The modules of `entry`'s graph (`deno info --json`): local ones as file
 * paths, and the npm packages it imports.
 */
async function moduleGraph(
  entry: string,
): Promise<{ files: string[]; npm: string[] }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(r.success, `deno info ${entry}: ${dec.decode(r.stderr)}`);
  const info = JSON.parse(dec.decode(r.stdout)) as {
    modules: { specifier: string; error?: string; npmPackage?: string }[];
  };
  const errors = info.modules.filter((m) => m.error);
  assertEquals(errors, [], `modules that do not load from ${entry}`);
  return {
    files: info.modules
      .filter((m) => m.specifier.startsWith("file:"))
      .map((m) => fileURLToPath(m.specifier)),
    npm: info.modules.flatMap((m) => m.npmPackage ? [m.npmPackage] : []),
  };
}

Deno.test("compile: the executable is the same program: main.ts with the embedded client, and every worker started by URL included", async () => {
  const args = compileArgs();
  const entry = args.at(-1)!;
  assertEquals(entry, join(ROOT, "main.ts"));
  // The single-file build runs the same entry.
  assert(
    entrySource(ROOT, "").includes(
      JSON.stringify(pathToFileURL(entry).href),
    ),
    "the bundle's entry imports main.ts",
  );

  const includes = valuesOf(args, "--include");
  const main = await moduleGraph(entry);
  const graph = new Set(main.files);
  assert(graph.has(join(ROOT, "static", "gen", "assets.ts")), "client");
  for (const inc of includes) {
    const more = await moduleGraph(inc);
    for (const m of more.files) graph.add(m);
    // --exclude-unused-npm keeps the packages main.ts reaches: the
    // included modules must need no other.
    const missing = more.npm.filter((p) => !main.npm.includes(p));
    assertEquals(missing, [], `npm packages only ${inc} imports`);
  }
  // Workers are started from a module's URL, which no import follows:
  // every module named that way must be one of the includes.
  const workers: string[] = [];
  for (const file of graph) {
    const text = await Deno.readTextFile(file);
    const byUrl = /new URL\(\s*"([^"]+\.[jt]s)",\s*import\.meta\.url\s*\)/g;
    for (const m of text.matchAll(byUrl)) {
      workers.push(fileURLToPath(new URL(m[1], pathToFileURL(file))));
    }
  }
  assertEquals(workers, [join(ROOT, "server", "emulator_worker.ts")]);
  for (const w of workers) assert(includes.includes(w), `${w} included`);
});

Deno.test("deno task compile: builds a domterm that runs, or says it cannot fetch the Deno runtime", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-compile-" });
  try {
    const output = join(dir, "domterm");
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["task", "compile", "--output", output],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const out = dec.decode(r.stdout) + dec.decode(r.stderr);
    if (r.success) {
      const v = await new Deno.Command(output, {
        args: ["--version"],
        stdout: "piped",
      }).output();
      const version = JSON.parse(
        await Deno.readTextFile(join(ROOT, "deno.json")),
      ).version;
      assertEquals(dec.decode(v.stdout).trim(), `domterm ${version}`);
    } else {
      // The program itself resolved; only the runtime download failed.
      assert(!/Module not found|error: .*Import/i.test(out), out);
      assert(isRuntimeDownloadFailure(out), out);
      assert(/could not download the Deno runtime/.test(out), out);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
