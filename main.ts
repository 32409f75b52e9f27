/**
 * domterm: a rich terminal emulator in the browser.
 *
 * `deno run -A main.ts --help` for usage.
 *
 * @module
 */
import { main } from "./server/cli/dispatch.ts";
import { ASSETS } from "./static/gen/assets.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args, ASSETS));
}
