/**
 * The server's windows over real WebSockets with real PTYs: a page's
 * window channel (`/window`) makes a window (a new session or an existing
 * one), gets its layout after every change, and changes it: tabs and
 * splits start sessions (in the directory of the pane beside them), panes
 * move, close (their session hung up when no window shows it), go to
 * another window and back. A session that ends leaves every layout; a
 * window without a page stays, and a reload finds it; the gate checks the
 * hello as it does a session's; a read-only share changes nothing.
 */
import { assert, assertEquals } from "../assert.ts";
import { type DomtermServer, startServer } from "../../server/http.ts";
import {
  CLOSE_BAD_KEY,
  CLOSE_NO_SESSION,
  CLOSE_NO_WINDOW,
  type LayoutMessage,
  type LayoutOp,
  type WindowServerMessage,
} from "../../core/protocol.ts";
import { type Layout, panes, stacks } from "../../core/layout.ts";
import { processCwd } from "../../server/opener.ts";
import { TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

function serve(): DomtermServer {
  return startServer({
    command: "sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
  });
}

/** A page's window channel. */
class Page {
  readonly c: TestClient;
  constructor(server: DomtermServer) {
    this.c = new TestClient(`ws://127.0.0.1:${server.port}/window`);
  }
  get messages(): WindowServerMessage[] {
    return this.c.messages as unknown as WindowServerMessage[];
  }
  /** The last layout message. */
  get last(): LayoutMessage {
    const all = this.messages.filter((m) => m.type === "layout");
    assert(all.length > 0, "a layout came");
    return all.at(-1) as LayoutMessage;
  }
  async hello(
    key: string,
    window: number | null,
    session: number | null = null,
  ): Promise<void> {
    await this.c.opened;
    this.c.send({
      type: "window-hello",
      key,
      window,
      session,
      cols: 80,
      rows: 24,
    });
    await this.c.until(
      () => this.messages.length > 0 || this.c.closeCode !== null,
      "the answer to window-hello",
    );
  }
  /** Send `op`; wait for the next layout (or error) message. */
  async op(op: LayoutOp): Promise<WindowServerMessage> {
    const n = this.messages.length;
    this.c.send({ type: "layout-op", op });
    await this.c.until(
      () =>
        this.messages.slice(n).some((m) =>
          m.type === "layout" || m.type === "window-error" ||
          m.type === "window-closed"
        ),
      `the answer to ${op.op}`,
    );
    return this.messages.slice(n).find((m) => m.type !== "open-window")!;
  }
}

/** The tree in short: "s[1,2*]" a stack of sessions (* shown), "row(a|b)", "col(a/b)". */
function shape(layout: Layout): string {
  const node = (n: Layout["root"]): string =>
    n.kind === "stack"
      ? `s[${
        n.panes.map((p) => `${p.session}${p.id === n.shown ? "*" : ""}`).join(
          ",",
        )
      }]`
      : `${n.direction === "row" ? "row" : "col"}(${
        n.children.map(node).join(n.direction === "row" ? "|" : "/")
      })`;
  return node(layout.root);
}

Deno.test("window channel: a new window, tabs and splits start sessions, every page hears", async () => {
  const server = serve();
  const a = new Page(server), b = new Page(server);
  try {
    await a.hello(server.key, null);
    const first = a.last;
    assertEquals(first.window, 1);
    const s1 = panes(first.layout)[0].session;
    assert(server.registry.get(s1), "the window's session runs");
    // A second page on the same window (another OS window, or a reload).
    await b.hello(server.key, first.window);
    assertEquals(b.last.layout, first.layout);

    // A new tab starts a session in the directory of the pane beside it.
    const sh = server.registry.get(s1)!;
    const dir = await Deno.makeTempDir();
    await sh.input(new TextEncoder().encode(`cd ${dir}\n`));
    const until = Date.now() + 5000;
    while (processCwd(sh.pid) !== dir && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const p1 = first.layout.focus;
    const tab = await a.op({ op: "tab", beside: p1, session: null });
    assertEquals(tab.type, "layout");
    const l2 = a.last.layout;
    const s2 = panes(l2)[1].session;
    assert(s2 !== s1 && server.registry.get(s2), "a new session");
    assertEquals(shape(l2), `s[${s1},${s2}*]`);
    assertEquals(processCwd(server.registry.get(s2)!.pid), dir);
    await b.c.until(() => shape(b.last.layout) === shape(l2), "b hears");

    // A split below the new tab, showing session 1 again.
    await a.op({ op: "split", beside: l2.focus, side: "below", session: s1 });
    assertEquals(shape(a.last.layout), `col(s[${s1},${s2}*]/s[${s1}*])`);
    const split = a.last.layout.root;
    assert(split.kind === "split");
    await a.op({ op: "resize", split: split.id, sizes: [3, 1] });
    const sizes = (a.last.layout.root as typeof split).sizes;
    assertEquals(sizes.map((s) => Math.round(s * 100)), [75, 25]);
    // Focus, rename, move the first tab into the lower stack.
    await a.op({ op: "focus", pane: p1 });
    assertEquals(a.last.layout.focus, p1);
    await a.op({ op: "rename", pane: p1, title: "home" });
    assertEquals(panes(a.last.layout)[0].title, "home");
    const lower = stacks(a.last.layout)[1];
    await a.op({
      op: "move",
      pane: p1,
      drop: { kind: "tabs", stack: lower.id, index: 1 },
    });
    assertEquals(shape(a.last.layout), `col(s[${s2}*]/s[${s1},${s1}*])`);
    await b.c.until(
      () => shape(b.last.layout) === shape(a.last.layout),
      "b hears every change",
    );
    assertEquals(server.windows.info()[0].pages, 2);
    await Deno.remove(dir);
  } finally {
    await a.c.close();
    await b.c.close();
    await server.shutdown();
  }
});

Deno.test("window channel: errors are said, the layout stays", async () => {
  const server = serve();
  const a = new Page(server);
  try {
    await a.hello(server.key, null);
    const before = a.last.layout;
    for (
      const [op, want] of [
        [{ op: "focus", pane: 99 }, "focus: no pane 99"],
        [
          { op: "tab", beside: before.focus, session: 777 },
          "tab: there is no session 777 (it may have ended)",
        ],
        [
          { op: "to-window", pane: before.focus, window: 5 },
          "to-window: there is no window 5",
        ],
      ] as const
    ) {
      const m = await a.op(op as LayoutOp);
      assertEquals(m, { type: "window-error", message: want });
    }
    a.c.send({ type: "layout-op", op: { op: "explode" } });
    await a.c.until(
      () => a.messages.at(-1)?.type === "window-error",
      "an error for a bad op",
    );
    assertEquals(server.windows.get(1)!.layout, before);
    assertEquals(server.registry.sessions.size, 1);
  } finally {
    await a.c.close();
    await server.shutdown();
  }
});

Deno.test("window channel: closing panes ends their sessions, the last closes the window", async () => {
  const server = serve();
  const a = new Page(server);
  try {
    await a.hello(server.key, null);
    const p1 = a.last.layout.focus;
    const s1 = panes(a.last.layout)[0].session;
    await a.op({ op: "tab", beside: p1, session: null });
    await a.op({ op: "split", beside: p1, side: "right", session: s1 });
    const [, second, third] = panes(a.last.layout);
    const s2 = second.session;
    const s2Session = server.registry.get(s2)!;
    // Closing a pane of session 1, which another pane shows: it lives.
    await a.op({ op: "close", pane: third.id });
    assert(!server.registry.get(s1)!.exitStatus, "session 1 still runs");
    // Closing the only pane of session 2: it is hung up.
    await a.op({ op: "close", pane: second.id });
    await s2Session.finished;
    assertEquals(shape(a.last.layout), `s[${s1}*]`);
    // The last pane: the window closes, its session ends.
    const s1Session = server.registry.get(s1)!;
    const m = await a.op({ op: "close", pane: p1 });
    assertEquals(m, { type: "window-closed" });
    // Until the socket closes, what the page sends changes nothing.
    assertEquals(await a.op({ op: "tab", beside: p1, session: null }), {
      type: "window-error",
      message: "the window has closed",
    });
    await s1Session.finished;
    assertEquals(server.windows.all().length, 0);
    await a.c.closed;
    assertEquals(a.c.closeCode, 1000);
  } finally {
    await a.c.close();
    await server.shutdown();
  }
});

Deno.test("window channel: an ended session leaves the layout; a window without a page stays", async () => {
  const server = serve();
  const a = new Page(server);
  const b = new Page(server);
  const c = new Page(server);
  try {
    await a.hello(server.key, null);
    const p1 = a.last.layout.focus;
    await a.op({ op: "split", beside: p1, side: "left", session: null });
    const s2 = panes(a.last.layout)[0].session;
    await server.registry.get(s2)!.close();
    await a.c.until(() => panes(a.last.layout).length === 1, "pane gone");
    // The page goes (a crash, a reload): the window stays.
    const layout = a.last.layout;
    await a.c.close();
    const until = Date.now() + 2000;
    while (server.windows.info()[0].pages > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assertEquals(server.windows.info()[0].pages, 0);
    assert(server.windows.info()[0].detachedSince !== null);
    await b.hello(server.key, 1);
    assertEquals(b.last, { type: "layout", window: 1, layout });
    // A window that is not there.
    await c.hello(server.key, 42);
    await c.c.closed;
    assertEquals(c.c.closeCode, CLOSE_NO_WINDOW);
    assertEquals(c.messages[0], {
      type: "window-error",
      message: "there is no window 42 (it may have closed)",
    });
  } finally {
    for (const p of [a, b, c]) await p.c.close();
    await server.shutdown();
  }
});

Deno.test("window channel: a pane goes to a new window and back", async () => {
  const server = serve();
  const a = new Page(server), b = new Page(server);
  try {
    await a.hello(server.key, null);
    const p1 = a.last.layout.focus;
    await a.op({ op: "tab", beside: p1, session: null });
    await a.op({ op: "rename", pane: a.last.layout.focus, title: "build" });
    const moving = panes(a.last.layout)[1];
    const n = a.messages.length;
    await a.op({ op: "to-new-window", pane: moving.id });
    const opened = a.messages.slice(n).find((m) => m.type === "open-window");
    assertEquals(opened, { type: "open-window", window: 2 });
    assertEquals(panes(a.last.layout).length, 1);
    await b.hello(server.key, 2);
    const moved = panes(b.last.layout);
    assertEquals(moved.map((p) => [p.session, p.title]), [
      [moving.session, "build"],
    ]);
    // And back: window 2 loses its only pane and closes.
    const m = await b.op({ op: "to-window", pane: moved[0].id, window: 1 });
    assertEquals(m, { type: "window-closed" });
    await a.c.until(() => panes(a.last.layout).length === 2, "back in 1");
    assertEquals(panes(a.last.layout)[1].session, moving.session);
    assertEquals(panes(a.last.layout)[1].title, "build");
    assert(!server.registry.get(moving.session)!.exitStatus, "it still runs");
    assertEquals(server.windows.all().map((w) => w.id), [1]);
  } finally {
    await a.c.close();
    await b.c.close();
    await server.shutdown();
  }
});

Deno.test("window channel: the gate checks the hello; a read-only share changes nothing", async () => {
  const server = serve();
  const bad = new Page(server), mine = new Page(server);
  const share = new Page(server), other = new Page(server);
  try {
    await bad.hello("wrong", null);
    await bad.c.closed;
    assertEquals(bad.c.closeCode, CLOSE_BAD_KEY);
    assertEquals(server.registry.sessions.size, 0, "no session started");

    await mine.hello(server.key, null);
    const s1 = panes(mine.last.layout)[0].session;
    const token = server.gate.shares.create(s1, true).token;
    await share.hello(token, null, s1);
    assertEquals(share.last.window, 0);
    assertEquals(panes(share.last.layout).map((p) => p.session), [s1]);
    const m = await share.op({
      op: "tab",
      beside: share.last.layout.focus,
      session: null,
    });
    assertEquals(m, {
      type: "window-error",
      message: "read-only share: the layout cannot be changed",
    });
    assertEquals(server.registry.sessions.size, 1);
    // A share opens its own session only, never a window of the server's.
    await other.hello(token, 1);
    await other.c.closed;
    assertEquals(other.c.closeCode, CLOSE_BAD_KEY);
    assertEquals(server.windows.all().length, 1);
  } finally {
    for (const p of [bad, mine, share, other]) await p.c.close();
    await server.shutdown();
  }
});

Deno.test("window channel: a hello for a session that is not there is refused", async () => {
  const server = serve();
  const a = new Page(server);
  try {
    await a.hello(server.key, null, 9);
    await a.c.closed;
    assertEquals(a.c.closeCode, CLOSE_NO_SESSION);
    assertEquals(server.windows.all().length, 0);
  } finally {
    await a.c.close();
    await server.shutdown();
  }
});

Deno.test("windows: layouts() and restore() keep what still runs", async () => {
  const server = serve();
  const a = new Page(server);
  try {
    await a.hello(server.key, null);
    await a.op({ op: "tab", beside: a.last.layout.focus, session: null });
    const saved = server.windows.layouts();
    assertEquals(saved.length, 1);
    const [s1, s2] = panes(saved[0].layout).map((p) => p.session);
    await server.registry.get(s2)!.close();
    await a.c.close();
    // As a restarted server would: the window is gone here, then restored.
    server.windows.update(server.windows.get(1)!, null);
    const problems = server.windows.restore([
      ...saved,
      { id: 7, name: null, layout: { root: null } as unknown as Layout },
    ]);
    assertEquals(problems.length, 1);
    assert(problems[0].startsWith("window 7: "), problems[0]);
    const back = server.windows.get(1)!;
    assertEquals(panes(back.layout).map((p) => p.session), [s1]);
    assertEquals(server.windows.open(s1).id, 2, "numbers go on after it");
  } finally {
    await a.c.close();
    await server.shutdown();
  }
});

Deno.test("window channel: a reload slower than the close grace keeps the session (its window's page is back)", async () => {
  const server = startServer({
    command: "sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    closeGraceMs: 300,
  });
  const a = new Page(server);
  const b = new Page(server);
  const t1 = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
  const t2 = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
  try {
    await a.hello(server.key, null);
    const id = panes(a.last.layout)[0].session;
    const hello = (t: TestClient) => {
      t.send({
        type: "hello",
        key: server.key,
        cols: 80,
        rows: 24,
        session: id,
      });
      return t.until(() => t.messages.some((m) => m.type === "ready"), "ready");
    };
    const session = server.registry.get(id)!;
    let ended = false;
    session.finished.then(() => ended = true);
    await t1.opened;
    await hello(t1);
    // The page reloads: its terminal says it is closing, both sockets go.
    t1.send({ type: "closing" });
    await t1.close();
    await a.c.close();
    // The new page's window channel is back within the grace, its terminal
    // only well after it.
    await new Promise((r) => setTimeout(r, 100));
    await b.hello(server.key, 1);
    await new Promise((r) => setTimeout(r, 900));
    assert(!ended, "the session still runs");
    await t2.opened;
    await hello(t2);
    // With no page of its window back, a closed last window still ends it.
    t2.send({ type: "closing" });
    await t2.close();
    await b.c.close();
    const status = await Promise.race([
      session.finished,
      new Promise<null>((r) => setTimeout(() => r(null), 5000)),
    ]);
    assert(status !== null, "the session ended after the grace");
  } finally {
    for (const c of [a.c, b.c, t1, t2]) await c.close();
    await server.shutdown();
  }
});
