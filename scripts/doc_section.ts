/**
 * Generated sections of the docs: a table written between two marker
 * comments of a page, laid out by `deno fmt` (scripts/gen_keys_doc.ts,
 * scripts/gen_settings_doc.ts).
 *
 * @module
 */

/** `doc` with what is between `begin` and `end` replaced by `body`. */
export function replaceSection(
  doc: string,
  begin: string,
  end: string,
  body: string,
  page: string,
): string {
  const a = doc.indexOf(begin), b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${page} lacks the table markers`);
  return doc.slice(0, a + begin.length) + body + doc.slice(b);
}

/** Rewrite the page at `url` with `update` (then `deno fmt` it) when that changes it. */
export async function writeSection(
  url: URL,
  update: (doc: string) => string,
): Promise<void> {
  const doc = await Deno.readTextFile(url);
  const next = update(doc);
  if (next !== doc) {
    await Deno.writeTextFile(url, next);
    // The table's layout is deno fmt's.
    await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "-q", url.pathname],
    }).output();
  }
}
