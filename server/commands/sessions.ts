/**
 * The subcommands that manage sessions through the running server's
 * control socket (server/control.ts): `domterm list`, `attach`, `new`,
 * `kill`, `detach`, `kill-server`, `restart-server`. `new` and `attach`
 * with `--tab` or `--pane` act on the window they run in (the one showing
 * the session of their `DOMTERM`), or on `--window`'s. Inside a session the socket is found
 * through `DOMTERM_SOCKET`; elsewhere in the user's runtime directory.
 *
 * @module
 */
import { openSessionWindow } from "../window_open.ts";
import {
  type ControlRequest,
  type ControlResponse,
  type PaneTarget,
  requestOutcome,
  type SessionInfo,
  socketPath,
  type WindowInfo,
} from "../control.ts";
import type { Side } from "../../core/layout.ts";
import { flag, type ParsedArgs, text } from "../cli/parse.ts";
import type { TerminalSnapshot } from "../../core/emulator/terminal.ts";
import { CommandError, UsageError } from "../cli/errors.ts";

/** The control socket to ask: the session's own server first. */
export function controlSocket(): string {
  return Deno.env.get("DOMTERM_SOCKET") || socketPath();
}

/**
 * How long a subcommand waits for the server's answer: a server busy with
 * floods on a loaded machine can take seconds, and one that took the
 * connection is there (a missing one fails at once).
 */
export const ASK_TIMEOUT_MS = 30_000;

/** Ask the running server (`controlSocket()`); its answer, or a CommandError saying why none. */
export function ask(
  req: ControlRequest,
  timeoutMs = ASK_TIMEOUT_MS,
): Promise<ControlResponse> {
  return askAt(controlSocket(), req, timeoutMs);
}

/** `ask` of the server at `path`. */
export async function askAt(
  path: string,
  req: ControlRequest,
  timeoutMs = ASK_TIMEOUT_MS,
): Promise<ControlResponse> {
  const out = await requestOutcome(path, req, timeoutMs);
  if ("failure" in out) {
    throw new CommandError(
      out.failure === "absent"
        ? `no domterm server is running (nothing answers at ${path}); start one with 'domterm'`
        : out.failure === "timeout"
        ? `the domterm server at ${path} did not answer within ${
          Math.round(timeoutMs / 1000)
        } s (busy, or stopped); try again, or 'domterm kill-server'`
        : `the domterm server at ${path} closed the connection without an answer`,
    );
  }
  const res = out.response;
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

/**
 * `domterm list`: the sessions, then the windows. As JSON: the sessions,
 * each with the panes that show it (`panes`: window and pane ids).
 */
export async function list(a: ParsedArgs): Promise<number> {
  const res = await ask({ op: "list" });
  const sessions = res.sessions ?? [];
  const windows = res.windows ?? [];
  if (flag(a, "json")) {
    const shown = sessions.map((s) => ({
      ...s,
      panes: windows.flatMap((w) =>
        w.panes.filter((p) => p.session === s.id).map((p) => ({
          window: w.id,
          pane: p.id,
        }))
      ),
    }));
    console.log(JSON.stringify(shown, null, 2));
    return 0;
  }
  console.log(formatList(sessions));
  if (windows.length) console.log(`\n${formatWindows(windows)}`);
  return 0;
}

/** The windows' table of `domterm list`: one row per pane. */
export function formatWindows(
  windows: WindowInfo[],
  now = Date.now(),
): string {
  const rows = [["WINDOW", "NAME", "PAGES", "PANE", "SESSION", "TAB"]];
  for (const w of windows) {
    w.panes.forEach((p, i) => {
      const state = [
        p.focused ? "focused" : p.shown ? "shown" : "hidden",
        ...(p.title !== null ? [JSON.stringify(p.title)] : []),
      ];
      rows.push([
        i === 0 ? String(w.id) : "",
        i === 0 ? w.name ?? "-" : "",
        i === 0
          ? w.pages > 0
            ? String(w.pages)
            : `0 (${ago(now - (w.detachedSince ?? now))})`
          : "",
        String(p.id),
        String(p.session),
        `stack ${p.stack}, ${state.join(", ")}`,
      ]);
    });
  }
  const widths = rows[0].map((_, i) =>
    Math.max(...rows.map((r) => r[i].length))
  );
  return rows.map((r) =>
    r.map((c, i) => i === r.length - 1 ? c : c.padEnd(widths[i])).join("  ")
  ).join("\n");
}

/**
 * Where `--tab`, `--pane[=SIDE]` and `--window W` put the session: a pane
 * of the window this runs in, or of W; undefined without --tab or --pane.
 */
function paneTarget(a: ParsedArgs): PaneTarget | undefined {
  const side = text(a, "pane") as Side | undefined;
  if (flag(a, "tab") && side !== undefined) {
    throw new UsageError("--tab or --pane, not both");
  }
  if (!flag(a, "tab") && side === undefined) return undefined;
  const window = text(a, "window");
  const from = ownSession();
  return {
    where: side ?? "tab",
    ...(window !== undefined ? { window: refOf(window) } : {}),
    ...(from !== null ? { from } : {}),
  };
}

function refOf(v: string): number | string {
  return /^\d+$/.test(v) ? Number(v) : v;
}

/** Open the window of `res` unless a page shows it already. */
async function showWindow(
  a: ParsedArgs,
  res: ControlResponse,
  created: boolean,
): Promise<number> {
  if (res.shown) return 0;
  return await openSessionWindow({
    url: res.url!,
    session: res.session!,
    ...(res.window !== undefined ? { window: res.window } : {}),
    created,
    noBrowser: flag(a, "no-browser"),
    browser: text(a, "browser"),
    controlPath: controlSocket(),
  });
}

/**
 * `domterm attach [N|NAME]`: a window whose page is gone back, a session
 * in a new window, or (`--tab`, `--pane`) in a pane of this window.
 */
export async function attach(a: ParsedArgs): Promise<number> {
  const pane = paneTarget(a);
  const operand = a.operands[0];
  if (pane && operand === undefined) {
    throw new UsageError("which session? (a number or a name)");
  }
  const window = text(a, "window");
  const res = await ask({
    op: "attach",
    ...(operand !== undefined ? { session: refOf(operand) } : {}),
    ...(pane
      ? { pane }
      : window !== undefined
      ? { window: refOf(window) }
      : {}),
  });
  // Into a pane of a window a page shows: nothing to open.
  return await showWindow(a, pane ? res : { ...res, shown: false }, false);
}

/** `domterm new [--name NAME] [--tab|--pane[=SIDE]] [-- command...]`. */
export async function newSession(a: ParsedArgs): Promise<number> {
  const command = [...a.rest ?? []];
  const name = text(a, "name");
  const pane = paneTarget(a);
  if (pane === undefined && text(a, "window") !== undefined) {
    throw new UsageError("--window needs --tab or --pane");
  }
  const res = await ask({
    op: "new",
    ...(command.length ? { command } : {}),
    cwd: Deno.cwd(),
    ...(name !== undefined ? { name } : {}),
    ...(pane ? { pane } : {}),
    ...(flag(a, "no-journal") ? { journal: false } : {}),
  });
  return await showWindow(a, res, true);
}

/** `domterm name-window [--window W] NAME`: default, the window this runs in. */
export async function nameWindow(a: ParsedArgs): Promise<number> {
  const window = text(a, "window");
  const from = ownSession();
  await ask({
    op: "name-window",
    name: a.operands[0],
    ...(window !== undefined ? { window: refOf(window) } : {}),
    ...(from !== null ? { from } : {}),
  });
  return 0;
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
  // The emulator is loaded for `save` only: `list`, `new`, `attach` need
  // just the control socket (issue 31 §7: a client command starts fast).
  const [{ Terminal }, { sessionHtml, sourceSanitizer }] = await Promise.all([
    import("../../core/emulator/terminal.ts"),
    import("../../core/serialize/html.ts"),
  ]);
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
