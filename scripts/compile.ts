/**
 * Builds the single executable `./domterm` with `deno compile` (the client
 * is embedded through static/gen/assets.ts, made by `deno task build`).
 *
 * `deno compile` needs the Deno runtime for the target ("denort"), which it
 * downloads from Deno's release server unless DENORT_BIN names a local copy.
 * Where that server cannot be reached, this says so plainly and fails.
 *
 * Usage: deno task compile [--target TRIPLE] [--output FILE]
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** The checkout this script belongs to. */
export const ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The targets domterm can be compiled for: those of `deno compile` where
 * its PTY binding (server/pty/libc.ts: Linux and macOS libc) works.
 */
export const TARGETS: readonly string[] = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
];

/** What to compile for and where to write it. */
export interface CompileOptions {
  /** The checkout (default: this script's). */
  root?: string;
  /** A `deno compile --target` triple (default: this machine). */
  target?: string;
  /**
   * The executable to write (default: `domterm` in the checkout, or
   * `dist/domterm-TARGET` with a target, so builds for other machines
   * neither overwrite nor pass for the local one).
   */
  output?: string;
}

/**
 * The `deno compile` arguments that make the domterm executable: main.ts
 * (the entry `deno run` uses) with all permissions, the emulator worker
 * included by hand (it is started with `new Worker(URL)`, which compile
 * does not follow), and only the npm packages the program imports (not
 * the test tools in the lock file). Throws on a target domterm cannot run on.
 */
export function compileArgs(options: CompileOptions = {}): string[] {
  const root = options.root ?? ROOT;
  const { target } = options;
  if (target !== undefined && !TARGETS.includes(target)) {
    throw new Error(
      `unsupported target ${JSON.stringify(target)}: domterm's PTY binding ` +
        `needs Linux or macOS; use one of ${TARGETS.join(", ")}`,
    );
  }
  const output = options.output ??
    (target === undefined
      ? join(root, "domterm")
      : join(root, "dist", `domterm-${target}`));
  return [
    "compile",
    "--allow-all",
    // `deno task check` type-checks; compiling need not do it again.
    "--no-check",
    "--exclude-unused-npm",
    "--include",
    join(root, "server", "emulator_worker.ts"),
    ...(target === undefined ? [] : ["--target", target]),
    "--output",
    output,
    join(root, "main.ts"),
  ];
}

/** Whether `deno compile`'s errors say it could not download denort. */
export function isRuntimeDownloadFailure(stderr: string): boolean {
  return /denort|dl\.deno\.land|error sending request|dns error|Setting up base binary/i
    .test(stderr);
}

if (import.meta.main) {
  let args: string[];
  try {
    const { values } = parseArgs({
      // `deno task X -- ARGS` passes the `--` on.
      args: Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args,
      options: {
        target: { type: "string" },
        output: { type: "string", short: "o" },
      },
    });
    args = compileArgs({
      target: values.target,
      output: values.output === undefined ? undefined : resolve(values.output),
    });
  } catch (e) {
    console.error(`compile: ${(e as Error).message}`);
    Deno.exit(2);
  }
  const output = args[args.indexOf("--output") + 1];
  await Deno.mkdir(dirname(output), { recursive: true });
  const result = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  await Deno.stderr.write(result.stderr);
  if (result.success) {
    console.error(`compile: wrote ${output}`);
    Deno.exit(0);
  }
  if (isRuntimeDownloadFailure(new TextDecoder().decode(result.stderr))) {
    console.error(
      "\ncompile: FAILED because deno compile could not download the Deno runtime (denort)\n" +
        "for the target from Deno's release server, which this machine cannot reach.\n" +
        "Run `deno task compile` on a machine with internet access, or point DENORT_BIN\n" +
        "at a denort binary of the same Deno version (" + Deno.version.deno +
        ").",
    );
  } else {
    console.error("\ncompile: deno compile failed (see above)");
  }
  Deno.exit(1);
}
