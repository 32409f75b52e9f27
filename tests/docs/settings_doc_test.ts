/**
 * docs/settings.md lists every setting from the schema: its generated
 * table must be current, and `domterm --help` names every key with its
 * default.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import { BEGIN, END } from "../../scripts/gen_settings_doc.ts";
import { settingsTable } from "../../core/settings/help.ts";
import { defaultText, SETTINGS } from "../../core/settings/schema.ts";
import { HELP } from "../../server/cli.ts";

/** A Markdown table without its column padding. */
function squeeze(table: string): string {
  return table.trim().split("\n").map((l) =>
    l.split("|").map((c) => c.trim().replace(/^-+$/, "-")).join("|")
  ).join("\n");
}

Deno.test("docs/settings.md: the table of settings is current (run `deno run -A scripts/gen_settings_doc.ts`)", async () => {
  const doc = await Deno.readTextFile(
    new URL("../../docs/settings.md", import.meta.url),
  );
  const a = doc.indexOf(BEGIN), b = doc.indexOf(END);
  assert(a >= 0 && b > a, "the markers are there");
  assertEquals(
    squeeze(doc.slice(a + BEGIN.length, b)),
    squeeze(settingsTable()),
    "docs/settings.md is stale: run `deno run -A scripts/gen_settings_doc.ts`",
  );
});

Deno.test("domterm --help lists every setting with its default", () => {
  for (const s of SETTINGS) {
    assert(
      HELP.includes(`  ${s.key} = ${defaultText(s)}\n`),
      `--help lacks ${s.key}`,
    );
  }
});
