/**
 * What a program running in domterm prints to show rich output and to
 * take events from it (docs/interactive.md), and the parser of the event
 * lines it reads back: pure functions, shared by the package's `rich`
 * module (`rich/mod.ts`, for Deno and Node programs) and `domterm
 * inspect` (server/commands/inspect.ts).
 *
 * @module
 */

/** Characters that would end an OSC early: BEL, CAN, SUB, ESC, ST (8-bit). */
// deno-lint-ignore no-control-regex
const OSC_BREAKERS = /[\x07\x18\x1a\x1b\x9c]/g;

/**
 * `s` without the characters that would end an escape sequence early (they
 * have no business in HTML; the rest of the text would run as terminal
 * output).
 */
export function oscSafe(s: string): string {
  return s.replace(OSC_BREAKERS, "");
}

/** `OSC 72 ; html BEL`: insert an HTML fragment at the cursor. */
export function htmlSequence(html: string): string {
  return `\x1b]72;${oscSafe(html)}\x07`;
}

/**
 * `OSC 721 ; key ; html BEL`: replace the children of the element printed
 * earlier with `class="can-replace-children" replace-key="key"`.
 */
export function replaceSequence(key: string, html: string): string {
  return `\x1b]721;${oscSafe(key).replaceAll(";", "")};${oscSafe(html)}\x07`;
}

/** The element-event mode on (`CSI ? 7101 h`) or off (`l`). */
export function eventsModeSequence(on: boolean): string {
  return on ? "\x1b[?7101h" : "\x1b[?7101l";
}

/** Base64 of `bytes` (no Deno or Node API). */
export function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** How {@link imageSequence} sizes an image: N (cells), Npx, N% or auto. */
export interface ImageSize {
  width?: string;
  height?: string;
  /** File name shown for it (default "image"). */
  name?: string;
}

/** `OSC 1337 ; File=... : base64 BEL` (iTerm2's protocol): show an image inline. */
export function imageSequence(bytes: Uint8Array, size: ImageSize = {}): string {
  const name = base64(new TextEncoder().encode(size.name ?? "image"));
  let args = `name=${name};size=${bytes.length};inline=1`;
  const ok = (v: string) => /^(?:auto|\d+(?:px|%)?)$/.test(v);
  if (size.width !== undefined && ok(size.width)) {
    args += `;width=${size.width}`;
  }
  if (size.height !== undefined && ok(size.height)) {
    args += `;height=${size.height}`;
  }
  return `\x1b]1337;File=${args}:${base64(bytes)}\x07`;
}

/** `s` with `& < > " '` as entities: text (or an attribute value) in HTML. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) =>
      c === "&"
        ? "&amp;"
        : c === "<"
        ? "&lt;"
        : c === ">"
        ? "&gt;"
        : c === '"'
        ? "&quot;"
        : "&#39;",
  );
}

/**
 * A lazy inspector: a closed `<details>` whose children the program gives
 * when it is opened. Opening it sends a toggle event with `key`; answer
 * with `replace(key, "<summary>…</summary>" + children)`.
 */
export function lazyDetails(
  name: string,
  key: string,
  summaryHtml: string,
): string {
  return `<details data-dt-event="${escapeHtml(name)}" ` +
    `class="can-replace-children" replace-key="${escapeHtml(key)}">` +
    `<summary>${summaryHtml}</summary></details>`;
}

/** One event a program reads (the JSON of an `OSC 7101` line). */
export interface ElementEvent {
  /** The element's `data-dt-event`. */
  name: string;
  /** The replace-key of the element or its nearest ancestor with one. */
  key: string | null;
  event: "click" | "toggle" | "change";
  /**
   * click: null; toggle: "open" or "closed"; checkbox or radio: checked;
   * text input or select: the value.
   */
  value: null | boolean | string;
  /** The value was cut to keep the line within 4 KiB. */
  truncated?: boolean;
}

/** Input that is not an event: what the user typed, as text. */
export interface TypedInput {
  event: "input";
  text: string;
}

/** The report's introducer: `ESC ] 7101 ;`. */
const PREFIX = "\x1b]7101;";
/** An unfinished report longer than this is input after all (the cap is 4 KiB of JSON). */
const MAX_REPORT = 8192;

/** Whether `v` is an {@link ElementEvent}. */
function isEvent(v: unknown): v is ElementEvent {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.name === "string" &&
    (o.key === null || typeof o.key === "string") &&
    (o.event === "click" || o.event === "toggle" || o.event === "change");
}

/**
 * Splits what a program reads into event reports (`ESC ] 7101 ; JSON BEL`
 * and the LF after it) and typed input. Feed it decoded text in pieces as
 * it comes; a report split across pieces is held until it is complete.
 */
export class EventParser {
  #held = "";
  /** True when the last report's LF is still to be skipped. */
  #skipLf = false;

  /** What `text` completes, in order. */
  push(text: string): (ElementEvent | TypedInput)[] {
    const out: (ElementEvent | TypedInput)[] = [];
    let s = this.#held + text;
    this.#held = "";
    if (this.#skipLf && s.length > 0) {
      if (s[0] === "\n") s = s.slice(1);
      this.#skipLf = false;
    }
    while (s.length > 0) {
      const at = s.indexOf("\x1b]");
      if (at < 0) {
        // A lone ESC at the end may start a report.
        const keep = s.endsWith("\x1b") ? 1 : 0;
        if (s.length > keep) {
          out.push({ event: "input", text: s.slice(0, s.length - keep) });
        }
        this.#held = s.slice(s.length - keep);
        break;
      }
      if (at > 0) out.push({ event: "input", text: s.slice(0, at) });
      s = s.slice(at);
      if (s.length < PREFIX.length && PREFIX.startsWith(s)) {
        this.#held = s; // maybe the start of a report
        break;
      }
      const end = s.startsWith(PREFIX) ? s.indexOf("\x07") : -2;
      if (end === -1 && s.length <= MAX_REPORT) {
        this.#held = s;
        break;
      }
      let ev: unknown = null;
      if (end > 0) {
        try {
          ev = JSON.parse(s.slice(PREFIX.length, end));
        } catch { /* not ours: input */ }
      }
      if (!isEvent(ev)) {
        out.push({ event: "input", text: s.slice(0, 2) });
        s = s.slice(2);
        continue;
      }
      out.push(ev);
      s = s.slice(end + 1);
      if (s.length === 0) this.#skipLf = true;
      else if (s[0] === "\n") s = s.slice(1);
    }
    // Neighbouring input pieces as one.
    return out.reduce<(ElementEvent | TypedInput)[]>((acc, e) => {
      const last = acc.at(-1);
      if (e.event === "input" && last?.event === "input") {
        acc[acc.length - 1] = {
          event: "input",
          text: (last as TypedInput).text + (e as TypedInput).text,
        };
      } else acc.push(e);
      return acc;
    }, []);
  }
}
