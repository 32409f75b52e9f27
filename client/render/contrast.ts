/**
 * The `minimum-contrast-ratio` setting where colours are resolved: a
 * colour a program chose that is unreadable on its background is drawn
 * nearer black or white until it reaches the ratio
 * (core/color_contrast.ts).
 *
 * Two paths, both cheap:
 *
 * - A palette foreground on the default background (most coloured text:
 *   `ls`, prompts, bold bright white) is a CSS custom property per palette
 *   entry on the terminal's root, `--dt-mc-N`, read by the rule
 *   `.dt-fgN:not(.dt-fill)` of {@link contrastCss}: recomputed only when
 *   the theme, the palette, the default colours, reverse video or the
 *   setting change (256 pairs), and no row is redrawn for it, history
 *   included.
 * - Any other pair (a palette or direct colour on a coloured background,
 *   a direct colour on the default one) gets an inline colour in the
 *   run's opening tag: {@link ContrastFix.inline}, called by the row
 *   painter only when it builds a tag it has not cached, answers from a
 *   cache per fg/bg pair.
 *
 * @module
 */
import { adjustForContrast } from "../../core/color_contrast.ts";
import { xtermColor } from "../../core/color_css.ts";
import {
  COLOR_KIND_MASK,
  COLOR_PALETTE,
  COLOR_RGB,
} from "../../core/model/cell.ts";
import type { TerminalView } from "../../core/terminal_view.ts";
import type { ShownColors } from "../theme_colors.ts";

/**
 * The rules that let `--dt-mc-N` (set on the terminal's root) recolour a
 * palette foreground on the default background. Their specificity (two
 * classes) is above `.dt-fgN` and below `.dt-row span.dt-stderr`.
 */
export function contrastCss(): string {
  let css = "";
  for (let i = 0; i < 256; i++) {
    css +=
      `.dt-fg${i}:not(.dt-fill){color:var(--dt-mc-${i},var(--dt-color-${i}))}\n`;
  }
  return css;
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, "0");
}

/** The minimum-contrast state of one terminal. */
export class ContrastFix {
  #style: CSSStyleDeclaration;
  #ratio = 4.5;
  #theme: ShownColors | null = null;
  /** Resolved palette (0-255), default fg and bg, as "#rrggbb". */
  #palette: string[] = [];
  #fg = "#ffffff";
  #bg = "#000000";
  #reverse = false;
  /** What each `--dt-mc-N` is now (null: not set). */
  #vars: (string | null)[] = new Array(256).fill(null);
  /** Inline colour per "fg:bg:inverse" colour words (null: none needed). */
  #pairs = new Map<string, string | null>();
  #dirty = true;

  constructor(style: CSSStyleDeclaration) {
    this.#style = style;
  }

  /** The setting's ratio (1: off). */
  get ratio(): number {
    return this.#ratio;
  }

  /** The setting changed. */
  setRatio(ratio: number): void {
    if (ratio === this.#ratio) return;
    this.#ratio = ratio;
    this.#dirty = true;
  }

  /** The theme's colours (client/theme_colors.ts) changed. */
  setTheme(colors: ShownColors): void {
    this.#theme = colors;
    this.#dirty = true;
  }

  /**
   * Bring the custom properties in line; `paletteChanged` says a program
   * changed the palette or the default colours since the last call.
   * Returns true when colours were recomputed (cached inline colours and
   * the tags built with them are then stale).
   */
  sync(term: TerminalView, paletteChanged: boolean): boolean {
    if (term.reverseVideo !== this.#reverse) {
      this.#reverse = term.reverseVideo;
      this.#dirty = true;
    }
    if (!this.#dirty && !paletteChanged) return false;
    this.#dirty = false;
    const theme = this.#theme;
    if (theme === null) return false;
    this.#resolve(term, theme);
    this.#pairs.clear();
    const bg = this.#reverse ? this.#fg : this.#bg;
    for (let i = 0; i < 256; i++) {
      const v = adjustForContrast(this.#palette[i], bg, this.#ratio);
      if (v === this.#vars[i]) continue;
      this.#vars[i] = v;
      if (v === null) this.#style.removeProperty(`--dt-mc-${i}`);
      else this.#style.setProperty(`--dt-mc-${i}`, v);
    }
    return true;
  }

  #resolve(term: TerminalView, theme: ShownColors): void {
    const pal: string[] = [];
    for (let i = 0; i < 256; i++) {
      pal.push(
        term.paletteOverride(i) ??
          (i < 16 ? theme.palette[i] : xtermColor(i)),
      );
    }
    this.#palette = pal;
    this.#fg = term.dynamicColorOverride(0) ?? theme.foreground;
    this.#bg = term.dynamicColorOverride(1) ?? theme.background;
  }

  /** Colour word `c` as "#rrggbb"; `dflt` for the default colour. */
  #hex(c: number, dflt: string): string {
    const kind = c & COLOR_KIND_MASK;
    if (kind === COLOR_PALETTE) return this.#palette[c & 0xff] ?? dflt;
    if (kind === COLOR_RGB) {
      return "#" + hex2((c >>> 16) & 0xff) + hex2((c >>> 8) & 0xff) +
        hex2(c & 0xff);
    }
    return dflt;
  }

  /**
   * The colour to draw foreground `fg` with on background `bg` (colour
   * words as drawn, after inverse swapped them; `inverse`: default colours
   * are swapped too), or null when it reads well or the CSS path has it.
   */
  inline(fg: number, bg: number, inverse: boolean): string | null {
    if (!(this.#ratio > 1) || this.#palette.length === 0) return null;
    const fk = fg & COLOR_KIND_MASK, bk = bg & COLOR_KIND_MASK;
    const bgDefault = bk !== COLOR_PALETTE && bk !== COLOR_RGB;
    // Palette text on the default background: the custom properties.
    if (fk === COLOR_PALETTE && bgDefault && !inverse) return null;
    const key = `${fg}:${bg}:${inverse ? 1 : 0}`;
    let v = this.#pairs.get(key);
    if (v === undefined) {
      const dfg = this.#reverse ? this.#bg : this.#fg;
      const dbg = this.#reverse ? this.#fg : this.#bg;
      v = adjustForContrast(
        this.#hex(fg, inverse ? dbg : dfg),
        this.#hex(bg, inverse ? dfg : dbg),
        this.#ratio,
      );
      if (this.#pairs.size > 4096) this.#pairs.clear();
      this.#pairs.set(key, v);
    }
    return v;
  }

  /** Remove every property this set. */
  clear(): void {
    for (let i = 0; i < 256; i++) {
      if (this.#vars[i] !== null) this.#style.removeProperty(`--dt-mc-${i}`);
      this.#vars[i] = null;
    }
  }
}
