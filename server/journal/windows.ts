/**
 * The top-level windows' layouts, journaled beside the sessions' journals
 * so that a restore after a crash, a logout or a reboot brings each
 * session back where it was: `windows-<pid>.json` under the journal root,
 * one file per server, rewritten whole (0600, a temporary file renamed
 * over it) within {@link WRITE_DELAY_MS} of every change of a window. It
 * holds each window's layout (server/windows/registry.ts `layouts()`) and,
 * for each session a layout shows, the name of that session's journal
 * directory: a restore maps old sessions to the new ones through it.
 *
 * At the next start ({@link restoreWindows}), after the sessions: every
 * such file whose server no longer runs is read, each window's panes get
 * their restored sessions (panes whose session did not come back leave
 * the layout), the windows are made again with the same shape, and the
 * file is removed. A file that cannot be read is reported with its path
 * and set aside (`.broken`): the sessions come back anyway, each in a
 * window of its own.
 *
 * @module
 */
import { basename, join } from "node:path";
import {
  type Layout,
  panes,
  parseLayout,
  removeSession,
  sessionsOf,
} from "../../core/layout.ts";
import type { SavedWindow, WindowRegistry } from "../windows/registry.ts";
import type { TopWindow } from "../windows/top_window.ts";
import type { JournalServer } from "./format.ts";
import { serverAlive, thisServer } from "./liveness.ts";
import { privateDir, unsafeJournalPath, writeAtomic } from "./paths.ts";

/** The file's format version; another is reported and set aside. */
export const WINDOWS_VERSION = 1;
/** How long a change waits for the next before the file is written (ms). */
export const WRITE_DELAY_MS = 200;
/** Largest windows file read (bytes). */
const MAX_BYTES = 4 << 20;

/** What a windows file holds. */
export interface WindowsFile {
  v: typeof WINDOWS_VERSION;
  server: JournalServer;
  windows: SavedWindow[];
  /** Session number (as a string) -> the name of its journal's directory. */
  journals: Record<string, string>;
}

/** The windows file of server process `pid`. */
export function windowsFileName(pid = Deno.pid): string {
  return `windows-${pid}.json`;
}

const FILE_RE = /^windows-\d{1,10}\.json$/;

/**
 * Keeps this server's windows file: every change of `windows` is written
 * (coalesced); `journalOf` names a session's journal directory (none: its
 * panes are not kept).
 */
export class WindowsJournal {
  readonly path: string;
  readonly #root: string;
  readonly #windows: WindowRegistry;
  readonly #journalOf: (session: number) => string | undefined;
  readonly #log: (message: string) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #chain: Promise<void> = Promise.resolve();
  #stopped = false;
  #failed = false;

  constructor(
    root: string,
    windows: WindowRegistry,
    journalOf: (session: number) => string | undefined,
    log: (message: string) => void,
  ) {
    this.#root = root;
    this.path = join(root, windowsFileName());
    this.#windows = windows;
    this.#journalOf = journalOf;
    this.#log = log;
    const before = windows.onChange;
    windows.onChange = () => {
      before?.();
      this.#schedule();
    };
    this.#schedule();
  }

  /** Resolves once the windows as they are now are on disk. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#stopped) this.#enqueue(() => this.#write());
    return this.#chain;
  }

  /**
   * Stop following the windows: with `keep` (the server stops under its
   * sessions, whose journals are kept) the file stays as it is now, else
   * it is removed.
   */
  async stop(keep: boolean): Promise<void> {
    if (keep) await this.flush();
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!keep) this.#enqueue(() => this.#remove());
    await this.#chain;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#enqueue(() => this.#write());
    }, WRITE_DELAY_MS);
  }

  #enqueue(fn: () => Promise<void>): void {
    this.#chain = this.#chain.then(fn).catch((e) => {
      if (this.#failed) return;
      this.#failed = true; // said once; later writes may still succeed
      this.#log(`windows journal ${this.path}: ${(e as Error).message}`);
    });
  }

  /** The file's contents now; null when no window has a journaled session. */
  #contents(): WindowsFile | null {
    const journals: Record<string, string> = {};
    const windows = this.#windows.layouts().filter((w) => {
      let kept = false;
      for (const s of sessionsOf(w.layout)) {
        const dir = this.#journalOf(s);
        if (dir !== undefined) {
          journals[String(s)] = dir;
          kept = true;
        }
      }
      return kept;
    });
    if (windows.length === 0) return null;
    return { v: WINDOWS_VERSION, server: thisServer(), windows, journals };
  }

  async #write(): Promise<void> {
    const contents = this.#contents();
    if (contents === null) return await this.#remove();
    await privateDir(this.#root);
    await writeAtomic(this.path, JSON.stringify(contents));
    this.#failed = false;
  }

  async #remove(): Promise<void> {
    await Deno.remove(this.path).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
  }
}

/** `value` as a windows file, or why it is not one. */
export function checkWindowsFile(value: unknown): WindowsFile | string {
  const o = value as WindowsFile;
  if (typeof o !== "object" || o === null) return "not an object";
  if (o.v !== WINDOWS_VERSION) {
    return `version ${JSON.stringify(o.v)} is not ${WINDOWS_VERSION}`;
  }
  if (typeof o.server !== "object" || o.server === null) return "no server";
  if (!Array.isArray(o.windows)) return "no windows";
  if (typeof o.journals !== "object" || o.journals === null) {
    return "no journals";
  }
  for (const w of o.windows) {
    if (typeof w !== "object" || w === null || !Number.isSafeInteger(w.id)) {
      return "a window without a number";
    }
  }
  return o;
}

/**
 * `layout` with each pane showing the session its old session became
 * (`map`: old -> new), the panes of sessions that did not come back left
 * out; null when none did. Throws a LayoutError when it is malformed.
 */
export function remapLayout(
  value: unknown,
  map: ReadonlyMap<number, number>,
): Layout | null {
  let layout: Layout | null = parseLayout(value);
  for (const old of sessionsOf(layout)) {
    if (!map.has(old) && layout !== null) layout = removeSession(layout, old);
  }
  if (layout === null) return null;
  const out = structuredClone(layout);
  for (const p of panes(out)) p.session = map.get(p.session)!;
  return out;
}

/** The windows files under `root` whose server no longer runs. */
async function deadFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(root)) {
      if (e.isFile && FILE_RE.test(e.name)) out.push(join(root, e.name));
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return out.sort();
}

/** Read and check one windows file; throws an Error saying what is wrong. */
async function readWindowsFile(path: string): Promise<WindowsFile> {
  const st = await Deno.lstat(path);
  if (st.isSymlink) throw new Error("it is a symbolic link");
  const unsafe = unsafeJournalPath(st, path);
  if (unsafe !== null) throw new Error(unsafe);
  if (st.size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await Deno.readTextFile(path));
  } catch {
    throw new Error("not JSON");
  }
  const file = checkWindowsFile(parsed);
  if (typeof file === "string") throw new Error(file);
  return file;
}

/**
 * Bring the windows of dead servers back into `windows`, after their
 * sessions: `restored` maps a journal directory's name to the session
 * restored from it. A window keeps its number when it is free. Returns
 * the windows made, oldest first.
 */
export async function restoreWindows(
  root: string,
  windows: WindowRegistry,
  restored: ReadonlyMap<string, number>,
  log: (message: string) => void,
): Promise<TopWindow[]> {
  const made: TopWindow[] = [];
  for (const path of await deadFiles(root)) {
    let file: WindowsFile;
    try {
      file = await readWindowsFile(path);
    } catch (e) {
      log(
        `windows journal ${path}: ${
          (e as Error).message
        }; its layouts are not restored`,
      );
      await Deno.rename(path, `${path}.broken`).catch(() => {});
      continue;
    }
    if (serverAlive(file.server)) continue;
    const map = new Map<number, number>();
    for (const [old, dir] of Object.entries(file.journals)) {
      const now = restored.get(basename(String(dir)));
      if (now !== undefined && /^\d+$/.test(old)) map.set(Number(old), now);
    }
    made.push(...restoreFrom(path, file, windows, map, log));
    await Deno.remove(path).catch(() => {});
  }
  return made;
}

/** The windows of `file` whose sessions came back (`map`), made in `windows`. */
function restoreFrom(
  path: string,
  file: WindowsFile,
  windows: WindowRegistry,
  map: ReadonlyMap<number, number>,
  log: (message: string) => void,
): TopWindow[] {
  const saved: SavedWindow[] = [];
  let next = Math.max(0, ...windows.all().map((w) => w.id)) + 1;
  for (const w of file.windows) {
    let layout: Layout | null;
    try {
      layout = remapLayout(w.layout, map);
    } catch (e) {
      log(`windows journal ${path}: window ${w.id}: ${(e as Error).message}`);
      continue;
    }
    if (layout === null) continue; // none of its sessions came back
    const free = w.id >= 1 && !windows.get(w.id) &&
      !saved.some((s) => s.id === w.id);
    const id = free ? w.id : next;
    next = Math.max(next, id) + 1;
    saved.push({
      id,
      name: typeof w.name === "string" ? w.name : null,
      layout,
    });
  }
  for (const p of windows.restore(saved)) {
    log(`windows journal ${path}: ${p}`);
  }
  return saved.map((s) => windows.get(s.id)).filter((w) => w !== undefined);
}
