/**
 * Links in the terminal: OSC 8 hyperlinks (cells whose extended style has a
 * `link`) and links detected in plain text (URLs and e-mail addresses with
 * npm `linkify-it`, plus `file:line:col` references). Hovering underlines
 * the link; Ctrl+click (Cmd+click on macOS) asks the server to open it with
 * an `open` message (core/protocol.ts, server/opener.ts).
 *
 * Links are found on demand from the model under the pointer, so painting
 * rows costs nothing extra.
 *
 * @module
 */
import LinkifyIt from "linkify-it";
import type { Line } from "../core/model/line.ts";
import { extId } from "../core/model/cell.ts";
import type { OpenMessage } from "../core/protocol.ts";
import type { ExtStyle } from "../core/terminal_view.ts";

/** A link found at a cell: its cell range in the row and what opening it sends. */
export interface FoundLink {
  /** First cell and one past the last cell of the link in the row. */
  start: number;
  end: number;
  /** The `open` message (without `type`). */
  target: Omit<OpenMessage, "type">;
}

interface LinkifyMatch {
  index: number;
  lastIndex: number;
  url: string;
}
interface Linkify {
  match(text: string): LinkifyMatch[] | null;
}

let linkify: Linkify | null = null;
function getLinkify(): Linkify {
  linkify ??= new (LinkifyIt as unknown as new () => Linkify)();
  return linkify;
}

/**
 * A file reference: a path with a directory part or an extension, then
 * `:line` and optionally `:column` (compiler and grep output).
 */
const FILE_REF =
  /(?<![\w/.~-])((?:~|\.{1,2})?\/?[\w.+@-]+(?:\/[\w.+@-]+)*):(\d{1,9})(?::(\d{1,9}))?(?![\w/])/g;

/** Links in `text` (one row's text, one character per cell). */
export function findTextLinks(text: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const m of getLinkify().match(text) ?? []) {
    found.push({ start: m.index, end: m.lastIndex, target: { url: m.url } });
  }
  FILE_REF.lastIndex = 0;
  for (let m = FILE_REF.exec(text); m; m = FILE_REF.exec(text)) {
    const path = m[1];
    if (!path.includes("/") && !/\.[A-Za-z0-9]+$/.test(path)) continue;
    if (/^\d+(\.\d+)*$/.test(path)) continue; // a number or a version
    const start = m.index, end = m.index + m[0].length;
    if (found.some((f) => f.start < end && start < f.end)) continue;
    const target: FoundLink["target"] = { path, line: Number(m[2]) };
    if (m[3] !== undefined) target.column = Number(m[3]);
    found.push({ start, end, target });
  }
  return found;
}

/** The text of `line` as one string with one UTF-16 unit per cell where possible, and the cell of each unit. */
function rowText(line: Line): { text: string; cells: number[] } {
  let text = "";
  const cells: number[] = [];
  for (let x = 0; x < line.cols; x++) {
    const t = line.text(x);
    if (t === "") continue; // wide tail
    for (let i = 0; i < t.length; i++) cells.push(x);
    text += t;
  }
  cells.push(line.cols);
  return { text, cells };
}

/** The link at cell `x` of `line`, or null. `ext` resolves extended styles. */
export function linkAt(
  line: Line,
  x: number,
  ext: (id: number) => ExtStyle,
): FoundLink | null {
  if (x < 0 || x >= line.cols) return null;
  const id = extId(line.attr(x));
  const uri = id !== 0 ? ext(id).link : null;
  if (uri !== null) {
    const same = (c: number) => {
      const i = extId(line.attr(c));
      return i !== 0 && ext(i).link === uri;
    };
    let start = x, end = x + 1;
    while (start > 0 && same(start - 1)) start--;
    while (end < line.cols && same(end)) end++;
    return { start, end, target: { url: uri } };
  }
  const { text, cells } = rowText(line);
  for (const f of findTextLinks(text)) {
    const start = cells[f.start], end = cells[f.end];
    if (x >= start && x < end) return { ...f, start, end };
  }
  return null;
}

/** What {@link LinkHandler} needs from the page. */
export interface LinkHost {
  /** The line a row element shows. */
  lineOfRow(row: Element): Line | null;
  /** Cell width in CSS pixels. */
  cellWidth(): number;
  /** Extended style of an id. */
  ext(id: number): ExtStyle;
  /** Send the open message to the server. */
  open(msg: OpenMessage): void;
}

/** Hover underline and Ctrl/Cmd+click on links inside `root`. */
export class LinkHandler {
  #root: HTMLElement;
  #host: LinkHost;
  #hover: HTMLElement;
  #frame = 0;
  #last: MouseEvent | null = null;

  /** Listen on `root`. */
  constructor(root: HTMLElement, host: LinkHost) {
    this.#root = root;
    this.#host = host;
    this.#hover = root.ownerDocument.createElement("div");
    this.#hover.className = "dt-link-hover";
    root.addEventListener("mousemove", this.#onMove, { passive: true });
    root.addEventListener("mouseleave", this.#clear);
    root.addEventListener("click", this.#onClick, true);
  }

  /** Remove listeners. */
  dispose(): void {
    this.#root.removeEventListener("mousemove", this.#onMove);
    this.#root.removeEventListener("mouseleave", this.#clear);
    this.#root.removeEventListener("click", this.#onClick, true);
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#clear();
  }

  /** The link under a mouse event and its row element. */
  find(ev: MouseEvent): { link: FoundLink; row: HTMLElement } | null {
    const target = ev.target as Element | null;
    if (target?.closest?.(".dt-embed")) return null;
    const row = target?.closest?.(".dt-row") as HTMLElement | null;
    if (!row) return null;
    const line = this.#host.lineOfRow(row);
    if (!line || line.extras?.block) return null;
    const x = Math.floor(
      (ev.clientX - row.getBoundingClientRect().left) / this.#host.cellWidth(),
    );
    const link = linkAt(line, x, (id) => this.#host.ext(id));
    return link ? { link, row } : null;
  }

  #onMove = (ev: MouseEvent) => {
    this.#last = ev;
    if (this.#frame === 0) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        if (this.#last) this.#show(this.#last);
      });
    }
  };

  #show(ev: MouseEvent): void {
    const hit = this.find(ev);
    if (!hit) return this.#clear();
    const h = this.#hover;
    h.style.left = `calc(${hit.link.start} * var(--dt-cell-w))`;
    h.style.width = `calc(${hit.link.end - hit.link.start} * var(--dt-cell-w))`;
    const href = hit.link.target.url ?? hit.link.target.path ?? "";
    h.dataset.href = href;
    this.#root.title = `${href}\n(${isMac() ? "Cmd" : "Ctrl"}+click to open)`;
    if (h.parentElement !== hit.row) hit.row.appendChild(h);
    this.#root.classList.add("dt-link-hovering");
  }

  #clear = () => {
    this.#hover.remove();
    this.#root.classList.remove("dt-link-hovering");
    this.#root.removeAttribute("title");
  };

  #onClick = (ev: MouseEvent) => {
    const modifier = isMac() ? ev.metaKey : ev.ctrlKey;
    // A link inside an embedded fragment (sanitized <a href>) never navigates
    // the terminal page; with the modifier it opens like any other link.
    const a = (ev.target as Element | null)?.closest?.(".dt-embed a[href]") as
      | HTMLAnchorElement
      | null;
    if (a && !a.hasAttribute("download")) {
      ev.preventDefault();
      ev.stopPropagation();
      if (modifier && ev.button === 0) {
        this.#host.open({ type: "open", url: a.href });
      }
      return;
    }
    if (ev.button !== 0 || !modifier) return;
    const hit = this.find(ev);
    if (!hit) return;
    ev.preventDefault();
    ev.stopPropagation();
    this.#host.open({ type: "open", ...hit.link.target });
  };
}

function isMac(): boolean {
  return typeof navigator !== "undefined" &&
    /Mac|iPhone|iPad/.test(navigator.platform);
}
