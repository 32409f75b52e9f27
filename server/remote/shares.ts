/**
 * Share tokens (`domterm share N [--read-only]`): an unguessable token that
 * opens one session, and nothing else, without the password. Kept in the
 * running server's memory; they die with it or with their session.
 *
 * @module
 */
import { keysEqual, newServerKey } from "../key.ts";

/** What a token grants. */
export interface Share {
  readonly token: string;
  readonly session: number;
  readonly readOnly: boolean;
}

/** The tokens a server has handed out. */
export class Shares {
  #shares: Share[] = [];

  /** A new token for `session`. */
  create(session: number, readOnly: boolean): Share {
    const share = { token: newServerKey(), session, readOnly };
    this.#shares.push(share);
    return share;
  }

  /** The share of `token` (compared in constant time), or null. */
  find(token: string): Share | null {
    let found: Share | null = null;
    for (const s of this.#shares) if (keysEqual(s.token, token)) found = s;
    return found;
  }

  /** Every token (`domterm restart-server` hands them to the next server). */
  all(): Share[] {
    return [...this.#shares];
  }

  /** Tokens an earlier server handed out (`domterm restart-server`). */
  restore(shares: readonly Share[]): void {
    this.#shares.push(...shares);
  }

  /** Forget the tokens of an ended session. */
  forgetSession(session: number): void {
    this.#shares = this.#shares.filter((s) => s.session !== session);
  }
}
