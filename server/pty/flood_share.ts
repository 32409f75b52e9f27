/**
 * A flooding program's CPU share, lowered (Linux autogroups): every PTY
 * child calls setsid, and with `kernel.sched_autogroup_enabled=1` each
 * session is its own scheduling group, with a group's weight however many
 * processes it holds. With 200 sessions printing as fast as the server
 * reads them, the server (one group) got about 1/200 of a CPU each time
 * their programs were runnable, and a key's echo waited for it (issue 37).
 *
 * While a PTY's program prints more than {@linkcode FLOOD_BYTES} per
 * {@linkcode WINDOW_MS}, its session's autogroup gets nice
 * {@linkcode FLOOD_NICE} (`/proc/PID/autogroup`); it goes back to 0 once
 * the output is down to {@linkcode QUIET_BYTES} per window, or at once when
 * the program is given input (a key typed in that session, a Ctrl+C). A
 * flooding program is held back by the server's reading anyway; only the
 * server's own turns, and idle sessions' echoes, get the CPU sooner.
 * Measured (many_sessions_bench --sessions 50, loaded 2-core machine,
 * alternated runs): a key's echo median 819 -> 512 ms at load 20-25 and
 * 167 -> 33 ms at load 6; the server's main thread runnable but not
 * running 77% -> 71% and 54% -> 44% of the run.
 *
 * Without autogroups (no such file, or not root and the kernel's limit of
 * 10 changes a second) nothing changes: the write fails and is retried at
 * the next window at most.
 *
 * @module
 */

/** The window over which a program's output is counted (ms). */
export const WINDOW_MS = 500;
/** More than this much output in a window: the program floods. */
export const FLOOD_BYTES = 256 * 1024;
/** At most this much in a window: it does not flood any more. */
export const QUIET_BYTES = 32 * 1024;
/** The autogroup nice of a flooding session (0 otherwise). */
export const FLOOD_NICE = 19;

/** Sets the autogroup nice of `pid`'s session; false if that failed. */
function setAutogroupNice(pid: number, nice: number): boolean {
  try {
    Deno.writeTextFileSync(`/proc/${pid}/autogroup`, `${nice}`);
    return true;
  } catch {
    return false;
  }
}

/** One PTY child's output rate and its session's autogroup nice. */
export class FloodShare {
  #pid: number;
  #windowStart = performance.now();
  #bytes = 0;
  /** The nice set on the session's autogroup (0: as it was started). */
  #nice = 0;

  constructor(pid: number) {
    this.#pid = pid;
  }

  /** The nice this session's autogroup was given (test hook). */
  get nice(): number {
    return this.#nice;
  }

  /** `bytes` of output were read. */
  read(bytes: number): void {
    this.#bytes += bytes;
    const now = performance.now();
    if (now - this.#windowStart < WINDOW_MS) return;
    const rate = this.#bytes * WINDOW_MS / (now - this.#windowStart);
    this.#windowStart = now;
    this.#bytes = 0;
    if (this.#nice === 0 && rate > FLOOD_BYTES) this.#set(FLOOD_NICE);
    else if (this.#nice !== 0 && rate <= QUIET_BYTES) this.#set(0);
  }

  /** The program was given input: its session's share is back to normal. */
  input(): void {
    if (this.#nice === 0) return;
    this.#windowStart = performance.now();
    this.#bytes = 0;
    this.#set(0);
  }

  #set(nice: number): void {
    if (setAutogroupNice(this.#pid, nice)) this.#nice = nice;
  }
}
