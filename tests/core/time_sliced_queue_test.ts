/**
 * The time-sliced queue (core/time_sliced_queue.ts) the page's connection
 * and the server's main-thread emulators share: work in order, output in
 * pieces, slices cut by the injected clock, the rest in a later task;
 * pausing, taking less, and pushing from inside a slice.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  TimeSlicedQueue,
  type TimeSlicedQueueOptions,
} from "../../core/time_sliced_queue.ts";

/** A queue on a fake clock, recording what it does; `later` only records. */
function harness(
  options: Partial<TimeSlicedQueueOptions<string>> & {
    /** ms the clock moves per piece taken */
    costMs?: number;
    /** bytes taken of each piece (default all) */
    takeAtMost?: () => number;
  } = {},
) {
  const log: string[] = [];
  let clock = 0;
  const due: (() => void)[] = [];
  const cost = options.costMs ?? 1;
  const q = new TimeSlicedQueue<string>({
    sliceMs: 8,
    pieceBytes: 4,
    now: () => clock,
    later: (slice) => {
      log.push("later");
      due.push(slice);
    },
    take: (piece, owner) => {
      clock += cost;
      const n = Math.min(piece.length, options.takeAtMost?.() ?? Infinity);
      log.push(`${owner}:${new TextDecoder().decode(piece.subarray(0, n))}`);
      return n;
    },
    done: (owner) => log.push(`done ${owner}`),
    stopped: () => log.push("stopped"),
    ...options,
  });
  /** Run the slice `later` asked for (one turn of the event loop). */
  const turn = () => {
    assert(due.length > 0, "a slice is due");
    due.shift()!();
  };
  return { q, log, turn, due, tick: (ms: number) => clock += ms };
}

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("time-sliced queue: output in pieces and tasks, in order, in a later task", () => {
  const { q, log, turn, due } = harness();
  q.pushData(bytes("abcdefghij"), "A");
  q.pushTask(() => log.push("task B"), "B");
  q.pushData(bytes("xy"), "C");
  assertEquals(log, ["later"], "nothing done in the caller's task");
  assertEquals(q.length, 3);
  turn();
  assertEquals(log, [
    "later",
    "A:abcd",
    "A:efgh",
    "A:ij",
    "done A",
    "task B",
    "done B",
    "C:xy",
    "done C",
    "stopped",
  ]);
  assertEquals([q.length, due.length], [0, 0]);
  // Empty again: the next push asks for a slice again.
  q.pushTask(() => {}, "D");
  assertEquals(due.length, 1);
});

Deno.test("time-sliced queue: a slice ends once the clock passes sliceMs; the rest waits for the next turn", () => {
  const { q, log, turn, due } = harness({ costMs: 3 });
  q.pushData(bytes("0123456789abcdefghij"), "A"); // 5 pieces of 4
  turn();
  // 3 + 3 + 3 = 9 ms >= 8: the slice yields after the third piece.
  assertEquals(log, ["later", "A:0123", "A:4567", "A:89ab", "later"]);
  assertEquals(due.length, 1, "one slice due, not stopped");
  q.pushData(bytes("k"), "B"); // waits its turn: no second slice asked for
  assertEquals(due.length, 1);
  turn();
  assertEquals(log.slice(5), [
    "A:cdef",
    "A:ghij",
    "done A",
    "B:k",
    "done B",
    "stopped",
  ]);
});

Deno.test("time-sliced queue: eager runs the first slice in the caller's task; a push from inside a slice is not run re-entrantly", () => {
  const { q, log, due } = harness({ eager: true });
  q.pushTask(() => {
    log.push("outer start");
    q.pushTask(() => log.push("inner"), "I");
    log.push("outer end");
  }, "O");
  assertEquals(log, [
    "outer start",
    "outer end",
    "done O",
    "inner",
    "done I",
    "stopped",
  ]);
  assertEquals(due.length, 0);
});

Deno.test("time-sliced queue: taking less offers the rest again; taking nothing pauses until resume", () => {
  let allow = 3;
  const { q, log, turn, due } = harness({ takeAtMost: () => allow });
  q.pushData(bytes("abcdefgh"), "A");
  turn();
  // 3 of "abcd", then the rest again from "d"; ...
  assertEquals(log.slice(0, 4), ["later", "A:abc", "A:def", "A:gh"]);
  allow = 0;
  q.pushData(bytes("xyz"), "B");
  turn();
  assertEquals(log.slice(-2), ["B:", "stopped"]);
  assert(q.paused, "paused by taking nothing");
  assertEquals([q.length, due.length], [1, 0]);
  allow = Infinity;
  q.resume();
  assertEquals(due.length, 1, "resume asks for a slice");
  turn();
  assertEquals(log.slice(-3), ["B:xyz", "done B", "stopped"]);
});

Deno.test("time-sliced queue: pause() from take stops after that piece; nothing runs while paused", () => {
  const { q, log, turn, due } = harness({
    take: (piece, owner) => {
      log.push(`${owner}:${new TextDecoder().decode(piece)}`);
      if (piece[0] === 0x65) q.pause(); // "e"
      return piece.length;
    },
  });
  q.pushData(bytes("abcdefghijkl"), "A");
  turn();
  assertEquals(log, ["later", "A:abcd", "A:efgh", "stopped"]);
  q.pushTask(() => log.push("task"), "T");
  while (due.length > 0) turn();
  assertEquals(log.slice(4), ["later", "stopped"], "nothing run while paused");
  assertEquals(q.length, 2);
  q.resume();
  q.resume(); // not paused: nothing more
  assertEquals(due.length, 1);
  turn();
  assertEquals(log.slice(7), [
    "A:ijkl",
    "done A",
    "task",
    "done T",
    "stopped",
  ]);
});

Deno.test("time-sliced queue: thousands of pieces of work across many slices, none lost or reordered", () => {
  const seen: number[] = [];
  let clock = 0;
  const due: (() => void)[] = [];
  const q = new TimeSlicedQueue<number>({
    sliceMs: 4,
    pieceBytes: 16,
    now: () => clock,
    later: (slice) => due.push(slice),
    take: (piece, owner) => {
      clock += 0.01;
      seen.push(owner);
      return piece.length;
    },
  });
  for (let i = 0; i < 5000; i++) {
    if (i % 3 === 0) {
      q.pushTask(() => {
        clock += 0.01;
        seen.push(i);
      }, i);
    } else q.pushData(new Uint8Array(1 + (i % 40)), i);
  }
  let slices = 0;
  while (due.length > 0) {
    due.shift()!();
    slices++;
  }
  const want: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const pieces = i % 3 === 0 ? 1 : Math.ceil((1 + (i % 40)) / 16);
    for (let k = 0; k < pieces; k++) want.push(i);
  }
  assertEquals(seen, want);
  assert(slices > 10, `${slices} slices`);
  assertEquals(q.length, 0);
});

Deno.test("time-sliced queue: empty output is handed on once, as it is", () => {
  const { q, log, turn } = harness();
  q.pushData(new Uint8Array(0), "E");
  turn();
  assertEquals(log, ["later", "E:", "done E", "stopped"]);
});
