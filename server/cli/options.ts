/**
 * The main command line (`domterm [options] [-- command...]`) as options:
 * parsed by the table (server/cli/table.ts), checked for what the table
 * cannot say. Shared by the client side (server/cli.ts) and the server
 * (server/cli/serve.ts).
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import { flag, parseCommand, type ParsedArgs, text } from "./parse.ts";
import { MAIN } from "./table.ts";
import type { Settings } from "../../core/settings/schema.ts";
import {
  REMOTE_OPTIONS,
  type RemoteOptionValues,
} from "../remote/cli_options.ts";
import { type SshCliOptions, sshOptions } from "../ssh/cli_options.ts";

/** Parsed command line. */
export interface CliOptions {
  help: boolean;
  version: boolean;
  port: number;
  browser: string | undefined;
  noBrowser: boolean;
  /** Run the server in this terminal, not detached (server/daemon.ts). */
  foreground: boolean;
  /** Template of the command that opens clicked file references (--file-opener). */
  fileOpener: string | undefined;
  /** Do not load domterm's shell integration into bash/zsh/fish. */
  noShellIntegration: boolean;
  /** History lines per session (null: no limit; undefined: the default). */
  scrollback: number | null | undefined;
  /** A session without a window ends after this many seconds (undefined: never). */
  detachedTimeout: number | undefined;
  /** The command to run (empty: the user's shell). */
  command: string[];
  /** The remote listener's options (server/remote/cli_options.ts). */
  remote: RemoteOptionValues;
  /** A session on another host (`domterm [user@]host`), or null. */
  ssh: SshCliOptions | null;
}

/**
 * The options of a parsed main command line. Throws UsageError for what
 * the table cannot say: an empty `--` command, or --browser with
 * --no-browser.
 */
export function cliOptions(a: ParsedArgs): CliOptions {
  if (a.rest !== undefined && a.rest.length === 0) {
    throw new UsageError("'--' must be followed by a command");
  }
  if (flag(a, "no-browser") && a.options.browser !== undefined) {
    throw new UsageError("--browser and --no-browser cannot be used together");
  }
  const ssh = sshFrom(a);
  return {
    help: flag(a, "help"),
    version: flag(a, "version"),
    port: (a.options.port as number | undefined) ?? 0,
    browser: text(a, "browser"),
    noBrowser: flag(a, "no-browser"),
    foreground: flag(a, "foreground"),
    fileOpener: text(a, "file-opener"),
    noShellIntegration: flag(a, "no-shell-integration"),
    // null is 'unlimited'; absent is the default.
    scrollback: "scrollback" in a.options
      ? a.options.scrollback as number | null
      : undefined,
    detachedTimeout: a.options["detached-timeout"] as number | undefined,
    // With a host, the command after `--` runs there (ssh.command).
    command: ssh ? [] : [...a.rest ?? []],
    remote: remoteValues(a),
    ssh,
  };
}

/** The ssh session the operand asks for (server/ssh/cli_options.ts). */
function sshFrom(a: ParsedArgs): SshCliOptions | null {
  try {
    return sshOptions({
      host: a.operands[0],
      remoteDomterm: text(a, "remote-domterm"),
      command: a.rest ?? [],
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The remote listener's options as given (checked by remoteGate). */
function remoteValues(a: ParsedArgs): RemoteOptionValues {
  const into: Record<string, unknown> = {};
  for (const o of REMOTE_OPTIONS) {
    const v = a.options[o.name.slice(2)];
    if (v !== undefined) into[o.key] = v;
  }
  return into as RemoteOptionValues;
}

/**
 * Parse argv (without the program name) as the main command line. Throws
 * UsageError. Test hook: exported for the CLI tests.
 */
export function parseCli(argv: string[]): CliOptions {
  return cliOptions(parseCommand(MAIN, argv));
}

/** The settings the command line overrides (an option wins over the file). */
export function cliOverrides(opts: CliOptions): Partial<Settings> {
  const o: Partial<Settings> = {};
  if (opts.scrollback !== undefined) o.scrollback = opts.scrollback;
  if (opts.browser !== undefined) o.browser = opts.browser;
  if (opts.fileOpener !== undefined) o["file-opener"] = opts.fileOpener;
  if (opts.noShellIntegration) o["shell-integration"] = false;
  if (opts.detachedTimeout !== undefined) {
    o["detached-timeout"] = opts.detachedTimeout;
  }
  return o;
}
