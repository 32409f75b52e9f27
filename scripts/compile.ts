/**
 * Builds the single executable `./domterm` with `deno compile` (the client
 * is embedded through static/gen/assets.ts, made by `deno task build`).
 *
 * `deno compile` needs the Deno runtime for the target ("denort"), which it
 * downloads from Deno's release server unless DENORT_BIN names a local copy.
 * Where that server cannot be reached, this says so plainly and fails.
 *
 * Usage: deno task compile [-- --target <triple>]
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const output = join(root, "domterm");
const result = await new Deno.Command(Deno.execPath(), {
  args: [
    "compile",
    "--allow-all",
    "--no-check",
    // The sessions' emulator thread is started with new Worker(URL), which
    // deno compile does not follow by itself.
    "--include",
    join(root, "server", "emulator_worker.ts"),
    "--output",
    output,
    ...Deno.args,
    join(root, "main.ts"),
  ],
  stdout: "inherit",
  stderr: "piped",
}).output();
const err = new TextDecoder().decode(result.stderr);
if (result.success) {
  await Deno.stderr.write(result.stderr);
  console.error(`compile: wrote ${output}`);
  Deno.exit(0);
}
await Deno.stderr.write(result.stderr);
if (
  /denort|dl\.deno\.land|error sending request|dns error|Setting up base binary/i
    .test(err)
) {
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
