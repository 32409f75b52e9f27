/**
 * The 256-colour palette in the page: the palette stylesheet's `<style>`
 * element. Colour words to CSS are in `core/color_css.ts` (re-exported
 * here), shared with the saved-HTML serializer.
 *
 * @module
 */
import { paletteCss } from "../core/color_css.ts";
import { contrastCss } from "./render/contrast.ts";

export { colorCss, paletteCss, xtermColor } from "../core/color_css.ts";

/** Id of the `<style>` element that holds palette entries 16-255. */
export const PALETTE_STYLE_ID = "dt-palette";

/**
 * Install {@link paletteCss} once per document, in a `<style>` at the very
 * start of `<head>`, so any stylesheet loaded after it (domterm.css, a
 * theme) can override entries.
 */
export function installPalette(doc: Document): void {
  if (doc.getElementById(PALETTE_STYLE_ID)) return;
  // The page's palette rules, then the minimum contrast's (client/render/contrast.ts).
  const css = paletteCss() + contrastCss();
  const style = doc.createElement("style");
  style.id = PALETTE_STYLE_ID;
  style.textContent = css;
  const head = doc.head ?? doc.documentElement;
  head.insertBefore(style, head.firstChild);
}
