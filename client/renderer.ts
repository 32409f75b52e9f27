/**
 * The DOM renderer: draws a {@link TerminalView} into an element, once per
 * animation frame and only what changed.
 *
 * Layout inside `root` (which gets the class `domterm`):
 *
 * ```
 * div.dt-viewport          scrollable; the normal buffer (history + screen)
 *   div.dt-rows            one div.dt-row per line
 * div.dt-alt               the alternate screen, a fixed grid over the viewport
 * div.dt-measure           hidden probe that measures the cell
 * ```
 *
 * The cursor is an absolutely positioned `div.dt-cursor` inside the row it
 * is on, so it scrolls with its row and needs no layout reads to place.
 * Cell size, column count and palette overrides are CSS custom properties
 * on `root` (`--dt-cell-w`, `--dt-cell-h`, `--dt-cols`, `--dt-color-N`).
 *
 * @module
 */
import type { BufferView, TerminalView } from "../core/terminal_view.ts";
import type { Line } from "../core/model/line.ts";
import { A_BOLD, A_ITALIC, A_WIDE, A_WIDE_TAIL } from "../core/model/cell.ts";
import { installPalette } from "./colors.ts";
import { CellProbe, type CellSize } from "./measure.ts";
import { RowPainter } from "./style_runs.ts";

/** One grid of row elements parallel to a buffer's lines. */
class RowGrid {
  /** Row elements; `els[k]` shows the line with absolute index `base + k`. */
  els: HTMLElement[] = [];
  /** The Line each row was drawn from (identity tells a replaced line). */
  lines: (Line | null)[] = [];
  /** Absolute index (counting trimmed lines) of `els[0]`. */
  base = 0;
  /** Absolute index of the first screen row at the last sync. */
  screenStart = 0;
  cols = -1;
  rows = -1;

  constructor(readonly container: HTMLElement) {}

  /** Remove every row. */
  clear(): void {
    this.container.textContent = "";
    this.els = [];
    this.lines = [];
  }

  /**
   * Bring the rows in line with `buf`. Rows above the previous screen
   * (history) are never looked at again unless the size changed or lines
   * went missing. Returns true if the DOM changed.
   */
  sync(
    buf: BufferView,
    cols: number,
    rows: number,
    painter: RowPainter,
  ): boolean {
    const trimmed = buf.trimmed;
    const length = buf.length;
    let changed = false;
    let from = cols !== this.cols || rows !== this.rows
      ? 0
      : this.screenStart - trimmed;

    // Lines that left the scrollback.
    let drop = trimmed - this.base;
    if (drop < 0) {
      // The count went backwards: a different buffer. Start over.
      this.clear();
      drop = 0;
      changed = true;
    }
    if (drop > 0) {
      const n = Math.min(drop, this.els.length);
      if (n === this.els.length) {
        this.clear();
      } else {
        const range = this.container.ownerDocument.createRange();
        range.setStartBefore(this.els[0]);
        range.setEndAfter(this.els[n - 1]);
        range.deleteContents();
        this.els.splice(0, n);
        this.lines.splice(0, n);
      }
      changed = true;
    }
    this.base = trimmed;

    // Lines that went missing at the end: the mapping is suspect, so
    // compare every row's Line.
    if (this.els.length > length) {
      for (let k = length; k < this.els.length; k++) this.els[k].remove();
      this.els.length = length;
      this.lines.length = length;
      from = 0;
      changed = true;
    }

    // Existing rows that may have changed: the old screen and anything below.
    from = Math.max(0, Math.min(from, length - rows));
    const els = this.els, lines = this.lines;
    for (let k = from; k < els.length; k++) {
      const line = buf.getLine(k);
      if (line === lines[k] && !line.dirty) continue;
      const el = els[k];
      el.innerHTML = painter.html(line);
      const cls = line.wrapped ? "dt-row dt-wrapped" : "dt-row";
      if (el.className !== cls) el.className = cls;
      lines[k] = line;
      line.dirty = false;
      changed = true;
    }

    // New lines: one HTML string, one DOM insertion.
    const first = els.length;
    if (first < length) {
      let html = "";
      for (let k = first; k < length; k++) {
        const line = buf.getLine(k);
        html += line.wrapped
          ? '<div class="dt-row dt-wrapped">'
          : '<div class="dt-row">';
        html += painter.html(line);
        html += "</div>";
        lines.push(line);
        line.dirty = false;
      }
      const last = first > 0 ? els[first - 1] : null;
      this.container.insertAdjacentHTML("beforeend", html);
      let el =
        (last ? last.nextElementSibling : this.container.firstElementChild) as
          | HTMLElement
          | null;
      while (el) {
        els.push(el);
        el = el.nextElementSibling as HTMLElement | null;
      }
      changed = true;
    }

    this.screenStart = trimmed + length - rows;
    this.cols = cols;
    this.rows = rows;
    return changed;
  }
}

/** Draws a terminal into `root`. */
export class Renderer {
  /** The element the terminal is drawn into. */
  readonly root: HTMLElement;
  /** The terminal being drawn. */
  readonly term: TerminalView;

  #viewport: HTMLElement;
  #altEl: HTMLElement;
  #cursor: HTMLElement;
  #probe: CellProbe;
  #painter: RowPainter;
  #normal: RowGrid;
  #alt: RowGrid;
  #cell: CellSize | null = null;
  #frame = 0;
  /** Follow new output (the viewport is scrolled to the bottom). */
  #follow = true;
  /** Scroll to the bottom at the next render even if no row changed. */
  #needScroll = false;
  #altShown = false;
  #cols = 0;
  #palette: (string | null)[] = new Array(256).fill(null);
  /** Cursor state last applied, to skip redundant DOM writes. */
  #cursorState = "";
  #cursorX = 0;
  #cursorWide = false;
  #resizeObserver: ResizeObserver | null = null;
  #onScroll = () => {
    this.#follow = this.#atBottom();
  };
  #onFonts = () => {
    this.measureCell();
    this.schedule();
  };

  /** Set up the DOM inside `root` (existing children are left alone). */
  constructor(root: HTMLElement, term: TerminalView) {
    this.root = root;
    this.term = term;
    const doc = root.ownerDocument;
    installPalette(doc);
    root.classList.add("domterm");

    this.#viewport = doc.createElement("div");
    this.#viewport.className = "dt-viewport";
    const rows = doc.createElement("div");
    rows.className = "dt-rows";
    this.#viewport.appendChild(rows);
    this.#altEl = doc.createElement("div");
    this.#altEl.className = "dt-alt dt-rows";
    this.#altEl.hidden = true;
    root.append(this.#viewport, this.#altEl);
    this.#probe = new CellProbe(root);

    this.#cursor = doc.createElement("div");
    this.#cursor.className = "dt-cursor";
    this.#cursor.setAttribute("aria-hidden", "true");

    this.#normal = new RowGrid(rows);
    this.#alt = new RowGrid(this.#altEl);
    this.#painter = new RowPainter((id) => this.term.ext(id));

    this.#viewport.addEventListener("scroll", this.#onScroll, {
      passive: true,
    });
    doc.fonts?.addEventListener("loadingdone", this.#onFonts);
    if (typeof ResizeObserver !== "undefined") {
      // A resized viewport that was following stays at the bottom. Layout
      // is fresh when observers run, so no render is needed for this.
      this.#resizeObserver = new ResizeObserver(() => {
        if (this.#follow && !this.#altShown) {
          this.#viewport.scrollTop = this.#viewport.scrollHeight;
        }
      });
      this.#resizeObserver.observe(this.#viewport);
    }
  }

  /** Ask for a repaint at the next animation frame; cheap to call often (coalesced). */
  schedule(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.render();
    });
  }

  /** Repaint now (used by schedule's frame callback and by tests). */
  render(): void {
    if (this.#frame !== 0) {
      cancelAnimationFrame(this.#frame);
      this.#frame = 0;
    }
    const term = this.term;
    const root = this.root;
    if (this.#cell === null) this.measureCell();
    const cols = term.cols, rows = term.rows;
    if (cols !== this.#cols) {
      root.style.setProperty("--dt-cols", String(cols));
      this.#cols = cols;
    }
    this.#syncPalette();
    const rv = term.reverseVideo;
    if (root.classList.contains("dt-reverse") !== rv) {
      root.classList.toggle("dt-reverse", rv);
    }

    const buf = term.buffer;
    let grid: RowGrid;
    if (buf.isAlt) {
      if (!this.#altShown) {
        this.#altShown = true;
        this.#altEl.hidden = false;
        this.#viewport.classList.add("dt-covered");
      }
      grid = this.#alt;
      grid.sync(buf, cols, rows, this.#painter);
    } else {
      let changed = false;
      if (this.#altShown) {
        this.#altShown = false;
        this.#altEl.hidden = true;
        this.#viewport.classList.remove("dt-covered");
        changed = true;
      }
      grid = this.#normal;
      changed = grid.sync(buf, cols, rows, this.#painter) || changed;
      if (this.#follow && (changed || this.#needScroll)) {
        // The one layout read per frame, after all writes.
        this.#viewport.scrollTop = this.#viewport.scrollHeight;
      }
      this.#needScroll = false;
    }
    this.#drawCursor(grid, buf, rows);
  }

  /** Size of one character cell in CSS pixels, measured from the font in use. */
  measureCell(): { width: number; height: number } {
    const c = this.#probe.measure();
    const old = this.#cell;
    if (old === null || old.width !== c.width || old.height !== c.height) {
      this.root.style.setProperty("--dt-cell-w", `${c.width}px`);
      this.root.style.setProperty("--dt-cell-h", `${c.height}px`);
      this.#cell = c;
    }
    return { width: c.width, height: c.height };
  }

  /** The cols x rows that fit in root's current content box (at least 1x1; re-measures the cell). */
  fit(): { cols: number; rows: number } {
    const cell = this.measureCell();
    const vp = this.#viewport;
    const cs = getComputedStyle(vp);
    const px = (v: string) => parseFloat(v) || 0;
    // clientWidth excludes the (always reserved) scrollbar gutter.
    const w = vp.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight);
    const h = vp.clientHeight - px(cs.paddingTop) - px(cs.paddingBottom);
    // The epsilon keeps an exact fit from rounding down a cell.
    return {
      cols: Math.max(1, Math.floor(w / cell.width + 1e-3)),
      rows: Math.max(1, Math.floor(h / cell.height + 1e-3)),
    };
  }

  /** Focus state: a solid cursor when focused, a hollow one when not. */
  setFocused(focused: boolean): void {
    this.root.classList.toggle("dt-focused", focused);
  }

  /** Client-relative pixel rectangle of the cursor cell (for placing the IME textarea). */
  cursorRect(): { left: number; top: number; width: number; height: number } {
    if (this.#cursor.parentElement === null) this.render();
    const cell = this.#cell ?? this.measureCell();
    const host = this.#cursor.parentElement;
    const r = (host ?? this.root).getBoundingClientRect();
    return {
      left: r.left + this.#cursorX * cell.width,
      top: r.top,
      width: cell.width * (this.#cursorWide ? 2 : 1),
      height: cell.height,
    };
  }

  /** Follow output again: scroll the viewport to the bottom. */
  scrollToBottom(): void {
    this.#follow = true;
    this.#needScroll = true;
    this.schedule();
  }

  /** Remove DOM and listeners. */
  dispose(): void {
    if (this.#frame !== 0) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#viewport.removeEventListener("scroll", this.#onScroll);
    this.root.ownerDocument.fonts?.removeEventListener(
      "loadingdone",
      this.#onFonts,
    );
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
    this.#cursor.remove();
    this.#viewport.remove();
    this.#altEl.remove();
    this.#probe.dispose();
    const root = this.root;
    root.classList.remove("domterm", "dt-reverse", "dt-focused");
    for (const p of ["--dt-cols", "--dt-cell-w", "--dt-cell-h"]) {
      root.style.removeProperty(p);
    }
    for (let i = 0; i < 256; i++) {
      if (this.#palette[i] !== null) {
        root.style.removeProperty(`--dt-color-${i}`);
      }
    }
  }

  #atBottom(): boolean {
    const vp = this.#viewport;
    const slack = Math.max(2, (this.#cell?.height ?? 16) / 2);
    return vp.scrollHeight - vp.scrollTop - vp.clientHeight <= slack;
  }

  /** Apply OSC 4 palette changes as custom properties on root. */
  #syncPalette(): void {
    const pal = this.#palette;
    for (let i = 0; i < 256; i++) {
      const v = this.term.paletteOverride(i);
      if (v === pal[i]) continue;
      pal[i] = v;
      if (v === null) this.root.style.removeProperty(`--dt-color-${i}`);
      else this.root.style.setProperty(`--dt-color-${i}`, v);
    }
  }

  #drawCursor(grid: RowGrid, buf: BufferView, rows: number): void {
    const term = this.term;
    const cur = this.#cursor;
    const index = buf.length - rows + term.cursorY;
    const host = grid.els[index];
    const line = grid.lines[index];
    if (!term.cursorVisible || host === undefined || !line) {
      if (cur.parentElement !== null) cur.remove();
      this.#cursorState = "";
      return;
    }
    let x = Math.max(0, Math.min(term.cursorX, line.cols - 1));
    let a = line.attr(x);
    // On the right half of a wide character: cover the whole character.
    if ((a & A_WIDE_TAIL) !== 0 && x > 0 && (line.attr(x - 1) & A_WIDE) !== 0) {
      x--;
      a = line.attr(x);
    }
    const wide = (a & A_WIDE) !== 0;
    const ch = line.text(x);
    let cls = `dt-cursor dt-cursor-${term.cursorStyle}`;
    if (term.cursorBlink) cls += " dt-cursor-blink";
    if (wide) cls += " dt-cursor-wide";
    if ((a & A_BOLD) !== 0) cls += " dt-bold";
    if ((a & A_ITALIC) !== 0) cls += " dt-italic";
    const state = `${cls}|${x}|${ch}`;
    if (state !== this.#cursorState) {
      this.#cursorState = state;
      if (cur.className !== cls) cur.className = cls;
      cur.style.setProperty("--dt-cx", String(x));
      cur.dataset.ch = ch === " " ? "" : ch;
    }
    this.#cursorX = x;
    this.#cursorWide = wide;
    if (cur.parentElement !== host) host.appendChild(cur);
  }
}
