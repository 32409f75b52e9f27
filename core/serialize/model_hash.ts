/**
 * A fingerprint of a terminal's model, and a readable description of the
 * first place where two models differ.
 *
 * {@link modelHash} turns everything a {@link Terminal} shows through its
 * public API into a canonical stream of 32-bit words and hashes it: size,
 * cursor (position, pending wrap, visibility, shape, blink), titles, cwd,
 * every field of `Modes`, scroll region, margins, palette and dynamic
 * colour overrides, which buffer is active, and every line of the normal
 * buffer (history and screen) plus, while it is shown, the alternate
 * screen. A line contributes its width, soft-wrap flag, DEC line size,
 * cells (code point, colours, the low 16 attribute bits), the extended
 * style each cell points to (underline colour, OSC 8 link and link id:
 * the ext-table id itself is an arbitrary number and is left out), the
 * grapheme-cluster text of cluster cells, and its extras (shell marks,
 * block and inline HTML, images with their metadata and data, and
 * pretty-printed blocks, compared by what they lay out to).
 *
 * Left out: `dirty` flags, `marksVersion`, and state the public API does
 * not expose (pen, saved cursors, charsets, parser state...): those show
 * only through future behaviour, which is what snapshot tests compare.
 *
 * The hash is pure TypeScript (no Deno or DOM APIs, no dependencies) and
 * deterministic: the same model gives the same string in every process,
 * on the server and in a browser. It is two 32-bit murmur3-style lanes
 * over the word stream, finalized together: 16 hex digits ("64-bit-ish";
 * not cryptographic).
 *
 * @module
 */
import type { Terminal } from "../emulator/terminal.ts";
import type { ExtEntry } from "../emulator/ext_table.ts";
import type { Buffer } from "../model/buffer.ts";
import type { Line } from "../model/line.ts";
import type { LineExtras, PrettyBlock } from "../model/line_extras.ts";
import { A_CLUSTER, CELL_STRIDE } from "../model/cell.ts";

// ---------------------------------------------------------------- hashing

/** Two 32-bit lanes over a stream of 32-bit words. */
class Hasher {
  #a = 0x6a09e667 | 0;
  #b = 0xbb67ae85 | 0;
  #n = 0;

  /** Mix in one 32-bit word (any number is taken modulo 2^32). */
  word(w: number): void {
    let k = Math.imul(w, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    let a = this.#a ^ k;
    a = (a << 13) | (a >>> 19);
    a = (Math.imul(a, 5) + 0xe6546b64) | 0;
    let j = Math.imul(w, 0x85ebca6b);
    j = (j << 17) | (j >>> 15);
    j = Math.imul(j, 0xc2b2ae35);
    let b = this.#b ^ j;
    b = (b << 19) | (b >>> 13);
    b = (Math.imul(b, 9) + 0x38b34ae5 + a) | 0;
    this.#a = a;
    this.#b = b;
    this.#n++;
  }

  /** Mix in a string: its length, then its UTF-16 code units in pairs. */
  str(s: string): void {
    const n = s.length;
    this.word(n);
    let i = 0;
    for (; i + 1 < n; i += 2) {
      this.word(s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16));
    }
    if (i < n) this.word(s.charCodeAt(i));
  }

  /** The hash so far: 16 lowercase hex digits. */
  digest(): string {
    let a = fmix32(this.#a ^ this.#n);
    let b = fmix32(this.#b ^ Math.imul(this.#n, 0x9e3779b9));
    a = (a + b) | 0;
    b = (b + a) | 0;
    a = fmix32(a);
    b = fmix32(b);
    a = (a + b) | 0;
    b = (b + a) | 0;
    return hex8(a) + hex8(b);
  }
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

function hex8(h: number): string {
  return (h >>> 0).toString(16).padStart(8, "0");
}

// ---------------------------------------------------------------- canonical forms

/**
 * A canonical text for a JSON-like value: object keys sorted, `undefined`
 * fields left out, functions ignored, numbers as `String` (so Infinity
 * and NaN survive; -0 is 0).
 */
function canon(v: unknown): string {
  switch (typeof v) {
    case "number":
      return Object.is(v, -0) ? "0" : String(v);
    case "string":
      return JSON.stringify(v);
    case "boolean":
      return v ? "true" : "false";
    case "undefined":
      return "undefined";
    case "bigint":
      return `${v}n`;
    case "function":
    case "symbol":
      return "?";
  }
  if (v === null) return "null";
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  const o = v as Record<string, unknown>;
  const parts: string[] = [];
  for (const k of Object.keys(o).sort()) {
    const x = o[k];
    if (x === undefined || typeof x === "function") continue;
    parts.push(JSON.stringify(k) + ":" + canon(x));
  }
  return "{" + parts.join(",") + "}";
}

/** Per-terminal caches for one hash or diff run. */
class Context {
  readonly term: Terminal;
  #ext = new Map<number, string | null>();
  #extHash = new Map<number, [number, number] | null>();
  #pretty = new Map<PrettyBlock, string>();

  constructor(term: Terminal) {
    this.term = term;
  }

  /**
   * The extended style behind ext-table id `id` as canonical text, or null
   * for "none" (id 0, an unknown id, or an entry with nothing in it).
   */
  ext(id: number): string | null {
    if (id === 0) return null;
    let s = this.#ext.get(id);
    if (s === undefined) {
      const e = this.term.ext(id) as Partial<ExtEntry>;
      const underline = e.underlineColor ?? 0;
      const link = e.link ?? null;
      const linkId = link === null ? "" : e.linkId ?? "";
      s = underline === 0 && link === null
        ? null
        : canon({ underline: underline >>> 0, link, linkId });
      this.#ext.set(id, s);
    }
    return s;
  }

  /** Two words that stand for {@link ext}(id) in the hash, or null. */
  extHash(id: number): [number, number] | null {
    let h = this.#extHash.get(id);
    if (h === undefined) {
      const s = this.ext(id);
      if (s === null) h = null;
      else {
        const a = new Hasher();
        a.str(s);
        const d = a.digest();
        h = [parseInt(d.slice(0, 8), 16), parseInt(d.slice(8), 16)];
      }
      this.#extHash.set(id, h);
    }
    return h;
  }

  /** A pretty-printed block as canonical text (its layouts, not its identity). */
  pretty(p: PrettyBlock): string {
    let s = this.#pretty.get(p);
    if (s === undefined) {
      // What it printed (laid out for p.cols), and a narrower layout, which
      // shows the document structure a resize would lay out again.
      const widths = [p.cols, Math.max(1, p.cols >> 1)];
      const layouts = widths.map((w) =>
        p.relayout(w).map((row) =>
          row.map((r) => [
            r.text,
            r.fg >>> 0,
            r.bg >>> 0,
            r.attr & 0xffff,
            this.ext(r.attr >>> 16),
          ])
        )
      );
      s = canon({ startCol: p.startCol, cols: p.cols, layouts });
      this.#pretty.set(p, s);
    }
    return s;
  }

  /**
   * The extras of a line as canonical text, field by field ("null" for a
   * line without extras: that differs from an empty object, because a
   * line with extras never counts as blank). Empty arrays count as absent.
   */
  extras(e: LineExtras | null): [string, string][] {
    if (e === null) return [["extras", "null"]];
    const out: [string, string][] = [["extras", "{}"]];
    for (const key of Object.keys(e).sort() as (keyof LineExtras)[]) {
      const v = e[key];
      if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
      if (key === "pretty") out.push(["pretty", this.pretty(v as PrettyBlock)]);
      else out.push([key, canon(v)]);
    }
    return out;
  }
}

/** The scalar state of `term`, as (label, canonical value) pairs. */
function stateFields(term: Terminal): [string, string][] {
  const f: [string, string][] = [];
  const put = (label: string, v: unknown) => f.push([label, canon(v)]);
  put("cols", term.cols);
  put("rows", term.rows);
  put("cursor x", term.cursorX);
  put("cursor y", term.cursorY);
  put("wrap pending", term.wrapPending);
  put("cursor visible", term.cursorVisible);
  put("cursor style", term.cursorStyle);
  put("cursor blink", term.cursorBlink);
  put("title", term.title);
  put("icon title", term.iconTitle);
  put("cwd", term.cwd);
  const modes = term.modes as unknown as Record<string, unknown>;
  for (const k of Object.keys(modes).sort()) put(`modes.${k}`, modes[k]);
  const r = term.scrollRegion;
  put("scroll region", [r.top, r.bottom]);
  const m = term.margins;
  put("margins", [m.left, m.right]);
  const palette: [number, string][] = [];
  for (let i = 0; i < 256; i++) {
    const c = term.paletteOverride(i);
    if (c !== null) palette.push([i, c]);
  }
  put("palette overrides", palette);
  put("foreground override", term.dynamicColorOverride(0));
  put("background override", term.dynamicColorOverride(1));
  put("cursor colour override", term.dynamicColorOverride(2));
  put("active buffer", term.buffer.isAlt ? "alternate" : "normal");
  for (const [name, b] of buffers(term)) {
    put(`${name} length`, b.length);
    put(`${name} history`, b.historyLength);
    put(`${name} trimmed`, b.trimmed);
    put(`${name} scrollback`, b.scrollback);
  }
  return f;
}

/** The buffers that take part: normal, and the alternate one while shown. */
function buffers(term: Terminal): [string, Buffer][] {
  const out: [string, Buffer][] = [["normal buffer", term.normalBuffer]];
  if (term.buffer.isAlt) out.push(["alternate buffer", term.buffer]);
  return out;
}

const LINE_MARK = 0x4c494e45; // "LINE"
const HAS_EXT = 0x10000;
const NO_CLUSTER = "\u0000none";

function hashLine(h: Hasher, ctx: Context, line: Line): void {
  const cols = line.cols;
  h.word(LINE_MARK);
  h.word(cols);
  h.word((line.wrapped ? 1 : 0) | (line.size << 1));
  const d = line.data;
  for (let x = 0, i = 0; x < cols; x++, i += CELL_STRIDE) {
    h.word(d[i]);
    h.word(d[i + 1]);
    h.word(d[i + 2]);
    const attr = d[i + 3];
    const ext = attr >>> 16 === 0 ? null : ctx.extHash(attr >>> 16);
    h.word((attr & 0xffff) | (ext === null ? 0 : HAS_EXT));
    if (ext !== null) {
      h.word(ext[0]);
      h.word(ext[1]);
    }
    if ((attr & A_CLUSTER) !== 0) h.str(line.clusters?.get(x) ?? NO_CLUSTER);
  }
  const extras = ctx.extras(line.extras);
  h.word(extras.length);
  for (const [k, v] of extras) {
    h.str(k);
    h.str(v);
  }
}

/**
 * A fingerprint of everything `term` shows through its public API (see the
 * module documentation): 16 hex digits. Two terminals in the same state
 * give the same string, in any process, on the server and in a browser;
 * any difference that {@link modelDiff} reports changes it (barring a
 * 64-bit collision). `dirty` flags and ext-table ids do not count.
 */
export function modelHash(term: Terminal): string {
  const h = new Hasher();
  h.str("domterm-model-1");
  const fields = stateFields(term);
  h.word(fields.length);
  for (const [k, v] of fields) {
    h.str(k);
    h.str(v);
  }
  const ctx = new Context(term);
  for (const [name, b] of buffers(term)) {
    h.str(name);
    const n = b.length;
    h.word(n);
    for (let i = 0; i < n; i++) hashLine(h, ctx, b.getLine(i));
  }
  return h.digest();
}

// ---------------------------------------------------------------- diff

const MAX_SHOWN = 120;

/** A value for a message, cut to a readable length. */
function shown(s: string): string {
  return s.length <= MAX_SHOWN ? s : s.slice(0, MAX_SHOWN) + "...";
}

function hex(n: number): string {
  return "0x" + (n >>> 0).toString(16);
}

/** Where the two canonical texts first differ, with a little context. */
function excerpt(a: string, b: string): string {
  if (a.length + b.length <= 2 * MAX_SHOWN) return `${a} vs ${b}`;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  const cut = (s: string) =>
    (from > 0 ? "..." : "") + shown(s.slice(from, i + 60));
  return `${cut(a)} vs ${cut(b)} (from character ${i})`;
}

function diffLine(
  where: string,
  ca: Context,
  la: Line,
  cb: Context,
  lb: Line,
): string | null {
  if (la.cols !== lb.cols) return `${where}: cols ${la.cols} vs ${lb.cols}`;
  if (la.wrapped !== lb.wrapped) {
    return `${where}: wrapped ${la.wrapped} vs ${lb.wrapped}`;
  }
  if (la.size !== lb.size) return `${where}: size ${la.size} vs ${lb.size}`;
  const da = la.data, db = lb.data;
  const names = ["code", "fg", "bg"];
  for (let x = 0; x < la.cols; x++) {
    const i = x * CELL_STRIDE;
    for (let k = 0; k < 3; k++) {
      if (da[i + k] !== db[i + k]) {
        return `${where} cell ${x}: ${names[k]} ${hex(da[i + k])} vs ${
          hex(db[i + k])
        }`;
      }
    }
    const aa = da[i + 3], ab = db[i + 3];
    if ((aa & 0xffff) !== (ab & 0xffff)) {
      return `${where} cell ${x}: attr ${hex(aa & 0xffff)} vs ${
        hex(ab & 0xffff)
      }`;
    }
    const ea = ca.ext(aa >>> 16), eb = cb.ext(ab >>> 16);
    if (ea !== eb) {
      return `${where} cell ${x}: ext ${shown(ea ?? "none")} vs ${
        shown(eb ?? "none")
      }`;
    }
    if ((aa & A_CLUSTER) !== 0) {
      const ta = la.clusters?.get(x), tb = lb.clusters?.get(x);
      if (ta !== tb) {
        const q = (t: string | undefined) =>
          t === undefined ? "missing" : JSON.stringify(t);
        return `${where} cell ${x}: cluster ${q(ta)} vs ${q(tb)}`;
      }
    }
  }
  const xa = ca.extras(la.extras), xb = cb.extras(lb.extras);
  for (let k = 0; k < Math.max(xa.length, xb.length); k++) {
    const [ka, va] = xa[k] ?? ["-", "absent"];
    const [kb, vb] = xb[k] ?? ["-", "absent"];
    if (ka !== kb) {
      // One side has a field the other lacks.
      const missingInB = !xb.some(([key]) => key === ka);
      const key = missingInB ? ka : kb;
      const has = (xs: [string, string][]) =>
        shown(xs.find(([kk]) => kk === key)?.[1] ?? "absent");
      return `${where}: extras.${key} ${has(xa)} vs ${has(xb)}`;
    }
    if (va !== vb) {
      return `${where}: ${k === 0 ? "extras" : `extras.${ka}`} ${
        excerpt(va, vb)
      }`;
    }
  }
  return null;
}

/**
 * The first difference between the models of `a` and `b`, as a short
 * message (e.g. `normal buffer line 1203 (screen row 5) cell 5: code 0x41
 * vs 0x42`; values of `a` first), or null when {@link modelHash} covers
 * nothing that differs. Scalar state (size, cursor, titles, modes,
 * colours, buffer lengths) is compared first, then the lines in order.
 */
export function modelDiff(a: Terminal, b: Terminal): string | null {
  const fa = stateFields(a), fb = stateFields(b);
  for (let i = 0; i < Math.max(fa.length, fb.length); i++) {
    const [ka, va] = fa[i] ?? ["(none)", "absent"];
    const [kb, vb] = fb[i] ?? ["(none)", "absent"];
    if (ka !== kb) return `state field ${ka} vs ${kb}`;
    if (va !== vb) return `${ka}: ${excerpt(va, vb)}`;
  }
  const ca = new Context(a), cb = new Context(b);
  const ba = buffers(a), bb = buffers(b);
  for (let k = 0; k < ba.length; k++) {
    const [name, bufA] = ba[k];
    const bufB = bb[k][1];
    const n = bufA.length, top = n - bufA.rows;
    for (let i = 0; i < n; i++) {
      const where = `${name} line ${i}` +
        (i >= top ? ` (screen row ${i - top})` : "");
      const d = diffLine(where, ca, bufA.getLine(i), cb, bufB.getLine(i));
      if (d !== null) return d;
    }
  }
  return null;
}
