/**
 * The settings page ("Settings…" in the menu): a dialog over the window
 * that lists every key of the schema (core/settings/schema.ts) with its
 * value in force and its default, edits them, and saves the changed keys
 * through the server into the settings file. The new values come back as
 * a `settings` message once the file watcher has read the file, like an
 * edit in a text editor. Keyboard: Tab between fields, Enter saves
 * (Ctrl+Enter in the key bindings), Escape closes.
 *
 * @module
 */
import {
  allowedText,
  defaultText,
  SETTINGS,
  type Settings,
  type SettingSpec,
  type SettingValue,
} from "../core/settings/schema.ts";
import { checkSettings } from "../core/settings/validate.ts";
import { COLOR_PROPS } from "./apply_settings.ts";

/** What the page needs from the window. */
export interface SettingsPageHost {
  /** The server's settings (without this window's OSC 88 ones). */
  current(): Readonly<Settings>;
  /** The settings file's path, and its problems. */
  path(): string | null;
  problems(): string[];
  /** Send the changed keys to the server; false when not connected. */
  save(values: Record<string, unknown>): boolean;
  /** Give the keyboard back to the terminal. */
  focusTerminal(): void;
}

/** A value as the page's text field shows it. */
function toText(spec: SettingSpec, v: SettingValue): string {
  if (v === null) return spec.word ?? "";
  switch (spec.kind) {
    case "palette":
      return (v as string[]).join(", ");
    case "command":
      return (v as string[]).length <= 1
        ? ((v as string[])[0] ?? "")
        : JSON.stringify(v);
    case "keymap":
      return Object.entries(v as Record<string, string>).map(([k, a]) =>
        `${k} = ${a}`
      ).join("\n");
    default:
      return String(v);
  }
}

/** A field's text as the value to check (the inverse of {@link toText}). */
function fromText(spec: SettingSpec, text: string): unknown {
  const t = text.trim();
  switch (spec.kind) {
    case "integer":
    case "number":
      if (spec.word !== undefined && t === spec.word) return t;
      return t === "" || !/^[-+]?[0-9.]+$/.test(t) ? t : Number(t);
    case "boolean":
      return t === "true";
    case "palette":
      return t === "" ? [] : t.split(/\s*,\s*/);
    case "command":
      if (t.startsWith("[")) {
        try {
          return JSON.parse(t);
        } catch {
          return t;
        }
      }
      return t;
    case "keymap": {
      const out: Record<string, string> = {};
      for (const line of t.split("\n")) {
        if (line.trim() === "") continue;
        const eq = line.lastIndexOf("=");
        out[line.slice(0, eq < 0 ? line.length : eq).trim()] = eq < 0
          ? ""
          : line.slice(eq + 1).trim();
      }
      return out;
    }
    default:
      return text;
  }
}

/** The settings dialog of one window. */
export class SettingsPage {
  #host: SettingsPageHost;
  #dialog: HTMLDialogElement;
  #fields = new Map<
    string,
    HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement
  >();
  #errors = new Map<string, HTMLElement>();
  /** Repaints a colour field's swatch. */
  #paint = new Map<string, () => void>();
  #status: HTMLElement;
  #pathEl: HTMLElement;

  constructor(doc: Document, host: SettingsPageHost) {
    this.#host = host;
    const d = doc.createElement("dialog");
    d.className = "dt-settings";
    d.setAttribute("aria-labelledby", "dt-settings-title");
    const form = doc.createElement("form");
    form.method = "dialog";
    const head = doc.createElement("header");
    const h = doc.createElement("h2");
    h.id = "dt-settings-title";
    h.textContent = "Settings";
    this.#pathEl = doc.createElement("p");
    this.#pathEl.className = "dt-settings-path";
    head.append(h, this.#pathEl);
    this.#status = doc.createElement("p");
    this.#status.className = "dt-settings-status";
    this.#status.setAttribute("role", "status");
    const list = doc.createElement("div");
    list.className = "dt-settings-list";
    for (const spec of SETTINGS) list.append(this.#row(doc, spec));
    const buttons = doc.createElement("footer");
    const cancel = doc.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", () => this.close());
    const save = doc.createElement("button");
    save.type = "submit";
    save.className = "dt-settings-save";
    save.textContent = "Save";
    buttons.append(cancel, save);
    form.append(head, this.#status, list, buttons);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.save();
    });
    d.append(form);
    d.addEventListener("close", () => host.focusTerminal());
    // Keys typed here are the page's, not the terminal's.
    d.addEventListener("keydown", (e) => e.stopPropagation());
    doc.body.append(d);
    this.#dialog = d;
  }

  #row(doc: Document, spec: SettingSpec): HTMLElement {
    const row = doc.createElement("div");
    row.className = "dt-settings-row";
    const id = `dt-setting-${spec.key.replace(/\W/g, "-")}`;
    const label = doc.createElement("label");
    label.htmlFor = id;
    label.className = "dt-settings-key";
    label.textContent = spec.key;
    let field: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    if (spec.kind === "enum" || spec.kind === "boolean") {
      const sel = doc.createElement("select");
      for (const v of spec.kind === "enum" ? spec.values! : ["true", "false"]) {
        const o = doc.createElement("option");
        o.value = o.textContent = v;
        sel.append(o);
      }
      field = sel;
    } else if (spec.kind === "keymap") {
      const ta = doc.createElement("textarea");
      ta.rows = 3;
      ta.placeholder = "Ctrl+Shift+T = new-window";
      // Enter adds a line here; Ctrl+Enter saves.
      ta.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && e.ctrlKey) {
          e.preventDefault();
          this.save();
        }
      });
      field = ta;
    } else {
      const input = doc.createElement("input");
      input.type = "text";
      input.spellcheck = false;
      input.autocomplete = "off";
      field = input;
    }
    field.id = id;
    field.name = spec.key;
    field.className = "dt-settings-field";
    const help = doc.createElement("div");
    help.className = "dt-settings-help";
    help.id = `${id}-help`;
    const def = defaultText(spec);
    help.textContent = `${spec.description}. Default: ${
      def === '""' || def === "[]" || def === "{}" ? "none" : def
    }`;
    field.setAttribute("aria-describedby", help.id);
    const err = doc.createElement("div");
    err.className = "dt-settings-error";
    err.hidden = true;
    row.append(label, field, help, err);
    if (spec.kind === "color") {
      const sw = doc.createElement("span");
      sw.className = "dt-settings-swatch";
      sw.setAttribute("aria-hidden", "true");
      const input = field;
      const paint = () => {
        // Empty: the theme's colour.
        sw.style.background = input.value.trim() ||
          `var(${COLOR_PROPS[spec.key] ?? "--dt-bg"})`;
      };
      input.addEventListener("input", paint);
      label.append(sw);
      this.#paint.set(spec.key, paint);
    }
    field.title = `Allowed: ${allowedText(spec)}`;
    this.#fields.set(spec.key, field);
    this.#errors.set(spec.key, err);
    return row;
  }

  /** Whether the page is open. */
  get isOpen(): boolean {
    return this.#dialog.open;
  }

  /** Open the page with the settings in force. */
  open(): void {
    this.#fill();
    this.#status.textContent = "";
    if (!this.#dialog.open) this.#dialog.showModal();
    this.#fields.get(SETTINGS[0].key)?.focus();
  }

  /** Close without saving. */
  close(): void {
    if (this.#dialog.open) this.#dialog.close();
  }

  /** The settings changed (the file was saved, or edited elsewhere): show them. */
  refresh(): void {
    if (this.#dialog.open) this.#fill();
  }

  #fill(): void {
    const cur = this.#host.current();
    this.#pathEl.textContent = this.#host.path() ??
      "(no settings file: HOME is not set)";
    const problems = this.#host.problems();
    this.#status.textContent = problems.join("\n");
    this.#status.classList.toggle("dt-settings-bad", problems.length > 0);
    for (const spec of SETTINGS) {
      const f = this.#fields.get(spec.key)!;
      f.value = toText(spec, cur[spec.key]);
      this.#paint.get(spec.key)?.();
      const err = this.#errors.get(spec.key)!;
      err.hidden = true;
      f.removeAttribute("aria-invalid");
    }
  }

  /**
   * Check every field; send the changed keys to the server. Returns the
   * number of keys sent, or -1 when a field is wrong (shown next to it).
   */
  save(): number {
    const cur = this.#host.current();
    const changed: Record<string, unknown> = {};
    let bad = false;
    for (const spec of SETTINGS) {
      const f = this.#fields.get(spec.key)!;
      const err = this.#errors.get(spec.key)!;
      const raw = fromText(spec, f.value);
      const { values, problems } = checkSettings({ [spec.key]: raw });
      if (problems.length) {
        bad = true;
        err.textContent = problems.map((p) => p.message).join("; ");
        err.hidden = false;
        f.setAttribute("aria-invalid", "true");
        continue;
      }
      err.hidden = true;
      f.removeAttribute("aria-invalid");
      if (JSON.stringify(values[spec.key]) !== JSON.stringify(cur[spec.key])) {
        changed[spec.key] = raw;
      }
    }
    if (bad) {
      this.#status.textContent = "Not saved: correct the fields marked in red.";
      this.#status.classList.add("dt-settings-bad");
      this.#dialog.querySelector<HTMLElement>("[aria-invalid]")?.focus();
      return -1;
    }
    const n = Object.keys(changed).length;
    if (n > 0 && !this.#host.save(changed)) {
      this.#status.textContent = "Not saved: not connected to domterm.";
      this.#status.classList.add("dt-settings-bad");
      return -1;
    }
    this.close();
    return n;
  }
}
