/**
 * The page's shared budget for its panes' output (client/output_share.ts):
 * the focused pane is never in the background, the others are once a pane
 * has the focus and there are two or more; background slices take turns in
 * order, at most BACKGROUND_MS of work per PERIOD_MS, the rest after the
 * period ends.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  BACKGROUND_MS,
  OutputShare,
  PERIOD_MS,
} from "../../client/output_share.ts";

function harness() {
  let clock = 0;
  const tasks: (() => void)[] = [];
  const timers: { f: () => void; at: number }[] = [];
  const share = new OutputShare<string>(
    () => clock,
    (f) => tasks.push(f),
    (f, ms) => timers.push({ f, at: clock + ms }),
  );
  return {
    share,
    tasks,
    timers,
    advance(ms: number) {
      clock += ms;
    },
    get clock() {
      return clock;
    },
  };
}

Deno.test("output share: one pane, or no focus yet, is never in the background", () => {
  const { share } = harness();
  share.join("a");
  share.focus("b");
  assert(!share.background("a"), "the only member");
  share.join("b");
  assert(share.background("a"));
  assert(!share.background("b"), "the focused one");
  share.leave("b");
  assert(!share.background("a"), "the focused one left");
});

Deno.test("output share: background slices take turns within the budget per period", () => {
  const h = harness();
  const { share, tasks, timers } = h;
  for (const k of ["a", "b", "c", "d"]) share.join(k);
  share.focus("a");
  const ran: string[] = [];
  // Each slice costs half the budget.
  const cost = BACKGROUND_MS / 2;
  const slice = (k: string) => () => {
    ran.push(k);
    h.advance(cost);
  };
  share.later(slice("b"));
  share.later(slice("c"));
  share.later(slice("d"));
  // One turn posted at a time, as a task.
  assertEquals(tasks.length, 1);
  tasks.shift()!();
  assertEquals(ran, ["b"]);
  assertEquals(tasks.length, 1);
  tasks.shift()!();
  assertEquals(ran, ["b", "c"]);
  // The budget is used: the next turn waits for the period's end.
  assertEquals(tasks.length, 0);
  assertEquals(timers.length, 1);
  assertEquals(timers[0].at, PERIOD_MS);
  h.advance(timers[0].at - h.clock);
  timers.shift()!.f();
  assertEquals(ran, ["b", "c", "d"]);
  assertEquals(tasks.length + timers.length, 0, "nothing more to do");
});
