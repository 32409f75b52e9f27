/**
 * The 256-colour palette in the page: the palette stylesheet's `<style>`
 * element. Colour words to CSS are in `core/color_css.ts` (re-exported
 * here), shared with the saved-HTML serializer.
 *
 * @module
 */
import { boldBrightCss, paletteCss } from "../core/color_css.ts";

export { colorCss, paletteCss, xtermColor } from "../core/color_css.ts";

/** Id of the `<style>` element that holds palette entries 16-255. */
export const PALETTE_STYLE_ID = "dt-palette";

/** The class of a terminal's root that draws bold colours 0-7 as 8-15 (the `bold-is-bright` setting). */
export const BOLD_BRIGHT_CLASS = "dt-bold-bright";

/**
 * Install {@link paletteCss} once per document, in a `<style>` at the very
 * start of `<head>`, so any stylesheet loaded after it (domterm.css, a
 * theme) can override entries; with it the bold-as-bright rules, for roots
 * with {@link BOLD_BRIGHT_CLASS}.
 */
export function installPalette(doc: Document): void {
  if (doc.getElementById(PALETTE_STYLE_ID)) return;
  const css = paletteCss() + boldBrightCss(`.${BOLD_BRIGHT_CLASS} `);
  const style = doc.createElement("style");
  style.id = PALETTE_STYLE_ID;
  style.textContent = css;
  const head = doc.head ?? doc.documentElement;
  head.insertBefore(style, head.firstChild);
}
