/**
 * How a page with several panes shares its main thread between their
 * output (issue 33 §4). Each pane has its own connection and its own
 * time-sliced queue of received output (client/connection.ts). Left to
 * themselves three flooding panes each parsed an 8 ms slice right in every
 * message event and another in a task after it, so the page's main thread
 * ran tasks late by a median 53 ms and the echo of a key in the focused
 * pane waited behind them.
 *
 * Here the focused pane keeps the old way (its messages are parsed at once,
 * in their event), and the others (background) share a budget: together
 * at most {@link BACKGROUND_MS} of work in each {@link PERIOD_MS}, in
 * slices of {@link BACKGROUND_SLICE_MS} taken in turn, never in their
 * message events. Their acks follow their parsing, so the server's flow
 * control holds their programs back (or, past its stale limit, sends them
 * frames of the screen instead): a background pane is still drawn, at a
 * lower rate. With one pane, or before any pane had focus, every pane is
 * in the foreground.
 *
 * Pure apart from the clock and the ways to run later, which the caller
 * gives (tests/client/output_share_test.ts).
 *
 * @module
 */

/** The background panes' work together, at most, in each period (ms). */
export const BACKGROUND_MS = 6;
/** The period of the background budget (ms): about a frame. */
export const PERIOD_MS = 16;
/** A background pane's slice (ms). */
export const BACKGROUND_SLICE_MS = 3;

/** The page's record of its panes' queues: which is in the foreground, and the background's turns. */
export class OutputShare<K> {
  #now: () => number;
  #task: (f: () => void) => void;
  #timer: (f: () => void, ms: number) => void;
  #members = new Set<K>();
  #focused: K | null = null;
  /** Background slices waiting for their turn, in order. */
  #turns: (() => void)[] = [];
  #periodStart = -Infinity;
  #used = 0;
  /** A turn is posted (a task or a timer): one at a time. */
  #posted = false;

  /** `task(f)`: `f` in a new task at once; `timer(f, ms)`: `f` after `ms`. */
  constructor(
    now: () => number,
    task: (f: () => void) => void,
    timer: (f: () => void, ms: number) => void,
  ) {
    this.#now = now;
    this.#task = task;
    this.#timer = timer;
  }

  /** `k` (a pane's connection) shares the page. */
  join(k: K): void {
    this.#members.add(k);
  }

  /** `k` is gone: it holds nobody back any more. */
  leave(k: K): void {
    this.#members.delete(k);
    if (this.#focused === k) this.#focused = null;
  }

  /** `k`'s pane has the focus. */
  focus(k: K): void {
    this.#focused = k;
  }

  /** Whether `k` yields to a focused pane (it is in the background). */
  background(k: K): boolean {
    return this.#focused !== null && this.#focused !== k &&
      this.#members.size > 1;
  }

  /**
   * Run background slice `f` in its turn, within the budget; `f` returns
   * when it is done (it is timed here).
   */
  later(f: () => void): void {
    this.#turns.push(f);
    this.#post();
  }

  #post(): void {
    if (this.#posted || this.#turns.length === 0) return;
    this.#posted = true;
    const now = this.#now();
    if (now - this.#periodStart >= PERIOD_MS) {
      this.#periodStart = now;
      this.#used = 0;
    }
    if (this.#used < BACKGROUND_MS) this.#task(() => this.#run());
    else {
      const wait = this.#periodStart + PERIOD_MS - now;
      this.#timer(() => this.#run(), Math.max(0, wait));
    }
  }

  #run(): void {
    this.#posted = false;
    const f = this.#turns.shift();
    if (!f) return;
    const now = this.#now();
    if (now - this.#periodStart >= PERIOD_MS) {
      this.#periodStart = now;
      this.#used = 0;
    }
    const t0 = now;
    try {
      f();
    } finally {
      this.#used += this.#now() - t0;
      this.#post();
    }
  }
}
