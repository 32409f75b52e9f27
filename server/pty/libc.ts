/**
 * The libc symbols and constants that the PTY binding needs, opened through
 * Deno FFI (`Deno.dlopen`). Linux (glibc, x86_64 / aarch64) is the tested
 * platform; the macOS values are design constants taken from the system
 * headers and are untested.
 *
 * The library is opened lazily by {@linkcode libc}, so importing this module
 * needs no `--allow-ffi`; calling into it does.
 *
 * @module
 */

/** The operating systems this binding knows the ABI of. */
export type PtyPlatform = "linux" | "darwin";

/** Platform-dependent numbers: flag bits, errno values, ioctl requests, struct layouts. */
export interface LibcConstants {
  /** Path given to `Deno.dlopen`. */
  readonly library: string;
  /** Name of the function that returns the address of the calling thread's errno. */
  readonly errnoFunction: string;
  readonly O_RDWR: number;
  readonly O_NOCTTY: number;
  readonly O_NONBLOCK: number;
  /** 0 where `posix_openpt` does not accept it (then FD_CLOEXEC is set with fcntl). */
  readonly O_CLOEXEC: number;
  readonly F_GETFD: number;
  readonly F_SETFD: number;
  readonly F_GETFL: number;
  readonly F_SETFL: number;
  readonly FD_CLOEXEC: number;
  readonly EINTR: number;
  readonly EIO: number;
  readonly EAGAIN: number;
  readonly ESRCH: number;
  readonly ECHILD: number;
  readonly ENOENT: number;
  readonly POLLIN: number;
  readonly POLLOUT: number;
  readonly POLLERR: number;
  readonly POLLHUP: number;
  readonly POLLNVAL: number;
  readonly TIOCSWINSZ: number;
  readonly WNOHANG: number;
  readonly POSIX_SPAWN_SETSIGDEF: number;
  readonly POSIX_SPAWN_SETSIGMASK: number;
  readonly POSIX_SPAWN_SETSID: number;
  /** Close every fd not named in a file action (macOS only; 0 elsewhere). */
  readonly POSIX_SPAWN_CLOEXEC_DEFAULT: number;
  readonly SIGKILL: number;
  readonly SIGSTOP: number;
  /** struct termios: byte offset and size of c_lflag, and its ICANON / ECHO bits. */
  readonly termiosLflagOffset: number;
  readonly termiosLflagSize: 4 | 8;
  readonly ICANON: number;
  readonly ECHO: number;
  /** struct termios: byte offset of c_cc, and the indices of the special characters in it. */
  readonly termiosCcOffset: number;
  readonly VINTR: number;
  readonly VQUIT: number;
  readonly VERASE: number;
  readonly VKILL: number;
  readonly VEOF: number;
  readonly VSUSP: number;
  /** Signal names (Deno.Signal) to numbers. */
  readonly signals: Readonly<Partial<Record<Deno.Signal, number>>>;
}

const LINUX_SIGNALS: Partial<Record<Deno.Signal, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGTRAP: 5,
  SIGABRT: 6,
  SIGBUS: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
  SIGSTKFLT: 16,
  SIGCHLD: 17,
  SIGCONT: 18,
  SIGSTOP: 19,
  SIGTSTP: 20,
  SIGTTIN: 21,
  SIGTTOU: 22,
  SIGURG: 23,
  SIGXCPU: 24,
  SIGXFSZ: 25,
  SIGVTALRM: 26,
  SIGPROF: 27,
  SIGWINCH: 28,
  SIGIO: 29,
  SIGPOLL: 29,
  SIGPWR: 30,
  SIGSYS: 31,
  SIGUNUSED: 31,
};

const DARWIN_SIGNALS: Partial<Record<Deno.Signal, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGTRAP: 5,
  SIGABRT: 6,
  SIGEMT: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGBUS: 10,
  SIGSEGV: 11,
  SIGSYS: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
  SIGURG: 16,
  SIGSTOP: 17,
  SIGTSTP: 18,
  SIGCONT: 19,
  SIGCHLD: 20,
  SIGTTIN: 21,
  SIGTTOU: 22,
  SIGIO: 23,
  SIGXCPU: 24,
  SIGXFSZ: 25,
  SIGVTALRM: 26,
  SIGPROF: 27,
  SIGWINCH: 28,
  SIGINFO: 29,
  SIGUSR1: 30,
  SIGUSR2: 31,
};

/** glibc on x86_64 and aarch64 (the asm-generic values). */
const LINUX: LibcConstants = {
  library: "libc.so.6",
  errnoFunction: "__errno_location",
  O_RDWR: 0o2,
  O_NOCTTY: 0o400,
  O_NONBLOCK: 0o4000,
  O_CLOEXEC: 0o2000000,
  F_GETFD: 1,
  F_SETFD: 2,
  F_GETFL: 3,
  F_SETFL: 4,
  FD_CLOEXEC: 1,
  EINTR: 4,
  EIO: 5,
  EAGAIN: 11,
  ESRCH: 3,
  ECHILD: 10,
  ENOENT: 2,
  POLLIN: 0x1,
  POLLOUT: 0x4,
  POLLERR: 0x8,
  POLLHUP: 0x10,
  POLLNVAL: 0x20,
  TIOCSWINSZ: 0x5414,
  WNOHANG: 1,
  POSIX_SPAWN_SETSIGDEF: 0x04,
  POSIX_SPAWN_SETSIGMASK: 0x08,
  POSIX_SPAWN_SETSID: 0x80,
  POSIX_SPAWN_CLOEXEC_DEFAULT: 0,
  SIGKILL: 9,
  SIGSTOP: 19,
  termiosLflagOffset: 12,
  termiosLflagSize: 4,
  ICANON: 0x2,
  ECHO: 0x8,
  termiosCcOffset: 17, // after four 32-bit flags and c_line
  VINTR: 0,
  VQUIT: 1,
  VERASE: 2,
  VKILL: 3,
  VEOF: 4,
  VSUSP: 10,
  signals: LINUX_SIGNALS,
};

/** macOS (libSystem). Untested: values from the SDK headers. */
const DARWIN: LibcConstants = {
  library: "/usr/lib/libSystem.B.dylib",
  errnoFunction: "__error",
  O_RDWR: 0x2,
  O_NOCTTY: 0x20000,
  O_NONBLOCK: 0x4,
  O_CLOEXEC: 0, // posix_openpt rejects it; FD_CLOEXEC is set afterwards
  F_GETFD: 1,
  F_SETFD: 2,
  F_GETFL: 3,
  F_SETFL: 4,
  FD_CLOEXEC: 1,
  EINTR: 4,
  EIO: 5,
  EAGAIN: 35,
  ESRCH: 3,
  ECHILD: 10,
  ENOENT: 2,
  POLLIN: 0x1,
  POLLOUT: 0x4,
  POLLERR: 0x8,
  POLLHUP: 0x10,
  POLLNVAL: 0x20,
  TIOCSWINSZ: 0x80087467,
  WNOHANG: 1,
  POSIX_SPAWN_SETSIGDEF: 0x04,
  POSIX_SPAWN_SETSIGMASK: 0x08,
  POSIX_SPAWN_SETSID: 0x0400,
  POSIX_SPAWN_CLOEXEC_DEFAULT: 0x4000,
  SIGKILL: 9,
  SIGSTOP: 17,
  termiosLflagOffset: 24, // tcflag_t is unsigned long
  termiosLflagSize: 8,
  ICANON: 0x100,
  ECHO: 0x8,
  termiosCcOffset: 32, // after four 64-bit flags
  VINTR: 8,
  VQUIT: 9,
  VERASE: 3,
  VKILL: 5,
  VEOF: 0,
  VSUSP: 10,
  signals: DARWIN_SIGNALS,
};

/** The platform this process runs on, or an Error for an unsupported one. */
function currentPlatform(): PtyPlatform {
  const os = Deno.build.os;
  if (os === "linux" || os === "darwin") return os;
  throw new Error(`pty: unsupported operating system '${os}'`);
}

/** Constants for the running platform (Linux values on other systems, which {@linkcode libc} rejects). */
export const C: LibcConstants = Deno.build.os === "darwin" ? DARWIN : LINUX;

/**
 * On Apple arm64 the variadic arguments of a C function are passed on the
 * stack, not in registers, so a variadic function (ioctl, fcntl) cannot be
 * called through a fixed-arity FFI declaration as is. Declaring six padding
 * arguments fills registers x2..x7 and pushes the real third argument to the
 * stack slot where va_arg looks for it. Untested (no such machine here).
 */
const VARIADIC_PAD = Deno.build.os === "darwin" && Deno.build.arch === "aarch64"
  ? 6
  : 0;
const PAD_TYPES: "i64"[] = Array(VARIADIC_PAD).fill("i64");
const PAD_VALUES: bigint[] = Array(VARIADIC_PAD).fill(0n);

/** Byte sizes used to allocate libc structs (generously: the buffers are opaque). */
export const SIZES = {
  /** posix_spawnattr_t: 336 bytes on x86_64 glibc, a pointer on macOS. */
  spawnattr: 1024,
  /** posix_spawn_file_actions_t: 80 bytes on x86_64 glibc, a pointer on macOS. */
  fileActions: 1024,
  /** sigset_t: 128 bytes on glibc, 4 on macOS. */
  sigset: 256,
  /** struct termios: 60 bytes on Linux, 72 on macOS. */
  termios: 256,
} as const;

const SYMBOLS = {
  posix_openpt: { parameters: ["i32"], result: "i32" },
  grantpt: { parameters: ["i32"], result: "i32" },
  unlockpt: { parameters: ["i32"], result: "i32" },
  // ptsname_r is missing on macOS before 13.4; ptsname is the fallback.
  ptsname_r: {
    parameters: ["i32", "buffer", "usize"],
    result: "i32",
    optional: true,
  },
  ptsname: { parameters: ["i32"], result: "pointer" },
  ioctl: {
    parameters: ["i32", "u64", ...PAD_TYPES, "buffer"],
    result: "i32",
  },
  fcntl: { parameters: ["i32", "i32", ...PAD_TYPES, "i64"], result: "i32" },
  tcgetattr: { parameters: ["i32", "buffer"], result: "i32" },
  tcgetpgrp: { parameters: ["i32"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  // Runs on a worker thread and returns a Promise: the one shared poller
  // (poller.ts) waits for every master in one call, without blocking the
  // event loop.
  poll: {
    parameters: ["buffer", "u32", "i32"],
    result: "i32",
    nonblocking: true,
  },
  // The same, with a timeout of 0 only, on the main thread: between turns
  // of busy read loops, the call above's completion took up to 0.8 s to
  // reach JavaScript (poller.ts, Poller.check).
  pollNow: {
    name: "poll",
    parameters: ["buffer", "u32", "i32"],
    result: "i32",
  },
  // The poller's wake-up pipe: int pipe(int fds[2]).
  pipe: { parameters: ["buffer"], result: "i32" },
  kill: { parameters: ["i32", "i32"], result: "i32" },
  // Only ever with WNOHANG, on the main thread (reaper.ts): a call that
  // waits for a child's exit would hold a worker thread for its lifetime.
  waitpid: { parameters: ["i32", "buffer", "i32"], result: "i32" },
  strerror: { parameters: ["i32"], result: "pointer" },
  errnoLocation: { parameters: [], result: "pointer" },
  sigemptyset: { parameters: ["buffer"], result: "i32" },
  sigfillset: { parameters: ["buffer"], result: "i32" },
  sigdelset: { parameters: ["buffer", "i32"], result: "i32" },
  posix_spawnattr_init: { parameters: ["buffer"], result: "i32" },
  posix_spawnattr_destroy: { parameters: ["buffer"], result: "i32" },
  posix_spawnattr_setflags: { parameters: ["buffer", "i16"], result: "i32" },
  posix_spawnattr_setsigmask: {
    parameters: ["buffer", "buffer"],
    result: "i32",
  },
  posix_spawnattr_setsigdefault: {
    parameters: ["buffer", "buffer"],
    result: "i32",
  },
  posix_spawn_file_actions_init: { parameters: ["buffer"], result: "i32" },
  posix_spawn_file_actions_destroy: { parameters: ["buffer"], result: "i32" },
  posix_spawn_file_actions_addopen: {
    parameters: ["buffer", "i32", "buffer", "i32", "u32"],
    result: "i32",
  },
  posix_spawn_file_actions_adddup2: {
    parameters: ["buffer", "i32", "i32"],
    result: "i32",
  },
  // glibc >= 2.29, macOS >= 10.15.
  posix_spawn_file_actions_addchdir_np: {
    parameters: ["buffer", "buffer"],
    result: "i32",
    optional: true,
  },
  posix_spawnp: {
    parameters: ["buffer", "buffer", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** The opened library's symbols. */
export type LibcSymbols = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

/** The opened library plus helpers that hide per-platform calling details. */
export interface Libc {
  readonly symbols: LibcSymbols;
  /** errno of the last failed synchronous call made on this thread. */
  errno(): number;
  /** strerror(errno) as a JS string. */
  strerror(errno: number): string;
  /** ioctl(fd, request, pointer) */
  ioctlPtr(fd: number, request: number, arg: Uint8Array): number;
  /** fcntl(fd, cmd, int) (also usable for the one-argument GET commands). */
  fcntlInt(fd: number, cmd: number, arg: number): number;
}

let opened: Libc | undefined;

/**
 * Opens libc on first use and returns it (the same object afterwards). The
 * library stays open for the life of the process.
 *
 * @throws Error on an unsupported OS, or without `--allow-ffi`.
 */
export function libc(): Libc {
  if (opened) return opened;
  currentPlatform();
  const lib = Deno.dlopen(C.library, {
    ...SYMBOLS,
    errnoLocation: { ...SYMBOLS.errnoLocation, name: C.errnoFunction },
  });
  const s = lib.symbols;
  // errno is thread-local; the main JS thread's slot never moves, so one view suffices.
  const errnoPtr = s.errnoLocation();
  if (errnoPtr === null) throw new Error("pty: errno location is NULL");
  const errnoView = new Deno.UnsafePointerView(errnoPtr);
  // The declared parameter lists include the padding on Apple arm64; TS
  // sees the union of both shapes, so call through a loosely typed alias.
  const ioctl = s.ioctl as unknown as (...a: unknown[]) => number;
  const fcntl = s.fcntl as unknown as (...a: unknown[]) => number;
  opened = {
    symbols: s,
    errno: () => errnoView.getInt32(0),
    strerror(errno: number): string {
      const p = s.strerror(errno);
      return p === null
        ? `errno ${errno}`
        : Deno.UnsafePointerView.getCString(p);
    },
    ioctlPtr: (fd, request, arg) =>
      ioctl(fd, BigInt(request), ...PAD_VALUES, arg),
    fcntlInt: (fd, cmd, arg) => fcntl(fd, cmd, ...PAD_VALUES, BigInt(arg)),
  };
  return opened;
}

/** A decoded wait status: exit code or terminating signal. */
export interface DecodedStatus {
  code: number | null;
  signal: number | null;
}

/** Decodes a wait() status word (the same encoding on Linux and macOS). */
export function decodeWaitStatus(status: number): DecodedStatus {
  const low = status & 0x7f;
  if (low === 0) return { code: (status >> 8) & 0xff, signal: null }; // WIFEXITED
  if (low !== 0x7f) return { code: null, signal: low }; // WIFSIGNALED
  return { code: null, signal: null }; // stopped: not an exit
}
