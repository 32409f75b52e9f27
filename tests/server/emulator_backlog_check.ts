/**
 * The back-pressure contract both places a session's emulator runs keep
 * (server/worker_thread_emulator.ts, server/main_thread_emulator.ts): a
 * writer that waits
 * for `drained()` past EMULATOR_HIGH holds the backlog to about that, and
 * everything written is parsed.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import { EMULATOR_HIGH, EMULATOR_LOW } from "../../server/emulator_backlog.ts";

/** What the check needs of an emulator. */
export interface BackloggedEmulator {
  readonly backlog: number;
  write(data: Uint8Array): void;
  drained(): Promise<void>;
  snapshot(): Promise<{ json: string } | null>;
}

/**
 * Write `total` bytes of 80-column lines in `chunk`-sized writes (at most
 * 64 KiB), waiting for `drained()` whenever the backlog is past
 * EMULATOR_HIGH; assert the writer had to wait, the backlog never went far
 * past the mark, and the emulator parsed to the end.
 */
export async function checkBacklogBounded(
  term: BackloggedEmulator,
  total: number,
  chunkBytes: number,
): Promise<void> {
  const line = new TextEncoder().encode("x".repeat(79) + "\r\n");
  const chunk = new Uint8Array(chunkBytes - chunkBytes % line.length);
  for (let o = 0; o < chunk.length; o += line.length) chunk.set(line, o);
  let peak = 0;
  let waits = 0;
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (term.backlog > EMULATOR_HIGH) {
      waits++;
      await term.drained();
      assert(term.backlog <= EMULATOR_LOW, `drained at ${term.backlog}`);
    }
    term.write(chunk);
    peak = Math.max(peak, term.backlog);
  }
  assert(waits > 0, "the writer outran the emulator and waited");
  assert(
    peak <= EMULATOR_HIGH + chunk.length,
    `peak backlog ${peak} over ${EMULATOR_HIGH}`,
  );
  term.write(new TextEncoder().encode("\x1b[2J\x1b[Hthe end"));
  const snap = await term.snapshot();
  assert(snap !== null && snap.json.includes("the end"), "parsed to the end");
  assertEquals(term.backlog, 0);
}
