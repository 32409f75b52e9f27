/**
 * The `[user@]host[:port]` operand of `domterm user@host`: when a first
 * operand is a host, how it is parsed, and the `ssh` command line that
 * reaches it.
 *
 * @module
 */

/** Where an ssh session goes. */
export interface SshTarget {
  user?: string;
  host: string;
  port?: number;
}

/**
 * Whether a first operand names a host rather than a subcommand: it
 * contains `@`, `:` or `.`, or is `localhost`. A mistyped subcommand
 * (`domterm lsit`) is therefore never handed to ssh.
 */
export function looksLikeHost(arg: string): boolean {
  if (arg.startsWith("-") || arg.includes("/")) return false;
  return arg === "localhost" || /[@:.]/.test(arg);
}

/** Parse `[user@]host[:port]` (an IPv6 address in brackets: `[::1]:22`). Throws an Error saying what is wrong. */
export function parseTarget(arg: string): SshTarget {
  const at = arg.lastIndexOf("@");
  const user = at >= 0 ? arg.slice(0, at) : undefined;
  let rest = at >= 0 ? arg.slice(at + 1) : arg;
  if (user !== undefined && !/^[A-Za-z0-9._][A-Za-z0-9._-]{0,63}$/.test(user)) {
    throw new Error(`'${arg}': bad user name '${user}'`);
  }
  let host: string;
  let port: string | undefined;
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    if (close < 0) throw new Error(`'${arg}': missing ']'`);
    host = rest.slice(1, close);
    rest = rest.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) {
      throw new Error(`'${arg}': unexpected text after ']'`);
    }
    port = rest === "" ? undefined : rest.slice(1);
    if (!/^[0-9A-Fa-f:.]+$/.test(host)) {
      throw new Error(`'${arg}': bad address '${host}'`);
    }
  } else {
    const colon = rest.indexOf(":");
    host = colon >= 0 ? rest.slice(0, colon) : rest;
    port = colon >= 0 ? rest.slice(colon + 1) : undefined;
    // Letters, digits, dots, dashes, underscores: also keeps a host from
    // ever reading as an ssh option.
    if (!/^[A-Za-z0-9_][A-Za-z0-9._-]{0,252}$/.test(host)) {
      throw new Error(`'${arg}': bad host name '${host}'`);
    }
  }
  const t: SshTarget = { host };
  if (user !== undefined) t.user = user;
  if (port !== undefined) {
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
      throw new Error(`'${arg}': '${port}' is not a port number (1-65535)`);
    }
    t.port = Number(port);
  }
  return t;
}

/** The target as the user wrote it (`user@host:port`), for `domterm list` and messages. */
export function targetLabel(t: SshTarget): string {
  const host = t.host.includes(":") ? `[${t.host}]` : t.host;
  return `${t.user ? `${t.user}@` : ""}${host}${t.port ? `:${t.port}` : ""}`;
}

/**
 * Options domterm gives ssh (after the user's own, which they override):
 * never prompt (there is no terminal to prompt on: fail at once instead),
 * give up connecting after 20 s, and notice a dead link within 45 s.
 */
export const SSH_OPTIONS = [
  "-o",
  "BatchMode=yes",
  "-o",
  "ConnectTimeout=20",
  "-o",
  "ServerAliveInterval=15",
  "-o",
  "ServerAliveCountMax=3",
];

/**
 * The command line that runs `remote` (a shell command: ssh hands it to
 * the remote user's shell) on the target through the user's ssh:
 * `ssh -T OPTIONS [-p port] [-l user] -- host remote`.
 */
export function sshCommandLine(
  ssh: string[],
  t: SshTarget,
  remote: string,
): string[] {
  return [
    ...ssh,
    "-T",
    ...SSH_OPTIONS,
    ...(t.port ? ["-p", String(t.port)] : []),
    ...(t.user ? ["-l", t.user] : []),
    "--",
    t.host,
    remote,
  ];
}
