/** The remote options: refusal without TLS and password, --insecure, files checked. */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import {
  isLoopback,
  parseListen,
  type RemoteConfig,
  type RemoteOptionValues,
  validateRemoteOptions,
} from "../../../server/remote/cli_options.ts";
import { hashPassword } from "../../../server/remote/password.ts";
import { dropForReadOnly } from "../../../server/remote/read_only.ts";
import { parseCli, UsageError } from "../../../server/cli.ts";

const noEnv = (k: string) => k === "HOME" ? "/home/u" : undefined;

function refusal(f: () => ReturnType<typeof validateRemoteOptions>): string {
  const r = f();
  assert(r !== null && "error" in r, `accepted: ${JSON.stringify(r)}`);
  return r.error;
}

/** The config of `v`, which must be valid. */
function config(v: RemoteOptionValues): RemoteConfig {
  const r = validateRemoteOptions(v, noEnv);
  assert(r !== null && !("error" in r), JSON.stringify(r));
  return r;
}

Deno.test("--listen ADDR[:PORT] is split; loopback is recognized", () => {
  assertEquals(parseListen("0.0.0.0:8443"), {
    hostname: "0.0.0.0",
    port: 8443,
  });
  assertEquals(parseListen("[::]:9"), { hostname: "::", port: 9 });
  assertEquals(parseListen("[::1]"), { hostname: "::1", port: undefined });
  assertEquals(parseListen("host.example"), {
    hostname: "host.example",
    port: undefined,
  });
  assertMatch(parseListen("::1:80") as string, /IPv6 address in brackets/);
  assertMatch(parseListen("a:99999") as string, /port/);
  assert(
    isLoopback("127.0.0.1") && isLoopback("127.1.2.3") && isLoopback("::1"),
  );
  assert(
    isLoopback("localhost") && !isLoopback("0.0.0.0") && !isLoopback("::"),
  );
});

Deno.test("no remote option: no config (today's server)", () => {
  assertEquals(validateRemoteOptions({}, noEnv), null);
});

Deno.test("a network address without TLS and password is refused, naming what is missing", () => {
  const m = refusal(() =>
    validateRemoteOptions({ listen: "0.0.0.0:1" }, noEnv)
  );
  assertMatch(m, /refusing to listen on 0\.0\.0\.0/);
  assertMatch(m, /--tls-cert/);
  assertMatch(m, /--password-file/);
  assertMatch(m, /--insecure/);
  assertMatch(
    refusal(() =>
      validateRemoteOptions({ listen: "0.0.0.0", tlsCert: "c" }, noEnv)
    ),
    /go together/,
  );
});

Deno.test("--insecure starts anyway with a loud warning", () => {
  const c = config({ listen: "0.0.0.0", insecure: true });
  assertEquals(c.loopback, false);
  assertEquals(c.tls, null);
  assertMatch(
    c.warnings.join("\n"),
    /WARNING.*without --tls-cert.*may get a shell/,
  );
  assertEquals(c.accessLogPath, "/home/u/.local/state/domterm/access.log");
});

Deno.test("loopback needs nothing more; files are read and checked", async () => {
  const c = config({ listen: "127.0.0.1:0" });
  assertEquals(c.loopback, true);
  assertEquals(c.warnings, []);
  assertEquals(c.accessLogPath, null);
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/pw`, await hashPassword("x") + "\n");
    Deno.writeTextFileSync(`${dir}/bad`, "x\n");
    Deno.writeTextFileSync(`${dir}/cert`, "-----BEGIN CERTIFICATE-----\n");
    Deno.writeTextFileSync(`${dir}/key`, "-----BEGIN PRIVATE KEY-----\n");
    const ok = config({
      listen: "0.0.0.0",
      tlsCert: `${dir}/cert`,
      tlsKey: `${dir}/key`,
      passwordFile: `${dir}/pw`,
      accessLog: `${dir}/log`,
    });
    assert(ok.tls !== null && ok.password !== null);
    assertEquals(ok.warnings, []);
    assertEquals(ok.accessLogPath, `${dir}/log`);
    assertMatch(
      refusal(() =>
        validateRemoteOptions(
          { listen: "[::1]", passwordFile: `${dir}/bad` },
          noEnv,
        )
      ),
      /--password-file: .*not a domterm password hash/,
    );
    assertMatch(
      refusal(() =>
        validateRemoteOptions(
          { listen: "[::1]", passwordFile: `${dir}/none` },
          noEnv,
        )
      ),
      /cannot read/,
    );
    assertMatch(
      refusal(() =>
        validateRemoteOptions(
          { tlsCert: `${dir}/key`, tlsKey: `${dir}/key` },
          noEnv,
        )
      ),
      /no PEM certificate/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a read-only window may only ack and pause", () => {
  assert(dropForReadOnly(null), "input bytes");
  assert(dropForReadOnly("not json"));
  for (
    const m of [
      { type: "resize", cols: 1, rows: 1 },
      { type: "detach" },
      { type: "closing" },
      { type: "focus" },
      { type: "save-settings", settings: {} },
    ] as const
  ) assert(dropForReadOnly(m as never), m.type);
  assert(!dropForReadOnly({ type: "ack", bytes: 10 }));
  assert(!dropForReadOnly({ type: "pause", paused: true }));
});

Deno.test("the command line takes the remote options into opts.remote", () => {
  const o = parseCli([
    "--listen",
    "0.0.0.0:8443",
    "--tls-cert=c.pem",
    "--tls-key",
    "k.pem",
    "--password-file",
    "pw",
    "--access-log",
    "a.log",
    "--insecure",
    "--",
    "sh",
  ]);
  assertEquals(o.remote, {
    listen: "0.0.0.0:8443",
    tlsCert: "c.pem",
    tlsKey: "k.pem",
    passwordFile: "pw",
    accessLog: "a.log",
    insecure: true,
  });
  assertEquals(o.command, ["sh"]);
  let err: unknown;
  try {
    parseCli(["--insecure=yes"]);
  } catch (e) {
    err = e;
  }
  assert(err instanceof UsageError && /takes no value/.test(err.message));
});
