/**
 * The window commands as real processes against a real server: `domterm
 * new --tab`, `new --pane[=SIDE]` and `attach --pane N` act on the window
 * they are run from (the one showing the session of their `DOMTERM`) or on
 * `--window`'s; `domterm list` shows the windows, their panes and
 * sessions; `domterm attach` brings back a window whose page is gone.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { panes } from "../../core/layout.ts";
import type { LayoutMessage } from "../../core/protocol.ts";
import { type DomtermOutput, runDomterm } from "../run_domterm.ts";
import { TestClient } from "./ws_client.ts";
import { startServerProcess } from "./server_process.ts";

function env(dir: string, session?: number): Record<string, string> {
  return {
    DOMTERM_RUNTIME_DIR: dir,
    DOMTERM_SOCKET: "",
    // Its own journals: a server restores what it finds there.
    XDG_STATE_HOME: `${dir}/state`,
    // What a program in session N finds (server/session_launch.ts).
    DOMTERM: session === undefined ? "" : `version=1;session#=${session}`,
  };
}

/** A page's window channel on the server at `url`. */
async function page(url: URL, window: number | null, session: number | null) {
  const key = new URLSearchParams(url.hash.slice(1)).get("key")!;
  const c = new TestClient(`ws://127.0.0.1:${url.port}/window`);
  await c.opened;
  c.send({ type: "window-hello", key, window, session, cols: 80, rows: 24 });
  await c.until(() => c.messages.length > 0, "the window's layout");
  return c;
}

function lastLayout(c: TestClient): LayoutMessage {
  const all = c.messages.filter((m) => (m.type as string) === "layout");
  return all.at(-1) as unknown as LayoutMessage;
}

Deno.test("window commands: new --tab/--pane and attach --pane act on this window; list shows it; attach brings it back", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-windows-" });
  const started = await startServerProcess(dir, ["/bin/sh"], env(dir));
  const server = { ...started, url: new URL(started.url) };
  const run = (args: string[], session?: number): Promise<DomtermOutput> =>
    runDomterm(args, env(dir, session));
  let c: TestClient | null = null;
  try {
    // The page of `domterm`'s URL: a new window on a new session.
    c = await page(server.url, null, null);
    const win = lastLayout(c).window;
    const first = panes(lastLayout(c).layout)[0].session;
    const count = (n: number) =>
      c!.until(() => panes(lastLayout(c!).layout).length === n, `${n} panes`);

    // From inside session `first`: a tab, then a pane below it.
    const tab = await run(["new", "--tab"], first);
    assertEquals([tab.code, tab.stdout], [0, ""], tab.stderr);
    await count(2);
    const below = await run(
      [
        "new",
        "--pane=below",
        "--name",
        "low",
        "--",
        "/bin/sh",
        "-c",
        "sleep 60",
      ],
      first,
    );
    assertEquals(below.code, 0, below.stderr);
    await count(3);
    const root = lastLayout(c).layout.root;
    assert(root.kind === "split" && root.direction === "column", "a split");

    // A session started elsewhere, attached into a pane on the left.
    const other = await run(["new", "--no-browser", "--", "/bin/cat"]);
    const otherId = Number(/session=(\d+)/.exec(other.stdout)![1]);
    const attached = await run(
      ["attach", "--pane=left", String(otherId)],
      first,
    );
    assertEquals(attached.code, 0, attached.stderr);
    await count(4);
    // Left of the focused pane (the one below): the lower half is a row now.
    const lower = lastLayout(c).layout.root;
    assert(lower.kind === "split" && lower.children[1].kind === "split");
    const left = lower.children[1].children[0];
    assert(left.kind === "stack" && left.panes[0].session === otherId);
    // --window W from anywhere; no window to act on is said.
    const byWindow = await run(["new", "--tab", "--window", String(win)]);
    assertEquals(byWindow.code, 0, byWindow.stderr);
    await count(5);
    // Named from inside it, then found by that name.
    const named = await run(["name-window", "main"], first);
    assertEquals(named.code, 0, named.stderr);
    const byName = await run(["new", "--tab", "--window", "main"]);
    assertEquals(byName.code, 0, byName.stderr);
    await count(6);
    const digits = await run(["name-window", "--window", "main", "12"]);
    assertEquals(digits.code, 1);
    assertMatch(digits.stderr, /not all digits/);
    const nowhere = await run(["new", "--tab"]);
    assertEquals(nowhere.code, 1);
    assertMatch(nowhere.stderr, /not run inside a domterm window/);

    // list: the windows' table with a row per pane; JSON: where each session is.
    const table = await run(["list"]);
    assertEquals(table.code, 0, table.stderr);
    assertMatch(
      table.stdout,
      /\nWINDOW\s+NAME\s+PAGES\s+PANE\s+SESSION\s+TAB\n/,
    );
    assertMatch(table.stdout, new RegExp(`\n${win}\\s+main\\s+1\\s`));
    const layout = lastLayout(c).layout;
    for (const p of panes(layout)) {
      assertMatch(
        table.stdout,
        new RegExp(`\\s${p.id}\\s+${p.session}\\s+stack`),
      );
    }
    const json = JSON.parse((await run(["list", "--json"])).stdout);
    const low = json.find((s: { name: string }) => s.name === "low");
    const lowPane = panes(layout).find((p) => p.session === low.id)!;
    assertEquals(low.panes, [{ window: win, pane: lowPane.id }]);

    // Every window has its page: a bare attach has nothing to bring back.
    const none = await run(["attach", "--no-browser"]);
    assertEquals(none.code, 1);
    assertMatch(none.stderr, /every window is open/);
    // The page goes (a browser killed): attach brings the window back.
    await c.close();
    for (let i = 0; i < 50; i++) {
      const l = (await run(["list"])).stdout;
      if (/\n\d+\s+-\s+0 \(/.test(l)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // A pane for a window no page shows: its URL (or its browser) opens it;
    // a browser that fails ends the session made for it.
    const panesNow = async () =>
      JSON.parse((await run(["list", "--json"])).stdout).flatMap((
        x: { panes: unknown[] },
      ) => x.panes).length;
    const before = await panesNow();
    const failing = await run([
      "new",
      "--tab",
      "--window",
      String(win),
      "--browser",
      "/bin/false",
    ]);
    assertEquals(failing.code, 1, failing.stderr);
    assertMatch(failing.stderr, /session \d+ was ended/);
    for (let i = 0; i < 50 && await panesNow() !== before; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(await panesNow(), before);
    const back = await run(["attach", "--no-browser"]);
    assertEquals(back.code, 0, back.stderr);
    const backUrl = new URL(back.stdout.trim());
    assertMatch(backUrl.hash, new RegExp(`&window=${win}$`));
    const bySession = await run(["attach", String(first), "--no-browser"]);
    assertEquals(bySession.stdout, back.stdout);
    c = await page(server.url, win, null);
    // The same layout (the pane that came and went used up an id).
    assertEquals({ ...lastLayout(c).layout, nextId: 0 }, {
      ...layout,
      nextId: 0,
    });
  } finally {
    await c?.close();
    await run(["kill-server"]);
    await server.child.status;
    await server.child.stdout.cancel().catch(() => {});
    await server.child.stderr.cancel().catch(() => {});
  }
});
