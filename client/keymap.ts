/**
 * The key bindings of the settings (`[keys]`: "Ctrl+Shift+T" =
 * "new-window"): a key pressed in the window that the settings bind runs
 * that action (client/actions.ts) instead of reaching the program or a
 * default binding.
 *
 * @module
 */
import { normalizeKey } from "../core/settings/validate.ts";
import type { Actions } from "./actions.ts";

/** A key event as key bindings write it ("Ctrl+Shift+T"), or null for a lone modifier. */
export function eventKey(e: KeyboardEvent): string | null {
  if (["Control", "Shift", "Alt", "Meta"].includes(e.key)) return null;
  let key = e.key;
  // Letters and digits by their physical key: Ctrl+Shift+T gives "T", not "t" or a control character.
  const m = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(e.code);
  if (m) key = m[1] ?? m[2];
  else if (key === " ") key = "Space";
  const mods = [
    e.ctrlKey ? "Ctrl" : "",
    e.altKey ? "Alt" : "",
    e.shiftKey ? "Shift" : "",
    e.metaKey ? "Meta" : "",
  ].filter(Boolean);
  return normalizeKey([...mods, key].join("+"));
}

/**
 * Run bound actions for keys pressed in the terminal element `root`
 * (captured on `target`, before the terminal's own key handling); keys
 * typed in the find bar or the settings page are theirs. `bindings` is
 * read at each key, so a settings change applies at once. Unknown action
 * names are reported once through `warn`.
 */
export function installKeymap(
  target: EventTarget,
  root: HTMLElement,
  actions: Actions,
  bindings: () => Readonly<Record<string, string>>,
  warn: (message: string) => void,
): void {
  const warned = new Set<string>();
  target.addEventListener("keydown", (ev) => {
    const e = ev as KeyboardEvent;
    if (e.isComposing) return;
    const from = e.target;
    if (
      from instanceof Node && from !== root.ownerDocument.body &&
      !root.contains(from)
    ) return;
    const map = bindings();
    if (Object.keys(map).length === 0) return;
    const key = eventKey(e);
    if (key === null) return;
    const name = map[key];
    if (name === undefined) return;
    if (!actions.get(name)) {
      if (!warned.has(name)) {
        warned.add(name);
        warn(`key binding ${key}: there is no action '${name}'`);
      }
      return;
    }
    e.preventDefault();
    e.stopImmediatePropagation();
    actions.run(name);
  }, { capture: true });
}
