/**
 * The full collection after packing a quiet session's history
 * (server/main_thread_emulator.ts) stops the main thread; it waits until
 * no session got input for GC_INPUT_QUIET_MS, so that a typed key and its
 * echo are not held behind it. Ordering assertions on the test hook
 * `packGc.count`.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  GC_INPUT_QUIET_MS,
  MainThreadEmulator,
  noteInput,
  packGc,
} from "../../server/main_thread_emulator.ts";

function lines(n: number): Uint8Array {
  const line = new TextEncoder().encode("y".repeat(40) + "\r\n");
  const out = new Uint8Array(n * line.length);
  for (let o = 0; o < out.length; o += line.length) out.set(line, o);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function untilGc(before: number, ms: number): Promise<void> {
  const t0 = performance.now();
  while (packGc.count === before && performance.now() - t0 < ms) {
    await sleep(20);
  }
}

Deno.test("gc after packing: not while a session gets input; once it has been quiet for GC_INPUT_QUIET_MS", async () => {
  const term = new MainThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 10_000,
    reply: () => {},
  });
  try {
    // Without input: the collection follows the packing (quiet 250 ms).
    let before = packGc.count;
    term.write(lines(3000));
    await untilGc(before, 10_000);
    assertEquals(packGc.count, before + 1, "a collection after packing");
    // With input meanwhile: none until the input has been quiet.
    await sleep(GC_INPUT_QUIET_MS);
    before = packGc.count;
    noteInput();
    term.write(lines(3000));
    const t0 = performance.now();
    const typing = setInterval(noteInput, 100);
    await sleep(GC_INPUT_QUIET_MS + 500);
    clearInterval(typing);
    const typed = performance.now() - t0;
    assertEquals(packGc.count, before, "no collection while typing");
    await untilGc(before, 10_000);
    const ms = performance.now() - t0;
    assertEquals(packGc.count, before + 1, "the collection after typing");
    // The last key came within 100 ms of the end of the typing.
    assert(
      ms >= typed - 100 + GC_INPUT_QUIET_MS,
      `after ${ms.toFixed(0)} ms (typing ${typed.toFixed(0)} ms)`,
    );
  } finally {
    term.close();
  }
});
