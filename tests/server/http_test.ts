/**
 * The server over a real WebSocket with a real PTY behind it: the key and
 * Origin checks, output, input, resize, exit status, broken messages and
 * flow control.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { CLOSE_BAD_KEY, type ServerMessage } from "../../core/protocol.ts";
import { rawUpgrade, TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

function serve(
  command: string[],
  extra: { highWater?: number; lowWater?: number; closeGraceMs?: number } = {},
) {
  return startServer({
    command: command[0],
    args: command.slice(1),
    assets: ASSETS,
    log: () => {},
    ...extra,
  });
}

function wsUrl(port: number): string {
  return `ws://127.0.0.1:${port}/ws`;
}

async function hello(c: TestClient, key: string, cols = 80, rows = 24) {
  await c.opened;
  c.send({ type: "hello", key, cols, rows });
  await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
}

Deno.test("server: serves the page with a restrictive CSP, 404 elsewhere", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const r = await fetch(`http://127.0.0.1:${s.port}/`);
    assertEquals(r.status, 200);
    assertMatch(
      r.headers.get("content-security-policy") ?? "",
      /script-src 'self'/,
    );
    await r.body?.cancel();
    const r2 = await fetch(`http://127.0.0.1:${s.port}/../../etc/passwd`);
    assertEquals(r2.status, 404);
    await r2.body?.cancel();
    assertMatch(s.url, /^http:\/\/127\.0\.0\.1:\d+\/#key=[A-Za-z0-9_-]{32}$/);
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: a wrong or missing key is rejected and starts nothing", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const c = new TestClient(wsUrl(s.port));
    await c.opened;
    c.send({ type: "hello", key: "wrong", cols: 80, rows: 24 });
    await c.closed;
    assertEquals(c.closeCode, CLOSE_BAD_KEY);
    assertEquals(c.messages[0], { type: "error", message: "wrong server key" });

    const c2 = new TestClient(wsUrl(s.port));
    await c2.opened;
    c2.input("echo sneaky\n"); // input before hello
    await c2.closed;
    assert(c2.closeCode !== 1000);
    assertEquals(s.sessions.size, 0);
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: a foreign Origin is refused, our own accepted", async () => {
  const s = serve(["/bin/sh"]);
  try {
    assertMatch(await rawUpgrade(s.port, "http://evil.example"), / 403 /);
    assertMatch(
      await rawUpgrade(s.port, `http://127.0.0.1:${s.port + 1}`),
      / 403 /,
    );
    assertMatch(
      await rawUpgrade(s.port, `http://127.0.0.1:${s.port}`),
      / 101 /,
    );
    assertMatch(await rawUpgrade(s.port, null), / 101 /);
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: output arrives, input reaches the program, env is set", async () => {
  const s = serve([
    "/bin/sh",
    "-c",
    'echo "env:$TERM:$COLORTERM:$DOMTERM"; read line; echo "got:$line"',
  ]);
  try {
    const c = new TestClient(wsUrl(s.port));
    await hello(c, s.key);
    await c.until(() => c.text.includes("env:"), "env line");
    await c.until(
      () => /\r\n/.test(c.text.split("env:")[1]),
      "end of env line",
    );
    const env = c.text.split("env:")[1].split("\r\n")[0];
    assertMatch(
      env,
      /^xterm-256color:truecolor:version=[\d.]+;tty=\/dev\/pts\/\d+;session#=1;pid=\d+$/,
    );
    c.input("hello there\r");
    await c.until(() => c.text.includes("got:hello there"), "echoed input");
    await c.until(() => c.messages.some((m) => m.type === "exit"), "exit");
    assertEquals(c.messages.at(-1), { type: "exit", code: 0, signal: null });
    await c.closed;
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: exit status 7 is reported and the session is gone", async () => {
  const s = serve(["/bin/sh", "-c", "exit 7"]);
  try {
    const c = new TestClient(wsUrl(s.port));
    await hello(c, s.key);
    await c.until(() => c.messages.some((m) => m.type === "exit"), "exit");
    assertEquals(c.messages.find((m) => m.type === "exit"), {
      type: "exit",
      code: 7,
      signal: null,
    });
    await c.closed;
    assertEquals(s.sessions.size, 0);
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: resize reaches the program (stty size)", async () => {
  const s = serve(["/bin/sh", "-c", "stty size; read x; stty size"]);
  try {
    const c = new TestClient(wsUrl(s.port));
    await hello(c, s.key, 90, 30);
    await c.until(() => c.text.includes("30 90"), "initial size");
    c.send({ type: "resize", cols: 100, rows: 40 });
    // The size reaches the program once it has settled (RESIZE_SETTLE_MS).
    await new Promise((r) => setTimeout(r, 500));
    c.input("\r");
    await c.until(() => c.text.includes("40 100"), "new size");
    await c.closed;
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: broken control messages get an error and lose nothing", async () => {
  const s = serve([
    "/bin/sh",
    "-c",
    "read a; echo first:$a; read b; echo second:$b",
  ]);
  try {
    const c = new TestClient(wsUrl(s.port));
    await hello(c, s.key);
    c.input("one\r");
    c.send("{not json");
    c.send({ type: "resize", cols: -3, rows: 1e9 });
    c.send({ type: "launch-missiles" });
    c.input("two\r");
    await c.until(() => c.text.includes("second:two"), "both lines");
    assertMatch(c.text, /first:one/);
    const errors = c.messages.filter((m) => m.type === "error");
    assertEquals(errors.length, 3);
    await c.closed;
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: the client's files are revalidated (ETag, 304), never sent twice unchanged", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const r = await fetch(`http://127.0.0.1:${s.port}/`);
    assertEquals(r.status, 200);
    assertEquals(await r.text(), ASSETS["/"].body);
    assertEquals(r.headers.get("cache-control"), "no-cache");
    const etag = r.headers.get("etag");
    assertMatch(etag ?? "", /^"[0-9a-f]{24}"$/);
    const again = await fetch(`http://127.0.0.1:${s.port}/`, {
      headers: { "if-none-match": etag! },
    });
    assertEquals(again.status, 304);
    assertEquals(await again.text(), "");
    assertEquals(again.headers.get("etag"), etag);
    const other = await fetch(`http://127.0.0.1:${s.port}/`, {
      headers: { "if-none-match": '"0000"' },
    });
    assertEquals(other.status, 200);
    assertEquals(await other.text(), ASSETS["/"].body);
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: a window closed on purpose ends its session and leaves no child", async () => {
  const s = serve(["/bin/sh", "-c", "sleep 60"], { closeGraceMs: 200 });
  try {
    const c = new TestClient(wsUrl(s.port));
    await hello(c, s.key);
    const session = [...s.sessions.values()][0];
    const pid = session.pty.pid;
    c.send({ type: "closing" });
    await c.close();
    const status = await session.finished;
    assert(status.signal !== null || status.code !== 0, "child was ended");
    let alive = true;
    try {
      Deno.statSync(`/proc/${pid}`);
    } catch {
      alive = false;
    }
    assert(!alive, `process ${pid} still exists`);
  } finally {
    await s.shutdown();
  }
});

Deno.test("server: a window that falls behind stops getting bytes, the program is not held back, and its ack brings a snapshot", async () => {
  // Issue 39: frames of the model for a window that falls behind. (This
  // test was "flow control pauses the PTY and resumes on ack": a window
  // no longer holds the program back.)
  const total = 8_000_000;
  const s = serve(
    [
      "/bin/sh",
      "-c",
      `head -c ${total} /dev/zero | tr '\\0' x; echo; echo done; sleep 30`,
    ],
    { highWater: 256 * 1024, lowWater: 64 * 1024 },
  );
  try {
    const c = new TestClient(wsUrl(s.port), false);
    await hello(c, s.key);
    const session = [...s.sessions.values()][0];
    // Never acknowledged: the program still writes all of it.
    await c.until(
      () => session.bytesRead > total,
      "the whole output read from the PTY",
      60_000,
    );
    assertEquals(session.paused, false);
    const w = [...session.windows][0];
    assertEquals(w.stale, true, "fed frames");
    // Bytes stopped once it was more than the high-water mark behind.
    const got = c.outputLength;
    assert(got < 256 * 1024 + 128 * 1024, `received ${got} bytes unacked`);
    assertEquals(w.sent, got);
    // It catches up with what it got: a snapshot of the model at the
    // offset the program reached, and it is back on bytes.
    const snaps = () => c.messages.filter((m) => m.type === "snapshot");
    const before = snaps().length;
    c.send({ type: "ack", bytes: got });
    await c.until(() => snaps().length > before, "a snapshot");
    type Snap = Extract<ServerMessage, { type: "snapshot" }>;
    let snap = snaps().at(-1) as Snap;
    if (snap.frame) {
      // A frame (the newest lines: docs/protocol.md "Flow control"): once
      // the page acknowledges it and nothing came since, it is in step and
      // gets the whole model.
      const framed = snaps().length;
      c.send({ type: "ack", bytes: 0, frame: snap.offset });
      await c.until(() => snaps().length > framed, "the whole model");
      snap = snaps().at(-1) as Snap;
      assertEquals(snap.frame, undefined, "the whole model, not a frame");
    }
    assertEquals(snap.offset, session.bytesRead);
    assertEquals(w.stale, false);
    const text = JSON.stringify(snap.snapshot);
    assert(text.includes("done"), "the snapshot shows the end of the output");
    c.input("x");
    await c.until(() => w.sent > snap.offset, "bytes again after it");
  } finally {
    await s.shutdown();
  }
});
