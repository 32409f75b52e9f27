/**
 * The extended-style table: underline colour and OSC 8 hyperlink of a cell
 * live here, and the cell's ATTR word holds the entry's id (high 16 bits).
 * Equal styles share one id.
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

const NONE: ExtEntry = Object.freeze({
  underlineColor: 0,
  link: null,
  linkId: "",
});

/** Interns {@link ExtEntry} values and hands out ids 1..{@link MAX_EXT_ID}. */
export class ExtTable {
  #entries: ExtEntry[] = [NONE];
  #ids = new Map<string, number>();

  /** Number of ids handed out. */
  get size(): number {
    return this.#entries.length - 1;
  }

  /**
   * The id for this combination, 0 for "nothing extended". When the table is
   * full, new combinations get 0 (their underline colour / link is lost).
   */
  intern(underlineColor: number, link: string | null, linkId = ""): number {
    if (underlineColor === 0 && link === null) return 0;
    const key = `${underlineColor}\u0000${link ?? ""}\u0000${
      link === null ? "" : linkId
    }\u0000${link === null ? 0 : 1}`;
    const found = this.#ids.get(key);
    if (found !== undefined) return found;
    if (this.#entries.length > MAX_EXT_ID) return 0;
    const id = this.#entries.length;
    this.#entries.push(
      Object.freeze({
        underlineColor,
        link,
        linkId: link === null ? "" : linkId,
      }),
    );
    this.#ids.set(key, id);
    return id;
  }

  /** Entries 1..size, in id order (for a snapshot). */
  save(): ExtEntry[] {
    return this.#entries.slice(1);
  }
  /** Entries from {@link ExtTable.save}, given the same ids again. */
  load(entries: readonly ExtEntry[]): void {
    this.#entries = [NONE];
    this.#ids.clear();
    for (const e of entries.slice(0, MAX_EXT_ID)) {
      const key = `${e.underlineColor}\u0000${e.link ?? ""}\u0000${
        e.link === null ? "" : e.linkId
      }\u0000${e.link === null ? 0 : 1}`;
      this.#ids.set(key, this.#entries.length);
      this.#entries.push(Object.freeze({ ...e }));
    }
  }

  /** The entry for `id`; an empty style for 0 or unknown ids. */
  get(id: number): ExtEntry {
    return this.#entries[id] ?? NONE;
  }
}
