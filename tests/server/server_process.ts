/**
 * A real `domterm --no-browser` server process for tests that talk to it
 * as the CLI does (through its control socket).
 *
 * @module
 */
import { socketPath } from "../../server/control.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * Start a server running `command` in runtime directory `dir` with `env`;
 * resolves with its process and the URL it printed, once its control
 * socket is there.
 */
export async function startServerProcess(
  dir: string,
  command: string[],
  env: Record<string, string>,
): Promise<{ child: Deno.ChildProcess; url: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--no-browser", "--", ...command],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${text}`);
    text += value;
  }
  reader.releaseLock();
  // Wait for the control socket.
  for (let i = 0; i < 100; i++) {
    try {
      Deno.statSync(socketPath(dir));
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { child, url: text.split("\n")[0] };
}
