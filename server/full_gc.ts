/**
 * A full garbage collection, on purpose: after a session's history was
 * packed (`Buffer.compactHistory`), the cell arrays it no longer needs are
 * garbage, but an idle server allocates nothing, so V8 would never collect
 * them and the memory packing saved would stay resident.
 *
 * `gc` is reached the way Node programs do without `--expose-gc` on the
 * command line (node:v8 sets the flag, node:vm reads the function from a
 * fresh context). Where that fails, nothing happens. On glibc, the memory
 * freed then goes back to the system too (`malloc_trim`): the cell arrays
 * are small allocations, which malloc would otherwise keep.
 *
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";

let gc: (() => void) | null | undefined;

/**
 * Collect garbage now, if the runtime lets us; false when it does not.
 * With `trim` (the default), give what malloc then holds free back to the
 * system too, half a second later.
 */
export function fullGc(trim = true): boolean {
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
  if (trim) {
    // V8 frees array buffers on a background thread: trim a little later.
    const t = setTimeout(mallocTrim, TRIM_DELAY_MS);
    Deno.unrefTimer(t as unknown as number);
  }
  return true;
}

const TRIM_DELAY_MS = 500;
let trim: (() => void) | null | undefined;

/** glibc's malloc_trim(0), where there is one and FFI is allowed. */
function mallocTrim(): void {
  if (trim === undefined) {
    trim = null;
    if (Deno.build.os === "linux") {
      try {
        const lib = Deno.dlopen("libc.so.6", {
          malloc_trim: { parameters: ["usize"], result: "i32" },
        });
        trim = () => void lib.symbols.malloc_trim(0n);
      } catch {
        // musl, or no --allow-ffi: the memory stays with malloc
      }
    }
  }
  trim?.();
}

let quietTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * A {@link fullGc} once `ms` passed with no other call of this: for what
 * starting up left (an idle server allocates nothing, so V8 would not
 * collect it, nor give back the heap it grew). Without `trim`: on a server
 * that has no session yet, malloc holds little free, and the FFI that
 * trimming loads would cost more resident pages of the deno binary than
 * it gives back (1.5-2 MB against 0.5 MB, measured).
 */
export function fullGcWhenQuiet(ms = QUIET_GC_MS, trim = false): void {
  if (quietTimer !== null) clearTimeout(quietTimer);
  quietTimer = setTimeout(() => {
    quietTimer = null;
    fullGc(trim);
  }, ms);
  Deno.unrefTimer(quietTimer as unknown as number);
}

/** See {@link fullGcWhenQuiet}. */
const QUIET_GC_MS = 2000;
