/**
 * `domterm list --restorable`, `domterm restore N|all` and `domterm forget
 * N|all`: the sessions that can come back from their journals
 * (server/journal/, docs/persistence.md). Listing and forgetting read the
 * journal directory here, with or without a server (a live server's own
 * journals are never listed); restoring asks the running server.
 *
 * @module
 */
import { flag, type ParsedArgs } from "../cli/parse.ts";
import { CommandError } from "../cli/errors.ts";
import { journalRoot } from "../journal/paths.ts";
import {
  forgetJournals,
  type RestorableInfo,
  restorableJournals,
} from "../journal/restorable.ts";
import { shellWords, stoppedAtText } from "../journal/restore.ts";
import { ask } from "./sessions.ts";

/** The table `domterm list --restorable` prints. */
export function formatRestorable(
  list: RestorableInfo[],
  now = Date.now(),
): string {
  if (list.length === 0) return "nothing to restore";
  const rows = [[
    "#",
    "NAME",
    "SIZE",
    "STOPPED",
    "WHY",
    "DIRECTORY",
    "COMMAND",
  ]];
  const problems: string[] = [];
  for (const j of list) {
    if (j.problem !== null) {
      problems.push(`${j.n}: ${j.path}: ${j.problem}`);
      continue;
    }
    rows.push([
      String(j.n),
      j.name ?? "-",
      `${j.cols}x${j.rows}`,
      stoppedAtText(j.stopped, now),
      `${j.reason}${j.auto ? "" : " (restore by hand)"}`,
      j.cwd ?? "-",
      shellWords(j.command),
    ]);
  }
  const widths = rows[0].map((_, i) =>
    Math.max(...rows.map((r) => r[i].length))
  );
  const table = rows.length > 1
    ? rows.map((r) =>
      r.map((c, i) => i === r.length - 1 ? c : c.padEnd(widths[i])).join("  ")
    ).join("\n")
    : "";
  const bad = problems.length
    ? `cannot be restored (forget them, or look at them):\n${
      problems.join("\n")
    }`
    : "";
  return [table, bad].filter((t) => t !== "").join("\n");
}

/** `domterm list --restorable [--json]`. */
export async function listRestorable(a: ParsedArgs): Promise<number> {
  const list = (await restorableJournals(journalRoot())).map((j) => j.info);
  console.log(
    flag(a, "json") ? JSON.stringify(list, null, 2) : formatRestorable(list),
  );
  return 0;
}

/** `domterm restore N|NAME|all`. */
export async function restore(a: ParsedArgs): Promise<number> {
  const res = await ask({ op: "restore", which: a.operands[0] });
  for (const p of res.problems ?? []) {
    console.error(`domterm restore: not restored: ${p}`);
  }
  const ids = res.restored ?? [];
  console.log(
    `restored as session${ids.length > 1 ? "s" : ""} ${ids.join(", ")}` +
      ` ('domterm attach N' opens a window)`,
  );
  return res.problems?.length ? 1 : 0;
}

/** `domterm forget N|NAME|all`. */
export async function forget(a: ParsedArgs): Promise<number> {
  let n: number;
  try {
    n = await forgetJournals(journalRoot(), a.operands[0]);
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
  console.error(`domterm: forgot ${n} session${n === 1 ? "" : "s"}`);
  return 0;
}
