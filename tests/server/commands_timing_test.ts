/**
 * `domterm is-domterm` on a silent pseudo-terminal gives up quickly: it
 * is timed, so the suite runs this file alone (scripts/run_tests.ts
 * SERIAL_FILES); the subcommands' other tests are in commands_test.ts.
 */
import { assert, assertEquals } from "../assert.ts";
import { onPty } from "./domterm_on_pty.ts";

Deno.test("is-domterm: exits 1 quickly when the terminal does not answer", async () => {
  const r = await onPty(["is-domterm"], false);
  assertEquals(r.code, 1, r.output);
  // ~500 ms of waiting plus Deno's start-up.
  assert(r.ms < 3000, `took ${r.ms} ms`);
  assert(!r.output.includes("domterm"), "prints nothing without --verbose");
});
