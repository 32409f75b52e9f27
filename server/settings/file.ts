/**
 * The settings file, `$XDG_CONFIG_HOME/domterm/settings.toml` (else
 * `~/.config/domterm/settings.toml`): reading it (a bad value is reported
 * with its line and the value in force is kept), watching it (a change
 * reaches every window at once), and writing keys into it atomically for
 * the settings page and `domterm settings --save`, keeping the user's
 * comments and layout.
 *
 * @module
 */
import { parse, stringify, type TomlError } from "smol-toml";
import { didYouMean } from "../../core/suggest.ts";
import {
  defaultSettings,
  type Settings,
  SETTINGS_BY_KEY,
  type SettingValue,
} from "../../core/settings/schema.ts";
import {
  checkSettings,
  type SettingProblem,
} from "../../core/settings/validate.ts";
import { findKeyLine } from "../../core/settings/lines.ts";
import { dirname } from "node:path";

/** Largest settings file read. */
export const MAX_SETTINGS_BYTES = 1 << 20;

/**
 * Where the settings file lives: `$DOMTERM_SETTINGS` (tests), else
 * `$XDG_CONFIG_HOME/domterm/settings.toml`, else
 * `$HOME/.config/domterm/settings.toml`; null when none is set.
 */
export function defaultSettingsPath(): string | null {
  const own = Deno.env.get("DOMTERM_SETTINGS");
  if (own) return own;
  const xdg = Deno.env.get("XDG_CONFIG_HOME");
  if (xdg) return `${xdg}/domterm/settings.toml`;
  const home = Deno.env.get("HOME");
  return home ? `${home}/.config/domterm/settings.toml` : null;
}

/** A problem as one line: `FILE:LINE: message`. */
export function formatProblem(file: string, p: SettingProblem): string {
  return `${file}${p.line !== undefined ? `:${p.line}` : ""}: ${p.message}`;
}

/**
 * Why a settings file (or its directory) must not be trusted, or null:
 * another user owns it, or a user other than its owner can write it
 * (group or others write bits). Such a file could make the next session run
 * any program as this user (the `shell` setting), so it is not read.
 * Unknowable ownership (no uid, as on Windows) is trusted.
 */
export function unsafeOwnership(
  path: string,
  info?: Deno.FileInfo,
): string | null {
  let st: Deno.FileInfo;
  try {
    st = info ?? Deno.statSync(path);
  } catch {
    return null; // missing: nothing to trust
  }
  const me = Deno.uid();
  if (me === null || st.uid === null || st.mode === null) return null;
  if (st.uid !== me && st.uid !== 0) {
    return `${path}: owned by another user (uid ${st.uid}); not read. ` +
      `Remove it or take it over (chown ${me} ${path}).`;
  }
  if ((st.mode & 0o022) !== 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(4, "0");
    return `${path}: others can change it (mode ${mode}); not read. ` +
      `Fix it with: chmod go-w ${path}`;
  }
  return null;
}

/**
 * The parser's message, said the way a user can act on it: smol-toml
 * reports a string that runs into the end of its line as "control
 * characters are not allowed in strings" (the line break is the control
 * character); when the line has no other control character, that is an
 * unterminated string.
 */
function tomlMessage(text: string, err: TomlError): string {
  const first = String(err.message).split("\n")[0].replace(
    /^Invalid TOML document: /,
    "",
  );
  if (!/control characters are not allowed/.test(first)) return first;
  const line = typeof err.line === "number"
    ? text.split("\n")[err.line - 1] ?? ""
    : "";
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(line.replace(/\r$/, ""))) return first;
  return "unterminated string (the closing quote is missing on this line)";
}

/**
 * Read settings from TOML text: the good values by key, and the problems
 * (with lines). A syntax error gives no values at all.
 */
export function readSettingsText(
  text: string,
): { values: Partial<Settings>; problems: SettingProblem[] } {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (e) {
    const err = e as TomlError;
    const first = tomlMessage(text, err);
    return {
      values: {},
      problems: [{
        key: "",
        path: [],
        line: typeof err.line === "number" ? err.line : undefined,
        message: `not valid TOML: ${first}; no setting of the file was changed`,
      }],
    };
  }
  const r = checkSettings(doc);
  for (const p of r.problems) p.line = findKeyLine(text, p.path);
  return r;
}

/**
 * The settings in force: the file's over the defaults, a value the file
 * gets wrong keeping what it was, and the command line's over all.
 */
export class SettingsStore {
  readonly path: string | null;
  #fromFile: Settings = defaultSettings();
  #overrides: Partial<Settings>;
  #problems: string[] = [];
  #listeners = new Set<(s: Settings, problems: string[]) => void>();
  #watcher: Deno.FsWatcher | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #poll: ReturnType<typeof setInterval> | 0 = 0;
  #lastText: string | null = null;
  #log: (m: string) => void;

  constructor(
    path: string | null,
    overrides: Partial<Settings> = {},
    log: (m: string) => void = (m) => console.error(`domterm: ${m}`),
  ) {
    this.path = path;
    this.#overrides = overrides;
    this.#log = log;
  }

  /** The effective settings. */
  get current(): Settings {
    return { ...this.#fromFile, ...this.#overrides } as Settings;
  }

  /** The problems of the file as last read, one line each (`file:line: ...`). */
  get problems(): string[] {
    return [...this.#problems];
  }

  /** Called with the effective settings after every change of the file. */
  onChange(fn: (s: Settings, problems: string[]) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /**
   * Read the file now. Never throws: a missing file is the defaults, an
   * unreadable or bad one is reported and changes nothing it gets wrong.
   * Returns true when the effective settings or the problems changed.
   */
  load(): boolean {
    if (this.path === null) return false;
    let text: string;
    try {
      const info = Deno.statSync(this.path);
      const unsafe = unsafeOwnership(this.path, info) ??
        unsafeOwnership(dirname(this.path));
      if (unsafe !== null) return this.#report([unsafe]);
      if (info.size > MAX_SETTINGS_BYTES) {
        return this.#report([
          `${this.path}: larger than ${MAX_SETTINGS_BYTES} bytes; not read`,
        ]);
      }
      text = Deno.readTextFileSync(this.path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) text = "";
      else {
        return this.#report([
          `${this.path}: cannot read: ${(e as Error).message}`,
        ]);
      }
    }
    if (text === this.#lastText) return false;
    this.#lastText = text;
    const { values, problems } = readSettingsText(text);
    const syntax = problems.some((p) => p.key === "");
    const before = JSON.stringify(this.#fromFile);
    if (!syntax) {
      const next = defaultSettings();
      const bad = new Set(
        problems.map((p) => p.path[0] === "keys" ? "keys" : p.key),
      );
      for (const key of Object.keys(next)) {
        if (key in values) next[key] = values[key]!;
        else if (bad.has(key)) next[key] = this.#fromFile[key]; // keep the old value
      }
      // A bad binding keeps the old binding of that key.
      if (bad.has("keys")) {
        const old = this.#fromFile.keys as Record<string, string>;
        next.keys = { ...old, ...(next.keys as Record<string, string>) };
      }
      this.#fromFile = next;
    }
    const lines = problems.map((p) => formatProblem(this.path!, p));
    const changed = JSON.stringify(this.#fromFile) !== before;
    return this.#report(lines, changed);
  }

  #report(lines: string[], changed = false): boolean {
    for (const l of lines) this.#log(l);
    const same = lines.join("\n") === this.#problems.join("\n");
    this.#problems = lines;
    if (same && !changed) return false;
    const s = this.current;
    for (const fn of this.#listeners) fn(s, this.problems);
    return true;
  }

  /**
   * Watch the file: a change is read 100 ms after the last event (editors
   * write in several steps). Watches the directory (an editor's rename
   * replaces the file); without the directory, looks for it every 2 s.
   */
  watch(): void {
    if (this.path === null || this.#watcher || this.#poll) return;
    const dir = dirname(this.path);
    try {
      this.#watcher = Deno.watchFs(dir, { recursive: false });
    } catch {
      this.#poll = setInterval(() => {
        try {
          Deno.statSync(dir);
        } catch {
          return;
        }
        clearInterval(this.#poll);
        this.#poll = 0;
        this.load();
        this.watch();
      }, 2000);
      Deno.unrefTimer(this.#poll);
      return;
    }
    const w = this.#watcher;
    (async () => {
      try {
        for await (const ev of w) {
          if (!ev.paths.some((p) => p === this.path || dirname(p) === dir)) {
            continue;
          }
          clearTimeout(this.#timer);
          this.#timer = setTimeout(() => this.load(), 100);
        }
      } catch {
        // closed
      }
    })();
  }

  /** Stop watching. */
  close(): void {
    clearTimeout(this.#timer);
    clearInterval(this.#poll);
    this.#poll = 0;
    try {
      this.#watcher?.close();
    } catch {
      // already closed
    }
    this.#watcher = null;
  }

  /**
   * Write `updates` (dotted keys, already checked) into the file,
   * atomically (a temporary file renamed over it), keeping everything
   * else in it; then read it back. Throws with a clear message when it
   * cannot write.
   */
  async save(updates: Partial<Settings>): Promise<void> {
    if (this.path === null) {
      throw new Error("no settings file: HOME is not set");
    }
    let text = "";
    try {
      text = await Deno.readTextFile(this.path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    for (const [key, value] of Object.entries(updates)) {
      if (!SETTINGS_BY_KEY.has(key)) {
        throw new Error(
          `unknown setting '${key}'${
            didYouMean(key, [...SETTINGS_BY_KEY.keys()])
          }`,
        );
      }
      text = setKeyInText(text, key, value as SettingValue);
    }
    // 0700 for every directory made (~/.config too, as XDG asks), whatever
    // the umask; a directory another user can write is refused.
    await Deno.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const unsafe = unsafeOwnership(dirname(this.path));
    if (unsafe !== null) throw new Error(unsafe);
    const tmp = `${this.path}.${Deno.pid}.tmp`;
    await Deno.writeTextFile(tmp, text, { mode: 0o600 });
    await Deno.rename(tmp, this.path);
    this.load();
  }
}

/** `value` as TOML writes it after `key =`. */
function tomlValue(value: SettingValue): string {
  if (value === null) return "";
  return stringify({ v: value }).replace(/^v = /, "").trim();
}

/**
 * Set `key` (dotted) to `value` in TOML `text`, keeping every other line.
 * A key the file has on one line is replaced there; one it lacks goes under
 * its table's header (added if missing). A value equal to null (an
 * integer's word, e.g. "unlimited") is written as that word.
 */
export function setKeyInText(
  text: string,
  key: string,
  value: SettingValue,
): string {
  const spec = SETTINGS_BY_KEY.get(key)!;
  const rhs = value === null && spec.word
    ? `"${spec.word}"`
    : spec.kind === "keymap"
    ? null
    : tomlValue(value);
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const path = key.split(".");
  const leaf = path[path.length - 1];
  const table = path.slice(0, -1);
  if (rhs === null) {
    // A key map: the whole [keys] table is rewritten.
    const start = findKeyLine(text, path);
    const body = Object.entries(value as Record<string, string>).map(([k, a]) =>
      `${JSON.stringify(k)} = ${JSON.stringify(a)}`
    );
    if (start !== undefined && /^\s*\[/.test(lines[start - 1])) {
      let end = start;
      while (end < lines.length && !/^\s*\[/.test(lines[end])) end++;
      lines.splice(start, end - start, ...body);
    } else lines.push("", `[${key}]`, ...body);
    return lines.join("\n") + "\n";
  }
  const at = findKeyLine(text, path);
  if (at !== undefined && !/^\s*\[/.test(lines[at - 1])) {
    const line = lines[at - 1];
    const eq = line.indexOf("=");
    // The value may go on over several lines (an array): replace them all.
    for (
      let end = at;
      eq > 0 && end <= lines.length && end < at + 1000;
      end++
    ) {
      const value = [line.slice(eq + 1), ...lines.slice(at, end)].join("\n");
      try {
        parse(`v = ${value}`);
      } catch {
        continue;
      }
      lines.splice(
        at - 1,
        end - at + 1,
        `${line.slice(0, eq).trimEnd()} = ${rhs}`,
      );
      return lines.join("\n") + "\n";
    }
  }
  const entry = `${
    /^[A-Za-z0-9_-]+$/.test(leaf) ? leaf : JSON.stringify(leaf)
  } = ${rhs}`;
  if (table.length === 0) {
    // Top-level keys go before the first table header.
    const first = lines.findIndex((l) => /^\s*\[/.test(l));
    if (first < 0) lines.push(entry);
    else lines.splice(first, 0, entry);
    return lines.join("\n") + "\n";
  }
  const header = findKeyLine(text, table);
  if (header !== undefined && /^\s*\[/.test(lines[header - 1])) {
    lines.splice(header, 0, entry);
  } else lines.push("", `[${table.join(".")}]`, entry);
  return lines.join("\n") + "\n";
}
