/**
 * The extended-style table: underline colour and OSC 8 hyperlink of a cell
 * live here, and the cell's ATTR word holds the entry's id (high 16 bits).
 * Equal styles share one id.
 *
 * Ids are reclaimed: once {@link ExtTable.limit} ids are handed out and a
 * new style needs one, {@link ExtTable.intern} answers -1 and the caller
 * runs a sweep ({@link ExtTable.sweep}, driven by `ext_sweep.ts`), which
 * keeps the entries some ATTR word still holds (cells of both screens and
 * the history, packed or not, the pen, pretty-printed documents) and frees
 * the rest for reuse. An id keeps its entry for as long as it lives: cells
 * are never renumbered. The next sweep comes once twice as many ids as
 * survived are handed out (at least {@link SWEEP_MIN}), so its cost (a
 * pass over the cells held) is spread over at least as many new styles as
 * the table keeps; the table never holds more than that limit.
 *
 * @module
 */
import type { ExtStyle } from "../terminal_view.ts";

/** An extended style plus the OSC 8 `id=` parameter that groups link cells. */
export interface ExtEntry extends ExtStyle {
  /** The OSC 8 `id=` parameter, or "" when the link had none. */
  linkId: string;
}

/** Largest id that fits in the ATTR word. */
export const MAX_EXT_ID = 0xffff;
/** No sweep before this many ids are handed out. */
export const SWEEP_MIN = 4096;
/**
 * Ids a sweep always leaves free: when more than `MAX_EXT_ID -
 * SWEEP_HEADROOM` entries are still held, the oldest cells (history from
 * the top) lose their extended style instead of new output losing its own.
 */
export const SWEEP_HEADROOM = 4096;

const NONE: ExtEntry = Object.freeze({
  underlineColor: 0,
  link: null,
  linkId: "",
});

function keyOf(
  underlineColor: number,
  link: string | null,
  linkId: string,
): string {
  return `${underlineColor}\u0000${link ?? ""}\u0000${
    link === null ? "" : linkId
  }\u0000${link === null ? 0 : 1}`;
}

/**
 * Interns {@link ExtEntry} values and hands out ids 1..{@link MAX_EXT_ID},
 * reusing the ids a sweep freed.
 */
export class ExtTable {
  /** Entries by id; undefined for a free id (0 is {@link NONE}). */
  #entries: (ExtEntry | undefined)[] = [NONE];
  #ids = new Map<string, number>();
  /** Free ids below `#entries.length`. */
  #free: number[] = [];
  #limit = SWEEP_MIN;
  /** Sweeps run (for tests and stats). */
  #sweeps = 0;

  /** Highest id handed out: every id in use is at most this. */
  get size(): number {
    return this.#entries.length - 1;
  }
  /** Entries held (ids in use). */
  get live(): number {
    return this.#entries.length - 1 - this.#free.length;
  }
  /** Ids handed out before {@link intern} asks for a sweep. */
  get limit(): number {
    return this.#limit;
  }
  /** Sweeps run so far. */
  get sweeps(): number {
    return this.#sweeps;
  }

  /**
   * The id for this combination, 0 for "nothing extended". A new
   * combination takes a free id; when there is none and {@link limit} ids
   * are handed out, the answer is -1: the caller sweeps (see
   * `ext_sweep.ts`) and asks again. With `sweep` false it never answers
   * -1: the table grows to {@link MAX_EXT_ID}, and past that new
   * combinations get 0 (their underline colour / link is lost).
   */
  intern(
    underlineColor: number,
    link: string | null,
    linkId = "",
    sweep = true,
  ): number {
    if (underlineColor === 0 && link === null) return 0;
    const key = keyOf(underlineColor, link, linkId);
    const found = this.#ids.get(key);
    if (found !== undefined) return found;
    let id = this.#free.pop();
    if (id === undefined) {
      if (sweep && this.#entries.length > this.#limit) return -1;
      if (this.#entries.length > MAX_EXT_ID) return 0;
      id = this.#entries.length;
      this.#entries.push(undefined);
    }
    this.#entries[id] = Object.freeze({
      underlineColor,
      link,
      linkId: link === null ? "" : linkId,
    });
    this.#ids.set(key, id);
    return id;
  }

  /**
   * Free every entry no ATTR word holds any more. `walk` calls `keep` with
   * every ATTR word that has an ext id, newest first (the pen, the
   * screens, then the history from its bottom up), and stores what it
   * returns in place of the word: the word itself while the table has
   * room, else (more than `MAX_EXT_ID - SWEEP_HEADROOM` entries held
   * already) the word without its id. Ids nothing kept are free
   * afterwards, and the next sweep is due at twice the entries kept.
   */
  sweep(walk: (keep: (attr: number) => number) => void): void {
    const n = this.#entries.length;
    const marked = new Uint8Array(n);
    const cap = MAX_EXT_ID - SWEEP_HEADROOM;
    let kept = 0;
    walk((attr) => {
      const id = attr >>> 16;
      if (id < n && marked[id] === 1) return attr;
      if (id >= n || this.#entries[id] === undefined || kept >= cap) {
        return (attr & 0xffff) >>> 0; // unknown, or no room left
      }
      marked[id] = 1;
      kept++;
      return attr;
    });
    for (let id = 1; id < n; id++) {
      const e = this.#entries[id];
      if (e !== undefined && marked[id] === 0) {
        const key = keyOf(e.underlineColor, e.link, e.linkId);
        if (this.#ids.get(key) === id) this.#ids.delete(key);
        this.#entries[id] = undefined;
      }
    }
    this.#reindexFree();
    this.#limit = Math.min(MAX_EXT_ID, Math.max(SWEEP_MIN, 2 * kept));
    this.#sweeps++;
  }

  /** Drop free ids at the end, list the others (lowest handed out first). */
  #reindexFree(): void {
    const e = this.#entries;
    while (e.length > 1 && e[e.length - 1] === undefined) e.length--;
    this.#free = [];
    for (let id = e.length - 1; id >= 1; id--) {
      if (e[id] === undefined) this.#free.push(id);
    }
  }

  /**
   * Entries 1..{@link size}, in id order (for a snapshot); a free id is
   * an empty entry (no underline colour, no link), as {@link get} gives.
   */
  save(): ExtEntry[] {
    const out: ExtEntry[] = [];
    for (let id = 1; id < this.#entries.length; id++) {
      out.push(this.#entries[id] ?? NONE);
    }
    return out;
  }
  /**
   * Entries from {@link ExtTable.save}, given the same ids again; empty
   * ones are free ids.
   */
  load(entries: readonly ExtEntry[]): void {
    this.#entries = [NONE];
    this.#ids.clear();
    for (const e of entries.slice(0, MAX_EXT_ID)) {
      if (e.underlineColor === 0 && e.link === null) {
        this.#entries.push(undefined); // a free id
        continue;
      }
      // A duplicate (not from save()) keeps its entry for the cells that
      // hold it, but new cells get the first id.
      const key = keyOf(e.underlineColor, e.link, e.linkId);
      if (!this.#ids.has(key)) this.#ids.set(key, this.#entries.length);
      this.#entries.push(Object.freeze({ ...e }));
    }
    this.#reindexFree();
    this.#limit = Math.min(
      MAX_EXT_ID,
      Math.max(SWEEP_MIN, 2 * this.live),
    );
  }

  /** The entry for `id`; an empty style for 0 or unknown ids. */
  get(id: number): ExtEntry {
    return this.#entries[id] ?? NONE;
  }
}
