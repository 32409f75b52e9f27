import { assertEquals } from "../assert.ts";
import { BackgroundBudget } from "../../client/render/background_budget.ts";

/** A budget on a fake clock: posted tasks and timers run when the test says. */
function fake(share = 0.3, periodMs = 100) {
  let now = 0;
  const posted: (() => void)[] = [];
  const timers: { at: number; f: () => void }[] = [];
  const budget = new BackgroundBudget({
    share,
    periodMs,
    now: () => now,
    post: (f) => posted.push(f),
    wait: (f, ms) => timers.push({ at: now + ms, f }),
  });
  return {
    budget,
    posted,
    timers,
    advance(ms: number) {
      now += ms;
    },
    get now() {
      return now;
    },
    /** Run posted tasks, then due timers, until nothing is left before `until`. */
    runUntil(until: number) {
      for (;;) {
        const p = posted.shift();
        if (p) {
          p();
          continue;
        }
        timers.sort((a, b) => a.at - b.at);
        if (timers.length === 0 || timers[0].at > until) break;
        const t = timers.shift()!;
        now = Math.max(now, t.at);
        t.f();
      }
      now = Math.max(now, until);
    },
  };
}

Deno.test("background budget: turns take at most their share of each period, in order", () => {
  const f = fake(0.3, 100);
  const ran: [string, number][] = [];
  // Each turn takes 10 ms of the clock.
  const turn = (name: string) => () => {
    ran.push([name, f.now]);
    f.advance(10);
  };
  for (let i = 0; i < 10; i++) f.budget.run("a", turn(`a${i}`));
  f.runUntil(99);
  // 30 ms of a 100 ms period: three turns, then a wait for the next period.
  assertEquals(ran.map((r) => r[0]), ["a0", "a1", "a2"]);
  assertEquals(f.budget.waiting, 7);
  f.runUntil(199);
  assertEquals(ran.map((r) => r[0]), ["a0", "a1", "a2", "a3", "a4", "a5"]);
  assertEquals(ran[3][1], 100, "the next period starts its turns at once");
});

Deno.test("background budget: owners take turns; a promoted owner runs at once, outside the budget", () => {
  const f = fake(0.1, 100);
  const ran: string[] = [];
  const turn = (name: string) => () => {
    ran.push(name);
    f.advance(10);
  };
  f.budget.run("a", turn("a1"));
  f.budget.run("b", turn("b1"));
  f.budget.run("a", turn("a2"));
  f.budget.run("b", turn("b2"));
  f.runUntil(50);
  assertEquals(ran, ["a1"], "10% of 100 ms: one 10 ms turn");
  f.budget.promote("b");
  f.runUntil(60);
  assertEquals(ran, ["a1", "b1", "b2"], "b's turns ran without waiting");
  f.budget.forget("a");
  f.runUntil(300);
  assertEquals(ran, ["a1", "b1", "b2"], "a's turns were dropped");
  assertEquals(f.budget.waiting, 0);
});
