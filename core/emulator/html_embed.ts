/**
 * Rich output in the model: `OSC 72 ; html` inserts an HTML fragment at the
 * cursor, `OSC 721 ; key ; html` replaces the children of an earlier element
 * marked `class="can-replace-children" replace-key="key"`, and images
 * (iTerm2 `OSC 1337 ; File=`, sixel) become block lines too (see
 * `images.ts`).
 *
 * Block content (div, p, pre, table, svg, img, ...) gets a line of its own:
 * a `Line` whose `extras.block` holds the fragment; the cursor goes to the
 * line after it. Inline content is anchored at the cursor's column in
 * `extras.inline` and the cursor does not move. The fragments stay in the
 * model, so they are in the scrollback, in snapshots, and move with reflow.
 * The HTML is untrusted and kept as sent: the client sanitizes it.
 *
 * @module
 */
import type { EmbedState, KeyPlace } from "./state.ts";
import type { Line } from "../model/line.ts";
import {
  type BlockEmbed,
  coverCells,
  hasEmbeds,
  type ImageEmbed,
} from "../model/line_extras.ts";
import { eraseCells } from "../model/line_ops.ts";
import { BLOCK_TAGS } from "./html_tags.ts";

/** Longest fragment accepted (UTF-16 code units); longer ones are dropped. */
export const MAX_HTML_LENGTH = 1024 * 1024;
/** At most this many inline fragments on one line; more are dropped. */
export const MAX_INLINE_PER_LINE = 64;
/** Longest OSC 721 key. */
export const MAX_KEY_LENGTH = 256;

/** What the embed handlers need from the terminal. */
export interface EmbedHost {
  /** The active buffer's lines (absolute index = trimmed + i). */
  buffer(): {
    readonly length: number;
    readonly trimmed: number;
    readonly isAlt: boolean;
    getLine(i: number): Line;
  };
  /** The line the cursor is on. */
  cursorLine(): Line;
  /** Cursor column. */
  cursorX(): number;
  /** Screen row of the cursor. */
  cursorY(): number;
  /** Rows of the screen. */
  rows(): number;
  /** CR + LF (scrolling at the bottom margin). */
  newline(): void;
  /** Report a dropped sequence (too large, malformed). */
  warn?(message: string): void;
  /** Cap of all images' data (characters); default {@link MAX_IMAGE_MEMORY}. */
  maxImageMemory?: number;
  /** Both buffers (normal, alternate), for {@link MAX_HTML_MEMORY}. */
  buffers?(): Iterable<{ readonly length: number; getLine(i: number): Line }>;
  /** Cap of all HTML fragments kept (characters); default {@link MAX_HTML_MEMORY}. */
  maxHtmlMemory?: number;
  /**
   * The events generation a fragment printed now carries (the element-event
   * mode is on), or undefined (it is inert): `element_events.ts`.
   */
  eventsGeneration?(): number | undefined;
}

/**
 * HTML (characters) kept in both buffers, all fragments together. Past it
 * the oldest fragments are replaced by {@link EVICTED_HTML}, down to three
 * quarters of it: a program printing HTML forever (each fragment within
 * {@link MAX_HTML_LENGTH}) cannot exhaust memory.
 */
export const MAX_HTML_MEMORY = 64 * 1024 * 1024;

/** What an evicted fragment becomes (the client shows it as a notice). */
export const EVICTED_HTML =
  '<span class="dt-html-evicted">[HTML output dropped: the scrollback holds too much HTML]</span>';

/**
 * Image data (base64 or sixel characters) one terminal keeps, all images
 * together. Past it the oldest images are dropped (their data emptied,
 * `evicted` set): a program printing images forever cannot exhaust memory.
 */
export const MAX_IMAGE_MEMORY = 128 * 1024 * 1024;

/**
 * One tag of a fragment: `<name attrs>`, `</name>` or a comment. Quoted
 * attribute values may contain `>`.
 */
const TAG_RE =
  /<!--[\s\S]*?-->|<(\/?)([A-Za-z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/** Elements without a closing tag. */
const VOID_TAGS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/** True when `html` contains a block-level element (see {@link BLOCK_TAGS}). */
export function isBlockHtml(html: string): boolean {
  TAG_RE.lastIndex = 0;
  for (let m = TAG_RE.exec(html); m; m = TAG_RE.exec(html)) {
    if (
      m[2] !== undefined && m[1] === "" &&
      BLOCK_TAGS.has(m[2].toLowerCase())
    ) {
      return true;
    }
  }
  return false;
}

/** The value of attribute `name` in a tag's attribute text, or null. */
function attrValue(attrs: string, name: string): string | null {
  const re = new RegExp(
    `(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`,
    "i",
  );
  const m = re.exec(attrs);
  if (m === null) return null;
  return decodeEntities(m[1] ?? m[2] ?? m[3] ?? "");
}

/** Decode the few entities a key may plausibly contain. */
function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(
    /&(?:amp|lt|gt|quot|apos|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi,
    (all, dec, hex) => {
      if (dec) return String.fromCodePoint(Math.min(+dec, 0x10ffff));
      if (hex) {
        return String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
      }
      return ({
        "&amp;": "&",
        "&lt;": "<",
        "&gt;": ">",
        "&quot;": '"',
      } as Record<
        string,
        string
      >)[all.toLowerCase()] ?? "'";
    },
  );
}

/** True when a tag's attributes mark it replaceable (class can-replace-children). */
function isReplaceable(attrs: string): boolean {
  const cls = attrValue(attrs, "class");
  return cls !== null && cls.split(/\s+/).includes("can-replace-children");
}

/** The replace-keys of the replaceable elements in `html`, in order. */
export function replaceKeys(html: string): string[] {
  const keys: string[] = [];
  TAG_RE.lastIndex = 0;
  for (let m = TAG_RE.exec(html); m; m = TAG_RE.exec(html)) {
    if (m[2] === undefined || m[1] !== "" || !isReplaceable(m[3])) continue;
    const key = attrValue(m[3], "replace-key");
    if (key !== null && key.length <= MAX_KEY_LENGTH) keys.push(key);
  }
  return keys;
}

/**
 * `html` with the children of its replaceable element keyed `key` replaced
 * by `content`, or null when it has no such element. An element left open
 * extends to the end of the fragment (as a browser would parse it). A
 * `<details>` gets the `open` attribute (a lazy inspector's answer).
 */
export function replaceChildren(
  html: string,
  key: string,
  content: string,
): string | null {
  TAG_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  for (m = TAG_RE.exec(html); m; m = TAG_RE.exec(html)) {
    if (
      m[2] !== undefined && m[1] === "" && isReplaceable(m[3]) &&
      attrValue(m[3], "replace-key") === key
    ) break;
  }
  if (m === null) return null;
  const name = m[2].toLowerCase();
  if (VOID_TAGS.has(name) || /\/\s*$/.test(m[3])) return null;
  const start = TAG_RE.lastIndex;
  // A lazy inspector (docs/interactive.md) is answered because it was
  // opened: it stays open, in every window and after a reload.
  const head = name === "details" && attrValue(m[3], "open") === null &&
      !/(?:^|\s)open(?:\s|$)/i.test(m[3])
    ? html.slice(0, start - 1) + " open>"
    : html.slice(0, start);
  let depth = 1;
  for (let t = TAG_RE.exec(html); t; t = TAG_RE.exec(html)) {
    if (t[2] === undefined || t[2].toLowerCase() !== name) continue;
    if (t[1] === "/") {
      if (--depth === 0) return head + content + html.slice(t.index);
    } else if (!/\/\s*$/.test(t[3])) depth++;
  }
  return head + content;
}

/** Where a key was last seen: absolute line index and the line. */

/**
 * The OSC 72 / 721 handlers and the block-line insertion that images use
 * too. One per terminal.
 */
export class HtmlEmbeds {
  #host: EmbedHost;
  #state: () => EmbedState;

  /** Handlers act on `host`; what they keep between sequences is `state()`. */
  constructor(host: EmbedHost, state: () => EmbedState) {
    this.#host = host;
    this.#state = state;
  }

  /** `OSC 72 ; html`: insert the fragment at the cursor. */
  osc72(html: string): void {
    if (html.length > MAX_HTML_LENGTH) {
      this.#host.warn?.(
        `OSC 72 dropped: fragment of ${html.length} characters (max ${MAX_HTML_LENGTH})`,
      );
      return;
    }
    if (html.trim() === "") return;
    this.#account(html.length);
    const keys = replaceKeys(html);
    const key = keys.length > 0 ? keys[0] : null;
    const buf = this.#host.buffer();
    const events = this.#host.eventsGeneration?.();
    // The alternate screen is a fixed grid: content flows inline there.
    if (isBlockHtml(html) && !buf.isAlt) {
      this.insertBlock(
        events === undefined ? { html, key } : { html, key, events },
      );
    } else {
      const line = this.#host.cursorLine();
      const extras = line.extras ??= {};
      const inline = extras.inline ??= [];
      if (inline.length >= MAX_INLINE_PER_LINE) {
        this.#host.warn?.(
          "OSC 72 dropped: too many inline fragments on a line",
        );
        return;
      }
      const x = this.#host.cursorX();
      inline.push(
        events === undefined ? { x, html, key } : { x, html, key, events },
      );
      line.dirty = true;
    }
    if (keys.length > 0) {
      const place = this.#cursorPlace(isBlockHtml(html) && !buf.isAlt);
      const index = this.#state().index;
      for (const k of keys) index.set(k, place);
    }
  }

  /** `OSC 721 ; key ; html`: replace the children of the element keyed `key`. */
  osc721(args: string): void {
    const semi = args.indexOf(";");
    if (semi < 0) return;
    const key = args.slice(0, semi);
    const html = args.slice(semi + 1);
    if (key.length > MAX_KEY_LENGTH || html.length > MAX_HTML_LENGTH) {
      this.#host.warn?.("OSC 721 dropped: key or fragment too long");
      return;
    }
    this.#account(html.length);
    const found = this.#find(key);
    if (found === null) {
      this.#host.warn?.(`OSC 721: no element with replace-key ${key}`);
      return;
    }
    const { line, abs } = found;
    const e = line.extras!;
    const replaced = (): boolean => {
      if (e.block && e.block.image === undefined) {
        const r = replaceChildren(e.block.html, key, html);
        if (r !== null && r.length <= MAX_HTML_LENGTH) {
          e.block = { ...e.block, html: r };
          return true;
        }
      }
      for (const [i, item] of (e.inline ?? []).entries()) {
        const r = replaceChildren(item.html, key, html);
        if (r !== null && r.length <= MAX_HTML_LENGTH) {
          e.inline![i] = { ...item, html: r };
          return true;
        }
      }
      return false;
    };
    if (!replaced()) return;
    line.dirty = true;
    // The new children's keys are on this line too (a lazy inspector's
    // nested ones are answered next): no search for them.
    const index = this.#state().index;
    for (const k of replaceKeys(html)) index.set(k, { abs, line });
  }

  /**
   * Put `block` on a line of its own at the cursor: a fresh line first if
   * the cursor is not in column 0 or its line holds anything (text, inline
   * fragments, another block), so nothing printed before goes; then the
   * cursor moves to the line after the block. When the cursor had been
   * moved up onto output, that fresh line may hold some too: the block is
   * written over it, as text printed there would be.
   */
  insertBlock(block: BlockEmbed): void {
    const host = this.#host;
    const holds = (l: Line) => l.toString(true) !== "" || hasEmbeds(l.extras);
    let line = host.cursorLine();
    if (host.cursorX() !== 0 || holds(line)) {
      host.newline();
      line = host.cursorLine();
    }
    if (holds(line)) {
      eraseCells(line, 0, line.cols, 0);
      coverCells(line, 0, line.cols, true);
    }
    const extras = line.extras ??= {};
    extras.block = block;
    line.wrapped = false;
    line.dirty = true;
    host.newline();
  }

  /** Insert an image as a block line (dropping the oldest images' data past the memory cap). */
  insertImage(image: ImageEmbed): void {
    this.keepImage(image);
    this.insertBlock({ html: "", key: null, image });
  }

  /**
   * Count `image` in the image memory (before it goes on a line): past
   * the cap the oldest images lose their data.
   */
  keepImage(image: ImageEmbed): void {
    const max = this.#host.maxImageMemory ?? MAX_IMAGE_MEMORY;
    const st = this.#state();
    st.images.push(image);
    st.imageMemory += image.data.length;
    while (st.imageMemory > max && st.images.length > 0) {
      const old = st.images.shift()!;
      st.imageMemory -= old.data.length;
      // Shared by every copy of the line: all of them lose it at once.
      old.data = "";
      old.evicted = true;
    }
  }

  /**
   * `n` more characters of HTML are about to be kept: past the cap, count
   * what the buffers really hold and replace the oldest fragments until
   * three quarters of the cap is left (so the next count is far off).
   */
  #account(n: number): void {
    const host = this.#host;
    const max = host.maxHtmlMemory ?? MAX_HTML_MEMORY;
    const st = this.#state();
    st.htmlMemory += n;
    if (st.htmlMemory <= max || host.buffers === undefined) return;
    // The notice is one shared string: it costs nothing per line.
    const size = (html: string) => html === EVICTED_HTML ? 0 : html.length;
    const held = (l: Line): number => {
      const e = l.extras;
      if (e === null) return 0;
      let k = e.block ? size(e.block.html) : 0;
      for (const i of e.inline ?? []) k += size(i.html);
      return k;
    };
    let total = n;
    for (const b of host.buffers()) {
      for (let i = 0; i < b.length; i++) total += held(b.getLine(i));
    }
    const goal = Math.floor(max * 0.75);
    // Oldest first: the normal buffer's top, then the alternate screen's.
    for (const b of host.buffers()) {
      for (let i = 0; i < b.length && total > goal; i++) {
        const l = b.getLine(i);
        const h = held(l);
        if (h === 0) continue;
        const e = l.extras!;
        if (e.block && e.block.image === undefined && size(e.block.html)) {
          e.block = { ...e.block, html: EVICTED_HTML, key: null };
        }
        if (e.inline) {
          e.inline = e.inline.map((x) => ({
            ...x,
            html: EVICTED_HTML,
            key: null,
          }));
        }
        total -= h - held(l);
        l.dirty = true;
      }
    }
    if (total > goal) {
      host.warn?.("OSC 72: HTML over the memory cap was dropped");
    }
    st.htmlMemory = total;
  }

  /** Absolute index and line of the fragment just inserted. */
  #cursorPlace(block: boolean): KeyPlace {
    const host = this.#host;
    const buf = host.buffer();
    // A block went on the line above the cursor.
    const i = buf.length - host.rows() + host.cursorY() - (block ? 1 : 0);
    const k = Math.max(0, i);
    return { abs: buf.trimmed + k, line: buf.getLine(k) };
  }

  /** The line holding `key` and its absolute index: the index's hint if still right, else a search from the bottom. */
  #find(key: string): KeyPlace | null {
    const buf = this.#host.buffer();
    const has = (l: Line) =>
      (l.extras?.block !== undefined &&
        replaceKeys(l.extras.block.html).includes(key)) ||
      (l.extras?.inline ?? []).some((i) => replaceKeys(i.html).includes(key));
    const index = this.#state().index;
    const hint = index.get(key);
    if (hint !== undefined) {
      const k = hint.abs - buf.trimmed;
      if (k >= 0 && k < buf.length) {
        const l = buf.getLine(k);
        if (l === hint.line && has(l)) return hint;
      }
    }
    for (let k = buf.length - 1; k >= 0; k--) {
      const l = buf.getLine(k);
      if (l.extras !== null && has(l)) {
        const place = { abs: buf.trimmed + k, line: l };
        index.set(key, place);
        return place;
      }
    }
    index.delete(key);
    return null;
  }
}
