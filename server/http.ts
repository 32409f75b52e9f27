/**
 * The HTTP server: the router. It serves the embedded client and the
 * user's stylesheet, lets the gate (server/remote/gate.ts) check every
 * request, and hands each `/ws` upgrade to a {@link WindowConnection}
 * (server/window_connection.ts), which attaches the window to a session of
 * the {@link SessionRegistry} (server/session_registry.ts), and each
 * `/window` upgrade (a page's window channel) to a {@link WindowChannel}
 * (server/windows/). Listens on 127.0.0.1 by default.
 *
 * @module
 */
import {
  USER_CSS_KEY_HEADER,
  USER_CSS_PATH,
  WINDOW_PATH,
  WS_PATH,
} from "../core/protocol.ts";
import { keysEqual, newServerKey } from "./key.ts";
import type { Session } from "./session.ts";
import { type Asset, assetBody, assetTag } from "./assets.ts";
import { SettingsStore } from "./settings/file.ts";
import type { WindowSettings } from "./settings/windows.ts";
import {
  loopbackGate,
  type RemoteGate,
  type UpgradeGrant,
} from "./remote/gate.ts";
import type { RemoteSessions } from "./ssh/remote_sessions.ts"; // ssh hosts
import {
  type JournalStop,
  type NewSessionExtra,
  SessionRegistry,
} from "./session_registry.ts";
import { WindowConnection } from "./window_connection.ts";
import { registrySessions, WindowRegistry } from "./windows/registry.ts";
import { WindowChannel } from "./windows/channel.ts";
import { LAUNCH_PATH, LaunchTokens } from "./launch_token.ts";

export type { Asset } from "./assets.ts";

/** Server configuration. */
export interface ServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * The port of the loopback listener of this machine's own windows (when
   * there is one: see needsLocalListener); 0 (default) picks a free one.
   * A restarted server gets the old one's, so its windows reconnect.
   */
  localPort?: number;
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
  /**
   * Keep each new session's journal under this directory, for a restore
   * after a crash (server/journal/; the `journal` setting turns it off).
   * Default: none.
   */
  journalRoot?: string;
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
  /** The port of the loopback listener of this machine's own windows, or null (none: they use `port`). */
  readonly localPort: number | null;
  readonly key: string;
  /**
   * The page URL with the key in the fragment, for this machine's own
   * windows: on a loopback listener of its own when `--listen` has TLS, a
   * password or a network address.
   */
  readonly url: string;
  /** Its sessions: made, found, listed and closed there. */
  readonly registry: SessionRegistry;
  /** The top-level windows: their layouts and the pages showing them. */
  readonly windows: WindowRegistry;
  /** The registry's sessions by number. */
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
    extra?: NewSessionExtra,
  ): Session;
  /**
   * End every session (telling its windows `reason`) and stop serving.
   * With `keep`, the sessions' journals are kept for a restore.
   */
  shutdown(reason?: string, keep?: JournalStop): Promise<void>;
  /**
   * Stop listening, the sessions untouched (`domterm restart-server`: the
   * next server takes the port); {@link listenAgain} undoes it.
   */
  stopListening(): Promise<void>;
  /** Listen on the same port again (the next server failed). */
  listenAgain(): void;
}

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
  const log = options.log ?? ((m: string) => console.error(`domterm: ${m}`));
  const store = options.settings ?? new SettingsStore(null);
  const registry: SessionRegistry = new SessionRegistry({
    ...options,
    onEnded: (id) => {
      gate.shares.forgetSession(id);
      windows.sessionEnded(id);
    },
    // A reloaded page's window channel connects before its terminals do.
    awaited: (id) => windows.showing(id).some((w) => w.pages.size > 0),
  }, store);
  const windows = new WindowRegistry(registrySessions(registry));
  const userCssPath = options.userCssPath === undefined
    ? defaultUserCssPath()
    : options.userCssPath;
  const connections = {
    key,
    gate,
    registry,
    log,
    fileOpener: () =>
      options.fileOpener ??
        ((store.current["file-opener"] as string) || undefined),
    onConnect: options.onConnect,
  };
  const launches = new LaunchTokens(key);
  const routesOf = (g: RemoteGate): Routes => ({
    key,
    launches,
    gate: g,
    assets: options.assets,
    userCssPath,
    port: 0,
    upgrade: (socket, grant, path) =>
      void (path === WINDOW_PATH
        ? new WindowChannel(socket, grant, { key, gate: g, windows, log })
        : new WindowConnection(socket, grant, { ...connections, gate: g })),
  });
  const serve = (
    routes: Routes,
    at: Pick<Deno.ServeTcpOptions, "port" | "hostname">,
    tls?: { cert: string; key: string } | null,
  ) => {
    const s = Deno.serve({
      ...at,
      ...(tls ?? {}),
      onListen: () => {},
      onError: (e) => {
        log(`request failed: ${(e as Error).message}`);
        return new Response("internal error", { status: 500 });
      },
    }, async (req, info) => {
      const res = await route(routes, req, info.remoteAddr.hostname);
      return tls ? withHsts(res) : res;
    });
    routes.port = s.addr.port;
    return s;
  };
  const listen = (port: number) =>
    serve(routesOf(gate), {
      port,
      hostname: options.hostname ?? gate.config.hostname,
    }, gate.config.tls);
  const first = listen(gate.config.port ?? options.port ?? 0);
  let server: Deno.HttpServer | null = first;
  const port = first.addr.port;
  // The user's own windows (opened by this machine's `domterm`) use a
  // plain loopback listener of their own when the remote one has TLS, a
  // password or a network address: a self-signed certificate would stop
  // them at the browser's warning page, and a login is for others. (A
  // restart-server hands its port to the next server, so that its windows
  // reconnect there.)
  const listenLocal = (port: number) =>
    serve(routesOf(loopbackGate()), { port, hostname: "127.0.0.1" });
  let local = needsLocalListener(gate)
    ? listenLocal(options.localPort ?? 0)
    : null;
  const localPort = local?.addr.port ?? null;
  const url = localPort !== null
    ? `http://127.0.0.1:${localPort}/#key=${key}`
    : `${gate.origin(port)}/#key=${key}`;

  return {
    port,
    localPort,
    key,
    url,
    registry,
    windows,
    sessions: registry.sessions,
    settings: registry.settings,
    gate,
    newSession: (command, size, extra) => registry.create(command, size, extra),
    remotes: registry.remotes, // ssh hosts
    async shutdown(reason?: string, keep?: JournalStop) {
      await registry.closeAll(reason, keep);
      await Promise.all([server?.shutdown(), local?.shutdown()]);
    },
    async stopListening() {
      const s = server, l = local;
      server = local = null;
      await Promise.all([s?.shutdown(), l?.shutdown()]);
    },
    listenAgain() {
      server ??= listen(port);
      if (localPort !== null) local ??= listenLocal(localPort);
    },
  };
}

/**
 * A TLS listener's answer tells the browser to use HTTPS only for this
 * host from now on (Strict-Transport-Security), so that a later
 * `http://` link cannot be downgraded. (Not on a WebSocket upgrade.)
 */
function withHsts(res: Response): Response {
  if (res.status === 101) return res;
  const value = "max-age=31536000";
  try {
    res.headers.set("strict-transport-security", value);
    return res;
  } catch {
    // Immutable headers (Response.redirect): a copy can have them.
    const copy = new Response(res.body, res);
    copy.headers.set("strict-transport-security", value);
    return copy;
  }
}

/**
 * Whether the remote listener (`--listen`) is one the user's own windows
 * should not use: TLS, a password or an address other machines reach.
 */
function needsLocalListener(gate: RemoteGate): boolean {
  const c = gate.config;
  return c.tls !== null || c.password !== null || !c.loopback;
}

/** What the router needs. */
interface Routes {
  key: string;
  /** The one-time launch tokens of windows domterm opens (server/launch_token.ts). */
  launches: LaunchTokens;
  gate: RemoteGate;
  assets: Record<string, Asset>;
  userCssPath: string | null;
  /** The port listened on (for the gate's origin checks). */
  port: number;
  /** A good WebSocket upgrade on {@link WS_PATH} or {@link WINDOW_PATH}. */
  upgrade: (socket: WebSocket, grant: UpgradeGrant, path: string) => void;
}

/** The answer to one HTTP request from `address`. */
async function route(
  r: Routes,
  req: Request,
  address: string,
): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === WS_PATH || url.pathname === WINDOW_PATH) {
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a WebSocket upgrade", { status: 400 });
    }
    const grant = r.gate.upgrade(req, address, r.port);
    if (grant instanceof Response) return grant;
    const { socket, response } = Deno.upgradeWebSocket(req, {
      idleTimeout: 0,
    });
    r.upgrade(socket, grant, url.pathname);
    return response;
  }
  const { response, authorized } = await r.gate.route(req, address);
  if (response) return response;
  if (url.pathname === LAUNCH_PATH) return await launchResponse(r, req);
  if (req.method !== "GET" && req.method !== "HEAD") {
    return new Response("method not allowed", { status: 405 });
  }
  if (url.pathname === USER_CSS_PATH) {
    // The key (or a login) guards it like a session: another page (or a
    // rebound DNS name) must not read the user's files through us.
    if (
      !authorized &&
      !keysEqual(req.headers.get(USER_CSS_KEY_HEADER) ?? "", r.key)
    ) {
      return new Response("wrong server key", { status: 403 });
    }
    return userCssResponse(r.userCssPath, req.method === "HEAD");
  }
  return assetResponse(r.assets, req, url.pathname);
}

/**
 * The answer to a POST of a launch token: the key, once per token
 * (server/launch_token.ts).
 */
async function launchResponse(r: Routes, req: Request): Promise<Response> {
  if (req.method !== "POST") {
    return new Response("method not allowed", { status: 405 });
  }
  if (Number(req.headers.get("content-length") ?? 0) > 1024) {
    return new Response("too large", { status: 413 });
  }
  const token = (await req.text().catch(() => "")).slice(0, 256).trim();
  if (!r.launches.redeem(token)) {
    return new Response(
      JSON.stringify({ error: "launch token unknown, used or expired" }),
      { status: 403, headers: securityHeaders("application/json") },
    );
  }
  return new Response(JSON.stringify({ key: r.key }), {
    headers: securityHeaders("application/json"),
  });
}

/** A file of the client; "/share" is the page of a share link (the token is in the fragment). */
async function assetResponse(
  assets: Record<string, Asset>,
  req: Request,
  path: string,
): Promise<Response> {
  const asset =
    assets[path === "/index.html" || path === "/share" ? "/" : path];
  if (!asset) return new Response("not found", { status: 404 });
  // The browser keeps the client and asks each time whether it changed
  // (no-cache + ETag): a second window gets 304s and the script's cached
  // compiled code instead of the whole client again.
  const etag = await assetTag(asset);
  const all = securityHeaders(asset.type);
  all.set("cache-control", "no-cache");
  all.set("etag", etag);
  all.set("vary", "accept-encoding");
  if (req.headers.get("if-none-match") === etag) {
    return new Response(null, { status: 304, headers: all });
  }
  const { body, headers } = await assetBody(
    asset,
    req.headers.get("accept-encoding"),
  );
  for (const [name, value] of headers) all.set(name, value);
  return new Response(req.method === "HEAD" ? null : body, {
    headers: all,
  });
}
