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
 * are small allocations, which malloc would otherwise keep. On Linux the
 * pages of the deno executable that the process touched and does not use
 * when idle (`releaseExecutablePages`) are let go as well.
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
    const t = setTimeout(() => {
      mallocTrim();
      releaseExecutablePages();
    }, TRIM_DELAY_MS);
    Deno.unrefTimer(t as unknown as number);
  }
  return true;
}

const TRIM_DELAY_MS = 500;
const LIBC_SYMBOLS = {
  malloc_trim: { parameters: ["usize"], result: "i32" },
  madvise: { parameters: ["pointer", "usize", "i32"], result: "i32" },
} as const;
let libc:
  | Deno.DynamicLibrary<typeof LIBC_SYMBOLS>["symbols"]
  | null
  | undefined;

/** glibc's malloc_trim and madvise, where there are and FFI is allowed. */
function glibc(): typeof libc {
  if (libc === undefined) {
    libc = null;
    if (Deno.build.os === "linux") {
      try {
        libc = Deno.dlopen("libc.so.6", LIBC_SYMBOLS).symbols;
      } catch {
        // musl, or no --allow-ffi: the memory stays with malloc
      }
    }
  }
  return libc;
}

/** glibc's malloc_trim(0), where there is one and FFI is allowed. */
function mallocTrim(): void {
  glibc()?.malloc_trim(0n);
}

/** Linux's MADV_DONTNEED. */
const MADV_DONTNEED = 4;

/**
 * Let go of the resident pages of the deno executable's read-only
 * mappings (its code, the V8 start-up snapshot, ICU's data...): starting
 * up touches some 35 MB of them, of which an idle server uses a third.
 * They count in its RSS for good otherwise, though the kernel could
 * reload them from the file at any time. A mapping the process wrote to
 * (relocations: `Anonymous` pages) is left alone: madvise would throw its
 * changes away; a read-only one of the file comes back from the page
 * cache as it is used (a minor fault per page), so nothing but the
 * figure changes. Linux only; returns the bytes let go (0: nothing done).
 */
export function releaseExecutablePages(): number {
  const lib = glibc();
  if (!lib) return 0;
  let exe: string;
  let smaps: string;
  try {
    exe = Deno.realPathSync(Deno.execPath());
    smaps = Deno.readTextFileSync("/proc/self/smaps");
  } catch {
    return 0; // no --allow-read
  }
  let released = 0;
  for (const m of readOnlyMappingsOf(smaps, exe)) {
    const len = m.end - m.start;
    const at = Deno.UnsafePointer.create(m.start);
    if (lib.madvise(at, len, MADV_DONTNEED) === 0) released += Number(len);
  }
  return released;
}

/**
 * The mappings of file `path` in `smaps` (/proc/PID/smaps) that cannot be
 * written and hold no anonymous (copied on write) page.
 */
export function readOnlyMappingsOf(
  smaps: string,
  path: string,
): { start: bigint; end: bigint }[] {
  const out: { start: bigint; end: bigint }[] = [];
  let cur: { start: bigint; end: bigint; clean: boolean } | null = null;
  const flush = () => {
    if (cur?.clean) out.push({ start: cur.start, end: cur.end });
    cur = null;
  };
  for (const line of smaps.split("\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/
      .exec(line);
    if (m) {
      flush();
      if (m[4] === path && !m[3].includes("w")) {
        cur = {
          start: BigInt(`0x${m[1]}`),
          end: BigInt(`0x${m[2]}`),
          clean: true,
        };
      }
    } else if (cur && /^Anonymous:\s+[1-9]/.test(line)) {
      (cur as { clean: boolean }).clean = false;
    }
  }
  flush();
  return out;
}

let quietTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * A {@link fullGc} once `ms` passed with no other call of this: for what
 * starting up left (an idle server allocates nothing, so V8 would not
 * collect it, nor give back the heap it grew), and the pages of the deno
 * executable that starting up touched ({@link releaseExecutablePages}).
 * The FFI that this loads costs 1.5-2 MB of the executable's pages, let go
 * with the rest.
 */
export function fullGcWhenQuiet(ms = QUIET_GC_MS, trim = true): void {
  if (quietTimer !== null) clearTimeout(quietTimer);
  quietTimer = setTimeout(() => {
    quietTimer = null;
    fullGc(trim);
  }, ms);
  Deno.unrefTimer(quietTimer as unknown as number);
}

/** See {@link fullGcWhenQuiet}. */
const QUIET_GC_MS = 2000;
