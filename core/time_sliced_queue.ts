/**
 * Work done in order, in time slices: output handed on in pieces, and tasks
 * run between them, for at most a slice's time before the caller's event
 * loop gets a turn (input, I/O, drawing) and the queue goes on in a later
 * task. Used by the page for the frames from the server
 * (`client/connection.ts`) and by the server for the sessions' emulators on
 * its main thread (`server/main_thread_emulator.ts`).
 *
 * Pure: the clock and the way to run later are the caller's
 * ({@link TimeSlicedQueueOptions}). The callbacks must not throw (the
 * server's emulators catch their own errors): a throw ends the slice and
 * leaves the queue stopped, with the work after it undone.
 *
 * @module
 */

/** How a {@link TimeSlicedQueue} works and what it hands work to. */
export interface TimeSlicedQueueOptions<O> {
  /** Longest slice of work before the queue yields, ms (it checks after each piece or task). */
  sliceMs: number;
  /** Output is handed on in pieces of at most this many bytes. */
  pieceBytes: number;
  /** The clock, ms. */
  now(): number;
  /**
   * Call `slice` in a later task, once the event loop had a turn. Not a
   * clamped timer (nested `setTimeout(0)` waits 4 ms): the queue would sit
   * idle much of a flood.
   */
  later(slice: () => void): void;
  /**
   * Hand on `piece` (at most `pieceBytes` of output `owner` pushed, in
   * order); returns how many of its bytes were taken. Fewer: the rest is
   * offered again next. None of a non-empty piece pauses the queue.
   */
  take(piece: Uint8Array, owner: O): number;
  /** A piece of work `owner` pushed is done: its output all taken, or its task run. */
  done?(owner: O): void;
  /** The queue stopped: it ran dry, or it was paused. */
  stopped?(): void;
  /**
   * A push to a queue with nothing to do runs its first slice at once, in
   * the caller's task, rather than in a later one.
   */
  eager?: boolean;
}

interface Work<O> {
  owner: O;
  /** Output to hand on, or null for `run`. */
  data: Uint8Array | null;
  run: (() => void) | null;
}

/** A queue of output and tasks, worked through in time slices (see the module comment). */
export class TimeSlicedQueue<O = null> {
  #o: TimeSlicedQueueOptions<O>;
  #work: Work<O>[] = [];
  /** Index of the first piece of work not done. */
  #head = 0;
  /** Bytes of the first piece of work's output already taken. */
  #taken = 0;
  /** A slice runs or is due. */
  #scheduled = false;
  #paused = false;
  #slice = () => this.#runSlice();

  constructor(options: TimeSlicedQueueOptions<O>) {
    this.#o = options;
  }

  /** Pieces of work not done yet. */
  get length(): number {
    return this.#work.length - this.#head;
  }

  /** Whether the queue is paused (see {@link pause}). */
  get paused(): boolean {
    return this.#paused;
  }

  /** Queue `data` to be handed on (in pieces) to `take`; it must not change meanwhile. */
  pushData(data: Uint8Array, owner: O): void {
    this.#push({ owner, data, run: null });
  }

  /** Queue `run` to be called once what was pushed before it is done. */
  pushTask(run: () => void, owner: O): void {
    this.#push({ owner, data: null, run });
  }

  /** Hand nothing more on until {@link resume}; a slice under way ends after its current piece. */
  pause(): void {
    this.#paused = true;
  }

  /** Go on after {@link pause}, in a later task. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    if (!this.#scheduled && this.length > 0) {
      this.#scheduled = true;
      this.#o.later(this.#slice);
    }
  }

  #push(w: Work<O>): void {
    this.#work.push(w);
    // Already running or about to: the new work waits its turn.
    if (this.#scheduled) return;
    this.#scheduled = true;
    if (this.#o.eager) this.#runSlice();
    else this.#o.later(this.#slice);
  }

  /**
   * Work until the queue is empty or paused, or the slice is used up: then
   * go on in a later task.
   */
  #runSlice(): void {
    const o = this.#o;
    const work = this.#work;
    const end = o.now() + o.sliceMs;
    while (this.#head < work.length && !this.#paused) {
      const w = work[this.#head];
      if (w.data === null) {
        this.#shift();
        w.run!();
        o.done?.(w.owner);
      } else {
        const data = w.data;
        const from = this.#taken;
        const to = Math.min(data.length, from + o.pieceBytes);
        const piece = from === 0 && to === data.length
          ? data
          : data.subarray(from, to);
        const n = Math.max(0, Math.min(to - from, o.take(piece, w.owner)));
        if (n === 0 && to > from) this.#paused = true;
        this.#taken = from + n;
        if (this.#taken === data.length) {
          this.#shift();
          o.done?.(w.owner);
        }
      }
      if (this.#head < work.length && !this.#paused && o.now() >= end) {
        this.#compact();
        o.later(this.#slice);
        return;
      }
    }
    this.#compact();
    this.#scheduled = false;
    o.stopped?.();
  }

  /** The first piece of work is done. */
  #shift(): void {
    this.#work[this.#head++] = undefined as never;
    this.#taken = 0;
  }

  /** Let go of the work done. */
  #compact(): void {
    if (this.#head === this.#work.length) {
      this.#work.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024) {
      this.#work.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
