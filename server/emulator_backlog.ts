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

/** Bytes given to one emulator and not parsed yet. */
export class EmulatorBacklog {
  #bytes = 0;
  #drained: (() => void) | null = null;

  /** Bytes written and not parsed yet. */
  get bytes(): number {
    return this.#bytes;
  }

  /** `n` more bytes were handed to the emulator. */
  add(n: number): void {
    this.#bytes += n;
  }

  /** The emulator parsed `n` bytes. */
  parsed(n: number): void {
    this.#bytes = Math.max(0, this.#bytes - n);
    if (this.#bytes <= EMULATOR_LOW) this.#wake();
  }

  /** Nothing more will be parsed (closed, or the emulator failed). */
  clear(): void {
    this.#bytes = 0;
    this.#wake();
  }

  /**
   * Resolves once the backlog is down to {@link EMULATOR_LOW}: at once when
   * it is, or when `gone` (the emulator is closed or failed).
   */
  drained(gone: boolean): Promise<void> {
    if (this.#bytes <= EMULATOR_LOW || gone) return Promise.resolve();
    return new Promise((r) => {
      const before = this.#drained;
      this.#drained = () => {
        before?.();
        r();
      };
    });
  }

  #wake(): void {
    const d = this.#drained;
    this.#drained = null;
    d?.();
  }
}
