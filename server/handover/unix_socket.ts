/**
 * A UNIX stream socket made with libc directly, for the one thing Deno's
 * own sockets cannot do: pass file descriptors (`SCM_RIGHTS`) from one
 * process to another. `domterm restart-server` hands every PTY master to
 * the new server over one (server/handover/). Linux only (x86_64 and
 * aarch64: the structs below have the same layout on every 64-bit Linux).
 *
 * The fds are non-blocking and close-on-exec; waiting for readiness goes
 * through the PTYs' poller (server/pty/poller.ts), so nothing blocks the
 * event loop or holds a thread.
 *
 * Messages are frames: an 8-byte header (two little-endian u32: the
 * lengths of a JSON text and of a binary part) sent with `sendmsg`, the
 * fds riding on it as ancillary data, then the JSON and the binary part.
 * The receiver reads the header with `recvmsg` and the rest with `read`
 * of exactly the frame's length: a read never reaches into the next
 * frame, whose fds it would otherwise drop.
 *
 * The structs, as built by hand in ArrayBuffers (64-bit Linux, glibc and
 * the kernel ABI; all little-endian on x86_64 and aarch64):
 *
 * ```
 * struct sockaddr_un { sa_family_t sun_family;  // u16 at 0 (AF_UNIX = 1)
 *                      char sun_path[108]; };   // at 2; 110 bytes in all
 * struct iovec  { void *iov_base;               // u64 at 0
 *                 size_t iov_len; };            // u64 at 8; 16 bytes
 * struct msghdr { void *msg_name;               // u64 at 0 (NULL here)
 *                 socklen_t msg_namelen;        // u32 at 8 (+4 padding)
 *                 struct iovec *msg_iov;        // u64 at 16
 *                 size_t msg_iovlen;            // u64 at 24
 *                 void *msg_control;            // u64 at 32
 *                 size_t msg_controllen;        // u64 at 40
 *                 int msg_flags; };             // i32 at 48; 56 bytes
 * struct cmsghdr { size_t cmsg_len;             // u64 at 0: CMSG_LEN(n) = 16 + n
 *                  int cmsg_level;              // i32 at 8 (SOL_SOCKET = 1)
 *                  int cmsg_type;               // i32 at 12 (SCM_RIGHTS = 1)
 *                  unsigned char data[]; };     // at 16: n bytes, here int fds
 * ```
 *
 * `CMSG_SPACE(n)` is `16 + n` rounded up to 8. One frame carries at most
 * {@link MAX_FDS} fds (the kernel's SCM_MAX_FD is 253).
 *
 * @module
 */
import { C, libc } from "../pty/libc.ts";
import { poller } from "../pty/poller.ts";

const AF_UNIX = 1;
const SOCK_STREAM = 1;
const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;
const SOL_SOCKET = 1;
const SCM_RIGHTS = 1;
const MSG_NOSIGNAL = 0x4000;
const MSG_CMSG_CLOEXEC = 0x40000000;
const SUN_PATH_MAX = 108;
const MSGHDR_BYTES = 56;
const CMSG_HEADER = 16;
/** Fds one frame may carry (well below SCM_MAX_FD). */
export const MAX_FDS = 64;
/** The largest JSON or binary part of a frame accepted. */
const MAX_PART = 1 << 30;
const EINPROGRESS = 115;
const EAGAIN = 11;
const ENOSYS = 38;

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  listen: { parameters: ["i32", "i32"], result: "i32" },
  accept4: {
    parameters: ["i32", "pointer", "pointer", "i32"],
    result: "i32",
  },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  sendmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  recvmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  // pidfd_open (434) and pidfd_send_signal (424): the same numbers on
  // x86_64 and aarch64. syscall() is variadic; its integer arguments go in
  // registers on both, so a fixed-arity declaration works.
  syscall: {
    parameters: ["i64", "i64", "i64", "i64", "i64"],
    result: "i64",
  },
} as const satisfies Deno.ForeignLibraryInterface;

type Symbols = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];
let opened: Symbols | undefined;

/** The socket calls (libc opened once more: the PTY binding lacks them). */
function sym(): Symbols {
  if (Deno.build.os !== "linux") {
    throw new Error("handing sessions over needs Linux (SCM_RIGHTS via libc)");
  }
  return opened ??= Deno.dlopen(C.library, SYMBOLS).symbols;
}

function sysError(what: string, err = libc().errno()): Error {
  return new Error(`${what} failed: ${libc().strerror(err)}`);
}

function ptr(buf: Uint8Array): bigint {
  return Deno.UnsafePointer.value(Deno.UnsafePointer.of(buf));
}

function sockaddr(path: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(path);
  if (bytes.length >= SUN_PATH_MAX) {
    throw new Error(`socket path too long (${bytes.length} bytes): ${path}`);
  }
  const addr = new Uint8Array(2 + SUN_PATH_MAX);
  new DataView(addr.buffer).setUint16(0, AF_UNIX, true);
  addr.set(bytes, 2);
  return addr;
}

function newSocket(): number {
  const fd = sym().socket(
    AF_UNIX,
    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
    0,
  );
  if (fd < 0) throw sysError("socket");
  return fd;
}

/** Close an fd of ours (a PTY master, a pidfd or a socket). */
export function closeFd(fd: number): void {
  if (fd >= 0) sym().close(fd);
}

/** A listening socket at `path` (0600 by the caller's umask and directory). */
export class UnixListener {
  readonly fd: number;
  readonly path: string;

  constructor(path: string) {
    const fd = newSocket();
    const addr = sockaddr(path);
    if (sym().bind(fd, addr, addr.length) !== 0) {
      const e = sysError(`bind(${path})`);
      closeFd(fd);
      throw e;
    }
    if (sym().listen(fd, 1) !== 0) {
      const e = sysError("listen");
      closeFd(fd);
      throw e;
    }
    this.fd = fd;
    this.path = path;
  }

  /** The next connection; rejects once {@link close} was called. */
  async accept(): Promise<UnixStream> {
    for (;;) {
      const fd = sym().accept4(
        this.fd,
        null,
        null,
        SOCK_NONBLOCK | SOCK_CLOEXEC,
      );
      if (fd >= 0) return new UnixStream(fd);
      const err = libc().errno();
      if (err !== EAGAIN && err !== C.EINTR) throw sysError("accept", err);
      if (this.#closed) throw new Error("the listener was closed");
      await poller().wait(this.fd, C.POLLIN);
      if (this.#closed) throw new Error("the listener was closed");
    }
  }

  #closed = false;

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    void poller().forget(this.fd).then(() => closeFd(this.fd));
    try {
      Deno.removeSync(this.path);
    } catch { /* gone */ }
  }
}

/** Connect to the listener at `path`. */
export async function connectUnix(path: string): Promise<UnixStream> {
  const fd = newSocket();
  const addr = sockaddr(path);
  if (sym().connect(fd, addr, addr.length) !== 0) {
    const err = libc().errno();
    if (err !== EINPROGRESS && err !== EAGAIN) {
      closeFd(fd);
      throw sysError(`connect(${path})`, err);
    }
    await poller().wait(fd, C.POLLOUT);
  }
  return new UnixStream(fd);
}

/** One received frame. */
export interface Frame {
  json: unknown;
  binary: Uint8Array<ArrayBuffer>;
  /** The fds that came with it: the receiver owns them (close-on-exec). */
  fds: number[];
}

/** A connected socket that sends and receives frames with fds. */
export class UnixStream {
  readonly fd: number;
  #closed = false;

  constructor(fd: number) {
    this.fd = fd;
  }

  /** Send `json`, `binary` and `fds` as one frame (the fds are duplicated into the receiver). */
  async send(
    json: unknown,
    binary: Uint8Array = new Uint8Array(0),
    fds: number[] = [],
  ): Promise<void> {
    if (fds.length > MAX_FDS) throw new Error(`more than ${MAX_FDS} fds`);
    const text = new TextEncoder().encode(JSON.stringify(json));
    const header = new Uint8Array(8);
    const view = new DataView(header.buffer);
    view.setUint32(0, text.length, true);
    view.setUint32(4, binary.length, true);
    const sent = await this.#sendHeader(header, fds);
    await this.#writeAll(header.subarray(sent));
    await this.#writeAll(text);
    await this.#writeAll(binary);
  }

  /** sendmsg of (the start of) the header with the fds; returns the bytes sent. */
  async #sendHeader(header: Uint8Array, fds: number[]): Promise<number> {
    const iov = new BigUint64Array([ptr(header), BigInt(header.length)]);
    const space = fds.length ? CMSG_HEADER + ((fds.length * 4 + 7) & ~7) : 0;
    const control = new Uint8Array(Math.max(space, 8));
    const cv = new DataView(control.buffer);
    if (fds.length) {
      cv.setBigUint64(0, BigInt(CMSG_HEADER + fds.length * 4), true);
      cv.setInt32(8, SOL_SOCKET, true);
      cv.setInt32(12, SCM_RIGHTS, true);
      fds.forEach((fd, i) => cv.setInt32(CMSG_HEADER + 4 * i, fd, true));
    }
    const msg = new Uint8Array(MSGHDR_BYTES);
    const mv = new DataView(msg.buffer);
    const iovBytes = new Uint8Array(iov.buffer);
    mv.setBigUint64(16, ptr(iovBytes), true);
    mv.setBigUint64(24, 1n, true);
    if (fds.length) {
      mv.setBigUint64(32, ptr(control), true);
      mv.setBigUint64(40, BigInt(space), true);
    }
    for (;;) {
      const n = Number(sym().sendmsg(this.fd, msg, MSG_NOSIGNAL));
      void [header.length, control.length, iovBytes.length]; // kept alive
      if (n > 0) return n;
      const err = libc().errno();
      if (n === 0 || (err !== EAGAIN && err !== C.EINTR)) {
        throw sysError("sendmsg", err);
      }
      await this.#ready(C.POLLOUT);
    }
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let off = 0;
    while (off < bytes.length) {
      const rest = bytes.subarray(off);
      const n = Number(sym().write(this.fd, rest, BigInt(rest.length)));
      if (n > 0) {
        off += n;
        continue;
      }
      const err = libc().errno();
      if (n === 0 || (err !== EAGAIN && err !== C.EINTR)) {
        throw sysError("write", err);
      }
      await this.#ready(C.POLLOUT);
    }
  }

  async #ready(events: number): Promise<void> {
    if (this.#closed) throw new Error("the socket was closed");
    const revents = await poller().wait(this.fd, events);
    if (this.#closed) throw new Error("the socket was closed");
    if ((revents & events) === 0 && (revents & (C.POLLHUP | C.POLLERR))) {
      // Hang-up with nothing to read or no room to write: the next call says.
      if (events === C.POLLOUT) throw new Error("the other side hung up");
    }
  }

  /** The next frame, or null when the other side closed before one began. */
  async receive(): Promise<Frame | null> {
    const header = new Uint8Array(8);
    const fds: number[] = [];
    let got = 0;
    while (got < 8) {
      const n = await this.#recvHeader(header.subarray(got), fds);
      if (n === 0) {
        fds.forEach(closeFd);
        if (got === 0) return null;
        throw new Error("the other side hung up inside a frame");
      }
      got += n;
    }
    const view = new DataView(header.buffer);
    const jsonLen = view.getUint32(0, true), binLen = view.getUint32(4, true);
    if (jsonLen > MAX_PART || binLen > MAX_PART) {
      fds.forEach(closeFd);
      throw new Error("a frame is too large");
    }
    const text = await this.#readExactly(jsonLen);
    const binary = await this.#readExactly(binLen);
    return { json: JSON.parse(new TextDecoder().decode(text)), binary, fds };
  }

  /** recvmsg into `into`; the fds that came with it are added to `fds`. */
  async #recvHeader(into: Uint8Array, fds: number[]): Promise<number> {
    const iov = new BigUint64Array([ptr(into), BigInt(into.length)]);
    const iovBytes = new Uint8Array(iov.buffer);
    const space = CMSG_HEADER + MAX_FDS * 4;
    const control = new Uint8Array(space);
    const msg = new Uint8Array(MSGHDR_BYTES);
    const mv = new DataView(msg.buffer);
    mv.setBigUint64(16, ptr(iovBytes), true);
    mv.setBigUint64(24, 1n, true);
    mv.setBigUint64(32, ptr(control), true);
    mv.setBigUint64(40, BigInt(space), true);
    for (;;) {
      const n = Number(sym().recvmsg(this.fd, msg, MSG_CMSG_CLOEXEC));
      void [into.length, iovBytes.length, control.length]; // kept alive
      if (n >= 0) {
        fds.push(...controlFds(control, Number(mv.getBigUint64(40, true))));
        return n;
      }
      const err = libc().errno();
      if (err !== EAGAIN && err !== C.EINTR) throw sysError("recvmsg", err);
      await this.#ready(C.POLLIN);
    }
  }

  async #readExactly(length: number): Promise<Uint8Array<ArrayBuffer>> {
    const out = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const rest = out.subarray(got);
      const n = Number(sym().read(this.fd, rest, BigInt(rest.length)));
      if (n > 0) {
        got += n;
        continue;
      }
      const err = libc().errno();
      if (n === 0) throw new Error("the other side hung up inside a frame");
      if (err !== EAGAIN && err !== C.EINTR) throw sysError("read", err);
      await this.#ready(C.POLLIN);
    }
    return out;
  }

  /** Close the socket (a wait in progress rejects). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    void poller().forget(this.fd).then(() => closeFd(this.fd));
  }
}

/** The fds of the SCM_RIGHTS messages in a received control buffer of `length` bytes. */
function controlFds(control: Uint8Array, length: number): number[] {
  const view = new DataView(control.buffer, control.byteOffset);
  const out: number[] = [];
  let at = 0;
  while (at + CMSG_HEADER <= length) {
    const len = Number(view.getBigUint64(at, true));
    if (len < CMSG_HEADER) break;
    const level = view.getInt32(at + 8, true),
      type = view.getInt32(at + 12, true);
    if (level === SOL_SOCKET && type === SCM_RIGHTS) {
      for (let i = CMSG_HEADER; i + 4 <= len; i += 4) {
        out.push(view.getInt32(at + i, true));
      }
    }
    at += (len + 7) & ~7;
  }
  return out;
}

/**
 * A pidfd for process `pid` (pidfd_open, Linux 5.3+; close-on-exec): it
 * becomes readable when the process ends, whoever its parent is, and it
 * cannot come to mean another process. null where the kernel lacks it.
 */
export function pidfdOpen(pid: number): number | null {
  const fd = Number(sym().syscall(434n, BigInt(pid), 0n, 0n, 0n));
  if (fd >= 0) return fd;
  const err = libc().errno();
  if (err === ENOSYS || err === C.ESRCH) return null;
  throw sysError(`pidfd_open(${pid})`, err);
}

/** Send `signal` to the process of `pidfd` (pidfd_send_signal); false when it is gone. */
export function pidfdSignal(pidfd: number, signal: number): boolean {
  const r = Number(sym().syscall(424n, BigInt(pidfd), BigInt(signal), 0n, 0n));
  return r === 0;
}
