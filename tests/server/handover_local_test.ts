/**
 * `domterm restart-server` of a `--listen` server keeps the loopback
 * listener of the user's own windows (server/http.ts needsLocalListener:
 * here, a password) on its port: a window opened from `domterm new`'s URL
 * reconnects to the new server at the same address and resumes, and the
 * URLs the new server gives are the same.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { request, socketPath } from "../../server/control.ts";
import { hashPassword } from "../../server/remote/password.ts";
import { TestClient } from "./ws_client.ts";
import { spawnServer } from "../e2e/domterm.ts";
import { runDomterm } from "../run_domterm.ts";
import { running, waitFor } from "../handover_server.ts";

/** A window on `session` at `url`'s listener; `offset`: resume from there. */
async function attach(url: URL, session: number, offset = 0) {
  const key = /key=([^&]+)/.exec(url.hash)![1];
  const c = new TestClient(`ws://${url.host}/ws`);
  await c.opened;
  assertEquals(c.closeCode, null, `nobody listens on ${url.host}`);
  c.send({
    type: "hello",
    key,
    cols: 80,
    rows: 24,
    session,
    ...(offset > 0 ? { offset, gridSeq: 0 } : {}),
  });
  await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
  return c;
}

Deno.test("restart-server of a --listen server: its own windows' loopback listener keeps its port", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-handover-local-" });
  const pw = `${dir}/password`;
  Deno.writeTextFileSync(pw, (await hashPassword("a long pass phrase")) + "\n");
  const env = {
    DOMTERM_RUNTIME_DIR: `${dir}/run`,
    XDG_STATE_HOME: `${dir}/state`,
    DOMTERM_SOCKET: "",
  };
  const sock = socketPath(env.DOMTERM_RUNTIME_DIR);
  const { child, url: printed } = await spawnServer(
    ["--listen", "127.0.0.1:0", "--password-file", pw, "--", "/bin/sh"],
    env,
  );
  try {
    await waitFor(
      async () => (await request(sock, { op: "info" })) !== null,
      "the server",
    );
    const made = await runDomterm(
      ["new", "--no-browser", "--", "/bin/sh", "-c", "exec cat"],
      env,
    );
    assertEquals(made.code, 0, made.stderr);
    const local = new URL(made.stdout.trim());
    const remote = new URL(printed);
    assert(local.port !== remote.port, "a loopback listener of its own");
    const session = Number(/session=(\d+)/.exec(local.hash)![1]);
    const c = await attach(local, session);
    c.input("before\n");
    await c.until(() => c.text.includes("before\r\nbefore\r\n"), "cat");
    const offset = c.outputLength;
    const oldPid = (await request(sock, { op: "info" }))!.pid!;

    const out = await runDomterm(["restart-server"], env);
    assertEquals(out.code, 0, out.stderr);
    assertMatch(out.stderr, /the server restarted: pid \d+ -> \d+, 1 sessions/);
    await c.closed;
    await waitFor(() => !running(oldPid), "the old server to exit");

    // The same address, the same key: the window resumes where it was.
    const again = await attach(local, session, offset);
    const ready = again.messages.find((m) => m.type === "ready") as {
      resumed?: boolean;
    };
    assert(ready.resumed, "resumed from its offset");
    again.input("after\n");
    await again.until(() => again.text.includes("after\r\nafter\r\n"), "cat");
    await again.close();
    const next = await runDomterm(
      ["new", "--no-browser", "--", "/bin/cat"],
      env,
    );
    assertEquals(new URL(next.stdout.trim()).port, local.port);
  } finally {
    await request(sock, { op: "kill-server" });
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
  }
});
