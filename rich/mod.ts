/**
 * Rich output for programs that run in domterm (docs/interactive.md):
 * HTML, SVG and images inline, elements that send the program events, and
 * lazy inspectors answered by key. For Deno and Node programs alike:
 * output goes to standard output (or what {@link setOutput} gives), and
 * events are read from any async iterable of bytes (standard input by
 * default).
 *
 * ```ts
 * import { display, enableEvents, events, setRawInput } from "@x/domterm/rich";
 *
 * enableEvents();
 * display('<button data-dt-event="hello">Hello</button>');
 * setRawInput(true); // each event line as it comes, nothing echoed
 * for await (const e of events()) {
 *   if (e.event === "click") display(`<p>${e.name} clicked</p>`);
 *   if (e.event === "input" && e.text.includes("q")) break;
 * }
 * setRawInput(false);
 * disableEvents();
 * ```
 *
 * Nothing here checks that the terminal is domterm: {@link isDomterm}
 * tells what the environment says (`DOMTERM`), and a program decides.
 *
 * @module
 */
import {
  type ElementEvent,
  escapeHtml,
  EventParser,
  eventsModeSequence,
  htmlSequence,
  imageSequence,
  type ImageSize,
  lazyDetails,
  replaceSequence,
  type TypedInput,
} from "../core/rich_output.ts";

export { escapeHtml, EventParser, lazyDetails };
export type { ElementEvent, ImageSize, TypedInput };

// deno-lint-ignore no-explicit-any
const g = globalThis as any;
const encoder = new TextEncoder();

let output: ((text: string) => void) | null = null;

/**
 * Where output goes from now on (default: standard output, through
 * `Deno.stdout` or `process.stdout`).
 */
export function setOutput(write: ((text: string) => void) | null): void {
  output = write;
}

/** Write `text` (escape sequences) to the program's output. */
export function write(text: string): void {
  if (output !== null) return output(text);
  if (g.Deno?.stdout?.writeSync) {
    const bytes = encoder.encode(text);
    for (let o = 0; o < bytes.length;) {
      o += g.Deno.stdout.writeSync(bytes.subarray(o));
    }
  } else if (g.process?.stdout?.write) {
    g.process.stdout.write(text);
  } else throw new Error("rich: no standard output here: call setOutput()");
}

/** The value of environment variable `name`, or undefined (also without permission). */
function env(name: string): string | undefined {
  try {
    return g.Deno?.env?.get(name) ?? g.process?.env?.[name];
  } catch {
    return undefined;
  }
}

/**
 * Whether the environment says the program runs in domterm (`DOMTERM` is
 * set). It can leak into other terminals (ssh, tmux); `domterm is-domterm`
 * asks the terminal itself.
 */
export function isDomterm(): boolean {
  return (env("DOMTERM") ?? "") !== "";
}

/**
 * Insert an HTML fragment at the cursor (`OSC 72`). domterm sanitizes it
 * (docs/html-output.md); block content gets lines of its own.
 */
export function display(html: string): void {
  write(htmlSequence(html));
}

/** Insert an SVG image (its XML declaration and doctype are dropped). */
export function displaySvg(svg: string): void {
  display(
    svg.replace(/^\s*<\?xml[^>]*\?>/, "").replace(/<!DOCTYPE[^>]*>/i, "")
      .trim(),
  );
}

/** Show an image (PNG, JPEG, GIF, WebP bytes) inline (`OSC 1337 ; File=`). */
export function displayImage(bytes: Uint8Array, size?: ImageSize): void {
  write(imageSequence(bytes, size));
}

/**
 * Replace the children of the element printed earlier with
 * `class="can-replace-children" replace-key="KEY"` (`OSC 721`): the answer
 * to a lazy inspector's "open", or a progress update.
 */
export function replace(key: string, html: string): void {
  write(replaceSequence(key, html));
}

/**
 * Turn the element-event mode on (`CSI ? 7101 h`): elements printed from
 * now on with `data-dt-event="NAME"` send this program an event line per
 * click, toggle or change. Turn it off before exiting
 * ({@link disableEvents}); domterm also turns it off when the program
 * leaves the foreground.
 */
export function enableEvents(): void {
  write(eventsModeSequence(true));
}

/** Turn the element-event mode off: what was printed under it is inert. */
export function disableEvents(): void {
  write(eventsModeSequence(false));
}

/**
 * Put standard input in raw mode (or back): event lines then arrive as
 * they come and are not echoed. Returns false when there is no terminal
 * to change (input is a pipe or file).
 */
export function setRawInput(on: boolean): boolean {
  try {
    if (g.Deno?.stdin?.setRaw) {
      if (!g.Deno.stdin.isTerminal()) return false;
      g.Deno.stdin.setRaw(on);
      return true;
    }
    if (g.process?.stdin?.setRawMode && g.process.stdin.isTTY) {
      g.process.stdin.setRawMode(on);
      return true;
    }
  } catch {
    return false;
  }
  return false;
}

/** Standard input as an async iterable of bytes. */
function stdin(): AsyncIterable<Uint8Array | string> {
  if (g.Deno?.stdin?.readable) return g.Deno.stdin.readable;
  if (g.process?.stdin) return g.process.stdin;
  throw new Error("rich: no standard input here: pass events() a stream");
}

/**
 * The events (and typed input) read from `input` (default: standard
 * input), until it ends or the loop stops. In raw mode typed keys come as
 * `{ event: "input", text }` too; ignore them or act on them (q to quit).
 */
export async function* events(
  input: AsyncIterable<Uint8Array | string> = stdin(),
): AsyncGenerator<ElementEvent | TypedInput, void, undefined> {
  const decoder = new TextDecoder();
  const parser = new EventParser();
  for await (const chunk of input) {
    const text = typeof chunk === "string"
      ? chunk
      : decoder.decode(chunk, { stream: true });
    for (const e of parser.push(text)) yield e;
  }
}
