/**
 * A session (server/session.ts) with viewers that are not WebSockets
 * (server/viewer.ts): a real program on a real PTY tells a recording
 * viewer `ready`, a snapshot, its output, a grid change and its exit in
 * stream order, then ends it; detaching on purpose ends every viewer with
 * "detached". And the wire codec's snapshot frame (core/protocol.ts).
 */
import { assert, assertEquals } from "../assert.ts";
import { Session } from "../../server/session.ts";
import type { Viewer, ViewerEnd } from "../../server/viewer.ts";
import { encodeServerMessage } from "../../core/protocol.ts";

/** Session `id` running `sh -c script` on an 80x24 PTY, no shell integration. */
function shSession(id: number, script: string): Session {
  return Session.start({
    id,
    command: "/bin/sh",
    args: ["-c", script],
    cols: 80,
    rows: 24,
    shellIntegration: false,
  });
}

Deno.test("session viewer: ready, snapshot, output, grid, exit and the end, in stream order", async () => {
  const session = shSession(1, "read line; echo got-$line; exit 3");
  const seen: string[] = [];
  let text = "";
  const decoder = new TextDecoder();
  let ended: ViewerEnd | null = null;
  const viewer: Viewer = {
    output(data) {
      text += decoder.decode(data, { stream: true });
      if (seen.at(-1) !== "output") seen.push("output");
    },
    snapshot(snap) {
      assertEquals(typeof JSON.parse(snap.json), "object");
      seen.push("snapshot");
    },
    message(msg) {
      seen.push(msg.type);
      if (msg.type === "exit") assertEquals(msg.code, 3);
      if (msg.type === "ready") {
        assertEquals(msg.session, 1);
        assertEquals(msg.scrollback, 500);
        assertEquals(msg.resumed, false);
      }
    },
    end(why) {
      ended = why;
      seen.push(`end:${why}`);
    },
  };
  const w = session.attach(viewer, 100, 30, { scrollback: 500 });
  assertEquals([session.cols, session.rows], [100, 30]);
  await session.input(new TextEncoder().encode("hi\n"), w);
  const status = await session.finished;
  assertEquals(status.code, 3);
  assert(text.includes("got-hi"), `output: ${JSON.stringify(text)}`);
  assertEquals(ended, "ended");
  // The snapshot is asked for before the attach changes the grid: the
  // grid change follows it, as every later message does; the exit comes
  // after all output.
  assertEquals(seen[0], "ready");
  assertEquals(seen.filter((e) => e === "snapshot").length, 1);
  assertEquals(seen.indexOf("grid"), seen.indexOf("snapshot") + 1);
  assert(seen.indexOf("output") > seen.indexOf("snapshot"), seen.join(" "));
  assertEquals(seen.slice(-2), ["exit", "end:ended"]);
});

Deno.test("session viewer: detachAll tells every viewer and ends it with 'detached'; the program goes on", async () => {
  const session = shSession(2, "sleep 30");
  try {
    const log: string[][] = [[], []];
    const viewers = log.map((l): Viewer => ({
      output: () => {},
      snapshot: () => l.push("snapshot"),
      message: (m) =>
        l.push(m.type === "detached" ? `detached ${m.session}` : m.type),
      end: (why) => l.push(`end:${why}`),
    }));
    for (const v of viewers) session.attach(v, 80, 24);
    session.detachAll();
    assertEquals(session.windows.size, 0);
    for (const l of log) {
      assertEquals(l.slice(-2), ["detached 2", "end:detached"]);
    }
    assertEquals(session.exitStatus, null);
  } finally {
    await session.close();
  }
});

Deno.test("protocol: a snapshot frame is the message with the JSON text put in as it is", () => {
  const json = '{"v":1,"cols":80}';
  const text = encodeServerMessage(
    { type: "snapshot", offset: 12, gridSeq: 3 },
    json,
  );
  assertEquals(JSON.parse(text), {
    type: "snapshot",
    offset: 12,
    gridSeq: 3,
    snapshot: { v: 1, cols: 80 },
  });
  assertEquals(text.endsWith(`"snapshot":${json}}`), true);
  assertEquals(
    encodeServerMessage({ type: "exit", code: 0, signal: null }),
    '{"type":"exit","code":0,"signal":null}',
  );
});

Deno.test("session viewer: a read-only viewer that never acks or pauses does not hold the program back", async () => {
  const session = shSession(3, "seq 1 400000; echo seq-done");
  const decoder = new TextDecoder();
  let ownerText = "";
  let watcherBytes = 0;
  let ownerWin: ReturnType<typeof session.attach> | null = null;
  // The owner keeps up: it acks every byte it gets.
  const owner: Viewer = {
    output(data) {
      ownerText = (ownerText + decoder.decode(data, { stream: true })).slice(
        -100,
      );
      queueMicrotask(() => session.ack(ownerWin!, data.length));
    },
    snapshot: () => {},
    message: () => {},
    end: () => {},
  };
  // A read-only window (a share): paused by its pager, it acks nothing.
  const watcher: Viewer = {
    readOnly: true,
    output: (data) => watcherBytes += data.length,
    snapshot: () => {},
    message: () => {},
    end: () => {},
  };
  ownerWin = session.attach(owner, 80, 24);
  const watcherWin = session.attach(watcher, 80, 24);
  session.pause(watcherWin, true);
  const timeout = new Promise<"stuck">((r) => {
    const t = setTimeout(() => r("stuck"), 20_000);
    Deno.unrefTimer(t);
  });
  const status = await Promise.race([session.finished, timeout]);
  try {
    assert(status !== "stuck", `the program was held back (${ownerText})`);
    assert(ownerText.includes("seq-done"), ownerText);
    // The watcher got about the high-water mark, then was left out.
    assert(watcherBytes < 2 * 1024 * 1024, `watcher got ${watcherBytes}`);
  } finally {
    await session.close();
  }
});

Deno.test("session viewer: a session domterm ends says why in its exit message", async () => {
  const session = shSession(4, "sleep 30");
  const exits: unknown[] = [];
  session.attach(
    {
      output: () => {},
      snapshot: () => {},
      message: (m) => {
        if (m.type === "exit") exits.push(m);
      },
      end: () => {},
    },
    80,
    24,
  );
  await session.close("the domterm server was stopped (SIGTERM)");
  assertEquals(exits, [{
    type: "exit",
    code: null,
    signal: 1,
    reason: "the domterm server was stopped (SIGTERM)",
  }]);
});
