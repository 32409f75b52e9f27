/**
 * What the control socket (`control.ts`) does with a running server:
 * `domterm list`, `new`, `attach`, `kill`, `detach`, `kill-server`,
 * `share`.
 *
 * @module
 */
import type {
  ControlHandler,
  ControlRequest,
  ControlResponse,
  SessionInfo,
} from "./control.ts";
import type { DomtermServer } from "./http.ts";
import type { Session } from "./session.ts";
import { VERSION } from "./version.ts";
import { setSessionInputMode } from "./line_input.ts";
import { remoteControl } from "./ssh/control.ts"; // ssh hosts
import {
  attachWindow,
  nameWindow,
  openInPage,
  placeInWindow,
} from "./windows/control.ts";
import type { JournalStop } from "./session_registry.ts";
import { journalControl } from "./journal/control.ts";

/** The page URL that attaches to `session`. */
export function attachUrl(server: DomtermServer, session: number): string {
  return `${server.url}&session=${session}`;
}

/** `domterm list`'s view of a session. */
export function sessionInfo(s: Session): SessionInfo {
  return {
    id: s.id,
    name: s.name,
    command: s.command,
    pid: s.pid,
    windows: s.windows.size,
    cols: s.cols,
    rows: s.rows,
    state: s.windows.size > 0 ? "attached" : "detached",
    detachedSince: s.windows.size > 0 ? null : s.detachedSince,
  };
}

/** A session by number or name (the registry's). */
function find(server: DomtermServer, ref: number | string): Session | null {
  return server.registry.find(ref);
}

/**
 * `domterm attach`: a session into a pane of a window (`pane`), a window
 * whose page is gone back, or a session in a new window.
 */
function attach(
  server: DomtermServer,
  req: Extract<ControlRequest, { op: "attach" }>,
): ControlResponse {
  const s = req.session === undefined ? undefined : find(server, req.session);
  if (s === null || s?.exitStatus) {
    return { ok: false, error: `there is no session ${req.session}` };
  }
  if (req.pane) {
    return placeInWindow(server.windows, server.url, req.pane, {
      session: s!.id,
    });
  }
  const w = attachWindow(server.windows, server.url, req.window, s?.id);
  if (w !== null) return w;
  if (s === undefined) {
    return {
      ok: false,
      error: "every window is open: name a session or a window (--window W)",
    };
  }
  return { ok: true, session: s.id, url: attachUrl(server, s.id) };
}

/**
 * The control handler of `server`; `stop` ends the server (kill-server) and
 * says why; `restart` hands its sessions to a new server (restart-server,
 * server/handover/).
 */
export function sessionControl(
  server: DomtermServer,
  stop: (reason?: string, journals?: JournalStop) => void,
  restart?: (command?: string[]) => Promise<ControlResponse>,
): ControlHandler {
  return {
    async handle(req: ControlRequest): Promise<ControlResponse> {
      const remote = await remoteControl(server, req); // ssh hosts
      if (remote !== null) return remote; // ssh hosts
      const journal = await journalControl(server, req);
      if (journal !== null) return journal;
      switch (req.op) {
        case "info":
          return {
            ok: true,
            // Test hook (tests/server/handover_test.ts): an older server.
            version: Deno.env.get("DOMTERM_TEST_SERVER_VERSION") || VERSION,
            pid: Deno.pid,
          };
        case "list":
          return {
            ok: true,
            sessions: server.registry.running()
              .map(sessionInfo)
              .concat(server.remotes.list()), // ssh hosts
            windows: server.windows.info(),
          };
        case "new": {
          if (req.name !== undefined && find(server, req.name)) {
            return { ok: false, error: `a session is named ${req.name}` };
          }
          if (req.pane) {
            return placeInWindow(server.windows, server.url, req.pane, {
              session: null,
              command: req.command,
              cwd: req.cwd,
              name: req.name,
            });
          }
          const s = server.registry.create(req.command, undefined, {
            cwd: req.cwd,
            name: req.name,
            ...(req.journal === false ? { journal: false } : {}),
          });
          return { ok: true, session: s.id, url: attachUrl(server, s.id) };
        }
        case "attach":
          return attach(server, req);
        case "name-window":
          return nameWindow(server.windows, req);
        case "open-in-page":
          return await openInPage(server.windows, req);
        case "kill": {
          const s = find(server, req.session);
          if (!s) {
            return { ok: false, error: `there is no session ${req.session}` };
          }
          void s.close();
          return { ok: true, session: s.id };
        }
        case "detach": {
          const s = find(server, req.session);
          if (!s) {
            return { ok: false, error: `there is no session ${req.session}` };
          }
          s.detachAll();
          return { ok: true, session: s.id };
        }
        case "input-mode": {
          const s = find(server, req.session);
          if (!s) {
            return { ok: false, error: `there is no session ${req.session}` };
          }
          setSessionInputMode(s, req.mode);
          return { ok: true, session: s.id };
        }
        case "snapshot": {
          const s = find(server, req.session);
          if (!s) {
            return { ok: false, error: `there is no session ${req.session}` };
          }
          const snap = await s.snapshot();
          if (snap === null) return { ok: false, error: "the session ended" };
          return {
            ok: true,
            snapshot: JSON.parse(snap.json),
            offset: snap.offset,
          };
        }
        case "settings": {
          const s = find(server, req.session);
          if (!s || s.exitStatus) {
            return { ok: false, error: `there is no session ${req.session}` };
          }
          if (req.set !== undefined) {
            const problems = server.settings.setForSession(s, req.set);
            if (problems.length) {
              return { ok: false, error: problems.join("; ") };
            }
          }
          return {
            ok: true,
            session: s.id,
            settings: server.settings.effective(s.id),
            problems: server.settings.store.problems,
          };
        }
        case "share": {
          const s = find(server, req.session);
          if (!s || s.exitStatus) {
            return { ok: false, error: `there is no session ${req.session}` };
          }
          const share = server.gate.shares.create(s.id, req.readOnly);
          return {
            ok: true,
            session: s.id,
            url: `${
              server.gate.origin(server.port)
            }/share#key=${share.token}&session=${s.id}`,
          };
        }
        case "restart-server":
          return restart
            ? await restart(req.command)
            : { ok: false, error: "this server cannot restart" };
        case "kill-server":
          setTimeout(
            () =>
              stop("the domterm server was stopped (domterm kill-server)", {
                reason: "the server was stopped (domterm kill-server)",
                auto: false,
              }),
            0,
          );
          return { ok: true };
      }
      return { ok: false, error: `unknown op ${req.op}` }; // ssh hosts
    },
  };
}
