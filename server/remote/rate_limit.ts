/**
 * Failed logins per client address: after `freeFailures` failures in a
 * row, each further attempt must wait, twice as long after every failure
 * (capped). A success clears the address.
 *
 * @module
 */

/** Limiter settings (milliseconds). */
export interface RateLimitOptions {
  /** Failures allowed before any wait (default 5). */
  freeFailures?: number;
  /** The first wait (default 1 s). */
  baseDelayMs?: number;
  /** The longest wait (default 15 min). */
  maxDelayMs?: number;
  /** Addresses tracked at most; the oldest is forgotten first (default 10000). */
  maxEntries?: number;
}

interface Entry {
  failures: number;
  /** No attempt before this time (ms since the epoch). */
  blockedUntil: number;
}

/** Per-address login back-off. */
export class LoginRateLimiter {
  #entries = new Map<string, Entry>();
  #free: number;
  #base: number;
  #max: number;
  #maxEntries: number;

  constructor(options: RateLimitOptions = {}) {
    this.#free = options.freeFailures ?? 5;
    this.#base = options.baseDelayMs ?? 1000;
    this.#max = options.maxDelayMs ?? 15 * 60_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** Milliseconds `address` must still wait before it may try (0: now). */
  retryAfterMs(address: string, now = Date.now()): number {
    const e = this.#entries.get(address);
    if (!e) return 0;
    return Math.max(0, e.blockedUntil - now);
  }

  /** Count a failed login of `address`. */
  fail(address: string, now = Date.now()): void {
    const e = this.#entries.get(address) ?? { failures: 0, blockedUntil: 0 };
    this.#entries.delete(address); // re-insert: newest last
    e.failures++;
    if (e.failures >= this.#free) {
      const doublings = Math.min(e.failures - this.#free, 30);
      e.blockedUntil = now + Math.min(this.#max, this.#base * 2 ** doublings);
    }
    this.#entries.set(address, e);
    while (this.#entries.size > this.#maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  /** A successful login of `address`: its failures are forgotten. */
  succeed(address: string): void {
    this.#entries.delete(address);
  }
}
