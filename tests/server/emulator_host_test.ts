/**
 * The emulator thread's back-pressure (server/emulator_host.ts): output
 * posted faster than it is parsed is held to EMULATOR_HIGH by a writer
 * that waits for `drained()`; the thread runs at a lower priority.
 */
import { assert, assertEquals } from "../assert.ts";
import { EMULATOR_HIGH, RemoteTerminal } from "../../server/emulator_host.ts";
import { checkBacklogBounded } from "./emulator_backlog_check.ts";
import {
  EMULATOR_NICE,
  lowerThreadPriority,
} from "../../server/thread_priority.ts";

Deno.test("emulator host: a writer that waits for drained() keeps the backlog bounded; all of it is parsed", async () => {
  const term = new RemoteTerminal(9001, 80, 24, 100, () => {});
  try {
    await checkBacklogBounded(term, 64 << 20, 64 * 1024);
  } finally {
    term.close();
  }
});

Deno.test("emulator host: drained() resolves at once when closed", async () => {
  const term = new RemoteTerminal(9002, 80, 24, 100, () => {});
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
