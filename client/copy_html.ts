/**
 * The HTML flavour of copied terminal text: the selected rows as one
 * `<pre>` with the colours and styles the window shows, inline (classes
 * and custom properties mean nothing where it is pasted). Rows are joined
 * like the plain text (client/selection.ts): soft-wrapped rows continue
 * the line.
 *
 * @module
 */

/**
 * What holds lines: rows, and history chunks kept as text (a text node of
 * lines joined with "\n", client/renderer.ts), in document order.
 */
export const ROWS_SELECTOR = ".dt-row, .dt-chunk.dt-text";

/** Elements whose text is the view's, not the terminal's. */
const NOT_TEXT = ".dt-cursor, .dt-cmd-deco, .dt-fold-summary";

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) =>
      c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&quot;",
  );
}

function transparent(color: string): boolean {
  return color === "transparent" || /^rgba\(.*,\s*0\)$/.test(color);
}

/**
 * Inline CSS for text in `el` (inside `row`) where it differs from the
 * terminal's `base` style: colour, the nearest background, weight, slant,
 * decorations and faintness.
 */
function textStyle(
  el: Element,
  row: Element,
  base: CSSStyleDeclaration,
): string {
  const win = el.ownerDocument.defaultView!;
  const cs = win.getComputedStyle(el);
  let style = "";
  if (cs.color !== base.color) style += `color:${cs.color};`;
  if (parseInt(cs.fontWeight, 10) >= 600) style += "font-weight:bold;";
  if (cs.fontStyle !== "normal") style += `font-style:${cs.fontStyle};`;
  // Backgrounds, decorations and opacity are not inherited: the nearest
  // ancestor inside the row that has one (a wide character's span is
  // inside its run's).
  let bg = false, deco = false, faint = false;
  for (let e: Element | null = el; e && e !== row; e = e.parentElement) {
    const s = e === el ? cs : win.getComputedStyle(e);
    if (!bg && !transparent(s.backgroundColor)) {
      style += `background-color:${s.backgroundColor};`;
      bg = true;
    }
    if (!deco && s.textDecorationLine !== "none") {
      style +=
        `text-decoration:${s.textDecorationLine} ${s.textDecorationStyle} ${s.textDecorationColor};`;
      deco = true;
    }
    if (!faint && parseFloat(s.opacity) < 1) {
      style += `opacity:${s.opacity};`;
      faint = true;
    }
  }
  return style;
}

/** The selected part of one row as HTML. */
function rowHtml(
  row: Element,
  range: Range,
  base: CSSStyleDeclaration,
): string {
  const doc = row.ownerDocument;
  const walker = doc.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  let html = "";
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    if (!range.intersectsNode(t)) continue;
    const parent = t.parentElement;
    if (!parent || parent.closest(NOT_TEXT)) continue;
    let a = 0, b = t.data.length;
    if (t === range.startContainer) a = range.startOffset;
    if (t === range.endContainer) b = range.endOffset;
    const s = t.data.slice(a, b);
    if (s === "") continue;
    const style = parent === row ? "" : textStyle(parent, row, base);
    html += style === ""
      ? escapeHtml(s)
      : `<span style="${escapeHtml(style)}">${escapeHtml(s)}</span>`;
  }
  return html;
}

/**
 * The HTML of `range` over the rows (`.dt-row`) inside `root`, or null
 * when it touches no row. `wrappedClass` marks soft-wrapped rows.
 */
export function selectedRowsHtml(
  root: Element,
  range: Range,
  wrappedClass: string,
): string | null {
  const rows: Element[] = [];
  for (const row of root.querySelectorAll(ROWS_SELECTOR)) {
    if (range.intersectsNode(row)) rows.push(row);
  }
  if (rows.length === 0) return null;
  const base = root.ownerDocument.defaultView!.getComputedStyle(root);
  let body = "";
  for (let i = 0; i < rows.length; i++) {
    body += rowHtml(rows[i], range, base);
    if (i + 1 < rows.length && !rows[i].classList.contains(wrappedClass)) {
      body += "\n";
    }
  }
  const pre = `margin:0;white-space:pre-wrap;font-family:${base.fontFamily};` +
    `font-size:${base.fontSize};line-height:${base.lineHeight};` +
    `color:${base.color};background-color:${base.backgroundColor};`;
  return `<pre style="${escapeHtml(pre)}">${body}</pre>`;
}
