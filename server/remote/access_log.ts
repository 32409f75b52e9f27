/**
 * The remote listener's access log: one line per event, `ISO-TIME ADDRESS
 * EVENT details`, appended to a file (0600). Writing never stops the
 * server: a failure is reported once.
 *
 * @module
 */
import { dirname, join } from "node:path";

/** An access log. */
export interface AccessLog {
  /** Append `event` (one word) for `address`, with optional details. */
  write(address: string, event: string, detail?: string): void;
}

/**
 * The default log file: `$XDG_STATE_HOME/domterm/access.log`, else
 * `$HOME/.local/state/domterm/access.log`; null when neither is set.
 */
export function defaultAccessLogPath(
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): string | null {
  const xdg = env("XDG_STATE_HOME");
  if (xdg) return join(xdg, "domterm", "access.log");
  const home = env("HOME");
  return home ? join(home, ".local", "state", "domterm", "access.log") : null;
}

/** One log line (control characters in the details are escaped). */
export function formatLogLine(
  time: Date,
  address: string,
  event: string,
  detail = "",
): string {
  // deno-lint-ignore no-control-regex
  const clean = (s: string) => s.replace(/[\x00-\x1f\x7f]/g, "?");
  const rest = detail ? ` ${clean(detail)}` : "";
  return `${time.toISOString()} ${clean(address)} ${clean(event)}${rest}\n`;
}

/** A log that appends to `path` (its directory is made 0700 if missing). */
export function fileAccessLog(
  path: string,
  report: (m: string) => void,
): AccessLog {
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const file = Deno.openSync(path, {
    append: true,
    create: true,
    mode: 0o600,
  });
  const encoder = new TextEncoder();
  let failed = false;
  return {
    write(address, event, detail) {
      try {
        file.writeSync(
          encoder.encode(formatLogLine(new Date(), address, event, detail)),
        );
      } catch (e) {
        if (!failed) report(`access log ${path}: ${(e as Error).message}`);
        failed = true;
      }
    },
  };
}
