/**
 * Opens what the user Ctrl/Cmd+clicked in a window (the `open` message):
 * http, https and mailto URLs with the system opener (xdg-open, open),
 * files with the configurable file opener (`--file-opener`, an
 * `$EDITOR`-style template) or else the system opener. Every other scheme
 * is ignored with a log line. `DOMTERM_OPENER` replaces the system opener
 * command (tests use a fake one).
 *
 * @module
 */
import type { OpenMessage } from "../core/protocol.ts";
import { defaultOpener } from "./browser.ts";

/** How to open things. */
export interface OpenerOptions {
  /**
   * File opener template: words split like a shell (quotes group), with
   * `%f` the path, `%l` the line, `%c` the column (1 when unknown), `%u`
   * the file URL and `%%` a percent sign. Without `%f` or `%u` the path is
   * appended. Default: the system opener with the path.
   */
  fileOpener?: string;
  /** Directory that relative paths are resolved against. */
  cwd?: string;
  /** System opener command (default: $DOMTERM_OPENER, else xdg-open/open). */
  systemOpener?: string;
  /** Where to report what was ignored or failed (the server's log). */
  log: (message: string) => void;
  /**
   * The window that asked, told the same in a sentence (an app-mode
   * window's user never sees the server's log).
   */
  tell?: (message: string) => void;
  /** This machine's name, as file URLs carry it (default: the system's). */
  hostname?: string;
}

function localHostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "localhost";
  }
}

/** What {@link planOpen} decided: a command to run, or why nothing runs. */
export type OpenPlan = { argv: string[] } | { ignored: string };

/**
 * Split a command template into words: whitespace separates, quotes group,
 * backslash escapes. Test hook: exported for tests/server/opener_test.ts.
 */
export function splitWords(s: string): string[] {
  const words: string[] = [];
  let cur = "";
  let has = false;
  let quote = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote !== "") {
      if (c === quote) quote = "";
      else if (c === "\\" && quote === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < s.length) {
      cur += s[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) words.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}

/** Join `path` onto `base` unless it is absolute. */
function resolvePath(path: string, base: string | undefined): string {
  if (path.startsWith("/")) return path;
  if (path.startsWith("~/")) {
    const home = Deno.env.get("HOME");
    if (home) return home.replace(/\/$/, "") + path.slice(1);
  }
  const dir = base ?? Deno.cwd();
  return dir.replace(/\/$/, "") + "/" + path;
}

/** The file URL of an absolute path. */
function fileUrl(path: string): string {
  return "file://" + path.split("/").map(encodeURIComponent).join("/");
}

/** The system opener command as words, or null when there is none. */
function systemOpener(options: OpenerOptions): string[] | null {
  const cmd = options.systemOpener ?? Deno.env.get("DOMTERM_OPENER") ??
    defaultOpener();
  if (!cmd) return null;
  const words = splitWords(cmd);
  return words.length > 0 ? words : null;
}

/**
 * Decide what to run for `msg` (no side effects). Test hook: exported for
 * tests/server/opener_test.ts (`openLink` uses it).
 */
export function planOpen(msg: OpenMessage, options: OpenerOptions): OpenPlan {
  let path: string;
  if (msg.url !== undefined) {
    let url: URL;
    try {
      url = new URL(msg.url);
    } catch {
      return { ignored: `not a URL: ${msg.url.slice(0, 200)}` };
    }
    const p = url.protocol;
    if (p === "http:" || p === "https:" || p === "mailto:") {
      const opener = systemOpener(options);
      if (!opener) return { ignored: "no system opener (xdg-open) found" };
      return { argv: [...opener, url.href] };
    }
    if (p !== "file:") {
      return {
        ignored: `scheme ${p} is not opened (${url.href.slice(0, 200)})`,
      };
    }
    // `ls --hyperlink` and others name this machine in file URLs.
    const host = url.hostname.toLowerCase();
    if (
      host !== "" && host !== "localhost" &&
      host !== (options.hostname ?? localHostname()).toLowerCase()
    ) {
      return { ignored: `file URL on another host: ${url.hostname}` };
    }
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return { ignored: "malformed file URL" };
    }
  } else if (msg.path !== undefined) {
    if (msg.path.includes("\0")) return { ignored: "path contains NUL" };
    path = resolvePath(msg.path, options.cwd);
  } else {
    return { ignored: "nothing to open" };
  }
  const line = String(msg.line ?? 1), column = String(msg.column ?? 1);
  if (options.fileOpener) {
    const words = splitWords(options.fileOpener);
    if (words.length === 0) return { ignored: "empty --file-opener" };
    let used = false;
    const argv = words.map((w) =>
      w.replace(/%([flcu%])/g, (_, k) => {
        if (k === "f" || k === "u") used = true;
        return k === "f"
          ? path
          : k === "l"
          ? line
          : k === "c"
          ? column
          : k === "u"
          ? fileUrl(path)
          : "%";
      })
    );
    if (!used) argv.push(path);
    return { argv };
  }
  const opener = systemOpener(options);
  if (!opener) return { ignored: "no system opener (xdg-open) found" };
  return { argv: [...opener, path] };
}

/**
 * Open `msg`'s target. Resolves with the opener's exit code, or null when
 * nothing ran (the reason is logged). Never throws.
 */
export async function openLink(
  msg: OpenMessage,
  options: OpenerOptions,
): Promise<number | null> {
  const plan = planOpen(msg, options);
  if ("ignored" in plan) {
    options.log(`open: ignored: ${plan.ignored}`);
    options.tell?.(`Not opened: ${plan.ignored}`);
    return null;
  }
  const [cmd, ...args] = plan.argv;
  try {
    const child = new Deno.Command(cmd, {
      args,
      stdin: "null",
      stdout: "null",
      // Not piped: an opener may leave a long-lived program holding it.
      stderr: "inherit",
    }).spawn();
    const { code } = await child.status;
    if (code !== 0) {
      options.log(`open: ${cmd} exited with ${code}`);
      options.tell?.(`Could not open it: ${cmd} failed (exit status ${code})`);
    }
    return code;
  } catch (e) {
    options.log(`open: cannot run ${cmd}: ${(e as Error).message}`);
    options.tell?.(`Could not open it: cannot run ${cmd}`);
    return null;
  }
}

/** The working directory of process `pid` (Linux /proc), or undefined. */
export function processCwd(pid: number): string | undefined {
  try {
    return Deno.readLinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}
