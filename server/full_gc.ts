/**
 * A full garbage collection, on purpose: after a session's history was
 * packed (`Buffer.compactHistory`), the cell arrays it no longer needs are
 * garbage, but an idle server allocates nothing, so V8 would never collect
 * them and the memory packing saved would stay resident.
 *
 * `gc` is reached the way Node programs do without `--expose-gc` on the
 * command line (node:v8 sets the flag, node:vm reads the function from a
 * fresh context). Where that fails, nothing happens.
 *
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";

let gc: (() => void) | null | undefined;

/** Collect garbage now, if the runtime lets us; false when it does not. */
export function fullGc(): boolean {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString("--expose-gc");
      const f: unknown = vm.runInNewContext("gc");
      gc = typeof f === "function" ? f as () => void : null;
    } catch {
      gc = null;
    }
  }
  if (gc === null) return false;
  gc();
  return true;
}
