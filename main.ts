/**
 * domterm: a rich terminal emulator in the browser.
 *
 * `deno run -A main.ts --help` for usage.
 *
 * @module
 */
import { main } from "./server/cli.ts";
import { ASSETS } from "./static/gen/assets.ts";

/**
 * Run domterm with `args` (default: this process's arguments) and the
 * embedded client, then exit with its status. The entry point of
 * `deno run`, `deno compile` and the single-file build alike.
 */
export async function run(args: string[] = Deno.args): Promise<never> {
  Deno.exit(await main(args, ASSETS));
}

if (import.meta.main) {
  await run();
}
