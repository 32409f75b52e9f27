/**
 * A frame is made from the model wherever it has got to (issue 39, target
 * 5): `EmulatorHost.snapshot` with a `lag` may leave out the output written
 * last that the emulator has not parsed yet, and says how much
 * (`unparsed`), so the session need not hold the program back until its
 * model catches up for the sake of a window fed frames. A snapshot without
 * a lag, and one asked for after other work (a resize), still holds
 * everything written before it.
 */
import { assert, assertEquals } from "../assert.ts";
import type { EmulatorHost, SnapshotText } from "../../server/emulator_host.ts";
import { WorkerThreadEmulator } from "../../server/worker_thread_emulator.ts";
import { MainThreadEmulator } from "../../server/main_thread_emulator.ts";

const encoder = new TextEncoder();

/** `n` bytes of lines that all say `word`. */
function lines(word: string, n: number): Uint8Array {
  const line = `${word}\r\n`;
  return encoder.encode(line.repeat(Math.ceil(n / line.length)));
}

/** The screen's text of a snapshot's JSON. */
function screenText(snap: SnapshotText | null): string {
  assert(snap !== null, "no snapshot");
  return snap.json;
}

function hosts(): [string, () => EmulatorHost][] {
  const setup = {
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  };
  return [
    ["thread", () => new WorkerThreadEmulator(setup)],
    ["main", () => new MainThreadEmulator(setup)],
  ];
}

for (const [place, make] of hosts()) {
  Deno.test(`frame lag (${place}): a snapshot with a lag is of the model as far as it parsed, and says what it left out`, async () => {
    const term = make();
    try {
      term.write(lines("FIRST", 8192));
      // Parsed: the small write and the snapshot without a lag see to it.
      const all = await term.snapshot();
      assert(screenText(all).includes("FIRST"));
      assertEquals(all!.unparsed ?? 0, 0);
      // A flood's piece the thread holds for a larger write (4 KiB or
      // more), or that the main thread's queue has not reached yet.
      const flood = lines("SECOND", 16384);
      term.write(flood);
      const frame = await term.snapshot(undefined, 30, flood.length);
      assertEquals(frame!.unparsed, flood.length);
      assert(!screenText(frame).includes("SECOND"), "made after parsing");
      assert(screenText(frame).includes("FIRST"));
      // Without a lag, or a lag too short, it holds everything.
      const short = await term.snapshot(undefined, 30, flood.length - 1);
      assertEquals(short!.unparsed ?? 0, 0);
      assert(screenText(short).includes("SECOND"));
    } finally {
      term.close();
    }
  });

  Deno.test(`frame lag (${place}): output written before a resize is never left out`, async () => {
    const term = make();
    try {
      await term.snapshot();
      const flood = lines("THIRD", 16384);
      term.write(flood);
      term.resize(100, 30);
      const more = lines("FOURTH", 8192);
      term.write(more);
      const frame = await term.snapshot(undefined, 30, 1 << 30);
      const unparsed = frame!.unparsed ?? 0;
      // What it left out is output after the resize, never before it: the
      // resize (and so everything before it) is in the frame.
      assert(unparsed <= more.length, `${unparsed} bytes left out`);
      assert(screenText(frame).includes('"cols":100'));
      if (unparsed === 0) assert(screenText(frame).includes("FOURTH"));
    } finally {
      term.close();
    }
  });
}
