/**
 * `domterm restart-server`, the old server's side: start the next server
 * (the same program, or the one the request names: a newer domterm), wait
 * until it connects back over a private UNIX socket, then stop listening,
 * stop every session where it is (`Session.handOver`) and send it all: the
 * key, the port and the sessions' numbers, and per session its state
 * (`SessionCarry`: the model, offsets, replay log, grid, name, command,
 * pid, own settings) with its PTY master and a pidfd of its program
 * (`SCM_RIGHTS`). Once the new server says `ready` (it listens on the same
 * port and control socket), this one lets the sessions go, without a
 * hang-up, and exits. Should the new one fail at any point, this one
 * listens again and every session goes on here: nothing is lost, and the
 * asker is told why.
 *
 * The wire (frames of unix_socket.ts): new -> old `hello {version,
 * formats}`; old -> new `server {...}`, one `session` frame per session
 * (JSON: the carry without its big parts; binary: the snapshot's JSON
 * text then the replay log's bytes; fds: master, and the pidfd if any),
 * `end`; new -> old `ready {pid}` or `failed {error}`.
 *
 * @module
 */
import { join } from "node:path";
import type { DomtermServer } from "../http.ts";
import type { SessionCarry } from "../session.ts";
import { VERSION } from "../version.ts";
import { sessionInputMode } from "../line_input.ts";
import type { InputMode } from "../../core/protocol.ts";
import { selfCommand } from "../self_launcher.ts";
import { DAEMON_LOG_ENV, serverLogPath } from "../daemon.ts";
import {
  closeFd,
  pidfdOpen,
  UnixListener,
  type UnixStream,
} from "./unix_socket.ts";

import { HANDOVER_ENV } from "./env.ts";
export { HANDOVER_ENV };
/** The state format this version sends and reads. */
export const HANDOVER_FORMAT = 1;
/** How long the next server has to connect back (its start: ms). */
const CONNECT_WAIT_MS = 60_000;
/** How long the windows' sockets get to close before the listener goes (ms). */
const CLOSE_WAIT_MS = 100;
/** How long it has to take everything and listen (ms). */
const READY_WAIT_MS = 60_000;

/** What the old server lets the handover do besides the HTTP server. */
export interface GiveHooks {
  /** The runtime directory (for the private socket). */
  dir: string;
  /** The program to start (default: this one) and its arguments (default: this server's). */
  command?: string[];
  args?: string[];
  /** Stop and restart answering on the control socket. */
  closeControl(): Promise<void>;
  reopenControl(): Promise<void>;
  log(message: string): void;
}

/** The outcome: the new server's pid, or why it failed (this one serves on). */
export type GiveResult =
  | { ok: true; pid: number; sessions: number; ms: number }
  | { ok: false; error: string };

/** The header of a session frame: the carry without its big parts. */
export type SessionHeader = Omit<SessionCarry, "snapshot" | "replay"> & {
  snapshotBytes: number;
  replay: Omit<SessionCarry["replay"], "data">;
  own?: Record<string, unknown>;
  /** Set by `domterm input-mode`. */
  inputMode?: InputMode;
};

/** Hand every session of `server` to a new server process; see the module doc. */
export async function giveSessions(
  server: DomtermServer,
  hooks: GiveHooks,
): Promise<GiveResult> {
  const path = join(
    hooks.dir,
    `handover-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}.sock`,
  );
  let listener: UnixListener;
  try {
    listener = new UnixListener(path);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  const log = Deno.env.get(DAEMON_LOG_ENV) || serverLogPath();
  let child: Deno.ChildProcess | null = null;
  let stream: UnixStream | null = null;
  try {
    child = spawnNext(hooks, path, log);
    stream = await connected(listener, child, log);
    return await transfer(server, hooks, stream, child);
  } catch (e) {
    // The new server holds copies of the fds at most: it exits without a
    // word to the programs (SIGKILL: no shutdown that could hang them up).
    try {
      child?.kill("SIGKILL");
    } catch { /* gone */ }
    return { ok: false, error: (e as Error).message };
  } finally {
    stream?.close();
    listener.close();
  }
}

/** Start the next server, detached, logging to `log`. */
function spawnNext(
  hooks: GiveHooks,
  path: string,
  log: string,
): Deno.ChildProcess {
  const [cmd, ...rest] = hooks.command ?? selfCommand();
  const child = new Deno.Command(cmd, {
    args: [...rest, ...(hooks.args ?? Deno.args)],
    env: { [HANDOVER_ENV]: path, [DAEMON_LOG_ENV]: log },
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  return child;
}

/** The next server's connection and hello; throws (with its log's end) when it dies first. */
async function connected(
  listener: UnixListener,
  child: Deno.ChildProcess,
  log: string,
): Promise<UnixStream> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const died = child.status.then(async (s) => {
    const tail = await Deno.readTextFile(log).then(
      (t) => t.trimEnd().split("\n").slice(-3).join("\n"),
      () => "",
    );
    throw new Error(
      `the new server exited (status ${s.code}) before it connected` +
        (tail ? `; the end of ${log}:\n${tail}` : ""),
    );
  });
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error("the new server did not connect in time")),
      CONNECT_WAIT_MS,
    );
  });
  try {
    const stream = await Promise.race([listener.accept(), died, late]);
    const hello = await Promise.race([stream.receive(), died, late]);
    const h = hello?.json as { type?: string; formats?: number[] } | undefined;
    if (h?.type !== "hello" || !h.formats?.includes(HANDOVER_FORMAT)) {
      stream.close();
      throw new Error(
        `the new server cannot read this server's sessions (format ${HANDOVER_FORMAT})`,
      );
    }
    return stream;
  } finally {
    clearTimeout(timer);
    died.catch(() => {});
  }
}

/** Stop here, send everything, wait for `ready`; undo all of it on failure. */
async function transfer(
  server: DomtermServer,
  hooks: GiveHooks,
  stream: UnixStream,
  child: Deno.ChildProcess,
): Promise<GiveResult> {
  // The snapshots of idle sessions, made while they run.
  await Promise.all(
    [...server.registry.sessions.values()].map((s) => s.prepareHandOver()),
  );
  const started = performance.now();
  // Every session stops and tells its windows (synchronously, before the
  // first await of handOver), then nobody can connect here.
  const held = [...server.registry.sessions.values()];
  const taking = held.map((s) => s.handOver());
  // Time for the windows' close handshakes: a shutdown cuts the ones
  // still open with 1001 (the pages reconnect after that too).
  await new Promise((r) => setTimeout(r, CLOSE_WAIT_MS));
  await server.stopListening();
  // Its file gone before the next server binds the same path.
  await hooks.closeControl();
  try {
    await stream.send({
      type: "server",
      version: VERSION,
      format: HANDOVER_FORMAT,
      key: server.key,
      port: server.port,
      // The loopback listener of this machine's windows (a --listen server's).
      localPort: server.localPort,
      nextId: server.registry.nextId,
      // A --listen server's logins and share links stay valid.
      logins: server.gate.auth.all(),
      shares: server.gate.shares.all(),
      // The top-level windows' layouts: their pages reconnect to the same.
      windows: server.windows.layouts(),
    });
    // Each session as soon as its state is taken: the next one's snapshot
    // is made while this one travels.
    let sent = 0;
    for (const taken of taking) {
      const c = await taken;
      if (c === null) continue;
      await sendSession(server, stream, c);
      sent++;
    }
    await stream.send({ type: "end" });
    const answer = await readyOrNot(stream, child);
    for (const s of held) s.letGo();
    // The new server keeps journals of its own: these go, or a later
    // server would restore sessions that still run.
    await server.registry.handedOver();
    server.remotes.closeAll(); // ssh hosts: their links are this process's
    return {
      ok: true,
      pid: answer,
      sessions: sent,
      ms: Math.round(performance.now() - started),
    };
  } catch (e) {
    // The new server must be gone before this listens again on its port
    // (SIGKILL: nothing in it may hang a program up; its fds just close).
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
    for (const s of held) s.resumeHere();
    server.listenAgain();
    await hooks.reopenControl();
    hooks.log(`restart-server failed, serving on: ${(e as Error).message}`);
    throw e;
  }
}

/** One session's frame: its state, its master, its program's pidfd. */
async function sendSession(
  server: DomtermServer,
  stream: UnixStream,
  c: SessionCarry,
): Promise<void> {
  const s = server.registry.get(c.id)!;
  const snapshot = new TextEncoder().encode(c.snapshot);
  const { data, ...replay } = c.replay;
  const header: SessionHeader = {
    ...c,
    snapshot: undefined,
    snapshotBytes: snapshot.length,
    replay,
    own: server.settings.sessionOwn(c.id),
    inputMode: sessionInputMode(s),
  } as SessionHeader;
  const binary = new Uint8Array(snapshot.length + data.length);
  binary.set(snapshot);
  binary.set(data, snapshot.length);
  // A pidfd names exactly this program, for a server that is not its parent.
  const own = s.pty.pidfd;
  const pidfd = own >= 0 ? own : pidfdOpen(c.pid);
  try {
    await stream.send(
      header,
      binary,
      pidfd === null ? [s.pty.fd] : [s.pty.fd, pidfd],
    );
  } finally {
    if (pidfd !== null && pidfd !== own) closeFd(pidfd);
  }
}

/** The new server's answer: its pid once ready; throws its error otherwise. */
async function readyOrNot(
  stream: UnixStream,
  child: Deno.ChildProcess,
): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error("the new server did not get ready in time")),
      READY_WAIT_MS,
    );
  });
  try {
    const frame = await Promise.race([stream.receive(), late]);
    const a = frame?.json as { type?: string; error?: string } | undefined;
    if (a?.type === "ready") return child.pid;
    throw new Error(
      a?.type === "failed"
        ? `the new server failed: ${a.error}`
        : "the new server hung up before it was ready",
    );
  } finally {
    clearTimeout(timer);
  }
}
