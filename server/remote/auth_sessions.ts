/**
 * Logged-in browsers of the remote listener: a random session id kept in
 * an `HttpOnly; Secure; SameSite=Strict` cookie, with an idle and an
 * absolute expiry, and a CSRF token per session for its forms.
 *
 * @module
 */
import { keysEqual, newServerKey } from "../key.ts";

/** The login cookie's name. */
export const SESSION_COOKIE = "domterm_auth";
/** The cookie that carries the login form's CSRF token (before a login). */
export const LOGIN_CSRF_COOKIE = "domterm_login_csrf";
/**
 * The cookie of a browser that has logged in before (a random id, kept a
 * year): its failed logins are counted for it alone, so a lockout of its
 * address (others behind the same NAT or proxy guessing) does not lock it
 * out.
 */
export const DEVICE_COOKIE = "domterm_device";

/** Expiry settings (milliseconds). */
export interface AuthSessionOptions {
  /** Ends after this long without a request (default 30 min). */
  idleMs?: number;
  /** Ends this long after the login whatever happens (default 12 h). */
  absoluteMs?: number;
  /** Logged-in browsers kept at most; the oldest goes first (default 1000). */
  maxSessions?: number;
}

/** One logged-in browser. */
export interface AuthSession {
  readonly id: string;
  readonly csrf: string;
  readonly address: string;
  readonly created: number;
  lastSeen: number;
}

/** The logged-in browsers. */
export class AuthSessions {
  readonly idleMs: number;
  readonly absoluteMs: number;
  #maxSessions: number;
  #sessions = new Map<string, AuthSession>();

  constructor(options: AuthSessionOptions = {}) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.absoluteMs = options.absoluteMs ?? 12 * 3600_000;
    this.#maxSessions = options.maxSessions ?? 1000;
  }

  /** Log a browser in: a new session with fresh id and CSRF token. */
  create(address: string, now = Date.now()): AuthSession {
    const s: AuthSession = {
      id: newServerKey(),
      csrf: newServerKey(),
      address,
      created: now,
      lastSeen: now,
    };
    this.#sessions.set(s.id, s);
    while (this.#sessions.size > this.#maxSessions) {
      this.#sessions.delete(this.#sessions.keys().next().value!);
    }
    return s;
  }

  /**
   * The live session with cookie value `id`, its idle clock restarted
   * unless `touch` is false; null when there is none or it expired (an
   * expired one is forgotten).
   */
  get(
    id: string | undefined,
    now = Date.now(),
    touch = true,
  ): AuthSession | null {
    if (!id) return null;
    const s = this.#sessions.get(id);
    if (!s) return null;
    if (now - s.lastSeen > this.idleMs || now - s.created > this.absoluteMs) {
      this.#sessions.delete(id);
      return null;
    }
    if (touch) s.lastSeen = now;
    return s;
  }

  /** Every logged-in browser (`domterm restart-server` hands them on). */
  all(): AuthSession[] {
    return [...this.#sessions.values()];
  }

  /** Logged-in browsers of an earlier server (`domterm restart-server`). */
  restore(sessions: readonly AuthSession[]): void {
    for (const s of sessions) this.#sessions.set(s.id, { ...s });
  }

  /** Log out. */
  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Seconds the cookie may live: until the absolute expiry. */
  cookieMaxAge(s: AuthSession, now = Date.now()): number {
    return Math.max(0, Math.floor((s.created + this.absoluteMs - now) / 1000));
  }
}

/** The cookies of a `Cookie` header by name (the first of a name wins). */
export function parseCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name && !out.has(name)) out.set(name, value);
  }
  return out;
}

/**
 * A `Set-Cookie` value with the attributes every cookie of ours has:
 * HttpOnly, Secure, SameSite=Strict, Path=/. `maxAge` 0 deletes it.
 */
export function cookieHeader(
  name: string,
  value: string,
  maxAge: number,
): string {
  return `${name}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; Secure; SameSite=Strict`;
}

/** True when the form's CSRF token is the expected one (constant time; empty never matches). */
export function csrfMatches(
  sent: string | null | undefined,
  expected: string | undefined,
): boolean {
  if (!sent || !expected) return false;
  return keysEqual(sent, expected);
}
