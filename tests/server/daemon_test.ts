/**
 * The server outlives the terminal it was started from (server/daemon.ts):
 * `domterm` run in a real terminal (a PTY) starts the server detached and
 * returns; closing that terminal (SIGHUP to everything on it, the PTY gone)
 * leaves the server and its sessions running; its log goes to a 0600 file
 * in the state directory. `--foreground` keeps it in the terminal, where the
 * hang-up ends it as before.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { Pty } from "../../server/pty/pty.ts";
import { request, socketPath } from "../../server/control.ts";
import { shouldDetach } from "../../server/daemon.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

async function readAll(pty: Pty, ms: number): Promise<string> {
  const dec = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  let pending = pty.read();
  while (Date.now() < deadline) {
    const chunk = await Promise.race([
      pending,
      new Promise<"t">((r) => setTimeout(() => r("t"), 500)),
    ]);
    if (chunk === "t") continue;
    if (chunk === null) break;
    text += dec.decode(chunk, { stream: true });
    pending = pty.read();
  }
  return text;
}

async function answers(dir: string): Promise<boolean> {
  return (await request(socketPath(dir), { op: "list" }, 1000)) !== null;
}

Deno.test("daemon: when to detach", () => {
  const base = { foreground: false, noBrowser: false, listens: false };
  const none = () => undefined;
  assertEquals(shouldDetach(base, true, none), true);
  assertEquals(shouldDetach(base, false, none), false); // not from a terminal
  assertEquals(shouldDetach({ ...base, foreground: true }, true, none), false);
  assertEquals(shouldDetach({ ...base, noBrowser: true }, true, none), false);
  assertEquals(shouldDetach({ ...base, listens: true }, true, none), false);
  // The detached server itself.
  assertEquals(shouldDetach(base, true, () => "/x/server.log"), false);
});

Deno.test("daemon: a server started from a terminal outlives it; --foreground does not", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-daemon-" });
  const env = {
    ...Deno.env.toObject(),
    DOMTERM_RUNTIME_DIR: dir,
    XDG_STATE_HOME: `${dir}/state`,
    DOMTERM_SOCKET: "",
  };
  const spawn = (extra: string[]) =>
    Pty.spawn({
      command: Deno.execPath(),
      args: [
        "run",
        "-A",
        MAIN,
        "--browser",
        "/bin/true",
        ...extra,
        "--",
        "/bin/sh",
      ],
      env,
      cols: 80,
      rows: 24,
    });
  try {
    const term = spawn([]);
    const said = await readAll(term, 30_000);
    const status = await term.exited;
    assertEquals(status.code, 0, said);
    assertMatch(said, /runs in the background and outlives this terminal/);
    // A session of the server (the first window never connected: its
    // browser here is /bin/true).
    const made = await request(socketPath(dir), {
      op: "new",
      command: ["/bin/sh", "-c", "sleep 60"],
    });
    assert(made?.ok, JSON.stringify(made));
    // The terminal goes away: its programs get SIGHUP, the PTY closes.
    await term.close();
    await new Promise((r) => setTimeout(r, 500));
    assert(
      await answers(dir),
      "the server still answers after its terminal closed",
    );
    const log = `${dir}/state/domterm/server.log`;
    assertEquals(Deno.statSync(log).mode! & 0o777, 0o600);
    assertMatch(Deno.readTextFileSync(log), /domterm server \d+ started/);
    const list = await request(socketPath(dir), { op: "list" });
    assertEquals(list?.sessions?.length, 1);
    await request(socketPath(dir), { op: "kill-server" });
    for (let i = 0; i < 50 && await answers(dir); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(await answers(dir), false);

    // --foreground: the server is the terminal's process; the hang-up ends it.
    const fg = spawn(["--foreground"]);
    for (let i = 0; i < 200 && !await answers(dir); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert(await answers(dir), "the foreground server answers");
    fg.kill("SIGHUP");
    const fgStatus = await fg.close();
    assert(fgStatus !== null);
    for (let i = 0; i < 50 && await answers(dir); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(
      await answers(dir),
      false,
      "a foreground server ends with its terminal",
    );
  } finally {
    await request(socketPath(dir), { op: "kill-server" }).catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    Deno.removeSync(dir, { recursive: true });
  }
});
