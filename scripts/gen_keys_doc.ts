/**
 * Writes the table of the default key bindings into docs/keyboard-mouse.md
 * (between its `<!-- keys-table -->` markers) from client/key_table.ts, the
 * table the page's key handler dispatches from. tests/docs/keys_doc_test.ts
 * fails when the page is stale.
 *
 * @module
 */
import { keyBindingsDoc } from "../client/key_table.ts";

/** The markers around the generated table. */
export const BEGIN = "<!-- keys-table:begin (scripts/gen_keys_doc.ts) -->";
export const END = "<!-- keys-table:end -->";

/** `doc` with its table replaced by the current one. */
export function withTable(doc: string): string {
  const a = doc.indexOf(BEGIN), b = doc.indexOf(END);
  if (a < 0 || b < a) {
    throw new Error("docs/keyboard-mouse.md lacks the key table markers");
  }
  return doc.slice(0, a + BEGIN.length) + "\n\n" + keyBindingsDoc() + "\n\n" +
    doc.slice(b);
}

if (import.meta.main) {
  const path = new URL("../docs/keyboard-mouse.md", import.meta.url);
  const doc = await Deno.readTextFile(path);
  const next = withTable(doc);
  if (next !== doc) {
    await Deno.writeTextFile(path, next);
    // The table's layout is deno fmt's.
    await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "-q", path.pathname],
    }).output();
  }
  console.log("docs/keyboard-mouse.md updated");
}
