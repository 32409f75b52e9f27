/**
 * A JSON document read lazily, for `domterm inspect` (inspect.ts): values
 * are spans of the text, and a container's entries are found only when
 * asked for, by skipping over each value (strings jump from quote to
 * quote; nested containers are counted through, not built). Opening the
 * top level of 10 MB costs one pass over the text instead of building
 * every object of it (JSON.parse), which is what keeps it under 200 ms
 * (bench/inspect_bench.ts). Leaves are parsed with JSON.parse when shown.
 *
 * The structure is checked as it is skipped (brackets balance, strings
 * end, values are separated by commas and keys by colons); a leaf's own
 * syntax (a number, an escape) only when it is shown.
 *
 * @module
 */

/** A value of the document: text offsets [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** What kind of value a span holds. */
export type Kind = "object" | "array" | "leaf";

/** A container's entries: keys (objects; null for arrays) and the values' spans. */
export interface Entries {
  keys: string[] | null;
  values: Span[];
}

/** The document is not JSON (its message says where). */
export class JsonSyntaxError extends Error {}

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d;

/** One document. */
export class LazyJson {
  readonly text: string;
  /** The whole document's value. */
  readonly root: Span;
  #entries = new Map<number, Entries>();
  /** The number of entries of each container skipped so far, by its start. */
  #counts = new Map<number, number>();

  /**
   * Check `text`'s structure down to the top level's values (one pass: the
   * top level's entries are found, and the number of entries of each).
   */
  constructor(text: string) {
    this.text = text;
    const start = this.#ws(0);
    let end: number;
    if (this.kind({ start, end: start }) === "leaf") end = this.#skip(start);
    else {
      const scanned = this.#scan(start);
      this.#entries.set(start, scanned.entries);
      end = scanned.end;
    }
    if (this.#ws(end) !== text.length) this.#fail(end, "text after the value");
    this.root = { start, end };
  }

  #fail(at: number, what: string): never {
    throw new JsonSyntaxError(`${what} at offset ${at}`);
  }

  /** The first offset at or after `i` that is not whitespace. */
  #ws(i: number): number {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
      i++;
    }
  }

  /** The offset after the string that starts at `i` (a quote). */
  #string(i: number): number {
    const t = this.text;
    for (let j = i + 1;;) {
      const k = t.indexOf('"', j);
      if (k < 0) this.#fail(i, "a string that does not end");
      let b = 0;
      while (t.charCodeAt(k - 1 - b) === BACKSLASH) b++;
      if (b % 2 === 0) return k + 1;
      j = k + 1;
    }
  }

  /**
   * The offset after the value that starts at `i`. Nested containers are
   * counted through: only their brackets and strings are looked at.
   * hot path: every byte of a document passes here when its top level opens.
   */
  #skip(i: number): number {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === QUOTE) return this.#string(i);
    if (c !== OPEN_OBJ && c !== OPEN_ARR) {
      let j = i;
      for (; j < t.length; j++) {
        const d = t.charCodeAt(j);
        if (
          d === COMMA || d === CLOSE_ARR || d === CLOSE_OBJ || d === 0x20 ||
          d === 0x0a || d === 0x0d || d === 0x09
        ) break;
      }
      if (j === i) this.#fail(i, "a value expected");
      return j;
    }
    let depth = 1;
    let j = i + 1;
    // Its entries: the commas between them, unless it is empty.
    let commas = 0;
    const close = c === OPEN_OBJ ? CLOSE_OBJ : CLOSE_ARR;
    const empty = t.charCodeAt(this.#ws(j)) === close;
    while (depth > 0) {
      if (j >= t.length) this.#fail(i, "a container that does not end");
      const d = t.charCodeAt(j);
      if (d === QUOTE) {
        j = this.#string(j);
        continue;
      }
      if (d === OPEN_OBJ || d === OPEN_ARR) depth++;
      else if (d === CLOSE_OBJ || d === CLOSE_ARR) depth--;
      else if (d === COMMA && depth === 1) commas++;
      j++;
    }
    this.#counts.set(i, empty ? 0 : commas + 1);
    return j;
  }

  /** The number of entries of a container (without finding them, when its parent's were). */
  count(s: Span): number {
    return this.#counts.get(s.start) ?? this.entries(s).values.length;
  }

  /** What `s` holds. */
  kind(s: Span): Kind {
    const c = this.text.charCodeAt(s.start);
    return c === OPEN_OBJ ? "object" : c === OPEN_ARR ? "array" : "leaf";
  }

  /** A leaf's value (a JsonSyntaxError if it is not valid JSON). */
  leaf(s: Span): unknown {
    try {
      return JSON.parse(this.text.slice(s.start, s.end));
    } catch (e) {
      this.#fail(s.start, (e as Error).message);
    }
  }

  /** The entries of a container (found once, then remembered). */
  entries(s: Span): Entries {
    let e = this.#entries.get(s.start);
    if (e === undefined) {
      e = this.#scan(s.start).entries;
      this.#entries.set(s.start, e);
    }
    return e;
  }

  /** The entries of the container at `start`, and the offset after it. */
  #scan(start: number): { entries: Entries; end: number } {
    const t = this.text;
    const isObject = t.charCodeAt(start) === OPEN_OBJ;
    const close = isObject ? CLOSE_OBJ : CLOSE_ARR;
    const keys: string[] = [];
    const values: Span[] = [];
    const entries = { keys: isObject ? keys : null, values };
    let i = this.#ws(start + 1);
    if (t.charCodeAt(i) === close) return { entries, end: i + 1 };
    for (;;) {
      if (isObject) {
        if (t.charCodeAt(i) !== QUOTE) this.#fail(i, "a key expected");
        const k = this.#string(i);
        keys.push(this.leaf({ start: i, end: k }) as string);
        i = this.#ws(k);
        if (t.charCodeAt(i) !== COLON) this.#fail(i, "':' expected");
        i = this.#ws(i + 1);
      }
      const end = this.#skip(i);
      values.push({ start: i, end });
      i = this.#ws(end);
      const c = t.charCodeAt(i);
      if (c === close) break;
      if (c !== COMMA) this.#fail(i, "',' expected");
      i = this.#ws(i + 1);
    }
    return { entries, end: i + 1 };
  }
}
