/**
 * The server outlives the terminal it was started from, as tmux's and
 * DomTerm's servers do. Started from a terminal (standard input a tty) to
 * open a window, `domterm` starts the real server as a detached process
 * (its own session: no controlling terminal, so closing the terminal sends
 * it no SIGHUP), with its messages going to a log file in the state
 * directory, waits until it answers on the control socket, and exits.
 * `--foreground` keeps today's behaviour: the server is the process.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { selfCommand } from "./self_launcher.ts";
import { request } from "./control.ts";

/** Set in the detached server's environment: the log file it writes to. */
export const DAEMON_LOG_ENV = "DOMTERM_SERVER_LOG";

/** How long the starting command waits for the detached server (ms). */
const START_WAIT_MS = 20_000;

/** Where the detached server logs: `$XDG_STATE_HOME/domterm/server.log`, else `~/.local/state/domterm/server.log`. */
export function serverLogPath(
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): string {
  const state = env("XDG_STATE_HOME") ||
    join(env("HOME") ?? "/tmp", ".local", "state");
  return join(state, "domterm", "server.log");
}

/** Whether this start should detach: see the module doc. */
export function shouldDetach(
  o: { foreground: boolean; noBrowser: boolean; listens: boolean },
  stdinIsTerminal = Deno.stdin.isTerminal(),
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): boolean {
  return !o.foreground && !o.noBrowser && !o.listens && stdinIsTerminal &&
    !env(DAEMON_LOG_ENV);
}

/**
 * In the detached server: everything it says goes to the log file (0600,
 * in a 0700 directory), with a time stamp, since nobody reads its stdout.
 */
export function logToFile(path: string): void {
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const file = Deno.openSync(path, {
    append: true,
    create: true,
    mode: 0o600,
  });
  const enc = new TextEncoder();
  const write = (args: unknown[]) => {
    const text = args.map((a) => typeof a === "string" ? a : Deno.inspect(a))
      .join(" ");
    try {
      file.writeSync(enc.encode(`${new Date().toISOString()} ${text}\n`));
    } catch { /* a full disk must not stop the server */ }
  };
  console.log = (...a: unknown[]) => write(a);
  console.error = (...a: unknown[]) => write(a);
  console.warn = (...a: unknown[]) => write(a);
  write([`domterm server ${Deno.pid} started`]);
}

/**
 * Start `args` (this command line) as a detached server and wait until it
 * answers at `controlPath`. Returns the exit status for this command.
 */
export async function startDetached(
  args: string[],
  controlPath: string,
): Promise<number> {
  const log = serverLogPath();
  const [cmd, ...rest] = selfCommand();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args: [...rest, ...args],
      env: { [DAEMON_LOG_ENV]: log },
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
  } catch (e) {
    console.error(
      `domterm: cannot start the server: ${(e as Error).message}`,
    );
    return 1;
  }
  child.unref();
  let exited: Deno.CommandStatus | null = null;
  child.status.then((s) => exited = s).catch(() => {});
  const deadline = performance.now() + START_WAIT_MS;
  while (performance.now() < deadline) {
    if (exited !== null) break;
    if (await request(controlPath, { op: "list" }, 1000)) {
      console.error(
        `domterm: the server (pid ${child.pid}) runs in the background and ` +
          `outlives this terminal; its log: ${log}; 'domterm kill-server' stops it ` +
          `('domterm --foreground' runs it in this terminal instead)`,
      );
      return 0;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const tail = await Deno.readTextFile(log).then(
    (t) => t.trimEnd().split("\n").slice(-5).join("\n"),
    () => "",
  );
  console.error(
    exited !== null
      ? `domterm: the server exited (status ${
        (exited as Deno.CommandStatus).code
      }) before it was ready; the end of ${log}:\n${tail}`
      : `domterm: the server did not answer within ${
        START_WAIT_MS / 1000
      } s; see ${log}`,
  );
  return 1;
}
