/**
 * One poller for every PTY master of the process: a single `poll()` FFI
 * call (on one of Deno's worker threads) over the fds that someone waits on,
 * plus the read end of a wake-up pipe, which a new wait or a close writes to
 * so that the call returns and starts again with the new set.
 *
 * Deno runs `nonblocking` FFI calls on a pool of 32 threads; one blocked
 * call per session (a poll, a waitid) used to take one thread each, and past
 * about 32 sessions every PTY stopped being read (issue 37). With this
 * poller, any number of sessions hold one thread while they wait.
 *
 * A wait is for readiness only: the caller then reads or writes without
 * blocking (the masters are O_NONBLOCK) and waits again on EAGAIN. A waiter
 * is dropped once it has fired, so an fd that nobody reads (back-pressure)
 * is not polled and cannot make the poller spin.
 *
 * @module
 */

import { C, libc } from "./libc.ts";

interface Waiter {
  fd: number;
  events: number;
  resolve: (revents: number) => void;
}

/** sizeof(struct pollfd): { int fd; short events; short revents; } */
const POLLFD_BYTES = 8;
/** After this many failed poll() calls in a row (-1 with an errno other than EINTR, most likely), pause between tries. */
const FAILURES_BEFORE_BACKOFF = 100;

/** Waits for readiness of many fds with one `poll()` call at a time. */
export class Poller {
  /** Waiters not fired yet (in the call in flight, or for the next one). */
  #waiting = new Set<Waiter>();
  /** The waiters of the call in flight, or null when none is. */
  #inFlight: Waiter[] | null = null;
  /** Resolves when the call in flight returns. */
  #callDone: Promise<void> = Promise.resolve();
  #wakeRead = -1;
  #wakeWrite = -1;
  /** The loop of poll() calls is on. */
  #running = false;
  /** A byte is in the pipe (or on its way) for the call in flight. */
  #woken = false;
  #fds = new Uint8Array(16 * POLLFD_BYTES);
  #byte = new Uint8Array(1);
  #drain = new Uint8Array(64);

  /**
   * Resolves with the `revents` of `fd` once one of `events` (or an error
   * or hang-up, which poll always reports) holds, or with 0 if
   * {@linkcode Poller.forget} was called for `fd` first.
   */
  wait(fd: number, events: number): Promise<number> {
    this.#openPipe();
    const { promise, resolve } = Promise.withResolvers<number>();
    this.#waiting.add({ fd, events, resolve });
    if (this.#inFlight) this.#wake();
    else if (!this.#running) {
      this.#running = true;
      this.#run().finally(() => this.#running = false);
    }
    return promise;
  }

  /**
   * Ends the waits for `fd` (they resolve with 0). The returned promise
   * resolves once no poll() call in flight names `fd`: only then may it be
   * closed (its number could otherwise be reused under the call).
   */
  forget(fd: number): Promise<void> {
    for (const w of this.#waiting) {
      if (w.fd === fd) {
        this.#waiting.delete(w);
        w.resolve(0);
      }
    }
    if (!this.#inFlight?.some((w) => w.fd === fd)) return Promise.resolve();
    this.#wake();
    return this.#callDone;
  }

  /**
   * Resolve now the waits whose fd is ready, with one poll() that does not
   * wait, on this thread. The read loops call it between their turns
   * (pty.ts): while they keep the event loop busy, the completion of the
   * call in flight reached JavaScript long after the kernel had an idle
   * session's echo ready (0.8 s with 40 PTYs flooding, on a loaded
   * machine; tests/server/pty_fairness_test.ts).
   */
  check(): void {
    const n = this.#waiting.size;
    if (n === 0) return;
    const waiters = [...this.#waiting];
    const buf = this.#checkBuf.length >= n * POLLFD_BYTES
      ? this.#checkBuf
      : (this.#checkBuf = new Uint8Array(2 * n * POLLFD_BYTES));
    const ints = new Int32Array(buf.buffer, 0, 2 * n);
    const shorts = new Int16Array(buf.buffer, 0, 4 * n);
    for (let i = 0; i < n; i++) {
      ints[2 * i] = waiters[i].fd;
      shorts[4 * i + 2] = waiters[i].events;
      shorts[4 * i + 3] = 0;
    }
    if (libc().symbols.pollNow(buf, n, 0) <= 0) return;
    for (let i = 0; i < n; i++) {
      const revents = shorts[4 * i + 3];
      // The call in flight, when it returns, skips the waits done here.
      if (revents !== 0 && this.#waiting.delete(waiters[i])) {
        waiters[i].resolve(revents);
      }
    }
  }
  #checkBuf = new Uint8Array(16 * POLLFD_BYTES);

  /** The wake-up pipe's read and write fds, -1 before the first wait (test hook). */
  get pipe(): [number, number] {
    return [this.#wakeRead, this.#wakeWrite];
  }

  /** The number of waits not fired yet (test hook). */
  get waiting(): number {
    return this.#waiting.size;
  }

  #wake(): void {
    if (this.#woken) return;
    this.#woken = true;
    // A full pipe (EAGAIN) already holds a wake-up.
    libc().symbols.write(this.#wakeWrite, this.#byte, 1n);
  }

  /** Starts the loop of poll() calls; it ends when nobody waits. */
  async #run(): Promise<void> {
    const L = libc();
    let failures = 0;
    while (this.#waiting.size > 0) {
      const batch = [...this.#waiting];
      const n = batch.length + 1;
      if (this.#fds.length < n * POLLFD_BYTES) {
        this.#fds = new Uint8Array(2 * n * POLLFD_BYTES);
      }
      const ints = new Int32Array(this.#fds.buffer, 0, 2 * n);
      const shorts = new Int16Array(this.#fds.buffer, 0, 4 * n);
      ints[0] = this.#wakeRead;
      shorts[2] = C.POLLIN;
      shorts[3] = 0;
      for (let i = 0; i < batch.length; i++) {
        ints[2 * (i + 1)] = batch[i].fd;
        shorts[4 * (i + 1) + 2] = batch[i].events;
        shorts[4 * (i + 1) + 3] = 0;
      }
      const done = Promise.withResolvers<void>();
      this.#callDone = done.promise;
      this.#inFlight = batch;
      let rc: number;
      try {
        rc = await L.symbols.poll(this.#fds, n, -1);
      } finally {
        this.#inFlight = null;
        done.resolve();
      }
      if (shorts[3] !== 0) {
        while (
          Number(L.symbols.read(this.#wakeRead, this.#drain, 64n)) > 0
        ) { /* drain every wake-up byte */ }
      }
      this.#woken = false;
      for (let i = 0; i < batch.length; i++) {
        const revents = shorts[4 * (i + 1) + 3];
        if (revents !== 0 && this.#waiting.delete(batch[i])) {
          batch[i].resolve(revents);
        }
      }
      // -1: EINTR (a signal reached the worker thread) is harmless; errno
      // is not readable from here, so back off if it keeps failing.
      failures = rc < 0 ? failures + 1 : 0;
      if (failures >= FAILURES_BEFORE_BACKOFF) {
        await new Promise((ok) => setTimeout(ok, 10));
      }
    }
  }

  /** The wake-up pipe, both ends non-blocking and close-on-exec (made once, kept for the process). */
  #openPipe(): void {
    if (this.#wakeRead >= 0) return;
    const L = libc();
    const fds = new Int32Array(2);
    if (L.symbols.pipe(fds) !== 0) {
      throw new Error(`pty: pipe failed: ${L.strerror(L.errno())}`);
    }
    for (const fd of fds) {
      const fdFlags = L.fcntlInt(fd, C.F_GETFD, 0);
      const flFlags = L.fcntlInt(fd, C.F_GETFL, 0);
      if (
        fdFlags < 0 || flFlags < 0 ||
        L.fcntlInt(fd, C.F_SETFD, fdFlags | C.FD_CLOEXEC) < 0 ||
        L.fcntlInt(fd, C.F_SETFL, flFlags | C.O_NONBLOCK) < 0
      ) {
        const err = L.errno();
        L.symbols.close(fds[0]);
        L.symbols.close(fds[1]);
        throw new Error(
          `pty: fcntl on the wake-up pipe failed: ${L.strerror(err)}`,
        );
      }
    }
    this.#wakeRead = fds[0];
    this.#wakeWrite = fds[1];
  }
}

let shared: Poller | undefined;

/** The process's poller (made on first use). */
export function poller(): Poller {
  return shared ??= new Poller();
}
