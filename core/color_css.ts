/**
 * Colour words (see `model/cell.ts`) to CSS, and the 256-colour palette's
 * custom properties and classes: shared by the client's renderer and the
 * saved-HTML serializer (`serialize/html.ts`). Pure strings, no DOM.
 *
 * Palette colours are drawn as `var(--dt-color-N)` rather than a fixed
 * value, so a theme (or an OSC 4 palette change) recolours text that is
 * already on the screen, as in xterm.
 *
 * @module
 */
import { COLOR_KIND_MASK, COLOR_PALETTE, COLOR_RGB } from "./model/cell.ts";

/**
 * CSS for colour word `c`, or null for the default colour (and for an
 * unknown kind, which then falls back to the default).
 */
export function colorCss(c: number): string | null {
  switch (c & COLOR_KIND_MASK) {
    case COLOR_PALETTE:
      return `var(--dt-color-${c & 0xff})`;
    case COLOR_RGB:
      return `rgb(${(c >>> 16) & 0xff},${(c >>> 8) & 0xff},${c & 0xff})`;
    default:
      return null;
  }
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, "0");
}

/**
 * The xterm value of palette entry `i` for 16 <= i <= 255 as "#rrggbb":
 * a 6x6x6 colour cube (16-231) then a 24-step grey ramp (232-255).
 */
export function xtermColor(i: number): string {
  if (i >= 232) {
    const v = 8 + 10 * (i - 232);
    return `#${hex2(v)}${hex2(v)}${hex2(v)}`;
  }
  const n = i - 16;
  const level = (k: number) => (k === 0 ? 0 : 55 + 40 * k);
  return `#${hex2(level(Math.floor(n / 36)))}${
    hex2(level(Math.floor(n / 6) % 6))
  }${hex2(level(n % 6))}`;
}

/**
 * Bold as bright, as xterm draws it by default (its `boldColors`): bold
 * text in colours 0-7 drawn in colours 8-15. Rules under `scope` (a
 * selector prefix such as ".domterm:not(.dt-bold-plain) ", or "" for
 * always) over the
 * classes the row painter writes (`core/style_runs.ts`): the foreground
 * class `dt-fgN`, or with inverse video the background class `dt-bgN`,
 * which then holds the foreground colour.
 */
export function boldBrightCss(scope: string): string {
  let css = "";
  for (let i = 0; i < 8; i++) {
    css +=
      // The bright colour as the minimum contrast adjusted it, if it did
      // (`--dt-mc-N`, client/render/contrast.ts).
      `${scope}.dt-bold.dt-fg${i}:not(.dt-inverse){color:var(--dt-mc-${
        i + 8
      },var(--dt-color-${i + 8}))}` +
      `${scope}.dt-bold.dt-inverse.dt-bg${i}{background-color:var(--dt-color-${
        i + 8
      })}\n`;
  }
  return css;
}

/**
 * The palette stylesheet: `--dt-color-16` .. `--dt-color-255` on `:root`,
 * and the classes `dt-fgN` / `dt-bgN` (N = 0-255) that style text with
 * them.
 */
export function paletteCss(): string {
  let css = ":root{";
  for (let i = 16; i < 256; i++) css += `--dt-color-${i}:${xtermColor(i)};`;
  css += "}\n";
  for (let i = 0; i < 256; i++) {
    css +=
      `.dt-fg${i}{color:var(--dt-color-${i})}.dt-bg${i}{background-color:var(--dt-color-${i})}\n`;
  }
  return css;
}
