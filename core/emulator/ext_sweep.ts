/**
 * Reclaiming extended-style ids (see `ext_table.ts`): the sweep that finds
 * the ids still held, and the remapping of lines that move from one
 * terminal's table to another's.
 *
 * What holds ids: the ATTR word of cells (both screens and the history,
 * packed lines' style runs included), the pen's ATTR word, and the styles
 * of DomTerm pretty-printed documents (the one being collected and those
 * rows keep for reflow). A saved cursor keeps its pen and link, not an id:
 * restoring it interns them again.
 *
 * @module
 */
import type { Line } from "../model/line.ts";
import { mapLineExtAttrs } from "../model/line_ops.ts";
import type { ExtTable } from "./ext_table.ts";
import type { Block, RunStyle } from "./pretty_print.ts";
import type { TerminalState } from "./state.ts";

/**
 * Sweep `s.ext`: keep the entries something in `s` holds, newest first
 * (the pen, the document being pretty-printed, the alternate screen, the
 * normal screen, then its history from the bottom up), free the others.
 * When more are held than the table keeps, the oldest cells lose theirs
 * (see {@link ExtTable.sweep}). Costs a pass over the cells held (the
 * written part of each line; a packed line's style runs): `penAttr` runs
 * it only when the table reached its limit, which doubles with what it
 * keeps.
 */
export function sweepExt(s: TerminalState): void {
  s.ext.sweep((keep) => {
    if (s.attr >>> 16 !== 0) s.attr = keep(s.attr);
    if (s.pretty !== null) mapBlockAttrs(s.pretty.root, keep, null);
    const onLine = (line: Line) => {
      const p = line.extras?.pretty;
      if (p !== undefined) mapBlockAttrs(p.source as Block, keep, null);
    };
    s.alt.buffer.mapExtAttrs(keep, onLine);
    s.normal.buffer.mapExtAttrs(keep, onLine);
  });
}

/**
 * Give `lines`, whose ATTR words hold ids of `from`, the ids of `to` for
 * the same entries (new ones interned without a sweep; 0 when `to` is
 * full): lines a frame or a snapshot's older history brings in beside
 * lines made with another table. Nothing changes where the ids agree.
 */
export function remapExtIds(
  lines: readonly Line[],
  from: ExtTable,
  to: ExtTable,
): void {
  if (from === to) return;
  const ids = new Map<number, number>();
  const visit = (a: number): number => {
    const id = a >>> 16;
    let n = ids.get(id);
    if (n === undefined) {
      const e = from.get(id);
      n = to.intern(e.underlineColor, e.link, e.linkId, false);
      ids.set(id, n);
    }
    return n === id ? a : ((a & 0xffff) | n << 16) >>> 0;
  };
  const seen = new Set<RunStyle>();
  for (const line of lines) {
    mapLineExtAttrs(line, visit);
    const p = line.extras?.pretty;
    if (p !== undefined) mapBlockAttrs(p.source as Block, visit, seen);
  }
}

/**
 * Pass the ATTR word of every style in a pretty-printed document that has
 * an id to `visit` and store what it returns. `seen`, when given, holds
 * the styles done already (shared ones are changed once).
 */
function mapBlockAttrs(
  root: Block,
  visit: (attr: number) => number,
  seen: Set<RunStyle> | null,
): void {
  const map = (st: RunStyle) => {
    if (st.attr >>> 16 === 0 || seen?.has(st)) return;
    seen?.add(st);
    const a = st.attr >>> 0, b = visit(a);
    if (b !== a) st.attr = b | 0; // signed, as the pen's ATTR word is
  };
  const stack: Block[] = [root];
  for (let b = stack.pop(); b !== undefined; b = stack.pop()) {
    map(b.style);
    for (const item of b.items) {
      if (item.t === "block") stack.push(item);
      else if (item.t !== "indent") map(item.style);
    }
  }
}
