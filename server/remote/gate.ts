/**
 * The remote listener's door (`--listen`, `--password-file`, shares): the
 * login and logout routes, the check of every request and WebSocket
 * upgrade, and what a window's hello may open. server/http.ts asks it
 * before doing anything else.
 *
 * With a password: `/` and `/user.css` need the login cookie; the client's
 * files and `/share` (the page of a share link) do not, since they hold no
 * secret. A WebSocket needs a same-origin `Origin`, then either the login
 * cookie, the server key, or a share token for the session it names.
 *
 * @module
 */
import type { AccessLog } from "./access_log.ts";
import {
  type AuthSession,
  AuthSessions,
  cookieHeader,
  csrfMatches,
  DEVICE_COOKIE,
  LOGIN_CSRF_COOKIE,
  parseCookies,
  SESSION_COOKIE,
} from "./auth_sessions.ts";
import type { RemoteConfig } from "./cli_options.ts";
import { loginPage, logoutPage } from "./login_page.ts";
import { verifyPassword } from "./password.ts";
import { LoginRateLimiter } from "./rate_limit.ts";
import { Shares } from "./shares.ts";
import { keysEqual, newServerKey } from "../key.ts";

/** Largest login or logout form body read, in bytes. */
const MAX_FORM_BYTES = 4096;
/** How long a browser stays a known device ({@link DEVICE_COOKIE}). */
const DEVICE_MAX_AGE_S = 365 * 24 * 3600;
/** Known devices kept at most. */
const MAX_DEVICES = 1000;

/** What a WebSocket upgrade was let through with. */
export interface UpgradeGrant {
  /** The upgrade carried a live login cookie. */
  loggedIn: boolean;
  /** That login's session id (see {@link RemoteGate.loginAlive}). */
  loginId?: string;
  address: string;
  /**
   * A page on this machine that came straight to our loopback listener
   * (its Host names our port): never a slow link (server/frames/policy.ts).
   * Not set through a port forward or a proxy, which may be one.
   */
  direct?: boolean;
}

/** What a hello may open. */
export interface HelloGrant {
  readOnly: boolean;
  /** Set for a share: the only session it opens. */
  session?: number;
  /** Only the login opened it: it ends with the login (logout, expiry). */
  viaLogin?: boolean;
}

/** Test hooks and collaborators. */
export interface RemoteGateOptions {
  log: AccessLog;
  limiter?: LoginRateLimiter;
  auth?: AuthSessions;
}

function headers(type: string, extra: Record<string, string> = {}): Headers {
  return new Headers({
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    // Not no-referrer: under it the browser sends `Origin: null` with the
    // form, and the login's same-origin check could not tell.
    "referrer-policy": "same-origin",
    "content-security-policy":
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; " +
      "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ...extra,
  });
}

function text(
  status: number,
  body: string,
  extra: Record<string, string> = {},
) {
  return new Response(body, {
    status,
    headers: headers("text/plain; charset=utf-8", extra),
  });
}

function redirect(location: string, cookies: string[] = []): Response {
  const h = headers("text/plain; charset=utf-8", { location });
  for (const c of cookies) h.append("set-cookie", c);
  return new Response(null, { status: 303, headers: h });
}

async function readForm(req: Request): Promise<URLSearchParams | null> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return null;
  if (!req.body) return new URLSearchParams();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_FORM_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return new URLSearchParams(new TextDecoder().decode(all));
}

/**
 * The host the request was sent to: its Host header, or in HTTP/2 (no
 * Host header) the `:authority` that Deno put in its URL.
 */
function requestHost(req: Request): string {
  return req.headers.get("host") ?? new URL(req.url).host;
}

/** The names a loopback server answers to, at `port`. */
function loopbackHosts(port: string): string[] {
  const p = port === "" ? "" : `:${port}`;
  return [`127.0.0.1${p}`, `localhost${p}`, `[::1]${p}`];
}

/**
 * The port of a Host value ("" when it has none), or null when its name is
 * not a loopback name. A loopback listener answers to those names only (a
 * rebound DNS name must not reach it), whatever the port: a port forward
 * (`ssh -L 9000:127.0.0.1:PORT`, a proxy) brings the page in through
 * another one.
 */
export function loopbackHostPort(host: string): string | null {
  const m = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i.exec(host);
  return m ? m[2] ?? "" : null;
}

/** The gate of a server on 127.0.0.1 with no remote option (today's). */
export function loopbackGate(): RemoteGate {
  return new RemoteGate({
    hostname: "127.0.0.1",
    port: undefined,
    loopback: true,
    tls: null,
    password: null,
    insecure: false,
    accessLogPath: null,
    warnings: [],
  }, { log: { write() {} } });
}

/** The remote listener's gate. */
export class RemoteGate {
  readonly config: RemoteConfig;
  readonly shares = new Shares();
  readonly log: AccessLog;
  readonly limiter: LoginRateLimiter;
  readonly auth: AuthSessions;
  /** Addresses whose password check is running (one at a time each). */
  #checking = new Set<string>();

  constructor(config: RemoteConfig, options: RemoteGateOptions) {
    this.config = config;
    this.log = options.log;
    this.limiter = options.limiter ?? new LoginRateLimiter();
    this.auth = options.auth ?? new AuthSessions();
  }

  /**
   * The server's origin for the URLs it prints: the listen address, or
   * this machine's name when that is a wildcard (0.0.0.0, ::).
   */
  origin(port: number): string {
    let host = this.config.hostname;
    if (host === "0.0.0.0" || host === "::") host = Deno.hostname();
    else if (host.includes(":")) host = `[${host}]`;
    return `${this.scheme}://${host}:${port}`;
  }

  /** "https" with TLS, else "http". */
  get scheme(): string {
    return this.config.tls ? "https" : "http";
  }

  #cookie(name: string, value: string, maxAge: number): string {
    const c = cookieHeader(name, value, maxAge);
    // A browser drops a Secure cookie that came over plain HTTP
    // (--insecure without TLS): only then is it left out.
    return this.config.tls ? c : c.replace("; Secure", "");
  }

  /** The login session of this request's cookie, or null. */
  session(req: Request): AuthSession | null {
    return this.auth.get(
      parseCookies(req.headers.get("cookie")).get(SESSION_COOKIE),
    );
  }

  /**
   * True when the request's Origin, if any, is this server's own (on
   * loopback: any of the loopback names of its port).
   */
  #sameOrigin(req: Request, required: boolean, loopback = false): boolean {
    const origin = req.headers.get("origin");
    if (origin === null) return !required;
    const host = requestHost(req);
    const port = loopback ? loopbackHostPort(host) : null;
    // The page's origin is the Host it was loaded from: on loopback, any of
    // the loopback names with that port.
    const hosts = port !== null ? loopbackHosts(port) : [host];
    return hosts.some((h) => h !== "" && origin === `${this.scheme}://${h}`);
  }

  /**
   * Handle an HTTP request that is not a WebSocket upgrade: a Response
   * to send (login, logout, refusal), or null to serve it as usual
   * (`authorized`: it may read the user's files, e.g. /user.css).
   */
  async route(
    req: Request,
    address: string,
  ): Promise<{ response: Response | null; authorized: boolean }> {
    const path = new URL(req.url).pathname;
    if (this.config.password === null) {
      return { response: null, authorized: false };
    }
    if (path === "/login") {
      if (req.method === "POST") {
        return { response: await this.#login(req, address), authorized: false };
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        return { response: text(405, "method not allowed"), authorized: false };
      }
      if (this.session(req)) {
        return { response: redirect("/"), authorized: true };
      }
      return { response: this.#loginForm(), authorized: false };
    }
    if (path === "/logout") {
      return { response: await this.#logout(req, address), authorized: false };
    }
    const authorized = this.session(req) !== null;
    if (path === "/" || path === "/index.html") {
      if (!authorized) return { response: redirect("/login"), authorized };
    }
    return { response: null, authorized };
  }

  /** Ids of the browsers that logged in (this server's life; the newest last). */
  readonly #devices = new Set<string>();

  #newDevice(): string {
    const id = newServerKey();
    this.#devices.add(id);
    // Bounded: the oldest are forgotten first.
    while (this.#devices.size > MAX_DEVICES) {
      this.#devices.delete(this.#devices.values().next().value!);
    }
    return id;
  }

  #loginForm(error?: string, status = 200): Response {
    const csrf = newServerKey();
    const h = headers("text/html; charset=utf-8");
    h.append("set-cookie", this.#cookie(LOGIN_CSRF_COOKIE, csrf, 3600));
    return new Response(loginPage(csrf, error), { status, headers: h });
  }

  async #login(req: Request, address: string): Promise<Response> {
    if (!this.#sameOrigin(req, false)) {
      this.log.write(address, "login-refused", "cross-origin form");
      return text(403, "cross-origin login refused");
    }
    const cookies = parseCookies(req.headers.get("cookie"));
    // A browser that logged in before has a back-off of its own.
    const device = cookies.get(DEVICE_COOKIE);
    const known = device !== undefined && this.#devices.has(device);
    const who = known ? `device:${device}` : address;
    const wait = this.limiter.retryAfterMs(who);
    if (wait > 0 || this.#checking.has(who)) {
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      this.log.write(address, "login-throttled", `retry after ${seconds}s`);
      const res = this.#loginForm(
        `Too many failed logins: try again in ${seconds} s.`,
        429,
      );
      res.headers.set("retry-after", String(seconds));
      return res;
    }
    const form = await readForm(req);
    if (form === null) return text(400, "expected a form of at most 4 KiB");
    if (!csrfMatches(form.get("csrf"), cookies.get(LOGIN_CSRF_COOKIE))) {
      this.log.write(address, "login-refused", "bad CSRF token");
      return this.#loginForm(
        "The form expired or came from elsewhere: try again.",
        403,
      );
    }
    const password = form.get("password") ?? "";
    this.#checking.add(who);
    let ok: boolean;
    try {
      ok = await verifyPassword(password, this.config.password!);
    } finally {
      this.#checking.delete(who);
    }
    if (!ok) {
      this.limiter.fail(who);
      this.log.write(
        address,
        "login-failed",
        known ? "known device" : undefined,
      );
      return this.#loginForm("Wrong password.", 401);
    }
    this.limiter.succeed(who);
    const s = this.auth.create(address);
    this.log.write(address, "login-ok", known ? "known device" : undefined);
    const id = known ? device! : this.#newDevice();
    return redirect("/", [
      this.#cookie(SESSION_COOKIE, s.id, this.auth.cookieMaxAge(s)),
      this.#cookie(LOGIN_CSRF_COOKIE, "", 0),
      this.#cookie(DEVICE_COOKIE, id, DEVICE_MAX_AGE_S),
    ]);
  }

  async #logout(req: Request, address: string): Promise<Response> {
    const s = this.session(req);
    if (!s) return redirect("/login");
    if (req.method === "GET" || req.method === "HEAD") {
      return new Response(logoutPage(s.csrf), {
        headers: headers("text/html; charset=utf-8"),
      });
    }
    if (req.method !== "POST") return text(405, "method not allowed");
    const form = await readForm(req);
    if (
      !this.#sameOrigin(req, false) || form === null ||
      !csrfMatches(form.get("csrf"), s.csrf)
    ) {
      this.log.write(address, "logout-refused", "bad CSRF token or origin");
      return text(403, "logout refused: bad form");
    }
    this.auth.delete(s.id);
    this.log.write(address, "logout");
    return redirect("/login", [this.#cookie(SESSION_COOKIE, "", 0)]);
  }

  /**
   * Check a WebSocket upgrade: a same-origin `Origin` (required with a
   * password: every browser sends one) and, on loopback, a loopback Host
   * (a rebound DNS name must not reach us). A Response refuses it.
   */
  upgrade(
    req: Request,
    address: string,
    _port?: number,
  ): Response | UpgradeGrant {
    const host = requestHost(req);
    const loopback = this.config.loopback;
    if (loopback && loopbackHostPort(host) === null) {
      this.log.write(address, "ws-refused", `host ${host}`);
      return text(403, "forbidden host");
    }
    if (!this.#sameOrigin(req, this.config.password !== null, loopback)) {
      this.log.write(
        address,
        "ws-refused",
        `origin ${req.headers.get("origin") ?? "(none)"}`,
      );
      return text(403, "forbidden origin");
    }
    const login = this.config.password === null ? null : this.session(req);
    const direct = loopback && _port !== undefined &&
      loopbackHostPort(host) === String(_port);
    return login
      ? { loggedIn: true, loginId: login.id, address, direct }
      : { loggedIn: false, address, direct };
  }

  /**
   * True while the login a window came in with lives. With `activity` (the
   * window sent something) its idle clock restarts: a window in use keeps
   * its login alive, up to the absolute expiry.
   */
  loginAlive(grant: UpgradeGrant, activity: boolean): boolean {
    return grant.loginId !== undefined &&
      this.auth.get(grant.loginId, Date.now(), activity) !== null;
  }

  /**
   * What a window's hello with `key` for `session` may open: a share token
   * opens its own session only; the server key or a login cookie opens
   * anything. A string says why it is refused.
   */
  hello(
    grant: UpgradeGrant,
    key: string,
    session: number | undefined,
    serverKey: string,
  ): HelloGrant | string {
    const share = key ? this.shares.find(key) : null;
    if (share) {
      if (session !== share.session) {
        this.log.write(grant.address, "share-refused", `session ${session}`);
        return `this link opens session ${share.session} only`;
      }
      this.log.write(
        grant.address,
        "share-used",
        `session ${share.session}${share.readOnly ? " read-only" : ""}`,
      );
      return { readOnly: share.readOnly, session: share.session };
    }
    const byKey = key !== "" && keysEqual(key, serverKey);
    if (grant.loggedIn || byKey) {
      this.log.write(
        grant.address,
        "connected",
        session === undefined ? "new session" : `session ${session}`,
      );
      return { readOnly: false, viaLogin: !byKey };
    }
    this.log.write(grant.address, "ws-refused", "wrong key or share token");
    return this.config.password !== null && key === ""
      ? "not logged in, or the login expired: reload the page to log in"
      : "wrong server key";
  }
}
