/**
 * A pseudo-terminal with a child process on its slave side, through Deno FFI
 * to libc: no native build, no download.
 *
 * The master is non-blocking. Waiting for output or for room to write
 * goes through the process's one poller (poller.ts: a single `poll()` over
 * every master that someone waits on, on one worker thread); the child's
 * exit comes from SIGCHLD and `waitpid(WNOHANG)` (reaper.ts). So the event
 * loop never blocks, and any number of PTYs hold at most one of the threads
 * Deno runs nonblocking FFI calls on.
 *
 * Needs `--allow-ffi` (and `--allow-env` for the default environment).
 *
 * @module
 */

import { setImmediate } from "node:timers";
import { C, libc, SIZES } from "./libc.ts";
import { poller } from "./poller.ts";
import { echoTrace } from "../echo_trace.ts";
import { reaper } from "./reaper.ts";
import { FloodShare } from "./flood_share.ts";
import { pidfdSignal } from "../handover/unix_socket.ts";

/** How to start the child process. */
export interface SpawnOptions {
  /** Program to run, resolved through the PATH of this process by posix_spawnp. */
  command: string;
  /** argv[1..]; argv[0] is `command`. */
  args?: string[];
  /**
   * The full environment of the child (default: `Deno.env.toObject()`), or
   * a function that makes it from the slave's name (e.g. "/dev/pts/3"), for
   * variables that mention the terminal.
   */
  env?: Record<string, string> | ((ttyName: string) => Record<string, string>);
  /** Working directory of the child (default: this process's). */
  cwd?: string;
  /** Initial window size, set before the child starts. */
  cols: number;
  rows: number;
  pixelWidth?: number;
  pixelHeight?: number;
}

/** How the child ended: `code` if it exited, `signal` if a signal killed it (null/null if unknown). */
export interface ExitStatus {
  code: number | null;
  signal: number | null;
}

/** The exit of a child this process did not start: nobody can tell its status. */
const UNKNOWN_EXIT: ExitStatus = { code: null, signal: null };

/** Up to this many bytes per read() chunk. */
const READ_CHUNK = 64 * 1024;
/**
 * All PTYs together read at most about this much per turn of the event
 * loop. A read that finds output waiting returns without yielding, and a
 * session's read loop goes on in microtasks: a reader slower than its
 * program (a server with many floods) kept timers and I/O waiting for
 * seconds. Readers over the share wait for the next turn (a setImmediate,
 * not a poll: the completion of a nonblocking FFI call did not let timers
 * run), and go on in the order they stopped (round robin).
 */
const TURN_BYTES = 256 * 1024;
/**
 * ...and for at most about this long (ms, from the turn's first read), so
 * that on a machine short of CPU the turns stay short: between them, the
 * readers whose PTY became ready are woken (Poller.check). With 40 PTYs
 * flooding on a loaded machine, an idle one's echo came after 30-180 ms
 * without this limit, 5-70 ms with it (tests/server/pty_fairness_test.ts).
 */
const TURN_MS = 4;
/**
 * A PTY over the turn's share may still read this much once per turn
 * when it has priority: its reader was just woken from waiting (it had
 * been idle: an echo, a prompt), or input went to it within
 * {@link INPUT_PRIORITY_MS}. Without it, one key's echo waited for every
 * flooding session's turn first (bench/many_sessions_bench.ts, 20
 * sessions flooding: the echo read up to 0.45 s after its PTY was ready).
 */
const PRIORITY_READ = 4 * 1024;
/** See {@link PRIORITY_READ}: Ctrl+C in a flood, and what the program answers to input. */
const INPUT_PRIORITY_MS = 500;
/** close(): time between SIGHUP and SIGKILL. */
const KILL_GRACE_MS = 2000;

const encoder = new TextEncoder();

/** What {@linkcode Pty.getTermios} reports. */
export interface Termios {
  canonical: boolean;
  echo: boolean;
  /** The special characters, one character each, "" when disabled. */
  cc: {
    intr: string;
    quit: string;
    erase: string;
    kill: string;
    eof: string;
    susp: string;
  };
}

/**
 * What the PTYs read in the current turn (see TURN_BYTES), the turn's
 * number, and the wait for the next.
 */
const turn = {
  used: 0,
  id: 0,
  /** When the turn's first read was (performance.now()). */
  start: 0,
  next: null as Promise<void> | null,
};

/** Whether the PTYs have had their share of this turn. */
function turnUsed(): boolean {
  return turn.used >= TURN_BYTES ||
    (turn.used > 0 && performance.now() - turn.start >= TURN_MS);
}

/** `n` bytes were read: count them toward the turn's share. */
function countRead(n: number): void {
  if (turn.used === 0) {
    turn.start = performance.now();
    // The share renews in the next turn, whether or not a reader waits.
    void nextTurn();
  }
  turn.used += n;
}

/** Resolves in the next turn of the event loop, with a fresh share. */
function nextTurn(): Promise<void> {
  return turn.next ??= new Promise((resolve) =>
    setImmediate(() => {
      turn.next = null;
      turn.used = 0;
      turn.id++;
      // Wake the readers whose PTY has output now (an idle session's echo).
      poller().check();
      resolve();
    })
  );
}

/** A NUL-terminated copy of `s`; rejects embedded NULs, which C would truncate at. */
function cString(s: string, what: string): Uint8Array<ArrayBuffer> {
  if (s.includes("\0")) throw new Error(`pty: ${what} contains a NUL byte`);
  const bytes = encoder.encode(s);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/**
 * A NULL-terminated `char *[]` for argv/envp. The returned `keep` holds the
 * string storage: it must stay reachable until the C call has returned.
 */
function cStringArray(
  items: string[],
  what: string,
): { array: BigUint64Array<ArrayBuffer>; keep: Uint8Array[] } {
  const keep = items.map((s) => cString(s, what));
  const array = new BigUint64Array(items.length + 1);
  keep.forEach((buf, i) => {
    array[i] = Deno.UnsafePointer.value(Deno.UnsafePointer.of(buf));
  });
  return { array, keep };
}

function checkSize(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min || value > 0xffff) {
    throw new RangeError(`pty: ${name} must be an integer in ${min}..65535`);
  }
}

/** Window size as struct winsize { ws_row, ws_col, ws_xpixel, ws_ypixel } (unsigned shorts). */
function winsize(cols: number, rows: number, pw = 0, ph = 0): Uint8Array {
  checkSize("cols", cols, 1);
  checkSize("rows", rows, 1);
  checkSize("pixelWidth", pw, 0);
  checkSize("pixelHeight", ph, 0);
  return new Uint8Array(new Uint16Array([rows, cols, pw, ph]).buffer);
}

/** Error for a failed libc call (`err` is an errno value). */
function sysError(what: string, err: number): Error {
  return new Error(`pty: ${what} failed: ${libc().strerror(err)}`);
}

/**
 * A child process running on a new pseudo-terminal. The child is a session
 * leader whose controlling terminal is the pty slave; this object holds the
 * master. Create one with {@linkcode Pty.spawn}; always end with
 * {@linkcode Pty.close} (it releases the master fd, even after the child
 * exited). While the child runs, the reaper keeps the event loop alive.
 */
export class Pty {
  /** Process id of the child. */
  readonly pid: number;
  /** Path of the slave device, e.g. "/dev/pts/3". Test hook (the pty tests). */
  readonly ttyName: string;
  /** Resolves once, when the child has ended and has been reaped. Never rejects. */
  readonly exited: Promise<ExitStatus>;

  #fd: number;
  #closing = false;
  #eof = false;
  #status: ExitStatus | null = null;
  #closed: Promise<ExitStatus> | null = null;
  #readBuf = new Uint8Array(READ_CHUNK);
  #readQueue: Promise<unknown> = Promise.resolve();
  /** The reader was woken from waiting for output and has not read since. */
  #woken = false;
  /** Input went to the program; until then its output has priority (ms, performance.now()). */
  #inputUntil = -Infinity;
  /** The turn in which this PTY last read over the share (see PRIORITY_READ). */
  #jumped = -1;
  /**
   * Called when a read finds no output waiting and starts waiting for
   * some: the program has paused or stopped writing, for now.
   */
  onReadWait: (() => void) | null = null;
  #writeQueue: Promise<unknown> = Promise.resolve();
  /** Bumped by discardPendingInput(): writes queued before it stop. */
  #writeGen = 0;
  /** Set while reading and writing are suspended (a handover): they wait for it. */
  #suspended: PromiseWithResolvers<void> | null = null;
  /** An adopted child's pidfd (see {@link Pty.adopt}), else -1. */
  #pidfd = -1;
  /** The output rate, and the session's CPU share while it floods. */
  #share: FloodShare;
  /** An adopted child: its exit is known by its pidfd or the PTY's end, not waitpid. */
  readonly adopted: boolean;

  private constructor(
    fd: number,
    pid: number,
    ttyName: string,
    pidfd?: number | null,
  ) {
    this.#fd = fd;
    this.pid = pid;
    this.ttyName = ttyName;
    this.#share = new FloodShare(pid);
    this.adopted = pidfd !== undefined;
    if (pidfd === undefined) {
      // #status is set in the same step as the reaping: kill() after it
      // does nothing, so it never reaches a reused pid.
      this.exited = new Promise((resolve) =>
        reaper().watch(pid, (status) => resolve(this.#status = status))
      );
      return;
    }
    this.#pidfd = pidfd ?? -1;
    const { promise, resolve } = Promise.withResolvers<ExitStatus>();
    this.exited = promise;
    this.#adoptedExit = () => resolve(this.#status ??= UNKNOWN_EXIT);
    if (pidfd !== null) {
      // Readable once the process has ended (whoever reaps it).
      void poller().wait(pidfd, C.POLLIN).then((revents) => {
        if (revents !== 0) this.#adoptedExit?.();
      });
    }
  }

  /** An adopted child's exit: called when its pidfd fires or the PTY ends. */
  #adoptedExit: (() => void) | null = null;

  /**
   * A PTY master handed over by an earlier server (`domterm
   * restart-server`): `fd` is the master (non-blocking), `pid` its
   * child, which is not this process's child, so waitpid cannot see it:
   * its end is known from `pidfd` (pidfd_open of the child, readable once
   * it ended) or, without one, when the PTY reports its end (EIO / HUP);
   * the exit status is unknown either way (code and signal null).
   */
  static adopt(
    fd: number,
    pid: number,
    ttyName: string,
    pidfd: number | null,
  ): Pty {
    return new Pty(fd, pid, ttyName, pidfd);
  }

  /** The master's fd (to hand it over); -1 once closed. */
  get fd(): number {
    return this.#fd;
  }

  /** An adopted child's pidfd, or -1. */
  get pidfd(): number {
    return this.#pidfd;
  }

  /**
   * Stop reading and writing for now, without closing anything: reads and
   * writes in progress wait (no byte more leaves the kernel's buffers)
   * until {@link resumeIo}. Resolves once no poll() in flight names the
   * master.
   */
  suspendIo(): Promise<void> {
    this.#suspended ??= Promise.withResolvers<void>();
    return poller().forget(this.#fd);
  }

  /** Reading and writing go on (after {@link suspendIo}). */
  resumeIo(): void {
    const s = this.#suspended;
    this.#suspended = null;
    s?.resolve();
  }

  /**
   * This process lets the PTY go (another server holds it now): reading
   * and writing end, nothing is signalled and the master stays open until
   * the process exits, so the program never sees a hang-up.
   */
  letGo(): void {
    this.#closing = true;
    this.#status ??= UNKNOWN_EXIT;
    this.resumeIo();
  }

  /**
   * Opens a pty, sets its window size and starts `options.command` on it.
   *
   * @throws Error with a readable message, e.g. "cannot run 'foo': No such
   *   file or directory", when the pty cannot be set up or the program cannot
   *   be started.
   */
  static spawn(options: SpawnOptions): Pty {
    const L = libc();
    const s = L.symbols;
    const ws = winsize(
      options.cols,
      options.rows,
      options.pixelWidth,
      options.pixelHeight,
    );
    if (!options.command) throw new Error("pty: command is empty");
    if (options.cwd !== undefined) checkDirectory(options.cwd);

    const fd = s.posix_openpt(C.O_RDWR | C.O_NOCTTY | C.O_CLOEXEC);
    if (fd < 0) throw sysError("posix_openpt", L.errno());
    try {
      if (C.O_CLOEXEC === 0) {
        // The master must not leak into children (ours or Deno.Command's).
        const fl = L.fcntlInt(fd, C.F_GETFD, 0);
        if (fl < 0 || L.fcntlInt(fd, C.F_SETFD, fl | C.FD_CLOEXEC) < 0) {
          throw sysError("fcntl(F_SETFD)", L.errno());
        }
      }
      if (s.grantpt(fd) !== 0) throw sysError("grantpt", L.errno());
      if (s.unlockpt(fd) !== 0) throw sysError("unlockpt", L.errno());
      const ttyName = slaveName(fd);
      const fl = L.fcntlInt(fd, C.F_GETFL, 0);
      if (fl < 0 || L.fcntlInt(fd, C.F_SETFL, fl | C.O_NONBLOCK) < 0) {
        throw sysError("fcntl(F_SETFL)", L.errno());
      }
      if (L.ioctlPtr(fd, C.TIOCSWINSZ, ws) < 0) {
        throw sysError("ioctl(TIOCSWINSZ)", L.errno());
      }
      const pid = spawnOnSlave(ttyName, options);
      return new Pty(fd, pid, ttyName);
    } catch (e) {
      s.close(fd);
      throw e;
    }
  }

  /**
   * The next chunk of output (a fresh copy, up to 64 KiB), or null at end of
   * file (the child and everything else holding the slave are gone) or once
   * close() was called. Concurrent calls are served in order. When nobody
   * calls read(), the kernel buffer fills and the child blocks: that is the
   * back-pressure.
   */
  read(): Promise<Uint8Array<ArrayBuffer> | null> {
    const result = this.#readQueue.then(() => this.#readOnce());
    this.#readQueue = result.catch(() => {});
    return result;
  }

  /**
   * Whether a read over the turn's share may go ahead (PRIORITY_READ):
   * once per turn, for a reader just woken or a program just given input.
   */
  #mayJump(): boolean {
    return this.#jumped !== turn.id &&
      (this.#woken || performance.now() < this.#inputUntil);
  }

  async #readOnce(): Promise<Uint8Array<ArrayBuffer> | null> {
    const L = libc();
    for (;;) {
      if (this.#suspended) await this.#suspended.promise;
      if (this.#closing || this.#eof) return null;
      let max = READ_CHUNK;
      if (turnUsed()) {
        if (!this.#mayJump()) {
          await nextTurn();
          continue;
        }
        max = PRIORITY_READ;
        this.#jumped = turn.id;
      }
      const n = Number(L.symbols.read(this.#fd, this.#readBuf, BigInt(max)));
      if (n > 0) {
        this.#woken = false;
        echoTrace?.mark(this, "read");
        // A PTY hands out about 4 KiB per read: take what else is already
        // there, so a flood travels in fewer, larger chunks (and frames).
        let total = n;
        while (total < max) {
          const m = Number(L.symbols.read(
            this.#fd,
            this.#readBuf.subarray(total),
            BigInt(max - total),
          ));
          if (m <= 0) break; // EAGAIN, EOF or EIO: the next call sees it
          total += m;
        }
        countRead(total);
        this.#share.read(total);
        return this.#readBuf.slice(0, total);
      }
      if (n === 0) {
        this.#eof = true;
        this.#adoptedExit?.();
        return null;
      }
      const err = L.errno();
      if (err === C.EAGAIN) {
        this.onReadWait?.();
        // POLLHUP / POLLERR wake it too: the next read() says EIO or EOF.
        await poller().wait(this.#fd, C.POLLIN);
        this.#woken = true;
        echoTrace?.mark(this, "ready");
      } else if (err === C.EIO) {
        // Linux: every slave fd is closed (macOS reports 0 instead).
        this.#eof = true;
        this.#adoptedExit?.();
        return null;
      } else if (err !== C.EINTR) throw sysError("read", err);
    }
  }

  /**
   * Writes all of `data` (strings as UTF-8) to the child's input. Writes are
   * queued: concurrent calls never interleave. The bytes are copied, so the
   * caller may reuse its buffer at once. Resolves when every byte went into
   * the kernel, or when the rest can no longer be delivered (close() was
   * called, or no process has the slave open: EIO / POLLHUP); rejects only on
   * unexpected errors.
   *
   * `until`, if given, is asked before each piece goes into the kernel: once
   * it returns false the rest is dropped (a paste for a program that is no
   * longer in the foreground). {@link discardPendingInput} drops the rest of
   * every write queued before it.
   */
  write(
    data: Uint8Array | string,
    until?: () => boolean,
  ): Promise<void> {
    const bytes = typeof data === "string"
      ? encoder.encode(data)
      : data.slice();
    const gen = this.#writeGen;
    const live = () => gen === this.#writeGen && (until?.() ?? true);
    // What the program answers (an echo, a prompt after Ctrl+C) should
    // not wait behind other sessions' floods.
    this.#inputUntil = performance.now() + INPUT_PRIORITY_MS;
    const result = this.#writeQueue.then(() => this.#writeAll(bytes, live));
    this.#writeQueue = result.catch(() => {});
    return result;
  }

  /**
   * Drops what the writes queued so far have not yet put into the kernel,
   * as a tty flushes its input queue on INTR: a later write goes next.
   */
  discardPendingInput(): void {
    this.#writeGen++;
  }

  async #writeAll(bytes: Uint8Array, live: () => boolean): Promise<void> {
    const L = libc();
    let offset = 0;
    while (offset < bytes.length) {
      if (this.#suspended) await this.#suspended.promise;
      if (this.#closing || !live()) return;
      if (offset === 0) this.#share.input();
      const rest = bytes.subarray(offset);
      const n = Number(L.symbols.write(this.#fd, rest, BigInt(rest.length)));
      if (n >= 0) {
        offset += n;
        echoTrace?.mark(this, "write");
        continue;
      }
      const err = L.errno();
      if (err === C.EAGAIN) {
        const revents = await poller().wait(this.#fd, C.POLLOUT);
        // POLLHUP: no process has the slave open, nobody will ever read this.
        if (revents & C.POLLHUP) return;
      } else if (err === C.EIO) return;
      else if (err !== C.EINTR) throw sysError("write", err);
    }
  }

  /**
   * Sets the window size (TIOCSWINSZ); the kernel sends SIGWINCH to the
   * foreground process group. Does nothing after close().
   */
  resize(
    cols: number,
    rows: number,
    pixelWidth?: number,
    pixelHeight?: number,
  ): void {
    const ws = winsize(cols, rows, pixelWidth, pixelHeight);
    if (this.#closing) return;
    const L = libc();
    if (L.ioctlPtr(this.#fd, C.TIOCSWINSZ, ws) < 0) {
      throw sysError("ioctl(TIOCSWINSZ)", L.errno());
    }
  }

  /**
   * The slave's line discipline state (tcgetattr on the master reports the
   * slave's termios): canonical (ICANON, line editing by the kernel), ECHO,
   * and the special characters (INTR, QUIT, ERASE, KILL, EOF, SUSP; "" when
   * disabled). The line editor's automatic mode is driven by it.
   *
   * @throws Error after close().
   */
  getTermios(): Termios {
    if (this.#closing) throw new Error("pty: getTermios() after close()");
    const L = libc();
    const t = new Uint8Array(SIZES.termios);
    if (L.symbols.tcgetattr(this.#fd, t) !== 0) {
      throw sysError("tcgetattr", L.errno());
    }
    const view = new DataView(t.buffer);
    const lflag = C.termiosLflagSize === 4
      ? view.getUint32(C.termiosLflagOffset, true)
      : Number(view.getBigUint64(C.termiosLflagOffset, true) & 0xffffffffn);
    // _POSIX_VDISABLE is 0 on Linux and 0xff on macOS.
    const cc = (index: number) => {
      const b = t[C.termiosCcOffset + index];
      return b === 0 || b === 0xff ? "" : String.fromCharCode(b);
    };
    return {
      canonical: (lflag & C.ICANON) !== 0,
      echo: (lflag & C.ECHO) !== 0,
      cc: {
        intr: cc(C.VINTR),
        quit: cc(C.VQUIT),
        erase: cc(C.VERASE),
        kill: cc(C.VKILL),
        eof: cc(C.VEOF),
        susp: cc(C.VSUSP),
      },
    };
  }

  /** The terminal's foreground process group (tcgetpgrp on the master), or null. */
  foregroundGroup(): number | null {
    if (this.#closing) return null;
    const pgrp = libc().symbols.tcgetpgrp(this.#fd);
    return pgrp > 0 ? pgrp : null;
  }

  /**
   * Sends a signal (name or number; default SIGHUP) to the child. Does
   * nothing once the child has been reaped (its pid may belong to another
   * process by then) or when it is already gone (ESRCH).
   */
  kill(signal: Deno.Signal | number = "SIGHUP"): void {
    const num = typeof signal === "number" ? signal : C.signals[signal];
    if (num === undefined) {
      throw new Error(`pty: signal ${signal} does not exist on this platform`);
    }
    this.#signal(this.pid, num);
  }

  #signal(target: number, signal: number): void {
    if (this.#status) return;
    // An adopted child: its pidfd cannot reach a reused pid.
    if (this.#pidfd >= 0 && target === this.pid) {
      pidfdSignal(this.#pidfd, signal);
      return;
    }
    const L = libc();
    if (L.symbols.kill(target, signal) !== 0) {
      const err = L.errno();
      if (err !== C.ESRCH) throw sysError(`kill(${target}, ${signal})`, err);
    }
  }

  /**
   * Ends the session: stops reading and writing, sends SIGHUP, closes the
   * master (which hangs up the slave), sends SIGKILL to the child's process
   * group if it is still alive after 2 s, and resolves with the exit status.
   * Calling it again returns the same promise.
   */
  close(): Promise<ExitStatus> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<ExitStatus> {
    this.#closing = true;
    this.#signal(this.pid, C.signals.SIGHUP!);
    const timer = setTimeout(() => {
      // The child is a session and process group leader: -pid also reaches
      // the programs it started (e.g. a `sleep` that inherited an ignored HUP).
      // Safe from pid reuse: the leader is not reaped before #status is set.
      this.#signal(-this.pid, C.SIGKILL);
      this.#signal(this.pid, C.SIGKILL);
    }, KILL_GRACE_MS);
    try {
      // Pending reads and writes end (they see #closing); the fd is closed
      // once the poll() call in flight no longer names it.
      const fd = this.#fd;
      await poller().forget(fd);
      libc().symbols.close(fd);
      this.#fd = -1;
      // An adopted child without a pidfd: the closed master is its end here.
      this.#adoptedExit?.();
      const status = await this.exited;
      if (this.#pidfd >= 0) {
        await poller().forget(this.#pidfd);
        libc().symbols.close(this.#pidfd);
        this.#pidfd = -1;
      }
      return status;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The slave's path (ptsname_r, or ptsname where that is missing). */
function slaveName(fd: number): string {
  const L = libc();
  const s = L.symbols;
  if (s.ptsname_r) {
    const buf = new Uint8Array(256);
    const err = s.ptsname_r(fd, buf, BigInt(buf.length));
    if (err !== 0) throw sysError("ptsname_r", err > 0 ? err : L.errno());
    return new TextDecoder().decode(buf.subarray(0, buf.indexOf(0)));
  }
  const p = s.ptsname(fd);
  if (p === null) throw sysError("ptsname", L.errno());
  return Deno.UnsafePointerView.getCString(p);
}

/** A readable error for a cwd that is missing or not a directory, checked before spawning. */
function checkDirectory(cwd: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(cwd);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) return; // no --allow-read: let chdir decide
    const why = e instanceof Deno.errors.NotFound
      ? "No such file or directory"
      : (e as Error).message;
    throw new Error(`pty: cannot change directory to '${cwd}': ${why}`);
  }
  if (!info.isDirectory) {
    throw new Error(
      `pty: cannot change directory to '${cwd}': Not a directory`,
    );
  }
}

/**
 * posix_spawnp the child: a new session (SETSID), empty signal mask, default
 * dispositions (Deno ignores SIGPIPE; children must not inherit that), and
 * the slave opened without O_NOCTTY as fd 0 (so it becomes the controlling
 * terminal of the new session), duplicated to 1 and 2.
 */
function spawnOnSlave(slave: string, options: SpawnOptions): number {
  const L = libc();
  const s = L.symbols;
  const env = typeof options.env === "function"
    ? options.env(slave)
    : options.env ?? Deno.env.toObject();
  const envList = Object.entries(env).map(([k, v]) => {
    if (k === "" || k.includes("=")) {
      throw new Error(`pty: invalid environment variable name '${k}'`);
    }
    return `${k}=${v}`;
  });
  const argv = cStringArray(
    [options.command, ...(options.args ?? [])],
    "an argument",
  );
  const envp = cStringArray(envList, "the environment");
  const file = cString(options.command, "the command");
  const slavePath = cString(slave, "the tty name");
  const cwd = options.cwd === undefined
    ? null
    : cString(options.cwd, "the directory");

  const attr = new Uint8Array(SIZES.spawnattr);
  const actions = new Uint8Array(SIZES.fileActions);
  const noSignals = new Uint8Array(SIZES.sigset);
  const allSignals = new Uint8Array(SIZES.sigset);
  const pid = new Int32Array(1);
  const check = (what: string, err: number) => {
    if (err !== 0) throw sysError(what, err);
  };

  check("posix_spawnattr_init", s.posix_spawnattr_init(attr));
  try {
    check(
      "posix_spawnattr_setflags",
      s.posix_spawnattr_setflags(
        attr,
        C.POSIX_SPAWN_SETSID | C.POSIX_SPAWN_SETSIGMASK |
          C.POSIX_SPAWN_SETSIGDEF | C.POSIX_SPAWN_CLOEXEC_DEFAULT,
      ),
    );
    s.sigemptyset(noSignals);
    check(
      "posix_spawnattr_setsigmask",
      s.posix_spawnattr_setsigmask(attr, noSignals),
    );
    s.sigfillset(allSignals);
    s.sigdelset(allSignals, C.SIGKILL);
    s.sigdelset(allSignals, C.SIGSTOP);
    check(
      "posix_spawnattr_setsigdefault",
      s.posix_spawnattr_setsigdefault(attr, allSignals),
    );

    check(
      "posix_spawn_file_actions_init",
      s.posix_spawn_file_actions_init(actions),
    );
    try {
      if (cwd) {
        const addchdir = s.posix_spawn_file_actions_addchdir_np;
        if (!addchdir) {
          throw new Error(
            "pty: cwd is not supported: this libc lacks posix_spawn_file_actions_addchdir_np",
          );
        }
        check("posix_spawn_file_actions_addchdir_np", addchdir(actions, cwd));
      }
      check(
        "posix_spawn_file_actions_addopen",
        s.posix_spawn_file_actions_addopen(actions, 0, slavePath, C.O_RDWR, 0),
      );
      check(
        "posix_spawn_file_actions_adddup2",
        s.posix_spawn_file_actions_adddup2(actions, 0, 1),
      );
      check(
        "posix_spawn_file_actions_adddup2",
        s.posix_spawn_file_actions_adddup2(actions, 0, 2),
      );
      const err = s.posix_spawnp(
        pid,
        file,
        actions,
        attr,
        argv.array,
        envp.array,
      );
      // The pointer arrays point into these: keep them reachable until here.
      void argv.keep.length;
      void envp.keep.length;
      if (err !== 0) {
        throw new Error(`cannot run '${options.command}': ${L.strerror(err)}`);
      }
    } finally {
      s.posix_spawn_file_actions_destroy(actions);
    }
  } finally {
    s.posix_spawnattr_destroy(attr);
  }
  return pid[0];
}
