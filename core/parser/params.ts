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
 * A snapshot of a {@link ParamBuffer} (see {@link ParamBuffer.saveState}):
 * plain JSON-safe data. The number of parameters is `values.length`.
 */
export interface ParamState {
  /**
   * One entry per parameter: its value (0..MAX_PARAM_VALUE), or -1 when it
   * is missing or not stored yet (the field being read is in `cur`).
   */
  values: number[];
  /** The colon sub-parameters of each parameter (as many arrays as `values`; -1 = missing). */
  subs: number[][];
  /** Value of the field being read, -1 while it has no digit. */
  cur: number;
  /** The field being read is a sub-parameter (after a colon). */
  inSub: boolean;
  /** More than MAX_PARAMS parameters were seen: the rest are dropped. */
  overflow: boolean;
}

/** Throw the error of a malformed parameter snapshot. */
function badParams(what: string): never {
  throw new Error("invalid parser state: params" + what);
}

/** An integer in -1..MAX_PARAM_VALUE, else throw. */
function paramValue(v: unknown, what: string): number {
  if (
    typeof v !== "number" || !Number.isInteger(v) || v < -1 ||
    v > MAX_PARAM_VALUE
  ) {
    badParams(`${what}: expected an integer in -1..${MAX_PARAM_VALUE}`);
  }
  return v;
}

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

  /** A JSON-safe copy of everything this buffer holds (see {@link ParamState}). */
  saveState(): ParamState {
    const values: number[] = [];
    const subs: number[][] = [];
    for (let i = 0; i < this.length; i++) {
      values.push(this.vals[i]);
      const base = i * MAX_SUB_PARAMS;
      subs.push(Array.from(this.subs.subarray(base, base + this.subCount[i])));
    }
    return {
      values,
      subs,
      cur: this.cur,
      inSub: this.inSub,
      overflow: this.overflow,
    };
  }

  /**
   * Check an untrusted snapshot and return a fresh copy of it (each field is
   * read once). Throws an Error `invalid parser state: params...` unless it
   * is a state that parsing can produce: at most MAX_PARAMS parameters and
   * MAX_SUB_PARAMS sub-parameters each, values in -1..MAX_PARAM_VALUE,
   * `overflow` only with MAX_PARAMS parameters, and nothing pending while
   * there are no parameters.
   */
  static parseState(s: unknown): ParamState {
    if (typeof s !== "object" || s === null || Array.isArray(s)) {
      badParams(": expected an object");
    }
    const o = s as Record<string, unknown>;
    const rawValues = o.values;
    const rawSubs = o.subs;
    const cur = paramValue(o.cur, ".cur");
    const inSub = o.inSub;
    const overflow = o.overflow;
    if (!Array.isArray(rawValues) || rawValues.length > MAX_PARAMS) {
      badParams(`.values: expected an array of at most ${MAX_PARAMS} numbers`);
    }
    const n = rawValues.length;
    if (!Array.isArray(rawSubs) || rawSubs.length !== n) {
      badParams(".subs: expected one array per value");
    }
    if (typeof inSub !== "boolean") badParams(".inSub: expected a boolean");
    if (typeof overflow !== "boolean") {
      badParams(".overflow: expected a boolean");
    }
    const values: number[] = [];
    const subs: number[][] = [];
    for (let i = 0; i < n; i++) {
      values.push(paramValue(rawValues[i], `.values[${i}]`));
      const a: unknown = rawSubs[i];
      if (!Array.isArray(a) || a.length > MAX_SUB_PARAMS) {
        badParams(
          `.subs[${i}]: expected an array of at most ${MAX_SUB_PARAMS} numbers`,
        );
      }
      const sub: number[] = [];
      const m = a.length;
      for (let j = 0; j < m; j++) {
        sub.push(paramValue(a[j], `.subs[${i}][${j}]`));
      }
      subs.push(sub);
    }
    if (overflow && n !== MAX_PARAMS) {
      badParams(`.overflow: set with fewer than ${MAX_PARAMS} values`);
    }
    if (n === 0 && (cur !== -1 || inSub)) {
      badParams(": a pending field without parameters");
    }
    return { values, subs, cur, inSub, overflow };
  }

  /**
   * Become exactly the buffer that {@link saveState} described. Throws (see
   * {@link parseState}) without changing anything when `s` is malformed.
   */
  restoreState(s: ParamState): void {
    const p = ParamBuffer.parseState(s);
    const n = p.values.length;
    for (let i = 0; i < n; i++) {
      this.vals[i] = p.values[i];
      const sub = p.subs[i];
      this.subCount[i] = sub.length;
      this.subs.set(sub, i * MAX_SUB_PARAMS);
    }
    this.length = n;
    this.cur = p.cur;
    this.inSub = p.inSub;
    this.overflow = p.overflow;
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
