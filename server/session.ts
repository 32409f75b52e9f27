/**
 * A session: one child process on a pseudo-terminal and the windows
 * (WebSockets) attached to it, with flow control between them.
 *
 * Flow control: every window acknowledges the output bytes it has
 * processed. When the slowest window is more than HIGH_WATER bytes behind,
 * the session stops reading the PTY, so the kernel's buffer fills and the
 * program blocks (real back-pressure: Ctrl-C reaches a flooding program at
 * once). Reading resumes when every window is within LOW_WATER.
 *
 * @module
 */
import { type ExitStatus, Pty } from "./pty/pty.ts";
import {
  CLOSE_SESSION_ENDED,
  HIGH_WATER,
  LOW_WATER,
  type ServerMessage,
} from "../core/protocol.ts";
import { VERSION } from "./version.ts";
import {
  detectShell,
  type LaunchPlan,
  planShellLaunchSync,
} from "./shell/integration.ts";

/** What starts a session. */
export interface SessionOptions {
  id: number;
  command: string;
  args: string[];
  cols: number;
  rows: number;
  /** Base environment (default: the server's). */
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Load domterm's shell integration into bash, zsh or fish (default true;
   * see server/shell/integration.ts). `DOMTERM_SHELL_INTEGRATION=0` in the
   * environment turns it off too.
   */
  shellIntegration?: boolean;
  /** Flow-control thresholds (bytes); default from core/protocol.ts. */
  highWater?: number;
  lowWater?: number;
  /**
   * Quiet time before a new window size reaches the program (ms; default
   * {@link RESIZE_SETTLE_MS}).
   */
  resizeSettleMs?: number;
}

/**
 * A window being dragged sends a size every frame; the program gets the
 * last one (TIOCSWINSZ, hence one SIGWINCH) once no new size came for this
 * long. Each SIGWINCH makes a full-screen program or a shell prompt
 * redraw, which would otherwise race with the next size. Test hook: exported
 * for tests/server/resize_debounce_test.ts.
 */
export const RESIZE_SETTLE_MS = 120;

/** One attached window. */
export interface Window {
  socket: WebSocket;
  /** Output bytes sent to this window. */
  sent: number;
  /** Output bytes the window has acknowledged. */
  acked: number;
}

/** The child's environment: the user's, plus what tells programs where they run. */
export function childEnv(
  base: Record<string, string>,
  session: number,
  ttyName: string,
): Record<string, string> {
  const env = { ...base };
  env.TERM = "xterm-256color";
  env.COLORTERM = "truecolor";
  env.DOMTERM =
    `version=${VERSION};tty=${ttyName};session#=${session};pid=${Deno.pid}`;
  // Variables of the terminal this server may itself run in would mislead
  // programs about the terminal they talk to.
  for (
    const k of [
      "TERM_PROGRAM",
      "TERM_PROGRAM_VERSION",
      "VTE_VERSION",
      "KITTY_WINDOW_ID",
      "WT_SESSION",
    ]
  ) {
    delete env[k];
  }
  return env;
}

/** A running session. */
export class Session {
  readonly id: number;
  readonly pty: Pty;
  readonly windows = new Set<Window>();
  /** Resolves when the child has exited and all its output was delivered. */
  readonly finished: Promise<ExitStatus>;
  /** Set once the child has exited. */
  exitStatus: ExitStatus | null = null;
  /** Whether the read loop is paused by flow control (for tests and stats). */
  paused = false;
  /** Total output bytes read from the PTY. */
  bytesRead = 0;

  #high: number;
  #low: number;
  #resume: (() => void) | null = null;
  #closing = false;
  #settleMs: number;
  #resizeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The size waiting to be applied: [cols, rows, width?, height?]. */
  #pendingSize: [number, number, number?, number?] | null = null;

  private constructor(options: SessionOptions, pty: Pty) {
    this.id = options.id;
    this.pty = pty;
    this.#high = options.highWater ?? HIGH_WATER;
    this.#low = options.lowWater ?? LOW_WATER;
    this.#settleMs = options.resizeSettleMs ?? RESIZE_SETTLE_MS;
    this.finished = this.#run();
  }

  /** Start the child. Throws a readable Error when it cannot be started. */
  static start(options: SessionOptions): Session {
    const base = options.env ?? Deno.env.toObject();
    const launch = shellLaunch(options, base);
    let pty: Pty;
    try {
      pty = Pty.spawn({
        command: launch.command,
        args: launch.args,
        env: (tty: string) => childEnv(launch.env, options.id, tty),
        cwd: options.cwd,
        cols: options.cols,
        rows: options.rows,
      });
    } catch (e) {
      removeAll(launch.cleanup);
      throw e;
    }
    const session = new Session(options, pty);
    // The shell reads the files at startup; they go when the session ends.
    if (launch.cleanup.length > 0) {
      session.finished.finally(() => removeAll(launch.cleanup));
    }
    return session;
  }

  /** Attach a window; output from now on goes to it too. */
  attach(socket: WebSocket): Window {
    const w: Window = { socket, sent: 0, acked: 0 };
    this.windows.add(w);
    return w;
  }

  /** Detach a window (its socket closed). The last one leaving ends the session. */
  detach(w: Window): void {
    this.windows.delete(w);
    this.#checkFlow();
    if (this.windows.size === 0) void this.close();
  }

  /** A window acknowledged `bytes` more processed output bytes. */
  ack(w: Window, bytes: number): void {
    w.acked = Math.min(w.sent, w.acked + bytes);
    this.#checkFlow();
  }

  /** Input from a window for the program. */
  async input(data: Uint8Array): Promise<void> {
    if (this.exitStatus) return;
    try {
      await this.pty.write(data);
    } catch {
      // The child is gone; its exit is reported by the read loop.
    }
  }

  /**
   * Window size changed (cells and optional pixels). The program gets the
   * size once sizes stop coming for the settle time (always the last one).
   */
  resize(cols: number, rows: number, width?: number, height?: number): void {
    if (this.exitStatus || this.#closing) return;
    this.#pendingSize = [cols, rows, width, height];
    clearTimeout(this.#resizeTimer);
    this.#resizeTimer = setTimeout(() => this.#applySize(), this.#settleMs);
  }

  #applySize(): void {
    this.#resizeTimer = undefined;
    const size = this.#pendingSize;
    this.#pendingSize = null;
    if (size === null || this.exitStatus || this.#closing) return;
    try {
      this.pty.resize(...size);
    } catch {
      // ignore: the pty may have closed meanwhile
    }
  }

  /** End the session: hang up the child and close every window. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    clearTimeout(this.#resizeTimer);
    this.#resume?.();
    await this.pty.close();
    await this.finished;
  }

  #lag(): number {
    let lag = 0;
    for (const w of this.windows) lag = Math.max(lag, w.sent - w.acked);
    return lag;
  }

  #checkFlow(): void {
    if (this.paused && this.#lag() <= this.#low) {
      this.paused = false;
      const r = this.#resume;
      this.#resume = null;
      r?.();
    }
  }

  #broadcast(msg: ServerMessage | Uint8Array<ArrayBuffer>): void {
    const data = msg instanceof Uint8Array ? msg : JSON.stringify(msg);
    for (const w of this.windows) {
      if (w.socket.readyState !== WebSocket.OPEN) continue;
      try {
        w.socket.send(data);
        if (msg instanceof Uint8Array) w.sent += msg.length;
      } catch {
        // A failing socket is dropped by its close handler.
      }
    }
  }

  async #run(): Promise<ExitStatus> {
    // A background process of the child may keep the terminal open after
    // the child exits: deliver what is already there (also while a slow
    // window holds reading paused), then hang up once output has stopped.
    this.pty.exited.then(() => {
      let seen = -1;
      const check = () => {
        if (this.paused || this.bytesRead !== seen) {
          seen = this.bytesRead;
          Deno.unrefTimer(setTimeout(check, 300));
        } else {
          void this.pty.close();
        }
      };
      check();
    });
    for (;;) {
      if (this.#lag() > this.#high && !this.#closing) {
        this.paused = true;
        await new Promise<void>((r) => this.#resume = r);
      }
      const chunk = await this.pty.read();
      if (chunk === null) break;
      this.bytesRead += chunk.length;
      this.#broadcast(chunk);
    }
    const status = await this.pty.exited;
    this.exitStatus = status;
    clearTimeout(this.#resizeTimer);
    this.#broadcast({ type: "exit", code: status.code, signal: status.signal });
    await this.pty.close();
    for (const w of this.windows) {
      try {
        w.socket.close(CLOSE_SESSION_ENDED, "session ended");
      } catch {
        // already closed
      }
    }
    return status;
  }
}

/**
 * The command, arguments and environment that start the session's
 * program: with shell integration injected when it is bash, zsh or fish
 * (unless turned off). Files go into a new private temp directory, listed
 * in `cleanup`. Where they cannot be written, the program starts without
 * integration.
 */
function shellLaunch(
  options: SessionOptions,
  env: Record<string, string>,
): LaunchPlan {
  const plain: LaunchPlan = {
    command: options.command,
    args: options.args,
    env,
    cleanup: [],
  };
  if (
    options.shellIntegration === false || detectShell(options.command) === null
  ) {
    return plain;
  }
  let dir: string | null = null;
  try {
    dir = Deno.makeTempDirSync({ prefix: "domterm-shell-" });
    const plan = planShellLaunchSync(options.command, options.args, env, dir);
    return { ...plan, cleanup: [dir] };
  } catch {
    if (dir !== null) removeAll([dir]);
    return plain;
  }
}

function removeAll(paths: string[]): void {
  for (const p of paths) {
    try {
      Deno.removeSync(p, { recursive: true });
    } catch {
      // already gone
    }
  }
}
