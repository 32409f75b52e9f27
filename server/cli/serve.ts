/**
 * Being the server: the control socket, the HTTP server, the first
 * window, the sessions a restarted server hands over, until the last
 * session ends or a signal (or `domterm kill-server`) stops it.
 *
 * Imported by server/cli.ts only once the process is to be the server
 * (issue 31 §7): a `domterm` that finds one running never loads these
 * modules.
 *
 * @module
 */
import { sweepLaunchers } from "../browser.ts";
import { type DomtermServer, startServer } from "../http.ts";
import { giveSessions } from "../handover/give.ts";
import {
  adoptSessions,
  refuseSessions,
  type Taken,
  takeSessions,
} from "../handover/take.ts";
import type { ControlResponse } from "../control.ts";
import { prepareEmulators } from "../session_launch.ts";
import {
  type ControlHandler,
  type ControlListener,
  listenControl,
} from "../control.ts";
import { attachUrl, sessionControl } from "../session_control.ts";
import type { JournalStop } from "../session_registry.ts";
import { journalRoot } from "../journal/paths.ts";
import { restoreAtStart } from "../journal/restore.ts";
import { restoreWindows, WindowsJournal } from "../journal/windows.ts";
import { windowUrl } from "../windows/control.ts";
import { writeSelfLauncher } from "../self_launcher.ts";
import { writeShellScripts } from "../shell/integration.ts";
import { basename, dirname } from "node:path";
import type { SettingsStore } from "../settings/file.ts";
import type { Asset } from "../http.ts";
import type { CliContext } from "./handler.ts";
import type { CliOptions } from "./options.ts";
import type { RemoteGate } from "../remote/gate.ts";
import { sshRequest } from "../ssh/request.ts";
import { earlyWindowPort, openWindow } from "./open_window.ts";
import { fullGcWhenQuiet } from "../full_gc.ts";

/** The command a session runs by default: $SHELL, else /bin/sh. */
export function defaultCommand(): string[] {
  const shell = Deno.env.get("SHELL");
  return [shell && shell.trim() ? shell : "/bin/sh"];
}

/**
 * Be the server; with `handover` (set by `domterm restart-server`), take
 * the old server's sessions first. Resolves with the exit status.
 */
export async function becomeServer(
  opts: CliOptions,
  ctx: CliContext,
  store: SettingsStore,
  gate: RemoteGate | undefined,
  controlPath: string | null,
  handover: string | undefined,
): Promise<number> {
  // Read while the sessions are taken or the control socket is set up.
  const assets = ctx.assets();
  if (!handover) {
    return await serve(opts, await assets, store, gate, controlPath);
  }
  let taken: Taken;
  try {
    taken = await takeSessions(handover);
  } catch (e) {
    console.error(`domterm: cannot take the sessions over: ${e}`);
    return 1;
  }
  return await serve(opts, await assets, store, gate, controlPath, taken);
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
  assets: Readonly<Record<string, Asset>>,
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
  const server = startHttp(opts, assets, store, gate, ctl.control, {
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
  // What starting up left (modules' top levels, the journals read) is
  // garbage an idle server would keep, and its grown heap with it.
  fullGcWhenQuiet();
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
  assets: Readonly<Record<string, Asset>>,
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
  // The port of the last window in domterm's own browser, when free: the
  // same origin finds its cached client (issue 31 §7). Taken meanwhile
  // (a probe is no lock): any port.
  const remembered = taken || opts.port || gate ? 0 : earlyWindowPort();
  const start = (port: number) =>
    startServer({
      // A restarted server listens where the old one did, with its key.
      port: taken?.port ?? (opts.port || port),
      localPort: taken?.localPort ?? undefined,
      key: taken?.key,
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
      ...hooks,
      fileOpener: opts.fileOpener,
      gate,
      journalRoot: journalRoot(),
    });
  try {
    try {
      return start(remembered);
    } catch (e) {
      if (!remembered || (e as Error).name !== "AddrInUse") throw e;
      return start(0);
    }
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
