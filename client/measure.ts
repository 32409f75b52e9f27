/**
 * Measures the character cell of the font in use with a hidden probe.
 *
 * @module
 */

/** Characters in the probe: many, so the width per cell is sub-pixel accurate. */
const PROBE_TEXT =
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@#";

/** Size of one character cell in CSS pixels. */
export interface CellSize {
  width: number;
  height: number;
}

/**
 * A hidden element inside the terminal (so it inherits the terminal's
 * font) that measures one cell: width = probe width / characters, height =
 * the height of one line box, i.e. the line-height.
 */
export class CellProbe {
  readonly element: HTMLElement;

  /** Create the probe as a child of `parent`. */
  constructor(parent: HTMLElement) {
    const el = parent.ownerDocument.createElement("div");
    el.className = "dt-measure";
    el.setAttribute("aria-hidden", "true");
    // Inline styles: the probe must work even before the stylesheet loads.
    el.style.cssText = "position:absolute;left:0;top:0;visibility:hidden;" +
      "white-space:pre;width:max-content;pointer-events:none;contain:layout style;";
    el.textContent = PROBE_TEXT;
    parent.appendChild(el);
    this.element = el;
  }

  /** Measure now (a layout read). Falls back to 8x16 if nothing is laid out. */
  measure(): CellSize {
    const r = this.element.getBoundingClientRect();
    const width = r.width / PROBE_TEXT.length;
    const height = r.height;
    return {
      width: width > 0 ? width : 8,
      height: height > 0 ? height : 16,
    };
  }

  /** Remove the probe. */
  dispose(): void {
    this.element.remove();
  }
}
