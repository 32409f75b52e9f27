/**
 * The sessions' emulators on the main thread (server/main_thread_emulator.ts)
 * share one queue of work; an emulator whose program just got input
 * (`prioritize`, called by `Session.input`) has its work done before the
 * others' output: a reply to a query (or the parse of an echo) no longer
 * waits behind megabytes of other sessions' floods. Ordering assertions:
 * whose backlog is left when the reply comes.
 */
import { assert, assertEquals } from "../assert.ts";
import { MainThreadEmulator } from "../../server/main_thread_emulator.ts";

function lines(n: number): Uint8Array {
  const line = new TextEncoder().encode("x".repeat(79) + "\r\n");
  const out = new Uint8Array(n * line.length);
  for (let o = 0; o < out.length; o += line.length) out.set(line, o);
  return out;
}

/** An emulator whose replies resolve `reply()` in turn. */
function emulator() {
  let got = Promise.withResolvers<string>();
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 1000,
    reply: (data) => got.resolve(data),
  });
  return {
    term,
    /** The next reply. */
    async reply(): Promise<string> {
      const r = await got.promise;
      got = Promise.withResolvers<string>();
      return r;
    },
  };
}

const CPR = new TextEncoder().encode("\x1b[6n");

Deno.test("emulator priority: without input, a query waits behind the floods queued before it", async () => {
  const flood = emulator(), typed = emulator();
  try {
    flood.term.write(lines(50_000)); // 4 MB: many slices
    typed.term.write(CPR);
    assertEquals(await typed.reply(), "\x1b[1;1R");
    assertEquals(flood.term.backlog, 0, "parsed in the order written");
  } finally {
    flood.term.close();
    typed.term.close();
  }
});

Deno.test("emulator priority: a session given input has its query parsed before the floods queued before it", async () => {
  const flood = emulator(), typed = emulator();
  try {
    flood.term.write(lines(50_000));
    typed.term.prioritize();
    typed.term.write(CPR);
    assertEquals(await typed.reply(), "\x1b[1;1R");
    assert(
      flood.term.backlog > 0,
      "the reply came only after the whole flood was parsed",
    );
    await flood.term.drained();
    const snap = await flood.term.snapshot();
    assert(snap !== null, "the flood's emulator goes on");
  } finally {
    flood.term.close();
    typed.term.close();
  }
});

Deno.test("emulator priority: a session's own work stays in order (its query after its own output)", async () => {
  const flood = emulator(), typed = emulator();
  try {
    flood.term.write(lines(50_000));
    typed.term.write(lines(20_000)); // queued before it got input
    typed.term.prioritize();
    typed.term.write(CPR);
    // After its 20,000 lines, the cursor is on the last row.
    assertEquals(await typed.reply(), "\x1b[24;1R");
    assertEquals(typed.term.backlog, 0);
  } finally {
    flood.term.close();
    typed.term.close();
  }
});

Deno.test("emulator priority: a session given input that floods does not hold the others back for good", async () => {
  const flood = emulator(), other = emulator();
  try {
    flood.term.prioritize();
    // 64 MB, in the priority queue: far more than parses within the
    // URGENT_ALONE_MS it may hold the others (16 MB of plain lines parsed
    // within it on a quiet machine, and the test failed).
    flood.term.write(lines(800_000));
    other.term.write(CPR);
    assertEquals(await other.reply(), "\x1b[1;1R");
    assert(
      flood.term.backlog > 0,
      "the other's query waited for the whole priority flood",
    );
  } finally {
    flood.term.close();
    other.term.close();
  }
});
