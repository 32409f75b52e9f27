/**
 * Lists of HTML element names shared by the core and the client, so that both
 * sides of HTML output (OSC 72) decide alike.
 *
 * @module
 */

/**
 * Elements (lower-case local names) that make an HTML fragment block
 * content: a fragment containing one gets a line of its own
 * (`extras.block`, see `isBlockHtml` in core/emulator/html_embed.ts), which the
 * client draws as a block between lines; the client's sanitizer reports the
 * same for what is left after sanitizing (`SanitizeResult.block` in
 * client/sanitize.ts).
 */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "details",
  "dialog",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "img",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "svg",
  "table",
  "ul",
]);
