/**
 * The session's replay log (server/replay.ts): what a reconnecting window
 * missed, within a byte budget, and nothing kept past it.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { assert, assertEquals } from "../assert.ts";
import {
  REPLAY_BUDGET,
  REPLAY_BYTES,
  REPLAY_FLOOR,
  ReplayBudget,
  type ReplayEntry,
  ReplayLog,
} from "../../server/replay.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (e: ReplayEntry) =>
  "data" in e ? new TextDecoder().decode(e.data) : `grid ${e.seq}`;

Deno.test("replay log: a window gets the bytes and grid changes after its offset", () => {
  const log = new ReplayLog(100);
  log.pushBytes(bytes("hello "));
  log.pushBytes(bytes("world"));
  const seq = log.pushGrid(40, 10);
  log.pushBytes(bytes("!"));
  const cases: [number, number, string[] | null][] = [
    [0, 0, ["hello ", "world", "grid 1", "!"]],
    [3, 0, ["lo ", "world", "grid 1", "!"]],
    [11, 0, ["grid 1", "!"]],
    [11, seq, ["!"]],
    [12, seq, []],
    // Past the end, or a grid change never made: not a stream we sent.
    [13, seq, null],
    [0, seq + 1, null],
    // Bytes after a grid change the window says it has not seen.
    [12, 0, null],
  ];
  for (const [offset, gridSeq, want] of cases) {
    const got = log.since(offset, gridSeq);
    assertEquals(got?.map(text) ?? null, want, `since(${offset}, ${gridSeq})`);
  }
});

Deno.test("replay log: past its capacity the oldest bytes go, and a window behind them gets null", () => {
  const log = new ReplayLog(10);
  for (const s of ["aaaa", "bbbb", "cccc", "dddd"]) log.pushBytes(bytes(s));
  assertEquals([log.start, log.end], [8, 16]);
  assertEquals(log.since(7, 0), null);
  assertEquals(log.since(8, 0)?.map(text), ["cccc", "dddd"]);
});

Deno.test("replay log: the bytes it dropped are not kept alive", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const log = new ReplayLog(4 << 20);
  let first: WeakRef<ArrayBuffer> | null = null;
  // 200 reads of 64 KiB: 136 dropped, fewer than a compaction waits for.
  for (let i = 0; i < 200; i++) {
    const chunk = new Uint8Array(64 << 10);
    if (i === 0) first = new WeakRef(chunk.buffer);
    log.pushBytes(chunk);
  }
  assertEquals(log.start, 136 * (64 << 10));
  // A WeakRef holds its target until the end of the job that read it.
  await new Promise((r) => setTimeout(r, 0));
  gc();
  await new Promise((r) => setTimeout(r, 0));
  gc();
  assert(first!.deref() === undefined, "the first read was collected");
  assertEquals(log.since(log.start, 0)?.length, 64);
});

Deno.test("replay log: logs that share a budget keep their share, and trim to it when another joins", () => {
  const budget = new ReplayBudget(120, 30);
  const a = new ReplayLog(100, 0, budget);
  for (let i = 0; i < 10; i++) a.pushBytes(bytes("0123456789"));
  // Alone: its own capacity (100) is below the budget.
  assertEquals(a.bytes, 100);
  assertEquals(a.start, 0);
  const b = new ReplayLog(100, 0, budget);
  // Two logs: 60 each; the first let its oldest 40 bytes go at once.
  assertEquals(a.bytes, 60);
  assertEquals(a.start, 40);
  assertEquals(a.since(39, 0), null);
  assertEquals(a.since(40, 0)?.map(text).join(""), "0123456789".repeat(6));
  for (let i = 0; i < 10; i++) b.pushBytes(bytes("abcdefghij"));
  assertEquals(b.bytes, 60);
  // Five logs: never under the floor (30), whatever their number.
  const more = [1, 2, 3].map(() => new ReplayLog(100, 0, budget));
  assertEquals(budget.share, 30);
  assertEquals([a.bytes, b.bytes], [30, 30]);
  // Logs that leave give their share back to the next bytes.
  for (const l of [...more, b]) l.close();
  for (let i = 0; i < 10; i++) a.pushBytes(bytes("0123456789"));
  assertEquals(a.bytes, 100);
  // A log of no budget keeps its capacity.
  assertEquals(new ReplayLog(100).limit, 100);
});

Deno.test("replay log: the server's budget keeps 4 MiB a session up to 8 sessions, and at least twice the flow-control window", () => {
  assertEquals(REPLAY_BUDGET / REPLAY_BYTES, 8);
  const budget = new ReplayBudget();
  const logs = Array.from(
    { length: 20 },
    () => new ReplayLog(REPLAY_BYTES, 0, budget),
  );
  assertEquals(logs[0].limit, REPLAY_FLOOR);
  assertEquals(REPLAY_FLOOR, 2 << 20);
  for (const l of logs.slice(8)) l.close();
  assertEquals(logs[0].limit, REPLAY_BYTES);
});
