/**
 * Finding the line of a key in a TOML text, for error messages: the TOML
 * parser gives lines for syntax errors only, not for a valid value the
 * schema refuses. Understands `[table]` headers, bare, quoted and dotted
 * keys; good enough for where a key is, not a parser.
 *
 * @module
 */

/** Split a key path as written (`a."b.c".d`) into its parts. */
function keyParts(text: string): string[] | null {
  const parts: string[] = [];
  let i = 0;
  const s = text.trim();
  while (i < s.length) {
    while (s[i] === " " || s[i] === "\t") i++;
    if (s[i] === '"' || s[i] === "'") {
      const q = s[i];
      const end = s.indexOf(q, i + 1);
      if (end < 0) return null;
      parts.push(s.slice(i + 1, end));
      i = end + 1;
    } else {
      let j = i;
      while (j < s.length && s[j] !== "." && s[j] !== " " && s[j] !== "\t") j++;
      parts.push(s.slice(i, j));
      i = j;
    }
    while (s[i] === " " || s[i] === "\t") i++;
    if (i < s.length) {
      if (s[i] !== ".") return null;
      i++;
    }
  }
  return parts;
}

/** The key part of a `key = value` line (outside quotes), or null. */
function assignedKey(line: string): string | null {
  let q = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === q) q = "";
    } else if (c === '"' || c === "'") q = c;
    else if (c === "=") return line.slice(0, i);
    else if (c === "#") return null;
  }
  return null;
}

/**
 * The 1-based line where `path` (e.g. ["font", "size"], or ["keys"] for a
 * table) is defined in `text`, or undefined.
 */
export function findKeyLine(text: string, path: string[]): number | undefined {
  const want = path.join("\u0000");
  let table: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[\[?([^\]]+)\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      table = keyParts(header[1]) ?? [];
      if (table.join("\u0000") === want) return n + 1;
      continue;
    }
    const k = assignedKey(line);
    if (k === null) continue;
    const parts = keyParts(k);
    if (parts === null) continue;
    const full = [...table, ...parts];
    if (full.join("\u0000") === want) return n + 1;
    // A key inside an inline table or a dotted prefix: the nearest line.
    if (want.startsWith(full.join("\u0000") + "\u0000")) return n + 1;
  }
  return undefined;
}
