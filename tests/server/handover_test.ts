/**
 * `domterm restart-server` with real server processes, real PTYs and
 * WebSocket windows: the programs go on (same pids, a background job too,
 * typed text still in the tty), a window resumes at its offset with no
 * byte lost or doubled (a flood across the handover), a new server that
 * fails leaves the old one serving, and a program that exits after the
 * handover is reported (status unknown).
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { TestClient } from "./ws_client.ts";
import { request, socketPath } from "../../server/control.ts";
import { UNKNOWN_EXIT_REASON } from "../../server/session.ts";
import { CLOSE_RESTARTING, type ServerMessage } from "../../core/protocol.ts";
import {
  domterm,
  type HandoverServer,
  newSession,
  running,
  serverPid,
  startHandoverServer,
  stopHandoverServer,
  waitFor,
} from "../handover_server.ts";

/** A window on `session`: its stream position is what it received. */
class Window {
  client!: TestClient;
  /** Offset of the stream after the last byte received. */
  offset = 0;
  gridSeq = 0;
  /** Everything received since the first attach, as the page would have it. */
  text = "";
  #dec = new TextDecoder();
  #acked = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(readonly s: HandoverServer, readonly session: number) {}

  /** Attach (again: with the offset, as a reconnecting page does); retries while nobody listens. */
  async attach(): Promise<Extract<ServerMessage, { type: "ready" }>> {
    for (let i = 0;; i++) {
      const c = new TestClient(`ws://127.0.0.1:${this.s.port}/ws`);
      await c.opened;
      if (c.closeCode !== null) {
        if (i > 200) throw new Error("nobody listens");
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      this.client = c;
      break;
    }
    const c = this.client;
    const resume = this.offset > 0
      ? { offset: this.offset, gridSeq: this.gridSeq }
      : {};
    c.send({
      type: "hello",
      key: this.s.key,
      cols: 80,
      rows: 24,
      session: this.session,
      ...resume,
    });
    let seen = 0, used = 0;
    this.#acked = 0;
    // Follow the stream as the page's Connection does.
    this.#timer = setInterval(() => {
      for (; seen < c.messages.length; seen++) {
        const m = c.messages[seen];
        if (m.type === "snapshot") {
          this.offset = m.offset;
          this.gridSeq = m.gridSeq;
        } else if (m.type === "grid") this.gridSeq = m.seq;
      }
      if (c.outputLength > used) {
        this.text += this.#dec.decode(c.output.subarray(used), {
          stream: true,
        });
        this.offset += c.outputLength - used;
        used = c.outputLength;
      }
      if (c.outputLength > this.#acked && c.closeCode === null) {
        c.send({ type: "ack", bytes: c.outputLength - this.#acked });
        this.#acked = c.outputLength;
      }
    }, 5);
    await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
    return c.messages.find((m) => m.type === "ready") as Extract<
      ServerMessage,
      { type: "ready" }
    >;
  }

  /** Wait until the text received matches `re`. */
  async until(re: RegExp, what: string, ms = 20_000): Promise<void> {
    await waitFor(() => re.test(this.text), what, ms).catch(() => {
      throw new Error(`${what}: got ${JSON.stringify(this.text.slice(-300))}`);
    });
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

Deno.test("restart-server: the programs go on, a window resumes at its offset, nothing lost or doubled", async () => {
  const s = await startHandoverServer(["/bin/sh"]);
  try {
    const id = await newSession(s, [
      "/bin/sh",
      "-c",
      "read go; sleep 1000 & echo BG=$!; exec cat",
    ]);
    const w = new Window(s, id);
    await w.attach();
    w.client.input("\n");
    await w.until(/BG=\d+/, "the background job's pid");
    const bg = Number(/BG=(\d+)/.exec(w.text)![1]);
    const list = await request(socketPath(s.dir), { op: "list" });
    const pid = list!.sessions!.find((x) => x.id === id)!.pid;
    // Typed text that cat has not read yet (the tty holds the line).
    w.client.input("unsaved");
    await w.until(/unsaved/, "the echo");
    const oldPid = await serverPid(s);
    const share = await request(socketPath(s.dir), {
      op: "share",
      session: id,
      readOnly: true,
    });
    const token = /key=([^&]+)/.exec(share!.url!)![1];

    const out = await domterm(s, ["restart-server"]);
    assertEquals(out.code, 0, out.stderr);
    assertMatch(out.stderr, /the server restarted: pid \d+ -> \d+, 1 sessions/);
    assertEquals((await s.first.status).code, 0, "the old server exits");
    await w.client.closed;
    // Told to reconnect (1001 when the listener closed before the close
    // handshake ended: the page reconnects after either).
    assert(
      [CLOSE_RESTARTING, 1001].includes(w.client.closeCode!),
      `close code ${w.client.closeCode}`,
    );
    w.stop();
    const newPid = await serverPid(s);
    assert(newPid !== oldPid, "another server answers");
    assert(running(pid) && running(bg), "the program and its job run on");

    const ready = await w.attach();
    assert(ready.resumed, "resumed from its offset, not a snapshot");
    assertEquals(ready.pid, pid);
    // A share link made before the restart still opens the session.
    const viewer = new Window({ ...s, key: token }, id);
    assertEquals((await viewer.attach()).session, id);
    viewer.stop();
    await viewer.client.close();
    w.client.input(" text\n");
    await w.until(/unsaved text\r\nunsaved text\r\n$/, "cat's line, once");
    assertEquals(w.text.match(/BG=/g)?.length, 1, "nothing doubled");
    assertEquals(
      w.text.match(/unsaved/g)?.length,
      2,
      "the echo, then the line",
    );
    // A second restart: from a server that adopted the session.
    const again = await domterm(s, ["restart-server"]);
    assertEquals(again.code, 0, again.stderr);
    await w.client.closed;
    w.stop();
    await w.attach();
    w.client.input("more\n");
    await w.until(/more\r\nmore\r\n$/, "cat after two restarts");
    assert(running(pid) && running(bg));
    w.stop();
    await w.client.close();
  } finally {
    await stopHandoverServer(s);
  }
});

Deno.test("restart-server during a flood: every line once, in order", async () => {
  const s = await startHandoverServer(["/bin/sh"]);
  try {
    const id = await newSession(s, [
      "/bin/sh",
      "-c",
      "read go; seq 1 300000; read end",
    ]);
    const w = new Window(s, id);
    await w.attach();
    w.client.input("\n");
    await w.until(/\n2000\r\n/, "the flood under way");
    const out = await domterm(s, ["restart-server"]);
    assertEquals(out.code, 0, out.stderr);
    await w.client.closed;
    w.stop();
    const ready = await w.attach();
    assert(ready.resumed, "resumed from its offset");
    await w.until(/\n300000\r\n/, "the end of the flood", 60_000);
    const lines = w.text.split("\r\n").slice(1, -1);
    assertEquals(lines.length, 300000, "no line lost or doubled");
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== String(i + 1)) {
        throw new Error(`line ${i + 1} is ${JSON.stringify(lines[i])}`);
      }
    }
    w.stop();
    await w.client.close();
  } finally {
    await stopHandoverServer(s);
  }
});

Deno.test("restart-server: a new server that fails leaves the old one serving", async () => {
  // The hook makes every new server refuse after it received everything.
  const s = await startHandoverServer(["/bin/sh"], {
    DOMTERM_TEST_HANDOVER_FAIL: "1",
  });
  try {
    const id = await newSession(s, ["/bin/sh", "-c", "exec cat"]);
    const w = new Window(s, id);
    await w.attach();
    w.client.input("one\n");
    await w.until(/one\r\none\r\n$/, "cat");
    const oldPid = await serverPid(s);

    // A program that is no server at all: it never connects.
    const broken = await request(socketPath(s.dir), {
      op: "restart-server",
      command: ["/bin/sh", "-c", "exit 3"],
    }, 60_000);
    assertEquals(broken?.ok, false);
    assertMatch(broken!.error!, /exited \(status 3\) before it connected/);
    assertEquals(w.client.closeCode, null, "the window was never touched");

    // A new server that takes everything, then fails.
    const out = await domterm(s, ["restart-server"]);
    assertEquals(out.code, 1);
    assertMatch(out.stderr, /refused \(test hook\)/);
    assertMatch(out.stderr, /goes on serving/);
    assertEquals(await serverPid(s), oldPid, "the old server serves on");
    await w.client.closed;
    w.stop();
    const ready = await w.attach();
    assert(ready.resumed, "the window resumes on the old server");
    w.client.input("two\n");
    await w.until(/two\r\ntwo\r\n$/, "cat, after the failed restart");
    const list = await domterm(s, ["list", "--json"]);
    assertEquals(JSON.parse(list.stdout).length, 1);
    w.stop();
    await w.client.close();
  } finally {
    await stopHandoverServer(s);
  }
});

Deno.test("a newer domterm that finds an older server hands its sessions to itself", async () => {
  // The hook makes the server say it is version 0.0.1.
  const s = await startHandoverServer(["/bin/sh"], {
    DOMTERM_TEST_SERVER_VERSION: "0.0.1",
  });
  try {
    const id = await newSession(s, ["/bin/sh", "-c", "exec sleep 1000"]);
    const list = await request(socketPath(s.dir), { op: "list" });
    const pid = list!.sessions!.find((x) => x.id === id)!.pid;
    const oldPid = await serverPid(s);
    const out = await domterm(s, [
      "--no-browser",
      "--",
      "/bin/sh",
      "-c",
      "exec sleep 1000",
    ]);
    assertEquals(out.code, 0, out.stderr);
    assertMatch(
      out.stderr,
      /the running server is version 0\.0\.1, this is .*: handing its sessions to this version/,
    );
    assertMatch(out.stdout, /&session=\d+/);
    assert((await serverPid(s)) !== oldPid, "a new server");
    const after = await request(socketPath(s.dir), { op: "list" });
    assertEquals(after!.sessions!.length, 2, "the old session and the new");
    assertEquals(after!.sessions!.find((x) => x.id === id)?.pid, pid);
  } finally {
    await stopHandoverServer(s);
  }
});

Deno.test("restart-server: a program that exits afterwards is reported, its status unknown", async () => {
  const s = await startHandoverServer(["/bin/sh"]);
  try {
    const id = await newSession(s, [
      "/bin/sh",
      "-c",
      "read go; echo READY; read x; exit 7",
    ]);
    const w = new Window(s, id);
    await w.attach();
    w.client.input("\n");
    await w.until(/READY/, "the program");
    const mode = await domterm(s, ["input-mode", "char", String(id)]);
    assertEquals(mode.code, 0, mode.stderr);
    const out = await domterm(s, ["restart-server"]);
    assertEquals(out.code, 0, out.stderr);
    await w.client.closed;
    w.stop();
    await w.attach();
    // The input mode set for the session came along.
    await w.client.until(
      () =>
        w.client.messages.some((m) =>
          m.type === "input-mode" && m.mode === "char"
        ),
      "the input mode",
    );
    w.client.input("\n");
    await w.client.until(
      () => w.client.messages.some((m) => m.type === "exit"),
      "the exit",
    );
    const exit = w.client.messages.find((m) => m.type === "exit");
    assertEquals(exit, {
      type: "exit",
      code: null,
      signal: null,
      reason: UNKNOWN_EXIT_REASON,
    });
    w.stop();
    await w.client.close();
  } finally {
    await stopHandoverServer(s);
  }
});
