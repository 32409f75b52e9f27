/**
 * Starting a session's program: its command line (with shell integration
 * when it is bash, zsh or fish), its environment, its PTY; and where the
 * sessions' emulators run.
 *
 * @module
 */
import { Pty } from "./pty/pty.ts";
import { startEmulatorThread } from "./emulator_host.ts";
import { VERSION } from "./version.ts";
import {
  detectShell,
  type LaunchPlan,
  planShellLaunchSync,
} from "./shell/integration.ts";

/** What starts a session's program. */
export interface LaunchOptions {
  /** The session's number (in the child's `DOMTERM` variable). */
  id: number;
  command: string;
  args: string[];
  cols: number;
  rows: number;
  /** Base environment (default: the server's). */
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Load domterm's shell integration into bash, zsh or fish (default true;
   * see server/shell/integration.ts). `DOMTERM_SHELL_INTEGRATION=0` in the
   * environment turns it off too.
   */
  shellIntegration?: boolean;
}

/** The child's environment: the user's, plus what tells programs where they run. */
export function childEnv(
  base: Record<string, string>,
  session: number,
  ttyName: string,
): Record<string, string> {
  const env = { ...base };
  env.TERM = "xterm-256color";
  env.COLORTERM = "truecolor";
  env.DOMTERM =
    `version=${VERSION};tty=${ttyName};session#=${session};pid=${Deno.pid}`;
  // Variables of the terminal this server may itself run in would mislead
  // programs about the terminal they talk to.
  for (
    const k of [
      "TERM_PROGRAM",
      "TERM_PROGRAM_VERSION",
      "VTE_VERSION",
      "KITTY_WINDOW_ID",
      "WT_SESSION",
    ]
  ) {
    delete env[k];
  }
  return env;
}

/**
 * Start the program on a new PTY. `cleanup` removes the files the shell
 * integration wrote, once the session is over. Throws a readable Error
 * when the program cannot be started.
 */
export function spawnProgram(
  options: LaunchOptions,
): { pty: Pty; cleanup: () => void } {
  const base = options.env ?? Deno.env.toObject();
  const launch = shellLaunch(options, base);
  const cleanup = () => removeAll(launch.cleanup);
  try {
    const pty = Pty.spawn({
      command: launch.command,
      args: launch.args,
      env: (tty: string) => childEnv(launch.env, options.id, tty),
      cwd: options.cwd,
      cols: options.cols,
      rows: options.rows,
    });
    return { pty, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}

/**
 * The command, arguments and environment that start the session's
 * program: with shell integration injected when it is bash, zsh or fish
 * (unless turned off). Files go into a new private temp directory, listed
 * in `cleanup`. Where they cannot be written, the program starts without
 * integration.
 */
function shellLaunch(
  options: LaunchOptions,
  env: Record<string, string>,
): LaunchPlan {
  const plain: LaunchPlan = {
    command: options.command,
    args: options.args,
    env,
    cleanup: [],
  };
  if (
    options.shellIntegration === false || detectShell(options.command) === null
  ) {
    return plain;
  }
  let dir: string | null = null;
  try {
    dir = Deno.makeTempDirSync({ prefix: "domterm-shell-" });
    const plan = planShellLaunchSync(options.command, options.args, env, dir);
    return { ...plan, cleanup: [dir] };
  } catch {
    if (dir !== null) removeAll([dir]);
    return plain;
  }
}

function removeAll(paths: string[]): void {
  for (const p of paths) {
    try {
      Deno.removeSync(p, { recursive: true });
    } catch {
      // already gone
    }
  }
}

/**
 * Get the sessions' emulator thread going now, if they are pinned there
 * (see {@link pinnedEmulators}); otherwise it starts with the first flood.
 */
export function prepareEmulators(): void {
  if (pinnedEmulators() === "thread") startEmulatorThread();
}

/**
 * Where the sessions' emulators run. By default each moves between the
 * main thread and the emulator thread with its output (`session_emulator.ts`).
 * `DOMTERM_EMULATOR_MAIN_THREAD=1` in the environment keeps them on the
 * main thread (the least memory; 6-16% less end-to-end throughput in
 * floods on a 2-core machine), `DOMTERM_EMULATOR_THREAD=1` on the thread
 * (an idle server keeps the thread's 15 MB): for benchmarks.
 */
export function pinnedEmulators(): "main" | "thread" | null {
  try {
    if (Deno.env.get("DOMTERM_EMULATOR_MAIN_THREAD") === "1") return "main";
    if (Deno.env.get("DOMTERM_EMULATOR_THREAD") === "1") return "thread";
  } catch {
    // no --allow-env: the default
  }
  return null;
}
