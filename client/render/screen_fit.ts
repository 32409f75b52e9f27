/**
 * Fitting a screen into the window: blank rows at the bottom of the screen
 * are hidden to give back the height a tall block embed takes, or the
 * height the screen has beyond a window smaller than the session's grid
 * (the grid follows the window last used; another window, or a read-only
 * viewer, may be smaller).
 *
 * @module
 */
import type { BufferView } from "../../core/terminal_view.ts";
import { isBlankLine } from "../../core/model/buffer.ts";
import type { RowGrid } from "./row_grid.ts";

/** The screen rows hidden to fit, and how to find them. */
export class ScreenFit {
  /** Screen rows hidden by {@link fit}. */
  #collapsed: HTMLElement[] = [];

  /**
   * A block embed (HTML, an image) is one line of the model but as tall as
   * its content: on the screen it makes the screen's rows taller than the
   * window, and following the output then pushed the screen's top rows
   * (what a program drew at the top, the rows after `clear`) out of view
   * while blank rows filled the bottom. The blank rows at the bottom of the
   * screen, below the cursor (row `cursorY`) and the last drawn row, give
   * that height back: they are hidden (`data-dt-collapsed`) until
   * something is drawn on them or the cursor gets there. Only when no
   * blank rows are left does the screen grow past the window. A window
   * with room for fewer rows than the screen has (`fitRows`) hides blank
   * rows the same way: else following the output showed the screen's
   * empty bottom and not the cursor. Reads layout, and only with a block
   * on the screen (`cellHeight` is asked then). Returns true if rows were
   * hidden or shown.
   */
  fit(
    grid: RowGrid,
    buf: BufferView,
    rows: number,
    cursorY: number,
    cellHeight: () => number,
    fitRows = Infinity,
  ): boolean {
    const start = Math.max(0, buf.length - rows);
    const end = Math.min(buf.length, grid.els.length);
    const tall: HTMLElement[] = [];
    for (let k = start; k < end; k++) {
      const el = grid.els[k];
      if (el && grid.lines[k]?.extras?.block !== undefined) tall.push(el);
    }
    const hide: HTMLElement[] = [];
    const over = Math.max(0, rows - fitRows);
    if (tall.length > 0 || over > 0) {
      const cellH = cellHeight();
      let extra = over * cellH;
      for (const el of tall) {
        extra += Math.max(0, el.getBoundingClientRect().height - cellH);
      }
      let need = Math.ceil(extra / cellH - 0.01);
      const cursor = buf.length - rows + cursorY;
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
}
