/**
 * The kitty keyboard protocol's flag stacks, one for the main screen and
 * one for the alternate screen (the sequences that change them are
 * `kitty_keyboard.ts`).
 *
 * @module
 */
import { KITTY_ALL_FLAGS } from "../kitty_keys.ts";

/** Most entries one stack holds. */
export const KITTY_STACK_LIMIT = 16;

/** Kitty keyboard flags of the main and alternate screens. */
export class KittyKeyboard {
  /** Entries, current last; empty means flags 0. [main, alternate]. */
  #stacks: [number[], number[]] = [[], []];

  /** Current flags of the main (`alt` false) or alternate screen. */
  flags(alt: boolean): number {
    const s = this.#stacks[alt ? 1 : 0];
    return s.length === 0 ? 0 : s[s.length - 1];
  }

  /** Entries on a screen's stack (for tests). */
  depth(alt: boolean): number {
    return this.#stacks[alt ? 1 : 0].length;
  }

  /** `CSI > flags u` */
  push(alt: boolean, flags: number): void {
    const s = this.#stacks[alt ? 1 : 0];
    if (s.length >= KITTY_STACK_LIMIT) s.shift();
    s.push(flags & KITTY_ALL_FLAGS);
  }

  /** `CSI < n u` */
  pop(alt: boolean, n: number): void {
    const s = this.#stacks[alt ? 1 : 0];
    s.length = Math.max(0, s.length - Math.max(1, n));
  }

  /** `CSI = flags ; mode u` (unknown modes are ignored). */
  set(alt: boolean, flags: number, mode: number): void {
    if (mode < 1 || mode > 3) return;
    const s = this.#stacks[alt ? 1 : 0];
    if (s.length === 0) s.push(0);
    const f = flags & KITTY_ALL_FLAGS;
    const top = s.length - 1;
    if (mode === 1) s[top] = f;
    else if (mode === 2) s[top] |= f;
    else s[top] &= ~f;
  }

  /** Both stacks, copied (for a snapshot). */
  save(): [number[], number[]] {
    return [this.#stacks[0].slice(), this.#stacks[1].slice()];
  }
  /** Stacks from {@link KittyKeyboard.save} (bounded and masked again). */
  load(stacks: readonly [readonly number[], readonly number[]]): void {
    this.#stacks = [
      stacks[0].slice(-KITTY_STACK_LIMIT).map((f) => f & KITTY_ALL_FLAGS),
      stacks[1].slice(-KITTY_STACK_LIMIT).map((f) => f & KITTY_ALL_FLAGS),
    ];
  }

  /** Forget everything (RIS, DECSTR). */
  reset(): void {
    this.#stacks = [[], []];
  }

  /**
   * Handle `CSI <prefix> p0 ; p1 u` for prefix ">", "<", "=" or "?" on the
   * main or alternate screen; returns the reply to send, or null.
   * Parameters are undefined when absent.
   */
  handle(
    prefix: string,
    p0: number | undefined,
    p1: number | undefined,
    alt: boolean,
  ): string | null {
    switch (prefix) {
      case ">":
        this.push(alt, p0 ?? 0);
        break;
      case "<":
        this.pop(alt, p0 ?? 1);
        break;
      case "=":
        this.set(alt, p0 ?? 0, p1 ?? 1);
        break;
      case "?":
        return `\x1b[?${this.flags(alt)}u`;
    }
    return null;
  }
}
