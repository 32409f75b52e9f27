/**
 * `domterm inspect FILE.json`: a lazy tree inspector of a JSON file, in the
 * terminal (docs/interactive.md). It prints the top level as nested
 * `<details>` inspectors with the element-event mode on; opening one sends
 * it a toggle event, which it answers with that node's children
 * (`OSC 721`); arrays and objects come in pages of {@link PAGE} entries
 * with a "more" button. Only what is open was ever printed, so a large
 * document opens as fast as it parses (bench/inspect_bench.ts). `q`,
 * Ctrl+C or Ctrl+D ends it.
 *
 * @module
 */
import {
  type ElementEvent,
  escapeHtml,
  EventParser,
  eventsModeSequence,
  htmlSequence,
  lazyDetails,
  replaceSequence,
} from "../../core/rich_output.ts";
import { flag, type ParsedArgs } from "../cli/parse.ts";
import { JsonSyntaxError, LazyJson, type Span } from "./lazy_json.ts";
import { CommandError, requireDomterm, writeAll } from "./tty.ts";

/** Entries of an array or object printed at a time. */
export const PAGE = 100;
/** A string longer than this shows its start and its length. */
const MAX_STRING = 300;
/** The largest file read. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;
/** The event name of the inspectors and of the "more" buttons. */
const OPEN = "inspect";
const MORE = "more";

/** One line of the inspector: `key: value`. */
function label(key: string | null): string {
  return key === null
    ? ""
    : `<span class="dt-json-key">${escapeHtml(key)}</span>: `;
}

/** A leaf value as HTML. */
function leaf(v: unknown): string {
  if (typeof v === "string") {
    const shown = v.length > MAX_STRING
      ? `${JSON.stringify(v.slice(0, MAX_STRING))}… (${v.length} characters)`
      : JSON.stringify(v);
    return `<span class="dt-json-string">${escapeHtml(shown)}</span>`;
  }
  return `<span class="dt-json-${v === null ? "null" : typeof v}">${
    escapeHtml(String(v))
  }</span>`;
}

/** A container the inspector has printed (closed or open). */
interface Node {
  span: Span;
  /** Its summary's HTML. */
  summary: string;
}

/** The inspector of one JSON document: what to print first, and the answer to each event. */
export class JsonInspector {
  #doc: LazyJson;
  #nodes = new Map<string, Node>();
  #next = 1;
  #title: string;

  /** An inspector of `doc`, titled `title` (the file name). */
  constructor(doc: LazyJson, title: string) {
    this.#doc = doc;
    this.#title = title;
  }

  /** What a container shows closed: `{…} 3 keys`, `[…] 10 items`. */
  #preview(s: Span): string {
    const n = this.#doc.count(s);
    const [open, unit] = this.#doc.kind(s) === "array"
      ? ["[…]", "item"]
      : ["{…}", "key"];
    return `${open} <span class="dt-json-count">${n} ${unit}${
      n === 1 ? "" : "s"
    }</span>`;
  }

  /** A leaf's HTML (a syntax error in it is shown, not thrown). */
  #leaf(s: Span): string {
    try {
      return leaf(this.#doc.leaf(s));
    } catch (e) {
      return `<span class="dt-json-error">${
        escapeHtml((e as Error).message)
      }</span>`;
    }
  }

  /** A new key for a container, remembered. */
  #key(span: Span, summary: string): string {
    const key = `n${this.#next++}`;
    this.#nodes.set(key, { span, summary });
    return key;
  }

  /** One entry: a leaf line, or a closed lazy inspector. */
  #entry(key: string | null, s: Span): string {
    if (this.#doc.kind(s) === "leaf") {
      return `<div class="dt-json-leaf">${label(key)}${this.#leaf(s)}</div>`;
    }
    const summary = label(key) + this.#preview(s);
    return lazyDetails(OPEN, this.#key(s, summary), summary);
  }

  /** Entries [from, from + PAGE) of `node`, then a "more" button for the rest. */
  #page(node: Node, id: string, from: number): string {
    const { keys, values } = this.#doc.entries(node.span);
    const total = values.length;
    let html = "";
    for (let i = from; i < Math.min(total, from + PAGE); i++) {
      html += this.#entry(keys === null ? String(i) : keys[i], values[i]);
    }
    const next = from + PAGE;
    if (next < total) {
      const left = total - next;
      html += `<div class="can-replace-children" replace-key="${id}@${next}">` +
        `<button data-dt-event="${MORE}">${Math.min(left, PAGE)} more ` +
        `(${left} left)</button></div>`;
    }
    return html;
  }

  /** The first output: the top level, open (or the value, when it is a leaf). */
  top(): string {
    const title = `<span class="dt-json-file">${
      escapeHtml(this.#title)
    }</span>`;
    const root = this.#doc.root;
    if (this.#doc.kind(root) === "leaf") {
      return htmlSequence(
        `<div class="dt-json">${title}: ${this.#leaf(root)}</div>`,
      );
    }
    const summary = `${title}: ${this.#preview(root)}`;
    const key = this.#key(root, summary);
    return htmlSequence(
      `<div class="dt-json"><details open data-dt-event="${OPEN}" ` +
        `class="can-replace-children" replace-key="${key}"><summary>${summary}` +
        `</summary>${
          this.#page(this.#nodes.get(key)!, key, 0)
        }</details></div>`,
    );
  }

  /** What to print for `e` ("" for nothing): a node's children, the next page. */
  answer(e: ElementEvent): string {
    if (e.key === null) return "";
    if (e.name === OPEN && e.event === "toggle" && e.value === "open") {
      const node = this.#nodes.get(e.key);
      if (node === undefined) return "";
      return replaceSequence(
        e.key,
        `<summary>${node.summary}</summary>${this.#page(node, e.key, 0)}`,
      );
    }
    if (e.name === MORE && e.event === "click") {
      const m = /^(n\d+)@(\d+)$/.exec(e.key);
      const node = m && this.#nodes.get(m[1]);
      if (!m || !node) return "";
      return replaceSequence(e.key, this.#page(node, m[1], +m[2]));
    }
    return "";
  }
}

/** Read `path` and check its structure (a CommandError says what is wrong). */
export async function readJson(path: string): Promise<LazyJson> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) throw new CommandError(`${path}: is a directory`);
    if (info.size > MAX_FILE_BYTES) {
      throw new CommandError(`${path}: larger than 512 MiB`);
    }
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof CommandError) throw e;
    const why = e instanceof Deno.errors.NotFound
      ? "no such file"
      : (e as Error).message;
    throw new CommandError(`${path}: ${why}`);
  }
  try {
    return new LazyJson(new TextDecoder().decode(bytes));
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    throw new CommandError(`${path}: not JSON: ${e.message}`);
  }
}

/** The `inspect` subcommand. */
export async function inspect(a: ParsedArgs): Promise<number> {
  await requireDomterm(flag(a, "force"));
  const path = a.operands[0];
  const name = path.split("/").pop() || path;
  const inspector = new JsonInspector(await readJson(path), name);
  const interactive = Deno.stdin.isTerminal();
  // The mode first: the elements printed after it are live.
  await writeAll(
    (interactive ? eventsModeSequence(true) : "") + inspector.top(),
  );
  if (!interactive) return 0;
  await writeAll("domterm inspect: open what you want to see; q quits\r\n");
  Deno.stdin.setRaw(true);
  try {
    await answerEvents(inspector);
  } finally {
    Deno.stdin.setRaw(false);
    await writeAll(eventsModeSequence(false));
  }
  return 0;
}

/** Answer the events on standard input until q, Ctrl+C, Ctrl+D or its end. */
async function answerEvents(inspector: JsonInspector): Promise<void> {
  const parser = new EventParser();
  const decoder = new TextDecoder();
  const buf = new Uint8Array(65536);
  for (;;) {
    const n = await Deno.stdin.read(buf);
    if (n === null) return;
    for (
      const e of parser.push(
        decoder.decode(buf.subarray(0, n), { stream: true }),
      )
    ) {
      if (e.event === "input") {
        // deno-lint-ignore no-control-regex
        if (/[qQ\x03\x04]/.test(e.text)) return;
        continue;
      }
      const out = inspector.answer(e);
      if (out !== "") await writeAll(out);
    }
  }
}
