/**
 * The command-line part of `domterm [options] [user@]host[:port] [-- cmd]`:
 * the main command line (server/cli/table.ts) takes the host operand and
 * `--remote-domterm`; this checks them and adds the environment's say.
 *
 * @module
 */
import { looksLikeHost, parseTarget, type SshTarget } from "./target.ts";

/** What the command line says about an ssh session. */
export interface SshCliOptions {
  target: SshTarget;
  /** The remote command (empty: the remote user's shell). */
  command: string[];
  /**
   * How to run domterm on the remote host, as a shell command prefix
   * (`--remote-domterm`, else `$DOMTERM_REMOTE_DOMTERM`, else `domterm`).
   */
  remoteDomterm: string;
  /** The local ssh program and its options (`$DOMTERM_SSH`, else `ssh`). */
  ssh: string[];
}

/**
 * The ssh session the main command line asks for: `host` is its operand
 * (`[user@]host[:port]`), `remoteDomterm` its `--remote-domterm`, `command`
 * what follows `--`. Null without a host. Throws an Error saying what is
 * wrong (a usage error).
 */
export function sshOptions(
  given: { host?: string; remoteDomterm?: string; command: readonly string[] },
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): SshCliOptions | null {
  if (given.host === undefined) {
    if (given.remoteDomterm !== undefined) {
      throw new Error("--remote-domterm is for a [user@]host operand");
    }
    return null;
  }
  if (!looksLikeHost(given.host)) {
    // Not a host (one has '@', ':' or '.' in it, or is 'localhost').
    throw new Error(
      `unexpected argument '${given.host}' (to run a command, put it after '--')`,
    );
  }
  if (given.remoteDomterm !== undefined && given.remoteDomterm.trim() === "") {
    throw new Error(
      "--remote-domterm needs the remote domterm's path or command",
    );
  }
  const target = parseTarget(given.host);
  const sshEnv = env("DOMTERM_SSH")?.trim();
  return {
    target,
    command: [...given.command],
    remoteDomterm: given.remoteDomterm ?? env("DOMTERM_REMOTE_DOMTERM") ??
      "domterm",
    ssh: sshEnv ? sshEnv.split(/\s+/) : ["ssh"],
  };
}
