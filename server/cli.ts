/**
 * `domterm` without a subcommand: its options (server/cli/options.ts,
 * declared in server/cli/table.ts), then asking the running server for a
 * new session and window, or becoming the server (server/cli/serve.ts,
 * imported only then: a second `domterm` loads the control socket's
 * client, not the server; issue 31 §7).
 *
 * @module
 */
import { openSessionWindow } from "./window_open.ts";
import {
  DAEMON_LOG_ENV,
  logToFile,
  shouldDetach,
  startDetached,
} from "./daemon.ts";
import { compareVersions, VERSION } from "./version.ts";
import { HANDOVER_ENV } from "./handover/env.ts";
import { request, runtimeDir, socketPath } from "./control.ts";
import { selfCommand } from "./self_launcher.ts";
import { defaultSettingsPath, SettingsStore } from "./settings/file.ts";
import { UsageError } from "./cli/errors.ts";
import { mainHelp } from "./cli/help.ts";
import type { CliContext } from "./cli/handler.ts";
import type { ParsedArgs } from "./cli/parse.ts";
import { type CliOptions, cliOptions, cliOverrides } from "./cli/options.ts";
import { RemoteOptionError } from "./remote/cli_options.ts";
import { sshRequest } from "./ssh/request.ts";
import type { RemoteGate } from "./remote/gate.ts";
import {
  earlyWindowEnv,
  openWindow,
  startEarlyWindow,
} from "./cli/open_window.ts";

export { type CliOptions, cliOptions, parseCli } from "./cli/options.ts";
export { UsageError };

/** The text of `domterm --help` (made from server/cli/table.ts). */
export const HELP: string = mainHelp();

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
    // The gate's modules only for a command line that asks for one.
    if (
      Object.values(opts.remote).some((v) => v !== undefined && v !== false)
    ) {
      const { remoteGate } = await import("./remote/setup.ts");
      gate = remoteGate(opts.remote, (m) => console.error(`domterm: ${m}`));
    }
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
  // This process, or the server it detaches, opens the first window: the
  // browser starts now, while the server loads (issue 31 §7).
  if (!handover) await startEarlyWindow(opts);
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
    for (const [k, v] of Object.entries(earlyWindowEnv())) Deno.env.set(k, v);
    return await startDetached(Deno.args, controlPath);
  }
  // This process is the server: only now its modules are loaded.
  const { becomeServer } = await import("./cli/serve.ts");
  return await becomeServer(opts, ctx, store, gate, controlPath, handover);
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
