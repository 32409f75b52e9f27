/**
 * The settings schema: every key of `settings.toml`, its type, default,
 * allowed values and description, in ONE table. The validator
 * (`core/settings/validate.ts`), `domterm --help`, docs/settings.md
 * (`scripts/gen_settings_doc.ts`, checked by a test) and the page all read
 * it. Pure data: no Deno or DOM APIs.
 *
 * @module
 */
import { DEFAULT_SCROLLBACK_LINES, MAX_SCROLLBACK_LINES } from "../protocol.ts";

/** A value a setting can hold (after validation). */
export type SettingValue =
  | string
  | number
  | boolean
  | null
  | string[]
  | Record<string, string>;

/** How a setting's value is checked. */
export type SettingKind =
  /** Any string (an empty string means "not set": the built-in behaviour). */
  | "string"
  /** A CSS font family list: names, quotes, commas, spaces; "" for the stylesheet's. */
  | "font"
  /** One of `values`. */
  | "enum"
  | "boolean"
  /** An integer from `min` to `max`; `word`, if given, is also accepted (as null). */
  | "integer"
  /** A number from `min` to `max`. */
  | "number"
  /** A CSS colour: `#rgb`, `#rrggbb`, `rgb(...)` or a colour name; "" for the theme's. */
  | "color"
  /** Up to 16 colours, for palette entries 0-15; [] for the theme's. */
  | "palette"
  /** A program and its arguments: a string (one path) or an array of strings. */
  | "command"
  /** A table of key -> action name. */
  | "keymap";

/** One setting. */
export interface SettingSpec {
  /** The key, dotted for keys inside a table: `font.size` is `[font] size`. */
  key: string;
  kind: SettingKind;
  default: SettingValue;
  /** Allowed values of an enum. */
  values?: readonly string[];
  /** Range of an integer or number. */
  min?: number;
  max?: number;
  /** A word an integer setting also takes, meaning no number (null). */
  word?: string;
  /** The command-line option that overrides it, if any. */
  option?: string;
  /**
   * Who acts on it: "page" (every window, at once), "server" (new sessions,
   * windows or clicks from then on), "start" (read when the server starts).
   */
  appliesTo: "page" | "server" | "start";
  description: string;
}

/** Every setting, in the order docs and the settings page show them. */
export const SETTINGS: readonly SettingSpec[] = [
  {
    key: "theme",
    kind: "enum",
    default: "system",
    values: ["system", "light", "dark"],
    appliesTo: "page",
    description: "light or dark colours; system follows the desktop",
  },
  {
    key: "font.family",
    kind: "font",
    default: "",
    appliesTo: "page",
    description:
      'CSS font family list, e.g. "JetBrains Mono, monospace" ("": the stylesheet\'s)',
  },
  {
    key: "font.size",
    kind: "number",
    default: 14,
    min: 6,
    max: 72,
    appliesTo: "page",
    description: "font size in CSS pixels (zoom keys change it per window)",
  },
  {
    key: "colors.foreground",
    kind: "color",
    default: "",
    appliesTo: "page",
    description: 'default text colour ("": the theme\'s)',
  },
  {
    key: "colors.background",
    kind: "color",
    default: "",
    appliesTo: "page",
    description: 'default background colour ("": the theme\'s)',
  },
  {
    key: "colors.cursor",
    kind: "color",
    default: "",
    appliesTo: "page",
    description: 'cursor colour ("": the theme\'s)',
  },
  {
    key: "colors.selection",
    kind: "color",
    default: "",
    appliesTo: "page",
    description: 'selection background ("": the theme\'s)',
  },
  {
    key: "palette",
    kind: "palette",
    default: [],
    appliesTo: "page",
    description:
      "colours 0-15 (black, red, green, yellow, blue, magenta, cyan, white, then the bright ones); fewer than 16 change the first ones",
  },
  {
    key: "minimum-contrast-ratio",
    kind: "number",
    default: 4.5,
    min: 1,
    max: 21,
    appliesTo: "page",
    description:
      "colours a program chose that are less readable than this contrast ratio against their background are adjusted (1: off; 4.5 is WCAG AA)",
  },
  {
    key: "bold-is-bright",
    kind: "boolean",
    default: true,
    appliesTo: "page",
    description:
      "bold text in colours 0-7 is drawn in the bright colours 8-15, as xterm",
  },
  {
    key: "cursor.style",
    kind: "enum",
    default: "block",
    values: ["block", "underline", "bar"],
    appliesTo: "page",
    description: "the cursor's shape until a program sets one (DECSCUSR)",
  },
  {
    key: "cursor.blink",
    kind: "boolean",
    default: false,
    appliesTo: "page",
    description: "the cursor blinks until a program says otherwise",
  },
  {
    key: "scrollback",
    kind: "integer",
    default: DEFAULT_SCROLLBACK_LINES,
    min: 0,
    max: MAX_SCROLLBACK_LINES,
    word: "unlimited",
    option: "--scrollback",
    appliesTo: "server",
    description: 'history lines per session (new sessions); "unlimited"',
  },
  {
    key: "grapheme-clusters",
    kind: "enum",
    default: "off",
    values: ["off", "on", "always", "never"],
    appliesTo: "server",
    description:
      "emoji widths (new sessions): off, as wcwidth counts (👍🏽 4 columns) until a program sets mode 2027; on, as one cluster (2); always, never",
  },
  {
    key: "shell",
    kind: "command",
    default: [],
    appliesTo: "server",
    description:
      'program new sessions run: "/bin/zsh" or ["zsh", "-l"] ([]: $SHELL, else /bin/sh)',
  },
  {
    key: "shell-integration",
    kind: "boolean",
    default: true,
    option: "--no-shell-integration",
    appliesTo: "start",
    description: "load domterm's prompt marks into bash, zsh and fish",
  },
  {
    key: "browser",
    kind: "string",
    default: "",
    option: "--browser",
    appliesTo: "server",
    description:
      'browser for new windows: chrome, chromium, edge, brave, default, or a path ("": the first found)',
  },
  {
    key: "file-opener",
    kind: "string",
    default: "",
    option: "--file-opener",
    appliesTo: "server",
    description:
      'command template for clicked file references: %f path, %l line, %c column, %u URL ("": the system opener)',
  },
  {
    key: "detached-timeout",
    kind: "integer",
    default: null,
    min: 0,
    max: 999_999_999,
    word: "never",
    option: "--detached-timeout",
    appliesTo: "start",
    description: 'seconds a session without windows lives on; "never"',
  },
  {
    key: "journal",
    kind: "boolean",
    default: true,
    appliesTo: "server",
    description:
      "keep a journal of each new session on disk, to restore it after a crash, a logout or a reboot (docs/persistence.md); `domterm new --no-journal` for one session",
  },
  {
    key: "journal-lines",
    kind: "integer",
    default: null,
    min: 0,
    max: MAX_SCROLLBACK_LINES,
    word: "scrollback",
    appliesTo: "server",
    description:
      'history lines a journal keeps (new sessions); "scrollback": as many as the session keeps',
  },
  {
    key: "restore.commands",
    kind: "enum",
    default: "ask",
    values: ["ask", "never"],
    appliesTo: "server",
    description:
      "a restored session that ran another program than a shell: ask (show the command, run it on Enter) or never (start the shell instead)",
  },
  {
    key: "detach-on-close",
    kind: "boolean",
    default: false,
    appliesTo: "page",
    description: "closing a window detaches its session instead of ending it",
  },
  {
    key: "confirm-close",
    kind: "boolean",
    default: true,
    appliesTo: "page",
    description:
      "closing a pane or a window asks first while a program other than the shell runs there, naming it (the browser's own close button: its generic dialog, docs/tabs-and-panes.md)",
  },
  {
    key: "input-mode",
    kind: "enum",
    default: "auto",
    values: ["auto", "char", "line", "pipe"],
    appliesTo: "page",
    description:
      "auto: edit lines in the window while the program reads lines (canonical mode); char: keys go to the program; line: always edit a line first; pipe: line mode with local echo",
  },
  {
    key: "pager.auto",
    kind: "boolean",
    default: false,
    appliesTo: "page",
    description: "pause output that fills the screen until a key is pressed",
  },
  {
    key: "clipboard.read",
    kind: "enum",
    default: "ask",
    values: ["never", "ask", "always"],
    appliesTo: "page",
    description: "may programs read the clipboard (OSC 52 ?)",
  },
  {
    key: "title-reporting",
    kind: "boolean",
    default: true,
    appliesTo: "server",
    description:
      "programs may read the icon label and window title (CSI 20 t, CSI 21 t; titles are kept without control characters)",
  },
  {
    key: "notify.long-command",
    kind: "integer",
    default: 0,
    min: 0,
    max: 86_400,
    appliesTo: "page",
    description:
      "notify when a command that ran at least this many seconds ends while the window is hidden (0: never)",
  },
  {
    key: "keys",
    kind: "keymap",
    default: {},
    appliesTo: "page",
    description:
      'key bindings over the defaults: "Ctrl+Shift+T" = "new-window" (action names: docs/settings.md)',
  },
];

/** The spec of each key. */
export const SETTINGS_BY_KEY: ReadonlyMap<string, SettingSpec> = new Map(
  SETTINGS.map((s) => [s.key, s]),
);

/** Effective settings: a value for every key of {@link SETTINGS}. */
export type Settings = Record<string, SettingValue>;

/** The defaults of every key. */
export function defaultSettings(): Settings {
  const out: Settings = {};
  for (const s of SETTINGS) out[s.key] = structuredClone(s.default);
  return out;
}

/** What a spec allows, in words (for error messages, help and docs). */
export function allowedText(s: SettingSpec): string {
  switch (s.kind) {
    case "string":
      return "a string";
    case "font":
      return "font family names (letters, digits, spaces, quotes, commas, - _ .)";
    case "enum":
      return s.values!.map((v) => `"${v}"`).join(", ");
    case "boolean":
      return "true or false";
    case "integer":
      return `an integer from ${s.min} to ${s.max}${
        s.word ? ` or "${s.word}"` : ""
      }`;
    case "number":
      return `a number from ${s.min} to ${s.max}`;
    case "color":
      return 'a colour: "#rrggbb", "#rgb", "rgb(r, g, b)", a colour name, or ""';
    case "palette":
      return "an array of up to 16 colours";
    case "command":
      return "a program path or an array of strings (program, arguments)";
    case "keymap":
      return 'a table of "Key" = "action"';
  }
}

/** A default value as TOML writes it (for help and docs). */
export function defaultText(s: SettingSpec): string {
  const v = s.default;
  if (v === null) return s.word ? `"${s.word}"` : "none";
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return v.length ? JSON.stringify(v) : "[]";
  if (typeof v === "object") return "{}";
  return String(v);
}
