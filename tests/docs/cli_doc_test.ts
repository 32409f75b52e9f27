/**
 * docs/cli.md is generated from the command line's table: it must be
 * current, and name every option and command.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import { CLI_DOC, cliDoc, formatMarkdown } from "../../scripts/gen_cli_doc.ts";
import { COMMANDS, MAIN, optionsOf } from "../../server/cli/table.ts";

Deno.test("docs/cli.md is current (run `deno run -A scripts/gen_cli_doc.ts`)", async () => {
  const doc = await Deno.readTextFile(CLI_DOC);
  assertEquals(
    doc,
    await formatMarkdown(cliDoc()),
    "docs/cli.md is stale: run `deno run -A scripts/gen_cli_doc.ts`",
  );
  for (const o of MAIN.options) assert(doc.includes(`--${o.name}`), o.name);
  for (const c of COMMANDS) {
    assert(doc.includes(`### ${c.name}\n`), c.name);
    for (const o of optionsOf(c)) assert(doc.includes(`--${o.name}`), o.name);
  }
});
