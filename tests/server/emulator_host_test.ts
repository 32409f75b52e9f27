/**
 * The emulator thread's back-pressure (server/worker_thread_emulator.ts): output
 * posted faster than it is parsed is held to EMULATOR_HIGH by a writer
 * that waits for `drained()`; the thread runs at a lower priority.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  EMULATOR_HIGH,
  type SnapshotText,
} from "../../server/emulator_host.ts";
import { WorkerThreadEmulator } from "../../server/worker_thread_emulator.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { checkBacklogBounded } from "./emulator_backlog_check.ts";
import {
  EMULATOR_NICE,
  lowerThreadPriority,
} from "../../server/thread_priority.ts";

Deno.test("emulator host: a writer that waits for drained() keeps the backlog bounded; all of it is parsed", async () => {
  const term = new WorkerThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  try {
    await checkBacklogBounded(term, 64 << 20, 64 * 1024);
  } finally {
    term.close();
  }
});

Deno.test("emulator host: drained() resolves at once when closed", async () => {
  const term = new WorkerThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  term.write(new Uint8Array(EMULATOR_HIGH * 2).fill(0x41));
  const waiting = term.drained();
  term.close();
  await waiting;
});

Deno.test("thread priority: a thread's nice value is lowered (Linux), not the process's", () => {
  if (Deno.build.os !== "linux") {
    assert(lowerThreadPriority(EMULATOR_NICE) !== null, "says why not");
    return;
  }
  const before = niceOf(Deno.pid);
  const { promise, resolve } = Promise.withResolvers<string>();
  const w = new Worker(
    `data:application/javascript,${
      encodeURIComponent(`
      const { lowerThreadPriority } = await import(${
        JSON.stringify(
          new URL("../../server/thread_priority.ts", import.meta.url).href,
        )
      });
      const err = lowerThreadPriority(7);
      const tid = Deno.readLinkSync("/proc/thread-self").split("/").pop();
      self.postMessage(JSON.stringify({ err, tid }));
    `)
    }`,
    { type: "module" },
  );
  w.onmessage = (e) => resolve(e.data);
  return promise.then((text) => {
    w.terminate();
    const { err, tid } = JSON.parse(text);
    assertEquals(err, null);
    assertEquals(niceOf(Number(tid)), 7, "the worker thread's nice value");
    assertEquals(niceOf(Deno.pid), before, "the main thread's is unchanged");
  });
});

/** Nice value of a thread (or the main thread: the pid), from /proc. */
function niceOf(tid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${Deno.pid}/task/${tid}/stat`);
  // Fields after the command name (in parentheses): nice is field 19.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[16]);
}

Deno.test("emulator host: output written in many pieces, between resizes and snapshots, is parsed in order, as a local emulator parses it", async () => {
  const enc = new TextEncoder();
  const remote = new WorkerThreadEmulator({
    start: { cols: 40, rows: 10 },
    scrollback: 200,
    reply: () => {},
  });
  const local = new Terminal({
    cols: 40,
    rows: 10,
    scrollback: 200,
    reply() {},
    onEvent() {},
  });
  try {
    const snapshots: Promise<SnapshotText | null>[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 600; i++) {
      // Small pieces, so that most are held back while two are in flight.
      const piece = enc.encode(
        `\x1b[3${i % 8}m${i}:${"x".repeat(i % 57)}\x1b[m${i % 3 ? "\r\n" : ""}`,
      );
      remote.write(piece);
      local.write(piece);
      if (i % 97 === 0) {
        const cols = 30 + (i % 7) * 5;
        remote.resize(cols, 12);
        local.resize(cols, 12);
      }
      if (i % 150 === 149) {
        snapshots.push(remote.snapshot());
        expected.push(JSON.stringify(local.snapshot()));
      }
    }
    const got = await Promise.all(snapshots);
    assertEquals(got.length, 4);
    for (let k = 0; k < got.length; k++) {
      assertEquals(got[k]?.json, expected[k], `snapshot ${k}`);
    }
    // A snapshot is answered after everything posted before it.
    await remote.snapshot();
    assertEquals(remote.backlog, 0, "all of it parsed");
  } finally {
    remote.close();
  }
});

Deno.test("emulator host: a flood's output is held until the program pauses (idle) or 300 ms passed, small output is parsed at once", async () => {
  const term = new WorkerThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  try {
    const until = async (what: string, ok: () => boolean, ms: number) => {
      const end = performance.now() + ms;
      while (!ok()) {
        assert(performance.now() < end, `${what} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    term.write(new TextEncoder().encode("small\r\n"));
    await until("a small piece parsed", () => term.backlog === 0, 2000);

    // A pause of the read loop (the windows' flow control) does not
    // release what is held: only `idle` or the 300 ms cap.
    const piece = new Uint8Array(64 * 1024).fill(0x41);
    const t0 = performance.now();
    term.write(piece);
    await new Promise((r) => setTimeout(r, 60));
    const held = term.backlog;
    if (performance.now() - t0 < 250) {
      assertEquals(held, piece.length, "held while the program writes on");
    }
    term.idle();
    await until("released after idle", () => term.backlog === 0, 2000);
    // Before the cap (300 ms after the write) could have released it.
    assert(performance.now() - t0 < 300, "idle released it, not the cap");

    // Without idle the cap lets it go.
    term.write(piece);
    await until("released by the cap", () => term.backlog === 0, 3000);
  } finally {
    term.close();
  }
});
