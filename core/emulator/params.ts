/**
 * Reading sequence parameters the way the VT standards count them.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";

/** A count parameter: missing or 0 means 1. */
export function count(params: Params, i: number): number {
  const v = params.get(i, 1);
  return v === 0 ? 1 : v;
}
