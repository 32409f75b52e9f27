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

/**
 * An image (iTerm2 `OSC 1337 ; File=`, sixel). Copies of a line share it;
 * it is not changed once made, except that the memory cap may drop its data
 * (`evicted`), for every copy at once.
 */
export interface ImageEmbed {
  /** MIME type from the content ("image/png"..., "image/x-sixel"). */
  mime: string;
  /** The payload: base64 of the file, or the sixel data as sent. */
  data: string;
  /** File name (decoded), "" when none was given. */
  name: string;
  /** Decoded size in bytes. */
  bytes: number;
  /** Show it (true) or offer it as a download link (false). */
  inline: boolean;
  /** iTerm2 size specs: "auto", "N" (cells), "Npx", "N%". */
  width: string;
  height: string;
  /** Keep the aspect ratio when both sizes are given (default true). */
  preserveAspectRatio: boolean;
  /** Pixel size read from the file's header, when known (raster images). */
  pixelWidth?: number;
  pixelHeight?: number;
  /** The data was dropped (too much image data in the terminal); `data` is "". */
  evicted?: boolean;
}

/** A block HTML fragment (OSC 72 block content) that this line stands for. */
export interface BlockEmbed {
  /** The fragment as the program sent it (sanitized by the client, not here). */
  html: string;
  /** Replacement key (OSC 721), or null. */
  key: string | null;
  /** An image instead of HTML (then `html` is ""). */
  image?: ImageEmbed;
}

/** An inline HTML fragment anchored before cell `x`. */
export interface InlineEmbed {
  x: number;
  html: string;
  key: string | null;
}

/** A run of laid-out pretty-printed text with its colours and attributes. */
export interface PrettyRun {
  text: string;
  fg: number;
  bg: number;
  attr: number;
}

/**
 * A DomTerm pretty-printed block (OSC 110-118) printed from this row on,
 * so that reflow can lay it out again at a new width. Copies of a line
 * share it (it is never changed: reflow stores a new one).
 */
export interface PrettyBlock {
  /**
   * The block's rows laid out for `cols` columns (one per laid-out line;
   * the first continues at {@link PrettyBlock.startCol}).
   */
  relayout(cols: number): PrettyRun[][];
  /** Column of this row where the block starts. */
  startCol: number;
  /** The width the block's rows on screen were laid out for. */
  cols: number;
  /** The document it was laid out from (the emulator's tree), for snapshots. */
  readonly source: unknown;
}

/** Non-cell content of one line. */
export interface LineExtras {
  marks?: LineMark[];
  block?: BlockEmbed;
  inline?: InlineEmbed[];
  /** A pretty-printed block that starts on this row. */
  pretty?: PrettyBlock;
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
  if (e.pretty) c.pretty = e.pretty;
  return c;
}
