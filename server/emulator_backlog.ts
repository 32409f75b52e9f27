/**
 * The output a session's emulator was given and has not parsed yet, and the
 * read loop waiting for it to come down: shared by both places a session's
 * emulator runs (`emulator_host.ts`, its own thread; `emulator_local.ts`,
 * the main thread).
 *
 * @module
 */

/**
 * Output posted to a session's emulator and not yet parsed, at most this
 * many bytes: past it the session stops reading the PTY until the emulator
 * is down to {@link EMULATOR_LOW}. Without it a session no window holds
 * back (a detached one, say) would queue a flood here faster than the
 * emulator parses it.
 */
export const EMULATOR_HIGH = 16 << 20;
/** See {@link EMULATOR_HIGH}. */
export const EMULATOR_LOW = 4 << 20;
/**
 * All the emulators of the process together, at most about this many
 * bytes not parsed yet: past it, a session whose own backlog is over
 * {@link SHARE_HIGH} stops reading too, until the total is down to
 * {@link SHARED_LOW} or its own backlog to {@link SHARE_LOW}. Each
 * session's {@link EMULATOR_HIGH} alone let 200 floods of 1.3 MB each
 * (bench/many_sessions_bench.ts) be read and queued whole, as fast as the
 * main thread could read, while the emulator thread parsed far behind: the
 * main thread was never idle for an echo, and the queue grew with the
 * number of sessions.
 */
export const SHARED_HIGH = 32 << 20;
/** See {@link SHARED_HIGH}. */
export const SHARED_LOW = 16 << 20;
/**
 * A session with at most this much not parsed never waits for the others'
 * (see {@link SHARED_HIGH}): an echo, a prompt, a session that just began
 * to flood.
 */
export const SHARE_HIGH = 256 << 10;
/** See {@link SHARED_HIGH}. */
export const SHARE_LOW = 64 << 10;

/** The bytes not parsed yet of every emulator of the process. */
let total = 0;
/** The backlogs whose writer waits (see {@link EmulatorBacklog.drained}). */
const waiting = new Set<EmulatorBacklog>();

/** The bytes not parsed yet of every emulator of the process (tests, benchmarks). */
export function sharedBacklog(): number {
  return total;
}

/** Bytes given to one emulator and not parsed yet. */
export class EmulatorBacklog {
  #bytes = 0;
  #drained: (() => void) | null = null;

  /** Bytes written and not parsed yet. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Whether the writer should stop until {@link drained}: this backlog is
   * over {@link EMULATOR_HIGH}, or all of them together over
   * {@link SHARED_HIGH} and this one over {@link SHARE_HIGH}.
   */
  get over(): boolean {
    return this.#bytes > EMULATOR_HIGH ||
      (total > SHARED_HIGH && this.#bytes > SHARE_HIGH);
  }

  /** Whether a waiting writer may go on (the low marks of {@link over}). */
  get low(): boolean {
    return this.#bytes <= EMULATOR_LOW &&
      (total <= SHARED_LOW || this.#bytes <= SHARE_LOW);
  }

  /** `n` more bytes were handed to the emulator. */
  add(n: number): void {
    this.#bytes += n;
    total += n;
  }

  /** The emulator parsed `n` bytes. */
  parsed(n: number): void {
    const m = Math.min(n, this.#bytes);
    this.#bytes -= m;
    total -= m;
    this.#wakeLow();
  }

  /** Nothing more will be parsed (closed, or the emulator failed). */
  clear(): void {
    total -= this.#bytes;
    this.#bytes = 0;
    this.#wake();
    this.#wakeLow();
  }

  /** Wake this writer if it may go on, and every other if the total is low. */
  #wakeLow(): void {
    if (this.low) this.#wake();
    if (total <= SHARED_LOW && waiting.size > 0) {
      for (const b of [...waiting]) if (b.low) b.#wake();
    }
  }

  /**
   * Resolves once the writer may go on: this backlog down to
   * {@link EMULATOR_LOW}, and the total down to {@link SHARED_LOW} or this
   * one to {@link SHARE_LOW}; at once when it is, or when `gone` (the
   * emulator is closed or failed).
   */
  drained(gone: boolean): Promise<void> {
    if (this.low || gone) return Promise.resolve();
    waiting.add(this);
    return new Promise((r) => {
      const before = this.#drained;
      this.#drained = () => {
        before?.();
        r();
      };
    });
  }

  #wake(): void {
    waiting.delete(this);
    const d = this.#drained;
    this.#drained = null;
    d?.();
  }
}
