/**
 * On the remote host: find the user's domterm server, or start one that
 * outlives the ssh connection (its own session and process group, no
 * standard streams), so the sessions it owns survive a dropped link.
 *
 * @module
 */
import { request, socketPath } from "../control.ts";
import { selfCommand } from "../self_launcher.ts";

/** How long a server we started may take to answer. */
const START_TIMEOUT_MS = 30_000;

/**
 * The control socket of the user's running server; starts `domterm
 * --no-browser` in the background first when none answers. Throws when
 * the server does not come up.
 */
export async function ensureServer(): Promise<string> {
  const path = socketPath();
  if (await request(path, { op: "info" }, 2000) !== null) return path;
  const [cmd, ...args] = selfCommand();
  const child = new Deno.Command(cmd, {
    args: [...args, "--no-browser"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  let exited = false;
  child.status.then(() => exited = true, () => exited = true);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await request(path, { op: "info" }, 2000) !== null) return path;
    if (exited) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    exited
      ? "the domterm server on this host exited at once (run 'domterm --no-browser' there to see why)"
      : "the domterm server on this host did not answer within 30 s",
  );
}

/** The control socket of the user's running server, or null when none answers. */
export async function runningServer(): Promise<string | null> {
  const path = socketPath();
  return await request(path, { op: "info" }, 2000) !== null ? path : null;
}
