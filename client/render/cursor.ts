/**
 * The cursor: an absolutely positioned `div.dt-cursor` inside the row it is
 * on, so it scrolls with its row and needs no layout reads to place. Its
 * shape and blink come from the program (DECSCUSR) or, while the program
 * keeps the default, from the settings.
 *
 * @module
 */
import type { BufferView, TerminalView } from "../../core/terminal_view.ts";
import {
  A_BOLD,
  A_ITALIC,
  A_WIDE,
  A_WIDE_TAIL,
} from "../../core/model/cell.ts";
import type { RowGrid } from "./row_grid.ts";

/** A cursor shape and whether it blinks. */
export type CursorChoice = {
  style: "block" | "underline" | "bar";
  blink: boolean;
};

/** Draws the cursor into the grid shown. */
export class CursorPainter {
  /** The cursor element (not in the document while there is no cursor). */
  readonly el: HTMLElement;
  /** Cursor state last applied, to skip redundant DOM writes. */
  #state = "";
  /**
   * The cursor the settings ask for (`cursor.style`, `cursor.blink`), shown
   * while the program has not chosen another (DECSCUSR); null: a block.
   */
  defaultCursor: CursorChoice | null = null;
  #x = 0;
  #wide = false;
  /** The row the cursor is on (also while it is hidden). */
  #row: HTMLElement | null = null;

  constructor(doc: Document) {
    this.el = doc.createElement("div");
    this.el.className = "dt-cursor";
    this.el.setAttribute("aria-hidden", "true");
  }

  /** The row element the cursor is on (also while it is hidden), or null. */
  get row(): HTMLElement | null {
    return this.#row;
  }
  /** The cursor's column on its row (the left half of a wide character). */
  get x(): number {
    return this.#x;
  }
  /** Whether the cursor covers a wide character. */
  get wide(): boolean {
    return this.#wide;
  }

  /** Forget the state drawn, so that the next draw writes it all. */
  reset(): void {
    this.#state = "";
  }

  /** Place the cursor of `term` on its row of `grid` (showing `buf`, `rows` rows). */
  draw(term: TerminalView, grid: RowGrid, buf: BufferView, rows: number): void {
    const cur = this.el;
    const index = buf.length - rows + term.cursorY;
    const host = grid.els[index];
    const line = grid.lines[index];
    this.#row = host ?? null;
    if (host === undefined || host === null || !line) {
      if (cur.parentElement !== null) cur.remove();
      this.#state = "";
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
    this.#x = x;
    this.#wide = wide;
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
    const shift = inlineShift(host, line.extras?.inline, x);
    const state = `${cls}|${x}|${ch}|${shift}`;
    if (state !== this.#state) {
      this.#state = state;
      if (cur.className !== cls) cur.className = cls;
      cur.style.setProperty("--dt-cx", String(x));
      cur.style.setProperty("--dt-cshift", `${shift}px`);
      cur.dataset.ch = ch === " " ? "" : ch;
    }
    if (cur.parentElement !== host) host.appendChild(cur);
  }
}

/**
 * How far inline HTML drawn before column `x` of `row` pushes its cells
 * right, in pixels: the widths of the row's inline embeds (in column
 * order, as client/embeds.ts inserts them) anchored at or before `x`.
 * Rows without inline embeds (nearly all) cost nothing; the others read
 * layout once per frame the cursor is on them.
 */
function inlineShift(
  row: HTMLElement,
  inline: readonly { x: number }[] | undefined,
  x: number,
): number {
  if (inline === undefined || inline.length === 0) return 0;
  const before = inline.filter((e) => e.x <= x).length;
  if (before === 0) return 0;
  // The row's own embeds (not one inside another's HTML), in order.
  const spans = Array.from(row.querySelectorAll(".dt-embed-inline")).filter(
    (s) => s.parentElement?.closest(".dt-embed") === null,
  );
  let px = 0;
  for (let i = 0; i < before && i < spans.length; i++) {
    px += spans[i].getBoundingClientRect().width;
  }
  return Math.round(px * 100) / 100;
}
