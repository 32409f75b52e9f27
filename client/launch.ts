/**
 * What the page attaches to: the server key and the sessions, from the URL
 * fragment (`#key=K[&session=N][&views=2[&session=M]]`: never sent to a
 * server or logged). They are kept for reloads of this tab only
 * (sessionStorage: a reload attaches to the same sessions) and taken out
 * of the address. `views=2` asks for two terminals side by side in the
 * page, each on its own session (the `session` parameters in order, a new
 * session where there is none).
 *
 * @module
 */
import type { ViewStorage } from "./terminal_view.ts";

/** The most terminals one page holds. */
export const MAX_VIEWS = 4;

/** What a page attaches to. */
export interface Launch {
  key: string;
  /** One entry per terminal: its session, or null for a new one. */
  sessions: (number | null)[];
}

/** The sessionStorage keys of terminal `i` (0: the page's first, as ever). */
export function viewStorage(i: number): ViewStorage {
  const suffix = i === 0 ? "" : `-${i + 1}`;
  return {
    session: `domterm-session${suffix}`,
    pager: `domterm-pager${suffix}`,
  };
}

/** Reads (and stores) the launch parameters of this tab. */
export function readLaunch(): Launch {
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromHash = hash.get("key");
  if (fromHash) {
    sessionStorage.setItem("domterm-key", fromHash);
    const n = Number(hash.get("views") ?? "1");
    const views = Number.isInteger(n) ? Math.min(Math.max(n, 1), MAX_VIEWS) : 1;
    if (views > 1) sessionStorage.setItem("domterm-views", String(views));
    else sessionStorage.removeItem("domterm-views");
    const given = hash.getAll("session");
    for (let i = 0; i < MAX_VIEWS; i++) {
      const s = given[i];
      const key = viewStorage(i).session;
      if (i < views && s && /^\d{1,9}$/.test(s)) sessionStorage.setItem(key, s);
      else sessionStorage.removeItem(key);
    }
    history.replaceState(null, "", location.pathname + location.search);
  }
  const views = Number(sessionStorage.getItem("domterm-views") ?? "1") || 1;
  const sessions: (number | null)[] = [];
  for (let i = 0; i < views; i++) {
    const s = sessionStorage.getItem(viewStorage(i).session);
    sessions.push(s ? Number(s) : null);
  }
  return { key: sessionStorage.getItem("domterm-key") ?? "", sessions };
}
