/**
 * One echo's way through the server, on one clock (for benchmarks only):
 * with `DOMTERM_ECHO_TRACE=FILE`, each input a window sends starts a record
 * for its session's PTY, and the times of the steps after it are noted: the
 * input's WebSocket message event, its write into the PTY, the poller's
 * wake-up of the PTY's reader, the read, the first send of output on a
 * window's socket after it. The record is appended to FILE as one JSON
 * line once sent, with the longest gap between two ticks of a 1 ms
 * interval meanwhile (how long the main thread's turns were). Times are
 * `performance.timeOrigin + performance.now()` (ms), the clock a client on
 * the same machine reads too (bench/many_sessions_bench.ts `--trace`).
 * Without the variable every hook is a null check.
 *
 * @module
 */

/** The steps of one echo, in ms on the shared clock. */
export interface EchoRecord {
  /** The input's WebSocket message event. */
  message: number;
  /** The input's bytes went into the PTY. */
  write?: number;
  /** The PTY's reader was woken (poller) after the write. */
  ready?: number;
  /** The first read of output after the write. */
  read?: number;
  /** The read loop had the chunk (after the promise turns). */
  loop?: number;
  /** The first output sent on a window's socket after the read. */
  send?: number;
  /** The longest gap between two ticks of the 1 ms probe from message to send (the one under way at the send included: no tick at all, the whole time). */
  maxGap: number;
  /** How many input bytes. */
  bytes: number;
}

function clock(): number {
  return performance.timeOrigin + performance.now();
}

/** The records in progress, by the PTY (or other key) they follow. */
class EchoTrace {
  #open = new Map<object, EchoRecord>();
  #file: string;
  #lastTick = clock();
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(file: string) {
    this.#file = file;
  }

  #tick = () => {
    const t = clock();
    const gap = t - this.#lastTick;
    this.#lastTick = t;
    for (const r of this.#open.values()) r.maxGap = Math.max(r.maxGap, gap);
    if (this.#open.size === 0 && this.#timer !== null) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  };

  /** Input of `bytes` bytes for `key`'s program arrived. */
  input(key: object, bytes: number): void {
    this.#open.set(key, { message: clock(), maxGap: 0, bytes });
    if (this.#timer === null) {
      this.#lastTick = clock();
      this.#timer = setInterval(this.#tick, 1);
    }
  }

  /** Step `step` of `key`'s record, if one is open and the step not yet noted. */
  mark(key: object, step: "write" | "ready" | "read" | "loop"): void {
    const r = this.#open.get(key);
    if (!r) return;
    if (step !== "write" && r.write === undefined) return;
    if (step === "loop" && r.read === undefined) return;
    r[step] ??= clock();
  }

  /** Output for `key` was sent on a socket: the record ends. */
  send(key: object): void {
    const r = this.#open.get(key);
    if (!r || r.read === undefined) return;
    r.send = clock();
    // No tick since the last one: the gap goes on up to now.
    r.maxGap = Math.max(r.maxGap, r.send - Math.max(this.#lastTick, r.message));
    this.#open.delete(key);
    Deno.writeTextFileSync(this.#file, JSON.stringify(r) + "\n", {
      append: true,
    });
  }
}

function make(): EchoTrace | null {
  try {
    const file = Deno.env.get("DOMTERM_ECHO_TRACE");
    return file ? new EchoTrace(file) : null;
  } catch {
    return null; // no --allow-env
  }
}

/** The process's tracer, or null when `DOMTERM_ECHO_TRACE` is not set. */
export const echoTrace: EchoTrace | null = make();
