/**
 * Writes the table of every setting into docs/settings.md (between its
 * `<!-- settings-table -->` markers) from core/settings/schema.ts.
 * tests/docs/settings_doc_test.ts fails when the page is stale.
 *
 * @module
 */
import { settingsTable } from "../core/settings/help.ts";

/** The markers around the generated table. */
export const BEGIN =
  "<!-- settings-table:begin (scripts/gen_settings_doc.ts) -->";
export const END = "<!-- settings-table:end -->";

/** `doc` with its table replaced by the current one. */
export function withTable(doc: string): string {
  const a = doc.indexOf(BEGIN), b = doc.indexOf(END);
  if (a < 0 || b < a) {
    throw new Error("docs/settings.md lacks the table markers");
  }
  return doc.slice(0, a + BEGIN.length) + "\n\n" + settingsTable() + "\n" +
    doc.slice(b);
}

if (import.meta.main) {
  const path = new URL("../docs/settings.md", import.meta.url);
  const doc = await Deno.readTextFile(path);
  const next = withTable(doc);
  if (next !== doc) {
    await Deno.writeTextFile(path, next);
    // The table's layout is deno fmt's.
    await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "-q", path.pathname],
    }).output();
  }
  console.log("docs/settings.md updated");
}
