/**
 * docs/escapes.md lists the implemented sequences from the emulator's
 * registrations: the generated part must be current.
 *
 * @module
 */
import { assertEquals } from "../assert.ts";
import { DOC_PATH, updateDoc } from "../../scripts/gen_escapes.ts";

Deno.test("docs/escapes.md: the generated sequence tables are current (run `deno task gen:escapes`)", async () => {
  const path = new URL(`../../${DOC_PATH}`, import.meta.url);
  const doc = await Deno.readTextFile(path);
  const next = await updateDoc(doc);
  assertEquals(
    doc === next,
    true,
    `${DOC_PATH} is not current: run \`deno task gen:escapes\``,
  );
});
