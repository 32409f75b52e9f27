/**
 * When a session's new grid reaches its program. A window being dragged
 * sends a size every frame; the program gets the last one (TIOCSWINSZ,
 * hence one SIGWINCH) once no new size came for {@link RESIZE_SETTLE_MS}.
 * Each SIGWINCH makes a full-screen program or a shell prompt redraw,
 * which would otherwise race with the next size.
 *
 * @module
 */

/** Quiet time before a new window size reaches the program (ms). */
export const RESIZE_SETTLE_MS = 120;

/** A PTY size: cells, and pixels when the window said. */
export type PtySize = [
  cols: number,
  rows: number,
  width?: number,
  height?: number,
];

/** The size waiting to reach the program, and its timer. */
export class SizeSettler {
  readonly #apply: (size: PtySize) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pending: PtySize | null = null;

  /** `apply` gives the program its size. */
  constructor(apply: (size: PtySize) => void) {
    this.#apply = apply;
  }

  /**
   * A new size: it reaches the program once no other came for the settle
   * time, or at once without `settle` (another window took over).
   */
  set(size: PtySize, settle: boolean): void {
    this.#pending = size;
    clearTimeout(this.#timer);
    if (settle) {
      this.#timer = setTimeout(() => this.#flush(), RESIZE_SETTLE_MS);
    } else {
      this.#flush();
    }
  }

  /** Forget the size waiting (the session is over). */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    this.#timer = undefined;
    const size = this.#pending;
    this.#pending = null;
    if (size !== null) this.#apply(size);
  }
}
