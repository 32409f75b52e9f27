/**
 * The session's recent output, kept so that a window that lost its socket
 * can be sent what it missed, from the exact byte it had processed, instead
 * of a whole snapshot. Grid changes are kept in the same order as the
 * bytes, because a window's emulator must resize at the same point of the
 * stream as the server's did.
 *
 * Bounded: past {@link ReplayLog.capacity} bytes the oldest entries go,
 * and a window that is further behind gets a snapshot.
 *
 * @module
 */

import { HIGH_WATER } from "../core/protocol.ts";

/** Output bytes that started at stream offset `offset`. */
export interface ReplayBytes {
  offset: number;
  data: Uint8Array;
}
/**
 * Grid change number `seq` (counted from 1), at stream offset `offset`; a
 * clearing of the history is one too (`clearHistory`, same grid).
 */
export interface ReplayGrid {
  offset: number;
  seq: number;
  cols: number;
  rows: number;
  clearHistory?: true;
  /** The element-event mode goes off here (`GridMessage.eventsOff`). */
  eventsOff?: true;
}
/** One entry of the log. */
export type ReplayEntry = ReplayBytes | ReplayGrid;

/** A log as it travels to the next server: bytes as one block. */
export interface ReplayExport {
  start: number;
  end: number;
  gridSeq: number;
  /** Grid entries, and byte entries as their length in `data`, in order. */
  entries: ({ offset: number; length: number } | ReplayGrid)[];
  data: Uint8Array;
}

/** Default bytes of output kept. */
export const REPLAY_BYTES = 4 * 1024 * 1024;
/**
 * Bytes of output the logs of all the sessions keep together (see
 * {@link ReplayBudget}): up to 8 sessions keep their 4 MiB each, 20 flooded
 * sessions 2 MiB each instead of 80 MB in all.
 */
export const REPLAY_BUDGET = 32 * 1024 * 1024;
/**
 * What a log keeps whatever the number of sessions: twice what a window may
 * have unacknowledged (`HIGH_WATER`), so a window that loses its socket
 * while it keeps up still resumes from the log.
 */
export const REPLAY_FLOOR = 2 * HIGH_WATER;

/**
 * Logs that share a byte budget: each keeps at most its share (the budget
 * over the number of logs, never under the floor) on top of its own
 * capacity. A log that joins trims the others to the new share at once; a
 * window further behind than its log reaches gets a snapshot, as ever.
 */
export class ReplayBudget {
  readonly #logs = new Set<ReplayLog>();

  constructor(
    readonly total: number = REPLAY_BUDGET,
    readonly floor: number = REPLAY_FLOOR,
  ) {}

  /** Bytes each log may keep now. */
  get share(): number {
    return Math.max(
      this.floor,
      Math.floor(this.total / Math.max(1, this.#logs.size)),
    );
  }

  /** `log` shares the budget from now on (see {@link ReplayLog.close}). */
  join(log: ReplayLog): void {
    this.#logs.add(log);
    for (const l of this.#logs) l.trim();
  }

  /** `log` no longer counts. */
  leave(log: ReplayLog): void {
    this.#logs.delete(log);
  }
}

/** The budget the sessions of this server share. */
export const sessionReplays: ReplayBudget = new ReplayBudget();

/** Recent output and grid changes, oldest first. */
export class ReplayLog {
  /** Bytes of output kept at most. */
  readonly capacity: number;
  /** Entries before `#head` are gone (undefined) until the array is compacted. */
  #entries: (ReplayEntry | undefined)[] = [];
  #head = 0;
  #bytes = 0;
  /** The stream offset after the last byte logged. */
  end = 0;
  /** The oldest offset the log can resume from. */
  start = 0;

  /** The budget it shares with the other sessions' logs, if any. */
  #budget: ReplayBudget | null;

  constructor(
    capacity = REPLAY_BYTES,
    start = 0,
    budget: ReplayBudget | null = null,
  ) {
    this.capacity = capacity;
    this.start = this.end = start;
    this.#budget = budget;
    budget?.join(this);
  }

  /** Bytes of output kept at most now: the capacity, or the budget's share. */
  get limit(): number {
    return Math.min(this.capacity, this.#budget?.share ?? Infinity);
  }

  /** Bytes of output kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The session ended (or went to another server): leave the budget. */
  close(): void {
    this.#budget?.leave(this);
    this.#budget = null;
  }

  /** Output bytes that were just read (they continue at {@link ReplayLog.end}). */
  pushBytes(data: Uint8Array): void {
    this.#entries.push({ offset: this.end, data });
    this.end += data.length;
    this.#bytes += data.length;
    this.trim();
  }

  /** Let the oldest entries go until the log is within {@link limit}. */
  trim(): void {
    const limit = this.limit;
    while (this.#bytes > limit && this.#head < this.#entries.length) {
      const e = this.#entries[this.#head]!;
      // Let it go now, not at the next compaction: in a flood the slots
      // before the head would keep up to 1,024 reads (64 MiB) alive.
      this.#entries[this.#head++] = undefined;
      if ("data" in e) {
        this.#bytes -= e.data.length;
        this.start = e.offset + e.data.length;
      } else {
        this.start = e.offset;
      }
    }
    // Compact the array now and then rather than shifting per entry.
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Grid changes logged so far (the last one's `seq`). */
  gridSeq = 0;

  /**
   * The grid changed (or the history was cleared, or the element-event
   * mode went off) here; returns the change's number.
   */
  pushGrid(
    cols: number,
    rows: number,
    clearHistory = false,
    eventsOff = false,
  ): number {
    const seq = ++this.gridSeq;
    const e: ReplayGrid = { offset: this.end, seq, cols, rows };
    if (clearHistory) e.clearHistory = true;
    if (eventsOff) e.eventsOff = true;
    this.#entries.push(e);
    return seq;
  }

  /**
   * Everything the log holds, for the next server (`domterm
   * restart-server`): its bytes as one block, its entries pointing into it.
   */
  export(): ReplayExport {
    const entries: ReplayExport["entries"] = [];
    const parts: Uint8Array[] = [];
    let length = 0;
    for (let i = this.#head; i < this.#entries.length; i++) {
      const e = this.#entries[i]!;
      if ("data" in e) {
        entries.push({ offset: e.offset, length: e.data.length });
        parts.push(e.data);
        length += e.data.length;
      } else entries.push(e);
    }
    const data = new Uint8Array(length);
    let at = 0;
    for (const p of parts) {
      data.set(p, at);
      at += p.length;
    }
    return {
      start: this.start,
      end: this.end,
      gridSeq: this.gridSeq,
      entries,
      data,
    };
  }

  /** A log as {@link ReplayLog.export} gave it (in another server). */
  static restore(
    capacity: number,
    x: ReplayExport,
    budget: ReplayBudget | null = null,
  ): ReplayLog {
    const log = new ReplayLog(capacity, x.start);
    let at = 0;
    for (const e of x.entries) {
      if ("length" in e) {
        log.#entries.push({
          offset: e.offset,
          data: x.data.subarray(at, at + e.length),
        });
        log.#bytes += e.length;
        at += e.length;
      } else log.#entries.push(e);
    }
    log.end = x.end;
    log.gridSeq = x.gridSeq;
    if (budget) {
      log.#budget = budget;
      budget.join(log);
    }
    return log;
  }

  /**
   * The output bytes logged from `offset` (or from the oldest kept, when
   * that is later) to the end, in order.
   */
  bytesFrom(offset: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let i = this.#head; i < this.#entries.length; i++) {
      const e = this.#entries[i]!;
      if (!("data" in e) || e.offset + e.data.length <= offset) continue;
      out.push(
        e.offset >= offset ? e.data : e.data.subarray(offset - e.offset),
      );
    }
    return out;
  }

  /**
   * What a window that processed the stream up to `offset` and grid change
   * `gridSeq` has not seen, or null when the log no longer reaches back
   * that far (or the window claims what never was).
   */
  since(offset: number, gridSeq: number): ReplayEntry[] | null {
    if (offset < this.start || offset > this.end || gridSeq > this.gridSeq) {
      return null;
    }
    const out: ReplayEntry[] = [];
    for (let i = this.#head; i < this.#entries.length; i++) {
      const e = this.#entries[i]!;
      if ("data" in e) {
        const endOf = e.offset + e.data.length;
        if (endOf <= offset) continue;
        out.push(
          e.offset >= offset
            ? e
            : { offset, data: e.data.subarray(offset - e.offset) },
        );
      } else if (e.seq > gridSeq) {
        // Seen bytes past an unseen grid change: not a stream we sent.
        if (e.offset < offset) return null;
        out.push(e);
      }
    }
    // Grid changes older than the log: the window missed them.
    if (
      gridSeq < this.gridSeq &&
      !out.some((e) => "seq" in e && e.seq === gridSeq + 1)
    ) {
      return null;
    }
    return out;
  }
}
