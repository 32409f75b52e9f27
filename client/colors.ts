/**
 * The 256-colour palette in the page: the palette stylesheet's `<style>`
 * element. Colour words to CSS are in `core/color_css.ts` (re-exported
 * here), shared with the saved-HTML serializer.
 *
 * @module
 */
import { boldBrightCss, paletteCss } from "../core/color_css.ts";
import { contrastCss } from "./render/contrast.ts";

export { colorCss, paletteCss, xtermColor } from "../core/color_css.ts";

/** Id of the `<style>` element that holds palette entries 16-255. */
export const PALETTE_STYLE_ID = "dt-palette";

/**
 * The class of a terminal's root that draws bold colours 0-7 as they are
 * (the `bold-is-bright` setting off); without it they are drawn as 8-15,
 * the default, so a window draws them so before its settings arrive.
 */
export const BOLD_PLAIN_CLASS = "dt-bold-plain";

/**
 * Install {@link paletteCss} once per document, in a `<style>` at the very
 * start of `<head>`, so any stylesheet loaded after it (domterm.css, a
 * theme) can override entries; with it the bold-as-bright rules, for roots
 * without {@link BOLD_PLAIN_CLASS}.
 */
export function installPalette(doc: Document): void {
  if (doc.getElementById(PALETTE_STYLE_ID)) return;
  // The page's palette rules, bold as bright (unless turned off), then the
  // minimum contrast's (client/render/contrast.ts).
  const css = paletteCss() +
    boldBrightCss(`.domterm:not(.${BOLD_PLAIN_CLASS}) `) + contrastCss();
  const style = doc.createElement("style");
  style.id = PALETTE_STYLE_ID;
  style.textContent = css;
  const head = doc.head ?? doc.documentElement;
  head.insertBefore(style, head.firstChild);
}
