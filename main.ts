/**
 * domterm: a rich terminal emulator in the browser.
 *
 * `deno run -A main.ts --help` for usage.
 *
 * @module
 */
import { main } from "./server/cli/dispatch.ts";

/**
 * Run domterm with `args` (default: this process's arguments) and the
 * embedded client, then exit with its status. The entry point of
 * `deno run`, `deno compile` and the single-file build alike.
 */
export async function run(args: string[] = Deno.args): Promise<never> {
  // The embedded client is loaded only by the commands that need it: a
  // literal specifier, so `deno compile` and `deno bundle` include it.
  Deno.exit(
    await main(
      args,
      async () => (await import("./static/gen/assets.ts")).ASSETS,
    ),
  );
}

if (import.meta.main) {
  await run();
}
