/**
 * The window's one key handler for shortcuts: a key pressed in a terminal
 * that the key table (client/key_table.ts: the defaults, then the
 * settings' `[keys]`, e.g. "Ctrl+Shift+T" = "new-window") binds runs that
 * action (client/actions.ts) instead of reaching the program.
 *
 * @module
 */
import { normalizeKey } from "../core/settings/validate.ts";
import type { Actions } from "./actions.ts";
import { bindingOf, keyMap, prefixKeyMap } from "./key_table.ts";

/** Other names of a physical key: the zoom keys on any layout. */
const PHYSICAL: Readonly<Record<string, string>> = {
  Equal: "=",
  NumpadAdd: "=",
  Minus: "-",
  NumpadSubtract: "-",
  Numpad0: "0",
};

/** The modifiers of `e` as key bindings write them. */
function modifiers(e: KeyboardEvent): string[] {
  return [
    e.ctrlKey ? "Ctrl" : "",
    e.altKey ? "Alt" : "",
    e.shiftKey ? "Shift" : "",
    e.metaKey ? "Meta" : "",
  ].filter(Boolean);
}

/** A key event as key bindings write it ("Ctrl+Shift+T"), or null for a lone modifier. */
export function eventKey(e: KeyboardEvent): string | null {
  if (["Control", "Shift", "Alt", "Meta"].includes(e.key)) return null;
  let key = e.key;
  // Letters and digits by their physical key: Ctrl+Shift+T gives "T", not "t" or a control character.
  const m = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(e.code);
  if (m) key = m[1] ?? m[2];
  else if (key === " ") key = "Space";
  return normalizeKey([...modifiers(e), key].join("+"));
}

/**
 * The names a binding may give the key of `e`: {@link eventKey}, and the
 * physical key's for the `=`, `-` and `0` keys (Ctrl+Shift+= is "+" by
 * its character on a US layout, "=" by its key).
 */
export function eventKeys(e: KeyboardEvent): string[] {
  const key = eventKey(e);
  if (key === null) return [];
  const physical = PHYSICAL[e.code];
  if (physical === undefined) return [key];
  const alias = normalizeKey([...modifiers(e), physical].join("+"));
  return alias === null || alias === key ? [key] : [key, alias];
}

/** What the key handler needs from the window. */
export interface KeymapHost {
  actions: Actions;
  /** The settings' `[keys]`, read at each key: a change applies at once. */
  bindings: () => Readonly<Record<string, string>>;
  /**
   * Whether keys typed at `target` are the terminals' (a terminal
   * element, or the page itself); keys typed in the find bar or the
   * settings page are theirs. The window makes that terminal the one the
   * action acts on.
   */
  accepts: (target: EventTarget | null) => boolean;
  /** Unknown action names are reported once. */
  warn: (message: string) => void;
}

/** The window's key bindings, and the handler that runs them. */
export class Keymap {
  #host: KeymapHost;
  #warned = new Set<string>();
  #map: Map<string, string> = new Map();
  #from: Readonly<Record<string, string>> | null = null;
  /** After the pane prefix: the next key is looked up in these. */
  #prefixMap = prefixKeyMap("pane");
  #prefixed = false;
  /** Called when the prefix mode starts (true) and ends (false). */
  onPrefix: (on: boolean) => void = () => {};

  constructor(host: KeymapHost) {
    this.#host = host;
  }

  /** The current key to action map (rebuilt when the settings changed). */
  map(): Map<string, string> {
    const user = this.#host.bindings();
    if (user !== this.#from) {
      this.#from = user;
      this.#map = keyMap(user);
    }
    return this.#map;
  }

  /** The key a menu shows for `action`: its first default key still bound to it, else any key bound to it. */
  keyOf(action: string): string | undefined {
    const map = this.map();
    const first = bindingOf(action)?.keys.find((k) =>
      map.get(normalizeKey(k) ?? k) === action
    );
    if (first !== undefined) return normalizeKey(first) ?? first;
    for (const [k, a] of map) if (a === action) return k;
    return undefined;
  }

  /**
   * The next key is a pane key (the key table's `prefix: "pane"` rows):
   * the pane-prefix action. Any other key ends the mode and is dropped.
   */
  startPrefix(): void {
    this.#prefixed = true;
    this.onPrefix(true);
  }

  /** The prefix's next key: its action runs; every key ends the mode. */
  #handlePrefixed(e: KeyboardEvent): boolean {
    const keys = eventKeys(e);
    if (keys.length === 0) return false; // a lone modifier: still waiting
    this.#prefixed = false;
    this.onPrefix(false);
    e.stopImmediatePropagation();
    e.preventDefault();
    const name = keys.map((k) => this.#prefixMap.get(k)).find((a) => a);
    if (name) this.#host.actions.run(name);
    return true;
  }

  /** The action `e` runs, or null. */
  actionOf(e: KeyboardEvent): string | null {
    const map = this.map();
    for (const k of eventKeys(e)) {
      const a = map.get(k);
      if (a !== undefined) return a;
    }
    return null;
  }

  /**
   * Listens on `target` (the document, capturing: before the terminal's
   * own key handling, after the pager's, which keeps its keys while it
   * holds output: install this after the terminals).
   */
  install(target: EventTarget): void {
    target.addEventListener(
      "keydown",
      (ev) => this.handle(ev as KeyboardEvent),
      { capture: true },
    );
  }

  /** Runs the action `e` is bound to; true if it was one (the event is then ours). */
  handle(e: KeyboardEvent): boolean {
    if (e.isComposing || !this.#host.accepts(e.target)) return false;
    if (this.#prefixed) return this.#handlePrefixed(e);
    const name = this.actionOf(e);
    if (name === null) return false;
    const action = this.#host.actions.get(name);
    if (!action) {
      if (!this.#warned.has(name)) {
        this.#warned.add(name);
        this.#host.warn(
          `key binding ${eventKey(e)}: there is no action '${name}'`,
        );
      }
      return false;
    }
    if (action.runKey) {
      // It decides about the event's default (a paste into the textarea)
      // and whether the key is the action's at all (false: it goes on).
      if (action.runKey(e) === false) return false;
      e.stopImmediatePropagation();
      return true;
    }
    e.stopImmediatePropagation();
    e.preventDefault();
    if (e.repeat && bindingOf(name)?.noRepeat) return true;
    this.#host.actions.run(name);
    return true;
  }
}
