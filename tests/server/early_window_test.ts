/**
 * The server's own Chromium (found as CHROME_PATH) starts before the
 * server is ready (server/cli/open_window.ts, startEarlyWindow; issue 31
 * §7). One that fails is still reported, with the URL to open, as a
 * browser started the usual way is (tests/server/cli_test.ts).
 */
import { assertMatch } from "../assert.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

Deno.test("early window: a Chromium that fails before showing a window is reported, with the URL", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-early-fail-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--", "/bin/sh"],
    // /bin/false stands for a Chromium that cannot open a display.
    env: privateRuntimeEnv({
      CHROME_PATH: "/bin/false",
      XDG_CONFIG_HOME: `${dir}/config`,
    }),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    reader.releaseLock();
    assertMatch(out, /^http:\/\/127\.0\.0\.1:\d+\/#key=/);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
  }
  const err = await new Response(child.stderr).text();
  assertMatch(
    err,
    /\/bin\/false exited with status 1 before showing a window.*open this URL yourself/,
  );
  await Deno.remove(dir, { recursive: true });
});
