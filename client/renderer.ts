/**
 * The DOM renderer: draws a {@link TerminalView} into an element, once per
 * animation frame and only what changed.
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
import {
  type Line,
  LINE_DOUBLE_BOTTOM,
  LINE_DOUBLE_TOP,
  LINE_DOUBLE_WIDTH,
  LINE_SINGLE,
  type LineSize,
} from "../core/model/line.ts";
import { A_BOLD, A_ITALIC, A_WIDE, A_WIDE_TAIL } from "../core/model/cell.ts";
import { isBlankLine } from "../core/model/buffer.ts";
import { installPalette } from "./colors.ts";
import { CellProbe, type CellSize } from "./measure.ts";
import { RowPainter } from "./style_runs.ts";
import { EmbedPainter, hasEmbeds } from "./embeds.ts";

/** Class of a row (or text chunk) whose last line goes on (client/selection.ts). */
const WRAPPED = "dt-wrapped";

/**
 * Rows per chunk. Rows are grouped in fixed-height `div.dt-chunk`s with
 * `content-visibility: auto`, so a frame that appends and trims many rows
 * lays out a few dozen chunks instead of thousands of rows (measured: 1000
 * new lines into a 5000-line scrollback, 60 ms a frame flat, 6 ms chunked).
 */
const CHUNK = 64;

/**
 * Chunks per block. Blocks (`div.dt-block`, also `content-visibility:
 * auto`) group chunks so that the browser tracks a few dozen elements for
 * visibility instead of one per chunk: with 100,000 lines, 49 blocks
 * instead of 1,563 chunks (bench/scroll_bench.ts: random jumps through the
 * history took half the time).
 */
const BLOCK = 32;

/**
 * History chunks that a frame appends above the screen (and one chunk
 * above it) start out *dormant*: an empty `div.dt-chunk` of the right
 * height, its rows drawn later, when it comes near the view (an
 * IntersectionObserver) or when the page is idle. A flood
 * then costs a frame the screen's rows, not every line that scrolled by
 * (measured with `deno task bench:e2e`: see docs/benchmarks.md).
 * Fill at most this long per idle callback.
 */
const IDLE_FILL_MS = 8;
/**
 * History far from the view is kept as plain text: one text node per chunk
 * (`div.dt-chunk.dt-text`, still dormant), not a row element and a few
 * spans per line. Selection, copy and select-all still see the whole
 * history; find, links and folding work on drawn rows, and a text chunk is
 * drawn as rows as soon as it comes near the view (the IntersectionObserver,
 * drawRow), like any dormant chunk. So the page's nodes follow the rows in
 * view, not the scrollback: after 10,000 lines, about 150 text chunks
 * instead of 70,000 nodes (docs/renderer.md).
 *
 * Idle filling draws as rows only the chunks within TEXT_AFTER_ROWS of the
 * end (the screen and what is just above it) and chunks that came near the
 * view; the rest become text. Chunks whose lines carry marks or embeds
 * (`extras`) are always drawn as rows (their decorations and heights need
 * the row elements).
 */
const TEXT_AFTER_ROWS = 2 * 64;
/**
 * At most this many drawn history chunks are kept away from the view: in
 * idle time the farthest drawn chunks (scrolled past earlier) go back to
 * text, unless the selection touches them.
 */
const MAX_DRAWN_CHUNKS = 6;

/**
 * Chunks this close to the end of the history (or reported in view) are
 * near enough to the screen that the browser lays them out when drawn.
 */
const NEAR_CHUNKS = 3;
/**
 * Idle filling waits until no line was added for this long: during a
 * flood most dormant chunks are trimmed before anyone could see them.
 */
const IDLE_QUIET_MS = 300;

/**
 * While output floods in (the last frame scrolled more than a screen), draw
 * at most one frame per this many ms: each frame costs the browser style,
 * layout and paint whatever it shows, and fewer of them leave more time
 * for processing output. 20 frames a second still looks live.
 */
const FLOOD_FRAME_MS = 50;

/**
 * A frame that shows new text costs the browser from about 1 ms (a screen
 * of ASCII) to over 100 ms (a screen of CJK and emoji, shaped through font
 * fallback). While a flood goes on, frames are spaced so that drawing
 * takes at most 1 / FLOOD_COST_SHARE of the time (measured: the cost of
 * the last flood frames, from the animation frame callback to the first
 * task after the frame), but at least every FLOOD_MAX_GAP_MS.
 */
const FLOOD_COST_SHARE = 4;
const FLOOD_MAX_GAP_MS = 400;

/** Custom properties set by OSC 10, 11 and 12. */
const DYNAMIC_PROPS = ["--dt-fg", "--dt-bg", "--dt-cursor"];

/** Longest time frames wait for a synchronized update (?2026) to end. */
export const SYNC_HOLD_MS = 500;

/** Class names of DEC line sizes (ESC # 5/6/3/4), see core/model/line.ts. */
const SIZE_CLASS: Readonly<Record<LineSize, string>> = {
  [LINE_SINGLE]: "",
  [LINE_DOUBLE_WIDTH]: " dt-dw",
  [LINE_DOUBLE_TOP]: " dt-dh-top",
  [LINE_DOUBLE_BOTTOM]: " dt-dh-bottom",
};

/** The class attribute of a row drawn from `line`. */
function rowClass(line: Line): string {
  return (line.wrapped ? "dt-row dt-wrapped" : "dt-row") +
    SIZE_CLASS[line.size];
}

/** The element of a row drawn from `line` (painter.drawnCells tells its cells). */
function rowHtml(line: Line, painter: RowPainter): string {
  return `<div class="${rowClass(line)}">${painter.html(line)}</div>`;
}

/** One grid of row elements parallel to a buffer's lines. */
class RowGrid {
  /**
   * Row elements; `els[k]` shows the line with absolute index `base + k`
   * (null: its chunk is dormant, the row is not drawn yet).
   */
  els: (HTMLElement | null)[] = [];
  /** The Line each row was drawn from (identity tells a replaced line). */
  lines: (Line | null)[] = [];
  /** Cells each row drew (see RowPainter.drawnCells). */
  drawn: number[] = [];
  /** Chunk elements in order, and the number of rows in each. */
  chunks: HTMLElement[] = [];
  sizes: number[] = [];
  /**
   * Block elements in order (each holds up to BLOCK chunks), the number of
   * chunks and the number of rows in each.
   */
  blocks: HTMLElement[] = [];
  blockChunks: number[] = [];
  blockRows: number[] = [];
  /** Chunks whose rows are not drawn yet (see IDLE_FILL_MS). */
  dormant = new Set<HTMLElement>();
  /** Dormant chunks that hold their lines as plain text (TEXT_AFTER_ROWS). */
  text = new Set<HTMLElement>();
  /** Blocks and chunks that {@link showRange} made always rendered. */
  #near: HTMLElement[] = [];
  /** Watches dormant chunks for coming into view. */
  watch: IntersectionObserver | null = null;
  /** Absolute index (counting trimmed lines) of `els[0]`. */
  base = 0;
  /** Absolute index of the first screen row at the last sync. */
  screenStart = 0;
  cols = -1;
  rows = -1;
  /** Draws lines' embedded HTML and images (client/embeds.ts). */
  embeds: EmbedPainter | null = null;
  /**
   * The last sync may have changed the rows' height: rows came, went or
   * were resized, chunks were drawn, embeds were decorated. False when it
   * only redrew rows in place.
   */
  reshaped = true;

  constructor(readonly container: HTMLElement) {}

  /** Remove every row. */
  clear(): void {
    this.container.textContent = "";
    this.els = [];
    this.lines = [];
    this.drawn = [];
    this.chunks = [];
    this.sizes = [];
    this.blocks = [];
    this.blockChunks = [];
    this.blockRows = [];
    this.dormant.clear();
    this.text.clear();
    this.watch?.disconnect();
    this.#near = [];
  }

  #setSize(i: number, n: number): void {
    this.sizes[i] = n;
    this.chunks[i].style.setProperty("--dt-n", String(n));
  }

  /** Block `b` gains (or with negative `delta` loses) rows. */
  #addBlockRows(b: number, delta: number): void {
    const n = this.blockRows[b] += delta;
    this.blocks[b].style.setProperty("--dt-n", String(n));
  }

  #deleteRange(first: Element, last: Element): void {
    const range = this.container.ownerDocument.createRange();
    range.setStartBefore(first);
    range.setEndAfter(last);
    range.deleteContents();
  }

  /** Remove the first `n` rows. */
  #dropFront(n: number): void {
    const { els, chunks, sizes, blocks, blockChunks, blockRows } = this;
    if (n >= els.length) return this.clear();
    let left = n;
    // Whole blocks, then whole chunks of the next block, then rows.
    let wb = 0, c = 0;
    while (blockRows[wb] <= left) {
      left -= blockRows[wb];
      c += blockChunks[wb++];
    }
    if (wb > 0) this.#deleteRange(blocks[0], blocks[wb - 1]);
    const c0 = c;
    let chunkRows = 0;
    while (sizes[c] <= left) {
      left -= sizes[c];
      chunkRows += sizes[c++];
    }
    if (c > c0) {
      this.#deleteRange(chunks[c0], chunks[c - 1]);
      blockChunks[wb] -= c - c0;
      this.#addBlockRows(wb, -chunkRows);
    }
    for (let i = 0; i < c; i++) this.#wake(chunks[i]);
    if (left > 0) {
      if (!this.dormant.has(chunks[c])) {
        this.#deleteRange(els[n - left]!, els[n - 1]!);
      } else {
        chunks[c].textContent = ""; // a peek (showRange) or text is stale now
        this.#untext(chunks[c]);
      }
      this.#setSize(c, sizes[c] - left);
      this.#addBlockRows(wb, -left);
    }
    chunks.splice(0, c);
    sizes.splice(0, c);
    blocks.splice(0, wb);
    blockChunks.splice(0, wb);
    blockRows.splice(0, wb);
    els.splice(0, n);
    this.lines.splice(0, n);
    this.drawn.splice(0, n);
  }

  /** Remove the last `n` rows. */
  #dropBack(n: number): void {
    const { els, chunks, sizes, blocks, blockChunks, blockRows } = this;
    if (n >= els.length) return this.clear();
    let end = els.length;
    while (n > 0) {
      const lb = blocks.length - 1;
      if (blockRows[lb] <= n) {
        blocks[lb].remove();
        n -= blockRows[lb];
        end -= blockRows[lb];
        const keep = chunks.length - blockChunks[lb];
        for (let i = keep; i < chunks.length; i++) this.#wake(chunks[i]);
        chunks.length = keep;
        sizes.length = keep;
        blocks.pop();
        blockChunks.pop();
        blockRows.pop();
        continue;
      }
      const last = chunks.length - 1;
      if (sizes[last] <= n) {
        chunks[last].remove();
        this.#wake(chunks[last]);
        n -= sizes[last];
        end -= sizes[last];
        blockChunks[lb]--;
        this.#addBlockRows(lb, -sizes[last]);
        chunks.pop();
        sizes.pop();
      } else {
        if (!this.dormant.has(chunks[last])) {
          this.#deleteRange(els[end - n]!, els[end - 1]!);
        } else {
          chunks[last].textContent = ""; // a stale peek or text
          this.#untext(chunks[last]);
        }
        this.#setSize(last, sizes[last] - n);
        this.#addBlockRows(lb, -n);
        end -= n;
        n = 0;
      }
    }
    els.length = end;
    this.lines.length = end;
    this.drawn.length = end;
  }

  /**
   * Make the rows between `top` and `bottom` (pixels from the top of the
   * rows container) show in this frame: their dormant chunks drawn now, and
   * their blocks and chunks (class `dt-near`) rendered even before the
   * browser's `content-visibility: auto` finds them in view, a frame late.
   * Scrolled back in a flood, the trimming moves new history into view
   * every frame; without this it stayed blank for seconds. Reads layout.
   */
  showRange(
    top: number,
    bottom: number,
    cellH: number,
    buf: BufferView,
    painter: RowPainter,
  ): void {
    const { blocks, blockChunks, chunks, sizes } = this;
    const next: HTMLElement[] = [];
    const origin = this.container.offsetTop;
    for (let b = 0, c = 0; b < blocks.length; c += blockChunks[b++]) {
      const block = blocks[b];
      const bt = block.offsetTop - origin;
      if (bt > bottom) break;
      if (bt + block.offsetHeight < top) continue;
      next.push(block);
      let y = bt;
      for (let i = c; i < c + blockChunks[b] && y <= bottom; i++) {
        const h = sizes[i] * cellH;
        if (y + h >= top) {
          if (this.dormant.has(chunks[i])) {
            this.#peek(
              i,
              Math.max(0, Math.floor((top - y) / cellH)),
              Math.min(sizes[i], Math.ceil((bottom - y) / cellH)),
              buf,
              painter,
            );
          }
          next.push(chunks[i]);
        }
        y += h;
      }
    }
    for (const el of this.#near) {
      if (!next.includes(el)) el.classList.remove("dt-near");
    }
    for (const el of next) el.classList.add("dt-near");
    this.#near = next;
  }

  /**
   * Draw rows [from, to) of dormant chunk `i` (the others empty), leaving
   * it dormant: a flood trims these rows soon, and a whole chunk of new
   * rows, CJK say, costs a long frame to lay out. #fill replaces it all.
   */
  #peek(
    i: number,
    from: number,
    to: number,
    buf: BufferView,
    painter: RowPainter,
  ): void {
    const start = this.#firstRow(i);
    let html = "";
    for (let k = 0; k < this.sizes[i]; k++) {
      html += k < from || k >= to
        ? '<div class="dt-row"></div>'
        : rowHtml(buf.getLine(start + k), painter);
    }
    this.chunks[i].innerHTML = html;
    this.#untext(this.chunks[i]);
  }

  /** Index of the first row of chunk `i`. */
  #firstRow(i: number): number {
    let start = 0;
    for (let j = 0; j < i; j++) start += this.sizes[j];
    return start;
  }

  /** Draw the rows of dormant chunk `i` from `buf`. */
  #fill(i: number, buf: BufferView, painter: RowPainter): void {
    const chunk = this.chunks[i];
    const start = this.#firstRow(i);
    const n = this.sizes[i];
    let html = "";
    for (let k = start; k < start + n; k++) {
      const line = buf.getLine(k);
      line.dirty = false;
      html += rowHtml(line, painter);
      this.lines[k] = line;
      this.drawn[k] = painter.drawnCells;
    }
    chunk.innerHTML = html;
    let k = start;
    for (let el = chunk.firstElementChild; el; el = el.nextElementSibling) {
      const line = this.lines[k]!;
      if (hasEmbeds(line)) this.embeds?.decorate(el as HTMLElement, line);
      this.els[k++] = el as HTMLElement;
    }
    this.#wake(chunk);
  }

  /** `chunk` is no longer dormant (drawn or removed). */
  #wake(chunk: HTMLElement): void {
    if (this.dormant.delete(chunk)) this.watch?.unobserve(chunk);
    this.#untext(chunk);
  }

  /** `chunk` no longer holds text (drawn, emptied or removed). */
  #untext(chunk: HTMLElement): void {
    if (this.text.delete(chunk)) chunk.classList.remove("dt-text", WRAPPED);
  }

  /** Whether chunk `i` (first row `start`) may be kept as text. */
  #plain(i: number, start: number, buf: BufferView): boolean {
    if (start + this.sizes[i] > this.els.length - TEXT_AFTER_ROWS) {
      return false;
    }
    const chunk = this.chunks[i];
    if (chunk.hasAttribute("data-dt-folded")) return false;
    for (let k = start; k < start + this.sizes[i]; k++) {
      if (buf.getLine(k).extras !== null) return false;
    }
    return true;
  }

  /**
   * Put the lines of dormant chunk `i` (first row `start`) in it as one
   * text node: lines end with "\n" except soft-wrapped ones, as copying
   * rows gives them; the chunk gets WRAPPED when its last line is.
   */
  #fillText(i: number, start: number, buf: BufferView): void {
    const chunk = this.chunks[i];
    let text = "", wrapped = false;
    for (let k = start; k < start + this.sizes[i]; k++) {
      if (k > start && !wrapped) text += "\n";
      const line = buf.getLine(k);
      text += line.toString(true);
      wrapped = line.wrapped;
    }
    chunk.textContent = text;
    chunk.classList.add("dt-text");
    chunk.classList.toggle(WRAPPED, wrapped);
    this.text.add(chunk);
  }

  /** True while idle work is left: chunks neither drawn nor text. */
  get undrawn(): boolean {
    return this.dormant.size > this.text.size;
  }

  /**
   * Turn drawn history chunks back into text, farthest from row `view`
   * first, until at most MAX_DRAWN_CHUNKS are drawn outside the last
   * TEXT_AFTER_ROWS; chunks within two chunks of the view, marked
   * `dt-near`, touched by `selection` or not {@link #plain} stay. Only
   * right after sync(). Returns how many were turned.
   */
  demote(buf: BufferView, view: number, selection: Range | null): number {
    const far: [number, number, number][] = []; // distance, index, start
    let drawnCount = 0;
    for (let i = 0, start = 0; i < this.chunks.length; i++) {
      const n = this.sizes[i];
      if (
        !this.dormant.has(this.chunks[i]) &&
        start + n <= this.els.length - TEXT_AFTER_ROWS
      ) {
        drawnCount++;
        const d = start + n <= view ? view - start - n : start - view;
        if (d > 2 * CHUNK) far.push([d, i, start]);
      }
      start += n;
    }
    let turned = 0;
    far.sort((a, b) => b[0] - a[0]);
    for (const [, i, start] of far) {
      if (drawnCount - turned <= MAX_DRAWN_CHUNKS) break;
      const chunk = this.chunks[i];
      if (
        chunk.classList.contains("dt-near") || !this.#plain(i, start, buf) ||
        (selection !== null && selection.intersectsNode(chunk))
      ) continue;
      for (let k = start; k < start + this.sizes[i]; k++) {
        this.els[k] = null;
        this.lines[k] = null;
        this.drawn[k] = 0;
      }
      this.#fillText(i, start, buf);
      this.dormant.add(chunk);
      this.watch?.observe(chunk);
      turned++;
    }
    return turned;
  }

  /**
   * Draw dormant chunks: those in `wanted` (they came into view), then,
   * newest first, others until `deadline` (a performance.now() time).
   * Only right after sync() (the rows map to `buf`'s lines).
   */
  fillDormant(
    buf: BufferView,
    painter: RowPainter,
    wanted: Set<Element>,
    deadline = 0,
  ): boolean {
    if (this.dormant.size === 0) return false;
    let near = false;
    let start = this.els.length;
    for (const chunk of wanted) {
      const i = this.dormant.has(chunk as HTMLElement)
        ? this.chunks.indexOf(chunk as HTMLElement)
        : -1;
      if (i >= 0) this.#fill(i, buf, painter);
      near ||= i >= 0;
    }
    for (
      let i = this.chunks.length - 1;
      i >= 0 && this.undrawn && performance.now() < deadline;
      i--
    ) {
      start -= this.sizes[i];
      const chunk = this.chunks[i];
      if (!this.dormant.has(chunk) || this.text.has(chunk)) continue;
      if (this.#plain(i, start, buf)) this.#fillText(i, start, buf);
      else {
        this.#fill(i, buf, painter);
        near ||= i >= this.chunks.length - NEAR_CHUNKS;
      }
    }
    return near;
  }

  /**
   * The element of row `k`, drawing its chunk first if it is dormant.
   * Only right after sync() (the rows map to `buf`'s lines).
   */
  drawRow(k: number, buf: BufferView, painter: RowPainter): HTMLElement | null {
    if (k < 0 || k >= this.els.length) return null;
    if (this.els[k] === null) {
      let start = 0;
      for (let i = 0; i < this.chunks.length; i++) {
        if (k < start + this.sizes[i]) {
          if (this.dormant.has(this.chunks[i])) this.#fill(i, buf, painter);
          break;
        }
        start += this.sizes[i];
      }
    }
    return this.els[k];
  }

  /** Fill every dormant chunk that holds one of the rows from `from` on. */
  #fillFrom(from: number, buf: BufferView, painter: RowPainter): void {
    let end = this.els.length;
    for (let i = this.chunks.length - 1; i >= 0 && end > from; i--) {
      if (this.dormant.has(this.chunks[i])) this.#fill(i, buf, painter);
      end -= this.sizes[i];
    }
  }

  /**
   * Append rows for lines [from, to) of `buf`, with as few DOM operations
   * as possible. New chunks that end above `liveFrom` are left dormant.
   */
  #append(
    buf: BufferView,
    from: number,
    to: number,
    painter: RowPainter,
    liveFrom: number,
  ): void {
    const { els, lines, drawn, chunks, sizes } = this;
    const drawRow = (k: number) => {
      const line = buf.getLine(k);
      lines.push(line);
      line.dirty = false;
      const html = rowHtml(line, painter);
      drawn.push(painter.drawnCells);
      return html;
    };
    let k = from;
    // Rows above the new screen stay undrawn only when there are many
    // (a flood); a few are drawn as before.
    const sleepTo = liveFrom - from >= CHUNK ? liveFrom : from;
    // Top up the last chunk.
    const last = chunks.length - 1;
    if (last >= 0 && this.dormant.has(chunks[last])) {
      this.#fill(last, buf, painter);
    }
    // (Not in a flood: rows above the new screen would be drawn for nothing.)
    if (last >= 0 && sizes[last] < CHUNK && k >= sleepTo) {
      const n = Math.min(CHUNK - sizes[last], to - k);
      let html = "";
      for (let i = 0; i < n; i++) html += drawRow(k++);
      const prev = els[els.length - 1]!;
      chunks[last].insertAdjacentHTML("beforeend", html);
      let el = prev.nextElementSibling as HTMLElement | null;
      while (el) {
        els.push(el);
        el = el.nextElementSibling as HTMLElement | null;
      }
      this.#setSize(last, sizes[last] + n);
      this.#addBlockRows(this.blocks.length - 1, n);
    }
    if (k >= to) return;
    // The rest in new chunks: first into the last block while it has room,
    // then in new blocks (one insertion each way).
    const chunkHtml: string[] = [];
    const sleeping: boolean[] = [];
    const counts: number[] = [];
    while (k < to) {
      // Dormant chunks end where the screen starts, so the live ones hold
      // only screen rows.
      const asleep = k < sleepTo;
      const n = Math.min(CHUNK, (asleep ? sleepTo : to) - k);
      let html = `<div class="dt-chunk" style="--dt-n:${n}">`;
      sleeping.push(asleep);
      counts.push(n);
      if (asleep) {
        for (let i = 0; i < n; i++) {
          els.push(null);
          lines.push(null);
          drawn.push(0);
        }
        k += n;
      } else {
        for (let i = 0; i < n; i++) html += drawRow(k++);
      }
      chunkHtml.push(html + "</div>");
    }
    let c = 0;
    const lb = this.blocks.length - 1;
    if (lb >= 0 && this.blockChunks[lb] < BLOCK) {
      const take = Math.min(BLOCK - this.blockChunks[lb], chunkHtml.length);
      const prevChunk = chunks[chunks.length - 1];
      this.blocks[lb].insertAdjacentHTML(
        "beforeend",
        chunkHtml.slice(0, take).join(""),
      );
      const [count, rows] = this.#adoptChunks(
        prevChunk.nextElementSibling,
        sleeping,
        counts,
        c,
      );
      c += count;
      this.blockChunks[lb] += count;
      this.#addBlockRows(lb, rows);
    }
    if (c >= chunkHtml.length) return;
    let html = "";
    for (let i = c; i < chunkHtml.length; i += BLOCK) {
      const group = chunkHtml.slice(i, i + BLOCK);
      let rows = 0;
      for (let j = i; j < i + group.length; j++) rows += counts[j];
      html += `<div class="dt-block" style="--dt-n:${rows}">${
        group.join("")
      }</div>`;
    }
    const prevBlock = lb >= 0 ? this.blocks[lb] : null;
    this.container.insertAdjacentHTML("beforeend", html);
    let block = prevBlock
      ? prevBlock.nextElementSibling
      : this.container.firstElementChild;
    for (; block; block = block.nextElementSibling) {
      const [count, rows] = this.#adoptChunks(
        block.firstElementChild,
        sleeping,
        counts,
        c,
      );
      c += count;
      this.blocks.push(block as HTMLElement);
      this.blockChunks.push(count);
      this.blockRows.push(rows);
    }
  }

  /**
   * Take the chunks from `chunk` to the end of its parent into `chunks`,
   * `sizes` and (unless dormant) `els`; `sleeping[first + i]` tells whether
   * the i-th is dormant, `counts[first + i]` how many rows it holds.
   * Returns [chunks, rows] taken.
   */
  #adoptChunks(
    chunk: Element | null,
    sleeping: boolean[],
    counts: number[],
    first: number,
  ): [number, number] {
    let count = 0, rows = 0;
    for (; chunk; chunk = chunk.nextElementSibling) {
      const el = chunk as HTMLElement;
      this.chunks.push(el);
      let n = 0;
      if (sleeping[first + count]) {
        this.dormant.add(el);
        this.watch?.observe(el);
        n = counts[first + count];
      } else {
        for (let r = el.firstElementChild; r; r = r.nextElementSibling) {
          this.els.push(r as HTMLElement);
          n++;
        }
      }
      this.sizes.push(n);
      count++;
      rows += n;
    }
    return [count, rows];
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
    const resized = cols !== this.cols || rows !== this.rows;
    const base0 = this.base, length0 = this.els.length;
    const dormant = this.dormant.size;
    let decorated = false;
    let from = resized ? 0 : this.screenStart - trimmed;
    // Rows that were history at the last sync: only a resize changes them.
    let historyEnd = this.screenStart - trimmed;

    // Lines that left the scrollback.
    if (trimmed < this.base) {
      // The count went backwards: a different buffer. Start over.
      this.clear();
      changed = true;
    } else if (trimmed > this.base && this.els.length > 0) {
      this.#dropFront(trimmed - this.base);
      changed = true;
    }
    this.base = trimmed;

    // Lines that went missing at the end: the mapping is suspect, so
    // compare every row's Line.
    if (this.els.length > length) {
      this.#dropBack(this.els.length - length);
      from = 0;
      historyEnd = 0;
      changed = true;
    }

    // Existing rows that may have changed: the old screen and anything below.
    from = Math.max(0, Math.min(from, length - rows));
    const els = this.els, lines = this.lines, drawn = this.drawn;
    for (let k = from; k < els.length; k++) {
      const el = els[k];
      // Dormant: drawn from the buffer as it is then, when it wakes.
      if (el === null) continue;
      const line = buf.getLine(k);
      if (line === lines[k]) {
        if (!line.dirty) continue;
        // A history line that a column change merely cut or padded past
        // its last drawn cell looks the same (saves redrawing the whole
        // scrollback on every window resize).
        if (
          k < historyEnd && drawn[k] <= line.cols &&
          el.className === rowClass(line)
        ) {
          line.dirty = false;
          continue;
        }
      }
      el.innerHTML = painter.html(line);
      drawn[k] = painter.drawnCells;
      const cls = rowClass(line);
      if (el.className !== cls) el.className = cls;
      if (hasEmbeds(line)) {
        this.embeds?.decorate(el, line);
        decorated = true;
      }
      lines[k] = line;
      line.dirty = false;
      changed = true;
    }

    // New lines.
    if (els.length < length) {
      const first = els.length;
      this.#append(buf, first, length, painter, length - rows);
      for (let k = first; k < els.length; k++) {
        const el = els[k];
        if (el !== null && hasEmbeds(lines[k]!)) {
          this.embeds?.decorate(el, lines[k]!);
        }
      }
      changed = true;
    }
    // The screen is always drawn (a taller window may uncover dormant rows).
    if (this.dormant.size > 0) this.#fillFrom(length - rows, buf, painter);
    // Dormant rows have no Line (null), so refresh never looks at their els.
    decorated = this.embeds?.refresh(lines, els as HTMLElement[]) || decorated;
    // Only rows redrawn in place (an echo, a screen update) keep the height.
    this.reshaped = resized || decorated || this.dormant.size !== dormant ||
      this.base !== base0 || this.els.length !== length0;

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
  #dynamic: (string | null)[] = [null, null, null];
  /** Cursor state last applied, to skip redundant DOM writes. */
  #cursorState = "";
  /**
   * The cursor the settings ask for (`cursor.style`, `cursor.blink`), shown
   * while the program has not chosen another (DECSCUSR); null: a block.
   */
  defaultCursor:
    | { style: "block" | "underline" | "bar"; blink: boolean }
    | null = null;
  #cursorX = 0;
  #cursorWide = false;
  /** The row the cursor is on (also while it is hidden). */
  #cursorRow: HTMLElement | null = null;
  #resizeObserver: ResizeObserver | null = null;
  /** When the current synchronized-output hold began (-1: none). */
  #holdSince = -1;
  /** Screen rows hidden by {@link #fitScreen}. */
  #collapsed: HTMLElement[] = [];
  /** Fit the screen at the next render even if no row changed (an image loaded). */
  #needFit = false;
  /** When the last frame was drawn, and whether it scrolled a screen or more. */
  #lastFrame = -Infinity;
  #flooding = false;
  /** Smoothed cost (ms) of recent flood frames (see FLOOD_COST_SHARE). */
  #floodCost = 0;
  /** Posts the task that measures a frame's cost. */
  #costProbe: MessageChannel | null = null;
  #costStart = 0;
  /** When a frame last added lines to the normal buffer's view. */
  #lastGrowth = -Infinity;
  /** When the user last typed (see noteUserInput). */
  #lastInput = -Infinity;
  /** Lines seen (trimmed + length) when a flood frame was last held back. */
  #gateSeen = -1;
  /** When the user last scrolled away from the bottom during a flood. */
  #lastScroll = -Infinity;
  /** Dormant chunks of the normal grid that came into view. */
  #wanted = new Set<Element>();
  /** Pending requestIdleCallback that fills dormant chunks (0: none). */
  #idle = 0;
  /** Far chunks were turned back to text since the view last moved. */
  #demoted = false;
  #onNear = (entries: IntersectionObserverEntry[]) => {
    for (const e of entries) {
      if (
        e.isIntersecting && this.#normal.dormant.has(e.target as HTMLElement)
      ) {
        this.#wanted.add(e.target);
        this.schedule();
      }
    }
  };
  #onIdle = (deadline: IdleDeadline) => {
    this.#idle = 0;
    // Fill only when nothing else waits (a frame is due: output came) and
    // output has been quiet for a while.
    const now = performance.now();
    if (
      this.#frame !== 0 || this.#altShown ||
      now - this.#lastGrowth < IDLE_QUIET_MS ||
      now - this.#lastInput < IDLE_QUIET_MS
    ) {
      return this.#requestIdle();
    }
    this.render();
    const budget = Math.min(IDLE_FILL_MS, deadline.timeRemaining());
    const near = this.#normal.fillDormant(
      this.term.buffer,
      this.#painter,
      this.#wanted,
      performance.now() + budget,
    );
    this.#wanted.clear();
    if (!this.#normal.undrawn && !this.#demoted) {
      const cellH = this.#cell?.height || 1;
      const view = this.#follow
        ? this.#normal.els.length
        : Math.floor(this.#viewport.scrollTop / cellH);
      const sel = this.root.ownerDocument.getSelection();
      this.#normal.demote(
        this.term.buffer,
        view,
        sel && sel.rangeCount > 0 ? sel.getRangeAt(0) : null,
      );
      // Until the view moves or lines come: what stayed drawn stays.
      this.#demoted = true;
    }
    // Rows just drawn may need decorations (shell marks).
    this.onRender?.();
    // Lay out now what was drawn near the view (content-visibility skips
    // the rest), while the page is idle: else the next keystroke's echo
    // pays for it (measured after a CJK flood: 170-310 ms).
    if (near) void this.#viewport.scrollHeight;
    this.#requestIdle();
  };
  /** Whether the jump-to-bottom control should show, as last reported. */
  #scrolledBack = false;
  /**
   * Called when the user scrolls away from the bottom of the normal buffer
   * (true) or back to it, or the alternate screen hides the history (false).
   */
  onScrolledBack: ((scrolledBack: boolean) => void) | null = null;
  #onScroll = () => {
    this.#demoted = false;
    this.#requestIdle();
    this.#follow = this.#atBottom();
    this.#reportScroll();
    if (!this.#follow && this.#flooding) {
      // The user scrolled in a flood: show the new place at the next frame.
      this.#lastScroll = performance.now();
      this.schedule();
    }
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

  /** The row element of normal-buffer line `index`, if it is drawn. */
  rowElement(index: number): HTMLElement | undefined {
    return this.#normal.els[index] ?? undefined;
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
    this.#probe = new CellProbe(root);

    this.#cursor = doc.createElement("div");
    this.#cursor.className = "dt-cursor";
    this.#cursor.setAttribute("aria-hidden", "true");

    this.#normal = new RowGrid(rows);
    this.#alt = new RowGrid(this.#altEl);
    this.#painter = new RowPainter((id) => this.term.ext(id));
    // An image that loaded changed its row's height: fit the screen again.
    this.#normal.embeds = new EmbedPainter(() => {
      this.#needFit = true;
      this.schedule();
    });
    this.#alt.embeds = new EmbedPainter(() => {});

    if (typeof IntersectionObserver !== "undefined") {
      // Half a screen ahead, so rows are drawn before they show.
      this.#normal.watch = new IntersectionObserver(this.#onNear, {
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
      this.#resizeObserver = new ResizeObserver(() => {
        if (this.#follow && !this.#altShown) {
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
   * mode ?2026, where the view has it) frames wait, for at most
   * {@link SYNC_HOLD_MS}.
   */
  schedule(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(this.#onFrame);
  }

  #onFrame = (now: number) => {
    this.#frame = 0;
    // Also scrolled back: with a full scrollback the history in view then
    // drifts up as the oldest lines are trimmed, and each frame draws the
    // rows that came into view (showRange), as costly as a new screen.
    if (this.#flooding && this.#stillFlooding()) {
      const gap = Math.min(
        FLOOD_MAX_GAP_MS,
        Math.max(FLOOD_FRAME_MS, FLOOD_COST_SHARE * this.#floodCost),
      );
      if (now - this.#lastFrame < gap) {
        this.#frame = requestAnimationFrame(this.#onFrame);
        return;
      }
    }
    if (
      (this.term as { synchronizedOutput?: boolean }).synchronizedOutput ===
        true
    ) {
      if (this.#holdSince < 0) this.#holdSince = now;
      if (now - this.#holdSince < SYNC_HOLD_MS) {
        this.#frame = requestAnimationFrame(this.#onFrame);
        return;
      }
    }
    this.#holdSince = -1;
    const start = performance.now();
    this.render();
    if (this.#flooding && typeof MessageChannel === "function") {
      // Style, layout and paint follow this callback in the same task; the
      // first task after it sees their cost.
      if (this.#costProbe === null) {
        this.#costProbe = new MessageChannel();
        this.#costProbe.port1.onmessage = this.#onFrameDone;
      }
      this.#costStart = start;
      this.#costProbe.port2.postMessage(0);
    } else this.#floodCost = 0;
  };

  /**
   * Whether a held-back flood frame should wait on: a screen's worth of
   * lines or more came since the last frame, more came since the last look
   * (an animation frame ago), and the user did not type or scroll since the
   * last frame. So a key pressed in a flood, the history scrolled to, and
   * the prompt after Ctrl-C show at the next frame.
   */
  #stillFlooding(): boolean {
    if (
      this.#lastInput > this.#lastFrame || this.#lastScroll > this.#lastFrame
    ) return false;
    const buf = this.term.buffer;
    if (buf.isAlt) return false;
    // Nothing came since the last look (an animation frame ago): the
    // flood has stopped (Ctrl-C, say); show where it ended now.
    const seen = buf.trimmed + buf.length;
    if (seen === this.#gateSeen) return false;
    this.#gateSeen = seen;
    const grid = this.#normal;
    return seen - (grid.base + grid.els.length) > this.term.rows;
  }

  #onFrameDone = () => {
    const cost = performance.now() - this.#costStart;
    this.#floodCost = this.#floodCost === 0
      ? cost
      : 0.5 * this.#floodCost + 0.5 * cost;
  };

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
      // Whether the rows' height may have changed (see scrolling below).
      let reshaped = changed || this.#needFit;
      grid = this.#normal;
      // Lines seen so far, counted from the start of the output: the
      // grid's rows begin at the trim count of the last sync (`base`), not
      // the current one (with a full scrollback they differ by every line
      // added since, and a flood went unnoticed: 55 frames a second).
      const before = grid.base + grid.els.length;
      changed = grid.sync(buf, cols, rows, this.#painter) || changed;
      reshaped ||= grid.reshaped;
      if (changed || this.#needFit) {
        const fitted = this.#fitScreen(buf, rows);
        changed ||= fitted;
        reshaped ||= fitted;
      }
      this.#needFit = false;
      const added = buf.trimmed + buf.length - before;
      this.#flooding = added > rows;
      this.#lastFrame = performance.now();
      if (added > 0) {
        this.#lastGrowth = this.#lastFrame;
        this.#demoted = false;
      }
      // In a flood, chunks near the view come and go every frame (trimmed
      // soon): they wait for a quiet moment; scrolled back, showRange
      // draws what is in view meanwhile.
      if (this.#wanted.size > 0 && !this.#flooding) {
        this.#normal.fillDormant(buf, this.#painter, this.#wanted);
        this.#wanted.clear();
      } else {
        for (const c of this.#wanted) {
          if (!this.#normal.dormant.has(c as HTMLElement)) {
            this.#wanted.delete(c);
          }
        }
      }
      this.#requestIdle();
      if (!this.#follow && changed) this.#showView(buf);
      // An echo redraws a row in place: the height is the same, and the
      // forced layout of reading it cost 0.4 of the 0.7 ms of such a render
      // (bench:e2e keys). (A height change missed here is caught by the
      // ResizeObserver on the rows, which keeps a following view down.)
      if (this.#follow && ((changed && reshaped) || this.#needScroll)) {
        // The one layout read per frame, after all writes.
        this.#viewport.scrollTop = this.#viewport.scrollHeight;
      }
      this.#needScroll = false;
    }
    this.#drawCursor(grid, buf, rows);
    this.#reportScroll();
    this.onRender?.();
  }

  /**
   * A block embed (HTML, an image) is one line of the model but as tall as
   * its content: on the screen it makes the screen's rows taller than the
   * window, and following the output then pushed the screen's top rows
   * (what a program drew at the top, the rows after `clear`) out of view
   * while blank rows filled the bottom. The blank rows at the bottom of the
   * screen, below the cursor and the last drawn row, give that height back:
   * they are hidden (`data-dt-collapsed`) until something is drawn on them
   * or the cursor gets there. Only when no blank rows are left does the
   * screen grow past the window. Reads layout, and only with a block on
   * the screen. Returns true if rows were hidden or shown.
   */
  #fitScreen(buf: BufferView, rows: number): boolean {
    const grid = this.#normal;
    const start = Math.max(0, buf.length - rows);
    const end = Math.min(buf.length, grid.els.length);
    const tall: HTMLElement[] = [];
    for (let k = start; k < end; k++) {
      const el = grid.els[k];
      if (el && grid.lines[k]?.extras?.block !== undefined) tall.push(el);
    }
    const hide: HTMLElement[] = [];
    if (tall.length > 0) {
      const cellH = this.#cell?.height ?? this.measureCell().height;
      let extra = 0;
      for (const el of tall) {
        extra += Math.max(0, el.getBoundingClientRect().height - cellH);
      }
      let need = Math.ceil(extra / cellH - 0.01);
      const cursor = buf.length - rows + this.term.cursorY;
      for (let k = end - 1; k > cursor && need > 0; k--) {
        const line = grid.lines[k], el = grid.els[k];
        if (!line || !el || !isBlankLine(line)) break;
        hide.push(el);
        need--;
      }
    }
    let changed = false;
    for (const el of this.#collapsed) {
      if (!hide.includes(el)) {
        delete el.dataset.dtCollapsed;
        changed = true;
      }
    }
    for (const el of hide) {
      if (el.dataset.dtCollapsed === undefined) {
        el.dataset.dtCollapsed = "";
        changed = true;
      }
    }
    this.#collapsed = hide;
    return changed;
  }

  /** Scrolled back: the history in view (and two rows around it) shows now. */
  #showView(buf: BufferView): void {
    const vp = this.#viewport;
    const rows = this.#normal.container;
    const cellH = this.#cell?.height ?? this.measureCell().height;
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

  #requestIdle(): void {
    if (
      this.#idle === 0 && (this.#normal.undrawn || !this.#demoted) &&
      typeof requestIdleCallback === "function"
    ) {
      this.#idle = requestIdleCallback(this.#onIdle);
    }
  }

  #reportScroll(): void {
    const back = !this.#follow && !this.#altShown;
    if (back === this.#scrolledBack) return;
    this.#scrolledBack = back;
    this.onScrolledBack?.(back);
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
    this.#follow = true;
    this.#needScroll = true;
    this.#cursorState = "";
    this.schedule();
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
    if (this.#cursorRow === null || !this.#cursorRow.isConnected) this.render();
    const cell = this.#cell ?? this.measureCell();
    const r = (this.#cursorRow ?? this.root).getBoundingClientRect();
    return {
      left: r.left + this.#cursorX * cell.width,
      top: r.top,
      width: cell.width * (this.#cursorWide ? 2 : 1),
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
    this.#follow = this.#atBottom();
    this.#reportScroll();
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
    this.#lastInput = performance.now();
  }

  /** Follow output again: scroll the viewport to the bottom. */
  scrollToBottom(): void {
    // Already following (every keystroke lands here), there is nothing to
    // do: the frame that draws the echo keeps the view at the bottom.
    if (this.#follow) return;
    // Coming back from the history, scroll now, not only at the next
    // frame: a scroll event still pending from an earlier programmatic
    // scroll (Shift+Home just before) would otherwise see the old position
    // and turn following off again.
    const vp = this.#viewport;
    vp.scrollTop = vp.scrollHeight;
    this.#follow = true;
    this.#needScroll = true;
    this.schedule();
    this.#reportScroll();
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
    const cell = this.#cell ?? this.measureCell();
    this.#scrollTo(
      this.#viewport.scrollTop + pages * this.term.rows * cell.height,
    );
  }

  /** Scroll to the oldest line of the history. */
  scrollToTop(): void {
    this.#scrollTo(0);
  }

  #scrollTo(top: number): void {
    const vp = this.#viewport;
    vp.scrollTop = Math.max(
      0,
      Math.min(top, vp.scrollHeight - vp.clientHeight),
    );
    // The scroll event comes later; the follow state must be right now.
    this.#follow = this.#atBottom();
    this.#reportScroll();
  }

  /**
   * Remove DOM and listeners. Test hook: the page never disposes its
   * renderer; tests do, to start another one on the same element.
   */
  dispose(): void {
    if (this.#frame !== 0) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    if (this.#idle !== 0) cancelIdleCallback(this.#idle);
    this.#idle = 0;
    this.#normal.watch?.disconnect();
    this.#normal.watch = null;
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
    for (const p of DYNAMIC_PROPS) root.style.removeProperty(p);
  }

  #atBottom(): boolean {
    const vp = this.#viewport;
    const slack = Math.max(2, (this.#cell?.height ?? 16) / 2);
    return vp.scrollHeight - vp.scrollTop - vp.clientHeight <= slack;
  }

  /**
   * Apply OSC 4 palette changes, and OSC 10/11/12 default colour changes
   * where the view has them, as custom properties on root.
   */
  #syncPalette(): void {
    const pal = this.#palette;
    const style = this.root.style;
    for (let i = 0; i < 256; i++) {
      const v = this.term.paletteOverride(i);
      if (v === pal[i]) continue;
      pal[i] = v;
      if (v === null) style.removeProperty(`--dt-color-${i}`);
      else style.setProperty(`--dt-color-${i}`, v);
    }
    const term = this.term as {
      dynamicColorOverride?: (which: 0 | 1 | 2) => string | null;
    };
    if (typeof term.dynamicColorOverride !== "function") return;
    for (let w = 0 as 0 | 1 | 2; w < 3; w++) {
      const v = term.dynamicColorOverride(w);
      if (v === this.#dynamic[w]) continue;
      this.#dynamic[w] = v;
      if (v === null) style.removeProperty(DYNAMIC_PROPS[w]);
      else style.setProperty(DYNAMIC_PROPS[w], v);
    }
  }

  #drawCursor(grid: RowGrid, buf: BufferView, rows: number): void {
    const term = this.term;
    const cur = this.#cursor;
    const index = buf.length - rows + term.cursorY;
    const host = grid.els[index];
    const line = grid.lines[index];
    this.#cursorRow = host ?? null;
    if (host === undefined || host === null || !line) {
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
    // Kept while hidden too: the IME still needs to know where input goes.
    this.#cursorX = x;
    this.#cursorWide = wide;
    if (!term.cursorVisible) {
      if (cur.parentElement !== null) cur.remove();
      return;
    }
    const ch = line.text(x);
    // The emulator's default (a steady block) shows the user's choice.
    const own = term.cursorStyle === "block" && !term.cursorBlink
      ? this.defaultCursor
      : null;
    let cls = `dt-cursor dt-cursor-${own ? own.style : term.cursorStyle}`;
    if (own ? own.blink : term.cursorBlink) cls += " dt-cursor-blink";
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
    if (cur.parentElement !== host) host.appendChild(cur);
  }
}
