/**
 * Which characters the font draws exactly one cell wide. A row is drawn as
 * text, so a glyph from a fallback font that is wider or narrower than a
 * cell would push the rest of the row off its columns (ten `⣿` put the
 * next character 1.2 cells right, issue 32). The row painter
 * (core/style_runs.ts) asks {@link GlyphFit} about every character outside
 * ASCII: a run of characters that are not one cell wide gets a
 * `letter-spacing` that makes each advance exactly one cell (as xterm.js
 * corrects glyph widths), and a cluster of several code points that does
 * not fit (a base and its marks) a fixed-width cell of its own
 * (`span.dt-c`). So every cell starts at its column whatever the font, and
 * the text, and so copy and paste, stays the same.
 *
 * Widths are measured once per character with a canvas in the terminal's
 * font (canvas text and DOM text go through the same font fallback and
 * shaping in the browser), and cached until the font changes.
 *
 * @module
 */
import type { CellWidths } from "../../core/style_runs.ts";

/**
 * A glyph whose advance differs from the cell by more than this (CSS px)
 * is corrected. Primary-font glyphs match to rounding; fallback glyphs
 * differ by a tenth of a cell or more.
 */
const TOLERANCE = 0.005;

/** Measures glyph advances against the cell width (see the module doc). */
export class GlyphFit implements CellWidths {
  #ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null =
    null;
  #font = "";
  #cellWidth = 0;
  /** Per BMP code point: 0 not measured, else 1 + its index in #spacings. */
  #bmp = new Uint16Array(0x10000);
  /** Letter-spacings measured ("" first: fits), each once. */
  #spacings: string[] = [""];
  #spacingIndex = new Map<string, number>([["", 0]]);
  #other = new Map<string, string>();

  /**
   * The font (a CSS `font` shorthand) and the cell width (CSS px) that
   * characters are measured against; a change forgets what was measured.
   * Returns whether anything changed.
   */
  setFont(font: string, cellWidth: number): boolean {
    if (font === this.#font && cellWidth === this.#cellWidth) return false;
    this.#font = font;
    this.#cellWidth = cellWidth;
    this.#bmp.fill(0);
    this.#spacings = [""];
    this.#spacingIndex = new Map([["", 0]]);
    this.#other.clear();
    if (this.#ctx !== null) this.#ctx.font = font;
    return true;
  }

  /**
   * "" when code point `code` (outside ASCII) is drawn one cell wide, else
   * the CSS letter-spacing that makes its advance one cell.
   */
  spacing(code: number): string {
    // Not measured yet (no font): trust the font, and remember nothing.
    if (this.#cellWidth <= 0) return "";
    if (code >= 0x10000) return this.#cached(String.fromCodePoint(code), 1);
    const k = this.#bmp[code];
    if (k !== 0) return this.#spacings[k - 1];
    const sp = this.#measure(String.fromCharCode(code), 1);
    let i = this.#spacingIndex.get(sp);
    if (i === undefined) {
      i = this.#spacings.length;
      // A font has few distinct advances; past that, measure again.
      if (i >= 0xfff0) return sp;
      this.#spacings.push(sp);
      this.#spacingIndex.set(sp, i);
    }
    this.#bmp[code] = i + 1;
    return sp;
  }

  /** Whether `text` (one grapheme cluster) is drawn `cells` cells wide. */
  fitsText(text: string, cells: number): boolean {
    if (this.#cellWidth <= 0) return true;
    return this.#cached(text, cells) === "";
  }

  #cached(text: string, cells: number): string {
    const key = cells === 1 ? text : `${cells}\u0000${text}`;
    let sp = this.#other.get(key);
    if (sp === undefined) {
      if (this.#other.size > 8192) this.#other.clear();
      sp = this.#measure(text, cells);
      this.#other.set(key, sp);
    }
    return sp;
  }

  /** "" when `text` is `cells` cells wide, else the spacing that makes it so. */
  #measure(text: string, cells: number): string {
    const ctx = this.#context();
    // No canvas: trust the font, as before.
    if (ctx === null) return "";
    const d = cells * this.#cellWidth - ctx.measureText(text).width;
    return Math.abs(d) <= TOLERANCE ? "" : `${d.toFixed(3)}px`;
  }

  #context():
    | CanvasRenderingContext2D
    | OffscreenCanvasRenderingContext2D
    | null {
    if (this.#ctx === null && this.#font !== "") {
      const canvas = typeof OffscreenCanvas !== "undefined"
        ? new OffscreenCanvas(1, 1)
        : null;
      this.#ctx = canvas?.getContext("2d") ?? null;
      if (this.#ctx === null) return null;
      this.#ctx.font = this.#font;
      // As the terminal's text (.domterm: no kerning, no ligatures).
      this.#ctx.fontKerning = "none";
    }
    return this.#ctx;
  }
}

/** The CSS `font` shorthand of `el`'s computed style, for a canvas. */
export function canvasFont(el: Element): string {
  const cs = getComputedStyle(el);
  return `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
}
