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
  /** OSC 8 `id=`: cells elsewhere with the same URI and id are the same link. */
  linkId?: string;
  /**
   * A detected link that continues on soft-wrapped rows: every part as
   * [row offset from the hovered row, start, end].
   */
  parts?: [number, number, number][];
}

/** The OSC 8 `id=` of an extended style (the emulator's entries carry it). */
function linkIdOf(style: ExtStyle): string {
  return (style as { linkId?: string }).linkId ?? "";
}

/** Cell runs [start, end) of `line` that belong to the OSC 8 link `uri` with id `linkId`. */
export function linkRuns(
  line: Line,
  uri: string,
  linkId: string,
  ext: (id: number) => ExtStyle,
): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let x = 0; x <= line.cols; x++) {
    let match = false;
    if (x < line.cols) {
      const id = extId(line.attr(x));
      if (id !== 0) {
        const st = ext(id);
        match = st.link === uri && linkIdOf(st) === linkId;
      }
    }
    if (match && start < 0) start = x;
    else if (!match && start >= 0) {
      runs.push([start, x]);
      start = -1;
    }
  }
  return runs;
}

/** Rows searched above and below for more cells of an OSC 8 link with an id. */
const ID_SPAN_ROWS = 32;

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

/**
 * Links in `text` (one row's text, one character per cell). Test hook:
 * exported for tests/e2e/links_test.ts, which checks detection without a DOM.
 */
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

/**
 * The text of `lines` (one logical line: soft-wrapped rows) as one string,
 * and for each UTF-16 unit the row and cell it came from (plus an end entry).
 */
function joinedText(
  lines: Line[],
): { text: string; cells: [number, number][] } {
  let text = "";
  const cells: [number, number][] = [];
  lines.forEach((line, k) => {
    for (let x = 0; x < line.cols; x++) {
      const t = line.text(x);
      if (t === "") continue; // wide tail
      for (let i = 0; i < t.length; i++) cells.push([k, x]);
      text += t;
    }
  });
  const last = lines.length - 1;
  cells.push([last, lines[last].cols]);
  return { text, cells };
}

/**
 * The link at cell `x` of `line`, or null. `ext` resolves extended styles.
 * `wrapped`: the rows of `line`'s logical line and `line`'s index among them,
 * so that a detected URL may continue across soft wraps.
 */
export function linkAt(
  line: Line,
  x: number,
  ext: (id: number) => ExtStyle,
  wrapped: { lines: Line[]; index: number } = { lines: [line], index: 0 },
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
    const linkId = linkIdOf(ext(id));
    return linkId === ""
      ? { start, end, target: { url: uri } }
      : { start, end, target: { url: uri }, linkId };
  }
  const { lines, index } = wrapped;
  const { text, cells } = joinedText(lines);
  // Cell positions compare as (row, x) pairs.
  const pos = (c: [number, number]) => c[0] * 100000 + c[1];
  const here = index * 100000 + x;
  for (const f of findTextLinks(text)) {
    const a = cells[f.start];
    // The end is just after the last unit's cell.
    const z = cells[f.end - 1];
    const b: [number, number] = [z[0], z[1] + 1];
    if (here < pos(a) || here >= pos(b)) continue;
    const parts: [number, number, number][] = [];
    for (let k = a[0]; k <= b[0]; k++) {
      parts.push([
        k - index,
        k === a[0] ? a[1] : 0,
        k === b[0] ? b[1] : lines[k].cols,
      ]);
    }
    const mine = parts.find((p) => p[0] === 0)!;
    return { ...f, start: mine[1], end: mine[2], parts };
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
  /** Underline elements of the hovered link (one per run of cells). */
  #hovers: HTMLElement[] = [];
  #frame = 0;
  #last: MouseEvent | null = null;

  /** Listen on `root`. */
  constructor(root: HTMLElement, host: LinkHost) {
    this.#root = root;
    this.#host = host;
    root.addEventListener("mousemove", this.#onMove, { passive: true });
    root.addEventListener("mouseleave", this.#clear);
    root.addEventListener("click", this.#onClick, true);
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
    // The soft-wrapped rows around this one (a URL may continue there).
    const lines = [line];
    let index = 0;
    for (let r: HTMLElement | null = row, n = 0; r && n < 8; n++) {
      r = neighbourRow(r, -1);
      const l = r ? this.#host.lineOfRow(r) : null;
      if (!l || !l.wrapped || l.extras?.block) break;
      lines.unshift(l);
      index++;
    }
    for (let r: HTMLElement | null = row, n = 0; r && n < 8; n++) {
      if (!lines[lines.length - 1].wrapped) break;
      r = neighbourRow(r, 1);
      const l = r ? this.#host.lineOfRow(r) : null;
      if (!l || l.extras?.block) break;
      lines.push(l);
    }
    const link = linkAt(
      line,
      x,
      (id) => this.#host.ext(id),
      { lines, index },
    );
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
    // A link in embedded HTML: a plain click does nothing, so say what does.
    const a = (ev.target as Element | null)?.closest?.(".dt-embed a[href]");
    if (a && !a.hasAttribute("title") && !a.hasAttribute("download")) {
      a.setAttribute(
        "title",
        `${(a as HTMLAnchorElement).href}\n(${
          isMac() ? "Cmd" : "Ctrl"
        }+click to open)`,
      );
    }
    const hit = this.find(ev);
    if (!hit) return this.#clear();
    const { link, row } = hit;
    const parts: [HTMLElement, number, number][] = [[
      row,
      link.start,
      link.end,
    ]];
    for (const [dk, a, b] of link.parts ?? []) {
      if (dk === 0) continue;
      let r: HTMLElement | null = row;
      for (let n = 0; r && n < Math.abs(dk); n++) {
        r = neighbourRow(r, Math.sign(dk));
      }
      if (r) parts.push([r, a, b]);
    }
    if (link.linkId !== undefined && link.target.url !== undefined) {
      // The same id elsewhere (a link split over lines): underline it too.
      const ext = (id: number) => this.#host.ext(id);
      for (const step of [-1, 1]) {
        let r: HTMLElement | null = row;
        for (let n = 0; n < ID_SPAN_ROWS; n++) {
          r = neighbourRow(r, step);
          const line = r ? this.#host.lineOfRow(r) : null;
          if (!r || !line) break;
          const runs = linkRuns(line, link.target.url, link.linkId, ext);
          if (runs.length === 0) break;
          for (const [a, b] of runs) parts.push([r, a, b]);
        }
      }
      const own = linkRuns(
        this.#host.lineOfRow(row)!,
        link.target.url,
        link.linkId,
        ext,
      );
      for (const [a, b] of own) {
        if (a !== link.start) parts.push([row, a, b]);
      }
    }
    const doc = this.#root.ownerDocument;
    while (this.#hovers.length < parts.length) {
      const h = doc.createElement("div");
      h.className = "dt-link-hover";
      this.#hovers.push(h);
    }
    for (const h of this.#hovers.splice(parts.length)) h.remove();
    const href = link.target.url ?? link.target.path ?? "";
    parts.forEach(([r, a, b], i) => {
      const h = this.#hovers[i];
      h.style.left = `calc(${a} * var(--dt-cell-w))`;
      h.style.width = `calc(${b - a} * var(--dt-cell-w))`;
      h.dataset.href = href;
      if (h.parentElement !== r) r.appendChild(h);
    });
    this.#root.title = `${href}\n(${isMac() ? "Cmd" : "Ctrl"}+click to open)`;
    this.#root.classList.add("dt-link-hovering");
  }

  #clear = () => {
    for (const h of this.#hovers.splice(0)) h.remove();
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

/** The row element before (`step` -1) or after (+1) `row`, across chunks. */
function neighbourRow(row: HTMLElement, step: number): HTMLElement | null {
  const sib = step < 0 ? row.previousElementSibling : row.nextElementSibling;
  if (sib?.classList.contains("dt-row")) return sib as HTMLElement;
  const chunk = row.parentElement;
  if (!chunk?.classList.contains("dt-chunk")) return null;
  const other = step < 0
    ? chunk.previousElementSibling
    : chunk.nextElementSibling;
  const r = step < 0 ? other?.lastElementChild : other?.firstElementChild;
  return r?.classList.contains("dt-row") ? r as HTMLElement : null;
}

function isMac(): boolean {
  return typeof navigator !== "undefined" &&
    /Mac|iPhone|iPad/.test(navigator.platform);
}
