/**
 * Draws the embedded content of a line (`extras.block`, `extras.inline`,
 * see core/model/line_extras.ts) into its row element, after the renderer
 * has painted the row's cells:
 *
 * - a block line becomes `div.dt-row.dt-embed-row` holding one
 *   `div.dt-embed.dt-embed-block` with the sanitized fragment (or an image,
 *   see images.ts); its height is the content's natural height;
 * - each inline fragment becomes a `span.dt-embed.dt-embed-inline` inserted
 *   before the cell it is anchored at;
 * - each piece of an image over the row's cells (`extras.images`, the
 *   alternate screen) becomes a `div.dt-image-piece` over those cells that
 *   shows its part of the image (as a background, sized in cells).
 *
 * Every fragment goes through `sanitizeHtml` (client/sanitize.ts); a
 * rejected one shows the visible `rejectedNotice`, never nothing.
 *
 * @module
 */
import type { Line } from "../core/model/line.ts";
import type { LineDamage } from "../core/terminal_view.ts";
import type { ImageEmbed, ImagePiece } from "../core/model/line_extras.ts";
import {
  rejectedNotice,
  sanitizeHtml,
  type SanitizeResult,
} from "./sanitize.ts";
import { imageUrl, renderImage } from "./images.ts";

/** Sanitized fragments kept for redraws (by HTML text). */
const CACHE_SIZE = 256;

/** True when `line` has content that {@link EmbedPainter.decorate} draws. */
export function hasEmbeds(line: Line): boolean {
  const e = line.extras;
  return e !== null &&
    (e.block !== undefined || (e.inline !== undefined && e.inline.length > 0) ||
      (e.images !== undefined && e.images.length > 0));
}

/** `n` cells of the current size along `axis`, as CSS. */
const cells = (n: number, axis: "w" | "h") =>
  `calc(var(--dt-cell-${axis}, 1em) * ${+n.toFixed(4)})`;

/** The element of one image piece over the cells of a row of `cols` cells, or null when it is off the row. */
function pieceElement(
  doc: Document,
  p: ImagePiece,
  cols: number,
): HTMLElement | null {
  const n = Math.min(p.cols, cols - p.x);
  if (n <= 0) return null;
  const el = doc.createElement("div");
  el.className = "dt-image-piece";
  el.style.left = cells(p.x, "w");
  el.style.width = cells(n, "w");
  el.style.backgroundSize = `${cells(p.width, "w")} ${cells(p.height, "h")}`;
  el.style.backgroundPosition = `${cells(-p.col, "w")} ${cells(-p.row, "h")}`;
  void imageUrl(p.image).then((url) => {
    if (url !== null) el.style.backgroundImage = `url("${url}")`;
  });
  return el;
}

const segmenter = typeof Intl !== "undefined" && "Segmenter" in Intl
  ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
  : null;

/** Offsets (UTF-16) of the grapheme starts in `s`. */
function graphemeStarts(s: string): number[] {
  if (segmenter === null) return Array.from(s, (_, i) => i);
  return Array.from(segmenter.segment(s), (g) => g.index);
}

/**
 * Insert `node` into `row` before the cell at column `x`. Cells are counted
 * from the painted text: a grapheme is one cell, a `span.dt-w` two; columns
 * past the painted text (trailing blanks are not painted) are padded.
 */
export function insertAtColumn(row: HTMLElement, x: number, node: Node): void {
  const doc = row.ownerDocument;
  const walker = doc.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  let col = 0;
  for (
    let t = walker.nextNode() as Text | null;
    t;
    t = walker.nextNode() as Text | null
  ) {
    const parent = t.parentElement;
    if (parent?.closest(".dt-embed, .dt-cursor")) continue;
    if (parent?.classList.contains("dt-w")) {
      if (col >= x) {
        parent.before(node);
        return;
      }
      col += 2;
      continue;
    }
    const starts = graphemeStarts(t.data);
    for (const offset of starts) {
      if (col >= x) {
        if (offset === 0) t.before(node);
        else t.splitText(offset).before(node);
        return;
      }
      col++;
    }
  }
  if (
    col < x &&
    !(row.childNodes.length === 1 && row.firstChild?.nodeName === "BR")
  ) {
    row.append(" ".repeat(x - col));
  } else if (col < x) {
    row.textContent = " ".repeat(x);
  }
  row.append(node);
}

/**
 * The content of one sanitized fragment, as nodes of `doc`: the sanitized
 * nodes, or the rejection notice. When parts were removed, a small marker
 * says so (its title lists what), so a fragment whose visible part was all
 * removed never shows nothing. Also used to save the session as HTML
 * (client/save_html.ts).
 */
export function fragmentContent(doc: Document, r: SanitizeResult): Node {
  if (r.fragment === null) return rejectedNotice(r.removed);
  const nodes = doc.importNode(r.fragment, true);
  if (r.removed.length === 0) return nodes;
  const mark = doc.createElement("span");
  mark.className = "dt-html-partial";
  mark.textContent = "\u26a0";
  mark.title = "Parts of this HTML output were removed: " +
    r.removed.join("; ");
  const out = doc.createDocumentFragment();
  out.append(mark, nodes);
  return out;
}

/**
 * A fragment printed under the element-event mode says in which
 * generation (client/element_events.ts decides whether that is live).
 */
function markEvents(box: HTMLElement, events: number | undefined): void {
  if (events !== undefined) box.dataset.dtEvents = String(events);
}

/** Renders embeds; one per renderer (it caches sanitized fragments). */
export class EmbedPainter {
  #cache = new Map<string, SanitizeResult>();
  #onSize: () => void;
  /** Lines drawn with embeds, to notice later changes (OSC 721) in history. */
  #drawn = new Set<Line>();
  #pruneAt = 1024;

  /**
   * What the user opened or closed of each line's keyed `<details>` (lazy
   * inspectors), by replace-key: a redraw (an OSC 721 answer elsewhere in
   * the fragment) shows them as they were, not as the model has them.
   */
  #open = new WeakMap<Line, Map<string, boolean>>();

  /** Show `el`'s keyed `<details>` as last toggled, and follow their toggles. */
  #keepOpen(el: HTMLElement, line: Line): void {
    const states = this.#open.get(line);
    if (states !== undefined) {
      for (const d of el.querySelectorAll("details[replace-key]")) {
        const was = states.get(d.getAttribute("replace-key")!);
        const details = d as HTMLDetailsElement;
        if (was !== undefined && details.open !== was) details.open = was;
      }
    }
    // toggle does not bubble: caught on the way down.
    el.addEventListener("toggle", (ev) => {
      const d = ev.target as HTMLElement;
      const key = d.getAttribute?.("replace-key");
      if (d.localName !== "details" || key == null) return;
      let m = this.#open.get(line);
      if (m === undefined) this.#open.set(line, m = new Map());
      m.set(key, (d as HTMLDetailsElement).open);
    }, true);
  }

  /** `onSize`: content changed size after drawing (an image loaded). */
  constructor(onSize: () => void) {
    this.#onSize = onSize;
  }

  #sanitize(html: string): SanitizeResult {
    let r = this.#cache.get(html);
    if (r === undefined) {
      r = sanitizeHtml(html);
      if (this.#cache.size >= CACHE_SIZE) {
        this.#cache.delete(this.#cache.keys().next().value!);
      }
    } else this.#cache.delete(html);
    this.#cache.set(html, r);
    return r;
  }

  /** The content of one fragment (see {@link fragmentContent}). */
  #content(doc: Document, html: string): Node {
    return fragmentContent(doc, this.#sanitize(html));
  }

  #image(doc: Document, image: ImageEmbed): Node {
    return renderImage(doc, image, this.#onSize);
  }

  /**
   * Redraw the embeds of lines that changed after they were drawn and that
   * the renderer did not repaint (history rows: their cells are final, their
   * embeds may still be replaced). `lines[k]` is shown by `els[k]`;
   * `damage` tells which lines changed, and is told which were redrawn.
   * Returns true if any row was decorated again.
   */
  refresh(
    lines: readonly (Line | null)[],
    els: readonly HTMLElement[],
    damage: LineDamage,
  ): boolean {
    let decorated = false;
    if (this.#drawn.size > this.#pruneAt) {
      const live = new Set(lines);
      for (const l of this.#drawn) if (!live.has(l)) this.#drawn.delete(l);
      this.#pruneAt = Math.max(1024, this.#drawn.size * 2);
    }
    for (const line of this.#drawn) {
      if (!damage.isDamaged(line)) continue;
      const k = lines.lastIndexOf(line);
      if (k < 0) {
        this.#drawn.delete(line);
        continue;
      }
      this.decorate(els[k], line);
      damage.resetDamage(line);
      decorated = true;
    }
    return decorated;
  }

  /**
   * Draw `line`'s embeds into `row` (whose cells were just painted; inline
   * embeds drawn before are replaced).
   */
  decorate(row: HTMLElement, line: Line): void {
    const e = line.extras;
    if (e === null) return;
    this.#drawn.add(line);
    const doc = row.ownerDocument;
    for (
      const old of row.querySelectorAll(".dt-embed-inline, .dt-image-piece")
    ) {
      old.remove();
    }
    if (e.block !== undefined) {
      row.classList.add("dt-embed-row");
      const box = doc.createElement("div");
      box.className = "dt-embed dt-embed-block";
      markEvents(box, e.block.events);
      box.append(
        e.block.image
          ? this.#image(doc, e.block.image)
          : this.#content(doc, e.block.html),
      );
      row.replaceChildren(box);
      this.#keepOpen(box, line);
      return;
    }
    // Right to left, so an insertion does not move the columns still to do.
    const inline = e.inline ?? [];
    // An empty line's row holds a <br> (client/render: it keeps the line in
    // copied text); inline HTML drawn after it would start a second visual
    // line, one row down, over the next row. The HTML is the line instead.
    const only = row.firstChild;
    if (
      inline.length > 0 && only?.nodeName === "BR" && only === row.lastChild
    ) only.remove();
    const items = inline.map((item, i) => ({ item, i }))
      .sort((a, b) => b.item.x - a.item.x || b.i - a.i);
    for (const { item } of items) {
      const span = doc.createElement("span");
      span.className = "dt-embed dt-embed-inline";
      markEvents(span, item.events);
      span.append(this.#content(doc, item.html));
      insertAtColumn(row, item.x, span);
      this.#keepOpen(span, line);
    }
    for (const p of e.images ?? []) {
      const el = pieceElement(doc, p, line.cols);
      if (el !== null) row.append(el);
    }
  }
}
