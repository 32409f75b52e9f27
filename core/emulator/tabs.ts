/**
 * Horizontal tab stops (HTS, TBC, HT, CHT, CBT).
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { cursorLine, index, lastColumn, lineStart } from "./cursor.ts";
import { PLAIN_FLAG_MODES, plainFlag } from "./modes.ts";
import { count } from "./params.ts";
import type { TerminalState } from "./state.ts";

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

// ------------------------------------------------------------ handlers

/** Forward `n` tab stops, not past the right margin (or the edge when right of it). */
export function tab(s: TerminalState, n: number): void {
  const limit = lastColumn(s, s.x <= s.right ? s.right : s.cols - 1);
  for (let k = 0; k < n && s.x < limit; k++) s.x = s.tabs.next(s.x, limit);
  // Like xterm, HT and CHT keep a pending wrap (the cursor cannot move on
  // from the last column then): the next character still wraps.
}

/** Back `n` tab stops, not past the line start. */
export function backTab(s: TerminalState, n: number): void {
  const start = 0; // as xterm: CBT ignores the left margin
  for (let k = 0; k < n && s.x > start; k++) s.x = s.tabs.prev(s.x, start);
  s.wrapPending = false;
}

/** Index of xterm's more(1) fix (?41) among the plain flags. */
const MORE_FIX = PLAIN_FLAG_MODES.findIndex((m) => m[0] === 41);

/**
 * HT: to the next tab stop. With xterm's more(1) fix (?41) a pending wrap
 * is done first (the line is marked wrapped, as a printed character would
 * do it), so the tab lands on the next line, not at the right margin.
 */
export function ht(t: Emulator): void {
  const s = t.s;
  if (s.wrapPending && s.modes.autowrap && plainFlag(s.modes, MORE_FIX)) {
    const line = cursorLine(s);
    line.wrapped = true;
    line.dirty = true;
    s.x = lineStart(s);
    index(s);
  }
  tab(s, 1);
}
/** `CSI Ps I` CHT: forward Ps tab stops. */
export function cht(t: Emulator, p: Params): void {
  tab(t.s, Math.min(count(p, 0), t.s.cols));
}
/** `CSI Ps Z` CBT: back Ps tab stops. */
export function cbt(t: Emulator, p: Params): void {
  backTab(t.s, Math.min(count(p, 0), t.s.cols));
}
/** `ESC H` HTS / C1 0x88: set a tab stop at the cursor column. */
export function hts(t: Emulator): void {
  t.s.tabs.set(t.s.x);
}
/** `CSI Ps g` TBC: 0 clears the stop at the cursor, 3 all stops. */
export function tbc(t: Emulator, p: Params): void {
  const v = p.get(0, 0);
  if (v === 0) t.s.tabs.clear(t.s.x);
  else if (v === 3) t.s.tabs.clearAll();
}
/** `CSI ? 5 W` DECST8C: tab stops every 8 columns. */
export function decst8c(t: Emulator, p: Params): void {
  if (p.get(0, 0) === 5) t.s.tabs.reset();
}
