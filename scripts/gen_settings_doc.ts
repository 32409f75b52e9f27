/**
 * Writes the table of every setting into docs/settings.md (between its
 * `<!-- settings-table -->` markers) from core/settings/schema.ts.
 * tests/docs/settings_doc_test.ts fails when the page is stale.
 *
 * @module
 */
import { replaceSection, writeSection } from "./doc_section.ts";
import { settingsTable } from "../core/settings/help.ts";

/** The markers around the generated table. */
export const BEGIN =
  "<!-- settings-table:begin (scripts/gen_settings_doc.ts) -->";
export const END = "<!-- settings-table:end -->";

/** `doc` with its table replaced by the current one. */
export function withTable(doc: string): string {
  return replaceSection(
    doc,
    BEGIN,
    END,
    "\n\n" + settingsTable() + "\n",
    "docs/settings.md",
  );
}

if (import.meta.main) {
  await writeSection(
    new URL("../docs/settings.md", import.meta.url),
    withTable,
  );
  console.log("docs/settings.md updated");
}
