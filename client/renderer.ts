/**
 * The DOM renderer: draws a {@link TerminalView} into an element, once per
 * animation frame and only what changed. This class is the facade the page
 * talks to; the work is in client/render/:
 *
 * - `frame_scheduler.ts`: when to draw (animation frames, floods, the
 *   ?2026 hold, idle work);
 * - `row_grid.ts` and `row_html.ts`: what the rows are (the DOM grid of a
 *   buffer, redrawn from the emulator's damage, and the row factory);
 * - `history_fill.ts`: drawing the dormant history (in view, in idle time);
 * - `cursor.ts`, `palette.ts`, `scroll_follow.ts`, `screen_fit.ts`,
 *   `cell_fit.ts`: the cursor, the colours a program changed, following
 *   the output, hiding blank rows for a tall embed, the cell and the grid
 *   size that fits.
 *
 * Layout inside `root` (which gets the class `domterm`):
 *
 * ```
 * div.dt-viewport          scrollable; the normal buffer (history + screen)
 *   div.dt-rows
 *     div.dt-block         up to 32 chunks, skipped as a unit when out of view
 *       div.dt-chunk       up to 64 rows, laid out and skipped as a unit
 *         div.dt-row       one per line
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
import { installPalette } from "./colors.ts";
import { RowPainter } from "./style_runs.ts";
import { EmbedPainter } from "./embeds.ts";
import { RowGrid } from "./render/row_grid.ts";
import { FrameScheduler } from "./render/frame_scheduler.ts";
import { type CursorChoice, CursorPainter } from "./render/cursor.ts";
import { PaletteSync } from "./render/palette.ts";
import { ContrastFix } from "./render/contrast.ts";
import type { ShownColors } from "./theme_colors.ts";
import { ScrollFollow } from "./render/scroll_follow.ts";
import { ScreenFit } from "./render/screen_fit.ts";
import { CellFit } from "./render/cell_fit.ts";
import { HistoryFill, type ViewPlace } from "./render/history_fill.ts";

export { SYNC_HOLD_MS } from "./render/frame_scheduler.ts";

/** Draws a terminal into `root`. */
export class Renderer {
  /** The element the terminal is drawn into. */
  readonly root: HTMLElement;
  /** The terminal being drawn. */
  readonly term: TerminalView;

  #viewport: HTMLElement;
  #altEl: HTMLElement;
  #cursor: CursorPainter;
  #cells: CellFit;
  #painter: RowPainter;
  #normal: RowGrid;
  #alt: RowGrid;
  #frames: FrameScheduler;
  #scroll: ScrollFollow;
  /**
   * The rows the viewport has room for, as the ResizeObserver last saw it
   * (no layout read per frame); Infinity before it has.
   */
  #viewRows = Infinity;
  #palette: PaletteSync;
  #contrast: ContrastFix;
  #screenFit = new ScreenFit();
  #altShown = false;
  #cols = 0;
  #resizeObserver: ResizeObserver | null = null;
  /** Not shown (see setShown), and whether output came meanwhile. */
  #hidden = false;
  #stale = false;
  /** Fit the screen at the next render even if no row changed (an image loaded). */
  #needFit = false;
  /** Draws the normal grid's dormant history. */
  #history: HistoryFill;
  /**
   * Called when the user scrolls away from the bottom of the normal buffer
   * (true) or back to it, or the alternate screen hides the history (false).
   */
  onScrolledBack: ((scrolledBack: boolean) => void) | null = null;
  #onScroll = () => {
    // Not displayed, the element has no scroll position to go by.
    if (this.#hidden) return;
    this.#history.viewMoved();
    this.#frames.requestIdle();
    this.#scroll.follow = this.#scroll.atBottom();
    this.#scroll.reportScroll(this.#altShown);
    // The user scrolled in a flood: show the new place at the next frame.
    if (!this.#scroll.follow) this.#frames.noteScrolledBack();
  };
  #onFonts = () => {
    this.measureCell();
    this.schedule();
  };

  /**
   * Called at the end of every render, e.g. to decorate rows that have
   * shell-integration marks (client/shell_ui.ts).
   */
  onRender: (() => void) | null = null;

  /**
   * The cursor the settings ask for (`cursor.style`, `cursor.blink`), shown
   * while the program has not chosen another (DECSCUSR); null: a block.
   */
  get defaultCursor(): CursorChoice | null {
    return this.#cursor.defaultCursor;
  }
  set defaultCursor(choice: CursorChoice | null) {
    this.#cursor.defaultCursor = choice;
  }

  /** The row element of normal-buffer line `index`, if it is drawn. */
  rowElement(index: number): HTMLElement | undefined {
    return this.#normal.els[index] ?? undefined;
  }

  /** History chunks drawn as rows so far (the folds hide their rows too). */
  get rowsFilled(): number {
    return this.#normal.filled;
  }

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
    this.#cells = new CellFit(root);
    this.#cursor = new CursorPainter(doc);
    this.#palette = new PaletteSync(root.style);
    this.#contrast = new ContrastFix(root.style);
    this.#scroll = new ScrollFollow(
      this.#viewport,
      () => this.#cells.cell?.height,
      (back) => this.onScrolledBack?.(back),
    );
    this.#frames = new FrameScheduler(term, {
      draw: () => this.render(),
      linesDrawn: () => this.#normal.base + this.#normal.els.length,
      idleWanted: () => this.#history.idleWanted,
      idleAllowed: () => !this.#altShown && !this.#hidden,
      idleWork: (deadline) => this.#idleWork(deadline),
    });

    this.#normal = new RowGrid(rows, term);
    this.#alt = new RowGrid(this.#altEl, term);
    this.#painter = new RowPainter(
      (id) => this.term.ext(id),
      (fg, bg, inverse) => this.#contrast.inline(fg, bg, inverse),
    );
    this.#painter.widths = this.#cells.glyphs;
    this.#history = new HistoryFill(
      this.#normal,
      this.#painter,
      () => this.schedule(),
    );
    // An image that loaded changed its row's height: fit the screen again.
    this.#normal.embeds = new EmbedPainter(() => {
      this.#needFit = true;
      this.schedule();
    });
    this.#alt.embeds = new EmbedPainter(() => {});

    if (typeof IntersectionObserver !== "undefined") {
      // Half a screen ahead, so rows are drawn before they show.
      this.#normal.watch = new IntersectionObserver(this.#history.onNear, {
        root: this.#viewport,
        rootMargin: "50% 0px",
      });
    }
    this.#viewport.addEventListener("scroll", this.#onScroll, {
      passive: true,
    });
    doc.fonts?.addEventListener("loadingdone", this.#onFonts);
    if (typeof ResizeObserver !== "undefined") {
      // A resized viewport that was following stays at the bottom. Layout
      // is fresh when observers run, so no render is needed for this.
      this.#resizeObserver = new ResizeObserver((entries) => {
        if (entries.some((e) => e.target === this.#viewport)) {
          const rows = this.fit().rows;
          if (rows !== this.#viewRows) {
            this.#viewRows = rows;
            this.#needFit = true;
            this.schedule();
          }
        }
        if (this.#scroll.follow && !this.#altShown) {
          this.#viewport.scrollTop = this.#viewport.scrollHeight;
        }
      });
      this.#resizeObserver.observe(this.#viewport);
      // Rows grow when images load: stay at the bottom then too.
      this.#resizeObserver.observe(rows);
    }
  }

  /**
   * Ask for a repaint at the next animation frame; cheap to call often
   * (coalesced). While the terminal holds output (synchronized output,
   * mode ?2026) frames wait, for at most {@link SYNC_HOLD_MS}.
   */
  schedule(): void {
    // hot path: called for every piece of output. A view not shown (a
    // tab behind another) draws nothing: it is drawn from the model when
    // it is shown again (setShown).
    if (this.#hidden) {
      this.#stale = true;
      return;
    }
    this.#frames.schedule();
  }

  /** Whether the view is shown (false: a tab behind another, no frames). */
  get shown(): boolean {
    return !this.#hidden;
  }

  /**
   * The view is shown (true) or hidden (false). Hidden, it draws no frames
   * and does no idle work; shown again, it draws what changed meanwhile at
   * once, and a view that followed the output is at the bottom again (its
   * element lost its scroll position while it was not displayed).
   */
  setShown(shown: boolean): void {
    if (shown === !this.#hidden) return;
    this.#hidden = !shown;
    if (!shown) {
      this.#frames.cancelFrame();
      return;
    }
    if (this.#scroll.follow) this.#scroll.needScroll = true;
    this.#stale = false;
    this.render();
  }

  /**
   * Idle work (client/render/frame_scheduler.ts decides when): the dormant
   * history (client/render/history_fill.ts).
   */
  #idleWork(deadline: IdleDeadline): void {
    this.render();
    const near = this.#history.idleFill(
      this.term.buffer,
      deadline,
      () => this.#viewPlace(),
    );
    // Rows just drawn may need decorations (shell marks).
    this.onRender?.();
    // Lay out now what was drawn near the view (content-visibility skips
    // the rest), while the page is idle: else the next keystroke's echo
    // pays for it (measured after a CJK flood: 170-310 ms).
    if (near) void this.#viewport.scrollHeight;
  }

  /** Where the normal buffer's view is, and the selection. Reads layout. */
  #viewPlace(): ViewPlace {
    const cellH = this.#cells.cell?.height || 1;
    const view = this.#scroll.follow
      ? this.#normal.els.length
      : Math.floor(this.#viewport.scrollTop / cellH);
    const sel = this.root.ownerDocument.getSelection();
    return {
      view,
      selection: sel && sel.rangeCount > 0 ? sel.getRangeAt(0) : null,
    };
  }

  /** Repaint now (used by schedule's frame callback and by tests). */
  render(): void {
    this.#frames.cancelFrame();
    const term = this.term;
    const root = this.root;
    if (this.#cells.cell === null) this.measureCell();
    const cols = term.cols, rows = term.rows;
    if (cols !== this.#cols) {
      root.style.setProperty("--dt-cols", String(cols));
      this.#cols = cols;
    }
    const paletteChanged = this.#palette.sync(term);
    const rv = term.reverseVideo;
    if (root.classList.contains("dt-reverse") !== rv) {
      root.classList.toggle("dt-reverse", rv);
    }
    if (this.#contrast.sync(term, paletteChanged)) {
      // Inline colours of the screen's rows are stale (the history keeps
      // them; its palette text follows through the custom properties).
      this.#painter.clearTags();
      this.#normal.invalidateScreen(rows);
      this.#alt.invalidateScreen(rows);
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
      grid = this.#normal;
      this.#renderNormal(buf, cols, rows);
    }
    this.#cursor.draw(term, grid, buf, rows);
    this.#scroll.reportScroll(this.#altShown);
    this.onRender?.();
  }

  /** The normal buffer's part of a frame: rows, fit, dormant chunks, scrolling. */
  #renderNormal(buf: BufferView, cols: number, rows: number): void {
    let changed = false;
    if (this.#altShown) {
      this.#altShown = false;
      this.#altEl.hidden = true;
      this.#viewport.classList.remove("dt-covered");
      changed = true;
    }
    // Whether the rows' height may have changed (see scrolling below).
    let reshaped = changed || this.#needFit;
    const grid = this.#normal;
    // Lines seen so far, counted from the start of the output: the grid's
    // rows begin at the trim count of the last sync (`base`), not the
    // current one (with a full scrollback they differ by every line added
    // since, and a flood went unnoticed: 55 frames a second).
    const before = grid.base + grid.els.length;
    changed = grid.sync(buf, cols, rows, this.#painter) || changed;
    reshaped ||= grid.reshaped;
    if (changed || this.#needFit) {
      const fitted = this.#screenFit.fit(
        grid,
        buf,
        rows,
        this.term.cursorY,
        () => this.#cells.cell?.height ?? this.measureCell().height,
        this.#viewRows,
      );
      changed ||= fitted;
      reshaped ||= fitted;
    }
    this.#needFit = false;
    const added = buf.trimmed + buf.length - before;
    this.#frames.frameDrawn(added, rows);
    if (added > 0) this.#history.viewMoved();
    this.#history.drawWanted(buf, this.#frames.flooding);
    this.#history.bound(buf, () => this.#viewPlace());
    this.#frames.requestIdle();
    const scroll = this.#scroll;
    if (!scroll.follow && changed) this.#showView(buf);
    // An echo redraws a row in place: the height is the same, and the
    // forced layout of reading it cost 0.4 of the 0.7 ms of such a render
    // (bench:e2e keys). (A height change missed here is caught by the
    // ResizeObserver on the rows, which keeps a following view down.)
    if (scroll.follow && ((changed && reshaped) || scroll.needScroll)) {
      // The one layout read per frame, after all writes.
      this.#viewport.scrollTop = this.#viewport.scrollHeight;
    }
    scroll.needScroll = false;
  }

  /** Scrolled back: the history in view (and two rows around it) shows now. */
  #showView(buf: BufferView): void {
    const vp = this.#viewport;
    const rows = this.#normal.container;
    const cellH = this.#cells.cell?.height ?? this.measureCell().height;
    const top = vp.getBoundingClientRect().top + vp.clientTop -
      rows.getBoundingClientRect().top;
    const h = vp.clientHeight;
    this.#normal.showRange(
      top - 2 * cellH,
      top + h + 2 * cellH,
      cellH,
      buf,
      this.#painter,
    );
  }

  /** The terminal's model was replaced (a snapshot was loaded): draw everything anew. */
  reset(): void {
    for (const g of [this.#normal, this.#alt]) {
      g.clear();
      g.base = 0;
      g.screenStart = 0;
      g.cols = -1;
      g.rows = -1;
    }
    this.#scroll.follow = true;
    this.#scroll.needScroll = true;
    this.#cursor.reset();
    this.schedule();
  }

  /**
   * The minimum contrast (`minimum-contrast-ratio`; 1: off) and the
   * theme's colours it measures against (client/theme_colors.ts).
   */
  setContrast(ratio: number, colors: ShownColors | null): void {
    this.#contrast.setRatio(ratio);
    if (colors !== null) this.#contrast.setTheme(colors);
    this.schedule();
  }

  /** Size of one character cell in CSS pixels, measured from the font in use. */
  measureCell(): { width: number; height: number } {
    return this.#cells.measure();
  }

  /** The cols x rows that fit in root's current content box (at least 1x1; re-measures the cell). */
  fit(): { cols: number; rows: number } {
    return this.#cells.fit(this.#viewport);
  }

  /** Focus state: a solid cursor when focused, a hollow one when not. */
  setFocused(focused: boolean): void {
    this.root.classList.toggle("dt-focused", focused);
  }

  /** Client-relative pixel rectangle of the cursor cell (for placing the IME textarea). */
  cursorRect(): { left: number; top: number; width: number; height: number } {
    const cursor = this.#cursor;
    if (cursor.row === null || !cursor.row.isConnected) this.render();
    const cell = this.#cells.cell ?? this.measureCell();
    const r = (cursor.row ?? this.root).getBoundingClientRect();
    return {
      left: r.left + cursor.x * cell.width,
      top: r.top,
      width: cell.width * (cursor.wide ? 2 : 1),
      height: cell.height,
    };
  }

  /**
   * The element of line `index` of the buffer shown (the alternate screen
   * while it is shown), if it is drawn.
   */
  shownRow(index: number): HTMLElement | undefined {
    const grid = this.#altShown ? this.#alt : this.#normal;
    return grid.els[index] ?? undefined;
  }

  /**
   * Scroll line `index` of the buffer shown to the middle of the view,
   * drawing it first if it was not (a dormant chunk of the history).
   * Returns its row element, or null when there is no such line.
   */
  revealLine(index: number): HTMLElement | null {
    this.render();
    if (this.#altShown) return this.#alt.els[index] ?? null;
    const el = this.#normal.drawRow(index, this.term.buffer, this.#painter);
    if (el === null) return null;
    el.scrollIntoView({ block: "center", inline: "nearest" });
    // The scroll event comes later; following must stop now, or the next
    // frame scrolls back to the bottom.
    this.#scroll.follow = this.#scroll.atBottom();
    this.#scroll.reportScroll(this.#altShown);
    this.onRender?.();
    return el;
  }

  /**
   * Lines [first, end) of the buffer shown that are in view, or near it
   * (one screen either side). Reads layout.
   */
  viewLines(): { first: number; end: number } {
    const rows = this.term.rows;
    if (this.#altShown) return { first: 0, end: this.#alt.els.length };
    const grid = this.#normal;
    const vp = this.#viewport;
    const r = vp.getBoundingClientRect();
    const doc = this.root.ownerDocument;
    const x = r.left + parseFloat(getComputedStyle(vp).paddingLeft) + 1;
    const at = (y: number): number => {
      const hit = doc.elementFromPoint(x, y)?.closest(".dt-row");
      return hit ? grid.els.indexOf(hit as HTMLElement) : -1;
    };
    const top = at(r.top + 2);
    const bottom = at(r.bottom - 2);
    const n = grid.els.length;
    // Following, the view is the screen; else guess from a visible row.
    const anchor = top >= 0 ? top : bottom >= 0 ? bottom - rows : n - rows;
    const first = Math.max(0, anchor - rows);
    const last = bottom >= 0 ? bottom : anchor + rows;
    return { first, end: Math.min(n, last + rows + 1) };
  }

  /** The line that row element `row` shows (for hit tests), or null. */
  lineOfRow(row: Element): Line | null {
    const grid = this.#altShown ? this.#alt : this.#normal;
    const k = grid.els.indexOf(row as HTMLElement);
    return k < 0 ? null : grid.lines[k];
  }

  /**
   * The user typed: idle filling of the history pauses while they do, so
   * that echoes never wait behind it.
   */
  noteUserInput(): void {
    this.#frames.noteUserInput();
  }

  /** Follow output again: scroll the viewport to the bottom. */
  scrollToBottom(): void {
    // Already following (every keystroke lands here), there is nothing to
    // do: the frame that draws the echo keeps the view at the bottom.
    if (this.#scroll.follow) return;
    // Coming back from the history, scroll now, not only at the next
    // frame: a scroll event still pending from an earlier programmatic
    // scroll (Shift+Home just before) would otherwise see the old position
    // and turn following off again.
    const vp = this.#viewport;
    vp.scrollTop = vp.scrollHeight;
    this.#scroll.follow = true;
    this.#scroll.needScroll = true;
    this.schedule();
    this.#scroll.reportScroll(this.#altShown);
  }

  /** True while the alternate screen is shown (it has no history to scroll). */
  get altScreenShown(): boolean {
    return this.#altShown;
  }

  /**
   * Scroll the history by `pages` screens (negative: up, towards older
   * output). Reaching the bottom follows output again.
   */
  scrollPages(pages: number): void {
    const cell = this.#cells.cell ?? this.measureCell();
    this.#scroll.scrollTo(
      this.#viewport.scrollTop + pages * this.term.rows * cell.height,
      this.#altShown,
    );
  }

  /** Scroll to the oldest line of the history. */
  scrollToTop(): void {
    this.#scroll.scrollTo(0, this.#altShown);
  }

  /**
   * Remove DOM and listeners. Test hook: the page never disposes its
   * renderer; tests do, to start another one on the same element.
   */
  dispose(): void {
    this.#frames.dispose();
    this.#normal.watch?.disconnect();
    this.#normal.watch = null;
    this.#viewport.removeEventListener("scroll", this.#onScroll);
    this.root.ownerDocument.fonts?.removeEventListener(
      "loadingdone",
      this.#onFonts,
    );
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
    this.#cursor.el.remove();
    this.#viewport.remove();
    this.#altEl.remove();
    this.#cells.dispose();
    const root = this.root;
    root.classList.remove("domterm", "dt-reverse", "dt-focused");
    for (const p of ["--dt-cols", "--dt-cell-w", "--dt-cell-h"]) {
      root.style.removeProperty(p);
    }
    this.#palette.clear();
    this.#contrast.clear();
  }
}
