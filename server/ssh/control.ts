/**
 * What the control socket does with remote sessions: `{op: "ssh"}` starts
 * one; `attach`, `kill` and `detach` of a remote session's number act on
 * it; `input-mode`, `settings` and `snapshot` (`domterm save`) are passed
 * on to the remote server that owns it. Local sessions are left to
 * server/session_control.ts.
 *
 * @module
 */
import type { ControlRequest, ControlResponse } from "../control.ts";
import type { DomtermServer } from "../http.ts";
import type { ForwardedRequest } from "./frames.ts";

/**
 * Answer `req` when it concerns a remote session (or makes one); null
 * when it is for the local sessions.
 */
export async function remoteControl(
  server: DomtermServer,
  req: ControlRequest,
): Promise<ControlResponse | null> {
  if (req.op === "ssh") {
    try {
      const s = await server.remotes.create(
        {
          target: req.target,
          ssh: req.ssh,
          remoteDomterm: req.remoteDomterm,
        },
        req.command,
      );
      return { ok: true, session: s.id, url: `${server.url}&session=${s.id}` };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }
  if (
    req.op !== "attach" && req.op !== "kill" && req.op !== "detach" &&
    req.op !== "input-mode" && req.op !== "settings" && req.op !== "snapshot"
  ) {
    return null;
  }
  // A window's attach (no session, or into a pane) is the windows' (local).
  const ref = req.session;
  if (ref === undefined || (req.op === "attach" && req.pane)) return null;
  const id = typeof ref === "number" || /^\d+$/.test(ref) ? Number(ref) : NaN;
  const s = server.remotes.get(id);
  if (s === undefined) return null;
  switch (req.op) {
    case "attach":
      return { ok: true, session: s.id, url: `${server.url}&session=${s.id}` };
    case "kill":
      try {
        await server.remotes.kill(s);
        return { ok: true, session: s.id };
      } catch (e) {
        return { ok: false, error: (e as Error).message };
      }
    case "detach":
      return s.windows.size > 0 && server.remotes.detach(s)
        ? { ok: true, session: s.id }
        : { ok: false, error: `session ${s.id} has no window` };
    case "input-mode":
    case "settings":
    case "snapshot": {
      // The remote server owns the session: it answers, by its own number.
      const forwarded: ForwardedRequest = req.op === "input-mode"
        ? { op: "input-mode", session: s.remoteId, mode: req.mode }
        : req.op === "settings"
        ? req.set === undefined
          ? { op: "settings", session: s.remoteId }
          : { op: "settings", session: s.remoteId, set: req.set }
        : { op: "snapshot", session: s.remoteId };
      try {
        const res = await server.remotes.control(s, forwarded);
        return { ...res, ok: res.ok === true, session: s.id };
      } catch (e) {
        return { ok: false, error: (e as Error).message };
      }
    }
  }
}
