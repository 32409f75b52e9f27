/**
 * The control request that opens a session on another host (`domterm
 * user@host`), and its checks.
 *
 * @module
 */
import type { SshTarget } from "./target.ts";

/** `{op: "ssh"}`: start a session on `target` and answer with the URL of a window on it. */
export interface SshRequest {
  op: "ssh";
  target: SshTarget;
  /** The ssh program and its options. */
  ssh: string[];
  /** How domterm runs on the remote host (a shell command prefix). */
  remoteDomterm: string;
  /** The remote command (absent: the remote user's shell). */
  command?: string[];
}

const strings = (v: unknown, max: number) =>
  Array.isArray(v) && v.length > 0 && v.length <= max &&
  v.every((a) => typeof a === "string" && a.length < 65536);

/** Check an `ssh` request; a string says what is wrong. */
export function parseSshRequest(
  o: Record<string, unknown>,
): SshRequest | string {
  const t = o.target as Record<string, unknown> | null;
  if (
    typeof t !== "object" || t === null || typeof t.host !== "string" ||
    !/^[A-Za-z0-9_:.][A-Za-z0-9._:-]{0,252}$/.test(t.host) ||
    (t.user !== undefined &&
      (typeof t.user !== "string" || !/^[\w.][\w.-]{0,63}$/.test(t.user))) ||
    (t.port !== undefined &&
      (!Number.isInteger(t.port) || (t.port as number) < 1 ||
        (t.port as number) > 65535))
  ) return "ssh: bad target";
  if (!strings(o.ssh, 256)) {
    return "ssh: ssh must be a non-empty list of strings";
  }
  if (typeof o.remoteDomterm !== "string" || o.remoteDomterm.trim() === "") {
    return "ssh: remoteDomterm must be a command";
  }
  const target: SshTarget = { host: t.host };
  if (t.user !== undefined) target.user = t.user as string;
  if (t.port !== undefined) target.port = t.port as number;
  const r: SshRequest = {
    op: "ssh",
    target,
    ssh: o.ssh as string[],
    remoteDomterm: o.remoteDomterm,
  };
  if (o.command !== undefined) {
    if (!strings(o.command, 1024)) {
      return "ssh: command must be a non-empty list of strings";
    }
    r.command = o.command as string[];
  }
  return r;
}

/** The request for what the command line asked (`domterm user@host [-- cmd]`). */
export function sshRequest(o: {
  target: SshTarget;
  ssh: string[];
  remoteDomterm: string;
  command: string[];
}): SshRequest {
  return {
    op: "ssh",
    target: o.target,
    ssh: o.ssh,
    remoteDomterm: o.remoteDomterm,
    ...(o.command.length ? { command: o.command } : {}),
  };
}
