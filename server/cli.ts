/**
 * `domterm` without a subcommand: its options (declared in
 * server/cli/table.ts) and starting the server, or asking the running
 * one for a new session and window.
 *
 * @module
 */
import { chooseBrowser, openBrowser, sweepLaunchers } from "./browser.ts";
import { openSessionWindow } from "./window_open.ts";
import {
  DAEMON_LOG_ENV,
  logToFile,
  shouldDetach,
  startDetached,
} from "./daemon.ts";
import { type DomtermServer, startServer } from "./http.ts";
import { compareVersions, VERSION } from "./version.ts";
import { giveSessions, HANDOVER_ENV } from "./handover/give.ts";
import {
  adoptSessions,
  refuseSessions,
  type Taken,
  takeSessions,
} from "./handover/take.ts";
import type { ControlResponse } from "./control.ts";
import { prepareEmulators } from "./session_launch.ts";
import {
  type ControlHandler,
  type ControlListener,
  listenControl,
  request,
  runtimeDir,
  socketPath,
} from "./control.ts";
import { attachUrl, sessionControl } from "./session_control.ts";
import type { JournalStop } from "./session_registry.ts";
import { journalRoot } from "./journal/paths.ts";
import { restoreAtStart } from "./journal/restore.ts";
import { restoreWindows, WindowsJournal } from "./journal/windows.ts";
import { windowUrl } from "./windows/control.ts";
import { selfCommand, writeSelfLauncher } from "./self_launcher.ts";
import { writeShellScripts } from "./shell/integration.ts";
import { basename, dirname } from "node:path";
import { defaultSettingsPath, SettingsStore } from "./settings/file.ts";
import { UsageError } from "./cli/errors.ts";
import { mainHelp } from "./cli/help.ts";
import type { CliContext } from "./cli/handler.ts";
import { flag, parseCommand, type ParsedArgs, text } from "./cli/parse.ts";
import { MAIN } from "./cli/table.ts";
import type { Settings } from "../core/settings/schema.ts";
import {
  REMOTE_OPTIONS,
  RemoteOptionError,
  type RemoteOptionValues,
} from "./remote/cli_options.ts";
import { remoteGate } from "./remote/setup.ts";
import { type SshCliOptions, sshOptions } from "./ssh/cli_options.ts";
import { sshRequest } from "./ssh/request.ts";
import type { RemoteGate } from "./remote/gate.ts";

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

export { UsageError };

/** The text of `domterm --help` (made from server/cli/table.ts). */
export const HELP: string = mainHelp();

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

/**
 * `domterm [options] [-- command...]`: start the server with a session
 * and a window, or ask the running server for them. Resolves with the
 * exit status; throws UsageError for a bad command line.
 */
export async function runMain(
  a: ParsedArgs,
  ctx: CliContext,
): Promise<number> {
  const opts = cliOptions(a);
  if (opts.help) {
    console.log(HELP);
    return 0;
  }
  if (opts.version) {
    console.log(`domterm ${VERSION}`);
    return 0;
  }
  // A listener beyond loopback: TLS and a password, or --insecure.
  let gate: RemoteGate | undefined;
  try {
    gate = remoteGate(opts.remote, (m) => console.error(`domterm: ${m}`));
  } catch (e) {
    console.error(`domterm: ${(e as Error).message}`);
    return e instanceof RemoteOptionError ? 2 : 1;
  }
  // The settings file: a bad value is reported and never stops the start.
  const store = new SettingsStore(defaultSettingsPath(), cliOverrides(opts));
  store.load();
  if (opts.browser === undefined && store.current.browser) {
    opts.browser = store.current.browser as string;
  }
  // Started by `domterm restart-server`: take the old server's sessions.
  const handover = Deno.env.get(HANDOVER_ENV);
  if (handover) Deno.env.delete(HANDOVER_ENV); // not for the sessions
  // One server per user: ask the running one, if any, for a new session.
  const controlPath = controlSocketPath();
  // A --listen server is its own: it never hands off to a running one.
  if (controlPath !== null && opts.port === 0 && !gate && !handover) {
    const handedOff = await handOff(controlPath, opts);
    if (handedOff !== null) return handedOff;
  }
  // From a terminal: the server detaches, so closing the terminal does not
  // end it (server/daemon.ts).
  const log = Deno.env.get(DAEMON_LOG_ENV);
  if (log) logToFile(log);
  else if (
    controlPath !== null && !opts.ssh && shouldDetach({
      foreground: opts.foreground,
      noBrowser: opts.noBrowser,
      listens: opts.port !== 0 || gate !== undefined,
    })
  ) {
    return await startDetached(Deno.args, controlPath);
  }
  if (handover) {
    let taken: Taken;
    try {
      taken = await takeSessions(handover);
    } catch (e) {
      console.error(`domterm: cannot take the sessions over: ${e}`);
      return 1;
    }
    return await serve(opts, ctx, store, gate, controlPath, taken);
  }
  return await serve(opts, ctx, store, gate, controlPath);
}

/**
 * The running server is older than this domterm: hand its sessions to
 * this program (`restart-server` with this command line), saying so.
 */
async function upgradeServer(
  controlPath: string,
  version: string,
): Promise<void> {
  console.error(
    `domterm: the running server is version ${version}, this is ${VERSION}: handing its sessions to this version`,
  );
  const res = await request(
    controlPath,
    { op: "restart-server", command: selfCommand() },
    120_000,
  );
  if (!res?.ok) {
    console.error(
      `domterm: the upgrade failed (the old server goes on): ${
        res?.error ?? "no answer"
      }`,
    );
  }
}

/** The control socket's path; null (said why) without a private runtime directory. */
function controlSocketPath(): string | null {
  try {
    return socketPath(runtimeDir());
  } catch (e) {
    console.error(
      `domterm: no private runtime directory (${
        (e as Error).message
      }); this server will not be found by later 'domterm' commands`,
    );
    return null;
  }
}

/**
 * Ask the server on `controlPath` for the session and open its window:
 * the exit status, or null when no server answers there.
 */
async function handOff(
  controlPath: string,
  opts: CliOptions,
): Promise<number | null> {
  const info = await request(controlPath, { op: "info" });
  if (info === null) return null;
  if (info.version && compareVersions(info.version, VERSION) < 0) {
    await upgradeServer(controlPath, info.version);
  }
  const res = await request(
    controlPath,
    opts.ssh ? sshRequest(opts.ssh) : {
      op: "new",
      ...(opts.command.length ? { command: opts.command } : {}),
      cwd: Deno.cwd(),
    },
    // ssh may ask for a while; a server under load (or one just handed
    // its sessions over) may take a few seconds to start a program.
    opts.ssh ? 120_000 : 30_000,
  );
  if (res === null) {
    // A server answered `info`: starting a second one here would serve
    // in the foreground beside it (and never return).
    console.error(
      "domterm: the running server did not answer; try again, or 'domterm kill-server'",
    );
    return 1;
  }
  if (!res.ok) {
    console.error(
      opts.ssh // the error says what failed on the way to the host
        ? `domterm: ${res.error}`
        : `domterm: the running server refused: ${res.error}`,
    );
    return 1;
  }
  if (opts.ssh || res.session === undefined) {
    await openWindow(res.url!, opts);
    return 0;
  }
  // Wait for the window: a browser that cannot open one is said, and the
  // session made for it ended (server/window_open.ts).
  return await openSessionWindow({
    url: res.url!,
    session: res.session,
    created: true,
    noBrowser: opts.noBrowser,
    browser: opts.browser,
    controlPath,
  });
}

/**
 * Listen on the control socket at `path` (null: none, or it cannot be
 * had, which is said). Requests wait for `handler`.
 */
async function listenForControl(
  path: string | null,
  handler: Promise<ControlHandler>,
): Promise<ControlListener | null> {
  if (path === null) return null;
  try {
    return await listenControl(
      path,
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
    return null;
  }
}

/**
 * Be the server: the control socket, the HTTP server, the first window;
 * resolves with the exit status once the last session ended or a signal
 * (or `domterm kill-server`) stopped it.
 */
async function serve(
  opts: CliOptions,
  ctx: CliContext,
  store: SettingsStore,
  gate: RemoteGate | undefined,
  controlPath: string | null,
  taken?: Taken,
): Promise<number> {
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
  let stopReason: string | undefined;
  // The sessions' journals are kept for a restore when the server is
  // stopped under them (a signal: a logout, a reboot; kill-server).
  let keep: JournalStop | undefined;
  const stop = (reason?: string, journals?: JournalStop) => {
    stopReason ??= reason;
    keep ??= journals;
    done();
  };
  const ctl: ControlHolder = { control: null };
  const handler: Promise<ControlHandler> = started.then((server) =>
    sessionControl(server, stop, restarter(server, controlPath, ctl))
  );
  ctl.handler = handler;
  // Test hook (tests/server/handover_test.ts): a new server that fails
  // after it received everything.
  if (taken && Deno.env.get("DOMTERM_TEST_HANDOVER_FAIL")) {
    await refuseSessions(taken, "refused (test hook)");
    return 1;
  }
  ctl.control = await listenForControl(controlPath, handler);
  const control = { close: () => ctl.control?.close() };
  const server = startHttp(opts, ctx, store, gate, ctl.control, {
    onIdle: () => done(),
    onConnect: () => {
      removeLauncher();
      void sweepLaunchers(10_000);
    },
  }, taken);
  if (server === null) {
    await control.close();
    await refuseSessions(taken ?? null, "it cannot listen (see its log)");
    return 1;
  }
  serverStarted(server);
  if (taken && !await adopted(server, taken, handler, ctl)) {
    Deno.exit(1); // no shutdown: the programs are the old server's again
  }
  // While the browser opens: the first window's screen waits for it.
  prepareEmulators();
  store.watch();
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    try {
      Deno.addSignalListener(sig, () => {
        console.error(`domterm: ${sig}: ending every session`);
        stop(`the domterm server was stopped (${sig})`, {
          reason: `the server was stopped (${sig})`,
          auto: true,
        });
      });
    } catch {
      // not available on this platform
    }
  }

  // Behind a password, the login page is what to open.
  let url = gate?.config.password && opts.noBrowser
    ? `${server.gate.origin(server.port)}/`
    : server.url;
  if (opts.ssh) {
    // The first window is on the remote session.
    const res = await (await handler).handle(sshRequest(opts.ssh));
    if (!res.ok) {
      console.error(`domterm: ${res.error}`);
      await control.close();
      store.close();
      await server.shutdown();
      return 1;
    }
    url = res.url!;
  }
  // Sessions lost by a crash, a logout or a reboot come back, in the
  // windows they were in (docs/persistence.md).
  const { urls: restored, journal: windowsJournal } = await restoreJournals(
    server,
    taken,
  );
  ctl.windowsJournal = windowsJournal;
  if (taken) launcher = null;
  else if (
    restored.length > 0 && !opts.ssh && opts.command.length === 0 &&
    !opts.noBrowser
  ) {
    for (const u of restored) launcher = await openWindow(u, opts);
  } else {
    launcher = await openWindow(url, opts);
  }
  await idle;
  await control.close();
  store.close();
  removeLauncher();
  // Kept with the sessions' journals (a signal, kill-server), else removed.
  await windowsJournal?.stop(keep !== undefined);
  await server.shutdown(stopReason, keep);
  return 0;
}

/**
 * At the start: the sessions lost by a crash, a logout or a reboot come
 * back (not in a server that took over from a restarted one: its windows
 * are open already and reconnect, and a journal it finds may be one the
 * old server is still removing), then the windows they were in; from
 * then on this server's windows are journaled. `urls`: the pages to open,
 * one per restored window and one per restored session no window shows
 * (none: nothing was restored).
 */
async function restoreJournals(
  server: DomtermServer,
  taken: Taken | undefined,
): Promise<{ urls: string[]; journal: WindowsJournal | null }> {
  const root = server.registry.journalRoot;
  if (root === undefined) return { urls: [], journal: null };
  const log = (m: string) => console.error(`domterm: ${m}`);
  const urls: string[] = [];
  if (!taken) {
    const byJournal = new Map<string, number>();
    const sessions = await restoreAtStart(
      server.registry,
      root,
      log,
      byJournal,
    );
    const windows = await restoreWindows(root, server.windows, byJournal, log);
    urls.push(...windows.map((w) => windowUrl(server.url, w.id)));
    for (const s of sessions) {
      if (!server.windows.shows(s.id)) urls.push(attachUrl(server, s.id));
    }
  }
  const journal = new WindowsJournal(root, server.windows, (id) => {
    const j = server.registry.journal(id);
    return j ? basename(j.dir) : undefined;
  }, log);
  return { urls, journal };
}

/** The control socket, as `restart-server` closes and reopens it. */
interface ControlHolder {
  control: ControlListener | null;
  /** This server's windows journal (removed once the sessions are handed over). */
  windowsJournal?: WindowsJournal | null;
  /** What answers on it (the server's handler). */
  handler?: Promise<ControlHandler>;
}

/**
 * The new server (`restart-server`): adopt what `taken` holds and tell the
 * old one; false (said to both) when it cannot.
 */
async function adopted(
  server: DomtermServer,
  taken: Taken,
  handler: Promise<ControlHandler>,
  ctl: ControlHolder,
): Promise<boolean> {
  let why = ctl.control === null
    ? "it cannot listen on the control socket"
    : "";
  if (!why) {
    try {
      await adoptSessions(server, taken);
      await handler;
      console.error(
        `domterm: took over ${taken.sessions.length} sessions from the server of version ${taken.from}`,
      );
      return true;
    } catch (e) {
      why = (e as Error).message;
    }
  }
  console.error(`domterm: cannot take the sessions over: ${why}`);
  await ctl.control?.close();
  await refuseSessions(taken, why);
  return false;
}

/**
 * What `domterm restart-server` runs in this server: hand every session to
 * a new server (server/handover/give.ts); once it is ready, answer and
 * exit (the programs are the new server's; nothing here hangs them up).
 */
function restarter(
  server: DomtermServer,
  controlPath: string | null,
  ctl: ControlHolder,
): ((command?: string[]) => Promise<ControlResponse>) | undefined {
  if (controlPath === null) return undefined;
  let busy = false;
  return async (command) => {
    if (busy) return { ok: false, error: "a restart is under way" };
    busy = true;
    const result = await giveSessions(server, {
      dir: dirname(controlPath),
      command,
      closeControl: async () => {
        const control = ctl.control;
        ctl.control = null;
        await control?.close();
      },
      reopenControl: async () => {
        ctl.control = await listenForControl(controlPath, ctl.handler!);
      },
      log: (m) => console.error(`domterm: ${m}`),
    });
    busy = false;
    if (!result.ok) return { ok: false, error: result.error };
    console.error(
      `domterm: handed ${result.sessions} sessions to the new server (pid ${result.pid}) in ${result.ms} ms`,
    );
    // The next server journals the windows now.
    await ctl.windowsJournal?.stop(false);
    // The asker gets the answer first.
    setTimeout(() => Deno.exit(0), 300);
    return {
      ok: true,
      pid: result.pid,
      handedOver: result.sessions,
      ms: result.ms,
    };
  };
}

/** Start the HTTP server with the command line's options; null (said why) when it cannot listen. */
function startHttp(
  opts: CliOptions,
  ctx: CliContext,
  store: SettingsStore,
  gate: RemoteGate | undefined,
  control: ControlListener | null,
  hooks: { onIdle: () => void; onConnect: () => void },
  taken?: Taken,
): DomtermServer | null {
  const settings = store.current;
  const shellSetting = settings.shell as string[];
  const [command, ...args] = opts.command.length
    ? opts.command
    : shellSetting.length
    ? shellSetting
    : defaultCommand();
  const shellIntegration = settings["shell-integration"] as boolean;
  const detachedTimeout = opts.detachedTimeout ??
    (settings["detached-timeout"] as number | null) ?? undefined;
  try {
    return startServer({
      // A restarted server listens where the old one did, with its key.
      port: taken?.port ?? opts.port,
      localPort: taken?.localPort ?? undefined,
      key: taken?.key,
      command,
      args,
      assets: ctx.assets,
      shellIntegration,
      scrollback: opts.scrollback,
      detachedTimeoutMs: detachedTimeout === undefined
        ? undefined
        : detachedTimeout * 1000,
      env: sessionEnv(control?.path ?? null, shellIntegration),
      settings: store,
      shellFromSettings: opts.command.length === 0,
      ...hooks,
      fileOpener: opts.fileOpener,
      gate,
      journalRoot: journalRoot(),
    });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.name === "AddrInUse") {
      console.error(`domterm: port ${opts.port} is already in use`);
    } else {
      console.error(`domterm: cannot start the server: ${err.message}`);
    }
    return null;
  }
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
/** A browser that fails later than this has shown its window. */
const BROWSER_FAILURE_WINDOW_MS = 10_000;

async function openWindow(
  url: string,
  opts: CliOptions,
): Promise<string | null> {
  if (opts.noBrowser) {
    console.log(url);
    return null;
  }
  try {
    const choice = chooseBrowser(opts.browser);
    const opened = performance.now();
    return await openBrowser(url, choice, {
      // A browser that cannot show a window (no display, say) exits at once
      // with an error: say so rather than wait for a window in silence.
      onFailure: (s) => {
        if (performance.now() - opened > BROWSER_FAILURE_WINDOW_MS) return;
        console.error(
          `domterm: ${choice.path} exited with ${
            s.signal ? `signal ${s.signal}` : `status ${s.code}`
          } before showing a window${
            Deno.build.os === "linux" && !Deno.env.get("DISPLAY") &&
              !Deno.env.get("WAYLAND_DISPLAY")
              ? " (no DISPLAY or WAYLAND_DISPLAY is set)"
              : ""
          }; open this URL yourself (it contains the server key), or use --no-browser:`,
        );
        console.log(url);
      },
    });
  } catch (e) {
    console.error(`domterm: ${(e as Error).message}`);
    console.error(
      "domterm: open this URL yourself (it contains the server key):",
    );
    console.log(url);
    return null;
  }
}
