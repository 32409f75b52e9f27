/**
 * The emulator's whole state as a compact, versioned, JSON-safe value, and
 * back: `Terminal.snapshot()` and `Terminal.restore()` use it, so that a
 * server can hand a freshly attached window the exact terminal it has, or
 * keep one across a restart.
 *
 * Lines are written run by run: the cell code points as one string (a
 * wide character's tail, always empty, is left out), then the colours and
 * attributes as runs of equal cells (`[length, fg, bg, attr, ...]`), soft
 * wrap, line size, grapheme clusters and extras. Images are written once
 * in a table, however many lines share them.
 *
 * Additions that older readers can leave out keep the version: a mark's
 * `folded` (a fold made by hand) came within version 1; a snapshot without
 * it reads as before, and an older reader drops it (the fold is lost, the
 * rest is the same).
 *
 * Reading checks every value: a snapshot may come from elsewhere, and a
 * malformed one throws an Error that says what is wrong, instead of making
 * a terminal that breaks later.
 *
 * @module
 */
import type { Progress } from "../emulator/osc.ts";
import { newNotifyState } from "../emulator/notify_state.ts";
import {
  A_CLUSTER,
  A_EXT_SHIFT,
  A_WIDE,
  A_WIDE_TAIL,
  ATTR,
  BG,
  CELL_STRIDE,
  CODE,
  FG,
} from "../model/cell.ts";
import { Buffer } from "../model/buffer.ts";
import { Line, type LineSize } from "../model/line.ts";
import type {
  BlockEmbed,
  ImageEmbed,
  ImagePiece,
  InlineEmbed,
  LineExtras,
  LineMark,
} from "../model/line_extras.ts";
import type { ParserState } from "../parser/parser.ts";
import {
  type Charset,
  CHARSET_NAMES,
  charsetName,
  CharsetState,
} from "../emulator/charsets.ts";
import {
  ColorOverrides,
  DYNAMIC_COLORS,
  SPECIAL_BASE,
  SPECIAL_COLORS,
} from "../emulator/colors.ts";
import { ExtTable } from "../emulator/ext_table.ts";
import { KittyKeyboard } from "../emulator/kitty_keyboard_state.ts";
import { Modes } from "../emulator/modes.ts";
import {
  type Block,
  type Item,
  PrettyDocument,
  type PrettyDocumentState,
  prettyRecord,
} from "../emulator/pretty_print.ts";
import type { Pen } from "../emulator/sgr.ts";
import { penAttr } from "../emulator/pen.ts";
import type {
  KeyPlace,
  SavedCursor,
  ScreenState,
  TerminalState,
  TitleEntry,
} from "../emulator/state.ts";
import { TabStops } from "../emulator/tab_stops.ts";
import { MAX_COLS, MAX_ROWS } from "../emulator/window_ops.ts";

/** The snapshot format's version; {@link readSnapshot} accepts only this one. */
export const SNAPSHOT_VERSION = 1;
/** Most lines one buffer of a snapshot may hold. */
export const MAX_SNAPSHOT_LINES = 1_000_000;

/** A line: see the module doc. */
export interface LineSnapshot {
  /** Code points up to the last non-blank cell, wide tails left out; "\0" is a blank cell. */
  c?: string;
  /** The same as plain numbers (one per cell), when the string form cannot hold them. */
  n?: number[];
  /** Style runs `[length, fg, bg, attr, ...]` covering every cell; absent: all default. */
  s?: number[];
  /** Soft-wrapped. */
  w?: 1;
  /** DEC line size, when not single. */
  z?: LineSize;
  /** Grapheme clusters: `[x, text]`. */
  k?: [number, string][];
  /** Marks, embeds, pretty-printed blocks. */
  e?: ExtrasSnapshot;
}

/** {@link LineExtras} with images as indexes into {@link TerminalSnapshot.images}. */
export interface ExtrasSnapshot {
  marks?: LineMark[];
  block?: {
    html: string;
    key: string | null;
    image?: number;
    /** `BlockEmbed.events`. */
    events?: number;
  };
  inline?: InlineEmbed[];
  /** Image pieces on the alternate screen, `image` an index into {@link TerminalSnapshot.images}. */
  images?: (Omit<ImagePiece, "image"> & { image: number })[];
  pretty?: { source: Block; startCol: number; cols: number };
}

/** One buffer. */
export interface BufferSnapshot {
  /** History limit; -1 for none (Infinity). */
  scrollback: number;
  trimmed: number;
  lines: LineSnapshot[];
}

/** A saved cursor (DECSC). */
export interface SavedCursorSnapshot {
  x: number;
  y: number;
  wrapPending: boolean;
  pen: Pen;
  link: string | null;
  linkId: string;
  origin: boolean;
  charsets: CharsetsSnapshot;
}

/** G0-G3 by table name ("" for ASCII), GL and a pending single shift. */
export interface CharsetsSnapshot {
  g: string[];
  gl: number;
  singleShift: number;
}

/** Everything a terminal needs to go on exactly as the one it was taken from. */
export interface TerminalSnapshot {
  v: typeof SNAPSHOT_VERSION;
  cols: number;
  rows: number;
  normal: BufferSnapshot;
  alt: BufferSnapshot;
  altActive: boolean;
  saved: [SavedCursorSnapshot | null, SavedCursorSnapshot | null];
  cursor: { x: number; y: number; wrapPending: boolean };
  pen: Pen;
  /** The ATTR word printed cells get. */
  attr: number;
  link: string | null;
  linkId: string;
  errorOutput: number;
  /** Extended styles, ids 1.. in order: `[underlineColor, link, linkId]`. */
  ext: [number, string | null, string][];
  /** top, bottom, left, right. */
  margins: [number, number, number, number];
  modes: Record<string, boolean | number>;
  charsets: CharsetsSnapshot;
  /** The character sets VT52 mode saved when it was entered (null: not in VT52 mode). */
  vt52Charsets: CharsetsSnapshot | null;
  tabs: number[];
  palette: [number, string][];
  dynamic: (string | null)[];
  cursorStyle: "block" | "underline" | "bar";
  title: string;
  iconTitle: string;
  cwd: string;
  /** OSC 30 window name. */
  windowName: string;
  /** OSC 9 ; 4 progress. */
  progress: { state: number; percent: number };
  titleStack: TitleEntry[];
  kitty: [number[], number[]];
  savedModes: [number, boolean][];
  lastChar: number;
  joinNext: boolean;
  rectExtent: boolean;
  cellWidth: number;
  cellHeight: number;
  marksVersion: number;
  pretty: PrettyDocumentState | null;
  images: ImageEmbed[];
  embeds: {
    /** Indexes into {@link TerminalSnapshot.images}, oldest first. */
    images: number[];
    imageMemory: number;
    htmlMemory: number;
    /** The element-event generation (absent in older snapshots: 0). */
    eventsGen?: number;
    /** replace-key -> absolute line number, and 1 when in the alternate buffer. */
    index: [string, number, 0 | 1][];
  };
  parser: ParserState;
}

// ---------------------------------------------------------------- write

/** Codes a string can carry one to one (not surrogates, not past U+10FFFF). */
function stringSafe(c: number): boolean {
  return c <= 0x10ffff && (c < 0xd800 || c > 0xdfff);
}

function writeLine(line: Line, images: Map<ImageEmbed, number>): LineSnapshot {
  const d = line.data;
  const cols = line.cols;
  const out: LineSnapshot = {};
  let n = cols;
  while (n > 0 && d[(n - 1) * CELL_STRIDE + CODE] === 0) n--;
  if (n > 0) {
    let text = "";
    let safe = true;
    for (let x = 0; x < n; x++) {
      const i = x * CELL_STRIDE;
      const c = d[i + CODE];
      if ((d[i + ATTR] & A_WIDE_TAIL) !== 0) {
        if (c === 0) continue;
        safe = false;
        break;
      }
      if (!stringSafe(c)) {
        safe = false;
        break;
      }
      text += c === 0 ? "\0" : String.fromCodePoint(c);
    }
    if (safe) out.c = text;
    else {
      const codes: number[] = [];
      for (let x = 0; x < n; x++) codes.push(d[x * CELL_STRIDE + CODE]);
      out.n = codes;
    }
  }
  let runs: number[] | null = null;
  let start = 0;
  for (let x = 1; x <= cols; x++) {
    const a = (x - 1) * CELL_STRIDE, b = x * CELL_STRIDE;
    if (
      x < cols && d[a + FG] === d[b + FG] && d[a + BG] === d[b + BG] &&
      d[a + ATTR] === d[b + ATTR]
    ) continue;
    const fg = d[a + FG], bg = d[a + BG], attr = d[a + ATTR];
    if (runs !== null || x < cols || fg !== 0 || bg !== 0 || attr !== 0) {
      (runs ??= []).push(x - start, fg, bg, attr);
    }
    start = x;
  }
  if (runs !== null) out.s = runs;
  if (line.wrapped) out.w = 1;
  if (line.size !== 0) out.z = line.size;
  if (line.clusters !== null && line.clusters.size > 0) {
    out.k = [...line.clusters].sort((p, q) => p[0] - q[0]);
  }
  const e = line.extras;
  if (e !== null) {
    const x: ExtrasSnapshot = {};
    if (e.marks && e.marks.length > 0) x.marks = e.marks;
    if (e.block) {
      x.block = { html: e.block.html, key: e.block.key };
      if (e.block.image) x.block.image = imageIndex(images, e.block.image);
      if (e.block.events !== undefined) x.block.events = e.block.events;
    }
    if (e.inline && e.inline.length > 0) x.inline = e.inline;
    if (e.images !== undefined) {
      x.images = e.images.map((p) => ({
        ...p,
        image: imageIndex(images, p.image),
      }));
    }
    if (e.pretty) {
      x.pretty = {
        source: e.pretty.source as Block,
        startCol: e.pretty.startCol,
        cols: e.pretty.cols,
      };
    }
    out.e = x; // even empty: an empty extras object is kept as it is
  }
  return out;
}

function imageIndex(images: Map<ImageEmbed, number>, img: ImageEmbed): number {
  let i = images.get(img);
  if (i === undefined) images.set(img, i = images.size);
  return i;
}

function writeBuffer(
  b: Buffer,
  images: Map<ImageEmbed, number>,
  historyTail = Infinity,
): BufferSnapshot {
  // The oldest history lines beyond the tail are left out (a frame's).
  const skip = Math.max(0, b.historyLength - historyTail);
  const lines: LineSnapshot[] = new Array(b.length - skip);
  for (let i = skip; i < b.length; i++) {
    lines[i - skip] = writeLine(b.getLine(i), images);
  }
  return {
    scrollback: Number.isFinite(b.scrollback) ? b.scrollback : -1,
    trimmed: b.trimmed + skip,
    lines,
  };
}

function writeCharsets(c: CharsetState): CharsetsSnapshot {
  return { g: c.g.map(charsetName), gl: c.gl, singleShift: c.singleShift };
}

function writeSaved(sc: SavedCursor | null): SavedCursorSnapshot | null {
  if (sc === null) return null;
  return { ...sc, pen: { ...sc.pen }, charsets: writeCharsets(sc.charsets) };
}

function writeModes(m: Modes): Record<string, boolean | number> {
  const out: Record<string, boolean | number> = {};
  for (const [k, v] of Object.entries(m)) out[k] = v as boolean | number;
  return out;
}

/**
 * `s` (and the parser's state) as a {@link TerminalSnapshot}. With
 * `historyTail`, only the newest that many history lines of the normal
 * buffer are written (its `trimmed` counts the others): a frame's
 * snapshot, whose size is bounded by screens, not by the history.
 */
export function writeSnapshot(
  s: TerminalState,
  parser: ParserState,
  historyTail = Infinity,
): TerminalSnapshot {
  const images = new Map<ImageEmbed, number>();
  const normal = writeBuffer(s.normal.buffer, images, historyTail);
  const alt = writeBuffer(s.alt.buffer, images);
  const kept = s.embeds.images.map((img) => imageIndex(images, img));
  // Only hints that still point at their line are worth keeping.
  const index: [string, number, 0 | 1][] = [];
  for (const [key, place] of s.embeds.index) {
    for (const [which, buf] of [s.normal.buffer, s.alt.buffer].entries()) {
      const k = place.abs - buf.trimmed;
      if (k >= 0 && k < buf.length && buf.getLine(k) === place.line) {
        index.push([key, place.abs, which as 0 | 1]);
        break;
      }
    }
  }
  return {
    v: SNAPSHOT_VERSION,
    cols: s.cols,
    rows: s.rows,
    normal,
    alt,
    altActive: s.screen === s.alt,
    saved: [writeSaved(s.normal.saved), writeSaved(s.alt.saved)],
    cursor: { x: s.x, y: s.y, wrapPending: s.wrapPending },
    pen: { ...s.pen },
    attr: s.attr,
    link: s.link,
    linkId: s.linkId,
    errorOutput: s.errorOutput,
    ext: s.ext.save().map((e) => [e.underlineColor, e.link, e.linkId]),
    margins: [s.top, s.bottom, s.left, s.right],
    modes: writeModes(s.modes),
    charsets: writeCharsets(s.charsets),
    vt52Charsets: s.vt52Charsets === null
      ? null
      : writeCharsets(s.vt52Charsets),
    tabs: s.tabs.save(),
    palette: [...s.colors.palette],
    dynamic: [...s.colors.dynamic],
    cursorStyle: s.cursorStyle,
    title: s.title,
    iconTitle: s.iconTitle,
    cwd: s.cwd,
    windowName: s.windowName,
    progress: { ...s.progress },
    titleStack: s.titleStack.map((e) => ({ ...e })),
    kitty: s.kitty.save(),
    savedModes: [...s.savedModes],
    lastChar: s.lastChar,
    joinNext: s.joinNext,
    rectExtent: s.rectExtent,
    cellWidth: s.cellWidth,
    cellHeight: s.cellHeight,
    marksVersion: s.marksVersion,
    pretty: s.pretty === null ? null : s.pretty.save(),
    images: [...images.keys()].map((img) => ({ ...img })),
    embeds: {
      images: kept,
      imageMemory: s.embeds.imageMemory,
      htmlMemory: s.embeds.htmlMemory,
      eventsGen: s.embeds.eventsGen,
      index,
    },
    parser,
  };
}

// ---------------------------------------------------------------- read

/** A malformed snapshot. */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(`invalid terminal snapshot: ${message}`);
    this.name = "SnapshotError";
  }
}

function fail(message: string): never {
  throw new SnapshotError(message);
}

function obj(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    fail(`${what} is not an object`);
  }
  return v as Record<string, unknown>;
}
function arr(v: unknown, what: string, max = Infinity): unknown[] {
  if (!Array.isArray(v)) fail(`${what} is not an array`);
  if (v.length > max) fail(`${what} has ${v.length} entries (max ${max})`);
  return v;
}
function int(v: unknown, what: string, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    fail(`${what} is not an integer in ${min}..${max}`);
  }
  return v;
}
function num(v: unknown, what: string, min: number, max: number): number {
  if (typeof v !== "number" || !(v >= min && v <= max)) {
    fail(`${what} is not a number in ${min}..${max}`);
  }
  return v;
}
function str(v: unknown, what: string, max = 1 << 24): string {
  if (typeof v !== "string") fail(`${what} is not a string`);
  if (v.length > max) fail(`${what} is longer than ${max}`);
  return v;
}
function strOrNull(v: unknown, what: string, max?: number): string | null {
  return v === null ? null : str(v, what, max);
}
function bool(v: unknown, what: string): boolean {
  if (typeof v !== "boolean") fail(`${what} is not a boolean`);
  return v;
}

const U32 = 0xffffffff;
/** Largest events generation read (`element_events.ts`). */
const MAX_GEN = Number.MAX_SAFE_INTEGER;

function readPen(v: unknown, what: string): Pen {
  const o = obj(v, what);
  return {
    fg: int(o.fg, `${what}.fg`, 0, U32),
    bg: int(o.bg, `${what}.bg`, 0, U32),
    flags: int(o.flags, `${what}.flags`, 0, U32),
    underlineColor: int(o.underlineColor, `${what}.underlineColor`, 0, U32),
  };
}

function readCharsets(v: unknown, what: string): CharsetState {
  const o = obj(v, what);
  const g = arr(o.g, `${what}.g`, 4);
  if (g.length !== 4) fail(`${what}.g must have 4 entries`);
  const c = new CharsetState();
  c.g = g.map((name, i): Charset => {
    const n = str(name, `${what}.g[${i}]`, 64);
    if (n === "") return null;
    const t = CHARSET_NAMES.get(n);
    if (t === undefined) fail(`${what}.g[${i}]: unknown charset ${n}`);
    return t;
  });
  c.gl = int(o.gl, `${what}.gl`, 0, 3);
  const ss = int(o.singleShift, `${what}.singleShift`, -1, 3);
  if (ss === 0 || ss === 1) fail(`${what}.singleShift must be -1, 2 or 3`);
  c.singleShift = ss;
  return c;
}

function readSaved(
  v: unknown,
  what: string,
  cols: number,
  rows: number,
): SavedCursor | null {
  if (v === null) return null;
  const o = obj(v, what);
  // DECRC clamps the position, so any position on a grid is acceptable.
  return {
    x: int(o.x, `${what}.x`, 0, Math.max(cols, MAX_COLS)),
    y: int(o.y, `${what}.y`, 0, Math.max(rows, MAX_ROWS)),
    wrapPending: bool(o.wrapPending, `${what}.wrapPending`),
    pen: readPen(o.pen, `${what}.pen`),
    link: strOrNull(o.link, `${what}.link`),
    linkId: str(o.linkId, `${what}.linkId`),
    origin: bool(o.origin, `${what}.origin`),
    charsets: readCharsets(o.charsets, `${what}.charsets`),
  };
}

function readImage(v: unknown, what: string): ImageEmbed {
  const o = obj(v, what);
  const img: ImageEmbed = {
    mime: str(o.mime, `${what}.mime`, 256),
    data: str(o.data, `${what}.data`),
    name: str(o.name, `${what}.name`, 4096),
    bytes: int(o.bytes, `${what}.bytes`, 0, Number.MAX_SAFE_INTEGER),
    inline: bool(o.inline, `${what}.inline`),
    width: str(o.width, `${what}.width`, 64),
    height: str(o.height, `${what}.height`, 64),
    preserveAspectRatio: bool(
      o.preserveAspectRatio,
      `${what}.preserveAspectRatio`,
    ),
  };
  if (o.pixelWidth !== undefined) {
    img.pixelWidth = int(o.pixelWidth, `${what}.pixelWidth`, 0, 1 << 30);
  }
  if (o.pixelHeight !== undefined) {
    img.pixelHeight = int(o.pixelHeight, `${what}.pixelHeight`, 0, 1 << 30);
  }
  if (o.evicted !== undefined) img.evicted = bool(o.evicted, `${what}.evicted`);
  return img;
}

function readStyle(v: unknown, what: string): Block["style"] {
  const o = obj(v, what);
  return {
    fg: int(o.fg, `${what}.fg`, 0, U32),
    bg: int(o.bg, `${what}.bg`, 0, U32),
    attr: int(o.attr, `${what}.attr`, 0, U32),
  };
}

const NEWLINE_KINDS = new Set(["fill", "linear", "miser", "required"]);

function readItem(v: unknown, what: string, depth: number): Item {
  const o = obj(v, what);
  switch (o.t) {
    case "text":
      return {
        t: "text",
        s: str(o.s, `${what}.s`),
        style: readStyle(o.style, `${what}.style`),
      };
    case "prefix":
      return {
        t: "prefix",
        s: str(o.s, `${what}.s`),
        style: readStyle(o.style, `${what}.style`),
      };
    case "indent": {
      if (o.rel !== "current" && o.rel !== "block") fail(`${what}.rel`);
      return {
        t: "indent",
        rel: o.rel,
        n: int(o.n, `${what}.n`, -1e6, 1e6),
      };
    }
    case "nl": {
      if (!NEWLINE_KINDS.has(o.kind as string)) fail(`${what}.kind`);
      return {
        t: "nl",
        kind: o.kind as "fill",
        pre: str(o.pre, `${what}.pre`),
        post: str(o.post, `${what}.post`),
        nonbreak: str(o.nonbreak, `${what}.nonbreak`),
        style: readStyle(o.style, `${what}.style`),
      };
    }
    case "block":
      return readBlock(o, what, depth + 1);
    default:
      fail(`${what}.t is not a pretty-printing item`);
  }
}

function readBlock(v: unknown, what: string, depth = 0): Block {
  if (depth > 128) fail(`${what}: pretty-printing blocks nested too deep`);
  const o = obj(v, what);
  if (o.t !== "block") fail(`${what}.t is not "block"`);
  return {
    t: "block",
    prefix: str(o.prefix, `${what}.prefix`),
    style: readStyle(o.style, `${what}.style`),
    items: arr(o.items, `${what}.items`, 1 << 20).map((it, i) =>
      readItem(it, `${what}.items[${i}]`, depth)
    ),
  };
}

function readMarks(v: unknown, what: string): LineMark[] {
  return arr(v, what, 4096).map((m, i) => {
    const o = obj(m, `${what}[${i}]`);
    const mark: LineMark = {
      x: int(o.x, `${what}[${i}].x`, 0, MAX_COLS),
      kind: str(o.kind, `${what}[${i}].kind`, 64),
    };
    if (o.attrs !== undefined) {
      const a = obj(o.attrs, `${what}[${i}].attrs`);
      const attrs: Record<string, string> = {};
      for (const [k, val] of Object.entries(a)) {
        attrs[k] = str(val, `${what}[${i}].attrs.${k}`, 1 << 16);
      }
      mark.attrs = attrs;
    }
    // Added within version 1 (older snapshots have none; older readers
    // leave it out): a fold made by hand.
    if (o.folded !== undefined) {
      mark.folded = bool(o.folded, `${what}[${i}].folded`);
    }
    return mark;
  });
}

function readExtras(
  v: unknown,
  what: string,
  images: ImageEmbed[],
): LineExtras {
  const o = obj(v, what);
  const e: LineExtras = {};
  if (o.marks !== undefined) e.marks = readMarks(o.marks, `${what}.marks`);
  if (o.block !== undefined) {
    const b = obj(o.block, `${what}.block`);
    const block: BlockEmbed = {
      html: str(b.html, `${what}.block.html`),
      key: strOrNull(b.key, `${what}.block.key`, 1 << 16),
    };
    if (b.image !== undefined) {
      block.image =
        images[int(b.image, `${what}.block.image`, 0, images.length - 1)];
    }
    if (b.events !== undefined) {
      block.events = int(b.events, `${what}.block.events`, 0, MAX_GEN);
    }
    e.block = block;
  }
  if (o.inline !== undefined) {
    e.inline = arr(o.inline, `${what}.inline`, 4096).map((it, i) => {
      const x = obj(it, `${what}.inline[${i}]`);
      const item: InlineEmbed = {
        x: int(x.x, `${what}.inline[${i}].x`, 0, MAX_COLS),
        html: str(x.html, `${what}.inline[${i}].html`),
        key: strOrNull(x.key, `${what}.inline[${i}].key`, 1 << 16),
      };
      if (x.events !== undefined) {
        item.events = int(x.events, `${what}.inline[${i}].events`, 0, MAX_GEN);
      }
      return item;
    });
  }
  if (o.images !== undefined) {
    e.images = arr(o.images, `${what}.images`, MAX_COLS).map((it, i) => {
      const p = obj(it, `${what}.images[${i}]`);
      const n = (k: string, min: number, max: number) =>
        int(p[k], `${what}.images[${i}].${k}`, min, max);
      const f = (k: string) =>
        num(p[k], `${what}.images[${i}].${k}`, 0, 1 << 20);
      return {
        image: images[n("image", 0, images.length - 1)],
        x: n("x", 0, MAX_COLS),
        cols: n("cols", 1, MAX_COLS),
        col: f("col"),
        row: f("row"),
        width: f("width"),
        height: f("height"),
      };
    });
  }
  if (o.pretty !== undefined) {
    const p = obj(o.pretty, `${what}.pretty`);
    const root = readBlock(p.source, `${what}.pretty.source`);
    const startCol = int(p.startCol, `${what}.pretty.startCol`, 0, MAX_COLS);
    const record = prettyRecord(
      { root, startCol },
      int(p.cols, `${what}.pretty.cols`, 1, MAX_COLS),
    );
    e.pretty = record;
  }
  return e;
}

function readLine(
  v: unknown,
  what: string,
  cols: number,
  images: ImageEmbed[],
  extSize: number,
): Line {
  const o = obj(v, what);
  const line = new Line(cols);
  line.touch(cols); // its cells are written straight into `data` below
  const d = line.data;
  if (o.s !== undefined) {
    const runs = arr(o.s, `${what}.s`, cols * 4);
    if (runs.length % 4 !== 0) fail(`${what}.s is not [length, fg, bg, attr]*`);
    let x = 0;
    for (let r = 0; r < runs.length; r += 4) {
      const len = int(runs[r], `${what}.s length`, 1, cols - x);
      const fg = int(runs[r + 1], `${what}.s fg`, 0, U32);
      const bg = int(runs[r + 2], `${what}.s bg`, 0, U32);
      const attr = int(runs[r + 3], `${what}.s attr`, 0, U32);
      for (const e = x + len; x < e; x++) {
        const i = x * CELL_STRIDE;
        d[i + FG] = fg;
        d[i + BG] = bg;
        d[i + ATTR] = attr;
      }
    }
    if (x !== cols) fail(`${what}.s covers ${x} of ${cols} cells`);
  }
  if (o.c !== undefined) {
    const text = str(o.c, `${what}.c`, cols * 2);
    let x = 0;
    for (const ch of text) {
      while (x < cols && (d[x * CELL_STRIDE + ATTR] & A_WIDE_TAIL) !== 0) x++;
      if (x >= cols) fail(`${what}.c has more characters than cells`);
      d[x * CELL_STRIDE + CODE] = ch === "\0" ? 0 : ch.codePointAt(0)!;
      x++;
    }
  } else if (o.n !== undefined) {
    const codes = arr(o.n, `${what}.n`, cols);
    for (let x = 0; x < codes.length; x++) {
      d[x * CELL_STRIDE + CODE] = int(codes[x], `${what}.n[${x}]`, 0, U32);
    }
  }
  if (o.w !== undefined) {
    if (o.w !== 1) fail(`${what}.w must be 1`);
    line.wrapped = true;
  }
  if (o.z !== undefined) line.size = int(o.z, `${what}.z`, 1, 3) as LineSize;
  if (o.k !== undefined) {
    const m = new Map<number, string>();
    for (const [i, entry] of arr(o.k, `${what}.k`, cols).entries()) {
      const pair = arr(entry, `${what}.k[${i}]`, 2);
      m.set(
        int(pair[0], `${what}.k[${i}][0]`, 0, cols - 1),
        str(pair[1], `${what}.k[${i}][1]`, 256),
      );
    }
    if (m.size > 0) line.clusters = m;
  }
  // What the emulator relies on: a wide character's head and tail side by
  // side (a lone half is repaired into a narrow cell or a blank), cluster
  // text exactly where the flag says, extended-style ids that exist.
  for (let x = 0; x < cols; x++) {
    const i = x * CELL_STRIDE;
    const a = d[i + ATTR];
    if ((a & A_WIDE) !== 0 && (a & A_WIDE_TAIL) !== 0) {
      fail(`${what}: cell ${x} is both a wide head and a tail`);
    }
    if (
      (a & A_WIDE) !== 0 &&
      (x + 1 >= cols || (d[i + CELL_STRIDE + ATTR] & A_WIDE_TAIL) === 0)
    ) {
      d[i + ATTR] &= ~A_WIDE;
    } else if (
      (a & A_WIDE_TAIL) !== 0 &&
      (x === 0 || (d[i - CELL_STRIDE + ATTR] & A_WIDE) === 0)
    ) {
      d[i + ATTR] &= ~A_WIDE_TAIL;
      d[i + CODE] = 0;
    }
  }
  for (let x = 0; x < cols; x++) {
    const a = d[x * CELL_STRIDE + ATTR];
    if (((a & A_CLUSTER) !== 0) !== (line.clusters?.has(x) ?? false)) {
      fail(`${what}: cell ${x}'s cluster flag and cluster text disagree`);
    }
    if (a >>> A_EXT_SHIFT > extSize) {
      fail(`${what}: cell ${x} names extended style ${a >>> A_EXT_SHIFT}`);
    }
  }
  if (o.e !== undefined) line.extras = readExtras(o.e, `${what}.e`, images);
  return line;
}

function readBuffer(
  v: unknown,
  what: string,
  cols: number,
  rows: number,
  isAlt: boolean,
  images: ImageEmbed[],
  extSize: number,
): Buffer {
  const o = obj(v, what);
  const sb = int(
    o.scrollback,
    `${what}.scrollback`,
    -1,
    Number.MAX_SAFE_INTEGER,
  );
  const scrollback = sb < 0 ? Infinity : sb;
  const trimmed = int(o.trimmed, `${what}.trimmed`, 0, Number.MAX_SAFE_INTEGER);
  const list = arr(o.lines, `${what}.lines`, MAX_SNAPSHOT_LINES);
  if (list.length < rows) {
    fail(`${what} has ${list.length} lines, fewer than the ${rows} rows`);
  }
  if (isAlt && list.length !== rows) {
    fail(`${what} must hold exactly ${rows} lines`);
  }
  if (list.length - rows > scrollback) {
    fail(`${what} holds more history than its scrollback`);
  }
  const lines = list.map((l, i) =>
    readLine(l, `${what}.lines[${i}]`, cols, images, extSize)
  );
  return Buffer.fromLines(cols, rows, scrollback, isAlt, lines, trimmed);
}

function readModes(v: unknown): Modes {
  const o = obj(v, "modes");
  const m = new Modes();
  const rec = m as unknown as Record<string, boolean | number>;
  for (const [k, dflt] of Object.entries(m)) {
    const val = o[k];
    if (val === undefined) continue;
    if (typeof dflt === "boolean") rec[k] = bool(val, `modes.${k}`);
    else {
      rec[k] = int(
        val,
        `modes.${k}`,
        0,
        k === "plainFlags" ? Number.MAX_SAFE_INTEGER : 0xffff,
      );
    }
  }
  const allowed: Record<string, readonly number[]> = {
    mouseTracking: [0, 9, 1000, 1002, 1003],
    mouseEncoding: [0, 1005, 1006, 1015, 1016],
    modifyOtherKeys: [0, 1, 2],
    vtLevel: [1, 2, 3, 4, 5],
    protectMode: [0, 1, 2],
    graphemeSetting: [0, 1, 2, 3],
  };
  for (const [k, vals] of Object.entries(allowed)) {
    if (!vals.includes(rec[k] as number)) fail(`modes.${k} is ${rec[k]}`);
  }
  return m;
}

/**
 * Lines `from` to `to` (indexes into its normal buffer's lines) of a
 * snapshot {@link readSnapshot} already read (and checked) once: the page
 * loads a large snapshot's history in slices, after its screen
 * (`Terminal.prependHistory`). Throws a {@link SnapshotError} as
 * {@link readSnapshot} does.
 */
export function readNormalLines(
  snapshot: TerminalSnapshot,
  from: number,
  to: number,
): Line[] {
  const images = arr(snapshot.images, "images", 1 << 20).map((img, i) =>
    readImage(img, `images[${i}]`)
  );
  const extSize = snapshot.ext.length;
  const out: Line[] = [];
  for (let i = from; i < to; i++) {
    out.push(
      readLine(
        snapshot.normal.lines[i],
        `normal.lines[${i}]`,
        snapshot.cols,
        images,
        extSize,
      ),
    );
  }
  return out;
}

/** What {@link readSnapshot} gives back. */
export interface ReadSnapshot {
  state: TerminalState;
  parser: ParserState;
}

/**
 * Check `snapshot` and build the state it describes. Throws a
 * {@link SnapshotError} naming the first thing that is wrong.
 */
export function readSnapshot(snapshot: unknown): ReadSnapshot {
  const o = obj(snapshot, "the snapshot");
  if (o.v !== SNAPSHOT_VERSION) {
    fail(
      `version ${JSON.stringify(o.v)} (this build reads ${SNAPSHOT_VERSION})`,
    );
  }
  const cols = int(o.cols, "cols", 1, MAX_COLS);
  const rows = int(o.rows, "rows", 1, MAX_ROWS);
  const images = arr(o.images, "images", 1 << 20).map((img, i) =>
    readImage(img, `images[${i}]`)
  );
  const ext = readExt(o.ext);

  const normal: ScreenState = {
    buffer: readBuffer(o.normal, "normal", cols, rows, false, images, ext.size),
    saved: null,
  };
  const alt: ScreenState = {
    buffer: readBuffer(o.alt, "alt", cols, rows, true, images, ext.size),
    saved: null,
  };
  const saved = arr(o.saved, "saved", 2);
  if (saved.length !== 2) fail("saved must have 2 entries");
  normal.saved = readSaved(saved[0], "saved[0]", cols, rows);
  alt.saved = readSaved(saved[1], "saved[1]", cols, rows);
  const screen = bool(o.altActive, "altActive") ? alt : normal;
  const cur = obj(o.cursor, "cursor");
  const { top, bottom, left, right } = readMargins(o.margins, cols, rows);
  const tabs = new TabStops(cols);
  tabs.load(
    arr(o.tabs, "tabs", cols).map((x, i) => int(x, `tabs[${i}]`, 0, cols - 1)),
  );
  const colors = readColors(o.palette, o.dynamic);
  const cursorStyle = o.cursorStyle;
  if (
    cursorStyle !== "block" && cursorStyle !== "underline" &&
    cursorStyle !== "bar"
  ) fail("cursorStyle");
  const kitty = readKitty(o.kitty);
  const savedModes = readSavedModes(o.savedModes);
  const pretty = o.pretty === null ? null : readPretty(o.pretty);
  const { em, index, images: keptImages } = readEmbeds(
    o.embeds,
    images,
    normal,
    alt,
  );
  const titleStack = arr(o.titleStack, "titleStack", 64).map((e, i) => {
    const t = obj(e, `titleStack[${i}]`);
    return {
      icon: strOrNull(t.icon, `titleStack[${i}].icon`, 4096),
      title: strOrNull(t.title, `titleStack[${i}].title`, 4096),
    };
  });

  const state: TerminalState = {
    cols,
    rows,
    normal,
    alt,
    screen,
    buf: screen.buffer,
    x: int(cur.x, "cursor.x", 0, cols - 1),
    y: int(cur.y, "cursor.y", 0, rows - 1),
    wrapPending: bool(cur.wrapPending, "cursor.wrapPending"),
    pen: readPen(o.pen, "pen"),
    attr: int(o.attr, "attr", 0, U32),
    link: strOrNull(o.link, "link"),
    linkId: str(o.linkId, "linkId", 8192),
    errorOutput: int(o.errorOutput, "errorOutput", 0, U32),
    ext,
    top,
    bottom,
    left,
    right,
    modes: readModes(o.modes),
    charsets: readCharsets(o.charsets, "charsets"),
    vt52Charsets: o.vt52Charsets === null
      ? null
      : readCharsets(o.vt52Charsets, "vt52Charsets"),
    tabs,
    colors,
    cursorStyle,
    title: str(o.title, "title", 1 << 16),
    iconTitle: str(o.iconTitle, "iconTitle", 1 << 16),
    cwd: str(o.cwd, "cwd", 1 << 16),
    windowName: str(o.windowName, "windowName", 1 << 16),
    progress: readProgress(o.progress),
    notify: newNotifyState(),
    titleStack,
    kitty,
    savedModes,
    lastChar: int(o.lastChar, "lastChar", 0, U32),
    joinNext: bool(o.joinNext, "joinNext"),
    rectExtent: bool(o.rectExtent, "rectExtent"),
    cellWidth: num(o.cellWidth, "cellWidth", 0, 1000),
    cellHeight: num(o.cellHeight, "cellHeight", 0, 1000),
    marksVersion: int(
      o.marksVersion,
      "marksVersion",
      0,
      Number.MAX_SAFE_INTEGER,
    ),
    pretty,
    embeds: {
      index,
      images: keptImages,
      imageMemory: int(
        em.imageMemory,
        "embeds.imageMemory",
        0,
        Number.MAX_SAFE_INTEGER,
      ),
      htmlMemory: int(
        em.htmlMemory,
        "embeds.htmlMemory",
        0,
        Number.MAX_SAFE_INTEGER,
      ),
      eventsGen: em.eventsGen === undefined
        ? 0
        : int(em.eventsGen, "embeds.eventsGen", 0, MAX_GEN),
    },
  };
  // The ATTR word follows from the pen; a snapshot that disagrees is damaged.
  const derived = penAttr(state) >>> 0;
  if (derived !== state.attr >>> 0) fail("attr does not match the pen");
  return { state, parser: o.parser as ParserState };
}

/**
 * The extended-style table of `snapshot`, whose lines' ids point into it
 * (for `Terminal.prependHistory` of lines from {@link readNormalLines}).
 * Throws a {@link SnapshotError} as {@link readSnapshot} does.
 */
export function readSnapshotExt(snapshot: TerminalSnapshot): ExtTable {
  return readExt(snapshot.ext);
}

/** The snapshot's `ext`: the extended styles (underline colours, links). */
function readExt(v: unknown): ExtTable {
  const ext = new ExtTable();
  ext.load(
    arr(v, "ext", 0xffff).map((e, i) => {
      const t = arr(e, `ext[${i}]`, 3);
      const link = strOrNull(t[1], `ext[${i}] link`);
      return {
        underlineColor: int(t[0], `ext[${i}] underline colour`, 0, U32),
        link,
        linkId: link === null ? "" : str(t[2], `ext[${i}] link id`, 8192),
      };
    }),
  );
  return ext;
}

/** The snapshot's `margins`: top, bottom, left, right, in order. */
function readMargins(
  v: unknown,
  cols: number,
  rows: number,
): { top: number; bottom: number; left: number; right: number } {
  const margins = arr(v, "margins", 4);
  const [top, bottom, left, right] = [
    int(margins[0], "margins top", 0, rows - 1),
    int(margins[1], "margins bottom", 0, rows - 1),
    int(margins[2], "margins left", 0, cols - 1),
    int(margins[3], "margins right", 0, cols - 1),
  ];
  if (top > bottom || left > right) fail("margins are out of order");
  return { top, bottom, left, right };
}

/** The snapshot's `palette` and `dynamic` colour overrides. */
function readColors(palette: unknown, dynamic: unknown): ColorOverrides {
  const colors = new ColorOverrides();
  const paletteSize = SPECIAL_BASE + SPECIAL_COLORS;
  for (const [i, e] of arr(palette, "palette", paletteSize).entries()) {
    const pair = arr(e, `palette[${i}]`, 2);
    colors.palette.set(
      int(pair[0], `palette[${i}] index`, 0, paletteSize - 1),
      str(pair[1], `palette[${i}] colour`, 64),
    );
  }
  // Older snapshots have the first 3 (OSC 10-12).
  const dyn = arr(dynamic, "dynamic", DYNAMIC_COLORS);
  if (dyn.length !== 3 && dyn.length !== DYNAMIC_COLORS) {
    fail(`dynamic must have 3 or ${DYNAMIC_COLORS} entries`);
  }
  for (let i = 0; i < dyn.length; i++) {
    colors.dynamic[i] = strOrNull(dyn[i], `dynamic[${i}]`, 64);
  }
  return colors;
}

/** The snapshot's `kitty`: the keyboard flag stacks of both screens. */
function readKitty(v: unknown): KittyKeyboard {
  const kittyStacks = arr(v, "kitty", 2);
  if (kittyStacks.length !== 2) fail("kitty must have 2 stacks");
  const kitty = new KittyKeyboard();
  const stack = (v: unknown, i: number) =>
    arr(v, `kitty[${i}]`, 64).map((f, k) =>
      int(f, `kitty[${i}][${k}]`, 0, 0xffff)
    );
  kitty.load([stack(kittyStacks[0], 0), stack(kittyStacks[1], 1)]);
  return kitty;
}

/** The snapshot's `savedModes` (XTSAVE). */
function readSavedModes(v: unknown): Map<number, boolean> {
  const savedModes = new Map<number, boolean>();
  for (const [i, e] of arr(v, "savedModes", 4096).entries()) {
    const pair = arr(e, `savedModes[${i}]`, 2);
    savedModes.set(
      int(pair[0], `savedModes[${i}] mode`, 0, 0x7fffffff),
      bool(pair[1], `savedModes[${i}] value`),
    );
  }
  return savedModes;
}

/** The snapshot's `pretty` document (not null). */
function readPretty(v: unknown): PrettyDocument {
  const p = obj(v, "pretty");
  return PrettyDocument.load({
    root: readBlock(p.root, "pretty.root"),
    depth: int(p.depth, "pretty.depth", 1, 128),
    chars: int(p.chars, "pretty.chars", 0, Number.MAX_SAFE_INTEGER),
    flattened: int(p.flattened, "pretty.flattened", 0, 1 << 20),
  });
}

/** The snapshot's `embeds`: the images kept and the replace-key index (`em`: the rest to read). */
function readEmbeds(
  v: unknown,
  images: ImageEmbed[],
  normal: ScreenState,
  alt: ScreenState,
): {
  em: Record<string, unknown>;
  index: Map<string, KeyPlace>;
  images: ImageEmbed[];
} {
  const em = obj(v, "embeds");
  const keptImages = arr(em.images, "embeds.images", images.length).map((
    i,
    k,
  ) => images[int(i, `embeds.images[${k}]`, 0, images.length - 1)]);
  const index = new Map<string, KeyPlace>();
  for (const [i, e] of arr(em.index, "embeds.index", 1 << 20).entries()) {
    const t = arr(e, `embeds.index[${i}]`, 3);
    const key = str(t[0], `embeds.index[${i}] key`, 1 << 16);
    const abs = int(
      t[1],
      `embeds.index[${i}] line`,
      0,
      Number.MAX_SAFE_INTEGER,
    );
    const buf = int(t[2], `embeds.index[${i}] buffer`, 0, 1) === 1
      ? alt.buffer
      : normal.buffer;
    const k = abs - buf.trimmed;
    if (k >= 0 && k < buf.length) index.set(key, { abs, line: buf.getLine(k) });
  }
  return { em, index, images: keptImages };
}

/** The snapshot's `progress`: state 0-4, percent 0-100. */
function readProgress(v: unknown): Progress {
  const o = obj(v, "progress");
  return {
    state: int(o.state, "progress.state", 0, 4) as Progress["state"],
    percent: int(o.percent, "progress.percent", 0, 100),
  };
}
