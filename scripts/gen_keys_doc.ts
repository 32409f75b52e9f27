/**
 * Writes the table of the default key bindings into docs/keyboard-mouse.md
 * (between its `<!-- keys-table -->` markers) from client/key_table.ts, the
 * table the page's key handler dispatches from. tests/docs/keys_doc_test.ts
 * fails when the page is stale.
 *
 * @module
 */
import { replaceSection, writeSection } from "./doc_section.ts";
import { keyBindingsDoc } from "../client/key_table.ts";

/** The markers around the generated table. */
export const BEGIN = "<!-- keys-table:begin (scripts/gen_keys_doc.ts) -->";
export const END = "<!-- keys-table:end -->";

/** `doc` with its table replaced by the current one. */
export function withTable(doc: string): string {
  return replaceSection(
    doc,
    BEGIN,
    END,
    "\n\n" + keyBindingsDoc() + "\n\n",
    "docs/keyboard-mouse.md",
  );
}

if (import.meta.main) {
  await writeSection(
    new URL("../docs/keyboard-mouse.md", import.meta.url),
    withTable,
  );
  console.log("docs/keyboard-mouse.md updated");
}
