/**
 * A window relayed by `domterm ssh-stdio` (docs/ssh.md) comes straight to
 * the remote server's loopback listener, but its page is across the ssh
 * link: its hello says `relayed`, and the server measures its link from
 * its acks (server/frames/policy.ts, DrainMeter) instead of taking it for
 * loopback. Without that, a slow ssh link got HIGH_WATER (1 MiB) in
 * flight and held the program back STALE_MS before frames (issue 39,
 * target 5 through `domterm user@host`).
 */
import { assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

/** Whether the server takes a window whose acks come 150 ms late for a remote one. */
async function remoteWith(relayed: boolean): Promise<boolean> {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
  });
  const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`, false);
  try {
    await c.opened;
    c.send({
      type: "hello",
      key: s.key,
      cols: 80,
      rows: 24,
      ...(relayed ? { relayed: true } : {}),
    });
    await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
    // The page acknowledges `ready` at once; across a slow link that is a
    // round trip later.
    await new Promise((r) => setTimeout(r, 150));
    c.send({ type: "ack", bytes: 0 });
    const session = [...s.sessions.values()][0];
    const win = [...session.windows][0];
    let remote = false;
    for (let i = 0; i < 100 && !remote; i++) {
      await new Promise((r) => setTimeout(r, 20));
      remote = session.linkRemote(win);
    }
    return remote;
  } finally {
    await c.close();
    await s.shutdown();
  }
}

Deno.test("relayed link: a window relayed over ssh is measured from its acks, a direct one is loopback", async () => {
  assertEquals(await remoteWith(true), true);
  assertEquals(await remoteWith(false), false);
});
