/**
 * Sessions owned by the server, over real WebSockets with a real PTY: a
 * lost connection detaches, a reconnect resumes from the byte it had (or
 * gets a snapshot), several windows share one session, the grid follows
 * the window last used, a window that stops reading does not stall the
 * others, and a window that attaches sees exactly the server's model.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import {
  CLOSE_DETACHED,
  CLOSE_NO_SESSION,
  type ServerMessage,
} from "../../core/protocol.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import { autoAck, TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

type Extra = Partial<Parameters<typeof startServer>[0]>;

function serve(command: string[], extra: Extra = {}) {
  return startServer({
    command: command[0],
    args: command.slice(1),
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    ...extra,
  });
}

function wsUrl(port: number): string {
  return `ws://127.0.0.1:${port}/ws`;
}

function msgs<T extends ServerMessage["type"]>(
  c: TestClient,
  type: T,
): Extract<ServerMessage, { type: T }>[] {
  return c.messages.filter((m) => m.type === type) as Extract<
    ServerMessage,
    { type: T }
  >[];
}

async function hello(
  c: TestClient,
  key: string,
  extra: Record<string, unknown> = {},
  cols = 80,
  rows = 24,
) {
  await c.opened;
  c.send({ type: "hello", key, cols, rows, ...extra });
  await c.until(
    () => c.messages.some((m) => m.type === "ready" || m.type === "error"),
    "ready",
  );
}

/** The server's model of `session` now. */
async function serverModel(
  session: { snapshot(): Promise<{ json: string } | null> },
): Promise<Terminal> {
  const snap = await session.snapshot();
  assert(snap !== null, "the session has a model");
  return Terminal.restore(JSON.parse(snap.json));
}

Deno.test("sessions: a dropped connection detaches; attaching again shows the same screen and the program goes on", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key);
    const ready = msgs(a, "ready")[0];
    assertEquals(ready.resumed, false);
    await a.until(() => msgs(a, "snapshot").length === 1, "the snapshot");
    a.input("printf 'one\\ntwo\\n'; PS1='$ '\r");
    await a.until(() => a.text.includes("two"), "output");
    const session = s.sessions.get(ready.session)!;
    const pid = session.pty.pid;
    // Drop the socket without saying goodbye (a crash, a lost network).
    await a.close();
    await new Promise((r) => setTimeout(r, 300));
    assert(s.sessions.has(ready.session), "the session is still there");
    assertEquals(session.exitStatus, null);
    Deno.statSync(`/proc/${pid}`);
    assert(session.detachedSince !== null, "it is detached");

    // Output while detached lands in the server's model.
    await session.input(new TextEncoder().encode("echo detached-$((6*7))\r"));
    await new Promise((r) => setTimeout(r, 500));

    const b = new TestClient(wsUrl(s.port));
    await hello(b, s.key, { session: ready.session });
    assertEquals(msgs(b, "ready")[0].session, ready.session);
    await b.until(() => msgs(b, "snapshot").length === 1, "the snapshot");
    const snap = msgs(b, "snapshot")[0];
    const view = Terminal.restore(
      snap.snapshot as Parameters<typeof Terminal.restore>[0],
    );
    assertEquals(modelHash(view), modelHash(await serverModel(session)));
    const text = [];
    for (let y = 0; y < view.rows; y++) {
      text.push(view.buffer.screenLine(y).toString(true));
    }
    assertMatch(text.join("\n"), /detached-42/);
    // And the program still answers.
    b.input("echo back-$((1+1))\r");
    await b.until(() => b.text.includes("back-2"), "the shell answers");
    await b.close();
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: a reconnect with an offset gets exactly the missing bytes", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key);
    const id = msgs(a, "ready")[0].session;
    const stop = autoAck(a);
    // Slow output, so that the drop falls in the middle of it.
    a.input(
      "stty -echo; PS1=''; for i in $(seq 1 400); do echo $i; sleep 0.005; done\r",
    );
    await a.until(() => a.text.includes("\n50\r\n"), "some of the output");
    // Drop now; what arrived so far is what this window processed.
    stop();
    const had = a.output.slice();
    await a.close();
    const session = s.sessions.get(id)!;
    await new Promise((r) => setTimeout(r, 500));
    const snapOffset = msgs(a, "snapshot")[0].offset;

    const b = new TestClient(wsUrl(s.port));
    await hello(b, s.key, {
      session: id,
      offset: snapOffset + had.length,
      gridSeq: 0,
    });
    const r = msgs(b, "ready")[0];
    assertEquals(r.resumed, true);
    assertEquals(r.offset, snapOffset + had.length);
    await b.until(() => b.text.includes("\n400\r\n"), "the rest", 20_000);
    assertEquals(msgs(b, "snapshot").length, 0);
    const all = new Uint8Array(had.length + b.output.length);
    all.set(had);
    all.set(b.output, had.length);
    const text = new TextDecoder().decode(all);
    // (The shell's first prompt may land in front of the first number.)
    const numbers = text.split("\r\n").map((l) => l.replace(/^# /, ""))
      .filter((l) => /^\d+$/.test(l));
    // Every number once, in order: nothing lost, nothing doubled.
    assertEquals(numbers.length, 400, JSON.stringify(text.slice(0, 300)));
    for (let i = 0; i < 400; i++) assertEquals(numbers[i], String(i + 1));
    assert(had.length > 0 && b.output.length > 0, "the drop split the output");
    assertEquals(session.bytesRead, snapOffset + all.length);
    await b.close();
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: a reconnect from further back than the replay log gets a snapshot", async () => {
  const s = serve(["/bin/sh"], { replayBytes: 1024 });
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key);
    const id = msgs(a, "ready")[0].session;
    const stop = autoAck(a);
    a.input("stty -echo; PS1=''; seq 1 3000; echo END\r");
    await a.until(() => a.text.includes("\nEND"), "the output");
    stop();
    await a.close();
    const b = new TestClient(wsUrl(s.port));
    await hello(b, s.key, { session: id, offset: 10, gridSeq: 0 });
    assertEquals(msgs(b, "ready")[0].resumed, false);
    await b.until(() => msgs(b, "snapshot").length === 1, "a snapshot");
    const session = s.sessions.get(id)!;
    const view = Terminal.restore(
      msgs(b, "snapshot")[0].snapshot as Parameters<typeof Terminal.restore>[0],
    );
    assertEquals(modelDiff(view, await serverModel(session)), null);
    await b.close();
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: attaching to a session that does not exist is refused and starts nothing", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const c = new TestClient(wsUrl(s.port));
    await hello(c, s.key, { session: 99 });
    await c.closed;
    assertEquals(c.closeCode, CLOSE_NO_SESSION);
    assertMatch(msgs(c, "error")[0].message, /no session 99/);
    assertEquals(s.sessions.size, 0);
    const bad = new TestClient(wsUrl(s.port));
    await bad.opened;
    bad.send({ type: "hello", key: s.key, cols: 80, rows: 24, offset: -1 });
    await bad.closed;
    assertEquals(s.sessions.size, 0);
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: closing on purpose hangs up only after the grace time; a reload within it keeps the session", async () => {
  const s = serve(["/bin/sh", "-c", "sleep 60"], { closeGraceMs: 600 });
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key);
    const id = msgs(a, "ready")[0].session;
    const session = s.sessions.get(id)!;
    a.send({ type: "closing" });
    await a.close();
    // A reload: the new page attaches within the grace time.
    await new Promise((r) => setTimeout(r, 200));
    const b = new TestClient(wsUrl(s.port));
    await hello(b, s.key, { session: id });
    await new Promise((r) => setTimeout(r, 800));
    assertEquals(session.exitStatus, null, "the reload kept the session");
    // Now closed for good.
    b.send({ type: "closing" });
    await b.close();
    const status = await session.finished;
    assert(status.signal !== null || status.code !== 0, "hung up");
    assert(!s.sessions.has(id));
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: two windows show the same output; input from either reaches the program; the grid follows the window last used", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key, {}, 100, 30);
    const id = msgs(a, "ready")[0].session;
    const b = new TestClient(wsUrl(s.port));
    await hello(b, s.key, { session: id }, 60, 20);
    const session = s.sessions.get(id)!;
    // The first window keeps the size until the second one is used.
    assertEquals([session.cols, session.rows], [100, 30]);
    a.input("PS1='$ '; echo from-a\r");
    await b.until(() => b.text.includes("from-a"), "a's output in b");
    await a.until(() => a.text.includes("from-a"), "a's output in a");
    b.input("echo from-b\r");
    await b.until(() => session.cols === 60, "b's grid");
    b.input("stty size\r");
    await a.until(() => a.text.includes("from-b"), "b's output in a");
    // b typed: the grid is b's, and both windows were told so in the stream.
    await a.until(() => a.text.includes("20 60"), "stty size 20 60");
    assertEquals([session.cols, session.rows], [60, 20]);
    const grid = (c: TestClient) => msgs(c, "grid").at(-1);
    assertEquals([grid(a)?.cols, grid(a)?.rows], [60, 20]);
    assertEquals([grid(b)?.cols, grid(b)?.rows], [60, 20]);
    // a resizes while it is not the active window: nothing changes.
    a.send({ type: "resize", cols: 90, rows: 25 });
    await new Promise((r) => setTimeout(r, 300));
    assertEquals([session.cols, session.rows], [60, 20]);
    // a gets the focus: its size wins.
    a.send({ type: "focus" });
    await a.until(() => session.cols === 90, "a's size");
    assertEquals(session.rows, 25);
    await a.close();
    await b.close();
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: detach on purpose closes every window with 4004 and keeps the session", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key);
    const id = msgs(a, "ready")[0].session;
    const b = new TestClient(wsUrl(s.port));
    await hello(b, s.key, { session: id });
    b.send({ type: "detach" });
    await a.until(() => msgs(a, "detached").length > 0, "detached");
    // The socket stays open for the page to close; what comes on it no
    // longer reaches the program.
    a.input("exit 5\r");
    await a.closed;
    await b.closed;
    assertEquals(a.closeCode, CLOSE_DETACHED);
    assertEquals(b.closeCode, CLOSE_DETACHED);
    assertEquals(msgs(a, "detached")[0].session, id);
    const session = s.sessions.get(id)!;
    assertEquals(session.exitStatus, null);
    assertEquals(session.windows.size, 0);
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: a window that stops reading does not stall the program for the others, and is resynced by a snapshot", async () => {
  const s = serve(["/bin/sh"], { highWater: 64 * 1024, lowWater: 16 * 1024 });
  try {
    const fast = new TestClient(wsUrl(s.port), false);
    await hello(fast, s.key);
    const id = msgs(fast, "ready")[0].session;
    const slow = new TestClient(wsUrl(s.port), false);
    await hello(slow, s.key, { session: id });
    const stop = autoAck(fast);
    fast.input(
      "stty -echo; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo FLOOD-DONE\r",
    );
    const session = s.sessions.get(id)!;
    // The slow window never acknowledges: after STALE_MS it is left out.
    await fast.until(
      () => session.bytesRead > 3_000_000,
      "the whole flood read from the PTY",
      30_000,
    );
    // The slow window is the one that acknowledged least (the fast one
    // may be fed frames for a moment too, on a loaded machine).
    const w = [...session.windows].sort((a, b) => a.acked - b.acked)[0];
    assert(w.stale, "the slow window was left out of flow control");
    assert(slow.outputLength < 1_000_000, `slow got ${slow.outputLength}`);
    // It catches up with what it was sent: a fresh snapshot.
    const before = msgs(slow, "snapshot").length;
    slow.send({ type: "ack", bytes: w.sent - w.acked });
    await slow.until(
      () => msgs(slow, "snapshot").length > before,
      "a resync snapshot",
    );
    // A frame (the newest history lines only): once it is acknowledged
    // and nothing came since, the window is in step: the whole model, then
    // bytes again.
    const frame = msgs(slow, "snapshot").at(-1)!;
    if (frame.frame) {
      const wholes = msgs(slow, "snapshot").filter((m) => !m.frame).length;
      slow.send({ type: "ack", bytes: 0, frame: frame.offset });
      await slow.until(
        () =>
          msgs(slow, "snapshot").filter((m) => !m.frame).length > wholes &&
          !w.stale,
        "the whole model once in step",
      );
    }
    assertEquals(w.stale, false);
    stop();
    await fast.close();
    await slow.close();
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: the server's emulator answers queries while no window is attached", async () => {
  const s = serve(["/bin/bash", "--norc", "--noprofile"]);
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key);
    const id = msgs(a, "ready")[0].session;
    a.input("PS1='$ '; stty -echo\r");
    await new Promise((r) => setTimeout(r, 300));
    await a.close();
    const session = s.sessions.get(id)!;
    // Ask for the cursor position while detached; print what came back.
    await session.input(
      new TextEncoder().encode(
        "printf '\\033[6n'; IFS= read -rs -d R -t 3 r; echo \"got:${r:1}R\"\r",
      ),
    );
    const b = new TestClient(wsUrl(s.port));
    await new Promise((r) => setTimeout(r, 1000));
    await hello(b, s.key, { session: id });
    await b.until(() => msgs(b, "snapshot").length === 1, "snapshot");
    const view = Terminal.restore(
      msgs(b, "snapshot")[0].snapshot as Parameters<typeof Terminal.restore>[0],
    );
    const lines = [];
    for (let i = 0; i < view.normalBuffer.length; i++) {
      lines.push(view.normalBuffer.getLine(i).toString(true));
    }
    assertMatch(lines.join("\n"), /got:\[\d+;\d+R/);
    await b.close();
  } finally {
    await s.shutdown();
  }
});

Deno.test("sessions: clear-history empties the server's history and reaches every window in stream order, a reconnect too", async () => {
  const s = serve(["/bin/sh"]);
  try {
    const a = new TestClient(wsUrl(s.port));
    await hello(a, s.key);
    const id = msgs(a, "ready")[0].session;
    const stopA = autoAck(a);
    const b = new TestClient(wsUrl(s.port));
    await hello(b, s.key, { session: id });
    const stopB = autoAck(b);
    a.input("stty -echo; PS1=''; seq 1 100; echo filled\r");
    // "\nfilled": the echo of the command line holds "filled" too.
    await a.until(() => a.text.includes("\nfilled"), "the output");
    await b.until(() => b.text.includes("\nfilled"), "the output in b");
    const session = s.sessions.get(id)!;
    assert((await serverModel(session)).normalBuffer.historyLength > 50);

    const before = session.bytesRead;
    b.send({ type: "clear-history" });
    for (const c of [a, b]) {
      await c.until(
        () => msgs(c, "grid").some((g) => g.clearHistory === true),
        "the clear",
      );
    }
    const g = msgs(a, "grid").find((m) => m.clearHistory)!;
    assertEquals([g.cols, g.rows], [80, 24], "the grid is kept");
    assertEquals((await serverModel(session)).normalBuffer.historyLength, 0);
    // A window that had the stream up to the clear gets it again on resume.
    stopA();
    const snapOffset = msgs(a, "snapshot")[0].offset;
    const had = a.output.length;
    await a.close();
    assertEquals(snapOffset + had, before, "a had everything before the clear");
    const c = new TestClient(wsUrl(s.port));
    await hello(c, s.key, {
      session: id,
      offset: before,
      gridSeq: g.seq - 1,
    });
    assertEquals(msgs(c, "ready")[0].resumed, true);
    await c.until(
      () => msgs(c, "grid").some((m) => m.clearHistory && m.seq === g.seq),
      "the clear replayed",
    );
    b.input("echo still\r");
    await b.until(() => b.text.includes("still"), "the shell goes on");
    stopB();
    await b.close();
    await c.close();
  } finally {
    await s.shutdown();
  }
});
