/**
 * A session's emulator moves to the emulator thread in a flood and back to
 * the main thread once output stops (server/session_emulator.ts): across
 * the moves it must answer and snapshot exactly as one emulator that never
 * moved.
 */
import { assert, assertEquals } from "../assert.ts";
import { SessionEmulator } from "../../server/session_emulator.ts";
import {
  emulatorThreadRunning,
  type SnapshotText,
} from "../../server/emulator_host.ts";
import { Terminal } from "../../core/emulator/terminal.ts";

const enc = new TextEncoder();
const QUICK = { floodBytes: 32 * 1024, floodWindowMs: 1000, quietMs: 150 };

/** Resolves once `f()` holds, polling every 10 ms (fails after `ms`). */
async function until(f: () => boolean, what: string, ms = 5000) {
  const end = performance.now() + ms;
  while (!f()) {
    if (performance.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Piece `i` of a flood: colours, wraps, and now and then a query. */
function piece(i: number): Uint8Array {
  let s = `\x1b[3${i % 8}m${i}:${"x".repeat((i * 7) % 90)}\x1b[m\r\n`;
  if (i % 40 === 0) s += "\x1b[6n"; // CPR
  if (i % 90 === 0) s += "\x1b]2;title " + i + "\x07\x1b[21t"; // title report
  if (i % 130 === 0) s += "\x1b[14t"; // window size in pixels (cell size)
  return enc.encode(s);
}

Deno.test("session emulator: a flood moves it to the thread, quiet brings it back; replies and snapshots are those of an emulator that never moved", async () => {
  const replies: string[] = [];
  const expectedReplies: string[] = [];
  const emu = new SessionEmulator(
    7001,
    50,
    12,
    300,
    (d) => replies.push(d),
    undefined,
    QUICK,
  );
  const ref = new Terminal({
    cols: 50,
    rows: 12,
    scrollback: 300,
    reply: (d) => expectedReplies.push(d),
  });
  try {
    assertEquals(emu.place, "main");
    assert(!emulatorThreadRunning(), "no thread before the first flood");
    emu.setTitleReports(false); // not the default, and not in a snapshot
    ref.setTitleReports(false);
    emu.setCellSize(9, 17);
    ref.setCellSize(9, 17);
    const snapshots: Promise<SnapshotText | null>[] = [];
    const expected: string[] = [];
    const round = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const p = piece(i);
        emu.write(p);
        ref.write(p);
        if (i % 250 === 7) {
          emu.resize(40 + (i % 3) * 10, 12);
          ref.resize(40 + (i % 3) * 10, 12);
        }
        if (i % 333 === 5) {
          snapshots.push(emu.snapshot());
          expected.push(JSON.stringify(ref.snapshot()));
        }
        // A few turns of the event loop, so some pieces land mid-move.
        if (i % 100 === 0) await new Promise((r) => setTimeout(r, 0));
      }
    };
    await round(0, 1500);
    await until(() => emu.place === "thread", "moved to the thread");
    assert(emulatorThreadRunning(), "the thread runs");
    await round(1500, 2000);
    snapshots.push(emu.snapshot());
    expected.push(JSON.stringify(ref.snapshot()));
    await until(() => emu.place === "main", "moved back to the main thread");
    await emu.settled();
    assertEquals(emu.moves, 2);
    assert(!emulatorThreadRunning(), "the thread ended with its last emulator");
    // After the moves: still the same emulator.
    await round(2000, 2100);
    snapshots.push(emu.snapshot());
    expected.push(JSON.stringify(ref.snapshot()));
    const got = await Promise.all(snapshots);
    assertEquals(got.length, expected.length);
    for (let k = 0; k < got.length; k++) {
      assertEquals(got[k]?.json, expected[k], `snapshot ${k}`);
    }
    await emu.drained();
    assertEquals(emu.backlog, 0);
    assert(expectedReplies.length > 50, "the flood asked questions");
    assertEquals(replies, expectedReplies);
  } finally {
    emu.close();
  }
});

Deno.test("session emulator: pinned to the main thread, or with a scrollback too long to move, it stays", async () => {
  const pinned = new SessionEmulator(7002, 80, 24, 100, () => {}, undefined, {
    ...QUICK,
    pinned: "main",
  });
  const long = new SessionEmulator(
    7003,
    80,
    24,
    Infinity,
    () => {},
    undefined,
    {
      ...QUICK,
    },
  );
  try {
    for (let i = 0; i < 2000; i++) {
      pinned.write(piece(i));
      long.write(piece(i));
    }
    await new Promise((r) => setTimeout(r, 100));
    assertEquals([pinned.place, long.place], ["main", "main"]);
    assertEquals([pinned.moves, long.moves], [0, 0]);
    assert(!emulatorThreadRunning());
  } finally {
    pinned.close();
    long.close();
  }
});

Deno.test("session emulator: many sessions flooding together, each below the flood, move to the thread; a quiet one stays", async () => {
  // 2 MiB in half a second in all, 128 KiB each: none is a flood alone.
  const options = { floodBytes: 1 << 20, floodWindowMs: 500, quietMs: 150 };
  const floods = Array.from(
    { length: 16 },
    (_, i) =>
      new SessionEmulator(7100 + i, 80, 24, 100, () => {}, undefined, options),
  );
  const quiet = new SessionEmulator(
    7199,
    80,
    24,
    100,
    () => {},
    undefined,
    options,
  );
  const line = enc.encode("y".repeat(1023) + "\n");
  try {
    for (let k = 0; k < 128; k++) {
      for (const f of floods) f.write(line);
      quiet.write(enc.encode("$ "));
    }
    await Promise.all(floods.map((f) => f.settled()));
    assertEquals(floods.map((f) => f.place), floods.map(() => "thread"));
    assertEquals(quiet.place, "main");
    // Once quiet, they come back.
    await until(
      () => floods.every((f) => f.place === "main"),
      "back",
      60_000,
    );
  } finally {
    for (const f of floods) f.close();
    quiet.close();
  }
  await until(() => !emulatorThreadRunning(), "the thread ends", 60_000);
});

Deno.test("session emulator: closed during a move, what waited is answered and no thread is left behind", async () => {
  const emu = new SessionEmulator(7004, 80, 24, 100, () => {}, undefined, {
    ...QUICK,
  });
  for (let i = 0; i < 1000; i++) emu.write(piece(i));
  const snap = emu.snapshot();
  emu.close();
  // Answered (as a closed emulator answers: null), not left waiting.
  assertEquals(await snap, null);
  await emu.settled();
  assertEquals(emu.moves, 0);
  assert(!emulatorThreadRunning());
  assertEquals(await emu.snapshot(), null, "nothing after close");
});

Deno.test("session emulator: the grapheme-clusters setting (mode 2027) starts it on either thread and moves with it", async () => {
  const ask = enc.encode("\x1b[?2027$p");
  for (const pinned of ["main", "thread", null] as const) {
    for (const [setting, report] of [["on", "1"], ["never", "4"]] as const) {
      const replies: string[] = [];
      const emu = new SessionEmulator(
        7005,
        80,
        24,
        100,
        (d) => replies.push(d),
        undefined,
        { ...QUICK, pinned },
        setting,
      );
      try {
        emu.write(ask);
        // A flood moves an unpinned one to the thread and back: the mode
        // and the setting go with the snapshot.
        if (pinned === null) {
          for (let i = 0; i < 1500; i++) emu.write(piece(i));
          // (Generous limits: the thread starts slowly on a loaded machine.)
          await until(() => emu.moves >= 1, "a move to the thread", 60_000);
          await until(
            () => emu.place === "main",
            "back on the main thread",
            60_000,
          );
        }
        emu.write(enc.encode("\x1bc"));
        emu.write(ask);
        await emu.settled();
        const want = `\x1b[?2027;${report}$y`;
        await until(
          () => replies.filter((r) => r === want).length === 2,
          `${pinned} ${setting}: ${JSON.stringify(replies.slice(-3))}`,
          60_000,
        );
      } finally {
        emu.close();
      }
    }
  }
});
