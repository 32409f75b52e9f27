/**
 * A real domterm server process for the `restart-server` tests and
 * benchmark: its own runtime and state directories, sessions made with
 * `domterm new`, the server's pid, and a stop that reaches whichever
 * process serves by then (the first one exits at a handover; the next is
 * detached).
 *
 * @module
 */
import { request, socketPath } from "../server/control.ts";
import { type DomtermOutput, runDomterm } from "./run_domterm.ts";
import { spawnServer } from "./e2e/domterm.ts";

/** A server started for a handover test. */
export interface HandoverServer {
  /** The runtime directory. */
  dir: string;
  env: Record<string, string>;
  url: string;
  port: number;
  key: string;
  /** The first server process (it exits at a successful handover). */
  first: Deno.ChildProcess;
  /** The log the next servers write (in the state directory). */
  log: string;
}

/**
 * Start `domterm --no-browser [serverArgs] -- command` with private
 * directories; `env` adds to its environment.
 */
export async function startHandoverServer(
  command: string[],
  env: Record<string, string> = {},
  serverArgs: string[] = [],
): Promise<HandoverServer> {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-handover-" });
  const all = {
    DOMTERM_RUNTIME_DIR: `${dir}/run`,
    XDG_STATE_HOME: `${dir}/state`,
    DOMTERM_SOCKET: "",
    ...env,
  };
  const { child, url } = await spawnServer(
    [...serverArgs, "--", ...command],
    all,
  );
  for (let i = 0; i < 200; i++) {
    if (await request(socketPath(all.DOMTERM_RUNTIME_DIR), { op: "info" })) {
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const u = new URL(url);
  return {
    dir: all.DOMTERM_RUNTIME_DIR,
    env: all,
    url,
    port: Number(u.port),
    key: /key=([^&]+)/.exec(u.hash)![1],
    first: child,
    log: `${dir}/state/domterm/server.log`,
  };
}

/** `domterm ARGS` against the server. */
export function domterm(
  s: HandoverServer,
  args: string[],
): Promise<DomtermOutput> {
  return runDomterm(args, s.env);
}

/** A new session running `command` (no window); its number. */
export async function newSession(
  s: HandoverServer,
  command: string[],
): Promise<number> {
  const res = await request(socketPath(s.dir), { op: "new", command }, 60_000);
  if (!res?.ok) throw new Error(`new: ${res?.error}`);
  return res.session!;
}

/** The pid of the process that serves now. */
export async function serverPid(s: HandoverServer): Promise<number> {
  const res = await request(socketPath(s.dir), { op: "info" });
  if (!res?.ok) throw new Error("no server answers");
  return res.pid!;
}

/** Whether process `pid` runs (exists and is no zombie). */
export function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

/** Wait until `cond()` holds (polling), or fail saying `what`. */
export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** End the server that serves now (kill-server), and the first process. */
export async function stopHandoverServer(s: HandoverServer): Promise<void> {
  const pid = await serverPid(s).catch(() => null);
  await request(socketPath(s.dir), { op: "kill-server" });
  if (pid !== null) {
    await waitFor(() => !running(pid), `server ${pid} to end`).catch(() => {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    });
  }
  try {
    s.first.kill("SIGTERM");
  } catch { /* gone */ }
  await s.first.status;
}
