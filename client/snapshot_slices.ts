/**
 * A large snapshot is loaded in slices, the newest first, so that the
 * page never stops drawing for it (docs/protocol.md, "Frames"): the
 * screen and the newest {@link FIRST_HISTORY} history lines at once, then
 * older lines read per animation frame ({@link SLICE_LINES} at a time, for
 * up to {@link SLICE_BUDGET_MS} of the frame), put above the
 * history in one go once all are read (`Terminal.prependHistory`). Output that comes
 * meanwhile is parsed as usual; a slice that no longer joins up (the
 * history was cleared, or trimmed past it) ends the loading, as the
 * server's own model lost those lines too. A width change first loads the
 * rest at once ({@link HistorySlices.finishNow}): the server's model
 * reflows all of its history.
 *
 * @module
 */
import type { Terminal } from "../core/emulator/terminal.ts";
import type { Line } from "../core/model/line.ts";
import {
  readNormalLines,
  readSnapshotExt,
  type TerminalSnapshot,
} from "../core/serialize/snapshot.ts";

/** History lines loaded with the screen. */
export const FIRST_HISTORY = 256;
/** History lines read at a time after that. */
export const SLICE_LINES = 1000;
/**
 * Time an animation frame spends reading slices (at least one slice). At
 * one slice per frame a 50,000-line history took 50 frames, seconds on a
 * busy page, during which the history was missing its older part.
 */
export const SLICE_BUDGET_MS = 6;
/** A slice waits at most this long for an animation frame (a hidden page draws none). */
const SLICE_WAIT_MS = 100;

/**
 * `snap` cut to its screen and newest history lines when it holds more
 * than a slice beyond them, and how many older lines were cut (0: `snap`
 * itself).
 */
export function firstPart(
  snap: TerminalSnapshot,
): { first: TerminalSnapshot; older: number } {
  const lines = snap.normal.lines;
  const older = Math.max(0, lines.length - snap.rows - FIRST_HISTORY);
  if (older < SLICE_LINES) return { first: snap, older: 0 };
  return {
    first: {
      ...snap,
      normal: {
        ...snap.normal,
        trimmed: snap.normal.trimmed + older,
        lines: lines.slice(older),
      },
    },
    older,
  };
}

/** Loads the `older` history lines {@link firstPart} cut from `snap`, a slice per animation frame. */
export class HistorySlices {
  #next: number;
  #done = false;

  constructor(
    readonly term: Terminal,
    readonly snap: TerminalSnapshot,
    older: number,
    readonly onSlice: () => void,
  ) {
    this.#next = older;
    this.#schedule();
  }

  /** True while lines are left to load. */
  get loading(): boolean {
    return !this.#done;
  }

  /**
   * Read the rest at once and put it in: before a width change, which
   * reflows the history (the server's model reflows every line it has;
   * lines still waiting here would be lost to the page).
   */
  finishNow(): void {
    if (this.#done) return;
    if (this.term.cols !== this.snap.cols) return this.cancel();
    try {
      if (this.#next > 0) {
        this.#read.unshift(readNormalLines(this.snap, 0, this.#next));
        this.#next = 0;
      }
    } catch {
      // A malformed line: the history stops at the last good slice.
    }
    this.#finish();
  }

  /** Stop (another snapshot replaces the model). */
  cancel(): void {
    this.#done = true;
  }

  #schedule(): void {
    let ran = false;
    const run = () => {
      if (ran) return;
      ran = true;
      clearTimeout(timer);
      this.#step();
    };
    const timer = setTimeout(run, SLICE_WAIT_MS);
    requestAnimationFrame(run);
  }

  #step(): void {
    if (this.#done) return;
    const { term, snap } = this;
    if (term.cols !== snap.cols) {
      this.#done = true;
      return;
    }
    // Read slices for up to SLICE_BUDGET_MS of this animation frame (the
    // costly part), newest first; put them all in at the end, in one go
    // (one redraw, not one per slice: a redraw starts from empty rows).
    const start = performance.now();
    do {
      const to = this.#next, from = Math.max(0, to - SLICE_LINES);
      try {
        this.#read.unshift(readNormalLines(snap, from, to));
      } catch {
        // A malformed line: the history stops at the last good slice.
        this.#finish();
        return;
      }
      this.#next = from;
    } while (
      this.#next > 0 && performance.now() - start < SLICE_BUDGET_MS
    );
    if (this.#next === 0) this.#finish();
    else this.#schedule();
  }

  /** Slices read so far, oldest first. */
  #read: Line[][] = [];

  #finish(): void {
    this.#done = true;
    const lines = this.#read.flat();
    this.#read = [];
    const end = this.snap.normal.trimmed + this.#next + lines.length;
    // Their ids are the snapshot's: output parsed since may have freed
    // and reused some (core/emulator/ext_sweep.ts).
    let ext;
    try {
      ext = readSnapshotExt(this.snap);
    } catch {
      return;
    }
    if (this.term.prependHistory(lines, end, ext) > 0) this.onSlice();
  }
}
