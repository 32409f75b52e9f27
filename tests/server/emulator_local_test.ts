/**
 * The sessions' emulators on the main thread (server/main_thread_emulator.ts):
 * parsing is done in slices, so the event loop gets turns while a flood
 * is parsed; back-pressure through `drained()`; snapshots in order; a
 * failing emulator ends only itself.
 */
import { assert, assertEquals } from "../assert.ts";
import { EMULATOR_HIGH } from "../../server/emulator_host.ts";
import { checkBacklogBounded } from "./emulator_backlog_check.ts";
import { MainThreadEmulator } from "../../server/main_thread_emulator.ts";
import { Terminal } from "../../core/emulator/terminal.ts";

function lines(n: number): Uint8Array {
  const line = new TextEncoder().encode("x".repeat(79) + "\r\n");
  const out = new Uint8Array(n * line.length);
  for (let o = 0; o < out.length; o += line.length) out.set(line, o);
  return out;
}

Deno.test("emulator local: a writer that waits for drained() keeps the backlog bounded; all of it is parsed", async () => {
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  try {
    await checkBacklogBounded(term, 24 << 20, 800 * 81);
  } finally {
    term.close();
  }
});

Deno.test("emulator local: the event loop gets turns while a flood is parsed", async () => {
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 1000,
    reply: () => {},
  });
  try {
    term.write(lines(50_000)); // 4 MB, many slices
    // A timer set now runs between slices, with work still queued.
    const seen = await new Promise<number>((r) =>
      setTimeout(() => r(term.backlog), 0)
    );
    assert(seen > 0, "the timer ran only once everything was parsed");
    await term.drained();
    const snap = await term.snapshot();
    assert(snap !== null);
    const t = Terminal.restore(JSON.parse(snap.json));
    assertEquals(t.normalBuffer.historyLength, 1000);
  } finally {
    term.close();
  }
});

Deno.test("emulator local: snapshots hold exactly what was written before them", async () => {
  const replies: string[] = [];
  const term = new MainThreadEmulator({
    start: { cols: 40, rows: 5 },
    scrollback: 500,
    reply: (d) => replies.push(d),
  });
  const plain = new Terminal({ cols: 40, rows: 5, scrollback: 500 });
  try {
    const enc = new TextEncoder();
    const snaps: Promise<unknown>[] = [];
    const want: string[] = [];
    for (let i = 0; i < 30; i++) {
      const out = enc.encode(
        `\x1b[3${i % 8}mline ${i}\x1b[m 日本\r\n`.repeat(20),
      );
      term.write(out);
      plain.write(out);
      want.push(JSON.stringify(plain.snapshot()));
      snaps.push(term.snapshot().then((s) => s!.json));
    }
    assertEquals(await Promise.all(snaps), want);
    term.write(enc.encode("\x1b[6n"));
    await term.snapshot();
    assertEquals(replies, ["\x1b[5;1R"]);
  } finally {
    term.close();
  }
});

Deno.test("emulator local: after close, snapshots are null and drained() resolves", async () => {
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  term.write(new Uint8Array(EMULATOR_HIGH * 2).fill(0x41));
  const waiting = term.drained();
  const snap = term.snapshot();
  term.close();
  await waiting;
  assertEquals(await snap, null);
  assertEquals(await term.snapshot(), null);
});

Deno.test("emulator local: once output stops, the history is packed and the snapshot stays the same", async () => {
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 5000,
    reply: () => {},
  });
  try {
    let out = "";
    for (let i = 1; i <= 3000; i++) {
      out += `\x1b[3${i % 8}mline ${i}\x1b[m 日本 e\u0301\r\n`;
    }
    term.write(new TextEncoder().encode(out));
    const before = await term.snapshot();
    assertEquals(term.packedLines, 0, "nothing packed while output flows");
    const deadline = Date.now() + 30_000;
    while (term.packedLines === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert(term.packedLines >= 2977, `packed ${term.packedLines}`);
    const after = await term.snapshot();
    assertEquals(after!.json, before!.json);
  } finally {
    term.close();
  }
});

Deno.test("emulator local: a session that goes on printing does not keep another's history from being packed", async () => {
  const busy = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  const idle = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 5000,
    reply: () => {},
  });
  const enc = new TextEncoder();
  let printing = true;
  const printer = (async () => {
    while (printing) {
      busy.write(enc.encode("busy\r\n".repeat(100)));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    idle.write(enc.encode("idle line\r\n".repeat(1000)));
    const deadline = Date.now() + 30_000;
    while (idle.packedLines === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert(idle.packedLines >= 977, `packed ${idle.packedLines}`);
  } finally {
    printing = false;
    await printer;
    busy.close();
    idle.close();
  }
});

Deno.test("emulator local: once all emulators are quiet, garbage that grew the heap is collected", async () => {
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  try {
    // 8 MB in V8's large-object space: only a full collection frees it.
    let garbage: number[] | null = new Array(1_000_000).fill(1.5);
    const ref = new WeakRef(garbage);
    garbage = null;
    term.write(new TextEncoder().encode("a prompt$ "));
    await term.snapshot();
    // Packing waits PACK_IDLE_MS (250 ms) of quiet.
    const deadline = Date.now() + 5000;
    while (ref.deref() !== undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert(ref.deref() === undefined, "collected once quiet");
  } finally {
    term.close();
  }
});

Deno.test("emulator local: lines that leave the history within a write are not printed, and the model is the same", async () => {
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  const plain = new Terminal({ cols: 80, rows: 24, scrollback: 100 });
  try {
    const enc = new TextEncoder();
    // 16 KiB pieces of `yes`: thousands of lines each, most of them gone
    // from a 100-line history before the piece ends.
    const out = enc.encode("\x1b[32my\x1b[m\r\n".repeat(20_000) + "end\r\n");
    term.write(out);
    plain.write(out);
    const snap = await term.snapshot();
    assert(
      term.skippedOutput > out.length / 2,
      `skipped ${term.skippedOutput}`,
    );
    assertEquals(snap!.json, JSON.stringify(plain.snapshot()));
  } finally {
    term.close();
  }
});
