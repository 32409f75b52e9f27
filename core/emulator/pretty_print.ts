/**
 * DomTerm's pretty-printing (OSC 110-118): a program prints logical
 * blocks with conditional newlines, and the terminal chooses the line
 * breaks for its width, as Common Lisp's pretty printer (Waters' XP) does.
 *
 * | sequence | meaning |
 * |---|---|
 * | `OSC 110 ; ["prefix"]` | start a logical block (prefix printed first) |
 * | `OSC 111` | end the innermost block |
 * | `OSC 112 ; n` | indent continuation lines to the current column + n |
 * | `OSC 113 ; n` | indent continuation lines to the block's start column + n |
 * | `OSC 114 ; "s"` | print s and repeat it at the start of each continuation line of the block |
 * | `OSC 115`..`118` `[; "pre","post","nonbreak"]` | conditional newline: fill, linear, miser, required |
 *
 * The text inside a top-level block is collected (with each run's colours
 * and attributes) and laid out when the block ends: a linear newline
 * breaks when its block does not fit on the rest of the line; a fill
 * newline when the section after it does not fit, or when its block does
 * not fit and the section before it was broken; a miser newline like a
 * linear one but only in miser mode (the block starts within
 * {@link MISER_WIDTH} columns of the right edge); a required newline
 * always. A broken newline prints "pre", a newline, the per-line prefixes,
 * the indentation, then "post"; an unbroken one prints "nonbreak".
 *
 * OSC 110/111/112 are also xterm's "reset colour" sequences: see
 * {@link isPrettyPrintOsc} for how they are told apart.
 *
 * This module is pure: {@link PrettyDocument} collects, {@link layout}
 * breaks; the emulator prints the result and keeps the document on the
 * first row ({@link prettyRecord}), so that a resize lays it out again
 * (`core/model/pretty_reflow.ts`).
 *
 * @module
 */
import type { PrettyBlock } from "../model/line_extras.ts";

/** Style of a run of text (the emulator's colour and attribute words). */
export interface RunStyle {
  fg: number;
  bg: number;
  attr: number;
}

/** Newline kinds (OSC 115, 116, 117, 118). */
export type NewlineKind = "fill" | "linear" | "miser" | "required";

interface TextItem {
  t: "text";
  s: string;
  style: RunStyle;
}
interface NewlineItem {
  t: "nl";
  kind: NewlineKind;
  pre: string;
  post: string;
  nonbreak: string;
  style: RunStyle;
}
interface IndentItem {
  t: "indent";
  rel: "current" | "block";
  n: number;
}
interface PrefixItem {
  t: "prefix";
  s: string;
  style: RunStyle;
}
/** A logical block. */
export interface Block {
  t: "block";
  prefix: string;
  style: RunStyle;
  items: Item[];
}
/** One item of a block: text, a conditional newline, an indentation, a per-line prefix or a nested block. */
export type Item = TextItem | NewlineItem | IndentItem | PrefixItem | Block;

/** Blocks nest at most this deep (deeper ones are flattened). */
export const MAX_DEPTH = 64;
/** Most characters a document collects before it is laid out anyway. */
export const MAX_DOCUMENT_CHARS = 1 << 20;
/** Miser mode: the block starts this close to the right edge. */
export const MISER_WIDTH = 40;
/** Indentation is capped (a huge `OSC 112 ; n` must not make huge lines). */
export const MAX_INDENT = 1024;

/** A {@link PrettyDocument} as a snapshot keeps it. */
export interface PrettyDocumentState {
  root: Block;
  depth: number;
  chars: number;
  flattened: number;
}

/** Collects one top-level block and everything inside it. */
export class PrettyDocument {
  readonly root: Block;
  #stack: Block[];
  #chars = 0;
  /** Blocks opened past MAX_DEPTH, whose ends are ignored. */
  #flattened = 0;

  constructor(prefix: string, style: RunStyle) {
    this.root = { t: "block", prefix, style, items: [] };
    this.#stack = [this.root];
    this.#chars = prefix.length;
  }

  /** Open blocks (1 while only the top-level block is open; 0 when complete). */
  get depth(): number {
    return this.#stack.length;
  }

  /** What a snapshot keeps of a document being collected. */
  save(): PrettyDocumentState {
    return {
      root: this.root,
      depth: this.#stack.length,
      chars: this.#chars,
      flattened: this.#flattened,
    };
  }

  /**
   * A document from {@link PrettyDocument.save} (the open blocks are the
   * last block item of each open block, from the root down).
   */
  static load(st: PrettyDocumentState): PrettyDocument {
    const doc = new PrettyDocument(st.root.prefix, st.root.style);
    (doc as { root: Block }).root = st.root;
    const stack = [st.root];
    while (stack.length < st.depth) {
      const items = stack[stack.length - 1].items;
      const last = items[items.length - 1];
      if (last === undefined || last.t !== "block") break;
      stack.push(last);
    }
    doc.#stack = stack;
    doc.#chars = st.chars;
    doc.#flattened = st.flattened;
    return doc;
  }

  /** True when the document reached {@link MAX_DOCUMENT_CHARS}. */
  get full(): boolean {
    return this.#chars >= MAX_DOCUMENT_CHARS;
  }

  #top(): Block {
    return this.#stack[this.#stack.length - 1];
  }

  /** Start a nested block. */
  open(prefix: string, style: RunStyle): void {
    if (this.#stack.length >= MAX_DEPTH) {
      this.#flattened++;
      this.text(prefix, style);
      return;
    }
    const b: Block = { t: "block", prefix, style, items: [] };
    this.#top().items.push(b);
    this.#stack.push(b);
    this.#chars += prefix.length;
  }

  /** End the innermost block; returns true when the top-level one ended. */
  close(): boolean {
    if (this.#flattened > 0) {
      this.#flattened--;
      return false;
    }
    this.#stack.pop();
    return this.#stack.length === 0;
  }

  /** Text in the current block (merged with the previous run of the same style). */
  text(s: string, style: RunStyle): void {
    if (s === "") return;
    const items = this.#top().items;
    const last = items[items.length - 1];
    if (last?.t === "text" && sameStyle(last.style, style)) last.s += s;
    else items.push({ t: "text", s, style: { ...style } });
    this.#chars += s.length;
  }

  /** A conditional newline. */
  newline(
    kind: NewlineKind,
    style: RunStyle,
    pre = "",
    post = "",
    nonbreak = "",
  ): void {
    this.#top().items.push({
      t: "nl",
      kind,
      pre,
      post,
      nonbreak,
      style: { ...style },
    });
    this.#chars += 1 + pre.length + post.length + nonbreak.length;
  }

  /** Indentation of the current block's continuation lines. */
  indent(rel: "current" | "block", n: number): void {
    this.#top().items.push({ t: "indent", rel, n });
  }

  /** A per-line prefix of the current block (printed here and on every continuation line). */
  perLinePrefix(s: string, style: RunStyle): void {
    this.#top().items.push({ t: "prefix", s, style: { ...style } });
    this.#chars += s.length;
  }
}

function sameStyle(a: RunStyle, b: RunStyle): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.attr === b.attr;
}

/** A piece of a laid-out row. */
export interface Segment {
  text: string;
  style: RunStyle;
}

/** Width of `s` in columns (one per code point: a simple, stable measure). */
function width(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

interface Measure {
  flat: number;
  required: boolean;
}

/** Width of items laid out on one line, and whether they hold a required newline. */
function measure(items: readonly Item[], from = 0, to = items.length): Measure {
  let flat = 0, required = false;
  for (let i = from; i < to; i++) {
    const it = items[i];
    switch (it.t) {
      case "text":
      case "prefix":
        flat += width(it.s);
        break;
      case "nl":
        if (it.kind === "required") required = true;
        flat += width(it.nonbreak);
        break;
      case "block": {
        const m = measure(it.items);
        flat += width(it.prefix) + m.flat;
        required ||= m.required;
        break;
      }
    }
  }
  return { flat, required };
}

/**
 * Lay out a document for a terminal `cols` wide, starting at column
 * `startCol`. Returns the rows (the first continues at `startCol`).
 */
export function layout(
  root: Block,
  cols: number,
  startCol: number,
): Segment[][] {
  const rows: Segment[][] = [[]];
  let col = startCol;
  const emit = (s: string, style: RunStyle) => {
    if (s === "") return;
    const row = rows[rows.length - 1];
    const last = row[row.length - 1];
    if (last && sameStyle(last.style, style)) last.text += s;
    else row.push({ text: s, style });
    col += width(s);
  };
  /** Per-line prefixes of the open blocks, outermost first. */
  const prefixes: { s: string; style: RunStyle }[][] = [];

  const breakLine = (indent: number, style: RunStyle) => {
    rows.push([]);
    col = 0;
    for (const level of prefixes) {
      for (const p of level) emit(p.s, p.style);
    }
    if (indent > col) {
      emit(" ".repeat(Math.min(indent, MAX_INDENT) - col), style);
    }
  };

  const block = (b: Block) => {
    emit(b.prefix, b.style);
    const start = col;
    let indent = col;
    const all = measure(b.items);
    const fits = !all.required && col + all.flat <= cols;
    const miser = start >= cols - MISER_WIDTH;
    prefixes.push([]);
    let rowsAtSectionStart = rows.length;
    for (let i = 0; i < b.items.length; i++) {
      const it = b.items[i];
      switch (it.t) {
        case "text":
          emit(it.s, it.style);
          break;
        case "prefix":
          emit(it.s, it.style);
          prefixes[prefixes.length - 1].push({ s: it.s, style: it.style });
          break;
        case "indent":
          indent = Math.max(
            0,
            Math.min(MAX_INDENT, (it.rel === "block" ? start : col) + it.n),
          );
          break;
        case "block":
          block(it);
          break;
        case "nl": {
          const brokeBefore = rows.length > rowsAtSectionStart;
          let br: boolean;
          switch (it.kind) {
            case "required":
              br = true;
              break;
            case "linear":
              br = !fits;
              break;
            case "miser":
              br = miser && !fits;
              break;
            case "fill": {
              let j = i + 1;
              while (j < b.items.length && b.items[j].t !== "nl") j++;
              const next = measure(b.items, i + 1, j);
              br = (miser && !fits) || next.required ||
                col + next.flat > cols || (!fits && brokeBefore);
              break;
            }
          }
          if (br) {
            emit(it.pre, it.style);
            breakLine(indent, it.style);
            emit(it.post, it.style);
          } else emit(it.nonbreak, it.style);
          rowsAtSectionStart = rows.length;
          break;
        }
      }
    }
    prefixes.pop();
  };
  block(root);
  return rows;
}

/**
 * Parse the arguments of OSC 110, 114 and 115-118: strings separated by
 * commas, each in double quotes (with `\"` and `\\`) or bare.
 */
export function parseStrings(args: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= args.length && out.length < 8) {
    let s = "";
    if (args[i] === '"') {
      i++;
      while (i < args.length && args[i] !== '"') {
        if (args[i] === "\\" && i + 1 < args.length) i++;
        s += args[i++];
      }
      i++; // closing quote
      while (i < args.length && args[i] !== ",") i++;
    } else {
      const comma = args.indexOf(",", i);
      const end = comma < 0 ? args.length : comma;
      s = args.slice(i, end);
      i = end;
    }
    out.push(s.slice(0, 4096));
    if (args[i] !== ",") break;
    i++;
  }
  return out;
}

/**
 * Whether an OSC 110-118 is DomTerm's pretty-printing rather than xterm's
 * colour reset. `code` and `args` as split by the dispatcher, `hasArgs`
 * whether a `;` followed the number, `inBlock` whether a block is open.
 *
 * - 110: with `;` (`OSC 110 ; "prefix"`, even an empty one) starts a
 *   block; bare `OSC 110` resets the foreground colour, except inside a
 *   block, where it starts a nested block.
 * - 111: ends a block inside one; outside, bare `OSC 111` resets the
 *   background colour (and `OSC 111 ;` is ignored).
 * - 112: with a number (`OSC 112 ; n`) it indents; bare it resets the
 *   cursor colour, except inside a block (indent 0).
 * - 113-118: always DomTerm's (xterm's resets of the mouse pointer, Tek
 *   and highlight colours, which domterm does not have, go unanswered).
 */
export function isPrettyPrintOsc(
  code: number,
  args: string,
  hasArgs: boolean,
  inBlock: boolean,
): boolean {
  switch (code) {
    case 110:
      return hasArgs || inBlock;
    case 111:
      return hasArgs || inBlock;
    case 112:
      return inBlock || (hasArgs && /^-?\d+$/.test(args));
    case 113:
    case 114:
    case 115:
    case 116:
    case 117:
      return hasArgs || inBlock;
    case 118:
      return true;
  }
  return false;
}

const KINDS: Record<number, NewlineKind> = {
  115: "fill",
  116: "linear",
  117: "miser",
  118: "required",
};

/** A laid-out document as printed: what re-laying it out needs. */
export interface PrintedBlock {
  root: Block;
  startCol: number;
}

/** What the pretty-printing OSC handler acts on (the emulator). */
export interface PrettyHost {
  /** The document being collected, or null. */
  document: PrettyDocument | null;
  /** The current style (pen) for collected text. */
  style(): RunStyle;
  /**
   * Print the laid-out rows at the cursor; `block` (the document and the
   * column it was laid out from) is given for a pretty-printed block, so
   * that it can be laid out again when the width changes.
   */
  print(rows: Segment[][], block?: PrintedBlock): void;
  cols(): number;
  cursorX(): number;
}

/** Apply one pretty-printing OSC (after {@link isPrettyPrintOsc} said yes). */
export function prettyOsc(host: PrettyHost, code: number, args: string): void {
  const style = host.style();
  let doc = host.document;
  if (code === 110) {
    const [prefix = ""] = parseStrings(args);
    if (doc === null) host.document = new PrettyDocument(prefix, style);
    else doc.open(prefix, style);
    doc = host.document;
  } else if (doc === null) {
    // Outside a block: 112-118 print what they would print unbroken.
    if (code >= 115 && code <= 118) {
      const [, , nonbreak = ""] = parseStrings(args);
      if (code === 118) host.print([[], []]);
      else if (nonbreak) host.print([[{ text: nonbreak, style }]]);
    } else if (code === 114) {
      const [s = ""] = parseStrings(args);
      if (s) host.print([[{ text: s, style }]]);
    }
    return;
  } else if (code === 111) {
    if (doc.close()) {
      host.document = null;
      const startCol = host.cursorX();
      host.print(layout(doc.root, host.cols(), startCol), {
        root: doc.root,
        startCol,
      });
      return;
    }
  } else if (code === 112 || code === 113) {
    const n = /^-?\d{1,6}$/.test(args) ? parseInt(args, 10) : 0;
    doc.indent(code === 112 ? "current" : "block", n);
  } else if (code === 114) {
    const [s = ""] = parseStrings(args);
    doc.perLinePrefix(s, style);
  } else {
    const [pre = "", post = "", nonbreak = ""] = parseStrings(args);
    doc.newline(KINDS[code], style, pre, post, nonbreak);
  }
  if (doc?.full) flush(host);
}

/** Lay out and print an unfinished document (too big, or reset). */
export function flush(host: PrettyHost): void {
  const doc = host.document;
  if (doc === null) return;
  host.document = null;
  const startCol = host.cursorX();
  host.print(layout(doc.root, host.cols(), startCol), {
    root: doc.root,
    startCol,
  });
}

/**
 * What a row keeps of a printed block (`LineExtras.pretty`): reflow lays
 * the document out again from it when the width changes.
 */
export function prettyRecord(block: PrintedBlock, cols: number): PrettyBlock {
  const { root, startCol } = block;
  return {
    startCol,
    cols,
    source: root,
    relayout: (width) =>
      layout(root, width, startCol).map((row) =>
        row.map((seg) => ({
          text: seg.text,
          fg: seg.style.fg,
          bg: seg.style.bg,
          attr: seg.style.attr,
        }))
      ),
  };
}
