/**
 * Runs this checkout's `domterm` (main.ts) on a pseudo-terminal, for the
 * tests of its helper subcommands (commands_test.ts,
 * commands_timing_test.ts).
 *
 * @module
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import { libc } from "../../server/pty/libc.ts";
import { Pty } from "../../server/pty/pty.ts";

// Open libc before any test: it is a process-lifetime resource.
libc();

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const dec = new TextDecoder();

/**
 * Run `domterm ARGS` on a pseudo-terminal. With `answer`, its output goes
 * through a core Terminal whose replies are written back (like domterm's
 * client); without, nobody answers. Resolves with the exit code, the
 * output and the time it took.
 */
export async function onPty(args: string[], answer: boolean) {
  const env = Deno.env.toObject();
  delete env.DOMTERM;
  const started = performance.now();
  const pty = Pty.spawn({
    command: Deno.execPath(),
    args: ["run", "-A", MAIN, ...args],
    env,
    cols: 80,
    rows: 24,
  });
  try {
    const term = new Terminal({
      cols: 80,
      rows: 24,
      reply: (s) => void pty.write(s).catch(() => {}),
    });
    let output = "";
    const timer = setTimeout(() => pty.kill("SIGKILL"), 20_000);
    try {
      for (let c = await pty.read(); c; c = await pty.read()) {
        output += dec.decode(c, { stream: true });
        if (answer) term.write(c);
      }
      const status = await pty.exited;
      return { code: status.code, output, ms: performance.now() - started };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await pty.close();
  }
}
