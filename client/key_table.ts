/**
 * The window's default key bindings: the one table the key handler
 * dispatches from (client/keymap.ts), the menu takes its key labels from
 * (the first key of an entry) and docs/keyboard-mouse.md lists (its table
 * between the markers is {@link keyBindingsDoc}'s output, checked by
 * tests/docs/keys_doc_test.ts). The settings' `[keys]` table binds more
 * keys over these (docs/settings.md, "Key bindings").
 *
 * No DOM here: the docs generator and the doc test import it.
 *
 * @module
 */
import { normalizeKey } from "../core/settings/validate.ts";

/** One action's default keys. */
export interface KeyBinding {
  /** The action's name (client/window_actions.ts registers it). */
  action: string;
  /**
   * Its keys as the settings write them (normalized, see
   * `normalizeKey`); the first is the one menus and docs show.
   */
  keys: readonly string[];
  /** What the docs table says the keys do (Markdown). */
  doc: string;
  /** The keys as the docs table writes them (default: the first key). */
  docKeys?: string;
  /** A held key's repeats do not run it again. */
  noRepeat?: boolean;
  /**
   * "pane": the key works after the pane prefix (the `pane-prefix`
   * action's key, Ctrl+Shift+A), as the next key.
   */
  prefix?: "pane";
}

/** The pane keys after the prefix: the arrows move, Ctrl+arrows split. */
function paneKeys(): KeyBinding[] {
  const arrows = [
    ["left", "ArrowLeft", "Left"],
    ["right", "ArrowRight", "Right"],
    ["up", "ArrowUp", "Up"],
    ["down", "ArrowDown", "Down"],
  ];
  return [
    ...arrows.map(([side, key, name]): KeyBinding => ({
      action: `focus-${side}`,
      keys: [key],
      docKeys: `Ctrl+Shift+A, then ${name}`,
      doc: `focus the pane ${
        side === "up" ? "above" : side === "down" ? "below" : "to the " + side
      }`,
      prefix: "pane",
    })),
    ...arrows.map(([side, key, name]): KeyBinding => ({
      action: `split-${side}`,
      keys: [`Ctrl+${key}`],
      docKeys: `Ctrl+Shift+A, then Ctrl+${name}`,
      doc: `a new pane ${
        side === "up" ? "above" : side === "down" ? "below" : "to the " + side
      } (a new session in the same directory)`,
      prefix: "pane",
    })),
  ];
}

/** The zoom keys: Ctrl+Shift, or Cmd/Super with or without Shift. */
function zoomKeys(...keys: string[]): string[] {
  return ["Ctrl+Shift+", "Meta+", "Meta+Shift+"].flatMap((m) =>
    keys.map((k) => m + k)
  );
}

/**
 * Every default binding, in the order the docs list them. Letters and
 * digits are physical keys (Ctrl+Shift+F is the F key whatever the
 * layout); the zoom keys are the physical `=`, `-` and `0` keys (the
 * keypad's `+`, `-` and `0` too) or keys that type those characters.
 */
export const KEY_BINDINGS: readonly KeyBinding[] = [
  {
    action: "scroll-page-up",
    keys: ["Shift+PageUp"],
    doc:
      "scroll the history a page up (outside the alternate screen; there the program gets the history keys)",
  },
  {
    action: "scroll-page-down",
    keys: ["Shift+PageDown"],
    doc: "scroll the history a page down",
  },
  {
    action: "scroll-top",
    keys: ["Shift+Home"],
    doc: "go to the top of the history",
  },
  {
    action: "scroll-bottom",
    keys: ["Shift+End"],
    doc: "go to the bottom of the history",
  },
  {
    action: "copy",
    keys: ["Ctrl+Shift+C"],
    doc: "copy the selection (soft-wrapped rows as one line)",
  },
  {
    action: "paste",
    keys: ["Ctrl+Shift+V"],
    doc: "paste (bracketed when the program asked for it)",
  },
  {
    action: "find",
    keys: ["Ctrl+Shift+F"],
    doc: "find in the whole history ([below](#find))",
  },
  {
    action: "save-html",
    keys: ["Ctrl+Shift+S"],
    doc: "save the session as HTML ([save-html.md](save-html.md))",
    noRepeat: true,
  },
  {
    action: "pause-output",
    keys: ["Ctrl+Shift+M"],
    doc:
      "pause output, and go on again ([pager.md](pager.md), which also lists the keys while output is paused)",
  },
  {
    action: "zoom-in",
    keys: zoomKeys("=", "+"),
    docKeys: "Ctrl+Shift+= (Ctrl++), Cmd+=",
    doc: "bigger font; the grid is refitted and the program gets the new size",
  },
  {
    action: "zoom-out",
    keys: zoomKeys("-", "_"),
    docKeys: "Ctrl+Shift+-, Cmd+-",
    doc: "smaller font",
  },
  {
    action: "zoom-reset",
    keys: zoomKeys("0", ")"),
    docKeys: "Ctrl+Shift+0, Cmd+0",
    doc: "the stylesheet's font size again",
  },
  {
    action: "input-mode",
    keys: ["Ctrl+Shift+L"],
    doc: "the next input mode ([input-modes.md](input-modes.md))",
  },
  {
    action: "previous-prompt",
    keys: ["Ctrl+Shift+ArrowUp"],
    docKeys: "Ctrl+Shift+Up",
    doc:
      "scroll the previous prompt to the top and say its command ([shell-integration.md](shell-integration.md))",
  },
  {
    action: "next-prompt",
    keys: ["Ctrl+Shift+ArrowDown"],
    docKeys: "Ctrl+Shift+Down",
    doc: "scroll the next prompt to the top",
  },
  {
    action: "copy-output",
    keys: ["Ctrl+Shift+O"],
    doc:
      "copy the output of the command at the top of the view (else of the last one)",
  },
  {
    action: "read-output",
    keys: ["Ctrl+Shift+H"],
    doc:
      "say the output of the command last jumped to (else of the last one) through the live region ([accessibility.md](accessibility.md))",
    noRepeat: true,
  },
  {
    action: "tab-focus-mode",
    keys: ["Ctrl+Shift+E"],
    doc:
      "tab focus mode: Tab and Shift+Tab move the focus out of the terminal (and back), or go to the program again",
    noRepeat: true,
  },
  {
    action: "menu",
    keys: ["Shift+F10", "ContextMenu"],
    docKeys: "Shift+F10, the ContextMenu key",
    doc: "open the window's menu (and close it)",
    noRepeat: true,
  },
  {
    action: "detach",
    keys: ["Ctrl+Shift+D"],
    doc: "detach the window from its session (the session goes on)",
  },
  {
    action: "new-tab",
    keys: ["Ctrl+Shift+T"],
    doc:
      "a new tab beside the focused one, on a new session in the same directory ([tabs-and-panes.md](tabs-and-panes.md))",
    noRepeat: true,
  },
  {
    action: "new-pane",
    keys: ["Ctrl+Shift+N"],
    doc: "a new pane beside the focused one (on its longer side)",
    noRepeat: true,
  },
  {
    action: "close-pane",
    keys: ["Ctrl+Shift+W"],
    doc:
      "close the focused pane and its session (asks first when a program other than the shell runs)",
    noRepeat: true,
  },
  {
    action: "next-tab",
    keys: ["Ctrl+PageDown"],
    doc: "show the next tab of the focused pane's area",
  },
  {
    action: "previous-tab",
    keys: ["Ctrl+PageUp"],
    doc: "show the previous tab",
  },
  {
    action: "pane-prefix",
    keys: ["Ctrl+Shift+A"],
    doc: "the next key is a pane key (below)",
    noRepeat: true,
  },
  ...paneKeys(),
  {
    action: "rename-tab",
    keys: ["R"],
    docKeys: "Ctrl+Shift+A, then R",
    doc: "rename the focused tab (a double click on the tab too)",
    prefix: "pane",
  },
  {
    action: "new-tab",
    keys: ["T"],
    docKeys: "Ctrl+Shift+A, then T",
    doc: "a new tab",
    prefix: "pane",
  },
  {
    action: "close-pane",
    keys: ["W"],
    docKeys: "Ctrl+Shift+A, then W",
    doc: "close the focused pane",
    prefix: "pane",
  },
  {
    action: "pane-to-new-window",
    keys: ["O"],
    docKeys: "Ctrl+Shift+A, then O",
    doc: "move the focused pane (its session) to a new window",
    prefix: "pane",
  },
  {
    action: "pane-back",
    keys: ["B"],
    docKeys: "Ctrl+Shift+A, then B",
    doc:
      "move the focused pane back to the window it came from (in a window that Move to a new window opened)",
    prefix: "pane",
  },
];

/** The table's entry for `action`, if it has default keys. */
export function bindingOf(action: string): KeyBinding | undefined {
  return KEY_BINDINGS.find((b) => b.action === action && !b.prefix);
}

/**
 * The key to action map: the defaults, then `overrides` (the settings'
 * `[keys]`, which win).
 */
export function keyMap(
  overrides: Readonly<Record<string, string>> = {},
): Map<string, string> {
  const map = new Map<string, string>();
  for (const b of KEY_BINDINGS) {
    if (b.prefix) continue;
    for (const k of b.keys) map.set(normalizeKey(k) ?? k, b.action);
  }
  for (const [k, action] of Object.entries(overrides)) {
    map.set(normalizeKey(k) ?? k, action);
  }
  return map;
}

/** The keys that work after the prefix `prefix`: key to action. */
export function prefixKeyMap(prefix: "pane"): Map<string, string> {
  const map = new Map<string, string>();
  for (const b of KEY_BINDINGS) {
    if (b.prefix !== prefix) continue;
    for (const k of b.keys) map.set(normalizeKey(k) ?? k, b.action);
  }
  return map;
}

/** docs/keyboard-mouse.md's table of the default bindings (Markdown). */
export function keyBindingsDoc(): string {
  const rows = KEY_BINDINGS.map((b) => [
    b.docKeys ?? b.keys[0],
    `\`${b.action}\``,
    b.doc,
  ]);
  const head = ["keys", "action", "what"];
  const widths = head.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => r[i].length))
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [
    line(head),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...rows.map(line),
  ].join("\n");
}
