/**
 * Flow control when a window's snapshot cannot be made (issue 37 §6, the
 * /dev/urandom stall): a snapshot answers null once the session's emulator
 * failed or closed ("the session goes on without snapshots",
 * server/main_thread_emulator.ts). The output that came while the window
 * waited for it was counted as sent to the window but dropped, so the
 * window could never acknowledge it and, once over the low-water mark,
 * held the program back for good (blocked in `write`, nothing moving).
 * Real PTY, real WebSocket.
 */
import { assert } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import type { ServerMessage } from "../../core/protocol.ts";
import { autoAck, TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

Deno.test("snapshot flow: a window whose snapshot comes back null still gets what came meanwhile, and the program goes on", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    highWater: 16 * 1024,
    lowWater: 4 * 1024,
  });
  const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  let stop = () => {};
  try {
    const session = s.newSession([
      "/bin/sh",
      "-c",
      "read x; head -c 300000 /dev/zero | tr '\\0' a; echo; echo DONE; sleep 100",
    ]);
    // The emulator fails while the window waits for its snapshot: the
    // answer is null, half a second later (output flows meanwhile).
    session.snapshot = async () => {
      await new Promise((r) => setTimeout(r, 500));
      return null;
    };
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24, session: 1 });
    await c.until(
      () => c.messages.some((m: ServerMessage) => m.type === "ready"),
      "ready",
    );
    stop = autoAck(c);
    c.input("go\r");
    await c.until(
      () => c.text.includes("DONE"),
      "DONE (before the fix: the session paused for good, with the window's bytes counted as sent)",
      20_000,
    );
    assert(!c.messages.some((m) => m.type === "snapshot"), "no snapshot");
  } finally {
    stop();
    await c.close();
    await s.shutdown();
  }
});
