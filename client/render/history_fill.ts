/**
 * Drawing the dormant history of the normal grid (docs/renderer.md): the
 * chunks that came near the view (an IntersectionObserver) at the next
 * frame, unless output floods in; and in idle time the rest, as rows near
 * the end and as text elsewhere, then the far drawn chunks turned back into
 * text. When idle work runs is client/render/frame_scheduler.ts's
 * business; this is what it does.
 *
 * @module
 */
import type { BufferView } from "../../core/terminal_view.ts";
import type { RowPainter } from "../style_runs.ts";
import { MAX_DRAWN_CHUNKS, type RowGrid } from "./row_grid.ts";

/** Idle work draws dormant history for at most this long per idle callback. */
const IDLE_FILL_MS = 8;

/**
 * Drawn chunks away from the end beyond MAX_DRAWN_CHUNKS that a frame lets
 * pass before it turns the far ones back into text itself: output that
 * never pauses for the idle time (a log at 80 KB/s) draws every line as
 * rows, and without this they stayed rows up to the scrollback (issue 37:
 * a renderer at 610-660 MB PSS after 10 minutes; 10,000 rows of about 10
 * nodes each). Every this many chunks (64 lines each), one frame pays for
 * turning them to text (their lines' text and one text node each).
 */
const FRAME_DEMOTE_SLACK = 4;

/** Where the view is, for turning far chunks back into text. */
export interface ViewPlace {
  /** The row the view is at. */
  view: number;
  /** The selection's range (chunks it touches stay drawn), or null. */
  selection: Range | null;
}

/** Fills the dormant chunks of `grid`. */
export class HistoryFill {
  /** Dormant chunks of the grid that came into view. */
  #wanted = new Set<Element>();
  /** Far chunks were turned back to text since the view last moved. */
  #demoted = false;

  /** `schedule` asks for a frame (a dormant chunk came into view). */
  constructor(
    readonly grid: RowGrid,
    readonly painter: RowPainter,
    readonly schedule: () => void,
  ) {}

  /** The IntersectionObserver's callback for the grid's dormant chunks. */
  onNear = (entries: IntersectionObserverEntry[]) => {
    for (const e of entries) {
      if (
        e.isIntersecting && this.grid.dormant.has(e.target as HTMLElement)
      ) {
        this.#wanted.add(e.target);
        this.schedule();
      }
    }
  };

  /** The view moved or lines came: far chunks may go back to text again. */
  viewMoved(): void {
    this.#demoted = false;
  }

  /** Drawn chunks away from the end when a frame last turned some to text. */
  #keptDrawn = 0;

  /**
   * In a frame, right after the grid's sync: when more than
   * MAX_DRAWN_CHUNKS + FRAME_DEMOTE_SLACK chunks away from the end are
   * drawn (and FRAME_DEMOTE_SLACK more than a frame could not turn
   * before: a selection, marks or the view hold them), turn the far ones
   * back into text now rather than in idle time, which steady output
   * never leaves.
   */
  bound(buf: BufferView, place: () => ViewPlace): void {
    const drawn = this.grid.drawnAway();
    if (drawn < this.#keptDrawn) this.#keptDrawn = drawn;
    const limit = Math.max(MAX_DRAWN_CHUNKS, this.#keptDrawn) +
      FRAME_DEMOTE_SLACK;
    if (drawn <= limit) return;
    const { view, selection } = place();
    this.#keptDrawn = drawn - this.grid.demote(buf, view, selection);
  }

  /** Whether idle work is left. */
  get idleWanted(): boolean {
    return this.grid.undrawn || !this.#demoted;
  }

  /**
   * In a frame, right after the grid's sync: draw the chunks that came into
   * view. In a flood, chunks near the view come and go every frame
   * (trimmed soon): they wait for a quiet moment; scrolled back, showRange
   * draws what is in view meanwhile.
   */
  drawWanted(buf: BufferView, flooding: boolean): void {
    if (this.#wanted.size > 0 && !flooding) {
      this.grid.fillDormant(buf, this.painter, this.#wanted);
      this.#wanted.clear();
    } else {
      for (const c of this.#wanted) {
        if (!this.grid.dormant.has(c as HTMLElement)) this.#wanted.delete(c);
      }
    }
  }

  /**
   * Idle work, right after the grid's sync: draw dormant chunks within
   * `deadline`'s time (those in view first, then newest first), and once
   * none is left, turn the drawn ones far from `place()` back into text.
   * Returns true if chunks near the end or the view were drawn as rows.
   */
  idleFill(
    buf: BufferView,
    deadline: IdleDeadline,
    place: () => ViewPlace,
  ): boolean {
    const budget = Math.min(IDLE_FILL_MS, deadline.timeRemaining());
    const near = this.grid.fillDormant(
      buf,
      this.painter,
      this.#wanted,
      performance.now() + budget,
    );
    this.#wanted.clear();
    if (!this.grid.undrawn && !this.#demoted) {
      const { view, selection } = place();
      this.grid.demote(buf, view, selection);
      // Until the view moves or lines come: what stayed drawn stays.
      this.#demoted = true;
    }
    return near;
  }
}
