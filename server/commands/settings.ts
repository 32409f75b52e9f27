/**
 * `domterm settings [key=value...]`: inside a session, set settings for
 * that session's windows (over the settings file's, until the session
 * ends); with no arguments, print the settings in force.
 *
 * @module
 */
import { type ParsedArgs, text } from "../cli/parse.ts";
import { UsageError } from "../cli/errors.ts";
import { ask, ownSession } from "./sessions.ts";
import { parseAssignments } from "../../core/settings/validate.ts";
import { SETTINGS } from "../../core/settings/schema.ts";

/** The settings as `key = value` lines, in schema order (values as JSON, which TOML reads too). */
export function formatSettings(s: Record<string, unknown>): string {
  return SETTINGS.map((spec) => {
    const v = s[spec.key];
    const text = v === null && spec.word ? `"${spec.word}"` : JSON.stringify(v);
    return `${spec.key} = ${text}`;
  }).join("\n");
}

/** `domterm settings`. */
export async function settingsCommand(a: ParsedArgs): Promise<number> {
  const named = text(a, "session");
  const session = named !== undefined
    ? (/^\d+$/.test(named) ? Number(named) : named)
    : ownSession();
  if (session === null) {
    throw new UsageError(
      "not inside a domterm session: name one with --session",
    );
  }
  let set: Record<string, unknown> | undefined;
  if (a.operands.length) {
    const parsed = parseAssignments([...a.operands]);
    if (typeof parsed === "string") throw new UsageError(parsed);
    set = parsed;
  }
  const res = await ask(
    set ? { op: "settings", session, set } : { op: "settings", session },
  );
  if (!set) {
    console.log(formatSettings(res.settings ?? {}));
    for (const p of res.problems ?? []) console.error(`domterm: ${p}`);
  }
  return 0;
}
