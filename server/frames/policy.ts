/**
 * What a window that fell behind gets next (docs/protocol.md, "Frames"):
 * the session (server/session.ts) asks {@link nextForBehind} each time such
 * a window acknowledges something (bytes or a frame).
 *
 * A window more than HIGH_WATER behind gets no more output bytes. Once it
 * has processed what it was sent, it gets a frame: a snapshot of the
 * session's model whose history holds only the newest
 * {@link frameHistoryTail} lines (the page keeps the older lines it has
 * when they join up: `Terminal.loadFrame`). At most one frame is in
 * flight: the next is made only when the page acknowledged the last, from
 * the model as it is then, so a slow page or link gets the latest state,
 * never a queue. When nothing came since the last frame it acknowledged,
 * the window is in step again and gets bytes as before; when little came
 * (at most {@link REPLAY_MAX} bytes, and no event of theirs was sent to
 * it), it gets those bytes from the replay log instead of a frame, so its
 * history misses nothing.
 *
 * @module
 */

/** History lines a frame holds beyond the screen. */
export const FRAME_HISTORY = 256;

/** Skipped output small enough to send as bytes rather than a frame. */
export const REPLAY_MAX = 64 * 1024;

/** The history lines of a frame for a grid of `rows` rows. */
export function frameHistoryTail(rows: number): number {
  return rows + FRAME_HISTORY;
}

/** What a window behind is owed, as far as the next step is concerned. */
export interface BehindState {
  /** Output bytes sent to it (its stream offset on the server's side). */
  sent: number;
  /** Of those, the bytes it acknowledged. */
  acked: number;
  /** A frame was sent and not acknowledged yet. */
  frameInFlight: boolean;
  /** A snapshot or frame is being made for it. */
  making: boolean;
  /** `event` messages were sent to it for output it skipped. */
  events: boolean;
}

/** The next step for a window behind: see the module doc. */
export type NextStep = "wait" | "bytes" | "replay" | "frame";

/** The next step for window `w` when the session has read `bytesRead`. */
export function nextForBehind(w: BehindState, bytesRead: number): NextStep {
  if (w.frameInFlight || w.making || w.acked < w.sent) return "wait";
  const skipped = bytesRead - w.sent;
  if (skipped === 0) return "bytes";
  if (!w.events && skipped <= REPLAY_MAX) return "replay";
  return "frame";
}

/**
 * A window whose acknowledgements take at least this long to come back
 * (the least seen, from the last byte sent to the ack that covers all of
 * it) is not on this machine's loopback: a local page answers within
 * ACK_REST_MS (20 ms, client/connection.ts) plus its processing. Its
 * link's rate is then measured before it may have HIGH_WATER in flight.
 */
export const REMOTE_RTT_MS = 60;

/**
 * A remote window whose rate is not known yet has at most this much
 * output in flight (TCP's initial window, scaled up): on a 2 Mbit/s link
 * it drains in a quarter second, so a Ctrl-C right after a flood starts
 * is not stuck behind seconds of bytes already sent.
 */
export const PROBE_WINDOW = 64 * 1024;

/**
 * A remote window may have only this many ms of its measured rate in
 * flight (at least PROBE_WINDOW, at most HIGH_WATER); past that it is fed
 * frames at once (DrainMeter.framesAtOnce). A window whose rate drains
 * HIGH_WATER in more than this is slow. On 2 Mbit/s that is 62 KB.
 */
export const DRAIN_TARGET_MS = 250;

/** Round trips a remote window may hold the program back (see DrainMeter.staleAfter). */
export const STALE_RTTS = 3;

/** ... and at least this long. */
export const STALE_MIN_MS = 300;

/** Output in flight from which the link, not the program, sets the pace. */
const BUSY_MIN = 16 * 1024;

/** Busy time measured before a rate counts. */
const MEASURE_MS = 100;

/** Past this much busy time measured, older samples count half. */
const MEASURE_SPAN_MS = 2000;

/** Sends remembered for round-trip samples (older ones are dropped). */
const SENDS_KEPT = 64;

/**
 * The round trip and rate of one window's link, measured from its
 * acknowledgements (server/session.ts feeds it): the rate only over times
 * when at least BUSY_MIN was in flight throughout (then the window's
 * acks, not the program, set the pace), the round trip as the least time
 * from a send to the ack that covered its last byte (a page acknowledges
 * a quiet stream ACK_REST_MS after it, and a flood every 512 KiB).
 */
export class DrainMeter {
  /** Stream offsets at the end of recent sends, and their times. */
  #ends: number[] = [];
  #times: number[] = [];
  /** Busy since this ack's time; 0: busy, no ack yet; -1: not busy. */
  #busySince = -1;
  #bytes = 0;
  #ms = 0;
  /** Least round trip seen (ms); Infinity before the first. */
  rtt = Infinity;
  /** Known to be on this machine's loopback (server/remote/gate.ts: `direct`): never remote. */
  direct = false;

  /** Output up to stream offset `end` was sent; `lag` is in flight. */
  sent(end: number, lag: number, now: number): void {
    if (this.#ends.length === SENDS_KEPT) {
      this.#ends.shift();
      this.#times.shift();
    }
    this.#ends.push(end);
    this.#times.push(now);
    // Busy from here, but the time until the first ack is a round trip
    // more than draining: the rate is measured from that ack on.
    if (lag >= BUSY_MIN && this.#busySince < 0) this.#busySince = 0;
  }

  /** `bytes` were acknowledged, up to offset `acked`; `lag` is in flight. */
  acked(bytes: number, acked: number, lag: number, now: number): void {
    let sentAt = -1;
    while (this.#ends.length > 0 && this.#ends[0] <= acked) {
      this.#ends.shift();
      sentAt = this.#times.shift()!;
    }
    if (sentAt >= 0) this.rtt = Math.min(this.rtt, now - sentAt);
    if (this.#busySince < 0) return;
    if (this.#busySince > 0) {
      this.#bytes += bytes;
      this.#ms += now - this.#busySince;
    }
    if (this.#ms > MEASURE_SPAN_MS) {
      this.#bytes /= 2;
      this.#ms /= 2;
    }
    this.#busySince = lag >= BUSY_MIN ? now : -1;
  }
  /** Bytes per ms, or null until MEASURE_MS of busy time was measured. */
  get rate(): number | null {
    return this.#ms >= MEASURE_MS ? this.#bytes / this.#ms : null;
  }

  /** Not on loopback: its acks came back no faster than REMOTE_RTT_MS. */
  get remote(): boolean {
    return !this.direct && this.rtt !== Infinity && this.rtt >= REMOTE_RTT_MS;
  }

  /**
   * The most output this window may have in flight, for a session whose
   * allowance is `high` (HIGH_WATER): `high` on loopback (or before any
   * round trip was measured), PROBE_WINDOW on a remote link of unknown
   * rate, else DRAIN_TARGET_MS of its rate.
   */
  limit(high: number): number {
    if (!this.remote) return high;
    const rate = this.rate;
    const probe = Math.min(high, PROBE_WINDOW);
    if (rate === null) return probe;
    return Math.min(high, Math.max(probe, rate * DRAIN_TARGET_MS));
  }

  /**
   * How long this window may hold the program back before it is fed
   * frames, for a session whose wait is `staleMs` (STALE_MS): that on
   * loopback; on a remote link a few round trips (STALE_RTTS), at least
   * STALE_MIN_MS: a probe window not acknowledged by then is not a page
   * that is only briefly behind.
   */
  staleAfter(staleMs: number): number {
    if (!this.remote) return staleMs;
    return Math.min(staleMs, Math.max(STALE_MIN_MS, STALE_RTTS * this.rtt));
  }

  /**
   * Past its limit, this window is fed frames at once instead of holding
   * the program back: any remote one (its acks come a round trip away, so
   * holding the program for it costs the program that long and more while
   * a Ctrl-C gains nothing: the page learns of it a round trip later
   * either way), whether its rate is known yet or not. A loopback window
   * holds the program for up to {@link staleAfter} first.
   */
  framesAtOnce(): boolean {
    return this.remote;
  }

  /**
   * A remote window whose measured rate would take more than
   * DRAIN_TARGET_MS to drain `high`: past its limit it is fed frames at
   * once rather than holding the program back.
   */
  slow(high: number): boolean {
    const rate = this.rate;
    return this.remote && rate !== null && rate * DRAIN_TARGET_MS < high;
  }
}
