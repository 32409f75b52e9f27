/**
 * `domterm restart-server`, the new server's side (see give.ts for the
 * whole exchange): connect to the socket the old server named in
 * `DOMTERM_HANDOVER`, receive the key, the port and every session with
 * its PTY master and pidfd, then (once listening) adopt the sessions and
 * say `ready`. Should anything fail before that, it says `failed` and the
 * process exits without touching a program: the fds it received close
 * with it, the old server still holds its own and serves on.
 *
 * @module
 */
import type { DomtermServer } from "../http.ts";
import { Pty } from "../pty/pty.ts";
import type { SessionCarry } from "../session.ts";
import type { Settings } from "../../core/settings/schema.ts";
import { VERSION } from "../version.ts";
import { setSessionInputMode } from "../line_input.ts";
import type { AuthSession } from "../remote/auth_sessions.ts";
import type { Share } from "../remote/shares.ts";
import { HANDOVER_FORMAT, type SessionHeader } from "./give.ts";
import type { SavedWindow } from "../windows/registry.ts";
import { closeFd, connectUnix, type UnixStream } from "./unix_socket.ts";

/** One session as received: its state and fds. */
interface TakenSession {
  carry: SessionCarry;
  own?: Record<string, unknown>;
  inputMode?: SessionHeader["inputMode"];
  fd: number;
  pidfd: number | null;
}

/** What the old server handed over. */
export interface Taken {
  key: string;
  port: number;
  /** The port of the old server's loopback listener for its own windows, or null. */
  localPort: number | null;
  nextId: number;
  /** The old server's version. */
  from: string;
  /** Its logged-in browsers and share tokens (a --listen server's). */
  logins: AuthSession[];
  shares: Share[];
  /** The top-level windows' layouts (server/windows/). */
  windows: SavedWindow[];
  sessions: TakenSession[];
  /** The socket to the old server, for `ready` or `failed`. */
  stream: UnixStream;
}

/** Connect to the old server at `path` and receive everything. */
export async function takeSessions(path: string): Promise<Taken> {
  const stream = await connectUnix(path);
  const sessions: TakenSession[] = [];
  try {
    await stream.send({
      type: "hello",
      version: VERSION,
      formats: [HANDOVER_FORMAT],
    });
    const first = await stream.receive();
    const h = first?.json as Partial<Taken> & {
      type?: string;
      version?: string;
    };
    if (h?.type !== "server" || typeof h.key !== "string") {
      throw new Error("the old server sent no state");
    }
    for (;;) {
      const frame = await stream.receive();
      if (frame === null) throw new Error("the old server hung up");
      const j = frame.json as { type?: string };
      if (j.type === "end") break;
      const header = frame.json as SessionHeader;
      const text = frame.binary.subarray(0, header.snapshotBytes);
      const { snapshotBytes: _, own, inputMode, ...rest } = header;
      sessions.push({
        carry: {
          ...rest,
          snapshot: new TextDecoder().decode(text),
          replay: {
            ...header.replay,
            data: frame.binary.subarray(header.snapshotBytes),
          },
        },
        own,
        inputMode,
        fd: frame.fds[0],
        pidfd: frame.fds[1] ?? null,
      });
    }
    return {
      key: h.key,
      port: h.port!,
      localPort: typeof h.localPort === "number" ? h.localPort : null,
      nextId: h.nextId ?? 1,
      from: h.version ?? "?",
      logins: Array.isArray(h.logins) ? h.logins : [],
      shares: Array.isArray(h.shares) ? h.shares : [],
      windows: Array.isArray(h.windows) ? h.windows : [],
      sessions,
      stream,
    };
  } catch (e) {
    for (const s of sessions) {
      closeFd(s.fd);
      if (s.pidfd !== null) closeFd(s.pidfd);
    }
    stream.close();
    throw e;
  }
}

/** Adopt every session taken into `server` (listening already) and tell the old one `ready`. */
export async function adoptSessions(
  server: DomtermServer,
  taken: Taken,
): Promise<void> {
  const registry = server.registry;
  registry.nextId = taken.nextId;
  server.gate.auth.restore(taken.logins);
  server.gate.shares.restore(taken.shares);
  for (const s of taken.sessions) {
    const c = s.carry;
    const pty = Pty.adopt(s.fd, c.pid, c.ttyName, s.pidfd);
    registry.settings.restoreOwn(c.id, s.own as Partial<Settings> | undefined);
    const session = registry.adopt(c, pty);
    if (s.inputMode) setSessionInputMode(session, s.inputMode);
  }
  // After the sessions: a layout keeps only the panes of sessions that run.
  for (const p of server.windows.restore(taken.windows)) {
    console.error(`domterm: restart: ${p}`);
  }
  await taken.stream.send({ type: "ready", pid: Deno.pid });
  taken.stream.close();
}

/** Tell the old server this one failed (it serves on); the caller then exits. */
export async function refuseSessions(
  taken: Taken | null,
  error: string,
): Promise<void> {
  if (taken === null) return;
  try {
    await taken.stream.send({ type: "failed", error });
  } catch { /* it is gone */ }
  taken.stream.close();
}
