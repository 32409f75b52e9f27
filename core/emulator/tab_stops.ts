/**
 * Horizontal tab stops: one flag per column (the sequences that use and
 * set them are `tabs.ts`).
 *
 * @module
 */

/** Default tab stop interval. */
export const TAB_WIDTH = 8;

/** One flag per column. */
export class TabStops {
  #stops: Uint8Array;

  /** Default stops for a line of `cols` columns. */
  constructor(cols: number) {
    this.#stops = new Uint8Array(cols);
    this.reset();
  }

  /** Stops every {@link TAB_WIDTH} columns (8, 16, ...). */
  reset(): void {
    this.#stops.fill(0);
    for (let x = TAB_WIDTH; x < this.#stops.length; x += TAB_WIDTH) {
      this.#stops[x] = 1;
    }
  }

  /** Keep the stops of existing columns; new columns get default stops. */
  resize(cols: number): void {
    const old = this.#stops;
    if (cols === old.length) return;
    const s = new Uint8Array(cols);
    s.set(old.subarray(0, Math.min(cols, old.length)));
    for (let x = old.length; x < cols; x++) {
      if (x % TAB_WIDTH === 0) s[x] = 1;
    }
    this.#stops = s;
  }

  /** Set a stop at column `x` (HTS). */
  set(x: number): void {
    if (x >= 0 && x < this.#stops.length) this.#stops[x] = 1;
  }
  /** Clear the stop at column `x` (TBC 0). */
  clear(x: number): void {
    if (x >= 0 && x < this.#stops.length) this.#stops[x] = 0;
  }
  /** Clear all stops (TBC 3). */
  clearAll(): void {
    this.#stops.fill(0);
  }
  /** The columns that have a stop (for a snapshot). */
  save(): number[] {
    const out: number[] = [];
    for (let x = 0; x < this.#stops.length; x++) {
      if (this.#stops[x] === 1) out.push(x);
    }
    return out;
  }
  /** Stops exactly at `columns` (from a snapshot; others are ignored). */
  load(columns: readonly number[]): void {
    this.#stops.fill(0);
    for (const x of columns) this.set(x);
  }
  /** True when column `x` has a stop. */
  has(x: number): boolean {
    return this.#stops[x] === 1;
  }

  /** The next stop after `x`, or `limit` when there is none before it. */
  next(x: number, limit: number): number {
    for (let c = x + 1; c < limit; c++) if (this.#stops[c] === 1) return c;
    return limit;
  }
  /** The previous stop before `x`, or `limit` when there is none after it. */
  prev(x: number, limit: number): number {
    for (let c = x - 1; c > limit; c--) if (this.#stops[c] === 1) return c;
    return limit;
  }
}
