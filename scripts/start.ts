/**
 * `deno task start`: run domterm from this checkout, building the client
 * first only if one of its inputs changed (scripts/build_stamp.ts). The
 * check runs in this process and domterm then starts in it too, so a
 * current checkout starts one Deno, not two (about 60 ms sooner).
 *
 * Usage: deno task start [domterm's arguments]
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { inputsStamp, isCurrent } from "./build_stamp.ts";

if (!await isCurrent(await inputsStamp())) {
  const build = fileURLToPath(new URL("./build.ts", import.meta.url));
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", build],
    stdin: "null",
  }).spawn().status;
  if (!success) Deno.exit(1);
}
// Not a literal specifier: main.ts imports static/gen/assets.ts, which the
// build above may just have written, so it must not be loaded before.
const main = new URL("../main.ts", import.meta.url).href;
const { run } = await import(main);
await run(Deno.args);
