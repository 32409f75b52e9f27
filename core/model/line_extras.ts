/**
 * Content of a line that is not cells: shell-integration marks, embedded
 * HTML. Each feature owns one optional field of {@link LineExtras}, so that
 * features do not collide on `Line`.
 *
 * Rules every feature relies on:
 * - `Line.clone()` deep-copies extras ({@link cloneExtras}).
 * - Reflow (re-wrapping on resize) moves extras with their logical line:
 *   items positioned by a column `x` move to the row and column that now
 *   hold that cell; a `block` line is never joined with other rows.
 * - Erasing a whole line's cells (ED, EL 2, scrolling a blank line in)
 *   does not by itself drop extras; features that need that do it.
 *
 * @module
 */

/** A shell-integration mark at a column (OSC 133/633, DomTerm's CSI u). */
export interface LineMark {
  /** Column of the mark (cell index in this row). */
  x: number;
  /** What the mark is, e.g. "prompt-start", "input-start", "output-start", "end". */
  kind: string;
  /** Parameters of the sequence (aid, cl, exit code...), as given. */
  attrs?: Record<string, string>;
}

/** A block HTML fragment (OSC 72 block content) that this line stands for. */
export interface BlockEmbed {
  /** The fragment as the program sent it (sanitized by the client, not here). */
  html: string;
  /** Replacement key (OSC 721), or null. */
  key: string | null;
}

/** An inline HTML fragment anchored before cell `x`. */
export interface InlineEmbed {
  x: number;
  html: string;
  key: string | null;
}

/** Non-cell content of one line. */
export interface LineExtras {
  marks?: LineMark[];
  block?: BlockEmbed;
  inline?: InlineEmbed[];
}

/** A deep copy of `e` (null stays null). */
export function cloneExtras(e: LineExtras | null): LineExtras | null {
  if (e === null) return null;
  const c: LineExtras = {};
  if (e.marks) {
    c.marks = e.marks.map((m) => ({
      ...m,
      attrs: m.attrs ? { ...m.attrs } : undefined,
    }));
  }
  if (e.block) c.block = { ...e.block };
  if (e.inline) c.inline = e.inline.map((i) => ({ ...i }));
  return c;
}
