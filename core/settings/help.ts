/**
 * The settings as text: the section of `domterm --help` and the table of
 * docs/settings.md, both made from the schema so they cannot go stale.
 *
 * @module
 */
import { allowedText, defaultText, SETTINGS } from "./schema.ts";

/** The "Settings" section of `domterm --help`: every key with its default. */
export function settingsHelp(): string {
  const lines = [
    "Settings (~/.config/domterm/settings.toml, or $XDG_CONFIG_HOME/domterm/;",
    "a change applies to open windows at once; see docs/settings.md):",
  ];
  for (const s of SETTINGS) {
    const head = `  ${s.key} = ${defaultText(s)}`;
    lines.push(head);
    lines.push(
      ...wrap(`${s.description}${s.option ? ` (${s.option})` : ""}`, 70).map(
        (l) => `      ${l}`,
      ),
    );
  }
  return lines.join("\n") + "\n";
}

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const w of text.split(" ")) {
    if (line && line.length + 1 + w.length > width) {
      out.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  return out;
}

/** The Markdown table of docs/settings.md (between its marker comments). */
export function settingsTable(): string {
  const esc = (t: string) => t.replace(/\|/g, "\\|");
  const rows = [
    "| key | default | allowed | applies to | description |",
    "| --- | --- | --- | --- | --- |",
  ];
  const where = {
    page: "open windows, at once",
    server: "new sessions, windows, clicks",
    start: "the next server start",
  };
  for (const s of SETTINGS) {
    rows.push(
      `| \`${s.key}\` | \`${esc(defaultText(s))}\` | ${esc(allowedText(s))} | ${
        where[s.appliesTo]
      } | ${esc(s.description)}${
        s.option ? ` (option \`${s.option}\`)` : ""
      } |`,
    );
  }
  return rows.join("\n") + "\n";
}
