/**
 * The cell and how many fit: the character cell measured from the font in
 * use (published as `--dt-cell-w` / `--dt-cell-h` on the root), and the
 * columns and rows that fit in the viewport.
 *
 * @module
 */
import { CellProbe, type CellSize } from "../measure.ts";
import { canvasFont, GlyphFit } from "./glyph_fit.ts";

/** Measures the cell of `root`'s font and fits the grid to a viewport. */
export class CellFit {
  #probe: CellProbe;
  #cell: CellSize | null = null;
  /** Which characters the font draws one cell wide (the row painter's). */
  readonly glyphs = new GlyphFit();

  constructor(readonly root: HTMLElement) {
    this.#probe = new CellProbe(root);
  }

  /** The cell last measured, or null before the first measurement. */
  get cell(): CellSize | null {
    return this.#cell;
  }

  /** Size of one character cell in CSS pixels, measured from the font in use. */
  measure(): { width: number; height: number } {
    const c = this.#probe.measure();
    const old = this.#cell;
    if (old === null || old.width !== c.width || old.height !== c.height) {
      this.root.style.setProperty("--dt-cell-w", `${c.width}px`);
      this.root.style.setProperty("--dt-cell-h", `${c.height}px`);
      this.#cell = c;
    }
    this.glyphs.setFont(canvasFont(this.#probe.element), c.width);
    return { width: c.width, height: c.height };
  }

  /**
   * The cols x rows that fit in `viewport`'s current content box (at least
   * 1x1; re-measures the cell).
   */
  fit(viewport: HTMLElement): { cols: number; rows: number } {
    const cell = this.measure();
    const cs = getComputedStyle(viewport);
    const px = (v: string) => parseFloat(v) || 0;
    // clientWidth excludes the (always reserved) scrollbar gutter.
    const w = viewport.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight);
    const h = viewport.clientHeight - px(cs.paddingTop) -
      px(cs.paddingBottom);
    // The epsilon keeps an exact fit from rounding down a cell.
    return {
      cols: Math.max(1, Math.floor(w / cell.width + 1e-3)),
      rows: Math.max(1, Math.floor(h / cell.height + 1e-3)),
    };
  }

  /** Remove the probe. */
  dispose(): void {
    this.#probe.dispose();
  }
}
