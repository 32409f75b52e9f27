/**
 * Copying text out of the terminal. The browser would copy every row
 * element as a line of its own; a long line that the terminal soft-wrapped
 * over several rows (`div.dt-row.dt-wrapped`, see the renderer) must come
 * out as one line, as it came from the program. Hard line breaks stay.
 *
 * @module
 */
import { selectedRowsHtml } from "./copy_html.ts";

/** Class of a row whose text goes on in the next row (soft wrap). */
export const WRAPPED_CLASS = "dt-wrapped";

/**
 * The text of `range` over the rows (`.dt-row`) inside `root`: rows are
 * joined with "\n", except after a soft-wrapped row. Null when the range
 * touches no row (then the browser's own copy is right).
 */
export function selectedRowsText(root: Element, range: Range): string | null {
  const doc = root.ownerDocument;
  const rows: Element[] = [];
  // The rows of one grid (normal or alternate) that the range touches.
  for (const row of root.querySelectorAll(".dt-row")) {
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
 * The selection inside `root` as HTML source with the window's colours
 * (the menu's "Copy as HTML" puts it on the clipboard as text), or null
 * when nothing in the terminal is selected.
 */
export function selectionHtml(root: HTMLElement): string | null {
  const sel = root.ownerDocument.getSelection();
  if (sel === null || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  if (!root.contains(range.commonAncestorContainer)) return null;
  return selectedRowsHtml(root, range, WRAPPED_CLASS);
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
    const sel = root.ownerDocument.getSelection();
    if (sel === null || sel.rangeCount === 0 || sel.isCollapsed) return;
    const range = sel.getRangeAt(0);
    // Only selections inside the terminal; a page-wide one is the browser's.
    if (!root.contains(range.commonAncestorContainer)) return;
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
