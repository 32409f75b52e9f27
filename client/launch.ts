import {
  LAUNCH_PATH,
  LAUNCH_TOKEN_MS,
  mintLaunchToken,
} from "../core/launch_token.ts";

/**
 * What the page shows: the server key, and the window, from the URL
 * fragment (`#key=K[&window=W[&from=F]][&session=N][&views=2[&session=M]]`: never
 * sent to a server or logged). `window=W` is a window the server keeps
 * (`domterm attach` of a window whose page is gone, a pane moved to a new
 * window); without it the page asks for a new window whose first pane
 * shows session N (or a new session). `views=2` asks a new window to
 * start with two panes side by side (the further `session` parameters in
 * order, a new session where there is none). `from=F`: the window a pane
 * of this one came from (Move to a new window), where Move back takes it.
 * They are kept for reloads of
 * this tab only (sessionStorage: a reload shows the same window, whose
 * layout the server kept) and taken out of the address.
 *
 * The server key itself is kept in no URL and no storage that the browser
 * writes into its profile (History, Favicons, ukm_db, Session Storage):
 * - a window that domterm opens has `launch=T` instead of `key=K`: a
 *   one-time token that the page trades for the key (POST to `/launch`;
 *   server/launch_token.ts);
 * - the page holds the key in memory only; as it unloads (a reload) it
 *   leaves a new one-time token in sessionStorage, good for
 *   LAUNCH_TOKEN_MS, which the reloaded page trades the same way.
 * A URL with `#key=K` (`--no-browser`) still works: the browser records
 * that URL as it was opened. A share link's token (path `/share`) is not
 * the server key and is kept in sessionStorage as it is.
 *
 * @module
 */

/** The most panes `views=N` asks for. */
export const MAX_VIEWS = 4;

/** What a page shows. */
export interface Launch {
  key: string;
  /** The server's window to show, or null: a new one. */
  window: number | null;
  /** A new window's first session (null: a new one). */
  session: number | null;
  /**
   * A new window's further panes (`views=N`), side by side: their
   * sessions (null: new ones).
   */
  more: (number | null)[];
  /** The window this one's panes came from (`from=F`), or null. */
  from: number | null;
}

/** The sessionStorage key of the window this tab shows. */
export const WINDOW_STORAGE = "domterm-window";
/** The sessionStorage key of the window this tab's panes came from. */
export const FROM_STORAGE = "domterm-from-window";

const ID = /^\d{1,9}$/;

/** The reload token this tab leaves as it unloads (sessionStorage). */
const RELOAD_STORAGE = "domterm-reload";
/** The key of a share page (its share token, not the server key). */
const SHARE_KEY_STORAGE = "domterm-key";

/** The key for a launch token, or "" (used, expired, or no server). */
async function redeem(token: string): Promise<string> {
  try {
    const res = await fetch(LAUNCH_PATH, {
      method: "POST",
      body: token,
      cache: "no-store",
    });
    if (!res.ok) {
      console.error(`domterm: launch token refused (${res.status})`);
      return "";
    }
    const { key } = await res.json() as { key?: unknown };
    return typeof key === "string" ? key : "";
  } catch (e) {
    console.error(`domterm: launch token: ${(e as Error).message}`);
    return "";
  }
}

/**
 * Keep `key` for this tab's reloads: a share token as it is; the server
 * key as a one-time token minted when the page unloads (so that while the
 * page lives, and once the token has expired, no credential is stored).
 */
function keepForReload(key: string): void {
  if (location.pathname === "/share") {
    sessionStorage.setItem(SHARE_KEY_STORAGE, key);
    return;
  }
  sessionStorage.removeItem(SHARE_KEY_STORAGE);
  if (!key) return;
  addEventListener("pagehide", () => {
    sessionStorage.setItem(RELOAD_STORAGE, newToken(key));
  });
  // Back from the back/forward cache: the page lives on with its key.
  addEventListener("pageshow", (e) => {
    if (e.persisted) sessionStorage.removeItem(RELOAD_STORAGE);
  });
}

/** A new one-time token for `key`, good for LAUNCH_TOKEN_MS. */
function newToken(key: string): string {
  const nonce = crypto.getRandomValues(new Uint8Array(18));
  return mintLaunchToken(key, nonce, Date.now() + LAUNCH_TOKEN_MS);
}

/**
 * The fragment parameter that hands this page's key to a window it opens
 * (`launch=T`, so the new window's URL holds no key; a share page's token
 * as it is).
 */
export function keyParam(key: string): string {
  return location.pathname === "/share"
    ? `key=${encodeURIComponent(key)}`
    : `launch=${newToken(key)}`;
}

/** The key of this page load: from the address, else this tab's reload token. */
async function launchKey(hash: URLSearchParams): Promise<string> {
  const token = hash.get("launch");
  if (token) {
    // Out of the address first: a reload must not try the spent token.
    history.replaceState(null, "", location.pathname + location.search);
    hash.set("key", await redeem(token));
  }
  const fromHash = hash.get("key");
  if (fromHash) return fromHash;
  if (location.pathname === "/share") {
    return sessionStorage.getItem(SHARE_KEY_STORAGE) ?? "";
  }
  const reload = sessionStorage.getItem(RELOAD_STORAGE);
  sessionStorage.removeItem(RELOAD_STORAGE);
  return reload ? await redeem(reload) : "";
}

/** Reads (and stores) the launch parameters of this tab. */
export async function readLaunch(): Promise<Launch> {
  const hash = new URLSearchParams(location.hash.slice(1));
  const key = await launchKey(hash);
  keepForReload(key);
  const fromHash = hash.get("key");
  let more: (number | null)[] = [];
  if (fromHash) {
    const w = hash.get("window");
    if (w && ID.test(w)) sessionStorage.setItem(WINDOW_STORAGE, w);
    else sessionStorage.removeItem(WINDOW_STORAGE);
    const from = hash.get("from");
    if (from && ID.test(from)) sessionStorage.setItem(FROM_STORAGE, from);
    else sessionStorage.removeItem(FROM_STORAGE);
    const given = hash.getAll("session").map((s) =>
      ID.test(s) ? Number(s) : null
    );
    if (given[0] != null) {
      sessionStorage.setItem("domterm-session", String(given[0]));
    } else sessionStorage.removeItem("domterm-session");
    const n = Number(hash.get("views") ?? "1");
    const views = Number.isInteger(n) ? Math.min(Math.max(n, 1), MAX_VIEWS) : 1;
    for (let i = 1; i < views; i++) more.push(given[i] ?? null);
    history.replaceState(null, "", location.pathname + location.search);
  } else more = [];
  const w = sessionStorage.getItem(WINDOW_STORAGE);
  const s = sessionStorage.getItem("domterm-session");
  const from = sessionStorage.getItem(FROM_STORAGE);
  return {
    from: from ? Number(from) : null,
    key,
    window: w ? Number(w) : null,
    session: s ? Number(s) : null,
    more,
  };
}
