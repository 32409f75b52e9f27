/**
 * vttest through a real PTY into our emulator: each walk of
 * vttest_script.ts must reproduce its golden screens
 * (tests/fixtures/programs/vttest/, made by scripts/vttest_goldens.ts,
 * mostly from tmux as an independent reference).
 */
import { normalizeScreen, withProgram } from "./harness.ts";
import { VTTEST_ARGS, VTTEST_WALKS } from "./vttest_script.ts";

const FIXTURES = new URL("../fixtures/programs/vttest/", import.meta.url);

function golden(path: string): string {
  return normalizeScreen(Deno.readTextFileSync(new URL(path, FIXTURES)));
}

for (const walk of VTTEST_WALKS) {
  Deno.test(`vttest ${walk.name}`, async () => {
    await withProgram({ command: "vttest", args: VTTEST_ARGS }, async (s) => {
      await s.waitForText(golden("main.txt"), { what: "main menu" });
      for (const step of walk.steps) {
        const name = `${walk.name}/${step.name}`;
        // vttest discards typeahead before each prompt: the next keys go
        // only once the whole screen (which ends with the prompt) is there.
        await s.sendAndExpect(step.keys, golden(`${name}.txt`), name);
      }
      // Leave vttest through its menus: it must end by itself.
      await s.send("0\r");
      await s.waitForExit();
    });
  });
}
