/**
 * The `domterm` command line: options, help, and starting the server.
 *
 * @module
 */
import { chooseBrowser, openBrowser, sweepLaunchers } from "./browser.ts";
import { type Asset, type DomtermServer, startServer } from "./http.ts";
import { VERSION } from "./version.ts";
import { isCommand, runCommand } from "./commands/mod.ts";
import { MAX_SCROLLBACK_LINES } from "../core/protocol.ts";
import {
  type ControlListener,
  listenControl,
  request,
  runtimeDir,
  socketPath,
} from "./control.ts";
import { sessionControl } from "./session_control.ts";
import { writeSelfLauncher } from "./self_launcher.ts";
import { writeShellScripts } from "./shell/integration.ts";
import { dirname } from "node:path";
import { defaultSettingsPath, SettingsStore } from "./settings/file.ts";
import { settingsHelp } from "../core/settings/help.ts";
import type { Settings } from "../core/settings/schema.ts";
import { takeSshArgs } from "./ssh/cli_options.ts"; // ssh hosts
import { runSshStdio } from "./ssh/stdio.ts"; // ssh hosts
import { sshRequest } from "./ssh/request.ts"; // ssh hosts

/** Parsed command line. */
export interface CliOptions {
  help: boolean;
  version: boolean;
  port: number;
  browser: string | undefined;
  noBrowser: boolean;
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
}

/**
 * A command-line mistake: printed with a hint, exit status 2. Exported as a
 * test hook (the CLI tests check that bad arguments throw it).
 */
export class UsageError extends Error {}

/** The text of `domterm --help`. */
export const HELP =
  `domterm ${VERSION} - a rich terminal emulator in your browser

Usage:
  domterm [options] [-- command [args...]]
  domterm COMMAND [options] [args...]
  domterm [options] [--remote-domterm CMD] [user@]host[:port] [-- command]

Runs command (default: $SHELL, else /bin/sh) on a new pseudo-terminal and
opens a terminal window for it: Chrome, Chromium, Edge or Brave in app mode
(no URL bar), else the system's default browser.

Options:
  --port N          listen on 127.0.0.1 port N (default: a free port)
  --browser B       open the window with B: chrome, chromium, edge, brave,
                    default (the system opener), or the path of a browser
                    (default: $CHROME_PATH, then the first one found)
  --no-browser      open nothing; print the URL to open (it contains the
                    server key) alone on one line of standard output
  --file-opener T   open Ctrl/Cmd+clicked file references with the command
                    template T: %f path, %l line, %c column, %u file URL,
                    e.g. 'code -g %f:%l:%c' (default: the system opener;
                    $DOMTERM_OPENER replaces the system opener command)
  --no-shell-integration
                    start bash, zsh or fish without domterm's prompt marks
                    (also: DOMTERM_SHELL_INTEGRATION=0 in the environment)
  --scrollback N    keep N lines of history per session (default 10000);
                    'unlimited' keeps everything
  --detached-timeout S
                    end a session S seconds after its last window was lost
                    (default: never; a window closed on purpose ends it)
  --remote-domterm CMD
                    with a host: how to run domterm there (default:
                    $DOMTERM_REMOTE_DOMTERM, else 'domterm'; a shell
                    command prefix, e.g. 'deno run -A /opt/domterm/main.ts')
  -h, --help        show this help and exit
  -V, --version     print the version and exit

The server listens on 127.0.0.1 only. Every window proves it knows a random
server key that is never put on a command line. One server runs per user: a
later 'domterm' asks the running one for a new session and window (through a
socket in $XDG_RUNTIME_DIR/domterm). Sessions live in the server: a reload,
a crash or a lost connection only detaches the window; closing it on purpose
ends the session. The server exits when its last session ends.

A first operand with '@', ':' or '.' (or 'localhost') is a host: the session
runs there, under a domterm server on that host, reached through your own ssh
($DOMTERM_SSH replaces 'ssh'); it survives a dropped link (docs/ssh.md).

Sessions:
  list [--json]               the sessions: number, name, pid, size, windows,
                              state (attached, detached) and command
  attach N|NAME               open a window on a session
  new [--name NAME] [-- command...]
                              a new session (and window) in this directory
  detach [N|NAME]             detach every window of a session (default: the
                              one this runs in); Ctrl+Shift+D in the window
  kill N|NAME                 end a session (its program is hung up)
  input-mode MODE [N|NAME]    auto, char, line or pipe: how the windows of a
                              session take input (Ctrl+Shift+L in a window)
  save [N|NAME] FILE          the session, scrollback included, as a
                              standalone HTML file (Ctrl+Shift+S in a window)
  view-saved FILE             open such a file in an app window
  kill-server                 end every session and the server
  settings [key=value...]     set settings for this session's windows (over
                              the settings file's); none: print them

Commands, for use inside a domterm window (they print escape sequences;
outside domterm they exit 1 unless given --force):
  is-domterm [--verbose]      exit 0 only inside domterm (asks the terminal)
  html [html...]              insert HTML (standard input if no arguments)
  hcat file.html...           insert each file as HTML
  imgcat [--width W] [--height H] [--alt TEXT] file|url...
                              show images (W, H: N cells, Npx, N%, auto)
  fresh-line                  new line unless at the start of a line
  shell-integration bash|zsh|fish
                              print the shell integration script (for shells
                              domterm did not start: ssh, tmux)
  'domterm COMMAND --help' shows the usage of a command.

Environment of the command: your environment plus TERM=xterm-256color,
COLORTERM=truecolor and DOMTERM=version=..;tty=..;session#=..;pid=..

Exit status: 0 normally, 1 on a runtime error, 2 on a usage error.

` + settingsHelp();

/**
 * Parse argv (without the program name). Throws UsageError. Test hook:
 * exported for the CLI tests (`main` uses it).
 */
export function parseCli(argv: string[]): CliOptions {
  const o: CliOptions = {
    help: false,
    version: false,
    port: 0,
    browser: undefined,
    noBrowser: false,
    fileOpener: undefined,
    noShellIntegration: false,
    scrollback: undefined,
    detachedTimeout: undefined,
    command: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      if (i + 1 >= argv.length) {
        throw new UsageError(`option '${name}' needs a value`);
      }
      return argv[++i];
    };
    const noValue = () => {
      if (eq > 0) throw new UsageError(`option '${name}' takes no value`);
    };
    switch (name) {
      case "--":
        o.command = argv.slice(i + 1);
        if (o.command.length === 0) {
          throw new UsageError("'--' must be followed by a command");
        }
        return o;
      case "-h":
      case "--help":
        noValue();
        o.help = true;
        break;
      case "-V":
      case "--version":
        noValue();
        o.version = true;
        break;
      case "--no-browser":
        noValue();
        o.noBrowser = true;
        break;
      case "--no-shell-integration":
        noValue();
        o.noShellIntegration = true;
        break;
      case "--browser": {
        const v = value();
        if (v === "") throw new UsageError("--browser needs a name or a path");
        o.browser = v;
        break;
      }
      case "--file-opener": {
        const v = value();
        if (v.trim() === "") {
          throw new UsageError("--file-opener needs a command");
        }
        o.fileOpener = v;
        break;
      }
      case "--port": {
        const v = value();
        if (!/^\d{1,5}$/.test(v) || Number(v) > 65535) {
          throw new UsageError(`--port: '${v}' is not a port number (0-65535)`);
        }
        o.port = Number(v);
        break;
      }
      case "--scrollback": {
        const v = value();
        if (v === "unlimited") o.scrollback = null;
        else if (/^\d{1,10}$/.test(v) && Number(v) <= MAX_SCROLLBACK_LINES) {
          o.scrollback = Number(v);
        } else {
          throw new UsageError(
            `--scrollback: '${v}' is not a line count (0-${MAX_SCROLLBACK_LINES}) or 'unlimited'`,
          );
        }
        break;
      }
      case "--detached-timeout": {
        const v = value();
        if (v === "never") o.detachedTimeout = undefined;
        else if (/^\d{1,9}$/.test(v)) o.detachedTimeout = Number(v);
        else {
          throw new UsageError(
            `--detached-timeout: '${v}' is not a number of seconds or 'never'`,
          );
        }
        break;
      }
      default:
        if (arg.startsWith("-")) {
          throw new UsageError(`unknown option '${name}'`);
        }
        throw new UsageError(
          `unexpected argument '${arg}' (to run a command, put it after '--')`,
        );
    }
  }
  if (o.noBrowser && o.browser !== undefined) {
    throw new UsageError("--browser and --no-browser cannot be used together");
  }
  return o;
}

/** The settings the command line overrides (an option wins over the file). */
function cliOverrides(opts: CliOptions): Partial<Settings> {
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

/** The command a session runs by default: $SHELL, else /bin/sh. */
export function defaultCommand(): string[] {
  const shell = Deno.env.get("SHELL");
  return [shell && shell.trim() ? shell : "/bin/sh"];
}

/** Run `domterm` with `argv`; resolves with the exit status. */
export async function main(
  argv: string[],
  assets: Record<string, Asset>,
): Promise<number> {
  // `domterm html ...` etc.: helpers run inside a window, not the server.
  if (isCommand(argv[0])) return await runCommand(argv[0], argv.slice(1));
  if (argv[0] === "ssh-stdio") return await runSshStdio(argv.slice(1)); // ssh hosts
  const ssh = takeSshArgs(argv); // ssh hosts
  let opts: CliOptions;
  try {
    if (typeof ssh === "string") throw new UsageError(ssh); // ssh hosts
    opts = parseCli(ssh.rest); // ssh hosts
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(
      `domterm: ${e.message}\nTry 'domterm --help' for more information.`,
    );
    return 2;
  }
  if (opts.help) {
    console.log(HELP);
    return 0;
  }
  if (opts.version) {
    console.log(`domterm ${VERSION}`);
    return 0;
  }
  // The settings file: a bad value is reported and never stops the start.
  const store = new SettingsStore(defaultSettingsPath(), cliOverrides(opts));
  store.load();
  const settings = store.current;
  if (opts.browser === undefined && settings.browser) {
    opts.browser = settings.browser as string;
  }
  // One server per user: ask the running one, if any, for a new session.
  let controlPath: string | null = null;
  try {
    controlPath = socketPath(runtimeDir());
  } catch (e) {
    console.error(
      `domterm: no private runtime directory (${
        (e as Error).message
      }); this server will not be found by later 'domterm' commands`,
    );
  }
  if (controlPath !== null && opts.port === 0) {
    const res = await request(
      controlPath,
      ssh.ssh ? sshRequest(ssh.ssh) : { // ssh hosts
        op: "new",
        ...(opts.command.length ? { command: opts.command } : {}),
        cwd: Deno.cwd(),
      },
      ssh.ssh ? 120_000 : undefined,
    ); // ssh hosts
    if (res !== null) {
      if (!res.ok) {
        console.error(
          ssh.ssh // ssh hosts: the error says what failed
            ? `domterm: ${res.error}`
            : `domterm: the running server refused: ${res.error}`,
        );
        return 1;
      }
      await openWindow(res.url!, opts);
      return 0;
    }
  }

  const shellSetting = settings.shell as string[];
  const [command, ...args] = opts.command.length
    ? opts.command
    : shellSetting.length
    ? shellSetting
    : defaultCommand();
  const shellIntegration = settings["shell-integration"] as boolean;
  const detachedTimeout = opts.detachedTimeout ??
    (settings["detached-timeout"] as number | null) ?? undefined;

  const { promise: idle, resolve: done } = Promise.withResolvers<void>();
  let launcher: string | null = null;
  const removeLauncher = () => {
    if (launcher) Deno.remove(launcher).catch(() => {});
    launcher = null;
  };
  // The control socket first: only a server that owns it tells its
  // sessions where it is (DOMTERM_SOCKET). Requests wait for the server.
  const { promise: started, resolve: serverStarted } = Promise
    .withResolvers<DomtermServer>();
  const stop = () => done();
  const handler = started.then((server) => sessionControl(server, stop));
  let control: ControlListener | null = null;
  if (controlPath !== null) {
    try {
      control = await listenControl(
        controlPath,
        {
          handle: async (req) => {
            const res = await (await handler).handle(req);
            if (req.op === "new" || req.op === "attach") {
              // The window it opens reads its launcher within seconds.
              Deno.unrefTimer(
                setTimeout(() => void sweepLaunchers(10_000), 15_000),
              );
            }
            return res;
          },
        },
        (m) => console.error(`domterm: ${m}`),
      );
    } catch (e) {
      console.error(`domterm: ${(e as Error).message}`);
    }
  }

  let server: DomtermServer;
  try {
    server = startServer({
      port: opts.port,
      command,
      args,
      assets,
      shellIntegration,
      scrollback: opts.scrollback,
      detachedTimeoutMs: detachedTimeout === undefined
        ? undefined
        : detachedTimeout * 1000,
      env: sessionEnv(control?.path ?? null, shellIntegration),
      settings: store,
      shellFromSettings: opts.command.length === 0,
      onIdle: () => done(),
      onConnect: () => {
        removeLauncher();
        void sweepLaunchers(10_000);
      },
      fileOpener: opts.fileOpener,
    });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.name === "AddrInUse") {
      console.error(`domterm: port ${opts.port} is already in use`);
    } else {
      console.error(`domterm: cannot start the server: ${err.message}`);
    }
    control?.close();
    return 1;
  }
  serverStarted(server);
  store.watch();
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    try {
      Deno.addSignalListener(sig, stop);
    } catch {
      // not available on this platform
    }
  }

  let url = server.url;
  if (ssh.ssh) { // ssh hosts: the first window is on the remote session
    const res = await (await handler).handle(sshRequest(ssh.ssh));
    if (!res.ok) {
      console.error(`domterm: ${res.error}`);
      control?.close();
      store.close();
      await server.shutdown();
      return 1;
    }
    url = res.url!;
  }
  launcher = await openWindow(url, opts);
  await idle;
  control?.close();
  store.close();
  removeLauncher();
  await server.shutdown();
  return 0;
}

/**
 * The sessions' base environment: ours, with this server's control socket
 * (when it owns one), a `domterm` that is this same program first on
 * PATH (server/self_launcher.ts) and, with shell integration on, the
 * directory of the integration scripts for nested shells.
 */
function sessionEnv(
  socket: string | null,
  shellIntegration: boolean,
): Record<string, string> {
  const env = Deno.env.toObject();
  if (socket !== null) env.DOMTERM_SOCKET = socket;
  let dir: string;
  try {
    dir = socket !== null
      ? dirname(socket)
      : Deno.makeTempDirSync({ prefix: "domterm-bin-" });
  } catch (e) {
    console.error(
      `domterm: no directory for the sessions' helpers: ${
        (e as Error).message
      }`,
    );
    return env;
  }
  try {
    const bin = writeSelfLauncher(dir);
    env.PATH = env.PATH ? `${bin}:${env.PATH}` : bin;
  } catch (e) {
    console.error(
      `domterm: 'domterm' will not be on the sessions' PATH: ${
        (e as Error).message
      }`,
    );
  }
  if (!shellIntegration) return env;
  try {
    // For shells started inside a session (docs/shell-integration.md).
    env.DOMTERM_SHELL_SCRIPTS = writeShellScripts(dir);
  } catch (e) {
    console.error(
      `domterm: nested shells will find no integration scripts: ${
        (e as Error).message
      }`,
    );
  }
  return env;
}

/**
 * Open a window on `url` with the browser the options name, or print the
 * URL (--no-browser, or when no browser can be started). Returns the
 * launcher file to remove once the window has connected, if any.
 */
async function openWindow(
  url: string,
  opts: CliOptions,
): Promise<string | null> {
  if (opts.noBrowser) {
    console.log(url);
    return null;
  }
  try {
    return await openBrowser(url, chooseBrowser(opts.browser));
  } catch (e) {
    console.error(`domterm: ${(e as Error).message}`);
    console.error(
      "domterm: open this URL yourself (it contains the server key):",
    );
    console.log(url);
    return null;
  }
}
