/**
 * The journals that can come back, as `domterm list --restorable` shows
 * them and `domterm restore` and `domterm forget` pick them: every
 * journal whose server no longer runs, numbered from 1 (oldest first),
 * those that cannot be read included (with their path and why).
 *
 * @module
 */
import type { JournalEntry } from "./reader.ts";
import { removeJournal, scanJournals } from "./reader.ts";
import { stopReason } from "./restore.ts";

/** One restorable journal, as `domterm list --restorable --json` prints it. */
export interface RestorableInfo {
  /** Its number in the list (what `restore N` and `forget N` take). */
  n: number;
  /** Its directory's name (also taken). */
  id: string;
  path: string;
  name: string | null;
  command: string[];
  cwd: string | null;
  cols: number;
  rows: number;
  /** When it started and when it stopped (ms since the epoch). */
  started: number;
  stopped: number;
  /** Why it stopped ("the server stopped": a crash). */
  reason: string;
  /** Whether the next server start restores it by itself. */
  auto: boolean;
  /** Why it cannot be restored, or null. */
  problem: string | null;
}

/** The journals of `root` that no running server owns, numbered. */
export async function restorableJournals(
  root: string,
): Promise<{ info: RestorableInfo; entry: JournalEntry }[]> {
  const all = (await scanJournals(root)).filter((e) => !e.live);
  return all.map((entry, i) => {
    const m = entry.meta;
    return {
      entry,
      info: {
        n: i + 1,
        id: entry.id,
        path: entry.dir,
        name: m?.name ?? null,
        command: m?.command ?? [],
        cwd: m?.cwd ?? null,
        cols: m?.cols ?? 0,
        rows: m?.rows ?? 0,
        started: m?.started ?? 0,
        stopped: entry.stoppedAt,
        reason: stopReason(entry),
        auto: m !== null && (m.ended === null || m.ended.auto),
        problem: entry.problem,
      },
    };
  });
}

/**
 * The journals `which` names: "all", a number of the list, a directory
 * name or a session name. Throws an Error when it names none.
 */
export function pickJournals<T extends { info: RestorableInfo }>(
  list: T[],
  which: string,
): T[] {
  if (which === "all") return list;
  const found = list.filter((j) =>
    String(j.info.n) === which || j.info.id === which || j.info.name === which
  );
  if (found.length === 0) {
    throw new Error(
      list.length === 0
        ? "there is nothing to restore"
        : `no restorable session ${which} (see 'domterm list --restorable')`,
    );
  }
  return found;
}

/** `domterm forget`: remove the journals `which` names; resolves with how many. */
export async function forgetJournals(
  root: string,
  which: string,
): Promise<number> {
  const picked = pickJournals(await restorableJournals(root), which);
  for (const j of picked) await removeJournal(j.entry);
  return picked.length;
}
