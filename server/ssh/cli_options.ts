/**
 * The command-line part of `domterm [options] [user@]host[:port] [-- cmd]`:
 * finds the host operand and `--remote-domterm`, and leaves the other
 * options to the main command line.
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
 * Take the ssh parts out of `argv`: the first operand that looks like a
 * host (with the command after `--`), and `--remote-domterm PATH`.
 * Returns the remaining arguments, and the ssh options when a host was
 * given; a string says what is wrong.
 */
export function takeSshArgs(
  argv: string[],
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): { rest: string[]; ssh: SshCliOptions | null } | string {
  const rest: string[] = [];
  let target: SshTarget | null = null;
  let remoteDomterm: string | undefined;
  let command: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      if (target === null) {
        rest.push(...argv.slice(i));
        break;
      }
      command = argv.slice(i + 1);
      if (command.length === 0) return "'--' must be followed by a command";
      break;
    }
    if (arg === "--remote-domterm" || arg.startsWith("--remote-domterm=")) {
      const v = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (v === undefined || v.trim() === "") {
        return "--remote-domterm needs the remote domterm's path or command";
      }
      remoteDomterm = v;
      continue;
    }
    // The value of an option that takes one is never a host.
    if (
      /^--(port|browser|file-opener|scrollback|detached-timeout)$/.test(arg)
    ) {
      rest.push(arg);
      if (i + 1 < argv.length) rest.push(argv[++i]);
      continue;
    }
    if (target === null && !arg.startsWith("-") && looksLikeHost(arg)) {
      try {
        target = parseTarget(arg);
      } catch (e) {
        return (e as Error).message;
      }
      continue;
    }
    rest.push(arg);
  }
  if (target === null) {
    if (remoteDomterm !== undefined) {
      return "--remote-domterm is for a [user@]host operand";
    }
    return { rest, ssh: null };
  }
  const sshEnv = env("DOMTERM_SSH")?.trim();
  return {
    rest,
    ssh: {
      target,
      command,
      remoteDomterm: remoteDomterm ?? env("DOMTERM_REMOTE_DOMTERM") ??
        "domterm",
      ssh: sshEnv ? sshEnv.split(/\s+/) : ["ssh"],
    },
  };
}
