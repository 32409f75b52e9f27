/**
 * The subcommands that manage sessions through the running server's
 * control socket (server/control.ts): `domterm list`, `attach`, `new`,
 * `kill`, `detach`, `kill-server`, `restart-server`. Inside a session the socket is found
 * through `DOMTERM_SOCKET`; elsewhere in the user's runtime directory.
 *
 * @module
 */
import { openSessionWindow } from "../window_open.ts";
import {
  type ControlRequest,
  type ControlResponse,
  request,
  type SessionInfo,
  socketPath,
} from "../control.ts";
import { flag, type ParsedArgs, text } from "../cli/parse.ts";
import {
  Terminal,
  type TerminalSnapshot,
} from "../../core/emulator/terminal.ts";
import { sessionHtml, sourceSanitizer } from "../../core/serialize/html.ts";
import { CommandError, UsageError } from "../cli/errors.ts";

/** The control socket to ask: the session's own server first. */
export function controlSocket(): string {
  return Deno.env.get("DOMTERM_SOCKET") || socketPath();
}

export async function ask(
  req: ControlRequest,
  timeoutMs?: number,
): Promise<ControlResponse> {
  const path = controlSocket();
  const res = await request(path, req, timeoutMs);
  if (res === null) {
    throw new CommandError(
      `no domterm server is running (nothing answers at ${path}); start one with 'domterm'`,
    );
  }
  if (!res.ok) throw new CommandError(res.error ?? "the server refused");
  return res;
}

/** The session this process runs in (from DOMTERM), or null. */
export function ownSession(): number | null {
  const m = /(?:^|;)session#=(\d+)(?:;|$)/.exec(Deno.env.get("DOMTERM") ?? "");
  return m ? Number(m[1]) : null;
}

export function ref(v: string | undefined, what: string): number | string {
  if (v === undefined) throw new UsageError(`which session? (${what})`);
  return /^\d+$/.test(v) ? Number(v) : v;
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** The table `domterm list` prints. */
export function formatList(sessions: SessionInfo[], now = Date.now()): string {
  if (sessions.length === 0) return "no sessions";
  // ssh hosts: a HOST column when a session runs on another host.
  const hosts = sessions.some((s) => s.host !== undefined);
  const rows = [["#", "NAME", "PID", "SIZE", "WINDOWS", "STATE", "COMMAND"]];
  if (hosts) rows[0].splice(1, 0, "HOST");
  for (const s of sessions) {
    const host = hosts ? [s.host ?? "-"] : []; // ssh hosts
    rows.push([
      String(s.id),
      ...host,
      s.name ?? "-",
      String(s.pid),
      `${s.cols}x${s.rows}`,
      String(s.windows),
      s.linkDown && s.windows > 0 // ssh hosts
        ? "link down"
        : s.state === "attached"
        ? "attached"
        : `detached ${ago(now - (s.detachedSince ?? now))}`,
      s.command.join(" "),
    ]);
  }
  const widths = rows[0].map((_, i) =>
    Math.max(...rows.map((r) => r[i].length))
  );
  return rows.map((r) =>
    r.map((c, i) => i === r.length - 1 ? c : c.padEnd(widths[i])).join("  ")
  ).join("\n");
}

/** `domterm list`. */
export async function list(a: ParsedArgs): Promise<number> {
  const res = await ask({ op: "list" });
  const sessions = res.sessions ?? [];
  console.log(
    flag(a, "json") ? JSON.stringify(sessions, null, 2) : formatList(sessions),
  );
  return 0;
}

/** `domterm attach N|name`. */
export async function attach(a: ParsedArgs): Promise<number> {
  const res = await ask({
    op: "attach",
    session: ref(a.operands[0], "a number or a name"),
  });
  return await openSessionWindow({
    url: res.url!,
    session: res.session!,
    created: false,
    noBrowser: flag(a, "no-browser"),
    browser: text(a, "browser"),
    controlPath: controlSocket(),
  });
}

/** `domterm new [--name NAME] [-- command...]`. */
export async function newSession(a: ParsedArgs): Promise<number> {
  const command = [...a.rest ?? []];
  const name = text(a, "name");
  const res = await ask({
    op: "new",
    ...(command.length ? { command } : {}),
    cwd: Deno.cwd(),
    ...(name !== undefined ? { name } : {}),
  });
  return await openSessionWindow({
    url: res.url!,
    session: res.session!,
    created: true,
    noBrowser: flag(a, "no-browser"),
    browser: text(a, "browser"),
    controlPath: controlSocket(),
  });
}

/** `domterm kill N|name`. */
export async function kill(a: ParsedArgs): Promise<number> {
  await ask({ op: "kill", session: ref(a.operands[0], "a number or a name") });
  return 0;
}

/** `domterm detach [N|name]`: default, the session it runs in. */
export async function detach(a: ParsedArgs): Promise<number> {
  const session = a.operands.length
    ? ref(a.operands[0], "a number or a name")
    : ownSession();
  if (session === null) {
    throw new UsageError("not inside a domterm session: name one");
  }
  await ask({ op: "detach", session });
  return 0;
}

/** `domterm kill-server`: end every session and the server. */
export async function killServer(): Promise<number> {
  await ask({ op: "kill-server" });
  return 0;
}

/**
 * `domterm restart-server`: the running server starts a new server (this
 * same program as it was started, so an upgraded installation takes
 * effect) and hands it every session (server/handover/). The programs
 * keep running; windows reconnect by themselves. If the new server fails,
 * the old one goes on serving and this says why.
 */
export async function restartServer(): Promise<number> {
  const old = await ask({ op: "info" });
  let res: ControlResponse;
  try {
    res = await ask({ op: "restart-server" }, 180_000);
  } catch (e) {
    throw new CommandError(
      `${(e as Error).message} (the server, pid ${old.pid}, goes on serving)`,
    );
  }
  console.error(
    `domterm: the server restarted: pid ${old.pid} -> ${res.pid}, ${res.handedOver} sessions handed over (stopped for ${res.ms} ms)`,
  );
  return 0;
}

/**
 * `domterm save [N|NAME] FILE`: the whole session, scrollback included, as
 * a standalone HTML file (as Ctrl+Shift+S in a window saves it). Made from
 * the server's model, where no browser sanitizer runs: embedded HTML is
 * kept as its escaped source, which is always safe.
 */
export async function save(a: ParsedArgs): Promise<number> {
  const file = a.operands[a.operands.length - 1];
  const session = a.operands.length === 2
    ? ref(a.operands[0], "a number or a name")
    : ownSession();
  if (session === null) {
    throw new UsageError("not inside a domterm session: name one");
  }
  const res = await ask({ op: "snapshot", session });
  const term = Terminal.restore(res.snapshot as TerminalSnapshot);
  const html = sessionHtml(term, { sanitize: sourceSanitizer });
  try {
    // The whole scrollback: readable by the user only, as the session is.
    await Deno.writeTextFile(file, html, { mode: 0o600 });
  } catch (e) {
    throw new CommandError(`cannot write ${file}: ${(e as Error).message}`);
  }
  const lines = term.normalBuffer.length;
  console.error(
    `domterm: saved session ${session} (${lines} lines) to ${file}`,
  );
  return 0;
}
