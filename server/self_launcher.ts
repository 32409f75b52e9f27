/**
 * `domterm` inside its own sessions: a launcher script that runs this same
 * program (the compiled executable itself, or `deno run -A` of the main
 * module this server was started from: a checkout's main.ts or the
 * package's URL), in a private directory put first on the sessions' PATH.
 * First, on purpose: the helpers a session runs (`domterm imgcat`, `html`,
 * `attach`...) must speak to this server's version, even when an older
 * `domterm` is installed elsewhere on PATH.
 *
 * @module
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The command line that runs this same program. */
export function selfCommand(
  execPath = Deno.execPath(),
  mainModule = Deno.mainModule,
): string[] {
  // Compiled: the executable is the program.
  if (!/^deno(\.exe)?$/.test(basename(execPath))) return [execPath];
  const main = mainModule.startsWith("file:")
    ? fileURLToPath(mainModule)
    : mainModule;
  return [execPath, "run", "-A", main];
}

/** `s` as one shell word. */
function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * Write the `domterm` launcher into `dir/bin` (created 0700) and return
 * that directory, for the front of the sessions' PATH.
 */
export function writeSelfLauncher(
  dir: string,
  command = selfCommand(),
): string {
  const bin = join(dir, "bin");
  Deno.mkdirSync(bin, { recursive: true, mode: 0o700 });
  const path = join(bin, "domterm");
  const script =
    `#!/bin/sh\n# Written by the domterm server: runs the same domterm.\nexec ${
      command.map(shellQuote).join(" ")
    } "$@"\n`;
  // A new file, then a rename: a session may be running the old one.
  const tmp = `${path}.${Deno.pid}.tmp`;
  Deno.writeTextFileSync(tmp, script, { mode: 0o700 });
  Deno.renameSync(tmp, path);
  return bin;
}
