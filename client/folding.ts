/**
 * Folding in the view: hides the row elements of line ranges (a command's
 * output, a DomTerm foldable span) without touching the model. The
 * renderer groups rows in fixed-height chunks (`div.dt-chunk`, height
 * `--dt-n` rows); a chunk with hidden rows gets `--dt-folded` (their
 * number) and `data-dt-folded`, and the stylesheet takes them off its
 * height.
 *
 * @module
 */

/** Row elements by line index of the normal buffer (the renderer's). */
export type RowLookup = (index: number) => HTMLElement | undefined;

/** A range of lines `[first, end)`. */
export interface LineRange {
  first: number;
  end: number;
}

/** Applies a set of hidden line ranges to the rows. */
export class RowFolder {
  #rows: RowLookup;
  /** Rows hidden now. */
  #hidden = new Set<HTMLElement>();
  /** Chunks that have (or had) a folded count. */
  #chunks = new Set<HTMLElement>();

  constructor(rows: RowLookup) {
    this.#rows = rows;
  }

  /**
   * Hide exactly the rows of `ranges` (which may overlap) and show every
   * other row hidden before. Cheap when nothing changed.
   */
  apply(ranges: readonly LineRange[]): void {
    const want = new Set<HTMLElement>();
    for (const r of ranges) {
      for (let i = r.first; i < r.end; i++) {
        const el = this.#rows(i);
        if (el) want.add(el);
      }
    }
    let changed = false;
    for (const el of this.#hidden) {
      if (!want.has(el)) {
        el.hidden = false;
        changed = true;
      }
    }
    for (const el of want) {
      if (!el.hidden) {
        el.hidden = true;
        changed = true;
      }
      const chunk = el.parentElement;
      if (chunk && !this.#chunks.has(chunk)) {
        this.#chunks.add(chunk);
        changed = true;
      }
    }
    this.#hidden = want;
    if (changed) this.#recount();
  }

  /** Count each chunk's hidden rows again (they may have lost rows too). */
  #recount(): void {
    for (const chunk of [...this.#chunks]) {
      let n = 0;
      for (let el = chunk.firstElementChild; el; el = el.nextElementSibling) {
        if ((el as HTMLElement).hidden) n++;
      }
      if (n > 0 && chunk.isConnected) {
        chunk.style.setProperty("--dt-folded", String(n));
        chunk.dataset.dtFolded = "";
      } else {
        chunk.style.removeProperty("--dt-folded");
        delete chunk.dataset.dtFolded;
        this.#chunks.delete(chunk);
      }
    }
  }
}
