/**
 * A real OpenSSH server for tests: Debian's `/usr/sbin/sshd` on 127.0.0.1
 * and a free port, run as the current user with its own host key, its
 * own config (StrictModes off, public keys only) and a throw-away user
 * key; and an ssh_config for the client that uses that key and trusts
 * only that host key.
 *
 * @module
 */

const SSHD = "/usr/sbin/sshd";

/** A running sshd. */
export interface Sshd {
  port: number;
  /** The user to log in as (the current one). */
  user: string;
  /** The client's config file (`ssh -F`). */
  config: string;
  /** The ssh command line that reaches it: `ssh -F config`. */
  ssh: string[];
  /** The directory of the keys and configs. */
  dir: string;
  /** Stop listening (connections already made go on, as with a real sshd). */
  stop(): Promise<void>;
  /** Listen again on the same port. */
  restart(): Promise<void>;
  /** Stop and remove the files. */
  close(): Promise<void>;
}

async function run(cmd: string, args: string[]): Promise<string> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(cmd, { args, stdin: "null" }).output();
  } catch (e) {
    throw new Error(
      `cannot run ${cmd} (${
        (e as Error).message
      }): the ssh tests need openssh-client (ssh, ssh-keygen) and openssh-server (sshd)`,
    );
  }
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return new TextDecoder().decode(out.stdout);
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function waitForPort(
  port: number,
  child: Deno.ChildProcess,
  log: () => string,
) {
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && !exited) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`sshd did not listen on 127.0.0.1:${port}: ${log()}`);
}

/** Start an sshd. Fails saying what is missing when OpenSSH is not installed. */
export async function startSshd(): Promise<Sshd> {
  try {
    Deno.statSync(SSHD);
  } catch {
    throw new Error(
      `${SSHD} is missing: the ssh tests need openssh-server (apt-get install openssh-server)`,
    );
  }
  const user = (await run("id", ["-un"])).trim();
  const dir = await Deno.makeTempDir({ prefix: "domterm-sshd-" });
  await run("ssh-keygen", [
    "-q",
    "-t",
    "ed25519",
    "-N",
    "",
    "-f",
    `${dir}/host_key`,
  ]);
  await run("ssh-keygen", [
    "-q",
    "-t",
    "ed25519",
    "-N",
    "",
    "-f",
    `${dir}/user_key`,
  ]);
  Deno.copyFileSync(`${dir}/user_key.pub`, `${dir}/authorized_keys`);
  if (Deno.uid() === 0) {
    // Run as root, sshd wants its privilege separation directory (the
    // package's service makes it at boot).
    Deno.mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  }
  const port = freePort();
  Deno.writeTextFileSync(
    `${dir}/sshd_config`,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${dir}/host_key`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      "StrictModes no",
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "UsePAM no",
      "LogLevel ERROR",
      "",
    ].join("\n"),
  );
  const hostKey = Deno.readTextFileSync(`${dir}/host_key.pub`).trim();
  Deno.writeTextFileSync(
    `${dir}/known_hosts`,
    `[127.0.0.1]:${port} ${hostKey}\n`,
  );
  const config = `${dir}/ssh_config`;
  Deno.writeTextFileSync(
    config,
    [
      "Host *",
      `  User ${user}`,
      `  IdentityFile ${dir}/user_key`,
      "  IdentitiesOnly yes",
      "  IdentityAgent none",
      `  UserKnownHostsFile ${dir}/known_hosts`,
      "  GlobalKnownHostsFile /dev/null",
      "  StrictHostKeyChecking yes",
      "  BatchMode yes",
      "  ControlMaster no",
      "  ControlPath none",
      "  LogLevel ERROR",
      "",
    ].join("\n"),
  );
  let child: Deno.ChildProcess | null = null;
  const start = async () => {
    child = new Deno.Command(SSHD, {
      args: ["-D", "-e", "-f", `${dir}/sshd_config`],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // Kept for a failure to start; its complaints about our port probes are not shown.
    let log = "";
    (async () => {
      const dec = new TextDecoder();
      for await (const c of child.stderr) {
        log = (log + dec.decode(c, { stream: true })).slice(-4096);
      }
    })().catch(() => {});
    await waitForPort(port, child, () => log);
  };
  const stop = async () => {
    const c = child as Deno.ChildProcess | null;
    child = null;
    if (c === null) return;
    try {
      c.kill("SIGTERM");
    } catch { /* gone */ }
    await c.status;
  };
  await start();
  return {
    port,
    user,
    config,
    ssh: ["ssh", "-F", config],
    dir,
    stop,
    restart: start,
    async close() {
      await stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
