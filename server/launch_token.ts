/**
 * One-time launch tokens: how a window that domterm opens gets the server
 * key without the key ever being in a URL the browser records.
 *
 * A browser writes every URL it navigates to into its profile (History,
 * Favicons, segmentation_platform/ukm_db), the fragment included, and it
 * does so when the navigation commits, before any script of the page runs:
 * a page that takes `#key=K` out of its address is too late. So the
 * launcher opens `/#launch=T` instead, and the page exchanges T for the
 * key with a POST to {@link LAUNCH_PATH} (the key travels in the response
 * body, which no profile file keeps).
 *
 * T is `nonce.expiry.mac` (core/launch_token.ts): whoever holds the key
 * (the `domterm` command that opens the window, the page as it unloads
 * for its reload) mints one without asking the server, and the server
 * accepts each nonce once, before its expiry. A token left in a profile
 * is then worth nothing.
 *
 * @module
 */
import { keysEqual } from "./key.ts";
import {
  LAUNCH_PATH,
  LAUNCH_TOKEN_MS,
  launchMac,
  mintLaunchToken as mint,
  parseLaunchToken,
} from "../core/launch_token.ts";

export { LAUNCH_PATH, LAUNCH_TOKEN_MS };

/** Most unexpired nonces remembered (a flood of redeemed tokens cannot grow memory). */
const MAX_USED = 4096;

/** A new token for the server whose key is `key`, good until `now + ttlMs`. */
export function mintLaunchToken(
  key: string,
  now = Date.now(),
  ttlMs = LAUNCH_TOKEN_MS,
): string {
  return mint(key, crypto.getRandomValues(new Uint8Array(18)), now + ttlMs);
}

/**
 * The URL to open in a browser for the page URL `url`: on the page
 * (path `/`), `key=K` in the fragment becomes `launch=T`; any other URL
 * (a share link, a saved file) is returned as it is.
 */
export function launchUrl(url: string, now = Date.now()): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return url;
  if (u.pathname !== "/") return url;
  const params = new URLSearchParams(u.hash.slice(1));
  const key = params.get("key");
  if (!key) return url;
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    if (name === "key") out.append("launch", mintLaunchToken(key, now));
    else out.append(name, value);
  }
  u.hash = out.toString();
  return u.href;
}

/** The server's side: checks tokens and remembers the nonces used. */
export class LaunchTokens {
  readonly #key: string;
  /** Used nonces and their expiry. */
  readonly #used = new Map<string, number>();

  constructor(key: string) {
    this.#key = key;
  }

  /** True (once) for a token minted with this key that has not expired. */
  redeem(token: string, now = Date.now()): boolean {
    const t = parseLaunchToken(token);
    if (t === null) return false;
    // A token from far in the future was not minted by this clock's rules.
    if (!(t.expiry > now) || t.expiry > now + 2 * LAUNCH_TOKEN_MS) return false;
    if (!keysEqual(t.mac, launchMac(this.#key, t.body))) return false;
    for (const [n, until] of this.#used) if (until <= now) this.#used.delete(n);
    if (this.#used.has(t.nonce) || this.#used.size >= MAX_USED) return false;
    this.#used.set(t.nonce, t.expiry);
    return true;
  }
}
