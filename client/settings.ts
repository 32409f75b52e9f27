/**
 * The window's settings store: the settings in force for this window (the
 * server's `settings` message: the file's, the session's and the command
 * line's) with this window's own OSC 88 settings over them. Features read
 * a key with `settings.get()["key"]` and follow changes with
 * `settings.onChange(fn)`; keys and defaults are in
 * core/settings/schema.ts.
 *
 * @module
 */
import { defaultSettings, type Settings } from "../core/settings/schema.ts";
import { checkSettings, windowKeysOnly } from "../core/settings/validate.ts";

/** A listener: the new settings and the keys whose values changed. */
export type SettingsListener = (s: Settings, changed: string[]) => void;

/** The settings of this window. */
export class SettingsStore {
  #server: Settings = defaultSettings();
  #window: Partial<Settings> = {};
  #current: Settings = defaultSettings();
  #listeners = new Set<SettingsListener>();
  /** The settings file's problems (`file:line: ...`), as the server last said. */
  problems: string[] = [];
  /** The settings file's path, as the server said (null: none). */
  path: string | null = null;

  /** The settings in force (do not modify it). */
  get(): Readonly<Settings> {
    return this.#current;
  }

  /** The server's settings, without this window's OSC 88 ones (the settings page edits these). */
  server(): Readonly<Settings> {
    return this.#server;
  }

  /**
   * Call `fn` on every change (and not now); returns a function that
   * stops it.
   */
  onChange(fn: SettingsListener): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** The server's settings arrived (at attach, and on every change). */
  setServer(settings: Record<string, unknown>): void {
    // Checked again: only known keys with good values get in.
    const { values } = checkSettings(settings);
    this.#server = { ...defaultSettings(), ...values } as Settings;
    this.#update();
  }

  /**
   * OSC 88 from the program: this window's settings over the server's.
   * Returns the problems (bad JSON, unknown keys, bad values), none of
   * which changes anything.
   */
  setWindow(json: string): string[] {
    let obj: unknown;
    try {
      obj = JSON.parse(json);
    } catch {
      return ["OSC 88: not JSON"];
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
      return ["OSC 88: not a JSON object"];
    }
    const { values, problems } = windowKeysOnly(
      checkSettings(obj as Record<string, unknown>),
    );
    this.#window = { ...this.#window, ...values };
    this.#update();
    return problems.map((p) => `OSC 88: ${p.message}`);
  }

  #update(): void {
    const next = { ...this.#server, ...this.#window } as Settings;
    const changed = Object.keys(next).filter((k) =>
      JSON.stringify(next[k]) !== JSON.stringify(this.#current[k])
    );
    this.#current = next;
    if (changed.length === 0) return;
    for (const fn of this.#listeners) fn(next, changed);
  }
}
