/**
 * The slow-link detection of server/frames/policy.ts (DrainMeter): a
 * window whose acknowledgements come back within a loopback round trip
 * keeps HIGH_WATER in flight; one over a 100 ms, 2 Mbit/s link gets the
 * probe window until its rate is measured, then a quarter second of its
 * rate, and is slow (fed frames past that, not held for).
 */
import { assert, assertEquals } from "../assert.ts";
import {
  DRAIN_TARGET_MS,
  DrainMeter,
  PROBE_WINDOW,
} from "../../server/frames/policy.ts";
import { HIGH_WATER } from "../../core/protocol.ts";

/**
 * A flood of `ms` over a link of `rttMs` and `bytesPerMs`: the sender
 * keeps the meter's limit in flight, the link serializes chunk by chunk,
 * each chunk's ack comes back a round trip after it was serialized; then
 * the program stops and the rest is acknowledged.
 */
function flood(
  m: DrainMeter,
  rttMs: number,
  bytesPerMs: number,
  ms: number,
  start = 0,
): number {
  // ready, acknowledged at once by the page
  m.sent(0, 0, start);
  m.acked(0, 0, 0, start + rttMs);
  const chunk = 16 * 1024;
  let t = start + rttMs, sent = 0, acked = 0, linkFree = t;
  const acks: number[] = []; // each chunk's ack time, in order
  for (;;) {
    while (t < start + ms && sent - acked < m.limit(HIGH_WATER)) {
      sent += chunk;
      m.sent(sent, sent - acked, t);
      linkFree = Math.max(linkFree, t) + chunk / bytesPerMs;
      acks.push(linkFree + rttMs);
    }
    const next = acks.shift();
    if (next === undefined) return t;
    t = next;
    acked += chunk;
    m.acked(chunk, acked, sent - acked, t);
  }
}

Deno.test("drain meter: a loopback window keeps HIGH_WATER in flight and is never slow", () => {
  const m = new DrainMeter();
  assertEquals(m.limit(HIGH_WATER), HIGH_WATER, "before any round trip");
  flood(m, 2, 20_000, 500);
  assert(!m.remote, `rtt ${m.rtt}`);
  assertEquals(m.limit(HIGH_WATER), HIGH_WATER);
  assert(!m.slow(HIGH_WATER));
});

Deno.test("drain meter: a 100 ms, 2 Mbit/s link gets the probe window, then a quarter second of its rate, and is slow", () => {
  const m = new DrainMeter();
  m.sent(0, 0, 0);
  m.acked(0, 0, 0, 100);
  assert(m.remote);
  assertEquals(m.rate, null);
  assertEquals(m.limit(HIGH_WATER), PROBE_WINDOW);
  assert(!m.slow(HIGH_WATER), "not slow before its rate is known");
  flood(m, 100, 250, 3000);
  const rate = m.rate!;
  assert(rate > 150 && rate < 300, `rate ${rate} bytes/ms`);
  assert(m.slow(HIGH_WATER));
  assertEquals(
    m.limit(HIGH_WATER),
    Math.max(PROBE_WINDOW, rate * DRAIN_TARGET_MS),
  );
  assert(m.limit(HIGH_WATER) < 100 * 1024);
});

Deno.test("drain meter: a remote but fast link (100 ms, 100 MB/s) keeps HIGH_WATER", () => {
  const m = new DrainMeter();
  flood(m, 100, 100_000, 2000);
  assert(m.remote);
  assertEquals(m.limit(HIGH_WATER), HIGH_WATER);
  assert(!m.slow(HIGH_WATER));
});

Deno.test("drain meter: time with little in flight (the program quiet) does not count against the rate", () => {
  const m = new DrainMeter();
  flood(m, 100, 250, 1000);
  const rate = m.rate!;
  // A keystroke's echo, acknowledged a second later: not a busy period.
  m.sent(10_000_000, 3, 50_000);
  m.acked(3, 10_000_000, 0, 51_000);
  assertEquals(m.rate, rate);
});

Deno.test("drain meter: the first ack of a busy stretch (a round trip late, acking older bytes) does not count", () => {
  const m = new DrainMeter();
  m.sent(0, 0, 0);
  m.acked(0, 0, 0, 100);
  // A flood starts: 64 KiB out; the first ack, a round trip later, is for
  // the 5 bytes of the command's echo.
  m.sent(65_541, 65_536, 1000);
  m.acked(5, 5, 65_536, 1120);
  assertEquals(m.rate, null);
  let acked = 5;
  for (let t = 1120 + 64; t < 1600; t += 64) {
    acked += 16_000;
    m.acked(16_000, acked, 65_541 - acked, t);
  }
  const rate = m.rate!;
  assert(rate > 200 && rate < 300, `rate ${rate} bytes/ms`);
});

Deno.test("drain meter: a remote window holds the program back a few round trips, a loopback one STALE_MS", () => {
  const local = new DrainMeter();
  local.sent(0, 0, 0);
  local.acked(0, 0, 0, 3);
  assertEquals(local.staleAfter(1500), 1500);
  const remote = new DrainMeter();
  remote.sent(0, 0, 0);
  remote.acked(0, 0, 0, 120);
  assertEquals(remote.staleAfter(1500), 360);
  const far = new DrainMeter();
  far.sent(0, 0, 0);
  far.acked(0, 0, 0, 900);
  assertEquals(far.staleAfter(1500), 1500);
});

Deno.test("drain meter: a page known to be direct on loopback is never remote, however slow its acks", () => {
  const m = new DrainMeter();
  m.direct = true;
  m.sent(0, 0, 0);
  m.acked(0, 0, 0, 500);
  assert(!m.remote);
  assertEquals(m.limit(HIGH_WATER), HIGH_WATER);
  assertEquals(m.staleAfter(1500), 1500);
});

Deno.test("drain meter: a remote window is fed frames at once past its limit, rate known or not; a loopback or direct one is not", () => {
  const remote = new DrainMeter();
  remote.sent(0, 0, 0);
  remote.acked(0, 0, 0, 100);
  assertEquals(remote.rate, null);
  assert(remote.framesAtOnce());
  const local = new DrainMeter();
  local.sent(0, 0, 0);
  local.acked(0, 0, 0, 3);
  assert(!local.framesAtOnce());
  const direct = new DrainMeter();
  direct.direct = true;
  direct.sent(0, 0, 0);
  direct.acked(0, 0, 0, 500);
  assert(!direct.framesAtOnce());
});
