/**
 * Reaps the PTY children: on SIGCHLD (`Deno.addSignalListener`), and once a
 * second as a backstop, `waitpid(pid, WNOHANG)` for each known child, on the
 * main thread. No call waits for a child's exit, so a session whose program
 * runs for days holds no thread (a blocked `waitid` per session took one of
 * the 32 threads Deno runs nonblocking FFI calls on: issue 37).
 *
 * A child is reaped, and its status handed over, in one synchronous step:
 * code that still believes a pid alive (and may signal it) runs before or
 * after, never in between, so it cannot signal a reused pid.
 *
 * Other children of the process (Deno.Command's) are left alone: only the
 * pids given to {@linkcode Reaper.watch} are waited for.
 *
 * @module
 */

import { C, type DecodedStatus, decodeWaitStatus, libc } from "./libc.ts";

/**
 * The backstop sweep, which also keeps the event loop alive while a child
 * runs (a signal listener does not), as the pending waitid call did.
 */
const SWEEP_MS = 1000;

/** Waits for the exits of known children without blocking any thread. */
export class Reaper {
  #children = new Map<number, (status: DecodedStatus) => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #status = new Int32Array(1);
  #onSignal = () => this.sweep();

  /**
   * Calls `onExit` (once, from a later turn of the event loop) when child
   * `pid` has ended and has been reaped; status null/null if someone else
   * reaped it. While any child is watched, the event loop stays alive.
   */
  watch(pid: number, onExit: (status: DecodedStatus) => void): void {
    this.#children.set(pid, onExit);
    if (this.#timer !== undefined) return;
    Deno.addSignalListener("SIGCHLD", this.#onSignal);
    this.#timer = setInterval(this.#onSignal, SWEEP_MS);
    // A child that ended before the listener existed sent no SIGCHLD that
    // it will see: look once now (not synchronously: the caller is still
    // setting up).
    queueMicrotask(this.#onSignal);
  }

  /** The number of children not reaped yet (test hook). */
  get watching(): number {
    return this.#children.size;
  }

  /** Reaps every watched child that has ended. */
  sweep(): void {
    const L = libc();
    for (const [pid, onExit] of this.#children) {
      let r: number;
      do {
        r = L.symbols.waitpid(pid, this.#status, C.WNOHANG);
      } while (r < 0 && L.errno() === C.EINTR);
      if (r === 0) continue; // still running
      this.#children.delete(pid);
      // r < 0: ECHILD, someone else reaped it; the status is unknown.
      onExit(
        r === pid
          ? decodeWaitStatus(this.#status[0])
          : { code: null, signal: null },
      );
    }
    if (this.#children.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      Deno.removeSignalListener("SIGCHLD", this.#onSignal);
    }
  }
}

let shared: Reaper | undefined;

/** The process's reaper (made on first use). */
export function reaper(): Reaper {
  return shared ??= new Reaper();
}
