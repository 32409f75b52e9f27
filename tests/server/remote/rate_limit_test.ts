/** The login back-off: free failures, doubling waits, per address, reset on success. */
import { assert, assertEquals } from "../../assert.ts";
import { LoginRateLimiter } from "../../../server/remote/rate_limit.ts";

Deno.test("five failures are free, then each wait doubles up to the cap", () => {
  const l = new LoginRateLimiter({ baseDelayMs: 1000, maxDelayMs: 8000 });
  const t = 1_000_000;
  for (let i = 0; i < 4; i++) {
    l.fail("a", t);
    assertEquals(l.retryAfterMs("a", t), 0, `after ${i + 1} failures`);
  }
  l.fail("a", t);
  assertEquals(l.retryAfterMs("a", t), 1000);
  assertEquals(l.retryAfterMs("a", t + 400), 600);
  assertEquals(l.retryAfterMs("a", t + 1000), 0);
  l.fail("a", t + 1000);
  assertEquals(l.retryAfterMs("a", t + 1000), 2000);
  l.fail("a", t + 3000);
  assertEquals(l.retryAfterMs("a", t + 3000), 4000);
  l.fail("a", t + 7000);
  l.fail("a", t + 15000);
  assertEquals(l.retryAfterMs("a", t + 15000), 8000, "capped");
});

Deno.test("addresses are counted apart and a success clears one", () => {
  const l = new LoginRateLimiter();
  for (let i = 0; i < 5; i++) l.fail("10.0.0.1", 0);
  assert(l.retryAfterMs("10.0.0.1", 0) > 0);
  assertEquals(l.retryAfterMs("10.0.0.2", 0), 0);
  l.succeed("10.0.0.1");
  assertEquals(l.retryAfterMs("10.0.0.1", 0), 0);
});

Deno.test("the table of addresses is bounded", () => {
  const l = new LoginRateLimiter({ maxEntries: 3, freeFailures: 1 });
  for (const a of ["a", "b", "c", "d"]) l.fail(a, 0);
  assertEquals(l.retryAfterMs("a", 0), 0, "the oldest was forgotten");
  assert(l.retryAfterMs("d", 0) > 0);
});
