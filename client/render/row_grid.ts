/**
 * What the rows are: the DOM grid of one buffer, a row element per line
 * (history and screen), grouped in chunks and blocks, with history far
 * from the view kept dormant (undrawn, or as text). {@link RowGrid.sync}
 * brings it in line with the buffer, redrawing the lines the emulator
 * reports damaged; when to call it is client/render/frame_scheduler.ts's
 * business.
 *
 * @module
 */
import type { BufferView, LineDamage } from "../../core/terminal_view.ts";
import type { Line } from "../../core/model/line.ts";
import type { RowPainter } from "../style_runs.ts";
import { type EmbedPainter, hasEmbeds } from "../embeds.ts";
import { rowClass, rowHtml, WRAPPED } from "./row_html.ts";

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
 * IntersectionObserver) or when the page is idle (client/renderer.ts,
 * IDLE_FILL_MS). A flood then costs a frame the screen's rows, not every
 * line that scrolled by (measured with `deno task bench:e2e`: see
 * docs/benchmarks.md).
 *
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
export const MAX_DRAWN_CHUNKS = 6;

/**
 * Chunks this close to the end of the history (or reported in view) are
 * near enough to the screen that the browser lays them out when drawn.
 */
const NEAR_CHUNKS = 3;

/** One grid of row elements parallel to a buffer's lines. */
export class RowGrid {
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
  /** Chunks whose rows are not drawn yet (dormant, see TEXT_AFTER_ROWS). */
  dormant = new Set<HTMLElement>();
  /** Dormant chunks that hold their lines as plain text (TEXT_AFTER_ROWS). */
  text = new Set<HTMLElement>();
  /** Chunks drawn as rows so far, counted (folds re-apply to new rows: shell_ui.ts). */
  filled = 0;
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

  /**
   * `container` holds the rows; `damage` tells which lines changed since
   * they were drawn, and is told which were drawn.
   */
  constructor(
    readonly container: HTMLElement,
    readonly damage: LineDamage,
  ) {}

  /**
   * Make the next sync redraw the screen's rows (the last `rows` drawn)
   * although their lines did not change: colours baked into them (the
   * minimum contrast's inline colours) are stale.
   */
  invalidateScreen(rows: number): void {
    for (
      let k = Math.max(0, this.els.length - rows);
      k < this.els.length;
      k++
    ) {
      if (this.els[k] !== null) this.lines[k] = null;
    }
  }

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
    this.filled++;
    const chunk = this.chunks[i];
    const start = this.#firstRow(i);
    const n = this.sizes[i];
    let html = "";
    for (let k = start; k < start + n; k++) {
      const line = buf.getLine(k);
      this.damage.resetDamage(line);
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
      if (this.#drawnAway(i, start)) {
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

  /** Whether chunk `i` (first row `start`) is drawn as rows above the last TEXT_AFTER_ROWS. */
  #drawnAway(i: number, start: number): boolean {
    return !this.dormant.has(this.chunks[i]) &&
      start + this.sizes[i] <= this.els.length - TEXT_AFTER_ROWS;
  }

  /**
   * How many chunks are drawn as rows above the last TEXT_AFTER_ROWS
   * (what {@link demote} brings down to MAX_DRAWN_CHUNKS). Only right
   * after sync().
   */
  drawnAway(): number {
    let n = 0;
    for (let i = 0, start = 0; i < this.chunks.length; i++) {
      if (this.#drawnAway(i, start)) n++;
      start += this.sizes[i];
    }
    return n;
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
      this.damage.resetDamage(line);
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
        if (!this.damage.isDamaged(line)) continue;
        // A history line that a column change merely cut or padded past
        // its last drawn cell looks the same (saves redrawing the whole
        // scrollback on every window resize).
        if (
          k < historyEnd && drawn[k] <= line.cols &&
          el.className === rowClass(line)
        ) {
          this.damage.resetDamage(line);
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
      this.damage.resetDamage(line);
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
    decorated = this.embeds?.refresh(
      lines,
      els as HTMLElement[],
      this.damage,
    ) || decorated;
    // Only rows redrawn in place (an echo, a screen update) keep the height.
    this.reshaped = resized || decorated || this.dormant.size !== dormant ||
      this.base !== base0 || this.els.length !== length0;

    this.screenStart = trimmed + length - rows;
    this.cols = cols;
    this.rows = rows;
    return changed;
  }
}
