/**
 * The line editor's history, per user and per program: one JSON file under
 * the user's data directory (`$XDG_DATA_HOME/domterm/history.json`, else
 * `~/.local/share/domterm/history.json`), shared by every window of this
 * server. Written atomically (a temporary file renamed over the old one);
 * each program's list is capped (oldest entries go first).
 *
 * @module
 */
import { addToHistory } from "../core/line_editor/editor.ts";
import { MAX_HISTORY_LINE } from "../core/protocol.ts";

/** Default number of entries kept per program. */
export const DEFAULT_HISTORY_CAP = 1000;

const FILE_VERSION = 1;

/** The history file's path for this environment. */
export function historyPath(env: (name: string) => string | undefined): string {
  const data = env("XDG_DATA_HOME") ||
    `${env("HOME") ?? "."}/.local/share`;
  return `${data}/domterm/history.json`;
}

/** One user's history: program name -> entries (oldest first). */
export class HistoryStore {
  #lists = new Map<string, string[]>();
  #revs = new Map<string, number>();
  #cap: number;
  #writing: Promise<void> = Promise.resolve();
  #log: (msg: string) => void;

  constructor(
    readonly path: string,
    cap = DEFAULT_HISTORY_CAP,
    log: (msg: string) => void = () => {},
  ) {
    this.#cap = cap;
    this.#log = log;
    this.#load();
  }

  #load(): void {
    let text: string;
    try {
      text = Deno.readTextFileSync(this.path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        this.#log(`history: cannot read ${this.path}: ${(e as Error).message}`);
      }
      return;
    }
    try {
      const o = JSON.parse(text);
      const programs = o?.programs;
      if (typeof programs !== "object" || programs === null) return;
      for (const [key, list] of Object.entries(programs)) {
        if (!Array.isArray(list)) continue;
        const lines = list.filter((l): l is string => typeof l === "string");
        this.#lists.set(key, lines.slice(-this.#cap));
      }
    } catch (e) {
      // A broken file is kept aside, not overwritten unseen.
      this.#log(
        `history: ${this.path} is not valid JSON (${
          (e as Error).message
        }); starting empty`,
      );
      try {
        Deno.renameSync(this.path, `${this.path}.broken`);
      } catch { /* nothing more to do */ }
    }
  }

  /** Sets the number of entries kept per program (the settings' history cap). */
  setCap(cap: number): void {
    if (!Number.isInteger(cap) || cap < 0) {
      throw new RangeError(`history cap must be a whole number >= 0: ${cap}`);
    }
    this.#cap = cap;
    for (const [k, l] of this.#lists) {
      if (l.length > cap) this.#lists.set(k, l.slice(l.length - cap));
    }
  }

  /** The entries for a program, oldest first. */
  get(key: string): string[] {
    return this.#lists.get(key) ?? [];
  }

  /** Changes each time the program's list changes (windows cache by it). */
  revision(key: string): number {
    return this.#revs.get(key) ?? 0;
  }

  /** Adds a line to a program's history and writes the file. */
  add(key: string, line: string): void {
    if (line.length > MAX_HISTORY_LINE || this.#cap === 0) return;
    const before = this.get(key);
    const after = addToHistory(before, line, this.#cap);
    if (after === before) return;
    this.#lists.set(key, after);
    this.#revs.set(key, this.revision(key) + 1);
    this.#save();
  }

  /** Waits for pending writes (tests, shutdown). */
  flush(): Promise<void> {
    return this.#writing;
  }

  #save(): void {
    this.#writing = this.#writing.then(async () => {
      const programs = Object.fromEntries(this.#lists);
      const text = JSON.stringify({ version: FILE_VERSION, programs });
      const dir = this.path.slice(0, this.path.lastIndexOf("/"));
      const tmp = `${this.path}.${Deno.pid}.tmp`;
      try {
        await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
        await Deno.writeTextFile(tmp, text, { mode: 0o600 });
        await Deno.rename(tmp, this.path);
      } catch (e) {
        this.#log(
          `history: cannot write ${this.path}: ${(e as Error).message}`,
        );
      }
    });
  }
}

let store: HistoryStore | null = null;

/** The server's history store (made on first use from the environment). */
export function historyStore(log?: (msg: string) => void): HistoryStore {
  store ??= new HistoryStore(
    historyPath((n) => Deno.env.get(n)),
    DEFAULT_HISTORY_CAP,
    log,
  );
  return store;
}

/** Replaces the server's history store (tests point it at a temporary file). */
export function setHistoryStore(s: HistoryStore): void {
  store = s;
}

/** Sets the history cap (for the settings file; see docs/input-modes.md). */
export function setHistoryCap(cap: number): void {
  historyStore().setCap(cap);
}
