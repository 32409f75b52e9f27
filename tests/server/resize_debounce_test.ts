/**
 * Resize debouncing over a real WebSocket and a real PTY: a burst of
 * resize messages (a window being dragged) reaches the program as one
 * SIGWINCH with the last size, once the size has settled.
 */
import { assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { RESIZE_SETTLE_MS } from "../../server/session.ts";
import { TestClient } from "./ws_client.ts";

/**
 * A shell that reports every SIGWINCH with the size it sees, and on a line
 * of input prints how many it got.
 */
const SCRIPT = [
  "n=0",
  `trap 'n=$((n+1)); echo "winch $n: $(stty size)"' WINCH`,
  "echo ready",
  // `read` may be cut short by the trap: read again until a line comes.
  'while :; do read x && [ "$x" = done ] && break; done',
  'echo "total $n"',
].join("; ");

function serve() {
  return startServer({
    command: "/bin/sh",
    args: ["-c", SCRIPT],
    assets: { "/": { type: "text/html", body: "<!DOCTYPE html>" } },
    log: () => {},
  });
}

async function connect(port: number, key: string): Promise<TestClient> {
  const c = new TestClient(`ws://127.0.0.1:${port}/ws`);
  await c.opened;
  c.send({ type: "hello", key, cols: 80, rows: 24 });
  await c.until(() => c.text.includes("ready"), "the script to start");
  return c;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function winches(c: TestClient): string[] {
  return c.text.split(/\r?\n/).filter((l) => l.startsWith("winch "));
}

Deno.test("server: 20 quick resizes give the program one SIGWINCH with the last size", async () => {
  const s = serve();
  try {
    const c = await connect(s.port, s.key);
    for (let i = 1; i <= 20; i++) {
      c.send({ type: "resize", cols: 80 + i, rows: 24 + i });
      await sleep(5); // a drag: one size per frame or so
    }
    await c.until(() => winches(c).length > 0, "a SIGWINCH");
    // Long enough for any further (wrong) SIGWINCH to show up.
    await sleep(RESIZE_SETTLE_MS * 4);
    c.input("done\r");
    await c.until(() => c.text.includes("total "), "the total");
    assertEquals(winches(c), ["winch 1: 44 100"]);
    assertEquals(/total (\d+)/.exec(c.text)?.[1], "1");
    await c.closed;
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: resizes apart in time each reach the program", async () => {
  const s = serve();
  try {
    const c = await connect(s.port, s.key);
    c.send({ type: "resize", cols: 90, rows: 30 });
    await c.until(() => winches(c).length === 1, "the first SIGWINCH");
    c.send({ type: "resize", cols: 70, rows: 20 });
    c.send({ type: "resize", cols: 72, rows: 21 });
    await c.until(() => winches(c).length === 2, "the second SIGWINCH");
    await sleep(RESIZE_SETTLE_MS * 4);
    c.input("done\r");
    await c.until(() => c.text.includes("total "), "the total");
    assertEquals(winches(c), ["winch 1: 30 90", "winch 2: 21 72"]);
    await c.closed;
  } finally {
    await s.shutdown();
  }
});
