/**
 * One server per user: the first `domterm` listens on a UNIX socket in a
 * private directory, and later ones (`domterm`, `domterm list`, `attach`,
 * `new`, `kill`, `kill-server`, `detach`) ask it over that socket instead
 * of starting a second server.
 *
 * The directory is `$DOMTERM_RUNTIME_DIR` if set, else
 * `$XDG_RUNTIME_DIR/domterm`, else `domterm-UID` in the temp directory;
 * it is created with mode 0700 and refused when another user owns it or
 * others may enter it, so two users never see each other's server. A
 * socket file left by a server that died is detected (nothing answers)
 * and replaced.
 *
 * The protocol: one JSON request per connection, one line, answered by one
 * JSON line. Requests: `{op: "list"}` (sessions and windows), `{op:
 * "new", command?, cwd?, name?, pane?}`, `{op: "attach", session?,
 * window?, pane?}` (`pane`: into a pane of a window), `{op: "kill", session}`, `{op:
 * "detach", session}`, `{op: "kill-server"}`, `{op: "info"}`, `{op: "share",
 * session, readOnly}` (a URL with a token for that session), `{op:
 * "restore", which}` (sessions from their journals), `{op:
 * "restart-server", command?}` (hand every session to a new server
 * process: server/handover/; `command` runs a newer domterm), `{op:
 * "open-in-page", window, session}` (a page already open opens the window:
 * server/windows/control.ts). Every
 * answer has `ok`; a failed one has `error`.
 *
 * @module
 */
import { type InputMode, isInputMode } from "../core/protocol.ts";
import { type Side, SIDES } from "../core/layout.ts";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { parseSshRequest, type SshRequest } from "./ssh/request.ts"; // ssh hosts

/** What the server tells `domterm list` about a session. */
export interface SessionInfo {
  id: number;
  name: string | null;
  command: string[];
  pid: number;
  windows: number;
  cols: number;
  rows: number;
  /** "attached" with windows, else "detached". */
  state: "attached" | "detached";
  /** When it lost its last window (ms since the epoch), or null. */
  detachedSince: number | null;
  // ssh hosts: a session on another host (server/ssh/remote_sessions.ts).
  /** `user@host:port` of a remote session. */
  host?: string;
  /** Its number on that host. */
  remoteSession?: number;
  /** Its last ssh link went down. */
  linkDown?: boolean;
  /** The pids of its windows' ssh processes. */
  sshPids?: number[];
}

/**
 * Where `new` or `attach` puts its session: a new pane of a window
 * (`--tab`, `--pane[=SIDE]`), beside the window's focused pane.
 */
export interface PaneTarget {
  /** A tab, or a new pane on that side. */
  where: "tab" | Side;
  /** The window, by number or name; default: the one showing `from`. */
  window?: number | string;
  /** The session the command runs in (its `DOMTERM`). */
  from?: number;
}

/** A pane as `domterm list` shows it. */
export interface PaneInfo {
  id: number;
  session: number;
  /** The name the user gave its tab, or null. */
  title: string | null;
  /** Its stack (the area whose tab it is). */
  stack: number;
  /** Shown in its stack (not a hidden tab). */
  shown: boolean;
  focused: boolean;
}

/** `domterm list`'s view of a window. */
export interface WindowInfo {
  id: number;
  name: string | null;
  /** Pages showing it now (0: only `domterm attach` brings it back). */
  pages: number;
  /** When its last page left (ms since the epoch), or null while shown. */
  detachedSince: number | null;
  panes: PaneInfo[];
}

/** A request to the server. */
export type ControlRequest =
  | { op: "info" }
  | { op: "list" }
  | {
    op: "new";
    command?: string[];
    cwd?: string;
    name?: string;
    pane?: PaneTarget;
    /** false: no journal (`domterm new --no-journal`). */
    journal?: boolean;
  }
  /** Restore the journals `which` names: "all", a number of `list --restorable`, a name. */
  | { op: "restore"; which: string }
  | {
    op: "attach";
    /** The session to show; none: `window`, or the window that lost its page. */
    session?: number | string;
    /** The window to bring back (without `pane`). */
    window?: number | string;
    pane?: PaneTarget;
  }
  | { op: "kill"; session: number | string }
  /** Window `window` (else the one showing session `from`) is called `name`. */
  | {
    op: "name-window";
    name: string;
    window?: number | string;
    from?: number;
  }
  | { op: "detach"; session: number | string }
  /**
   * A page already open opens a window on kept window `window` or on
   * `session` (null: a new session); `ok: false` when none did.
   */
  | { op: "open-in-page"; window: number | null; session: number | null }
  | { op: "snapshot"; session: number | string }
  | { op: "input-mode"; session: number | string; mode: InputMode }
  | { op: "kill-server" }
  | { op: "restart-server"; command?: string[] }
  | { op: "share"; session: number | string; readOnly: boolean }
  | SshRequest // ssh hosts
  | { op: "settings"; session: number | string; set?: Record<string, unknown> };

/** An answer. */
export interface ControlResponse {
  ok: boolean;
  error?: string;
  /** list */
  sessions?: SessionInfo[];
  /** list: the windows, their panes and the sessions those show. */
  windows?: WindowInfo[];
  /** new, attach: the page to open (the key in the fragment). */
  url?: string;
  session?: number;
  /** new, attach: the window it is in (a pane of it, or the window brought back). */
  window?: number;
  /** new, attach with `pane`: the new pane's id. */
  pane?: number;
  /** new, attach: a page shows that window already (nothing to open). */
  shown?: boolean;
  /** info; restart-server: the new server's version and pid */
  version?: string;
  pid?: number;
  /** restart-server: the sessions handed over, and how long they were stopped (ms). */
  handedOver?: number;
  ms?: number;
  /** snapshot: the session's terminal (`Terminal.snapshot()`) at stream offset `offset`. */
  snapshot?: unknown;
  offset?: number;
  /** restore: the sessions brought back. */
  restored?: number[];
  /** settings: the session's settings in force, and the settings file's problems. */
  settings?: Record<string, unknown>;
  problems?: string[];
}

/** Longest request accepted, in bytes. */
export const MAX_CONTROL_REQUEST = 64 * 1024;

/** The runtime directory cannot be used (said in one line by the CLI). */
export class RuntimeDirError extends Error {}

/**
 * The directory of the control socket (created 0700). Throws a
 * {@link RuntimeDirError} when it cannot be made or is not private.
 */
export function runtimeDir(
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): string {
  const explicit = env("DOMTERM_RUNTIME_DIR");
  const xdg = env("XDG_RUNTIME_DIR");
  const uid = Deno.uid() ?? 0;
  const dir = explicit
    ? explicit
    : xdg
    ? join(xdg, "domterm")
    : join(tmpdir(), `domterm-${uid}`);
  const hint = "set DOMTERM_RUNTIME_DIR to a directory of your own";
  let st: Deno.FileInfo;
  try {
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
    st = Deno.lstatSync(dir);
  } catch (e) {
    throw new RuntimeDirError(
      `cannot use the runtime directory ${dir}: ${
        (e as Error).message
      }; ${hint}`,
    );
  }
  if (!st.isDirectory) {
    throw new RuntimeDirError(
      `the runtime directory ${dir} is not a directory; ${hint}`,
    );
  }
  if (st.uid !== null && st.uid !== uid) {
    throw new RuntimeDirError(
      `the runtime directory ${dir} belongs to another user (uid ${st.uid}); ${hint}`,
    );
  }
  if (st.mode !== null && (st.mode & 0o077) !== 0) {
    // Ours, but open to others: close it (we made it, or an old version did).
    Deno.chmodSync(dir, 0o700);
  }
  return dir;
}

/** The control socket's path. */
export function socketPath(dir = runtimeDir()): string {
  return join(dir, "server.sock");
}

/**
 * Send one request to the server at `path`. Resolves with its answer, or
 * null when none came (see `requestOutcome` for why).
 */
export async function request(
  path: string,
  req: ControlRequest,
  timeoutMs = 5000,
): Promise<ControlResponse | null> {
  const out = await requestOutcome(path, req, timeoutMs);
  return "response" in out ? out.response : null;
}

/**
 * Why a request got no answer: `absent`, nothing listens at the path (no
 * socket, or a stale one); `timeout`, a server took the connection but did
 * not answer within the time (busy, or stopped); `closed`, it closed the
 * connection or answered something that is not a response.
 */
export type RequestFailure = "absent" | "timeout" | "closed";

/** A request's answer, or why there is none. */
export type RequestOutcome =
  | { response: ControlResponse }
  | { failure: RequestFailure };

/** `request`, saying why no answer came: a busy server is not a missing one. */
export async function requestOutcome(
  path: string,
  req: ControlRequest,
  timeoutMs = 5000,
): Promise<RequestOutcome> {
  let conn: Deno.UnixConn;
  try {
    conn = await Deno.connect({ transport: "unix", path });
  } catch {
    return { failure: "absent" };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      conn.close();
    } catch { /* closed */ }
  }, timeoutMs);
  try {
    await writeAll(conn, new TextEncoder().encode(JSON.stringify(req) + "\n"));
    const line = await readLine(conn, MAX_CONTROL_RESPONSE);
    if (line === null) return { failure: timedOut ? "timeout" : "closed" };
    return { response: JSON.parse(line) as ControlResponse };
  } catch {
    return { failure: timedOut ? "timeout" : "closed" };
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

async function writeAll(conn: Deno.Conn, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await conn.write(data.subarray(off));
}

/** Longest answer read, in bytes (a snapshot of a long history is large). */
export const MAX_CONTROL_RESPONSE = 1 << 30;

async function readLine(
  conn: Deno.Conn,
  max = MAX_CONTROL_REQUEST,
): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buf = new Uint8Array(65536);
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) break;
    const piece = buf.slice(0, n);
    const nl = piece.indexOf(10);
    chunks.push(nl >= 0 ? piece.subarray(0, nl) : piece);
    total += n;
    if (nl >= 0) break;
    if (total > max) throw new Error(`more than ${max} bytes`);
  }
  if (total === 0) return null;
  const all = new Uint8Array(chunks.reduce((k, c) => k + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return new TextDecoder().decode(all);
}

/** Checks a request from the socket; a string says what is wrong. */
export function parseRequest(text: string): ControlRequest | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return "request is not JSON";
  }
  if (typeof v !== "object" || v === null) return "request is not an object";
  const o = v as Record<string, unknown>;
  const ref = (x: unknown) =>
    (typeof x === "number" && Number.isInteger(x) && x > 0) ||
    (typeof x === "string" && x.length > 0 && x.length <= 256);
  switch (o.op) {
    case "info":
    case "list":
    case "kill-server":
      return { op: o.op };
    case "new": {
      const r: ControlRequest = { op: "new" };
      if (o.pane !== undefined) {
        const pane = parsePaneTarget(o.pane);
        if (typeof pane === "string") return `new: ${pane}`;
        r.pane = pane;
      }
      if (o.command !== undefined) {
        if (
          !Array.isArray(o.command) || o.command.length === 0 ||
          o.command.length > 1024 ||
          !o.command.every((a) => typeof a === "string" && a.length < 65536)
        ) return "new: command must be a non-empty list of strings";
        r.command = o.command as string[];
      }
      if (o.cwd !== undefined) {
        if (typeof o.cwd !== "string" || o.cwd.length > 4096) {
          return "new: bad cwd";
        }
        r.cwd = o.cwd;
      }
      if (o.name !== undefined) {
        if (typeof o.name !== "string" || !/^[\w.-]{1,64}$/.test(o.name)) {
          return "new: a name is 1-64 letters, digits, '_', '.' or '-'";
        }
        r.name = o.name;
      }
      if (o.journal !== undefined) {
        if (typeof o.journal !== "boolean") return "new: journal is a boolean";
        r.journal = o.journal;
      }
      return r;
    }
    case "restore":
      if (!ref(o.which)) return "restore: which is all, a number or a name";
      return { op: "restore", which: String(o.which) };
    case "restart-server":
      if (o.command !== undefined) {
        if (
          !Array.isArray(o.command) || o.command.length === 0 ||
          o.command.length > 64 ||
          !o.command.every((a) => typeof a === "string" && a.length < 4096)
        ) return "restart-server: command must be a non-empty list of strings";
        return { op: o.op, command: o.command as string[] };
      }
      return { op: o.op };
    case "input-mode":
      if (!ref(o.session)) return "input-mode: needs a session number or name";
      if (!isInputMode(o.mode)) {
        return "input-mode: mode is auto, char, line or pipe";
      }
      return {
        op: "input-mode",
        session: o.session as number | string,
        mode: o.mode,
      };
    case "settings": {
      if (!ref(o.session)) return "settings: needs a session number or name";
      const r: ControlRequest = {
        op: "settings",
        session: o.session as number | string,
      };
      if (o.set !== undefined) {
        if (
          typeof o.set !== "object" || o.set === null || Array.isArray(o.set)
        ) {
          return "settings: set must be an object";
        }
        r.set = o.set as Record<string, unknown>;
      }
      return r;
    }
    case "share":
      if (!ref(o.session)) return "share: needs a session number or name";
      if (typeof o.readOnly !== "boolean") {
        return "share: readOnly must be true or false";
      }
      return {
        op: "share",
        session: o.session as number | string,
        readOnly: o.readOnly,
      };
    case "attach":
      return parseAttach(o, ref);
    case "name-window": {
      if (typeof o.name !== "string" || !WINDOW_NAME.test(o.name)) {
        return "name-window: a name is 1-64 letters, digits, '_', '.' or '-', not all digits";
      }
      const target = parsePaneTarget({ ...o, where: "tab" });
      if (typeof target === "string") return `name-window: ${target}`;
      const { where: _, ...at } = target;
      return { op: "name-window", name: o.name, ...at };
    }
    case "open-in-page": {
      const id = (x: unknown) =>
        x === null || (Number.isSafeInteger(x) && (x as number) > 0);
      if (!id(o.window) || !id(o.session)) {
        return "open-in-page: window and session are numbers or null";
      }
      return {
        op: "open-in-page",
        window: o.window as number | null,
        session: o.session as number | null,
      };
    }
    case "kill":
    case "detach":
    case "snapshot":
      if (!ref(o.session)) return `${o.op}: needs a session number or name`;
      return { op: o.op, session: o.session as number | string };
    case "ssh": // ssh hosts
      return parseSshRequest(o); // ssh hosts
    default:
      return `unknown op ${JSON.stringify(o.op)}`.slice(0, 100);
  }
}

/** A window's name: not all digits (those name windows by number). */
const WINDOW_NAME = /^(?!\d+$)[\w.-]{1,64}$/;

function parsePaneTarget(v: unknown): PaneTarget | string {
  const o = v as Record<string, unknown>;
  if (typeof o !== "object" || o === null) return "pane must be an object";
  if (o.where !== "tab" && !SIDES.includes(o.where as Side)) {
    return "pane: where is tab, left, right, above or below";
  }
  const r: PaneTarget = { where: o.where as PaneTarget["where"] };
  if (o.window !== undefined) {
    if (!isRef(o.window)) return "pane: bad window";
    r.window = o.window;
  }
  if (o.from !== undefined) {
    if (!Number.isSafeInteger(o.from) || (o.from as number) < 1) {
      return "pane: bad from";
    }
    r.from = o.from as number;
  }
  return r;
}

/** A session or window named by number or name. */
function isRef(x: unknown): x is number | string {
  return (typeof x === "number" && Number.isInteger(x) && x > 0) ||
    (typeof x === "string" && x.length > 0 && x.length <= 256);
}

function parseAttach(
  o: Record<string, unknown>,
  ref: (x: unknown) => boolean,
): ControlRequest | string {
  const r: ControlRequest = { op: "attach" };
  if (o.session !== undefined) {
    if (!ref(o.session)) return "attach: needs a session number or name";
    r.session = o.session as number | string;
  }
  if (o.window !== undefined) {
    if (!isRef(o.window)) return "attach: bad window";
    r.window = o.window;
  }
  if (o.pane !== undefined) {
    const pane = parsePaneTarget(o.pane);
    if (typeof pane === "string") return `attach: ${pane}`;
    if (r.session === undefined) return "attach: a pane needs a session";
    r.pane = pane;
  }
  return r;
}

/** What the control socket acts on (the server). */
export interface ControlHandler {
  handle(req: ControlRequest): Promise<ControlResponse> | ControlResponse;
}

/** A listening control socket. */
export interface ControlListener {
  readonly path: string;
  /**
   * Stop listening. Resolves once the socket file is gone: Deno removes a
   * UNIX listener's file itself when the listener is finally dropped
   * (after the pending accept ends), which would remove a newer server's
   * socket bound at the same path in the meantime (restart-server).
   */
  close(): Promise<void>;
}

/**
 * Listen on `path`, replacing a stale socket file. Throws when another
 * server answers there (the caller should have asked it instead).
 */
export async function listenControl(
  path: string,
  handler: ControlHandler,
  log: (m: string) => void = () => {},
): Promise<ControlListener> {
  let listener: Deno.UnixListener;
  try {
    listener = Deno.listen({ transport: "unix", path });
  } catch (e) {
    if (!(e instanceof Deno.errors.AddrInUse)) throw e;
    if (await request(path, { op: "info" }, 1000) !== null) {
      throw new Error(`a domterm server already answers at ${path}`);
    }
    // Left by a server that died: nothing answers. Take its place.
    Deno.removeSync(path);
    listener = Deno.listen({ transport: "unix", path });
  }
  try {
    Deno.chmodSync(path, 0o600);
  } catch { /* the directory is private anyway */ }
  // Which file is ours: a newer server may have bound the path since.
  const ours = Deno.statSync(path).ino;
  const accepting = (async () => {
    for await (const conn of listener) {
      void serveOne(conn, handler, log);
    }
  })().catch(() => {});
  let closing: Promise<void> | undefined;
  return {
    path,
    close() {
      closing ??= (async () => {
        try {
          listener.close();
        } catch { /* closed */ }
        await accepting;
        try {
          if (Deno.statSync(path).ino === ours) Deno.removeSync(path);
        } catch { /* gone */ }
      })();
      return closing;
    },
  };
}

async function serveOne(
  conn: Deno.Conn,
  handler: ControlHandler,
  log: (m: string) => void,
): Promise<void> {
  let res: ControlResponse;
  try {
    const line = await readLine(conn);
    const req = line === null ? "empty request" : parseRequest(line);
    res = typeof req === "string"
      ? { ok: false, error: req }
      : await handler.handle(req);
  } catch (e) {
    log(`control request failed: ${(e as Error).message}`);
    res = { ok: false, error: (e as Error).message };
  }
  try {
    await writeAll(conn, new TextEncoder().encode(JSON.stringify(res) + "\n"));
  } catch { /* the asker left */ }
  try {
    conn.close();
  } catch { /* closed */ }
}
