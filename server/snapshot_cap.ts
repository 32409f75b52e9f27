/**
 * A session's snapshot as the JSON text sent to a window, within a size
 * cap: past it, the oldest history lines are left out (and counted), so a
 * window never gets more than the cap however much history or embedded
 * data the session holds.
 *
 * @module
 */
import type { Terminal } from "../core/emulator/terminal.ts";

/** Largest snapshot sent, in JSON characters. */
export const MAX_SNAPSHOT_CHARS = 64 * 1024 * 1024;

/**
 * The JSON of `term`'s snapshot (with at most `historyTail` history lines),
 * and how many history lines the cap left out.
 */
export function capSnapshot(
  term: Terminal,
  max = MAX_SNAPSHOT_CHARS,
  historyTail = Infinity,
): { json: string; droppedLines: number } {
  const snap = term.snapshot(historyTail);
  let json = JSON.stringify(snap);
  let dropped = 0;
  const lines = snap.normal.lines;
  const history = lines.length - snap.rows;
  // Halve the history kept until it fits (the screen is always kept).
  let keep = history;
  while (json.length > max && keep > 0) {
    keep = Math.floor(keep / 2);
    const cut = history - keep - dropped;
    lines.splice(0, cut);
    snap.normal.trimmed += cut;
    dropped += cut;
    json = JSON.stringify(snap);
  }
  return { json, droppedLines: dropped };
}
