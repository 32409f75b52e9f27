/**
 * Where the journals live: `$XDG_STATE_HOME/domterm/journal/` (default
 * `~/.local/state/domterm/journal/`), beside the detached server's
 * `server.log` (server/daemon.ts). Every directory is made 0700 and every
 * file 0600 whatever the umask; a directory or file another user owns, or
 * that others may read or write, is refused (a journal holds a session's
 * output and the command a restore runs).
 *
 * @module
 */
import { join } from "node:path";

/** The state directory: `$XDG_STATE_HOME/domterm`, else `~/.local/state/domterm`. */
export function stateDir(
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): string {
  const state = env("XDG_STATE_HOME") ||
    join(env("HOME") ?? "/tmp", ".local", "state");
  return join(state, "domterm");
}

/** The directory of every session's journal. */
export function journalRoot(
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): string {
  return join(stateDir(env), "journal");
}

/**
 * Why `path` (a directory or file of the journals) must not be used, or
 * null: another user owns it, or others may read or write it.
 */
export function unsafeJournalPath(
  info: Deno.FileInfo,
  path: string,
): string | null {
  const me = Deno.uid();
  if (me === null || info.uid === null || info.mode === null) return null;
  if (info.uid !== me) {
    return `${path} is owned by another user (uid ${info.uid})`;
  }
  if ((info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
    return `${path} is open to other users (mode ${mode})`;
  }
  return null;
}

/**
 * Make `dir` (and its parents) 0700 and check it: ours and private (a
 * directory of ours that is open to others is closed, as the runtime
 * directory is). Throws an Error saying why it cannot be used.
 */
export async function privateDir(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await Deno.lstat(dir);
  if (!st.isDirectory) throw new Error(`${dir} is not a directory`);
  const me = Deno.uid();
  if (me !== null && st.uid !== null && st.uid !== me) {
    throw new Error(`${dir} is owned by another user (uid ${st.uid})`);
  }
  if (st.mode !== null && (st.mode & 0o077) !== 0) await Deno.chmod(dir, 0o700);
}

/**
 * Write `text` to `path` whole or not at all: a 0600 temporary file beside
 * it, synced, then renamed over it.
 */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp`;
  const file = await Deno.open(tmp, {
    write: true,
    create: true,
    truncate: true,
    mode: 0o600,
  });
  try {
    const data = new TextEncoder().encode(text);
    let at = 0;
    while (at < data.length) at += await file.write(data.subarray(at));
    await file.syncData();
  } finally {
    file.close();
  }
  await Deno.rename(tmp, path);
}
