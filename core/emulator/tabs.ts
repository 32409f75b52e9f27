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
