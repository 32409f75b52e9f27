/**
 * A whole session as one standalone HTML file ("Save as HTML"): the normal
 * buffer, scrollback included (and the alternate screen when it is shown),
 * with its colours, images and embedded HTML, and its command groups as
 * folds that still work. Pure (strings, no DOM), so the browser and the
 * server can both write it.
 *
 * What the file holds:
 *
 * - Every logical line (rows joined by soft wraps) is one
 *   `div.dt-line` with `white-space: pre-wrap`, so text re-wraps to the
 *   width of the window that shows the file. Cells are drawn by the
 *   window's own painter (`core/style_runs.ts`: the same `dt-*` classes
 *   and inline colours); a small `<style>` block defines the classes, the
 *   theme (the window's colours, palette overrides included) and the
 *   layout. Nothing else is loaded.
 * - OSC 8 hyperlinks are `<a href>` (http, https, mailto and file URLs
 *   only).
 * - Images are `<img>` with `data:` URLs (iTerm2 images carry base64
 *   already; sixel images need {@link SessionHtmlOptions.imageUrl}, the
 *   client rasterizes them); dropped images get the window's notice.
 * - Embedded HTML (OSC 72) goes through {@link SessionHtmlOptions.sanitize}
 *   again; on top of that the file's Content Security Policy allows no
 *   script at all and loads nothing but `data:` images, so even a weak
 *   sanitizer cannot make the file run the output's script.
 * - A command group (core/model/command_groups.ts) that printed whole
 *   lines is `<details open>`: its prompt and command lines are the
 *   `<summary>` (click to fold), its output the rest. Groups folded in the
 *   window are saved closed. No script: folding is the browser's own.
 *
 * @module
 */
import {
  type CommandGroup,
  deriveMarks,
  outputLines,
} from "../model/command_groups.ts";
import type { Line } from "../model/line.ts";
import type {
  BlockEmbed,
  ImageEmbed,
  InlineEmbed,
} from "../model/line_extras.ts";
import { extId } from "../model/cell.ts";
import type { BufferView, ExtStyle } from "../terminal_view.ts";
import { boldBrightCss, paletteCss } from "../color_css.ts";
import { drawnEnd, RowPainter } from "../style_runs.ts";
import {
  downloadText,
  evictedImageText,
  imageSize,
  NOTICE_MIME,
  SHOWN_IMAGE_TYPES,
} from "../image_view.ts";

/** What {@link sessionHtml} reads from a terminal (`Terminal` fits). */
export interface SessionSource {
  readonly cols: number;
  readonly rows: number;
  /** History and screen of the normal buffer. */
  readonly normalBuffer: BufferView;
  /** The active buffer (the alternate screen is saved after the history). */
  readonly buffer: BufferView;
  readonly title: string;
  /** DECSCNM: the whole screen in reverse video. */
  readonly reverseVideo: boolean;
  ext(id: number): ExtStyle;
  /** OSC 4 palette changes ("#rrggbb" or null). */
  paletteOverride(index: number): string | null;
  /** OSC 10 / 11 changes of the default foreground (0) and background (1). */
  dynamicColorOverride?(which: 0 | 1 | 2): string | null;
}

/** Colours and font of the window (CSS values). */
export interface SessionTheme {
  fg: string;
  bg: string;
  /** The 16 ANSI colours (`--dt-color-0` ... `--dt-color-15`). */
  colors: readonly string[];
  fontFamily: string;
  fontSize: string;
  lineHeight: string;
  /** CSS `color-scheme` of the theme ("dark" or "light": scrollbars, controls). */
  colorScheme: string;
}

/**
 * The default (dark) theme of `static/domterm.css`; a test checks that
 * they agree. The browser passes the window's own values instead.
 */
export const DEFAULT_THEME: Readonly<SessionTheme> = Object.freeze({
  fg: "#d5d9e0",
  bg: "#1c1f26",
  colors: Object.freeze([
    "#2e333d",
    "#e5707a",
    "#9ac57f",
    "#e6c27c",
    "#66adee",
    "#c98ae0",
    "#5bbac6",
    "#c5cad3",
    "#5f6775",
    "#ff8c94",
    "#b6e39a",
    "#f7d896",
    "#8cc6ff",
    "#e0a6f5",
    "#84d8e2",
    "#f3f5f8",
  ]),
  fontFamily:
    'ui-monospace, "DejaVu Sans Mono", "Cascadia Mono", Menlo, Consolas, "Liberation Mono", ' +
    '"Noto Sans Mono CJK SC", "Noto Sans CJK SC", "WenQuanYi Zen Hei Mono", "Hiragino Sans", ' +
    '"PingFang SC", "Apple SD Gothic Neo", "MS Gothic", "Microsoft YaHei", "Malgun Gothic", ' +
    '"Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", monospace',
  fontSize: "14px",
  lineHeight: "1.2",
  colorScheme: "dark",
});

/** Options of {@link sessionHtml}. */
export interface SessionHtmlOptions {
  /**
   * Turns an untrusted OSC 72 fragment into HTML that is safe to put in
   * the file (the window's allow-list: in the browser, DOMPurify through
   * `client/sanitize.ts`; elsewhere e.g. {@link sourceSanitizer}). Its
   * output must be well-formed (every element it opens closed).
   */
  sanitize: (html: string) => string;
  /** The document's title (default: the terminal's title, else "domterm"). */
  title?: string;
  /** Whether a command group is folded in the window (saved closed). */
  folded?: (group: CommandGroup) => boolean;
  /**
   * A `data:image/...;base64,` URL for an image, or null for the default
   * (the image's own data; sixel images have none: a notice instead).
   */
  imageUrl?: (image: ImageEmbed) => string | null;
  /** The window's colours and font (default {@link DEFAULT_THEME}). */
  theme?: Partial<SessionTheme>;
  /** The window's cell size in CSS pixels (sizes images given in cells). */
  cell?: { width: number; height: number };
  /** Bold text in colours 0-7 is drawn in 8-15, as xterm (the `bold-is-bright` setting; default true). */
  boldIsBright?: boolean;
}

const ESC_TEXT: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escape `s` for element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC_TEXT[c]);
}

/** What a saved fragment printed under the element-event mode says. */
export const INERT_NOTE =
  "Interactive output: its buttons, inspectors and inputs talked to the program in the terminal; in this saved copy they do nothing";

/** Whether `e` was printed with elements that sent events (docs/interactive.md). */
function interactive(e: BlockEmbed | InlineEmbed): boolean {
  return e.events !== undefined && e.html.includes("data-dt-event");
}

/** ` inert` for an interactive fragment: nothing in it can be clicked or focused. */
function inertAttr(e: BlockEmbed | InlineEmbed): string {
  return interactive(e) ? " inert" : "";
}

/** The note an interactive fragment carries in a saved file. */
function inertNote(e: BlockEmbed | InlineEmbed, tag: "div" | "span"): string {
  return interactive(e)
    ? `<${tag} class="dt-events-note" title="${INERT_NOTE}">` +
      `\u26a0 interactive output (inert in this saved copy)</${tag}>`
    : "";
}

/**
 * A sanitizer for where there is no DOM (the server): the fragment's
 * markup shown as text, which is always safe. A DOM-based one (DOMPurify
 * with the allow-list of `client/sanitize.ts` over a server-side DOM)
 * would show it as the window does.
 */
export function sourceSanitizer(html: string): string {
  return `<pre class="dt-html-source">${escapeHtml(html)}</pre>`;
}

/** A CSS value from outside (a theme), or `fallback` if it could break out of its declaration. */
function cssValue(v: string | undefined, fallback: string): string {
  if (v === undefined) return fallback;
  const t = v.trim();
  if (t === "" || t.length > 1000 || /[<>{};\\@]/.test(t)) return fallback;
  return t;
}

/** A `#rrggbb` colour from the model, or null. */
function hexColor(v: string | null | undefined): string | null {
  return v && /^#[0-9a-f]{6}$/i.test(v) ? v : null;
}

/** `data:` URLs of images the file may show. */
const DATA_IMAGE_URL =
  /^data:image\/(?:png|jpeg|gif|webp|bmp|svg\+xml);base64,[A-Za-z0-9+/]*={0,2}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An OSC 8 URI as an href the file may have, or null. */
function safeHref(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  const p = url.protocol;
  return p === "http:" || p === "https:" || p === "mailto:" || p === "file:"
    ? url.href
    : null;
}

/** The file's stylesheet: theme, palette, cell classes, layout. */
function styleSheet(
  theme: SessionTheme,
  term: SessionSource,
  cell: { width: number; height: number } | undefined,
): string {
  const dyn = (w: 0 | 1) => hexColor(term.dynamicColorOverride?.(w));
  const scheme = theme.colorScheme === "light" ? "light" : "dark";
  let root = `:root{color-scheme:${scheme};` +
    `--dt-fg:${dyn(0) ?? cssValue(theme.fg, DEFAULT_THEME.fg)};` +
    `--dt-bg:${dyn(1) ?? cssValue(theme.bg, DEFAULT_THEME.bg)};`;
  for (let i = 0; i < 16; i++) {
    const v = hexColor(term.paletteOverride(i)) ??
      cssValue(theme.colors[i], DEFAULT_THEME.colors[i]);
    root += `--dt-color-${i}:${v};`;
  }
  root += `--dt-font-family:${
    cssValue(theme.fontFamily, DEFAULT_THEME.fontFamily)
  };--dt-font-size:${
    cssValue(theme.fontSize, DEFAULT_THEME.fontSize)
  };--dt-line-height:${cssValue(theme.lineHeight, DEFAULT_THEME.lineHeight)};`;
  const px = (n: number) => Number.isFinite(n) && n > 0 ? `${n}px` : null;
  root += `--dt-cell-w:${(cell && px(cell.width)) ?? "1ch"};` +
    `--dt-cell-h:${
      (cell && px(cell.height)) ?? "calc(var(--dt-line-height) * 1em)"
    };}\n`;
  // Palette entries 16-255 (xterm's) then the program's OSC 4 changes.
  let palette = paletteCss();
  let overrides = "";
  for (let i = 16; i < 256; i++) {
    const v = hexColor(term.paletteOverride(i));
    if (v !== null) overrides += `--dt-color-${i}:${v};`;
  }
  if (overrides !== "") palette += `:root{${overrides}}\n`;
  return root + palette + FILE_CSS;
}

/**
 * Layout and cell classes of the saved file: the window's rules from
 * static/domterm.css for the classes the painter writes, and lines that
 * re-wrap instead of fixed rows.
 */
const FILE_CSS = `
:root{--dt-error-fg:var(--dt-color-1);--dt-deco-fg:var(--dt-color-8);--dt-deco-hover:var(--dt-fg);--dt-selection:rgba(110,150,220,.38)}
html,body{margin:0;background:var(--dt-bg)}
.domterm{--dt-dfg:var(--dt-fg);--dt-dbg:var(--dt-bg);box-sizing:border-box;min-height:100vh;padding:6px 8px;color:var(--dt-dfg);background:var(--dt-dbg);font-family:var(--dt-font-family);font-size:var(--dt-font-size);line-height:var(--dt-line-height);font-variant-ligatures:none;font-kerning:none;-webkit-font-smoothing:antialiased}
.domterm.dt-reverse{--dt-dfg:var(--dt-bg);--dt-dbg:var(--dt-fg)}
.domterm ::selection{background:var(--dt-selection)}
.dt-line{position:relative;min-height:var(--dt-cell-h);white-space:pre-wrap;overflow-wrap:anywhere}
.dt-line span{text-decoration:var(--dt-tu,) var(--dt-ts,) var(--dt-to,) var(--dt-tus,solid) var(--dt-ulc,currentColor);text-decoration-skip-ink:none;text-underline-offset:.12em}
.dt-line span.dt-w{display:inline-block;width:calc(2 * var(--dt-cell-w));text-align:center;text-indent:0}
.dt-line span.dt-scan{display:inline-block;vertical-align:top;width:var(--dt-cell-w);height:var(--dt-cell-h);overflow:hidden;-webkit-text-fill-color:transparent;background-image:linear-gradient(currentColor,currentColor);background-repeat:no-repeat;background-size:100% max(1px,.07em)}
.dt-line span.dt-scan1{background-position:0 25%}
.dt-line span.dt-scan2{background-position:0 75%}
.dt-line span.dt-scan3{background-position:0 100%}
.dt-line span.dt-c{display:inline-block;width:var(--dt-cell-w);text-indent:0}
.dt-bold{font-weight:bold}
.dt-faint{opacity:.6}
.dt-italic{font-style:italic}
.dt-ul1{--dt-tu:underline;--dt-tus:solid}
.dt-ul2{--dt-tu:underline;--dt-tus:double}
.dt-ul3{--dt-tu:underline;--dt-tus:wavy;text-underline-offset:.02em;text-decoration-thickness:1px}
.dt-ul4{--dt-tu:underline;--dt-tus:dotted}
.dt-ul5{--dt-tu:underline;--dt-tus:dashed}
.dt-strike{--dt-ts:line-through}
.dt-line span.dt-overline{display:inline-block;vertical-align:top;height:var(--dt-cell-h);box-shadow:inset 0 max(1px,.06em) 0 0 currentColor}
.dt-invisible{color:transparent!important;text-decoration-color:transparent!important}
.dt-blink{animation:dt-blink 1s step-end infinite}
@keyframes dt-blink{50%{color:transparent}}
@media (prefers-reduced-motion:reduce){.dt-blink{animation:none}}
.dt-line span.dt-stderr{color:var(--dt-error-fg)}
.dt-line span.dt-link{--dt-tu:underline;--dt-tus:dotted}
a.dt-a{color:inherit;text-decoration:none}
a.dt-a:hover span{--dt-tus:solid}
.dt-line.dt-embed-row{white-space:normal}
.dt-embed{position:relative;contain:paint}
.dt-embed-block{max-width:100%;overflow-x:auto;overflow-y:hidden}
.dt-embed-block>:first-child{margin-top:0}
.dt-embed-block>:last-child{margin-bottom:0}
.dt-embed-inline{white-space:normal}
.dt-html-evicted{color:var(--dt-deco-fg);font-style:italic}
.dt-embed a,a.dt-download{color:var(--dt-link,var(--dt-color-12))}
.dt-embed img,.dt-embed svg,.dt-image img{max-width:100%;vertical-align:top}
.dt-image{line-height:0}
.dt-image img.dt-img{height:auto}
.dt-image a.dt-download,.dt-image .dt-image-error{line-height:var(--dt-line-height)}
.dt-image-error{display:inline-block;padding:0 6px;border:1px dashed var(--dt-color-1);color:var(--dt-color-1)}
.dt-html-partial{display:inline-block;margin-right:4px;color:var(--dt-color-3);cursor:help}
.dt-html-source{margin:0;white-space:pre-wrap;color:var(--dt-deco-fg)}
.dt-events-note{display:block;font-size:smaller;font-style:italic;color:var(--dt-deco-fg)}
span.dt-events-note{display:inline;margin-right:4px}
.dt-line[data-exit]{box-shadow:inset 2px 0 0 var(--dt-error-fg)}
.dt-cmd-deco{float:right;height:var(--dt-cell-h);display:flex;gap:.4em;align-items:center;padding-left:.4em;color:var(--dt-deco-fg);user-select:none;font-size:.9em}
.dt-exit-badge{color:var(--dt-error-fg);cursor:help}
.dt-exit-badge::before{content:"\\2717\\00a0" attr(data-label)}
.dt-fold-button{cursor:pointer;border-radius:3px;padding:0 .2em}
.dt-fold-button::before{content:"\\25BE"}
details:not([open])>summary .dt-fold-button{color:var(--dt-deco-hover);background:var(--dt-selection)}
details:not([open])>summary .dt-fold-button::before{content:"\\25B8"}
details.dt-group>summary{display:block;list-style:none;cursor:default}
details.dt-group>summary::-webkit-details-marker{display:none}
details.dt-group>summary:focus-visible{outline:1px dotted var(--dt-deco-fg)}
.dt-fold-summary{display:none;cursor:pointer;color:var(--dt-deco-fg);font-style:italic;user-select:none;min-height:var(--dt-cell-h)}
details:not([open])>summary>.dt-fold-summary{display:block}
.dt-fold-summary::before{content:"\\25B8\\00a0" attr(data-label);padding:0 .3em;border-radius:3px;background:var(--dt-selection);color:var(--dt-deco-hover)}
.dt-fold-summary:hover::before{text-decoration:underline}
.dt-alt-screen{margin-top:.5em;border-top:1px dashed var(--dt-deco-fg)}
`;

/** A foldable group and the lines of its output. */
interface Fold {
  g: CommandGroup;
  out: { first: number; end: number };
}

/** The decorations of one prompt row (exit badge, fold button). */
interface Deco {
  exit: number | null;
  fold: boolean;
}

/** Writes one buffer's lines. */
class LinesWriter {
  #buf: BufferView;
  #term: SessionSource;
  #options: SessionHtmlOptions;
  #painter: RowPainter;
  #hrefs = new Map<string, string | null>();
  /** Decorations by the row they sit in. */
  #decos = new Map<number, Deco>();

  constructor(
    buf: BufferView,
    term: SessionSource,
    options: SessionHtmlOptions,
    painter: RowPainter,
  ) {
    this.#buf = buf;
    this.#term = term;
    this.#options = options;
    this.#painter = painter;
  }

  /** Lines `[0, end)`: the buffer without its trailing blank lines. */
  contentEnd(): number {
    let end = this.#buf.length;
    while (end > 0) {
      const line = this.#buf.getLine(end - 1);
      const e = line.extras;
      if (drawnEnd(line) > 0 || e?.block || (e?.inline?.length ?? 0) > 0) {
        break;
      }
      end--;
    }
    return end;
  }

  /** Every line, command groups as folds (normal buffer). */
  withGroups(): string {
    const end = this.contentEnd();
    const groups = deriveMarks(this.#buf).groups;
    for (const g of groups) {
      const out = outputLines(g);
      const failed = g.ended && g.exitCode !== null && g.exitCode !== 0;
      if (!out && !failed) continue;
      // Where the window puts them: the command's row.
      const row = g.input?.line ?? g.prompt?.line ?? g.start.line;
      this.#decos.set(row, { exit: failed ? g.exitCode : null, fold: false });
    }
    return this.#range(0, end, groups.filter((g) => g.parent === null));
  }

  /** Every line, no folds (alternate screen). */
  plain(): string {
    return this.#lines(0, this.contentEnd());
  }

  /** Foldable groups of `groups`, with those of unfoldable ones' children in their place. */
  #folds(groups: readonly CommandGroup[], into: Fold[] = []): Fold[] {
    for (const g of groups) {
      const out = outputLines(g);
      if (out) into.push({ g, out });
      else this.#folds(g.children, into);
    }
    return into;
  }

  /** Lines `[from, to)` with the folds of `groups` (siblings, in order). */
  #range(from: number, to: number, groups: readonly CommandGroup[]): string {
    const folds = this.#folds(groups);
    let html = "";
    let i = from;
    for (let k = 0; k < folds.length; k++) {
      const { g, out } = folds[k];
      const start = g.start.line;
      if (start < i || start >= to || out.first <= start) continue;
      let end = Math.min(out.end, to);
      const next = k + 1 < folds.length ? folds[k + 1].g.start.line : to;
      if (next < end) end = next;
      if (end <= out.first) continue;
      const deco = this.#decos.get(g.input?.line ?? g.prompt?.line ?? start);
      if (deco) deco.fold = true;
      const n = end - out.first;
      const label = `${n} line${n === 1 ? "" : "s"} hidden`;
      const open = this.#options.folded?.(g) === true ? "" : " open";
      html += this.#lines(i, start);
      html += `<details class="dt-group"${open}><summary>` +
        this.#lines(start, out.first) +
        `<span class="dt-fold-summary" data-label="${label}"></span>` +
        `</summary>` + this.#range(out.first, end, g.children) +
        `</details>\n`;
      i = end;
    }
    return html + this.#lines(i, to);
  }

  /** Lines `[from, to)`, soft-wrapped rows joined into one block each. */
  #lines(from: number, to: number): string {
    let html = "";
    const buf = this.#buf;
    for (let i = from; i < to; i++) {
      const line = buf.getLine(i);
      if (line.extras?.block) {
        html += `<div class="dt-line dt-embed-row">${
          this.#block(line)
        }</div>\n`;
        continue;
      }
      let text = this.#row(line);
      let deco = this.#decos.get(i);
      while (
        buf.getLine(i).wrapped && i + 1 < to &&
        !buf.getLine(i + 1).extras?.block
      ) {
        text += this.#row(buf.getLine(++i));
        deco ??= this.#decos.get(i);
      }
      let attrs = "";
      let after = "";
      if (deco) {
        after = `<span class="dt-cmd-deco" aria-hidden="true">`;
        if (deco.exit !== null) {
          attrs = ` data-exit="${deco.exit}"`;
          after += `<span class="dt-exit-badge" data-label="${deco.exit}" ` +
            `title="Command failed: exit status ${deco.exit}"></span>`;
        }
        if (deco.fold) after += `<span class="dt-fold-button"></span>`;
        after += "</span>";
      }
      // The decoration floats at the right end of the line's first row:
      // re-wrapped text flows around it, never under it.
      html += `<div class="dt-line"${attrs}>${deco ? after : ""}${
        text === "" ? "<br>" : text
      }</div>\n`;
    }
    return html;
  }

  /** The HTML of an OSC 8 link's URI, or null when the file must not link it. */
  #href(attr: number): string | null {
    const id = extId(attr);
    if (id === 0) return null;
    const uri = this.#term.ext(id).link;
    if (uri === null) return null;
    let h = this.#hrefs.get(uri);
    if (h === undefined) {
      const safe = safeHref(uri);
      h = safe === null ? null : escapeHtml(safe);
      this.#hrefs.set(uri, h);
    }
    return h;
  }

  /** One row's cells, links and inline HTML (trailing blanks left out). */
  #row(line: Line): string {
    const end = drawnEnd(line);
    const items = (line.extras?.inline ?? []).map((item, i) => ({ item, i }))
      .sort((a, b) => a.item.x - b.item.x || a.i - b.i).map((e) => e.item);
    let html = "";
    let k = 0;
    let x = 0;
    while (x < end) {
      while (k < items.length && items[k].x <= x) {
        html += this.#inline(items[k++]);
      }
      const stop = k < items.length ? Math.min(items[k].x, end) : end;
      const href = this.#href(line.attr(x));
      let y = x + 1;
      while (y < stop && this.#href(line.attr(y)) === href) y++;
      const cells = this.#painter.cells(line, x, y);
      html += href === null
        ? cells
        : `<a class="dt-a" href="${href}" rel="noopener noreferrer">${cells}</a>`;
      x = y;
    }
    // Fragments anchored past the text: padded to their column.
    let col = end;
    for (; k < items.length; k++) {
      if (items[k].x > col) {
        html += " ".repeat(items[k].x - col);
        col = items[k].x;
      }
      html += this.#inline(items[k]);
    }
    return html;
  }

  #inline(item: InlineEmbed): string {
    return `<span class="dt-embed dt-embed-inline"${inertAttr(item)}>${
      inertNote(item, "span")
    }${this.#options.sanitize(item.html)}</span>`;
  }

  #block(line: Line): string {
    const block = line.extras!.block!;
    const content = block.image
      ? this.#image(block.image)
      : this.#options.sanitize(block.html);
    return `<div class="dt-embed dt-embed-block"${inertAttr(block)}>${
      inertNote(block, "div")
    }${content}</div>`;
  }

  /** An image as the window draws it (client/images.ts), from data: URLs. */
  #image(image: ImageEmbed): string {
    const notice = (text: string) =>
      `<div class="dt-image"><div class="dt-image-error">${
        escapeHtml(text)
      }</div></div>`;
    if (image.evicted) return notice(evictedImageText(image));
    if (image.mime === NOTICE_MIME) return notice(image.name);
    if (!image.inline) {
      if (!BASE64.test(image.data)) return notice(downloadText(image));
      return `<div class="dt-image"><a class="dt-download" href="data:application/octet-stream;base64,${image.data}" download="${
        escapeHtml(image.name || "download")
      }">${escapeHtml(downloadText(image))}</a></div>`;
    }
    let src = this.#options.imageUrl?.(image) ?? null;
    if (src !== null && !DATA_IMAGE_URL.test(src)) src = null;
    if (src === null) {
      if (image.mime === "image/x-sixel") {
        return notice("sixel image not saved");
      }
      if (!SHOWN_IMAGE_TYPES.has(image.mime)) {
        return notice(`image of type ${image.mime} not shown`);
      }
      src = `data:${image.mime};base64,${image.data}`;
      if (!DATA_IMAGE_URL.test(src)) {
        return notice(`broken ${image.mime} image`);
      }
    }
    let attrs = ` alt="${escapeHtml(image.name)}"`;
    if (image.name) attrs += ` title="${escapeHtml(image.name)}"`;
    if (image.pixelWidth && image.pixelHeight) {
      attrs += ` width="${image.pixelWidth}" height="${image.pixelHeight}"`;
    }
    const size = imageSize(image);
    let style = "";
    if (size.width !== "") style += `width:${size.width};`;
    if (size.height !== "") style += `height:${size.height};`;
    if (size.objectFit !== "") style += `object-fit:${size.objectFit};`;
    if (style !== "") attrs += ` style="${escapeHtml(style)}"`;
    return `<div class="dt-image"><img class="dt-img"${attrs} src="${src}"></div>`;
  }
}

/**
 * The Content Security Policy of the saved file: no script of any kind
 * (nor event handlers, nor javascript: URLs), nothing loaded but `data:`
 * images, inline styles only.
 */
export const SAVED_FILE_CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; " +
  "base-uri 'none'; form-action 'none'";

/** The whole session of `term` as a standalone HTML document. */
export function sessionHtml(
  term: SessionSource,
  options: SessionHtmlOptions,
): string {
  const theme: SessionTheme = { ...DEFAULT_THEME, ...options.theme };
  const painter = new RowPainter((id) => term.ext(id));
  const title = options.title ?? (term.title || "domterm");
  let body = new LinesWriter(term.normalBuffer, term, options, painter)
    .withGroups();
  if (term.buffer !== term.normalBuffer) {
    body += `<div class="dt-alt-screen">\n${
      new LinesWriter(term.buffer, term, options, painter).plain()
    }</div>\n`;
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${SAVED_FILE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="domterm">
<title>${escapeHtml(title)}</title>
<style>
${styleSheet(theme, term, options.cell)}${
    options.boldIsBright === false ? "" : boldBrightCss("")
  }</style>
</head>
<body>
<div class="domterm dt-saved${term.reverseVideo ? " dt-reverse" : ""}">
${body}</div>
</body>
</html>
`;
}
