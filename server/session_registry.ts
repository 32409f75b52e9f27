/**
 * The server's sessions: the one place that makes them (from the server's
 * options and the settings), numbers them, finds them by number or name,
 * lists them and closes them. Windows (server/window_connection.ts), the
 * control socket (server/session_control.ts) and the ssh hosts
 * (server/ssh/) all go through it. Sessions on other hosts
 * ({@link RemoteSessions}) share its numbers.
 *
 * @module
 */
import { Session, type SessionCarry, type SessionOptions } from "./session.ts";
import type { Pty } from "./pty/pty.ts";
import type { GraphemeSetting } from "../core/emulator/modes.ts";
import type { SettingsStore } from "./settings/file.ts";
import { WindowSettings } from "./settings/windows.ts";
import { checkAfterOutput } from "./line_input.ts";
import { RemoteSessions } from "./ssh/remote_sessions.ts"; // ssh hosts
import { JournalWriter } from "./journal/writer.ts";
import type { BuiltTerminal } from "./emulator_host.ts";
import { thisServer } from "./journal/liveness.ts";
import { JOURNAL_VERSION } from "./journal/format.ts";

/** How the registry makes sessions (see `ServerOptions` in http.ts). */
export interface RegistryOptions {
  /** The program each new session runs, and its arguments. */
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  shellIntegration?: boolean;
  highWater?: number;
  lowWater?: number;
  /** History lines of new sessions; default: the settings'. */
  scrollback?: number | null;
  detachedTimeoutMs?: number;
  replayBytes?: number;
  closeGraceMs?: number;
  /**
   * Whether a page that shows session `id` is connected (a window channel
   * whose layout has it): a session that lost its last window waits for
   * that page to attach instead of ending (see Session's `awaited`).
   */
  awaited?: (id: number) => boolean;
  /** New sessions run the settings' `shell` when it is set. */
  shellFromSettings?: boolean;
  /** Called when the last session has ended (after at least one started). */
  onIdle?: () => void;
  /** Called when session `id` has ended (after it left the registry). */
  onEnded?: (id: number) => void;
  /**
   * Keep each new session's journal under this directory (the `journal`
   * setting can turn it off; server/journal/); absent: no journals.
   */
  journalRoot?: string;
  /** Where journal problems are said (default: console.error). */
  log?: (message: string) => void;
}

/** Where a new session starts, and what it is called. */
export interface NewSessionExtra {
  cwd?: string;
  name?: string;
  /** The colours its colour queries answer at first (the window's that starts it). */
  colors?: SessionOptions["colors"];
  /** false: no journal for it (`domterm new --no-journal`). */
  journal?: boolean;
  /** The model it starts from (a restored session's, JSON: for its journal too). */
  initialSnapshot?: string;
  /** The same model, built already (the session's emulator takes it as it is). */
  initialTerminal?: BuiltTerminal;
  /** The command its journal records, when it runs another (a restore's prompt before it). */
  journalCommand?: string[];
}

/** How the sessions' journals end when the server stops under them (see closeAll). */
export type JournalStop = { reason: string; auto: boolean };

/** The server's sessions. */
export class SessionRegistry {
  readonly #sessions = new Map<number, Session>();
  readonly #options: RegistryOptions;
  #nextId = 1;
  /** The settings of the windows (the file's and each session's). */
  readonly settings: WindowSettings;
  /** Sessions on other hosts (`domterm user@host`). */
  readonly remotes: RemoteSessions; // ssh hosts
  /** Each journaled session's journal. */
  readonly #journals = new Map<number, JournalWriter>();
  /** Set while the server stops: the journals are kept, with this end. */
  #stopping: JournalStop | null = null;
  /** Journals being finished (closeAll waits for them). */
  readonly #journalEnds = new Set<Promise<void>>();

  constructor(options: RegistryOptions, store: SettingsStore) {
    this.#options = options;
    this.settings = new WindowSettings(store, () => this.#sessions.values());
    this.remotes = new RemoteSessions(() => this.#nextId++, () => { // ssh hosts
      if (this.#sessions.size === 0) options.onIdle?.(); // ssh hosts
    }, (id) => options.onEnded?.(id)); // ssh hosts
  }

  /**
   * The colours a window last said it shows (any session's): a session
   * started without a window (`domterm new`) answers colour queries with
   * them until a window of its own says.
   */
  #lastColors: SessionOptions["colors"];

  /** A window (not read-only) said it shows `colors`. */
  noteColors(colors: NonNullable<SessionOptions["colors"]>): void {
    const { foreground, background, cursor, palette } = colors;
    this.#lastColors = { foreground, background, cursor, palette };
  }

  /** The local sessions by number (ended ones leave it). */
  get sessions(): ReadonlyMap<number, Session> {
    return this.#sessions;
  }

  /** The history lines of new sessions: the option's, else the settings'. */
  scrollback(): number | null {
    return this.#options.scrollback === undefined
      ? this.settings.store.current.scrollback as number | null
      : this.#options.scrollback;
  }

  /** The command line of a new session that names none. */
  defaultCommand(): string[] {
    const shell = this.settings.store.current.shell as string[];
    return this.#options.shellFromSettings && shell.length
      ? shell
      : [this.#options.command, ...this.#options.args];
  }

  /**
   * Start a session (`domterm new`, or a window's hello without a session).
   * Throws a readable Error when its program cannot be started.
   */
  create(
    command: string[] = this.defaultCommand(),
    size = { cols: 80, rows: 24 },
    extra: NewSessionExtra = {},
  ): Session {
    const o = this.#options;
    const id = this.#nextId++;
    const s = Session.start({
      id,
      command: command[0],
      args: command.slice(1),
      cols: size.cols,
      rows: size.rows,
      graphemeClusters: this.settings.store
        .current["grapheme-clusters"] as GraphemeSetting,
      env: o.env,
      cwd: extra.cwd ?? o.cwd,
      name: extra.name,
      colors: extra.colors ?? this.#lastColors,
      shellIntegration: o.shellIntegration,
      initialSnapshot: extra.initialTerminal ?? extra.initialSnapshot,
      ...this.#sessionOptions(() => s),
    });
    this.#add(s);
    if (extra.journal !== false) {
      this.#startJournal(s, extra.journalCommand ?? command, extra);
    }
    return s;
  }

  /** What every session gets from the registry; `s` is the session made. */
  #sessionOptions(s: () => Session) {
    const o = this.#options;
    return {
      scrollback: this.scrollback() ?? Infinity,
      highWater: o.highWater,
      lowWater: o.lowWater,
      detachedTimeoutMs: o.detachedTimeoutMs,
      replayBytes: o.replayBytes,
      closeGraceMs: o.closeGraceMs,
      awaited: () => o.awaited?.(s().id) ?? false,
      onSettings: (json: string) => this.settings.setFromProgram(s(), json),
      afterOutput: () => checkAfterOutput(s()),
    };
  }

  /**
   * Take over a session an earlier server handed over (`domterm
   * restart-server`, server/handover/), on its adopted PTY, with its number.
   */
  adopt(carried: SessionCarry, pty: Pty): Session {
    const s = Session.adopt(
      {
        id: carried.id,
        command: carried.command[0],
        args: carried.command.slice(1),
        cols: carried.cols,
        rows: carried.rows,
        name: carried.name ?? undefined,
        colors: carried.colors ?? undefined,
        ...this.#sessionOptions(() => s),
      },
      pty,
      carried,
    );
    this.#nextId = Math.max(this.#nextId, carried.id + 1);
    this.#add(s);
    // A journal of its own here (the old server removes its journals once
    // this one has taken over: see handedOver).
    this.#startJournal(s, carried.command, {});
    return s;
  }

  /** The number the next session gets (to hand it to the next server). */
  get nextId(): number {
    return this.#nextId;
  }
  set nextId(id: number) {
    this.#nextId = Math.max(this.#nextId, id);
  }

  #add(s: Session): void {
    const id = s.id;
    this.#sessions.set(id, s);
    s.setTitleReports(this.settings.effective(id)["title-reporting"] === true);
    s.finished.finally(() => this.#ended(id));
  }

  /** Keep `s`'s journal, if journals are kept (the option and the `journal` setting). */
  #startJournal(s: Session, command: string[], extra: NewSessionExtra): void {
    const root = this.#options.journalRoot;
    const settings = this.settings.store.current;
    if (root === undefined || settings.journal !== true) return;
    const scrollback = this.scrollback();
    const now = Date.now();
    const journal = new JournalWriter(root, {
      v: JOURNAL_VERSION,
      session: s.id,
      name: s.name,
      command,
      cwd: extra.cwd ?? this.#options.cwd ?? Deno.cwd(),
      cols: s.cols,
      rows: s.rows,
      initial: { cols: s.cols, rows: s.rows },
      scrollback,
      started: now,
      server: thisServer(),
      ended: null,
    }, {
      pid: s.pid,
      snapshot: () => s.snapshot(),
    }, {
      lines: settings["journal-lines"] as number | null,
      log: this.#options.log ?? ((m) => console.error(`domterm: ${m}`)),
      initialSnapshot: extra.initialSnapshot,
    });
    s.setJournal(journal);
    this.#journals.set(s.id, journal);
  }

  /**
   * Every session went to the next server (`domterm restart-server`),
   * which keeps journals of its own: these are removed, so that no later
   * server restores a session that still runs.
   */
  async handedOver(): Promise<void> {
    const ends = [...this.#journals.values()].map((j) => j.end(null));
    this.#journals.clear();
    await Promise.all(ends);
  }

  /** Session `id`'s journal, if it has one. */
  journal(id: number): JournalWriter | undefined {
    return this.#journals.get(id);
  }

  /** Where the journals are kept (undefined: they are not). */
  get journalRoot(): string | undefined {
    return this.#options.journalRoot;
  }

  /** Resolves once `s`'s journal has written what it was given (at once without one). */
  async journalSettled(s: Session): Promise<void> {
    await this.#journals.get(s.id)?.settled();
  }

  /** The `restore.commands` setting. */
  restoreCommands(): "ask" | "never" {
    return this.settings.store.current["restore.commands"] === "never"
      ? "never"
      : "ask";
  }

  #ended(id: number): void {
    const journal = this.#journals.get(id);
    if (journal) {
      this.#journals.delete(id);
      // Ended for good: forgotten; the server stopping under it: kept.
      const stop = this.#stopping;
      const end = journal.end(
        stop && { at: Date.now(), reason: stop.reason, auto: stop.auto },
      );
      this.#journalEnds.add(end);
      end.finally(() => this.#journalEnds.delete(end));
    }
    this.#sessions.delete(id);
    this.settings.forget(id);
    this.#options.onEnded?.(id);
    if (this.#sessions.size === 0 && this.remotes.size === 0) { // ssh hosts
      this.#options.onIdle?.();
    }
  }

  /** Session `id`, if it is here. */
  get(id: number): Session | undefined {
    return this.#sessions.get(id);
  }

  /** A session by number (or a string of digits) or name; null when none. */
  find(ref: number | string): Session | null {
    if (typeof ref === "number" || /^\d+$/.test(ref)) {
      return this.#sessions.get(Number(ref)) ?? null;
    }
    for (const s of this.#sessions.values()) if (s.name === ref) return s;
    return null;
  }

  /** The sessions whose program still runs. */
  running(): Session[] {
    return [...this.#sessions.values()].filter((s) => !s.exitStatus);
  }

  /**
   * End every session (the server is stopping); the remote ones go on
   * there. With `keep`, their journals are kept for a restore (with its
   * reason; `auto`: at the next server start); without, they go.
   */
  async closeAll(reason?: string, keep?: JournalStop): Promise<void> {
    this.#stopping = keep ?? null;
    this.remotes.closeAll(); // ssh hosts
    await Promise.all(
      [...this.#sessions.values()].map((s) => s.close(reason)),
    );
    while (this.#journalEnds.size > 0) {
      await Promise.all([...this.#journalEnds]);
    }
  }
}
