/**
 * The server's top-level windows: the one place that makes them, numbers
 * them, finds them (by number, name, or a session they show), changes
 * their layouts and removes them. A window's layout loses the panes of a
 * session that ends ({@link WindowRegistry.sessionEnded}); a window whose
 * last pane is gone is removed and its pages are told. Other code (the
 * journal) sees the windows through {@link WindowRegistry.layouts} and
 * {@link WindowRegistry.restore}, and hears of every change through
 * `onChange`.
 *
 * @module
 */
import {
  findPane,
  type Layout,
  newLayout,
  panes,
  parseLayout,
  removeSession,
  sessionsOf,
  stacks,
} from "../../core/layout.ts";
import type { WindowHelloMessage } from "../../core/protocol.ts";
import type { SessionRegistry } from "../session_registry.ts";
import type { WindowInfo } from "../control.ts";
import { processCwd } from "../opener.ts";
import { TopWindow } from "./top_window.ts";

/** Where a pane's new session starts, what it runs, what it is called. */
export interface NewPaneSession {
  cwd?: string;
  /** Default: the server's command. */
  command?: string[];
  name?: string;
}

/** What the windows need of the sessions (the SessionRegistry's, see {@link registrySessions}). */
export interface WindowSessions {
  /** Whether session `id` exists and its program runs (here or on another host). */
  live(id: number): boolean;
  /** Start a session; its number. Throws a readable Error when it cannot. */
  create(size: { cols: number; rows: number }, extra?: NewPaneSession): number;
  /** Session `id`'s grid, when it runs here. */
  size(id: number): { cols: number; rows: number } | undefined;
  /** The working directory of session `id`'s program, when known. */
  cwd(id: number): string | undefined;
  /** Hang session `id` up. */
  close(id: number): void;
  /** A page (not read-only) said it shows these colours: new sessions answer with them. */
  noteColors?(colors: NonNullable<WindowHelloMessage["colors"]>): void;
}

/** The {@link WindowSessions} of a SessionRegistry. */
export function registrySessions(registry: SessionRegistry): WindowSessions {
  return {
    live: (id) => {
      const s = registry.get(id);
      return s ? !s.exitStatus : registry.remotes.get(id) !== undefined;
    },
    create: (size, extra = {}) =>
      registry.create(
        extra.command?.length ? extra.command : undefined,
        size,
        { cwd: extra.cwd, name: extra.name },
      ).id,
    size: (id) => {
      const s = registry.get(id);
      return s ? { cols: s.cols, rows: s.rows } : undefined;
    },
    noteColors: (colors) => registry.noteColors(colors),
    cwd: (id) => {
      const s = registry.get(id);
      return s ? processCwd(s.pid) : undefined;
    },
    close: (id) => {
      const local = registry.get(id);
      if (local) void local.close();
      const remote = registry.remotes.get(id); // ssh hosts
      if (remote) void registry.remotes.kill(remote);
    },
  };
}

/** A window as the journal stores it. */
export interface SavedWindow {
  id: number;
  name: string | null;
  layout: Layout;
}

/** The server's windows. */
export class WindowRegistry {
  readonly #windows = new Map<number, TopWindow>();
  readonly sessions: WindowSessions;
  #nextId = 1;
  /** Called after every change of a window (made, changed, removed). */
  onChange: (() => void) | undefined;

  constructor(sessions: WindowSessions) {
    this.sessions = sessions;
  }

  /** A new window with one pane showing `session`. */
  open(session: number): TopWindow {
    const w = new TopWindow(this.#nextId++, newLayout(session));
    this.#windows.set(w.id, w);
    this.onChange?.();
    return w;
  }

  /** Window `id`, if it is here. */
  get(id: number): TopWindow | undefined {
    return this.#windows.get(id);
  }

  /** A window by number (or a string of digits) or name; null when none. */
  find(ref: number | string): TopWindow | null {
    if (typeof ref === "number" || /^\d+$/.test(ref)) {
      return this.#windows.get(Number(ref)) ?? null;
    }
    for (const w of this.#windows.values()) if (w.name === ref) return w;
    return null;
  }

  /** Every window, oldest first. */
  all(): TopWindow[] {
    return [...this.#windows.values()];
  }

  /** The windows with a pane showing `session`. */
  showing(session: number): TopWindow[] {
    return this.all().filter((w) =>
      panes(w.layout).some((p) => p.session === session)
    );
  }

  /**
   * The window a command run in `session` acts on: one showing it, a
   * window with a page first, the newest among equals.
   */
  windowOf(session: number): TopWindow | undefined {
    const found = this.showing(session);
    return found.filter((w) => w.pages.size > 0).at(-1) ?? found.at(-1);
  }

  /**
   * `win`'s layout becomes `layout`, every page told; null removes the
   * window (its last pane went) and its pages are told so.
   */
  update(win: TopWindow, layout: Layout | null): void {
    if (!this.#windows.has(win.id)) return;
    if (layout === null) {
      this.#windows.delete(win.id);
      for (const p of [...win.pages]) p.closed();
      win.pages.clear();
    } else win.setLayout(layout);
    this.onChange?.();
  }

  /** `win` is called `name` (null: no name). */
  rename(win: TopWindow, name: string | null): void {
    win.name = name;
    this.onChange?.();
  }

  /** Session `id` ended: its panes leave every layout. */
  sessionEnded(id: number): void {
    for (const w of this.showing(id)) {
      this.update(w, removeSession(w.layout, id));
    }
  }

  /** The session `win`'s focused pane shows. */
  focusedSession(win: TopWindow): number {
    return findPane(win.layout, win.layout.focus)!.pane.session;
  }

  /** Whether any window shows `session`. */
  shows(session: number): boolean {
    return this.showing(session).length > 0;
  }

  /** Every window's layout (for the journal). */
  layouts(): SavedWindow[] {
    return this.all().map((w) => ({
      id: w.id,
      name: w.name,
      layout: structuredClone(w.layout),
    }));
  }

  /**
   * Windows brought back (the journal's, after a restart): each layout is
   * checked, panes of sessions that no longer run are left out, and a
   * window with none left, or whose number is taken, is skipped. Returns
   * what was skipped and why, one line each.
   */
  restore(saved: readonly SavedWindow[]): string[] {
    const problems: string[] = [];
    for (const s of saved) {
      let layout: Layout | null;
      try {
        if (!Number.isSafeInteger(s.id) || s.id < 1) throw new Error("bad id");
        if (this.#windows.has(s.id)) throw new Error("its number is taken");
        layout = parseLayout(s.layout);
        for (const session of sessionsOf(layout)) {
          if (!this.sessions.live(session) && layout) {
            layout = removeSession(layout, session);
          }
        }
      } catch (e) {
        problems.push(`window ${s.id}: ${(e as Error).message}`);
        continue;
      }
      if (layout === null) {
        problems.push(`window ${s.id}: none of its sessions runs`);
        continue;
      }
      const w = new TopWindow(s.id, layout);
      w.name = typeof s.name === "string" ? s.name : null;
      this.#windows.set(w.id, w);
      this.#nextId = Math.max(this.#nextId, w.id + 1);
    }
    this.onChange?.();
    return problems;
  }

  /** What `domterm list` shows of the windows. */
  info(): WindowInfo[] {
    return this.all().map((w) => ({
      id: w.id,
      name: w.name,
      pages: w.pages.size,
      detachedSince: w.detachedSince,
      panes: stacks(w.layout).flatMap((s) =>
        s.panes.map((p) => ({
          id: p.id,
          session: p.session,
          title: p.title,
          stack: s.id,
          shown: s.shown === p.id,
          focused: w.layout.focus === p.id,
        }))
      ),
    }));
  }
}
