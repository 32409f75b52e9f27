/**
 * Line -> HTML for one display row: the renderer's hot path.
 *
 * Adjacent cells with the same colours and style attributes form one run;
 * a run in the default style is bare text, any other run one `<span>` with
 * classes for the flags and palette colours and inline direct colours. A double-width character
 * is a nested fixed-width `<span class="dt-w">`; its tail cell adds no text.
 * A character the font does not draw one cell wide (`widths`, measured by
 * the page) is a fixed-width `<span class="dt-c">`, so it cannot move the
 * cells after it.
 * Trailing blank cells in the default style are left out: the row's CSS
 * width keeps the grid, and copied text gets no trailing spaces.
 *
 * Shared by the client's renderer (`client/renderer.ts`, the hot path) and
 * the saved-HTML serializer (`serialize/html.ts`), so both draw a cell the
 * same way. Pure strings, no DOM.
 *
 * @module
 */
import type { ExtStyle } from "./terminal_view.ts";
import type { Line } from "./model/line.ts";
import {
  A_BLINK,
  A_BOLD,
  A_CLUSTER,
  A_ERROR,
  A_FAINT,
  A_GLYPH_MASK,
  A_INVERSE,
  A_INVISIBLE,
  A_ITALIC,
  A_OVERLINE,
  A_PROTECTED,
  A_STRIKE,
  A_WIDE,
  A_WIDE_TAIL,
  ATTR,
  BG,
  CELL_STRIDE,
  CODE,
  COLOR_KIND_MASK,
  COLOR_PALETTE,
  COLOR_RGB,
  extId,
  FG,
  underlineStyle,
} from "./model/cell.ts";
import { colorCss } from "./color_css.ts";

/**
 * The minimum-contrast hook of the page (client/render/contrast.ts): the
 * colour to draw foreground `fg` with on background `bg` (colour words as
 * drawn, after inverse swapped them), or null to keep it.
 */
export type ContrastFn = (
  fg: number,
  bg: number,
  inverse: boolean,
) => string | null;

/** Attribute bits that do not change how a cell looks. */
const NON_STYLE = A_GLYPH_MASK | A_PROTECTED;
/** Style bits of an ATTR word (including the extended-style id). */
const STYLE_MASK = ~NON_STYLE >>> 0;

/**
 * The cells of `line` that draw something: its length without trailing
 * blank cells in the default style (0: the line looks empty).
 */
export function drawnEnd(line: Line): number {
  const d = line.data;
  let end = line.cols;
  while (end > 0) {
    const i = (end - 1) * CELL_STRIDE;
    if (d[i + CODE] !== 0 || d[i + FG] !== 0 || d[i + BG] !== 0) break;
    if ((d[i + ATTR] & STYLE_MASK) !== 0) break;
    if ((d[i + ATTR] & A_WIDE_TAIL) !== 0) break;
    end--;
  }
  return end;
}

/**
 * The DEC special graphics scan lines 1, 3, 7 and 9 (`o p r s`: U+23BA to
 * U+23BD) as the painter writes them: a span the stylesheet draws as a
 * line at that height of the cell (`.dt-scan`), its text kept for copying.
 * Few fonts have them (of the monospace fonts on a typical Linux, only
 * Noto Sans Mono; not DejaVu Sans Mono, the stylesheet's first), so the
 * browser falls back, or shows empty boxes when no font is found.
 */
const SCAN_LINES = [0x23ba, 0x23bb, 0x23bc, 0x23bd].map((c, k) =>
  `<span class="dt-scan dt-scan${k}">${String.fromCharCode(c)}</span>`
);

/** HTML-escape text for element content. */
function escapeHtml(s: string): string {
  return s.replace(
    /[&<>]/g,
    (c) => c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;",
  );
}

/**
 * Opening tag of a run with colours `fg`, `bg` and style attributes `attr`
 * (not all-default). `ext` resolves the extended-style id (underline colour).
 *
 * Palette colours are classes (`dt-fgN`, `dt-bgN`, whose rules use
 * `var(--dt-color-N)`): cheaper to parse than inline styles, and a theme
 * restyles old output. Direct colours are inline `rgb()`.
 */
function openTag(
  fg: number,
  bg: number,
  attr: number,
  ext: (id: number) => ExtStyle,
  contrast: ContrastFn | null,
): string {
  let cls = "";
  let style = "";
  let f = fg, b = bg;
  if ((attr & A_INVERSE) !== 0) {
    f = bg;
    b = fg;
    cls += " dt-inverse";
  }
  const fk = f & COLOR_KIND_MASK, bk = b & COLOR_KIND_MASK;
  const inverse = (attr & A_INVERSE) !== 0;
  // The minimum contrast (the page's; the saved HTML has none): an inline
  // colour over the class's when the pair is unreadable.
  const fixed = contrast !== null && (fk | bk | (inverse ? 1 : 0)) !== 0
    ? contrast(f, b, inverse)
    : null;
  if (fk === COLOR_PALETTE) cls += ` dt-fg${f & 0xff}`;
  if (fixed !== null) style += `color:${fixed};`;
  else if (fk === COLOR_RGB) style += `color:${colorCss(f)};`;
  // Inverse swaps the colours, default ones included (the effective
  // defaults --dt-dfg/--dt-dbg already follow whole-screen reverse video).
  else if (fk !== COLOR_PALETTE && inverse) style += "color:var(--dt-dbg);";
  if (bk === COLOR_PALETTE) cls += ` dt-fill dt-bg${b & 0xff}`;
  else if (bk === COLOR_RGB) {
    cls += " dt-fill";
    style += `background-color:${colorCss(b)};`;
  } else if ((attr & A_INVERSE) !== 0) {
    cls += " dt-fill";
    style += "background-color:var(--dt-dfg);";
  }
  if ((attr & A_BOLD) !== 0) cls += " dt-bold";
  if ((attr & A_FAINT) !== 0) cls += " dt-faint";
  if ((attr & A_ITALIC) !== 0) cls += " dt-italic";
  // OSC 8 hyperlink (client/links.ts opens it).
  if (extId(attr) !== 0 && ext(extId(attr)).link !== null) cls += " dt-link";
  const ul = underlineStyle(attr);
  if (ul !== 0) {
    cls += ` dt-ul${ul > 5 ? 1 : ul}`;
    const id = extId(attr);
    if (id !== 0) {
      const c = colorCss(ext(id).underlineColor);
      if (c !== null) style += `--dt-ulc:${c};`;
    }
  }
  if ((attr & A_BLINK) !== 0) cls += " dt-blink";
  if ((attr & A_INVISIBLE) !== 0) cls += " dt-invisible";
  if ((attr & A_STRIKE) !== 0) cls += " dt-strike";
  if ((attr & A_OVERLINE) !== 0) cls += " dt-overline";
  if ((attr & A_ERROR) !== 0) cls += " dt-stderr";
  let tag = "<span";
  if (cls !== "") tag += ` class="${cls.slice(1)}"`;
  if (style !== "") tag += ` style="${style}"`;
  return tag + ">";
}

/**
 * Which characters the font draws one cell wide (the page measures them:
 * client/render/glyph_fit.ts). Characters that are not are drawn with a
 * letter-spacing that corrects their advance to one cell (a cluster of
 * several code points: in a fixed-width `<span class="dt-c">`), so a glyph
 * from a fallback font never moves the cells after it.
 */
export interface CellWidths {
  /**
   * "" when code point `code` (outside ASCII) is drawn one cell wide, else
   * the CSS letter-spacing (e.g. "-1.234px") that corrects its advance.
   */
  spacing(code: number): string;
  /** Whether `text` (one grapheme cluster) is drawn `cells` cells wide. */
  fitsText(text: string, cells: number): boolean;
}

/**
 * Builds row HTML. Keeps a cache of opening tags by style, so the common
 * case costs one Map lookup per run.
 */
export class RowPainter {
  #ext: (id: number) => ExtStyle;
  #contrast: ContrastFn | null;
  #tags = new Map<string, string>();
  /**
   * The font's cell widths; null (the saved-HTML serializer, which has no
   * font to measure) trusts every character to fit its cells.
   */
  widths: CellWidths | null = null;

  /**
   * `ext` resolves extended-style ids (the terminal's `ext`); `contrast`,
   * if given, adjusts unreadable colour pairs (called only for tags not
   * cached: {@link clearTags} when its answers change).
   */
  constructor(ext: (id: number) => ExtStyle, contrast?: ContrastFn) {
    this.#ext = ext;
    this.#contrast = contrast ?? null;
  }

  /** Forget the cached tags (the contrast hook's colours changed). */
  clearTags(): void {
    this.#tags.clear();
  }

  #tag(fg: number, bg: number, attr: number): string {
    // Tags with an extended style are not cached: ext ids may be recycled.
    if (extId(attr) !== 0) {
      return openTag(fg, bg, attr, this.#ext, this.#contrast);
    }
    const key = `${fg}:${bg}:${attr}`;
    let t = this.#tags.get(key);
    if (t === undefined) {
      if (this.#tags.size > 4096) this.#tags.clear();
      t = openTag(fg, bg, attr, this.#ext, this.#contrast);
      this.#tags.set(key, t);
    }
    return t;
  }

  /**
   * Cells drawn by the last {@link html} call: the line's length without
   * its trailing default blanks. A line cut or extended beyond this point
   * draws the same.
   */
  drawnCells = 0;

  /** The inner HTML of the row that shows `line` ("<br>" when it is empty). */
  html(line: Line): string {
    const end = drawnEnd(line);
    this.drawnCells = end;
    // An empty block would vanish from copied text; <br> keeps the line.
    if (end === 0) return "<br>";
    return this.cells(line, 0, end);
  }

  /**
   * The HTML of cells `[from, to)` of `line` (all of them, trailing blanks
   * included; "" when none). A wide character's tail draws nothing when its
   * head is just before it (the head drew both cells).
   */
  cells(line: Line, from: number, to: number): string {
    const d = line.data;
    let out = "";
    let run = "";
    let rf = 0, rb = 0, ra = 0;
    const widths = this.widths;
    /** The letter-spacing of the open correction span ("": none open). */
    let spacing = "";
    for (let x = from, i = from * CELL_STRIDE; x < to; x++, i += CELL_STRIDE) {
      const f = d[i + FG], b = d[i + BG], a = d[i + ATTR];
      const sa = a & STYLE_MASK;
      if (f !== rf || b !== rb || sa !== ra) {
        if (spacing !== "") {
          run += "</span>";
          spacing = "";
        }
        if (run !== "") {
          out += (rf | rb | ra) === 0
            ? run
            : this.#tag(rf, rb, ra) + run + "</span>";
          run = "";
        }
        rf = f;
        rb = b;
        ra = sa;
      }
      if ((a & A_GLYPH_MASK) === 0) {
        const c = d[i + CODE];
        // (Not the scan lines: the stylesheet draws those, below.)
        if (c >= 0x80 && widths !== null && (c < 0x23ba || c > 0x23bd)) {
          // Consecutive characters with one correction share a span.
          const sp = widths.spacing(c);
          if (sp !== spacing) {
            if (spacing !== "") run += "</span>";
            if (sp !== "") run += `<span style="letter-spacing:${sp}">`;
            spacing = sp;
          }
          run += c < 0x10000 ? String.fromCharCode(c) : String.fromCodePoint(c);
          continue;
        }
        if (spacing !== "") {
          run += "</span>";
          spacing = "";
        }
        if (c === 0) run += " ";
        else if (c === 0x3c) run += "&lt;";
        else if (c === 0x26) run += "&amp;";
        else if (c === 0x3e) run += "&gt;";
        else if (c >= 0x23ba && c <= 0x23bd) run += SCAN_LINES[c - 0x23ba];
        else if (c < 0x10000) run += String.fromCharCode(c);
        else run += String.fromCodePoint(c);
        continue;
      }
      if (spacing !== "") {
        run += "</span>";
        spacing = "";
      }
      if ((a & A_WIDE_TAIL) !== 0) {
        // The head drew both cells; an orphaned tail still takes its cell.
        if (x === 0 || (d[i - CELL_STRIDE + ATTR] & A_WIDE) === 0) run += " ";
      } else {
        let t = (a & A_CLUSTER) !== 0 ? escapeHtml(line.text(x)) : line.text(x);
        if (t === "<") t = "&lt;";
        else if (t === "&") t = "&amp;";
        else if (t === ">") t = "&gt;";
        // A cluster is boxed to its cells: a combining mark from a fallback
        // font may have an advance of its own (U+0321, U+20DD and U+20E3
        // each took a cell, pushing the rest of the row); so is a character
        // the font does not draw one cell wide (client/render/glyph_fit.ts).
        if ((a & A_WIDE) !== 0) run += `<span class="dt-w">${t}</span>`;
        else if (
          (a & A_CLUSTER) === 0 &&
          (widths === null || widths.fitsText(line.text(x), 1))
        ) run += t;
        else run += `<span class="dt-c">${t}</span>`;
      }
    }
    if (spacing !== "") run += "</span>";
    if (run !== "") {
      out += (rf | rb | ra) === 0
        ? run
        : this.#tag(rf, rb, ra) + run + "</span>";
    }
    return out;
  }
}
