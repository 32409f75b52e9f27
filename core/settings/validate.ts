/**
 * Checking settings against the schema (`core/settings/schema.ts`): a
 * parsed settings file, an OSC 88 object, `domterm settings key=value` and
 * the settings page all go through {@link checkSettings}. A bad value is
 * reported (key, what is wrong, what is allowed) and left out, so the
 * caller keeps the value it had.
 *
 * @module
 */
import { didYouMean } from "../suggest.ts";
import {
  allowedText,
  type Settings,
  SETTINGS_BY_KEY,
  type SettingSpec,
  type SettingValue,
} from "./schema.ts";

/** One thing wrong with the settings. */
export interface SettingProblem {
  /** The dotted key (for a key binding: `keys.Ctrl+T`); "" for the whole file. */
  key: string;
  /** The key's path in the file's tables, for finding its line. */
  path: string[];
  /** 1-based line in the file, when known. */
  line?: number;
  message: string;
}

const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const FN =
  /^(?:rgba?|hsla?)\(\s*[0-9.%+-]+(?:\s*[, /]\s*[0-9.%+-]+){2,3}\s*\)$/;
const NAME = /^[a-zA-Z]{3,30}$/;

/** Whether `v` is a colour a setting may hold (also safe as a CSS value). */
export function isColor(v: string): boolean {
  return v === "" || HEX.test(v) || FN.test(v) || NAME.test(v);
}

const MODIFIERS = new Set(["ctrl", "shift", "alt", "meta", "cmd", "super"]);

/**
 * Normal form of a key as key bindings write it: modifiers in the order
 * Ctrl, Alt, Shift, Meta, then the key (one character upper-cased, or a
 * name such as F5, Enter, ArrowUp). Null when it is not a key.
 */
export function normalizeKey(text: string): string | null {
  const parts = text.split("+");
  // "Ctrl++" is Ctrl and the plus key.
  if (
    parts.length > 1 && parts[parts.length - 1] === "" && text.endsWith("++")
  ) {
    parts.splice(parts.length - 2, 2, "+");
  }
  const key = parts.pop() ?? "";
  if (key === "" || key.length > 20 || /\s/.test(key)) return null;
  const mods = new Set<string>();
  for (const p of parts) {
    const m = p.toLowerCase();
    if (!MODIFIERS.has(m)) return null;
    mods.add(m === "cmd" || m === "super" ? "meta" : m);
  }
  const order = ["ctrl", "alt", "shift", "meta"];
  const names = { ctrl: "Ctrl", alt: "Alt", shift: "Shift", meta: "Meta" };
  const out = order.filter((m) => mods.has(m)).map((m) =>
    names[m as keyof typeof names]
  );
  const k = key.length === 1
    ? key.toUpperCase()
    : key[0].toUpperCase() + key.slice(1);
  return [...out, k].join("+");
}

/** Check one value against its spec: the value to use, or what is wrong. */
export function checkValue(
  spec: SettingSpec,
  raw: unknown,
): { value: SettingValue } | { error: string } {
  const bad = (what = "") => ({
    error: `${what ? what + "; " : ""}allowed: ${allowedText(spec)}`,
  });
  switch (spec.kind) {
    case "string":
      return typeof raw === "string" && raw.length <= 4096
        ? { value: raw }
        : bad();
    case "font":
      return typeof raw === "string" && raw.length <= 1000 &&
          /^[\p{L}\p{N} "',._-]*$/u.test(raw)
        ? { value: raw.trim() }
        : bad();
    case "enum":
      return typeof raw === "string" && spec.values!.includes(raw)
        ? { value: raw }
        : bad();
    case "boolean":
      return typeof raw === "boolean" ? { value: raw } : bad();
    case "integer":
      if (spec.word !== undefined && raw === spec.word) return { value: null };
      if (
        typeof raw === "number" || typeof raw === "bigint"
      ) {
        const n = Number(raw);
        if (Number.isInteger(n) && n >= spec.min! && n <= spec.max!) {
          return { value: n };
        }
      }
      return bad();
    case "number": {
      const n = typeof raw === "bigint" ? Number(raw) : raw;
      return typeof n === "number" && Number.isFinite(n) && n >= spec.min! &&
          n <= spec.max!
        ? { value: n }
        : bad();
    }
    case "color":
      return typeof raw === "string" && isColor(raw.trim())
        ? { value: raw.trim() }
        : bad();
    case "palette": {
      if (!Array.isArray(raw) || raw.length > 16) return bad();
      const i = raw.findIndex((c) => typeof c !== "string" || !isColor(c));
      if (i >= 0) return bad(`entry ${i} is not a colour`);
      return { value: raw.map((c) => (c as string).trim()) };
    }
    case "command":
      if (typeof raw === "string") return { value: raw === "" ? [] : [raw] };
      if (
        Array.isArray(raw) && raw.every((a) => typeof a === "string") &&
        (raw.length === 0 || raw[0] !== "")
      ) return { value: [...raw] as string[] };
      return bad();
    case "keymap":
      // Entries are checked one by one in checkSettings.
      return typeof raw === "object" && raw !== null && !Array.isArray(raw)
        ? { value: {} }
        : bad();
  }
}

/** An action name a key binding may name. */
const ACTION = /^[a-z][a-z0-9-]{0,40}$/;

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) &&
    !(v instanceof Date);
}

/**
 * Check a settings object (a parsed TOML file: tables nest, `[font] size`
 * is `font.size`; or flat dotted keys, as OSC 88 and `domterm settings`
 * give them). Returns the good values by dotted key (only keys present)
 * and every problem; unknown keys are problems too.
 */
export function checkSettings(
  input: Record<string, unknown>,
): { values: Partial<Settings>; problems: SettingProblem[] } {
  const values: Partial<Settings> = {};
  const problems: SettingProblem[] = [];
  const visit = (obj: Record<string, unknown>, prefix: string[]) => {
    for (const [name, raw] of Object.entries(obj)) {
      const path = [...prefix, ...name.split(".")];
      const key = path.join(".");
      const spec = SETTINGS_BY_KEY.get(key);
      if (spec === undefined) {
        if (
          isTable(raw) &&
          [...SETTINGS_BY_KEY.keys()].some((k) => k.startsWith(key + "."))
        ) {
          visit(raw, path);
          continue;
        }
        problems.push({
          key,
          path,
          message: `unknown setting '${key}'${
            didYouMean(key, [...SETTINGS_BY_KEY.keys()])
          }`,
        });
        continue;
      }
      const r = checkValue(spec, raw);
      if ("error" in r) {
        problems.push({
          key,
          path,
          message: `bad value ${show(raw)} for '${key}': ${r.error}`,
        });
        continue;
      }
      if (spec.kind === "keymap") {
        values[key] = checkKeymap(
          raw as Record<string, unknown>,
          path,
          problems,
        );
      } else values[key] = r.value;
    }
  };
  visit(input, []);
  return { values, problems };
}

function checkKeymap(
  raw: Record<string, unknown>,
  path: string[],
  problems: SettingProblem[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, action] of Object.entries(raw)) {
    const p = [...path, k];
    const key = p.join(".");
    const norm = normalizeKey(k);
    if (norm === null) {
      problems.push({
        key,
        path: p,
        message:
          `bad key '${k}' in 'keys': write modifiers and a key joined by +, e.g. "Ctrl+Shift+T"`,
      });
    } else if (typeof action !== "string" || !ACTION.test(action)) {
      problems.push({
        key,
        path: p,
        message: `bad action ${
          show(action)
        } for key '${k}': allowed: an action name such as "copy"`,
      });
    } else out[norm] = action;
  }
  return out;
}

/** A value as the user wrote it, short. */
function show(v: unknown): string {
  let s: string;
  try {
    s = typeof v === "bigint" ? String(v) : JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}

/**
 * Parse `key=value` words (`domterm settings`): the value is read as JSON
 * when it is JSON (numbers, true/false, arrays, quoted strings), else taken
 * as a string. Returns an object for {@link checkSettings}, or an error.
 */
export function parseAssignments(
  words: string[],
): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  for (const w of words) {
    const eq = w.indexOf("=");
    if (eq <= 0) return `'${w}' is not key=value`;
    const key = w.slice(0, eq).trim();
    const text = w.slice(eq + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // a bare word: a string
    }
    if (key.startsWith("keys.")) {
      const keys = (out.keys ??= {}) as Record<string, unknown>;
      keys[key.slice(5)] = value;
    } else out[key] = value;
  }
  return out;
}

/**
 * Keep only the keys a window applies itself (`appliesTo: "page"`): what
 * one session (`domterm settings`) or one window (OSC 88) may set. The
 * others (scrollback, shell, browser...) belong to the settings file; each
 * is a problem.
 */
export function windowKeysOnly(
  r: { values: Partial<Settings>; problems: SettingProblem[] },
): { values: Partial<Settings>; problems: SettingProblem[] } {
  const values: Partial<Settings> = {};
  const problems = [...r.problems];
  for (const [key, v] of Object.entries(r.values)) {
    if (SETTINGS_BY_KEY.get(key)?.appliesTo === "page") values[key] = v;
    else {
      problems.push({
        key,
        path: key.split("."),
        message:
          `'${key}' cannot be set for one session or window: set it in the settings file`,
      });
    }
  }
  return { values, problems };
}
