/**
 * Many sessions at once (issue 37): a session whose program runs for a long
 * time must not hold one of the threads that Deno runs nonblocking FFI calls
 * on (32 of them), or past about 32 sessions no PTY is read any more. Real
 * PTYs, a real server, a real WebSocket.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

Deno.test("many sessions: with 40 sessions running `sleep 1000`, a 41st echoes within 2 s, and each sleep's exit is reported", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
  });
  const sleepers = [];
  try {
    for (let i = 0; i < 40; i++) {
      sleepers.push(s.newSession(["sleep", "1000"]));
    }
    // Let every sleeper's read loop start waiting for output.
    await new Promise((r) => setTimeout(r, 500));
    const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
    await c.until(
      () => c.messages.some((m) => m.type === "ready"),
      "ready",
    );
    c.input("echo ok-$((6*7))\r");
    const t0 = performance.now();
    await c.until(() => c.text.includes("ok-42"), "the echo", 2000);
    const ms = performance.now() - t0;
    assert(ms < 2000, `echo after ${ms.toFixed(0)} ms`);
    await c.close();

    // Their exits still come through, with the signal that ended them.
    const victim = sleepers[17];
    victim.pty.kill("SIGTERM");
    const status = await victim.finished;
    assertEquals(status, { code: null, signal: 15 });
  } finally {
    await s.shutdown();
  }
});
