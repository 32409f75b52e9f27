/**
 * Frames of the model for a window that falls behind (issue 39,
 * docs/protocol.md "Flow control"). Real server, real PTY, real
 * WebSocket; each window here is a page's model: a core Terminal fed the
 * frames it gets in order (bytes, snapshots, grid changes), as the page's
 * connection does.
 *
 * - A window that stops acknowledging during floods of every kind of
 *   stream (seq, SGR, wrap, CJK), with resizes and a reconnect between,
 *   then goes on, ends with the same model (hash) as the server's and as
 *   a window fed every byte; the bell, notifications and clipboard writes
 *   in the floods reach both exactly once, in order.
 * - The program's write rate is not held back by a window that never
 *   acknowledges; a remote one (through a slow link) does not hold it
 *   back at all, and has at most its limit of output in flight.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import type { ServerMessage } from "../../core/protocol.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalEvent } from "../../core/terminal_view.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import { TestClient } from "./ws_client.ts";
import { STALE_MS } from "../../server/session.ts";
import { PROBE_WINDOW } from "../../server/frames/policy.ts";
import { slowLink } from "../../bench/e2e/slow_link.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};
const SCROLLBACK = 1000;
const encoder = new TextEncoder();

/** An event as the tests compare them ("" for those not compared). */
function eventKey(e: TerminalEvent): string {
  switch (e.type) {
    case "bell":
      return "bell";
    case "notify":
      return `notify:${e.source}:${e.title}:${e.body}`;
    case "clipboard":
      return `clip:${e.text}`;
    case "pager":
      return `pager:${e.automatic}`;
    default:
      return "";
  }
}

/** A page's model of a session: its socket, its Terminal, its position. */
class PageModel {
  term: Terminal | null = null;
  offset = 0;
  gridSeq = 0;
  session = -1;
  /** Acknowledge output as it is processed (false: a stalled page). */
  acking = true;
  unacked = 0;
  /** Every event, from its own parsing or as an `event` message. */
  readonly events: string[] = [];
  snapshots = 0;
  /** Frames (snapshots with `frame`) among them. */
  frames = 0;
  /** A frame loaded while not acknowledging: acknowledged by the next ack(). */
  frameOwed: number | null = null;
  eventMessages = 0;
  /** Got an event for bytes it skipped since its last snapshot (as client/connection.ts). */
  skipped = false;
  bytes = 0;
  ws: WebSocket | null = null;
  #ready = Promise.withResolvers<void>();

  /** Open a socket (again): a hello that resumes where this page is, if it has a session. */
  connect(port: number, key: string, extra: Record<string, unknown> = {}) {
    this.#ready = Promise.withResolvers<void>();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({
        type: "hello",
        key,
        cols: 80,
        rows: 24,
        ...(this.session >= 0 ? { session: this.session } : {}),
        // A page that got events for skipped bytes asks for a snapshot.
        ...(this.session >= 0 && !this.skipped
          ? { offset: this.offset, gridSeq: this.gridSeq }
          : {}),
        ...extra,
      }));
    };
    ws.onerror = () => {};
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      if (typeof ev.data === "string") this.#message(JSON.parse(ev.data));
      else this.#bytes(new Uint8Array(ev.data as ArrayBuffer));
    };
    return this.#ready.promise;
  }

  #message(m: ServerMessage): void {
    switch (m.type) {
      case "ready":
        this.session = m.session;
        if (m.resumed) this.offset = m.offset;
        this.term ??= new Terminal({
          cols: m.cols,
          rows: m.rows,
          scrollback: SCROLLBACK,
          reply: () => {},
          onEvent: (e) => {
            const k = eventKey(e);
            if (k) this.events.push(k);
          },
        });
        this.#ready.resolve();
        break;
      case "snapshot":
        // A frame keeps the history it joins (as client/terminal_view.ts),
        // and is acknowledged once loaded (as client/connection.ts).
        if (m.frame) {
          this.term!.loadFrame(
            m.snapshot as Parameters<Terminal["load"]>[0],
            m.frame.keep,
          );
          this.frames++;
          if (this.acking) {
            this.send({ type: "ack", bytes: 0, frame: m.offset });
          } else this.frameOwed = m.offset;
        } else this.term!.load(m.snapshot as Parameters<Terminal["load"]>[0]);
        this.offset = m.offset;
        this.gridSeq = m.gridSeq;
        this.unacked = 0;
        this.snapshots++;
        this.skipped = false;
        break;
      case "grid":
        this.term!.resize(m.cols, m.rows);
        if (m.clearHistory) this.term!.normalBuffer.clearHistory();
        this.gridSeq = m.seq;
        break;
      case "event": {
        this.eventMessages++;
        this.skipped = true;
        const k = eventKey(m.event);
        if (k) this.events.push(k);
        break;
      }
    }
  }

  #bytes(b: Uint8Array): void {
    this.term!.write(b);
    this.offset += b.length;
    this.bytes += b.length;
    this.unacked += b.length;
    if (this.acking) this.ack();
  }

  /** Acknowledge what it processed and has not acknowledged yet. */
  ack(): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    if (this.frameOwed !== null) {
      this.send({ type: "ack", bytes: 0, frame: this.frameOwed });
      this.frameOwed = null;
    }
    if (this.unacked === 0) return;
    this.ws.send(JSON.stringify({ type: "ack", bytes: this.unacked }));
    this.unacked = 0;
  }

  send(msg: unknown): void {
    this.ws!.send(JSON.stringify(msg));
  }

  input(text: string): void {
    this.ws!.send(encoder.encode(text));
  }

  /** The screen's text. */
  screen(): string {
    const t = this.term!;
    const out = [];
    for (let y = 0; y < t.rows; y++) {
      out.push(t.buffer.screenLine(y).toString(true));
    }
    return out.join("\n");
  }

  close(): Promise<void> {
    const ws = this.ws!;
    if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise<void>((r) =>
      ws.addEventListener("close", () => r())
    );
    ws.close();
    return closed;
  }
}

/** A small deterministic random source. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/**
 * A flood of `kind` of about `size` bytes with events among the lines;
 * returns the text and the events (keys) a page must see, in order.
 */
function flood(
  kind: "seq" | "sgr" | "wrap" | "cjk",
  size: number,
  seed: number,
): { text: string; events: string[] } {
  const r = rng(seed);
  const parts: string[] = [];
  const events: string[] = [];
  let n = 0, len = 0, i = 0;
  const words = [
    "alpha",
    "beta",
    "gamma",
    "日本語",
    "한국어",
    "中文字符",
    "ｆｕｌｌ",
  ];
  while (len < size) {
    let line: string;
    if (kind === "seq") line = `${seed * 1_000_000 + i}\n`;
    else if (kind === "sgr") {
      line = `\x1b[${30 + (i % 8)}m${i}\x1b[1;${40 + (i % 8)}m ${
        words[i % 3]
      } \x1b[0m\x1b[4mfile-${i}.txt\x1b[0m\r\n`;
    } else if (kind === "wrap") {
      line = "x".repeat(50 + Math.floor(r() * 300)) + `-${i}` +
        (r() < 0.5 ? "\n" : "");
    } else {
      line = Array.from(
        { length: 3 + Math.floor(r() * 12) },
        () => words[Math.floor(r() * words.length)],
      ).join(" ") + "\n";
    }
    parts.push(line);
    len += line.length;
    i++;
    if (r() < 0.004) {
      // An event: one of every kind the frames must carry.
      const k = `${seed}-${n++}`;
      const which = Math.floor(r() * 4);
      if (which === 0) {
        parts.push("\x07");
        events.push("bell");
      } else if (which === 1) {
        parts.push(`\x1b]9;note ${k}\x07`);
        events.push(`notify:osc9::note ${k}`);
      } else if (which === 2) {
        parts.push(`\x1b]52;c;${btoa(`clip ${k}`)}\x1b\\`);
        events.push(`clip:clip ${k}`);
      } else {
        parts.push(`\x1b]777;notify;T ${k};B ${k}\x07\x1b]2;title ${k}\x07`);
        events.push(`notify:osc777:T ${k}:B ${k}`);
      }
    }
  }
  return { text: parts.join(""), events };
}

async function until(
  cond: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("frames: a window that stops acknowledging during floods ends with the server's model and a fed window's; events exactly once", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-frames-" });
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    scrollback: SCROLLBACK,
    highWater: 256 * 1024,
    lowWater: 64 * 1024,
  });
  const fed = new PageModel(), stalled = new PageModel();
  try {
    // The fed window holds the program back (as a paused page does), so
    // it is never fed frames: it parses every byte.
    await fed.connect(s.port, s.key);
    fed.send({ type: "pause", paused: true });
    await stalled.connect(s.port, s.key, { session: fed.session });
    await until(() => stalled.snapshots === 1, "the stalled window's snapshot");
    const session = s.sessions.get(fed.session)!;
    fed.input("stty -echo; PS1=''; echo READY-$((1 + 1))\r");
    await until(() => fed.screen().includes("READY-2"), "the shell");

    const expected: string[] = [];
    const kinds = ["seq", "sgr", "wrap", "cjk"] as const;
    for (const [n, kind] of kinds.entries()) {
      const f = flood(kind, 1_500_000, n + 1);
      expected.push(...f.events);
      const file = `${dir}/${kind}.txt`;
      Deno.writeTextFileSync(file, f.text);
      stalled.acking = false;
      fed.input(`cat ${file}; echo DONE-$((${n} + 100))\r`);
      // A resize in the middle of it (the fed window is the active one).
      await until(() => session.bytesRead > 600_000 * (n + 1), "some output");
      fed.send({ type: "resize", cols: 70 + 10 * n, rows: 20 + n });
      if (n === 2) {
        // A reconnect while behind: it resumes from its offset or gets a snapshot.
        await stalled.close();
        await stalled.connect(s.port, s.key);
      }
      await until(
        () => fed.screen().includes(`DONE-${n + 100}`),
        `the ${kind} flood on the fed window`,
      );
      const w = [...session.windows].find((x) => !x.paused)!;
      assert(w.stale, `the stalled window is fed frames (${kind})`);
      assert(
        stalled.offset < session.bytesRead - 500_000,
        `${kind}: the stalled window skipped bytes`,
      );
      // It goes on: frames at its pace, then, in step again, the whole
      // model (the frames held only the newest history lines), then bytes.
      const snaps = stalled.snapshots, wholes = snaps - stalled.frames;
      stalled.acking = true;
      stalled.ack();
      await until(() => stalled.snapshots > snaps, `${kind}: the resync`);
      await until(
        () => stalled.snapshots - stalled.frames > wholes,
        `${kind}: the whole model once in step`,
      );
      await until(
        () => stalled.offset === session.bytesRead,
        `${kind}: the stalled window at the end`,
      );
    }
    await until(
      () => fed.offset === session.bytesRead,
      "the fed window at the end",
    );
    const snap = await session.snapshot();
    assert(snap !== null);
    const server = Terminal.restore(JSON.parse(snap.json));
    assertEquals(snap.offset, stalled.offset);
    assertEquals(
      modelHash(stalled.term!),
      modelHash(server),
      modelDiff(stalled.term!, server) ?? undefined,
    );
    assertEquals(
      modelHash(fed.term!),
      modelHash(server),
      modelDiff(fed.term!, server) ?? undefined,
    );
    // Every event once, in order, whether parsed or sent as a message.
    assertEquals(fed.events, expected);
    assertEquals(stalled.events, expected);
    assert(stalled.eventMessages > 0, "some events came as messages");
    assert(stalled.frames > 0, "some frames came");
    assert(stalled.bytes < fed.bytes / 2, "most bytes skipped");
  } finally {
    await fed.close().catch(() => {});
    await stalled.close().catch(() => {});
    await s.shutdown();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("frames: the program's write rate is not held back by a window that never acknowledges", async () => {
  const total = 10_000_000;
  /** Seconds the program takes to write `total` bytes with `ack` on or off. */
  async function run(ack: boolean): Promise<number> {
    const s = startServer({
      command: "/bin/sh",
      args: [],
      assets: ASSETS,
      log: () => {},
      shellIntegration: false,
    });
    try {
      const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`, false);
      await c.opened;
      c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
      await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
      const session = [...s.sessions.values()][0];
      let acked = 0;
      const t = setInterval(() => {
        if (ack && c.outputLength > acked) {
          c.send({ type: "ack", bytes: c.outputLength - acked });
          acked = c.outputLength;
        }
      }, 5);
      c.input("stty -echo\r");
      await new Promise((r) => setTimeout(r, 300));
      const start = session.bytesRead, t0 = performance.now();
      c.input(`yes | head -c ${total}\r`);
      await c.until(
        () => session.bytesRead - start >= total,
        "the whole output",
        120_000,
      );
      const secs = (performance.now() - t0) / 1000;
      clearInterval(t);
      await c.close();
      return secs;
    } finally {
      await s.shutdown();
    }
  }
  const acking = await run(true);
  const stalled = await run(false);
  const mbs = (secs: number) => (total / 1e6 / secs).toFixed(1);
  console.log(
    `write rate: ${mbs(acking)} MB/s with a window that acknowledges, ` +
      `${mbs(stalled)} MB/s with one that never does`,
  );
  // Before frames a window that never acknowledged stopped the program for
  // good after HIGH_WATER; now it holds it back for STALE_MS once (a page
  // only briefly behind gets every byte), then the program writes at the
  // rate the server's own model allows (loose bound: the machine is shared).
  assert(
    stalled < acking * 2 + STALE_MS / 1000 + 1,
    `${stalled} s vs ${acking} s`,
  );
});

Deno.test("frames: a window fed frames when the program exits gets the last screen before the exit", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: ["-c", "sleep 0.5; seq 1 400000; echo LAST-$((6 * 7))"],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    scrollback: SCROLLBACK,
    highWater: 256 * 1024,
    lowWater: 64 * 1024,
  });
  const page = new PageModel();
  try {
    page.acking = false;
    await page.connect(s.port, s.key);
    const session = s.sessions.get(page.session)!;
    let exited = false;
    const ws = page.ws!;
    ws.addEventListener("message", (ev) => {
      if (typeof ev.data === "string" && JSON.parse(ev.data).type === "exit") {
        // The screen as the exit finds it.
        exited = true;
        assert(page.screen().includes("LAST-42"), page.screen());
      }
    });
    await until(() => exited, "the exit");
    assert(page.bytes < 1_000_000, `got ${page.bytes} bytes`);
    assertEquals(page.snapshots, 2);
    assertEquals(page.offset, session.bytesRead);
  } finally {
    await page.close().catch(() => {});
    await s.shutdown();
  }
});

Deno.test("frames: a remote window that stops acknowledging never holds the program back, and has at most its probe window in flight", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
  });
  // 100 ms round trip, 2 Mbit/s (bench/e2e/slow_link.ts): not loopback.
  const link = slowLink(s.port);
  const c = new TestClient(`ws://127.0.0.1:${link.port}/ws`, false);
  try {
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
    await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
    // The page acknowledges `ready` at once: the link's round trip.
    c.send({ type: "ack", bytes: 0 });
    const session = [...s.sessions.values()][0];
    c.input("stty -echo\r");
    await new Promise((r) => setTimeout(r, 600));
    const echo = c.outputLength;
    c.send({ type: "ack", bytes: echo });
    await new Promise((r) => setTimeout(r, 300));
    const total = 4_000_000, start = session.bytesRead;
    c.input(`yes | head -c ${total}\r`);
    await c.until(
      () => session.bytesRead - start >= total,
      "the whole output",
      120_000,
    );
    // Before, the program waited 3 round trips (at least 300 ms) with the
    // window's probe window unacknowledged before it was fed frames.
    assertEquals(session.heldMs, 0);
    // What was sent has crossed the link (64 KiB: a quarter second).
    await new Promise((r) => setTimeout(r, 1500));
    assert(c.outputLength > echo, "no output came");
    assert(
      c.outputLength - echo <= PROBE_WINDOW,
      `${c.outputLength - echo} bytes of output in flight`,
    );
  } finally {
    await c.close();
    link.close();
    await s.shutdown();
  }
});
