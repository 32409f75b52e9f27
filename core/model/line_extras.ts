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
 * - Erasing or overwriting cells drops what is drawn over them, and
 *   nothing else ({@link coverCells}, called by the emulator wherever cells
 *   are erased, printed, filled or copied): a block line's `block` (it
 *   stands for the whole row), the parts of image pieces over those cells,
 *   and, when erasing, the inline fragments anchored inside the erased
 *   cells. Marks and pretty-printed blocks stay: they describe the line,
 *   not content drawn on it.
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
  /**
   * Folded by hand (the user's fold button or key), on the mark that starts
   * a command group or a DomTerm fold button: true folded, false unfolded
   * (a span the program hid at first, shown by the user); absent: as the
   * program made it. Part of the model, so snapshots carry it (see
   * `core/model/command_groups.ts`, `setMarkFolded`).
   */
  folded?: boolean;
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
  /**
   * Printed while the element-event mode (?7101) was on: the events
   * generation then (`core/emulator/element_events.ts`); absent: inert.
   */
  events?: number;
}

/**
 * The part of an image that covers cells [x, x + cols) of this row: an
 * image placed on the alternate screen's fixed grid (sixel, iTerm2 File=)
 * covers the cells under it, one piece per row, as xterm draws it. The
 * piece's first cell shows the image's cell (`col`, `row`), counted from
 * the image's top-left; the whole image is `width` x `height` cells
 * (fractions allowed), so it scales with the cell size. Copies of a line
 * share the image.
 */
export interface ImagePiece {
  image: ImageEmbed;
  /** First column covered. */
  x: number;
  /** Columns covered (at least 1). */
  cols: number;
  /** Image cell shown at column `x`: column and row within the image. */
  col: number;
  row: number;
  /** Size of the whole image in cells. */
  width: number;
  height: number;
}

/** An inline HTML fragment anchored before cell `x`. */
export interface InlineEmbed {
  x: number;
  html: string;
  key: string | null;
  /** As {@link BlockEmbed.events}. */
  events?: number;
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
  /** Pieces of images drawn over this row's cells (alternate screen). */
  images?: ImagePiece[];
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
  if (e.images) c.images = e.images.map((p) => ({ ...p }));
  if (e.pretty) c.pretty = e.pretty;
  return c;
}

/**
 * True when `e` holds content drawn on the line (a block, inline
 * fragments, image pieces): such a line is not empty even without text.
 */
export function hasEmbeds(e: LineExtras | null): boolean {
  return e !== null &&
    (e.block !== undefined || (e.inline !== undefined && e.inline.length > 0) ||
      (e.images !== undefined && e.images.length > 0));
}

/**
 * `pieces` without what covers cells [from, to): a piece across the range
 * keeps its parts left and right of it.
 */
function cutPieces(
  pieces: ImagePiece[],
  from: number,
  to: number,
): ImagePiece[] {
  const out: ImagePiece[] = [];
  for (const p of pieces) {
    const end = p.x + p.cols;
    if (end <= from || p.x >= to) {
      out.push(p);
      continue;
    }
    if (p.x < from) out.push({ ...p, cols: from - p.x });
    if (end > to) {
      out.push({ ...p, x: to, cols: end - to, col: p.col + (to - p.x) });
    }
  }
  return out;
}

/**
 * What {@link coverCells} changes: a line (`model/line.ts`'s `Line`) as
 * far as its extras go.
 */
export interface ExtrasHolder {
  extras: LineExtras | null;
  /** Cells in the line. */
  readonly cols: number;
  /** Set when the extras changed (the renderer redraws the line). */
  dirty: boolean;
}

/**
 * Cells [from, to) of `line` were erased (`erased`) or written over
 * (printing, DECFRA, DECCRA): drop the embeds drawn over them, as xterm's
 * image pixels go where text or blanks are written.
 *
 * - A block (HTML or image line) covers the whole row: any write drops it.
 * - Image pieces lose the cells in the range (a piece across it is cut in
 *   two).
 * - An inline fragment sits in the gap before cell `x`; an erase drops it
 *   when the gap is inside the erased cells (`from < x < to`, or at the
 *   line's start or end edge when the erase reaches it). Printing keeps it:
 *   the text it was printed before is written after it.
 *
 * Extras left empty become null (the line may count as blank again).
 */
export function coverCells(
  line: ExtrasHolder,
  from: number,
  to: number,
  erased: boolean,
): void {
  const e = line.extras;
  if (e === null || from >= to) return;
  let changed = false;
  if (e.block !== undefined) {
    delete e.block;
    changed = true;
  }
  if (erased && e.inline !== undefined) {
    const end = line.cols;
    const kept = e.inline.filter((i) =>
      !((from < i.x && i.x < to) || (i.x === from && from === 0) ||
        (i.x >= to && to >= end))
    );
    if (kept.length !== e.inline.length) {
      changed = true;
      if (kept.length > 0) e.inline = kept;
      else delete e.inline;
    }
  }
  if (e.images !== undefined) {
    const kept = cutPieces(e.images, from, to);
    if (
      kept.length !== e.images.length ||
      kept.some((p, i) => p !== e.images![i])
    ) {
      changed = true;
      if (kept.length > 0) e.images = kept;
      else delete e.images;
    }
  }
  if (!changed) return;
  line.dirty = true;
  if (Object.values(e).every((v) => v === undefined)) line.extras = null;
}
