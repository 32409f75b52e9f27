/**
 * The reusable parameter store of the escape-sequence parser: one instance per
 * parser, refilled for every CSI/DCS sequence, so parsing a sequence allocates
 * nothing (only {@link ParamBuffer.sub} allocates, and only when asked).
 *
 * @module
 */

import type { Params } from "./handler.ts";

export type { Params };

/** At most this many parameters are kept; further ones are ignored. */
export const MAX_PARAMS = 32;
/** At most this many colon sub-parameters are kept per parameter. */
export const MAX_SUB_PARAMS = 16;
/** Parameter values are clamped to 0..MAX_PARAM_VALUE. */
export const MAX_PARAM_VALUE = 0x7fffffff;

/**
 * A {@link Params} implementation that the parser fills digit by digit.
 *
 * Missing (empty) values are stored as -1. The parser calls {@link reset} at
 * the start of a sequence, then {@link digit}, {@link semicolon} and
 * {@link colon} for each parameter byte, and {@link finish} once before
 * handing the object to the handler.
 */
export class ParamBuffer implements Params {
  /** Number of parameters (at most {@link MAX_PARAMS}). */
  length = 0;
  private readonly vals = new Int32Array(MAX_PARAMS);
  private readonly subCount = new Uint8Array(MAX_PARAMS);
  private readonly subs = new Int32Array(MAX_PARAMS * MAX_SUB_PARAMS);
  /**
   * Value of the field being read, -1 while it has no digit. Public for the
   * parser's fast path, which accumulates digits in a local variable.
   * @internal
   */
  cur = -1;
  /** The field being read is a sub-parameter (after a colon). */
  private inSub = false;
  /** More than MAX_PARAMS parameters: the rest are dropped. */
  private overflow = false;

  /** Forget everything: back to zero parameters. */
  reset(): void {
    this.length = 0;
    this.cur = -1;
    this.inSub = false;
    this.overflow = false;
  }

  /**
   * The first parameter byte of a sequence opens parameter 0 (done by
   * {@link digit}, {@link semicolon} and {@link colon} when needed).
   * @internal
   */
  begin(): void {
    this.length = 1;
    this.vals[0] = -1;
    this.subCount[0] = 0;
  }

  /** Append a decimal digit (0..9) to the current field, clamping. */
  digit(d: number): void {
    if (this.length === 0) this.begin();
    const c = this.cur;
    // Clamp at every step so the value never leaves the exact-integer range.
    const v = c < 0 ? d : c * 10 + d;
    this.cur = v > MAX_PARAM_VALUE ? MAX_PARAM_VALUE : v;
  }

  /** `;`: end the current parameter and open the next one. */
  semicolon(): void {
    if (this.length === 0) this.begin();
    this.store();
    this.inSub = false;
    if (this.length < MAX_PARAMS) {
      const i = this.length++;
      this.vals[i] = -1;
      this.subCount[i] = 0;
    } else {
      this.overflow = true;
    }
  }

  /** `:`: end the current field and open a sub-parameter of the current parameter. */
  colon(): void {
    if (this.length === 0) this.begin();
    this.store();
    this.inSub = true;
  }

  /** End the last field. Call exactly once per sequence, before dispatch. */
  finish(): void {
    if (this.length !== 0) this.store();
  }

  /** Store the current field into the current parameter and clear it. */
  private store(): void {
    const v = this.cur;
    this.cur = -1;
    if (this.overflow) return;
    const i = this.length - 1;
    if (!this.inSub) {
      this.vals[i] = v;
    } else {
      const n = this.subCount[i];
      if (n < MAX_SUB_PARAMS) {
        this.subs[i * MAX_SUB_PARAMS + n] = v;
        this.subCount[i] = n + 1;
      }
    }
  }

  /** Parameter `i`, or `dflt` when it is missing or out of range. */
  get(i: number, dflt: number): number {
    if (i >= 0 && i < this.length) {
      const v = this.vals[i];
      if (v >= 0) return v;
    }
    return dflt;
  }

  /** True when parameter `i` exists and was not empty. */
  has(i: number): boolean {
    return i >= 0 && i < this.length && this.vals[i] >= 0;
  }

  /**
   * The colon sub-parameters of parameter `i` (missing ones are -1), or
   * undefined when it had none. Returns a fresh array.
   */
  sub(i: number): readonly number[] | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    const n = this.subCount[i];
    if (n === 0) return undefined;
    const base = i * MAX_SUB_PARAMS;
    return Array.from(this.subs.subarray(base, base + n));
  }

  /** The parameters in their canonical text form, e.g. `38:2::10:20:30;;1`. */
  toString(): string {
    let s = "";
    for (let i = 0; i < this.length; i++) {
      if (i > 0) s += ";";
      const v = this.vals[i];
      if (v >= 0) s += v;
      const base = i * MAX_SUB_PARAMS;
      for (let j = 0; j < this.subCount[i]; j++) {
        const w = this.subs[base + j];
        s += w >= 0 ? ":" + w : ":";
      }
    }
    return s;
  }
}
