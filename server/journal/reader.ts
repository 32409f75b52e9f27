/**
 * Reading the journals back: {@link scanJournals} lists them (meta only,
 * cheap: for `domterm list --restorable` and the server's start) and
 * {@link loadJournal} rebuilds a session's model from one (the newest
 * snapshot that reads back, then the segments after it). Nothing here
 * throws for a bad journal: a scan says what is wrong with each one, and
 * a load throws a {@link JournalError} that the caller reports.
 *
 * @module
 */
import { join } from "node:path";
import type { Terminal } from "../../core/emulator/terminal.ts";
import { type BuiltTerminal, newBuiltTerminal } from "../emulator_host.ts";
import {
  checkMeta,
  decodeRecords,
  fileOffset,
  JournalError,
  type JournalMeta,
} from "./format.ts";
import { unsafeJournalPath } from "./paths.ts";
import { serverAlive } from "./liveness.ts";

export { JournalError } from "./format.ts";

/** Written into a journal that failed to load: why (shown by `list --restorable`). */
export const PROBLEM_FILE = "problem.txt";
/** Largest journal file read, bytes. */
const MAX_FILE_BYTES = 1 << 30;

/** One journal as a scan finds it. */
export interface JournalEntry {
  /** Its directory's name (what `domterm restore` and `forget` also take). */
  id: string;
  dir: string;
  /** Null when it cannot be read (see `problem`). */
  meta: JournalMeta | null;
  /** Why it cannot be restored, or null. */
  problem: string | null;
  /** When the old session stopped: its end, else its newest file's time (ms since the epoch). */
  stoppedAt: number;
  /** Its server still runs: a live session's journal, not restorable. */
  live: boolean;
}

/** `path`'s info, checked: ours, private, no link. Throws a JournalError. */
async function checked(path: string): Promise<Deno.FileInfo> {
  const st = await Deno.lstat(path);
  if (st.isSymlink) throw new JournalError(`${path} is a symbolic link`);
  const unsafe = unsafeJournalPath(st, path);
  if (unsafe !== null) throw new JournalError(unsafe);
  if (st.isFile && st.size > MAX_FILE_BYTES) {
    throw new JournalError(`${path} is larger than ${MAX_FILE_BYTES} bytes`);
  }
  return st;
}

/** A file of a journal, read after the checks of {@link checked}. */
async function readChecked(path: string): Promise<Uint8Array> {
  await checked(path);
  return await Deno.readFile(path);
}

/**
 * Every journal under `root`, oldest first (none when it does not exist).
 * A root that is not private gives one entry with the problem.
 */
export async function scanJournals(root: string): Promise<JournalEntry[]> {
  try {
    await checked(root);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    return [broken(root, root, (e as Error).message, 0)];
  }
  const out: JournalEntry[] = [];
  for await (const e of Deno.readDir(root)) {
    if (!/^\d{1,15}-\d{1,10}$/.test(e.name)) continue;
    out.push(await scanOne(root, e.name));
  }
  return out.sort((a, b) =>
    (a.meta?.started ?? 0) - (b.meta?.started ?? 0) || (a.id < b.id ? -1 : 1)
  );
}

function broken(
  id: string,
  dir: string,
  problem: string,
  stoppedAt: number,
): JournalEntry {
  return { id, dir, meta: null, problem, stoppedAt, live: false };
}

async function scanOne(root: string, id: string): Promise<JournalEntry> {
  const dir = join(root, id);
  let newest = 0;
  try {
    const st = await checked(dir);
    if (!st.isDirectory) throw new JournalError(`${dir} is not a directory`);
    newest = st.mtime?.getTime() ?? 0;
    for await (const f of Deno.readDir(dir)) {
      if (fileOffset(f.name) === null) continue;
      const fst = await Deno.lstat(join(dir, f.name)).catch(() => null);
      newest = Math.max(newest, fst?.mtime?.getTime() ?? 0);
    }
    const text = new TextDecoder().decode(
      await readChecked(join(dir, "meta.json")),
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new JournalError("meta.json is not JSON");
    }
    const meta = checkMeta(parsed);
    if (typeof meta === "string") throw new JournalError(meta);
    const problem = await Deno.readTextFile(join(dir, PROBLEM_FILE)).then(
      (t) => t.trim() || "it failed to load",
      () => null,
    );
    return {
      id,
      dir,
      meta,
      problem,
      stoppedAt: meta.ended?.at ?? newest,
      live: meta.ended === null && serverAlive(meta.server),
    };
  } catch (e) {
    const message = e instanceof Deno.errors.NotFound
      ? "meta.json is missing"
      : (e as Error).message;
    return broken(id, dir, message, newest);
  }
}

/**
 * The model of `entry`'s session as it was when the server stopped: the
 * newest snapshot that reads back, then every segment after it without a
 * gap (a segment cut short by the crash: up to its last whole record).
 * Throws a {@link JournalError} when nothing can be rebuilt.
 */
export async function loadJournal(entry: JournalEntry): Promise<Terminal> {
  return (await loadBuiltJournal(entry)).terminal;
}

/**
 * {@link loadJournal}'s model as a session's emulator takes it (parsed
 * once: a restored session starts from this very terminal).
 */
export async function loadBuiltJournal(
  entry: JournalEntry,
): Promise<BuiltTerminal> {
  const meta = entry.meta;
  if (meta === null) throw new JournalError(entry.problem ?? "no meta.json");
  const snaps: number[] = [];
  const segs = new Map<number, string>();
  for await (const f of Deno.readDir(entry.dir)) {
    const o = fileOffset(f.name);
    if (o?.kind === "snap") snaps.push(o.offset);
    else if (o?.kind === "out") segs.set(o.offset, f.name);
  }
  snaps.sort((a, b) => b - a);
  const scrollback = meta.scrollback ?? Infinity;
  let built: BuiltTerminal | null = null;
  let offset = 0;
  const failures: string[] = [];
  for (const at of snaps) {
    try {
      const text = new TextDecoder().decode(
        await readChecked(join(entry.dir, `snap-${at}.json`)),
      );
      built = newBuiltTerminal({ snapshot: text }, scrollback);
      offset = at;
      break;
    } catch (e) {
      failures.push(`snap-${at}.json: ${(e as Error).message}`);
    }
  }
  if (built === null) {
    if (snaps.length > 0 && !segs.has(0)) {
      throw new JournalError(`no snapshot reads back (${failures.join("; ")})`);
    }
    built = newBuiltTerminal(meta.initial, scrollback);
  }
  await replaySegments(entry.dir, segs, offset, built.terminal);
  return built;
}

/** Apply the segments from `offset` on to `term`, in order, until a gap. */
async function replaySegments(
  dir: string,
  segs: Map<number, string>,
  offset: number,
  term: Terminal,
): Promise<void> {
  while (segs.has(offset)) {
    const name = segs.get(offset)!;
    let seg;
    try {
      seg = decodeRecords(await readChecked(join(dir, name)));
    } catch (e) {
      throw new JournalError(`${name}: ${(e as Error).message}`);
    }
    for (const it of seg.items) {
      if (it instanceof Uint8Array) term.write(it);
      else if (it.clearHistory) term.normalBuffer.clearHistory();
      else term.resize(it.cols, it.rows);
    }
    if (seg.truncated || seg.bytes === 0) break;
    offset += seg.bytes;
  }
}

/** Note in `entry`'s directory why it failed to load, for `list --restorable`. */
export async function markBroken(
  entry: JournalEntry,
  reason: string,
): Promise<void> {
  await Deno.writeTextFile(join(entry.dir, PROBLEM_FILE), reason + "\n", {
    mode: 0o600,
  }).catch(() => {});
}

/** Remove `entry`'s journal. */
export async function removeJournal(entry: JournalEntry): Promise<void> {
  await Deno.remove(entry.dir, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
}
