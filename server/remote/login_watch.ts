/**
 * A socket that only a login let in (a session window or a window
 * channel) checks now and then, and on each message, that the login is
 * still alive; when it ended (logged out, expired) the socket is refused.
 *
 * @module
 */
import type { RemoteGate, UpgradeGrant } from "./gate.ts";

/** How often a socket that only a login let in checks that the login lives. */
export const LOGIN_CHECK_MS = 30_000;

/** Why a socket is refused when its login has ended. */
export const LOGIN_ENDED =
  "logged out, or the login expired: reload the page to log in";

/** The login check of one socket. */
export class LoginWatch {
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `ended` closes the socket (once) when the login is gone. */
  constructor(
    readonly gate: RemoteGate,
    readonly upgrade: UpgradeGrant,
    readonly ended: () => void,
  ) {}

  /** Check every {@link LOGIN_CHECK_MS} from now on. */
  start(): void {
    this.#timer = setInterval(() => this.gone(), LOGIN_CHECK_MS);
  }

  /** Whether it is checking (a login let the socket in). */
  get watching(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Whether the login has ended (then the socket is refused); `activity`:
   * the socket sent something, which keeps the login's idle clock fresh.
   */
  gone(activity = false): boolean {
    if (this.gate.loginAlive(this.upgrade, activity)) return false;
    this.stop();
    this.ended();
    return true;
  }

  /** Stop checking (the socket closed). */
  stop(): void {
    clearInterval(this.#timer);
  }
}
