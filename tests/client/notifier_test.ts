/**
 * The page's notification rules with a controlled clock, focus and
 * Notification API (the e2e test covers the real browser): the rate limit's
 * numbers, focus, length caps, the permission asked once, long commands;
 * and the window title's composition.
 */
import { assertEquals } from "../assert.ts";
import {
  BURST,
  formatDuration,
  INTERVAL_MS,
  MAX_BODY,
  MAX_TITLE,
  type NotificationApi,
  Notifier,
} from "../../client/notifier.ts";
import {
  commandText,
  composeTitle,
  cwdPath,
} from "../../client/window_title.ts";

interface Fake {
  notifier: Notifier;
  shown: { title: string; body: string; tag?: string }[];
  clock: { now: number };
  state: {
    focused: boolean;
    permission: NotificationPermission;
    asked: number;
    answer: NotificationPermission;
  };
  store: Map<string, string>;
}

function fake(permission: NotificationPermission = "granted"): Fake {
  const shown: Fake["shown"] = [];
  const clock = { now: 1000 };
  const state = {
    focused: false,
    permission,
    asked: 0,
    answer: "granted" as NotificationPermission,
  };
  const store = new Map<string, string>();
  const Api = function (title: string, options?: NotificationOptions) {
    shown.push({
      title,
      body: options?.body ?? "",
      ...(options?.tag ? { tag: options.tag } : {}),
    });
    return { close() {}, onclick: null };
  } as unknown as NotificationApi;
  Object.defineProperty(Api, "permission", { get: () => state.permission });
  (Api as { requestPermission: () => Promise<NotificationPermission> })
    .requestPermission = () => {
      state.asked++;
      state.permission = state.answer;
      return Promise.resolve(state.answer);
    };
  const notifier = new Notifier({
    api: () => Api,
    focused: () => state.focused,
    now: () => clock.now,
    storage: () => ({
      getItem: (k) => store.get(k) ?? null,
      setItem: (k, v) => void store.set(k, v),
    }),
    fallbackTitle: () => "bash \u2014 /tmp",
    focusWindow: () => {},
  });
  return { notifier, shown, clock, state, store };
}

Deno.test("notifier: a burst of 3, then one per 5 s, never more than 3 saved up", () => {
  const f = fake();
  const out = [];
  for (let i = 0; i < 5; i++) out.push(f.notifier.notify(`t${i}`, ""));
  assertEquals(out, [
    "shown",
    "shown",
    "shown",
    "rate-limited",
    "rate-limited",
  ]);
  assertEquals(BURST, 3);
  assertEquals(INTERVAL_MS, 5000);
  f.clock.now += 4999;
  assertEquals(f.notifier.notify("a", ""), "rate-limited");
  f.clock.now += 1;
  assertEquals(f.notifier.notify("b", ""), "shown");
  assertEquals(f.notifier.notify("c", ""), "rate-limited");
  // A long quiet time gives back the burst, not more.
  f.clock.now += 60_000;
  const later = [];
  for (let i = 0; i < 4; i++) later.push(f.notifier.notify(`x${i}`, ""));
  assertEquals(later, ["shown", "shown", "shown", "rate-limited"]);
  assertEquals(f.notifier.dropped, 5);
  assertEquals(f.shown.length, 7);
});

Deno.test("notifier: nothing while focused, and that costs no rate", () => {
  const f = fake();
  f.state.focused = true;
  for (let i = 0; i < 10; i++) {
    assertEquals(f.notifier.notify("t", "b"), "focused");
  }
  f.state.focused = false;
  assertEquals(f.notifier.notify("t", "b"), "shown");
  assertEquals(f.shown, [{ title: "t", body: "b" }]);
});

Deno.test("notifier: titles and bodies are capped; no title takes the window's", () => {
  const f = fake();
  f.notifier.notify("T".repeat(500), "B".repeat(5000), "osc99-1");
  f.notifier.notify("  ", "body only");
  assertEquals(f.shown[0].title.length, MAX_TITLE);
  assertEquals(f.shown[0].body.length, MAX_BODY);
  assertEquals(f.shown[0].title.at(-1), "\u2026");
  assertEquals(f.shown[0].tag, "osc99-1");
  assertEquals(f.shown[1], { title: "bash \u2014 /tmp", body: "body only" });
});

Deno.test("notifier: the permission is asked once, on the first notification", async () => {
  const f = fake("default");
  assertEquals(f.state.asked, 0);
  assertEquals(f.notifier.notify("first", ""), "asking");
  await Promise.resolve();
  assertEquals(f.state.asked, 1);
  assertEquals(f.shown.map((s) => s.title), ["first"]);
  assertEquals(f.notifier.notify("second", ""), "shown");
  assertEquals(f.state.asked, 1);

  // Dismissed (still "default"): not asked again, here or in a new page.
  const g = fake("default");
  g.state.answer = "default";
  g.notifier.notify("one", "");
  await Promise.resolve();
  assertEquals(g.notifier.notify("two", ""), "denied");
  assertEquals([g.state.asked, g.shown.length], [1, 0]);
  assertEquals(g.store.get("domterm-notify-asked"), "1");

  const denied = fake("denied");
  assertEquals(denied.notifier.notify("x", ""), "denied");
  assertEquals(denied.state.asked, 0);
});

Deno.test("notifier: long commands, off by default, at the threshold", () => {
  const f = fake();
  f.notifier.commandStarted();
  f.clock.now += 60_000;
  assertEquals(f.notifier.commandEnded(0), null); // off
  f.notifier.setNotifyLongCommands(true, 10);
  f.notifier.commandStarted();
  f.clock.now += 9_999;
  assertEquals(f.notifier.commandEnded(0), null); // too short
  f.notifier.commandStarted();
  f.clock.now += 10_000;
  assertEquals(f.notifier.commandEnded(0), "shown");
  f.notifier.commandStarted();
  f.clock.now += 125_000;
  assertEquals(f.notifier.commandEnded(2), "shown");
  assertEquals(f.notifier.commandEnded(0), null); // no start: nothing
  assertEquals(f.shown.map((s) => s.title), [
    "Command finished after 10 s",
    "Command failed (exit 2) after 2 min 5 s",
  ]);
  assertEquals(f.shown[0].body, "bash \u2014 /tmp");
  f.notifier.setNotifyLongCommands(false);
  assertEquals(f.notifier.longCommands, { on: false, thresholdSeconds: 10 });
  assertEquals(formatDuration(3_725_000), "1 h 2 min");
});

Deno.test("window title: program title, else command and directory, progress first", () => {
  const none = { state: 0, percent: 0 } as const;
  const src = (title: string, cwd: string) => ({ title, cwd, windowName: "" });
  assertEquals(composeTitle(src("", ""), [], none), "domterm");
  assertEquals(
    composeTitle(src("", "file://host/home/me/my%20dir"), ["/bin/bash"], none),
    "bash \u2014 /home/me/my dir",
  );
  assertEquals(composeTitle(src("", ""), ["vim", "a.txt"], none), "vim a.txt");
  assertEquals(composeTitle(src("vim", "file:///x"), ["bash"], none), "vim");
  assertEquals(
    composeTitle(src("t", ""), [], { state: 1, percent: 40 }),
    "[40%] t",
  );
  assertEquals(
    composeTitle(src("t", ""), [], { state: 3, percent: 0 }),
    "[\u2026] t",
  );
  assertEquals(cwdPath("kitty-shell-cwd://h/tmp"), "/tmp");
  assertEquals(cwdPath("file://h/bad%zz"), "/bad%zz");
  assertEquals(cwdPath("nonsense"), "");
  assertEquals(commandText(["x".repeat(100)]).length, 60);
});
