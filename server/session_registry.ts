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
import { Session, type SessionOptions } from "./session.ts";
import type { SettingsStore } from "./settings/file.ts";
import { WindowSettings } from "./settings/windows.ts";
import { checkAfterOutput } from "./line_input.ts";
import { RemoteSessions } from "./ssh/remote_sessions.ts"; // ssh hosts

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
  /** New sessions run the settings' `shell` when it is set. */
  shellFromSettings?: boolean;
  /** Called when the last session has ended (after at least one started). */
  onIdle?: () => void;
  /** Called when session `id` has ended (after it left the registry). */
  onEnded?: (id: number) => void;
}

/** Where a new session starts, and what it is called. */
export interface NewSessionExtra {
  cwd?: string;
  name?: string;
  /** The colours its colour queries answer at first (the window's that starts it). */
  colors?: SessionOptions["colors"];
}

/** The server's sessions. */
export class SessionRegistry {
  readonly #sessions = new Map<number, Session>();
  readonly #options: RegistryOptions;
  #nextId = 1;
  /** The settings of the windows (the file's and each session's). */
  readonly settings: WindowSettings;
  /** Sessions on other hosts (`domterm user@host`). */
  readonly remotes: RemoteSessions; // ssh hosts

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
  #defaultCommand(): string[] {
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
    command: string[] = this.#defaultCommand(),
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
      scrollback: this.scrollback() ?? Infinity,
      env: o.env,
      cwd: extra.cwd ?? o.cwd,
      name: extra.name,
      colors: extra.colors ?? this.#lastColors,
      shellIntegration: o.shellIntegration,
      highWater: o.highWater,
      lowWater: o.lowWater,
      detachedTimeoutMs: o.detachedTimeoutMs,
      replayBytes: o.replayBytes,
      closeGraceMs: o.closeGraceMs,
      onSettings: (json) => this.settings.setFromProgram(s, json),
      afterOutput: () => checkAfterOutput(s),
    });
    this.#sessions.set(id, s);
    s.setTitleReports(this.settings.effective(id)["title-reporting"] === true);
    s.finished.finally(() => this.#ended(id));
    return s;
  }

  #ended(id: number): void {
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

  /** End every session (the server is stopping); the remote ones go on there. */
  async closeAll(reason?: string): Promise<void> {
    this.remotes.closeAll(); // ssh hosts
    await Promise.all(
      [...this.#sessions.values()].map((s) => s.close(reason)),
    );
  }
}
