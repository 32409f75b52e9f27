/**
 * The emulator thread started from embedded source, as the single-file
 * build does (server/emulator_thread.ts `embedEmulatorWorker`,
 * scripts/bundle.ts): a thread that fails to start leaves no snapshot
 * waiting forever (a session's exit, and so the server's SIGTERM, waits for
 * them), and the next session gets a fresh thread; the real worker, bundled
 * into one module, runs from its source with no file beside it.
 */
import { assert, assertEquals } from "../assert.ts";
import { embedEmulatorWorker } from "../../server/emulator_host.ts";
import { WorkerThreadEmulator } from "../../server/worker_thread_emulator.ts";
import { bundleEmulatorWorker } from "../../scripts/bundle.ts";

/** `p`, or an error after `ms` saying what did not happen. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: nothing after ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

Deno.test("emulator host: a thread that fails to start answers snapshots with null, and the next session gets a fresh one", async () => {
  try {
    await brokenThenBundled();
  } finally {
    embedEmulatorWorker(null);
  }
});

async function brokenThenBundled(): Promise<void> {
  embedEmulatorWorker('throw new Error("broken on purpose");\n');
  const broken = new WorkerThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  try {
    broken.write(new TextEncoder().encode("lost"));
    // Asked before and after the failure is known: both answered.
    const early = broken.snapshot();
    assertEquals(
      await within(early, 30_000, "snapshot of a failed thread"),
      null,
    );
    assertEquals(
      await within(broken.snapshot(), 30_000, "later snapshot"),
      null,
    );
    await within(broken.drained(), 30_000, "drained() of a failed thread");
  } finally {
    broken.close();
  }

  embedEmulatorWorker(await bundleEmulatorWorker());
  const term = new WorkerThreadEmulator({
    start: { cols: 80, rows: 24 },
    scrollback: 100,
    reply: () => {},
  });
  try {
    term.write(new TextEncoder().encode("from the embedded worker"));
    const snap = await within(term.snapshot(), 30_000, "snapshot");
    assert(
      snap !== null && snap.json.includes("from the embedded worker"),
      `snapshot: ${snap?.json.slice(0, 200)}`,
    );
  } finally {
    term.close();
  }
}
