/**
 * "Save as HTML" in the window: Ctrl+Shift+S downloads the whole session
 * (scrollback included) as one standalone HTML file,
 * `domterm-YYYYMMDD-HHMMSS.html`, written by `sessionHtml`
 * (core/serialize/html.ts) with what only the page knows: the window's
 * colours and font (computed styles, a user stylesheet included), its cell
 * size, which command groups are folded, sixel images rasterized to PNG,
 * and the DOMPurify sanitizer (client/sanitize.ts) for embedded HTML.
 *
 * @module
 */
import { BOLD_PLAIN_CLASS } from "./colors.ts";
import type { CommandGroup } from "../core/model/command_groups.ts";
import type { ImageEmbed } from "../core/model/line_extras.ts";
import type { BufferView } from "../core/terminal_view.ts";
import {
  sessionHtml,
  type SessionSource,
  type SessionTheme,
} from "../core/serialize/html.ts";
import { sanitizeHtml } from "./sanitize.ts";
import { fragmentContent } from "./embeds.ts";
import { sixelDataUrl } from "./images.ts";

/** What saving reads from the page. */
export interface SaveHtmlDeps {
  /** The emulator. */
  term: SessionSource;
  /** The renderer's cell size. */
  measureCell(): { width: number; height: number };
  /** Whether a command group is folded in the window (the shell UI). */
  isFolded(group: CommandGroup): boolean;
}

/**
 * An OSC 72 fragment as safe HTML for the saved file: sanitized as the
 * window does, with the same marker when parts were removed and the same
 * notice when it was rejected. Serialized inside DOMPurify's inert
 * document, so nothing in it loads meanwhile.
 */
export function sanitizeToHtml(html: string): string {
  const r = sanitizeHtml(html);
  const doc = r.fragment?.ownerDocument ?? document;
  const box = doc.createElement("div");
  box.append(fragmentContent(doc, r));
  return box.innerHTML;
}

/** The window's theme: custom properties as computed on the terminal element. */
function windowTheme(root: HTMLElement): Partial<SessionTheme> {
  const cs = getComputedStyle(root);
  const v = (name: string) => cs.getPropertyValue(name).trim() || undefined;
  const colors: string[] = [];
  for (let i = 0; i < 16; i++) colors.push(v(`--dt-color-${i}`) ?? "");
  const theme: Partial<SessionTheme> = { colors };
  const set = (
    key: "fg" | "bg" | "fontFamily" | "fontSize" | "lineHeight",
    name: string,
  ) => {
    const x = v(name);
    if (x !== undefined) theme[key] = x;
  };
  set("fg", "--dt-fg");
  set("bg", "--dt-bg");
  set("fontFamily", "--dt-font-family");
  set("fontSize", "--dt-font-size");
  set("lineHeight", "--dt-line-height");
  const scheme = getComputedStyle(root.ownerDocument.documentElement)
    .colorScheme;
  theme.colorScheme = /\blight\b/.test(scheme) && !/\bdark\b/.test(scheme)
    ? "light"
    : "dark";
  return theme;
}

/** The sixel images of `buf`, rasterized (null where that failed). */
async function rasterizeSixels(
  bufs: BufferView[],
): Promise<Map<ImageEmbed, string | null>> {
  const out = new Map<ImageEmbed, string | null>();
  for (const buf of bufs) {
    for (let i = 0; i < buf.length; i++) {
      const image = buf.getLine(i).extras?.block?.image;
      if (
        image && image.mime === "image/x-sixel" && image.inline &&
        !image.evicted && !out.has(image)
      ) out.set(image, await sixelDataUrl(image));
    }
  }
  return out;
}

/** The whole session as a standalone HTML document. */
export async function windowSessionHtml(
  root: HTMLElement,
  deps: SaveHtmlDeps,
): Promise<string> {
  const term = deps.term;
  const bufs = term.buffer === term.normalBuffer
    ? [term.normalBuffer]
    : [term.normalBuffer, term.buffer];
  const sixels = await rasterizeSixels(bufs);
  return sessionHtml(term, {
    sanitize: sanitizeToHtml,
    title: document.title || undefined,
    folded: (g) => deps.isFolded(g),
    imageUrl: (image) => sixels.get(image) ?? null,
    theme: windowTheme(root),
    cell: deps.measureCell(),
    boldIsBright: !root.classList.contains(BOLD_PLAIN_CLASS),
  });
}

/** `domterm-YYYYMMDD-HHMMSS.html` for local time `d`. */
export function saveFileName(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `domterm-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-` +
    `${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}.html`;
}

/** Offer `html` as a download named `name`. */
function download(doc: Document, html: string, name: string): void {
  const url = URL.createObjectURL(new Blob([html], { type: "text/html" }));
  const a = doc.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  doc.body.append(a);
  a.click();
  a.remove();
  // The download has started reading the blob by now.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Make Ctrl+Shift+S in `root` save the session as HTML (never sent to the
 * program). Returns the save function (also for a menu or a test).
 */
export function installSaveHtml(
  root: HTMLElement,
  term: SessionSource,
  renderer: { measureCell(): { width: number; height: number } },
  shellUi: { isFolded(group: CommandGroup): boolean },
): () => Promise<void> {
  const deps: SaveHtmlDeps = {
    term,
    measureCell: () => renderer.measureCell(),
    isFolded: (g) => shellUi.isFolded(g),
  };
  let busy = false;
  const save = async () => {
    if (busy) return;
    busy = true;
    try {
      const html = await windowSessionHtml(root, deps);
      download(root.ownerDocument, html, saveFileName(new Date()));
    } catch (e) {
      console.error("domterm: saving as HTML failed:", e);
    } finally {
      busy = false;
    }
  };
  return save;
}
