/**
 * The page's time for panes that are not the focused one (issue 33, cost):
 * their output is processed within a share of the page's time, in turns
 * taken one after another, so that the focused pane's input, its echo and
 * its frames never wait behind them.
 *
 * Why: the page's main thread is shared by every pane of the window. With
 * three panes flooding, each of their sockets' messages ran a slice of
 * parsing as it arrived (up to 8 ms), and about a HIGH_WATER of them per
 * pane (1 MiB in 64 KiB frames) was queued ahead of an echo: key to echo
 * went from 7 ms (the other panes idle) to 590 ms, most of it before the
 * echo's message was even handled (bench/panes_bench.ts). Output of a
 * background pane processed more slowly is acknowledged more slowly, and
 * the server's flow control then reads its program more slowly: nothing is
 * lost, the flood only goes at the pace the page gives it.
 *
 * Pure: the clock and the ways to run later are injected (see
 * {@link BudgetOptions}); `client/connection.ts` uses the page's one
 * {@link backgroundBudget}.
 *
 * @module
 */

/** How a {@link BackgroundBudget} measures and runs its turns. */
export interface BudgetOptions {
  /** Share of the page's time background work may take (0-1). */
  share: number;
  /** The period over which the share is counted, ms. */
  periodMs: number;
  now(): number;
  /** Run `f` in a new task, soon (not a clamped timer). */
  post(f: () => void): void;
  /** Run `f` after `ms`. */
  wait(f: () => void, ms: number): void;
}

interface Turn {
  owner: unknown;
  run: () => void;
}

/** Runs background turns one at a time, within a share of the time. */
export class BackgroundBudget {
  #o: BudgetOptions;
  #turns: Turn[] = [];
  /** Time used by turns since #periodStart. */
  #used = 0;
  #periodStart = -Infinity;
  /** A turn is posted, or a wait for the next period runs. */
  #pending = false;

  constructor(options: BudgetOptions) {
    this.#o = options;
  }

  /** Turns waiting. */
  get waiting(): number {
    return this.#turns.length;
  }

  /** Run `run` (a slice of `owner`'s work) in a turn, within the budget. */
  run(owner: unknown, run: () => void): void {
    this.#turns.push({ owner, run });
    this.#pump();
  }

  /**
   * `owner` became the focused pane: its waiting turns run now, each in a
   * task of its own (`post`), outside the budget.
   */
  promote(owner: unknown): void {
    const mine = this.#turns.filter((t) => t.owner === owner);
    if (mine.length === 0) return;
    this.#turns = this.#turns.filter((t) => t.owner !== owner);
    for (const t of mine) this.#o.post(t.run);
  }

  /** Drop `owner`'s waiting turns (its view went away). */
  forget(owner: unknown): void {
    this.#turns = this.#turns.filter((t) => t.owner !== owner);
  }

  #pump(): void {
    if (this.#pending || this.#turns.length === 0) return;
    const o = this.#o;
    const now = o.now();
    if (now - this.#periodStart >= o.periodMs) {
      this.#periodStart = now;
      this.#used = 0;
    }
    this.#pending = true;
    if (this.#used < o.share * o.periodMs) {
      o.post(this.#turn);
    } else {
      o.wait(() => {
        this.#pending = false;
        this.#pump();
      }, this.#periodStart + o.periodMs - now);
    }
  }

  #turn = () => {
    this.#pending = false;
    const t = this.#turns.shift();
    if (t) {
      const start = this.#o.now();
      t.run();
      this.#used += this.#o.now() - start;
    }
    this.#pump();
  };
}

/** Calls `f` in a new task: a MessageChannel message, which unlike setTimeout is not clamped. */
export function newTask(): (f: () => void) => void {
  const { port1, port2 } = new MessageChannel();
  const due: (() => void)[] = [];
  port1.onmessage = () => due.shift()!();
  return (f) => {
    due.push(f);
    port2.postMessage(null);
  };
}

/**
 * The page's budget for panes not focused: at most 30% of the time, counted
 * over 100 ms (so at most 30 ms of it in a row, in slices of at most
 * BACKGROUND_SLICE_MS).
 */
export const BACKGROUND_SHARE = 0.3;
export const BACKGROUND_PERIOD_MS = 100;
/** Longest slice of a background pane's output processing. */
export const BACKGROUND_SLICE_MS = 4;

let pageBudget: BackgroundBudget | null = null;

/** The page's one budget (made on first use: tests of core code never need it). */
export function backgroundBudget(): BackgroundBudget {
  return pageBudget ??= new BackgroundBudget({
    share: BACKGROUND_SHARE,
    periodMs: BACKGROUND_PERIOD_MS,
    now: () => performance.now(),
    post: newTask(),
    wait: (f, ms) => setTimeout(f, ms),
  });
}
