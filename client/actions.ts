/**
 * The window's commands by name: what a key binding (client/key_table.ts,
 * client/keymap.ts), the context menu, the menu button and the settings'
 * key bindings run. A feature registers its
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
  /** Menu section: entries of one group are shown together. */
  group?: string;
  /** False greys the entry out (e.g. Copy with no selection). */
  enabled?: () => boolean;
  /** For toggles (e.g. the automatic pager): a check mark when true. */
  checked?: () => boolean;
  /** False: a key's action only, not a menu entry. */
  inMenu?: boolean;
  run: () => void | Promise<void>;
  /**
   * What its key runs instead of `run`, when that differs: it decides
   * about the event's default (Ctrl+Shift+V in the textarea lets the
   * browser paste), and false leaves the key to the terminal (Ctrl+Shift+C
   * on macOS, where Cmd+C copies). The keys are in client/key_table.ts.
   */
  runKey?: (e: KeyboardEvent) => boolean | void;
}

/** The registry of the window's actions. */
export class Actions {
  #byName = new Map<string, Action>();
  /** Actions this window may not offer (a read-only share's). */
  #withheld = new Set<string>();

  /**
   * Withhold these actions: no menu entry, no key (a read-only window must
   * not offer to paste, clear, detach or close what it only watches; the
   * server would drop what they send anyway).
   */
  withhold(names: Iterable<string>): void {
    for (const n of names) this.#withheld.add(n);
  }

  /** Adds or replaces the action of that name. */
  register(action: Action): void {
    this.#byName.set(action.name, action);
  }

  /** The action of that name, if any. */
  get(name: string): Action | undefined {
    return this.#withheld.has(name) ? undefined : this.#byName.get(name);
  }

  /** Every action offered, in the order first registered. */
  list(): Action[] {
    return [...this.#byName.values()].filter((a) =>
      !this.#withheld.has(a.name)
    );
  }

  /** Runs the action of that name; false when there is none or it is disabled. */
  run(name: string): boolean {
    const a = this.get(name);
    if (!a || (a.enabled && !a.enabled())) return false;
    void a.run();
    return true;
  }
}
