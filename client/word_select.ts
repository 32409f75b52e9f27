/**
 * Double-click selects a word as terminals do, not as the browser does:
 * the browser stops a word at `@`, `.`, `/`, `:`, `-`... so double-clicking
 * `root@vm` selected only `@`. A word here is a run of letters, digits and
 * the characters that join words in names, paths and URLs (the set GNOME
 * Terminal uses: `-,./?%&#:_=+@~`), within one row.
 *
 * @module
 */

/** Characters that belong to a word besides letters and digits. */
export const WORD_JOINERS = "-,./?%&#:_=+@~";

/** Whether `ch` (one code point) belongs to a word. */
export function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}\p{M}]/u.test(ch) || WORD_JOINERS.includes(ch);
}

/** The word of `text` around index `at` (code units): [start, end), empty when none. */
export function wordAround(text: string, at: number): [number, number] {
  const chars = Array.from(text);
  // Code unit index -> code point index.
  let cp = 0;
  for (let u = 0; cp < chars.length && u + chars[cp].length <= at; cp++) {
    u += chars[cp].length;
  }
  if (cp >= chars.length || !isWordChar(chars[cp])) return [at, at];
  let s = cp, e = cp + 1;
  while (s > 0 && isWordChar(chars[s - 1])) s--;
  while (e < chars.length && isWordChar(chars[e])) e++;
  const units = (n: number) => chars.slice(0, n).join("").length;
  return [units(s), units(e)];
}

/** The text node and offset at code unit `index` of `row`'s text. */
function pointAt(row: Element, index: number): [Node, number] | null {
  const walker = row.ownerDocument.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  let left = index;
  let last: Text | null = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    if (left <= t.length) return [t, left];
    left -= t.length;
    last = t;
  }
  return last ? [last, last.length] : null;
}

/** `node`/`offset` as a code unit index into `row`'s text. */
function indexOf(row: Element, node: Node, offset: number): number {
  const r = row.ownerDocument.createRange();
  r.selectNodeContents(row);
  r.setEnd(node, offset);
  return r.toString().length;
}

/**
 * After the browser's own double-click selection in a row of `root`, make
 * it the terminal's word. Returns the function that removes the handler.
 */
export function installWordSelect(root: HTMLElement): () => void {
  const onDblClick = () => {
    const sel = root.ownerDocument.getSelection();
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return;
    const range = sel.getRangeAt(0);
    const row = (range.startContainer.parentElement ?? null)?.closest(
      ".dt-row",
    );
    if (!row || !root.contains(row)) return;
    const text = row.textContent ?? "";
    const at = indexOf(row, range.startContainer, range.startOffset);
    const [s, end] = wordAround(text, at);
    if (end <= s) return;
    const a = pointAt(row, s), b = pointAt(row, end);
    if (!a || !b) return;
    const word = row.ownerDocument.createRange();
    word.setStart(a[0], a[1]);
    word.setEnd(b[0], b[1]);
    sel.removeAllRanges();
    sel.addRange(word);
  };
  root.addEventListener("dblclick", onDblClick);
  return () => root.removeEventListener("dblclick", onDblClick);
}
