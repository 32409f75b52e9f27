/**
 * The HTTP + WebSocket server: serves the embedded client and connects each
 * window's WebSocket to a session. Listens on 127.0.0.1 by default.
 *
 * @module
 */
import {
  handleKey,
  handleLine,
  relayEditState,
  windowAttached,
  windowGone,
} from "./line_input.ts";
import { openLink, processCwd } from "./opener.ts";
import {
  CLOSE_BAD_KEY,
  CLOSE_BAD_MESSAGE,
  CLOSE_NO_SESSION,
  type HelloMessage,
  parseClientMessage,
  USER_CSS_KEY_HEADER,
  USER_CSS_PATH,
  WS_PATH,
} from "../core/protocol.ts";
import { keysEqual, newServerKey } from "./key.ts";
import { Session, type Window } from "./session.ts";
import { send } from "./socket_send.ts";
import { type Asset, assetBody } from "./assets.ts";
import { SettingsStore } from "./settings/file.ts";
import { WindowSettings } from "./settings/windows.ts";
import { checkSettings } from "../core/settings/validate.ts";
import {
  type HelloGrant,
  loopbackGate,
  type RemoteGate,
  type UpgradeGrant,
} from "./remote/gate.ts";
import { dropForReadOnly } from "./remote/read_only.ts";
import { RemoteSessions } from "./ssh/remote_sessions.ts"; // ssh hosts

export type { Asset } from "./assets.ts";

/** Server configuration. */
export interface ServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  hostname?: string;
  /** The program each new session runs, and its arguments. */
  command: string;
  args: string[];
  /** Static files by path ("/" is the page). */
  assets: Record<string, Asset>;
  /** Fixed key (tests); default: a new random key. */
  key?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Inject shell integration into bash/zsh/fish sessions (default true). */
  shellIntegration?: boolean;
  highWater?: number;
  lowWater?: number;
  /** Called when the last session has ended (after at least one started). */
  onIdle?: () => void;
  /** Called when a window has connected with the right key. */
  onConnect?: () => void;
  /** Where to report problems (default: console.error). */
  log?: (message: string) => void;
  /** Template of the command that opens clicked file references (see server/opener.ts). */
  fileOpener?: string;
  /**
   * History lines each window keeps; null for no limit. Default:
   * DEFAULT_SCROLLBACK_LINES (core/protocol.ts), or the settings'.
   */
  scrollback?: number | null;
  /**
   * The user's stylesheet, served at /user.css (default:
   * {@link defaultUserCssPath}); null serves none.
   */
  userCssPath?: string | null;
  /** A session with no window ends after this many ms (default: never). */
  detachedTimeoutMs?: number;
  /** Output bytes each session keeps for reconnecting windows. */
  replayBytes?: number;
  /** How long a closed last window waits for a reload before the program is hung up (ms). */
  closeGraceMs?: number;
  /**
   * The settings file (server/settings/file.ts). Default: one without a
   * file (the built-in defaults). Its `scrollback` and `file-opener` are
   * used where the options above give none.
   */
  settings?: SettingsStore;
  /** New sessions run the settings' `shell` when it is set (the command line named no command). */
  shellFromSettings?: boolean;
  /**
   * The listener's gate (server/remote/gate.ts): address, TLS, password,
   * shares, access log. Default: 127.0.0.1 with the key only.
   */
  gate?: RemoteGate;
}

/** Largest user stylesheet served, in bytes. Test hook: exported for the settings tests. */
export const MAX_USER_CSS_BYTES = 1 << 20;

/**
 * Where the user's stylesheet lives: `$XDG_CONFIG_HOME/domterm/style.css`,
 * else `$HOME/.config/domterm/style.css`; null when neither is set.
 */
export function defaultUserCssPath(): string | null {
  const xdg = Deno.env.get("XDG_CONFIG_HOME");
  if (xdg) return `${xdg}/domterm/style.css`;
  const home = Deno.env.get("HOME");
  return home ? `${home}/.config/domterm/style.css` : null;
}

/**
 * The answer to GET /user.css: the file's text, or 204 when there is no
 * file (not an error: most users have none).
 */
async function userCssResponse(
  path: string | null,
  head: boolean,
): Promise<Response> {
  if (path === null) return new Response(null, { status: 204 });
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return new Response(null, { status: 204 });
    }
    return new Response(`cannot read ${path}: ${(e as Error).message}`, {
      status: 500,
      headers: securityHeaders("text/plain; charset=utf-8"),
    });
  }
  try {
    const info = await file.stat();
    if (!info.isFile) {
      return new Response(`${path} is not a file`, {
        status: 500,
        headers: securityHeaders("text/plain; charset=utf-8"),
      });
    }
    if (info.size > MAX_USER_CSS_BYTES) {
      return new Response(
        `${path} is larger than ${MAX_USER_CSS_BYTES} bytes`,
        { status: 413, headers: securityHeaders("text/plain; charset=utf-8") },
      );
    }
    const bytes = new Uint8Array(info.size);
    let n = 0;
    while (n < bytes.length) {
      const r = await file.read(bytes.subarray(n));
      if (r === null) break;
      n += r;
    }
    return new Response(head ? null : bytes.slice(0, n), {
      headers: securityHeaders("text/css; charset=utf-8"),
    });
  } finally {
    file.close();
  }
}

/** A running server. */
export interface DomtermServer {
  readonly port: number;
  readonly key: string;
  /** The page URL with the key in the fragment. */
  readonly url: string;
  readonly sessions: ReadonlyMap<number, Session>;
  /** The settings of the windows (the file's and each session's). */
  readonly settings: WindowSettings;
  /** The gate: login, shares, access log (server/remote/gate.ts). */
  readonly gate: RemoteGate;
  /** Sessions on other hosts (`domterm user@host`). */
  readonly remotes: RemoteSessions; // ssh hosts
  /**
   * Start a session without a window (`domterm new` before its window
   * connects): the window attaches with its number.
   */
  newSession(
    command?: string[],
    size?: { cols: number; rows: number },
    extra?: { cwd?: string; name?: string },
  ): Session;
  /** End all sessions and stop listening. */
  shutdown(): Promise<void>;
}

const HELLO_TIMEOUT_MS = 10_000;
/** How often a window that only a login let in checks that the login lives. */
const LOGIN_CHECK_MS = 30_000;

/**
 * Response headers. 'wasm-unsafe-eval' lets the client compile the sixel
 * decoder's WebAssembly (it allows no eval() of script).
 */
function securityHeaders(type: string): Headers {
  return new Headers({
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "content-security-policy":
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
      "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
      "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  });
}

/** Start listening. Resolves once the port is bound. */
export function startServer(options: ServerOptions): DomtermServer {
  const key = options.key ?? newServerKey();
  const gate = options.gate ?? loopbackGate();
  const hostname = options.hostname ?? gate.config.hostname;
  const log = options.log ?? ((m: string) => console.error(`domterm: ${m}`));
  const sessions = new Map<number, Session>();
  let nextSession = 1;
  const remotes = new RemoteSessions(() => nextSession++, () => { // ssh hosts
    if (sessions.size === 0) options.onIdle?.(); // ssh hosts
  }); // ssh hosts
  let port = 0;
  const userCssPath = options.userCssPath === undefined
    ? defaultUserCssPath()
    : options.userCssPath;

  const store = options.settings ?? new SettingsStore(null);
  const settings = new WindowSettings(store, () => sessions.values());
  /** The history lines of new sessions: the option's, else the settings'. */
  const scrollback = (): number | null =>
    options.scrollback === undefined
      ? store.current.scrollback as number | null
      : options.scrollback;

  const shell = () => store.current.shell as string[];
  function newSession(
    command: string[] = options.shellFromSettings && shell().length
      ? shell()
      : [options.command, ...options.args],
    size = { cols: 80, rows: 24 },
    extra: { cwd?: string; name?: string } = {},
  ): Session {
    const id = nextSession++;
    const s = Session.start({
      id,
      command: command[0],
      args: command.slice(1),
      cols: size.cols,
      rows: size.rows,
      scrollback: scrollback() ?? Infinity,
      env: options.env,
      cwd: extra.cwd ?? options.cwd,
      name: extra.name,
      shellIntegration: options.shellIntegration,
      highWater: options.highWater,
      lowWater: options.lowWater,
      detachedTimeoutMs: options.detachedTimeoutMs,
      replayBytes: options.replayBytes,
      closeGraceMs: options.closeGraceMs,
      onSettings: (json) => settings.setFromProgram(s, json),
    });
    sessions.set(id, s);
    s.setTitleReports(settings.effective(id)["title-reporting"] === true);
    s.finished.finally(() => {
      sessions.delete(id);
      gate.shares.forgetSession(id);
      settings.forget(id);
      if (sessions.size === 0 && remotes.size === 0) options.onIdle?.(); // ssh hosts
    });
    return s;
  }

  function handleSocket(socket: WebSocket, upgrade: UpgradeGrant): void {
    socket.binaryType = "arraybuffer";
    let session: Session | null = null;
    let win: Window | null = null;
    /** Set for a read-only share: what it sends is dropped (and said once). */
    let readOnly = false;
    let toldReadOnly = false;
    /** Set when only a login let it in: it ends with the login. */
    let loginCheck: ReturnType<typeof setInterval> | undefined;
    /** `activity`: a message came (it restarts the login's idle clock). */
    const loginGone = (activity = false) => {
      if (!gate.loginAlive(upgrade, activity)) {
        clearInterval(loginCheck);
        send(socket, {
          type: "error",
          message:
            "logged out, or the login expired: reload the page to log in",
        });
        socket.close(CLOSE_BAD_KEY, "login ended");
        return true;
      }
      return false;
    };
    const helloTimer = setTimeout(() => {
      if (!session) socket.close(CLOSE_BAD_KEY, "no hello");
    }, HELLO_TIMEOUT_MS);

    const hello = (m: HelloMessage, grant: HelloGrant) => {
      clearTimeout(helloTimer);
      let s: Session;
      readOnly = grant.readOnly;
      if (grant.viaLogin) {
        loginCheck = setInterval(() => loginGone(), LOGIN_CHECK_MS);
      }
      const remote = m.session !== undefined && remotes.get(m.session); // ssh hosts
      if (remote) { // ssh hosts
        if (readOnly) {
          send(socket, {
            type: "error",
            message: "a share cannot open a session on another host",
          });
          socket.close(CLOSE_NO_SESSION, "no such session");
          return;
        }
        return remotes.attach(socket, m, remote);
      }
      if (m.session !== undefined) {
        const found = sessions.get(m.session);
        if (found === undefined || found.exitStatus) {
          send(socket, {
            type: "error",
            message: `there is no session ${m.session} (it may have ended)`,
          });
          socket.close(CLOSE_NO_SESSION, "no such session");
          return;
        }
        s = found;
      } else {
        try {
          s = newSession(undefined, { cols: m.cols, rows: m.rows });
        } catch (e) {
          const message = (e as Error).message;
          log(message);
          send(socket, { type: "error", message });
          socket.close(1011, "cannot start");
          return;
        }
      }
      session = s;
      // A read-only viewer does not size the session: it takes its grid.
      win = s.attach(
        socket,
        readOnly ? s.cols : m.cols,
        readOnly ? s.rows : m.rows,
        { scrollback: scrollback() },
        m.offset !== undefined
          ? { offset: m.offset, gridSeq: m.gridSeq ?? 0 }
          : undefined,
      );
      windowAttached(s, win);
      send(socket, settings.message(s.id));
      if (readOnly) {
        send(socket, {
          type: "read-only",
          message: "read-only share: what you type is not sent to the session",
        });
        toldReadOnly = true;
      }
      if (grant.viaLogin) send(socket, { type: "login" });
      options.onConnect?.();
    };

    socket.onmessage = (ev) => {
      if (!session || !win) {
        if (typeof ev.data !== "string") {
          send(socket, {
            type: "error",
            message: "the first message must be hello",
          });
          socket.close(CLOSE_BAD_MESSAGE, "expected hello");
          return;
        }
        const m = parseClientMessage(ev.data);
        if (typeof m === "string" || m.type !== "hello") {
          const why = typeof m === "string"
            ? m
            : "the first message must be hello";
          send(socket, { type: "error", message: why });
          socket.close(CLOSE_BAD_MESSAGE, "expected hello");
          return;
        }
        const grant = gate.hello(upgrade, m.key, m.session, key);
        if (typeof grant === "string") {
          send(socket, { type: "error", message: grant });
          socket.close(CLOSE_BAD_KEY, "wrong key");
          return;
        }
        hello(m, grant);
        return;
      }
      // A window detached on purpose no longer speaks for the session (its
      // socket stays open until the page closes it).
      if (!session.windows.has(win)) return;
      if (loginCheck !== undefined && loginGone(true)) return;
      if (readOnly) {
        const m = typeof ev.data === "string"
          ? parseClientMessage(ev.data)
          : null;
        if (dropForReadOnly(m)) {
          if (!toldReadOnly) {
            send(socket, {
              type: "read-only",
              message:
                "read-only share: what you type is not sent to the session",
            });
          }
          toldReadOnly = true;
          return;
        }
      }
      if (typeof ev.data !== "string") {
        void session.input(new Uint8Array(ev.data as ArrayBuffer), win);
        return;
      }
      const m = parseClientMessage(ev.data);
      if (typeof m === "string") {
        // A broken control message is reported, not fatal: no output or input is lost.
        send(socket, { type: "error", message: m });
        return;
      }
      switch (m.type) {
        case "resize":
          session.resize(win, m.cols, m.rows, m.width, m.height);
          break;
        case "ack":
          session.ack(win, m.bytes);
          break;
        case "focus":
          session.focus(win);
          break;
        case "closing":
          session.closing(win);
          break;
        case "detach":
          session.detachAll();
          break;
        case "clear-history":
          session.clearHistory();
          break;
        case "pause":
          session.pause(win, m.paused);
          break;
        case "key":
          handleKey(session, win, m);
          break;
        case "line":
          handleLine(session, win, m);
          break;
        case "edit-state":
          relayEditState(session, win, m);
          break;
        case "save-settings": {
          const sock = socket;
          const { values, problems } = checkSettings(m.settings);
          if (problems.length) {
            send(sock, {
              type: "error",
              message: `settings not saved: ${
                problems.map((p) => p.message).join("; ")
              }`,
            });
            break;
          }
          store.save(values).catch((e) =>
            send(sock, {
              type: "error",
              message: `cannot save the settings: ${(e as Error).message}`,
            })
          );
          break;
        }
        case "hello":
          send(socket, { type: "error", message: "already connected" });
          break;
        case "open":
          void openLink(m, {
            fileOpener: options.fileOpener ??
              ((store.current["file-opener"] as string) || undefined),
            cwd: processCwd(session.pty.pid),
            log,
          });
          break;
      }
    };
    socket.onclose = () => {
      clearTimeout(helloTimer);
      clearInterval(loginCheck);
      if (session && win) windowGone(session, win);
      if (session && win) session.detach(win);
    };
    socket.onerror = () => {};
  }

  const server = Deno.serve({
    port: gate.config.port ?? options.port ?? 0,
    hostname,
    ...(gate.config.tls ?? {}),
    onListen: () => {},
    onError: (e) => {
      log(`request failed: ${(e as Error).message}`);
      return new Response("internal error", { status: 500 });
    },
  }, async (req, info) => {
    const url = new URL(req.url);
    const address = info.remoteAddr.hostname;
    if (url.pathname === WS_PATH) {
      if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
        return new Response("expected a WebSocket upgrade", { status: 400 });
      }
      const grant = gate.upgrade(req, address, port);
      if (grant instanceof Response) return grant;
      const { socket, response } = Deno.upgradeWebSocket(req, {
        idleTimeout: 0,
      });
      handleSocket(socket, grant);
      return response;
    }
    const { response, authorized } = await gate.route(req, address);
    if (response) return response;
    if (req.method !== "GET" && req.method !== "HEAD") {
      return new Response("method not allowed", { status: 405 });
    }
    if (url.pathname === USER_CSS_PATH) {
      // The key (or a login) guards it like a session: another page (or a
      // rebound DNS name) must not read the user's files through us.
      if (
        !authorized &&
        !keysEqual(req.headers.get(USER_CSS_KEY_HEADER) ?? "", key)
      ) {
        return new Response("wrong server key", { status: 403 });
      }
      return userCssResponse(userCssPath, req.method === "HEAD");
    }
    // "/share" is the page of a share link (the token is in the fragment).
    const asset = options.assets[
      url.pathname === "/index.html" || url.pathname === "/share"
        ? "/"
        : url.pathname
    ];
    if (!asset) return new Response("not found", { status: 404 });
    const { body, headers } = await assetBody(
      asset,
      req.headers.get("accept-encoding"),
    );
    const all = securityHeaders(asset.type);
    for (const [name, value] of headers) all.set(name, value);
    return new Response(req.method === "HEAD" ? null : body, {
      headers: all,
    });
  });
  port = server.addr.port;

  return {
    port,
    key,
    url: `${gate.origin(port)}/#key=${key}`,
    sessions,
    settings,
    gate,
    newSession,
    remotes, // ssh hosts
    async shutdown() {
      remotes.closeAll(); // ssh hosts
      await Promise.all([...sessions.values()].map((s) => s.close()));
      await server.shutdown();
    },
  };
}
