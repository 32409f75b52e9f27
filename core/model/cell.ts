/**
 * Cell layout shared by the model, the emulator and the renderer.
 *
 * A line stores its cells in one `Uint32Array` with {@link CELL_STRIDE}
 * words per cell: code point, foreground, background, attributes.
 *
 * @module
 */

/** Words per cell in `Line.data`. */
export const CELL_STRIDE = 4;
/** Word offsets inside a cell. */
export const CODE = 0, FG = 1, BG = 2, ATTR = 3;

/**
 * Colours are one word: the top byte is the kind, the low 24 bits the value.
 * 0 means "the default colour".
 */
export const COLOR_DEFAULT = 0;
/** Palette colour 0-255: `COLOR_PALETTE | index`. */
export const COLOR_PALETTE = 1 << 24;
/** Direct colour: `COLOR_RGB | (r << 16) | (g << 8) | b`. */
export const COLOR_RGB = 2 << 24;
/** Mask that selects the kind of a colour word. */
export const COLOR_KIND_MASK = 0xff << 24;

/** Make a palette colour word. */
export function paletteColor(index: number): number {
  return COLOR_PALETTE | (index & 0xff);
}
/** Make a direct (24-bit) colour word. */
export function rgbColor(r: number, g: number, b: number): number {
  return COLOR_RGB | ((r & 0xff) << 16) | ((g & 0xff) << 8) | (b & 0xff);
}

/** Attribute bits (the low 16 bits of the ATTR word). */
export const A_BOLD = 1 << 0;
export const A_FAINT = 1 << 1;
export const A_ITALIC = 1 << 2;
/** Underline style, 3 bits: 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed. */
export const A_UNDERLINE_SHIFT = 3;
export const A_UNDERLINE_MASK = 7 << A_UNDERLINE_SHIFT;
export const A_BLINK = 1 << 6;
export const A_INVERSE = 1 << 7;
export const A_INVISIBLE = 1 << 8;
export const A_STRIKE = 1 << 9;
export const A_OVERLINE = 1 << 10;
/** The left half of a double-width character. */
export const A_WIDE = 1 << 11;
/** The right half of a double-width character (its CODE is 0). */
export const A_WIDE_TAIL = 1 << 12;
/** The cell holds a grapheme cluster; its text is in `Line.clusters`. */
export const A_CLUSTER = 1 << 13;
/** Protected from selective erase (DECSCA). */
export const A_PROTECTED = 1 << 14;
/**
 * Error output (DomTerm's `CSI 12 u` ... `CSI 11 u`, typically stderr): not
 * an SGR attribute, so SGR 0 keeps it.
 */
export const A_ERROR = 1 << 15;
/** Attributes that describe the glyph, not the style. */
export const A_GLYPH_MASK = A_WIDE | A_WIDE_TAIL | A_CLUSTER;

/**
 * The high 16 bits of ATTR: an id into the terminal's extended-style table
 * (underline colour, hyperlink). 0 = none.
 */
export const A_EXT_SHIFT = 16;

/** Read the underline style (0-5) from an ATTR word. */
export function underlineStyle(attr: number): number {
  return (attr & A_UNDERLINE_MASK) >>> A_UNDERLINE_SHIFT;
}
/** Read the extended-style id from an ATTR word. */
export function extId(attr: number): number {
  return attr >>> A_EXT_SHIFT;
}
