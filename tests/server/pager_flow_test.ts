/**
 * Flow control and the pager (docs/protocol.md, `pause`): a window whose
 * pager holds output is never left out as stale, so the program waits for
 * it even while another window keeps up; once it lets output go on it is
 * an ordinary window again. Real PTY, real WebSocket.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { STALE_MS } from "../../server/session.ts";
import type { ServerMessage } from "../../core/protocol.ts";
import { autoAck, TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

function wsUrl(port: number): string {
  return `ws://127.0.0.1:${port}/ws`;
}

function readyOf(c: TestClient): Extract<ServerMessage, { type: "ready" }> {
  return c.messages.find((m) => m.type === "ready") as Extract<
    ServerMessage,
    { type: "ready" }
  >;
}

async function hello(c: TestClient, key: string, session?: number) {
  await c.opened;
  c.send({ type: "hello", key, cols: 80, rows: 24, session });
  await c.until(() => readyOf(c) !== undefined, "ready");
}

Deno.test("pager flow: a paused window holds the program back and is never made stale; after pause false it may be", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    highWater: 64 * 1024,
    lowWater: 16 * 1024,
  });
  try {
    const fast = new TestClient(wsUrl(s.port), false);
    await hello(fast, s.key);
    const id = readyOf(fast).session;
    const paused = new TestClient(wsUrl(s.port), false);
    await hello(paused, s.key, id);
    paused.send({ type: "pause", paused: true });
    const stop = autoAck(fast);
    fast.input(
      "stty -echo; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo FLOOD-DONE\r",
    );
    const session = s.sessions.get(id)!;
    // Three times the stale delay: the paused window still holds reading.
    await new Promise((r) => setTimeout(r, 3 * STALE_MS));
    const w = [...session.windows].find((x) => x.paused === true);
    assert(w !== undefined, "the server knows the window is paused");
    assertEquals(w.stale, false, "a paused window is not left out");
    assert(
      session.bytesRead < 1_000_000,
      `the program was held back (read ${session.bytesRead})`,
    );
    // The pager lets go but the window still does not read: now it is an
    // ordinary slow window and is left out, so the flood goes on.
    paused.send({ type: "pause", paused: false });
    await fast.until(
      () => session.bytesRead > 3_000_000,
      "the whole flood read from the PTY",
      30_000,
    );
    assertEquals(w.stale, true, "left out once it no longer paused");
    // A bad pause message is reported, and changes nothing.
    paused.send({ type: "pause", paused: "yes" });
    await paused.until(
      () =>
        paused.messages.some((m) =>
          m.type === "error" && m.message.includes("pause")
        ),
      "error for a bad pause",
    );
    stop();
    await fast.close();
    await paused.close();
  } finally {
    await s.shutdown();
  }
});
