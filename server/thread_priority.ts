/**
 * Lowering the CPU priority of the calling thread. The sessions' emulator
 * thread (emulator_worker.ts) parses the same output the browser parses and
 * draws; on a machine with few cores the two compete, and the browser is
 * the one the user waits for. A nice'd emulator thread takes the cores
 * the browser leaves idle and yields to it otherwise.
 *
 * Linux only: there `setpriority(PRIO_PROCESS, tid)` applies to one thread.
 * On macOS it would renice the whole server, so nothing is done there.
 *
 * @module
 */

/** Nice value of the emulator thread (0 is normal, 19 the lowest). */
export const EMULATOR_NICE = 10;

/**
 * Sets the calling thread's nice value to `nice` (Linux). Returns null when
 * done, else why not (another OS, no libc, the call failed); the caller
 * runs on at normal priority.
 */
export function lowerThreadPriority(nice: number): string | null {
  if (Deno.build.os !== "linux") return `not on ${Deno.build.os}`;
  let lib;
  try {
    lib = Deno.dlopen("libc.so.6", {
      gettid: { parameters: [], result: "i32" },
      setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" },
    });
  } catch (e) {
    return `libc not loaded: ${(e as Error).message}`;
  }
  try {
    const PRIO_PROCESS = 0;
    const tid = lib.symbols.gettid();
    return lib.symbols.setpriority(PRIO_PROCESS, tid, nice) === 0
      ? null
      : "setpriority failed";
  } finally {
    lib.close();
  }
}
