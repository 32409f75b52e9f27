/**
 * Copying text out of the terminal. The browser would copy every row
 * element as a line of its own; a long line that the terminal soft-wrapped
 * over several rows (`div.dt-row.dt-wrapped`, see the renderer) must come
 * out as one line, as it came from the program. Hard line breaks stay.
 *
 * @module
 */
import { ROWS_SELECTOR, selectedRowsHtml } from "./copy_html.ts";

/** Class of a row whose text goes on in the next row (soft wrap). */
export const WRAPPED_CLASS = "dt-wrapped";

/**
 * The text of `range` over the rows (`.dt-row`, and history chunks kept as
 * text) inside `root`: rows are
 * joined with "\n", except after a soft-wrapped row. Null when the range
 * touches no row (then the browser's own copy is right).
 */
export function selectedRowsText(root: Element, range: Range): string | null {
  const doc = root.ownerDocument;
  const rows: Element[] = [];
  // The rows of one grid (normal or alternate) that the range touches.
  for (const row of root.querySelectorAll(ROWS_SELECTOR)) {
    if (range.intersectsNode(row)) rows.push(row);
  }
  if (rows.length === 0) return null;
  let text = "";
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const part = doc.createRange();
    part.selectNodeContents(row);
    if (range.compareBoundaryPoints(Range.START_TO_START, part) > 0) {
      part.setStart(range.startContainer, range.startOffset);
    }
    if (range.compareBoundaryPoints(Range.END_TO_END, part) < 0) {
      part.setEnd(range.endContainer, range.endOffset);
    }
    text += part.toString();
    if (i + 1 < rows.length && !row.classList.contains(WRAPPED_CLASS)) {
      text += "\n";
    }
  }
  return text;
}

/**
 * The range of a non-empty selection inside `root`, or null (nothing
 * selected, or a selection that is not only the terminal's).
 */
export function terminalSelection(root: Element): Range | null {
  const sel = root.ownerDocument.getSelection();
  if (sel === null || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  return root.contains(range.commonAncestorContainer) ? range : null;
}

/**
 * Put the selection inside `root` on the clipboard as its HTML source with
 * the window's colours, as text (the menu's "Copy as HTML"). Through a copy
 * command, which works within the click or key that ran the entry, where
 * `clipboard.writeText` may need a permission.
 */
export function copySelectionHtml(root: HTMLElement): void {
  const range = terminalSelection(root);
  const html = range && selectedRowsHtml(root, range, WRAPPED_CLASS);
  if (!html) return;
  const doc = root.ownerDocument;
  const put = (e: ClipboardEvent) => {
    e.clipboardData?.setData("text/plain", html);
    e.preventDefault();
    e.stopImmediatePropagation(); // not the rows' own copy handler
  };
  doc.addEventListener("copy", put, { capture: true });
  let copied = false;
  try {
    copied = doc.execCommand("copy");
  } catch {
    copied = false;
  }
  doc.removeEventListener("copy", put, { capture: true });
  if (!copied) navigator.clipboard?.writeText(html).catch(() => {});
}

/**
 * Handle `copy` events inside `root`: a selection over terminal rows is
 * put on the clipboard with soft wraps joined, as text/plain and as
 * text/html (with the window's colours, client/copy_html.ts). Returns a
 * function that removes the handler.
 */
export function installCopyHandler(root: HTMLElement): () => void {
  const onCopy = (e: ClipboardEvent) => {
    if (e.defaultPrevented || e.clipboardData === null) return;
    // Only selections inside the terminal; a page-wide one is the browser's.
    const range = terminalSelection(root);
    if (range === null) return;
    const text = selectedRowsText(root, range);
    if (text === null) return;
    e.clipboardData.setData("text/plain", text);
    // The same rows with their colours, for pasting into rich text.
    const html = selectedRowsHtml(root, range, WRAPPED_CLASS);
    if (html !== null) e.clipboardData.setData("text/html", html);
    e.preventDefault();
  };
  root.addEventListener("copy", onCopy);
  return () => root.removeEventListener("copy", onCopy);
}
