/**
 * The emulators' shared backlog (server/emulator_backlog.ts, SHARED_HIGH):
 * many sessions flooding at once, each under its own EMULATOR_HIGH, queue
 * no more than about SHARED_HIGH together, and a session with little to
 * parse (an echo) never waits for the others'.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import {
  EMULATOR_HIGH,
  EmulatorBacklog,
  SHARE_HIGH,
  SHARE_LOW,
  SHARED_HIGH,
  SHARED_LOW,
  sharedBacklog,
} from "../../server/emulator_backlog.ts";
import { WorkerThreadEmulator } from "../../server/worker_thread_emulator.ts";

Deno.test("emulator backlog: past SHARED_HIGH in all, a flooding session waits and a session with an echo to parse does not; the waiters go on as the total comes down", async () => {
  const base = sharedBacklog();
  const floods = Array.from({ length: 10 }, () => new EmulatorBacklog());
  const echo = new EmulatorBacklog();
  const each = Math.ceil((SHARED_HIGH + 1) / floods.length);
  assert(each < EMULATOR_HIGH, "each flood alone is under its own mark");
  for (const b of floods) b.add(each);
  echo.add(16);
  try {
    assert(sharedBacklog() - base > SHARED_HIGH);
    for (const b of floods) assert(b.over, "a flood over SHARE_HIGH waits");
    assert(!echo.over, "an echo never waits for the others' floods");
    assert(echo.low);
    let woken = 0;
    const waits = floods.map((b) => b.drained(false).then(() => woken++));
    await Promise.resolve();
    assertEquals(woken, 0);
    // One flood parsed down to SHARE_LOW goes on alone.
    floods[0].parsed(each - SHARE_LOW);
    await Promise.resolve();
    assertEquals(woken, 1);
    // The others once the total is down to SHARED_LOW.
    let i = 1;
    while (sharedBacklog() - base > SHARED_LOW) floods[i++].parsed(each);
    await Promise.all(waits);
    assertEquals(woken, floods.length);
  } finally {
    for (const b of [...floods, echo]) b.clear();
  }
  assertEquals(sharedBacklog(), base);
});

Deno.test("emulator backlog: a session under SHARE_HIGH does not wait however large the total", () => {
  const big = new EmulatorBacklog();
  const small = new EmulatorBacklog();
  big.add(EMULATOR_HIGH);
  const more = new EmulatorBacklog();
  more.add(SHARED_HIGH);
  small.add(SHARE_HIGH);
  try {
    assert(!small.over);
    assert(big.over && more.over);
  } finally {
    for (const b of [big, small, more]) b.clear();
  }
});

Deno.test("emulator backlog: many sessions flooding the emulator thread at once, each waiting while full, queue about SHARED_HIGH in all; all of it is parsed", async () => {
  const n = 8;
  const perSession = 12 << 20; // each under EMULATOR_HIGH: 96 MiB in all
  const chunk = new Uint8Array(64 * 1024 - (64 * 1024) % 81);
  const line = new TextEncoder().encode("y".repeat(79) + "\r\n");
  for (let o = 0; o + line.length <= chunk.length; o += line.length) {
    chunk.set(line, o);
  }
  const terms = Array.from(
    { length: n },
    () =>
      new WorkerThreadEmulator({
        start: { cols: 80, rows: 24 },
        scrollback: 100,
        reply: () => {},
      }),
  );
  let peak = 0;
  let waits = 0;
  try {
    await Promise.all(terms.map(async (term) => {
      for (let sent = 0; sent < perSession; sent += chunk.length) {
        if (term.full) {
          waits++;
          await term.drained();
        }
        term.write(chunk);
        peak = Math.max(peak, sharedBacklog());
        // A turn between writes, as a read loop has between reads.
        await new Promise((r) => setTimeout(r, 0));
      }
      term.write(new TextEncoder().encode("\x1b[2J\x1b[Hthe end"));
      const snap = await term.snapshot();
      assert(snap !== null && snap.json.includes("the end"), "parsed");
    }));
  } finally {
    for (const t of terms) t.close();
  }
  assert(waits > 0, "the writers outran the emulator thread and waited");
  assert(
    peak <= SHARED_HIGH + n * (SHARE_HIGH + chunk.length),
    `peak ${(peak / 2 ** 20).toFixed(1)} MiB in all`,
  );
  assertEquals(sharedBacklog(), 0);
});
