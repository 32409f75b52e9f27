/**
 * The window's commands by name: what a key binding, the context menu, the
 * menu button and the settings' key bindings run. A feature registers its
 * commands here; whoever shows them (a menu, a key map) reads them from here,
 * so no module needs to know every other one.
 *
 * @module
 */

/** One command of the window. */
export interface Action {
  /** Stable name, e.g. "detach"; key bindings in the settings use it. */
  name: string;
  /** What a menu shows, e.g. "Detach". */
  label: string;
  /** The default key, as shown in a menu, e.g. "Ctrl+Shift+D". */
  key?: string;
  /** Menu section: entries of one group are shown together. */
  group?: string;
  /** False greys the entry out (e.g. Copy with no selection). */
  enabled?: () => boolean;
  /** For toggles (e.g. the automatic pager): a check mark when true. */
  checked?: () => boolean;
  run: () => void | Promise<void>;
}

/** The registry of the window's actions. */
export class Actions {
  #byName = new Map<string, Action>();

  /** Adds or replaces the action of that name. */
  register(action: Action): void {
    this.#byName.set(action.name, action);
  }

  /** The action of that name, if any. */
  get(name: string): Action | undefined {
    return this.#byName.get(name);
  }

  /** Every action, in the order first registered. */
  list(): Action[] {
    return [...this.#byName.values()];
  }

  /** Runs the action of that name; false when there is none or it is disabled. */
  run(name: string): boolean {
    const a = this.#byName.get(name);
    if (!a || (a.enabled && !a.enabled())) return false;
    void a.run();
    return true;
  }
}
