/** The `domterm` command line, run as a real process. */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { parseCli, UsageError } from "../../server/cli.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
import { runDomterm as run } from "../run_domterm.ts";

/** The first line the child prints on stdout (without the newline). */
async function firstLine(child: Deno.ChildProcess): Promise<string> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  return text.split("\n")[0];
}

Deno.test("cli: --help explains the options", async () => {
  const r = await run(["--help"]);
  assertEquals(r.code, 0);
  for (
    const opt of [
      "--port",
      "--browser",
      "--no-browser",
      "--help",
      "--version",
      "-- command",
    ]
  ) {
    assert(r.stdout.includes(opt), `help mentions ${opt}`);
  }
});

Deno.test("cli: unknown flags and bad values exit 2 with a clear message", async () => {
  for (
    const [args, msg] of [
      [["--frobnicate"], /unknown option '--frobnicate'/],
      [["--port", "http"], /--port: 'http' is not a port number/],
      [["--port", "70000"], /not a port number/],
      [["--port"], /option '--port' needs a value/],
      [["bash"], /unexpected argument 'bash'/],
      [["--"], /'--' must be followed by a command/],
      [["--no-browser", "--browser", "chrome"], /cannot be used together/],
    ] as [string[], RegExp][]
  ) {
    const r = await run(args);
    assertEquals(r.code, 2, `exit code for ${args.join(" ")}`);
    assertMatch(r.stderr, msg);
    assertMatch(r.stderr, /Try 'domterm --help'/);
  }
});

Deno.test("cli: parseCli takes the command after --", () => {
  assertEquals(
    parseCli(["--port=0", "--no-browser", "--", "vim", "-u", "NONE"]).command,
    [
      "vim",
      "-u",
      "NONE",
    ],
  );
  assertEquals(parseCli(["--browser", "/x/y"]).browser, "/x/y");
  let err: unknown;
  try {
    parseCli(["--help=yes"]);
  } catch (e) {
    err = e;
  }
  assert(err instanceof UsageError);
});

Deno.test("cli: --no-browser prints the URL alone on a line and serves it", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--no-browser", "--", "/bin/sh", "-c", "exit 0"],
    env: privateRuntimeEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const line = await firstLine(child);
    assertMatch(line, /^http:\/\/127\.0\.0\.1:\d+\/#key=[A-Za-z0-9_-]{32,}$/);
    const page = await fetch(line);
    assertEquals(page.status, 200);
    assertMatch(await page.text(), /<div id="terminal"/);
  } finally {
    child.kill("SIGTERM");
    const status = await child.status;
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel();
    assertEquals(status.code, 0, "SIGTERM shuts the server down cleanly");
  }
});

/**
 * Start domterm with `--browser browser`; its first line of standard output
 * (the URL it printed) and, once it is stopped, its standard error.
 */
async function startWithBrowser(
  browser: string,
): Promise<{ url: string; err: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--browser", browser, "--", "/bin/sh"],
    env: privateRuntimeEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const url = await firstLine(child);
  child.kill("SIGTERM");
  await child.status;
  await child.stdout.cancel().catch(() => {});
  return { url, err: await new Response(child.stderr).text() };
}

Deno.test("cli: a missing browser gives a clear error and still prints the URL", async () => {
  const { url, err } = await startWithBrowser("/nonexistent/browser");
  assertMatch(err, /browser '\/nonexistent\/browser' not found/);
  assertMatch(url, /^http:\/\/127\.0\.0\.1:\d+\/#key=/);
});

Deno.test("cli: a browser that fails before showing a window is reported, with the URL", async () => {
  // /bin/false stands for a Chromium that cannot open a display.
  const { url, err } = await startWithBrowser("/bin/false");
  assertMatch(
    err,
    /\/bin\/false exited with status 1 before showing a window.*open this URL yourself/,
  );
  assertMatch(url, /^http:\/\/127\.0\.0\.1:\d+\/#key=/);
});
