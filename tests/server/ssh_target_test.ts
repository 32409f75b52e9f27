/**
 * The host operand of `domterm [user@]host[:port] [-- cmd]`: which operands
 * are hosts, how they parse, the ssh command line, and the options taken
 * out of the command line.
 */
import { assert, assertEquals } from "../assert.ts";

/** `fn` throws an Error whose message contains `text`. */
function assertThrows(fn: () => unknown, _: unknown, text: string): void {
  let message: string | null = null;
  try {
    fn();
  } catch (e) {
    message = (e as Error).message;
  }
  assert(message !== null, `expected an error with '${text}'`);
  assert(message.includes(text), message);
}
import {
  looksLikeHost,
  parseTarget,
  SSH_OPTIONS,
  sshCommandLine,
  targetLabel,
} from "../../server/ssh/target.ts";
import { sshOptions } from "../../server/ssh/cli_options.ts";
import { parseCli, UsageError } from "../../server/cli.ts";

Deno.test("ssh target: only operands with @, : or ., or localhost, are hosts", () => {
  for (
    const h of [
      "me@box",
      "box:2222",
      "box.example.org",
      "localhost",
      "10.0.0.1",
    ]
  ) {
    assert(looksLikeHost(h), h);
  }
  for (const c of ["lsit", "attach", "box", "-p", "./script", "a/b.c"]) {
    assert(!looksLikeHost(c), c);
  }
});

Deno.test("ssh target: parses user, host and port", () => {
  assertEquals(parseTarget("me@box.lan:2222"), {
    user: "me",
    host: "box.lan",
    port: 2222,
  });
  assertEquals(parseTarget("localhost"), { host: "localhost" });
  assertEquals(parseTarget("[::1]:22"), { host: "::1", port: 22 });
  assertEquals(targetLabel(parseTarget("[::1]:22")), "[::1]:22");
  assertEquals(targetLabel(parseTarget("me@h.x")), "me@h.x");
});

Deno.test("ssh target: bad operands say what is wrong", () => {
  assertThrows(() => parseTarget("me@box:99999"), Error, "not a port number");
  assertThrows(() => parseTarget("me@box:"), Error, "not a port number");
  assertThrows(() => parseTarget("m e@box"), Error, "bad user name");
  assertThrows(() => parseTarget("@box"), Error, "bad user name");
  assertThrows(() => parseTarget("me@-oProxyCommand=x.y"), Error, "bad host");
  assertThrows(() => parseTarget("[::1"), Error, "missing ']'");
});

Deno.test("ssh target: the ssh command line", () => {
  assertEquals(
    sshCommandLine(
      ["ssh", "-F", "cfg"],
      parseTarget("me@h.x:2200"),
      "domterm ssh-stdio",
    ),
    [
      "ssh",
      "-F",
      "cfg",
      "-T",
      ...SSH_OPTIONS,
      "-p",
      "2200",
      "-l",
      "me",
      "--",
      "h.x",
      "domterm ssh-stdio",
    ],
  );
  assertEquals(
    sshCommandLine(["ssh"], parseTarget("h.x"), "d ssh-stdio"),
    ["ssh", "-T", ...SSH_OPTIONS, "--", "h.x", "d ssh-stdio"],
  );
});

Deno.test("ssh options: the host operand, the command after -- and --remote-domterm", () => {
  const r = parseCli([
    "--file-opener",
    "a.b",
    "--remote-domterm",
    "/opt/domterm",
    "me@h.x",
    "--no-browser",
    "--",
    "top",
    "-d",
    "1",
  ]);
  assertEquals(r.fileOpener, "a.b", "an option's value is never the host");
  assertEquals(r.noBrowser, true);
  assertEquals(r.command, [], "the command runs on the host, not here");
  assertEquals(r.ssh?.target, { user: "me", host: "h.x" });
  assertEquals(r.ssh?.command, ["top", "-d", "1"]);
  assertEquals(r.ssh?.remoteDomterm, "/opt/domterm");
  // The environment: $DOMTERM_SSH replaces ssh, $DOMTERM_REMOTE_DOMTERM the default.
  const env = (k: string) =>
    ({
      DOMTERM_SSH: "ssh -F /x/cfg",
      DOMTERM_REMOTE_DOMTERM: "/usr/local/bin/domterm",
    } as Record<string, string>)[k];
  const e = sshOptions({ host: "h.x", command: [] }, env);
  assertEquals(e?.ssh, ["ssh", "-F", "/x/cfg"]);
  assertEquals(e?.remoteDomterm, "/usr/local/bin/domterm");
  // No host: a local session, its command after --.
  const plain = parseCli(["--port", "8080", "--", "vim", "a.txt"]);
  assertEquals(plain.ssh, null);
  assertEquals(plain.command, ["vim", "a.txt"]);
  // Defaults.
  const d = sshOptions({ host: "localhost", command: [] }, () => undefined);
  assertEquals(d?.remoteDomterm, "domterm");
  assertEquals(d?.ssh, ["ssh"]);
  // Mistakes are usage errors.
  const usage = (argv: string[], text: string) => {
    let message = "";
    try {
      parseCli(argv);
    } catch (err) {
      assert(err instanceof UsageError, String(err));
      message = err.message;
    }
    assert(message.includes(text), `${argv.join(" ")}: ${message}`);
  };
  usage(
    ["--remote-domterm", "x"],
    "--remote-domterm is for a [user@]host operand",
  );
  usage(["h.x", "--"], "'--' must be followed by a command");
  usage(["h.x:0"], "not a port number");
  usage(["nohost"], "unexpected argument 'nohost'");
  usage(["a.b", "c.d"], "");
});
