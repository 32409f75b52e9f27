/**
 * Settings for the windows: the file's settings (a {@link SettingsStore})
 * with each session's own (`domterm settings key=value` inside it) over
 * them, pushed to every window at attach and on every change as a
 * `settings` message (core/protocol.ts).
 *
 * @module
 */
import type { Settings } from "../../core/settings/schema.ts";
import { checkSettings, windowKeysOnly } from "../../core/settings/validate.ts";
import type { SettingsMessage } from "../../core/protocol.ts";
import type { Viewer } from "../viewer.ts";
import type { SettingsStore } from "./file.ts";

/** What a session looks like to this module. */
export interface SettingsSession {
  id: number;
  /** The session's emulator answers title reports (`title-reporting`). */
  setTitleReports?(on: boolean): void;
  windows: ReadonlySet<{ readonly viewer: Viewer }>;
}

/** The settings of every session's windows. */
export class WindowSettings {
  readonly store: SettingsStore;
  #bySession = new Map<number, Partial<Settings>>();
  #sessions: () => Iterable<SettingsSession>;

  constructor(store: SettingsStore, sessions: () => Iterable<SettingsSession>) {
    this.store = store;
    this.#sessions = sessions;
    store.onChange(() => {
      for (const s of this.#sessions()) this.push(s);
    });
  }

  /** The settings in force for session `id`'s windows. */
  effective(id: number): Settings {
    return { ...this.store.current, ...this.#bySession.get(id) } as Settings;
  }

  /** The message a window of session `id` gets. */
  message(id: number): SettingsMessage {
    return {
      type: "settings",
      settings: this.effective(id),
      problems: this.store.problems,
      path: this.store.path,
    };
  }

  /** Send the settings to every window of `s`. */
  push(s: SettingsSession): void {
    const msg = this.message(s.id);
    s.setTitleReports?.(msg.settings["title-reporting"] === true);
    for (const w of s.windows) w.viewer.message(msg);
  }

  /**
   * Set keys for session `s` only (`domterm settings key=value`): checked
   * against the schema; on any problem nothing changes and the problems
   * are returned.
   */
  setForSession(s: SettingsSession, input: Record<string, unknown>): string[] {
    const { values, problems } = windowKeysOnly(checkSettings(input));
    if (problems.length) return problems.map((p) => p.message);
    this.#bySession.set(s.id, { ...this.#bySession.get(s.id), ...values });
    this.push(s);
    return [];
  }

  /**
   * Keys the program set with `OSC 88 ; json` for session `s`: kept like
   * `domterm settings` (so a window that attaches later has them too),
   * except that good keys apply beside bad ones, as in the window that
   * shows the sequence; the window reports the problems.
   */
  setFromProgram(s: SettingsSession, json: string): void {
    let obj: unknown;
    try {
      obj = JSON.parse(json);
    } catch {
      return;
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return;
    const { values } = windowKeysOnly(
      checkSettings(obj as Record<string, unknown>),
    );
    if (Object.keys(values).length === 0) return;
    this.#bySession.set(s.id, { ...this.#bySession.get(s.id), ...values });
    this.push(s);
  }

  /**
   * A window's `save-settings`: checked against the schema, then written
   * to the settings file. `report` hears what went wrong (at once for
   * bad values, which are not saved; later for a failed write).
   */
  save(
    input: Record<string, unknown>,
    report: (message: string) => void,
  ): void {
    const { values, problems } = checkSettings(input);
    if (problems.length) {
      report(
        `settings not saved: ${problems.map((p) => p.message).join("; ")}`,
      );
      return;
    }
    this.store.save(values).catch((e) =>
      report(`cannot save the settings: ${(e as Error).message}`)
    );
  }

  /** Session `id`'s own settings (to hand them to the next server). */
  sessionOwn(id: number): Partial<Settings> | undefined {
    return this.#bySession.get(id);
  }

  /** Session `id`'s own settings, as an earlier server had them (already checked there). */
  restoreOwn(id: number, values: Partial<Settings> | undefined): void {
    if (values) this.#bySession.set(id, values);
  }

  /** Forget an ended session. */
  forget(id: number): void {
    this.#bySession.delete(id);
  }
}
