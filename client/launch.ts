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

/** Reads (and stores) the launch parameters of this tab. */
export function readLaunch(): Launch {
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromHash = hash.get("key");
  let more: (number | null)[] = [];
  if (fromHash) {
    sessionStorage.setItem("domterm-key", fromHash);
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
    key: sessionStorage.getItem("domterm-key") ?? "",
    window: w ? Number(w) : null,
    session: s ? Number(s) : null,
    more,
  };
}
