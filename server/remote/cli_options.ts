/**
 * The remote listener's command-line options (`--listen`, `--tls-cert`,
 * `--tls-key`, `--password-file`, `--insecure`, `--access-log`) as plain
 * data, and their validation into a {@link RemoteConfig}: a listener on
 * anything but loopback needs TLS and a password unless `--insecure`.
 *
 * @module
 */
import { parsePasswordHash, type PasswordHash } from "./password.ts";
import { defaultAccessLogPath } from "./access_log.ts";

/** One option: its name, where its value goes, its type, its help text. */
export interface RemoteOptionSpec {
  name: string;
  /** The field of {@link RemoteOptionValues} it sets. */
  key: keyof RemoteOptionValues;
  /** "string": takes a value; "boolean": a flag. */
  type: "string" | "boolean";
  /** The value's placeholder in the help. */
  valueName?: string;
  help: string;
}

/** The options, in help order. */
export const REMOTE_OPTIONS: readonly RemoteOptionSpec[] = [
  {
    name: "--listen",
    key: "listen",
    type: "string",
    valueName: "ADDR[:PORT]",
    help:
      "listen on ADDR (an IP address, [IPv6] or a host name); any address but loopback needs --tls-cert, --tls-key and --password-file",
  },
  {
    name: "--tls-cert",
    key: "tlsCert",
    type: "string",
    valueName: "FILE",
    help: "serve HTTPS with this PEM certificate (chain)",
  },
  {
    name: "--tls-key",
    key: "tlsKey",
    type: "string",
    valueName: "FILE",
    help: "the PEM private key of --tls-cert",
  },
  {
    name: "--password-file",
    key: "passwordFile",
    type: "string",
    valueName: "FILE",
    help:
      "ask for the password whose hash this file holds ('domterm hash-password' makes it)",
  },
  {
    name: "--insecure",
    key: "insecure",
    type: "boolean",
    help:
      "allow --listen on a network address without TLS or password (anyone who can reach the port may get a shell)",
  },
  {
    name: "--access-log",
    key: "accessLog",
    type: "string",
    valueName: "FILE",
    help:
      "log connections and logins here (default: $XDG_STATE_HOME/domterm/access.log)",
  },
];

/** The raw values as given (undefined: not given). */
export interface RemoteOptionValues {
  listen?: string;
  tlsCert?: string;
  tlsKey?: string;
  passwordFile?: string;
  insecure?: boolean;
  accessLog?: string;
}

/** The validated remote listener settings. */
export interface RemoteConfig {
  hostname: string;
  /** From --listen; undefined when it names none. */
  port: number | undefined;
  /** True for 127.0.0.0/8, ::1 and localhost. */
  loopback: boolean;
  /** PEM text of the certificate and key (both or neither). */
  tls: { cert: string; key: string } | null;
  password: PasswordHash | null;
  insecure: boolean;
  /** null: no access log (loopback without a password). */
  accessLogPath: string | null;
  /** What to warn about on standard error before starting. */
  warnings: string[];
}

/** Split `ADDR[:PORT]`; a string says what is wrong. */
export function parseListen(
  text: string,
): { hostname: string; port: number | undefined } | string {
  let host: string;
  let port: string | undefined;
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(text);
  if (v6) {
    host = v6[1];
    port = v6[2];
  } else {
    const m = /^([A-Za-z0-9.-]+)(?::(\d+))?$/.exec(text);
    if (!m) {
      return `--listen: '${text}' is not ADDR[:PORT] (write an IPv6 address in brackets: [::]:8443)`;
    }
    host = m[1];
    port = m[2];
  }
  if (port !== undefined && (port.length > 5 || Number(port) > 65535)) {
    return `--listen: '${port}' is not a port number (0-65535)`;
  }
  return {
    hostname: host,
    port: port === undefined ? undefined : Number(port),
  };
}

/** True for addresses only this machine can reach. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

function readFile(option: string, path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (e) {
    throw new RemoteOptionError(
      `${option}: cannot read ${path}: ${(e as Error).message}`,
    );
  }
}

/** A mistake in the remote options (exit status 2). */
export class RemoteOptionError extends Error {}

/**
 * Check the options and read the files they name. Returns the config;
 * null when no remote option was given (today's loopback server); or
 * `{error}`, a message for the user (a usage error: exit status 2).
 */
export function validateRemoteOptions(
  v: RemoteOptionValues,
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): RemoteConfig | null | { error: string } {
  try {
    return readRemoteConfig(v, env);
  } catch (e) {
    if (e instanceof RemoteOptionError) return { error: e.message };
    throw e;
  }
}

function readRemoteConfig(
  v: RemoteOptionValues,
  env: (k: string) => string | undefined,
): RemoteConfig | null {
  const given = v.listen !== undefined || v.tlsCert !== undefined ||
    v.tlsKey !== undefined || v.passwordFile !== undefined ||
    v.insecure === true || v.accessLog !== undefined;
  if (!given) return null;
  const listen = parseListen(v.listen ?? "127.0.0.1");
  if (typeof listen === "string") throw new RemoteOptionError(listen);
  if ((v.tlsCert === undefined) !== (v.tlsKey === undefined)) {
    throw new RemoteOptionError("--tls-cert and --tls-key go together");
  }
  const loopback = isLoopback(listen.hostname);
  const insecure = v.insecure === true;
  const warnings: string[] = [];
  if (!loopback) {
    const missing = [
      ...(v.tlsCert === undefined ? ["--tls-cert FILE --tls-key FILE"] : []),
      ...(v.passwordFile === undefined ? ["--password-file FILE"] : []),
    ];
    if (missing.length && !insecure) {
      throw new RemoteOptionError(
        `refusing to listen on ${listen.hostname} without ${
          missing.join(" and ")
        }: anyone who reaches the port could run commands as you. ` +
          "See docs/remote.md; --insecure forces it.",
      );
    }
    if (missing.length) {
      warnings.push(
        `WARNING: --insecure: listening on ${listen.hostname} without ${
          missing.join(" and ")
        }. Anyone who can reach this port${
          v.tlsCert === undefined ? " or watch the network" : ""
        } may get a shell as you.`,
      );
    }
  }
  const tls = v.tlsCert !== undefined && v.tlsKey !== undefined
    ? {
      cert: readFile("--tls-cert", v.tlsCert),
      key: readFile("--tls-key", v.tlsKey),
    }
    : null;
  if (tls && !tls.cert.includes("-----BEGIN CERTIFICATE-----")) {
    throw new RemoteOptionError(
      `--tls-cert: ${v.tlsCert} holds no PEM certificate`,
    );
  }
  if (tls && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(tls.key)) {
    throw new RemoteOptionError(
      `--tls-key: ${v.tlsKey} holds no PEM private key`,
    );
  }
  let password: PasswordHash | null = null;
  if (v.passwordFile !== undefined) {
    const parsed = parsePasswordHash(
      readFile("--password-file", v.passwordFile),
    );
    if (typeof parsed === "string") {
      throw new RemoteOptionError(
        `--password-file: ${v.passwordFile}: ${parsed}`,
      );
    }
    password = parsed;
  }
  const accessLogPath = v.accessLog ??
    (loopback && !password ? null : defaultAccessLogPath(env));
  if (v.accessLog === "") {
    throw new RemoteOptionError("--access-log needs a file name");
  }
  return {
    hostname: listen.hostname,
    port: listen.port,
    loopback,
    tls,
    password,
    insecure,
    accessLogPath,
    warnings,
  };
}
