/**
 * The few assertions the tests use, on top of `node:assert/strict` (JSR's
 * @std/assert is not reachable from our machines).
 *
 * @module
 */
import nodeAssert from "node:assert/strict";

/** Fails unless `cond` is truthy. */
export function assert(cond: unknown, msg?: string): asserts cond {
  nodeAssert.ok(cond, msg);
}

/** Deep, strict equality. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, msg);
}

/** `text` matches `re`. */
export function assertMatch(text: string, re: RegExp, msg?: string): void {
  nodeAssert.match(text, re, msg);
}

/** `fn` throws (or rejects) an Error whose message matches `re`. */
export async function assertRejects(
  fn: () => unknown,
  re: RegExp,
): Promise<void> {
  let err: unknown = null;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  nodeAssert.ok(err instanceof Error, "expected an error");
  nodeAssert.match((err as Error).message, re);
}

/**
 * `fn` throws an instance of `type` (whose message includes `says`, when
 * given); returns it.
 */
export function assertThrows<E extends Error>(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  type: new (...args: any[]) => E,
  says?: string,
): E {
  let err: unknown = null;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  nodeAssert.ok(err instanceof type, `expected a ${type.name}, got ${err}`);
  if (says !== undefined) nodeAssert.ok((err as E).message.includes(says));
  return err as E;
}
