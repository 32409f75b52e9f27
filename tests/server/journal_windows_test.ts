/**
 * The windows' layouts come back with their sessions after a crash: a
 * server with a window of two panes side by side and a second tab (made
 * through the window channel and `domterm new --pane/--tab`, as a user's
 * page and shell do) is killed with SIGKILL; the next server restores the
 * three sessions into one window of the same shape, each session where it
 * was. Then a windows file that cannot be read is reported with its path
 * and set aside, and the sessions still come back.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { type Layout, type LayoutNode, panes } from "../../core/layout.ts";
import type { LayoutMessage } from "../../core/protocol.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalSnapshot } from "../../core/emulator/terminal.ts";
import { request } from "../../server/control.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";
import { runDomterm } from "../run_domterm.ts";
import { TestClient } from "./ws_client.ts";
import {
  type ServerProcess,
  spawnLoggedServer,
  startLoggedServer,
  until,
} from "./journal_helpers.ts";

/** A page's window channel: window `window` (null: a new one on a new session). */
async function page(s: ServerProcess, window: number | null) {
  const c = new TestClient(`ws://${s.url.host}/window`);
  await c.opened;
  c.send({
    type: "window-hello",
    key: s.key,
    window,
    session: null,
    cols: 80,
    rows: 24,
  });
  await c.until(() => c.messages.length > 0, "the window's layout");
  return c;
}

function lastLayout(c: TestClient): LayoutMessage {
  const all = c.messages.filter((m) => (m.type as string) === "layout");
  return all.at(-1) as unknown as LayoutMessage;
}

/** `layout` with each pane's session replaced by `name(session)`. */
function shape(layout: Layout, name: (session: number) => string): unknown {
  const node = (n: LayoutNode): unknown =>
    n.kind === "stack"
      ? {
        ...n,
        panes: n.panes.map((p) => ({ ...p, session: name(p.session) })),
      }
      : { ...n, children: n.children.map(node) };
  return { ...layout, root: node(layout.root) };
}

/** The mark (`mark-X`) session `id`'s model shows. */
async function markOf(sock: string, id: number): Promise<string> {
  const snap = await request(sock, { op: "snapshot", session: id });
  const t = Terminal.restore(snap!.snapshot as TerminalSnapshot);
  const b = t.normalBuffer;
  for (let i = 0; i < b.length; i++) {
    const m = /mark-[a-z]+-done/.exec(b.getLine(i).toString(true));
    if (m) return m[0];
  }
  return `none (session ${id})`;
}

/** Type into session `id` through its own WebSocket, until `expect` is shown. */
async function typeInto(
  s: ServerProcess,
  id: number,
  text: string,
  expect: string,
): Promise<void> {
  const c = new TestClient(`ws://${s.url.host}/ws`);
  await c.opened;
  c.send({ type: "hello", key: s.key, cols: 80, rows: 24, session: id });
  await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
  c.input(text);
  await c.until(() => c.text.includes(expect), expect);
  await c.close();
}

/** Whether `bytes` hold `want`. */
function holds(bytes: Uint8Array, want: Uint8Array): boolean {
  for (
    let i = bytes.indexOf(want[0]);
    i >= 0;
    i = bytes.indexOf(want[0], i + 1)
  ) {
    let k = 1;
    while (k < want.length && bytes[i + k] === want[k]) k++;
    if (k === want.length) return true;
  }
  return false;
}

/** Whether some file under `dir` holds `text` (as bytes). */
function journalHolds(dir: string, text: string): boolean {
  const want = new TextEncoder().encode(text);
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return false;
  }
  for (const e of entries) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory && journalHolds(p, text)) return true;
    if (!e.isFile) continue;
    try {
      if (holds(Deno.readFileSync(p), want)) return true;
    } catch { /* replaced meanwhile */ }
  }
  return false;
}

function windowsFiles(root: string): string[] {
  try {
    return [...Deno.readDirSync(root)].map((e) => e.name).filter((n) =>
      n.startsWith("windows-")
    );
  } catch {
    return [];
  }
}

Deno.test("journal windows: kill -9, the next server restores one window of the same shape, each session in its place; a bad windows file is reported and set aside", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-journal-windows-" });
  const env = privateRuntimeEnv({ DOMTERM_RUNTIME_DIR: dir, PS1: "$ " });
  const sock = `${dir}/server.sock`;
  const root = `${dir}/state/domterm/journal`;
  const inside = (session: number) => ({
    ...env,
    DOMTERM_SOCKET: "",
    DOMTERM: `version=1;session#=${session}`,
  });
  const a = await startLoggedServer(env);
  let b: ServerProcess | null = null;
  let c: ServerProcess | null = null;
  try {
    const p = await page(a, null);
    const first = panes(lastLayout(p).layout)[0].session;
    const right = await runDomterm(["new", "--pane=right"], inside(first));
    assertEquals(right.code, 0, right.stderr);
    await p.until(() => panes(lastLayout(p).layout).length === 2, "2 panes");
    const tab = await runDomterm(["new", "--tab"], inside(first));
    assertEquals(tab.code, 0, tab.stderr);
    await p.until(() => panes(lastLayout(p).layout).length === 3, "3 panes");
    const before = lastLayout(p).layout;
    const root0 = before.root;
    assert(root0.kind === "split" && root0.direction === "row", "a row");
    // Each session prints a mark of its own: that is how we find it again.
    const names = ["alpha", "beta", "gamma"];
    const markAt = new Map<number, string>();
    for (const [i, pane] of panes(before).entries()) {
      await typeInto(
        a,
        pane.session,
        `echo mark-${names[i]}-don''e\n`,
        `mark-${names[i]}-done`,
      );
      markAt.set(pane.session, `mark-${names[i]}-done`);
    }
    await p.close();
    // The windows file and the journals on disk (within a second).
    await until(
      () => {
        const f = windowsFiles(root).find((n) => n.endsWith(".json"));
        if (!f) return false;
        const w = JSON.parse(Deno.readTextFileSync(`${root}/${f}`));
        return w.windows.length === 1 &&
          panes(w.windows[0].layout).length === 3;
      },
      10_000,
      "the windows file",
    );
    for (const f of windowsFiles(root)) {
      assertEquals(Deno.statSync(`${root}/${f}`).mode! & 0o777, 0o600);
    }
    // Each mark's output is in a journal on disk (flushed within a
    // second), waited for rather than slept on.
    await until(
      () => [...markAt.values()].every((m) => journalHolds(root, m)),
      10_000,
      "the marks in the journals",
    );
    a.child.kill("SIGKILL");
    await a.child.status;

    b = await startLoggedServer(env);
    const bs = b;
    await until(
      () => bs.stderr().split("restored session").length === 4,
      30_000,
      "three sessions restored",
    );
    const list = await request(sock, { op: "list" });
    assertEquals(list?.sessions?.length, 3, bs.stderr());
    assertEquals(list?.windows?.length, 1, JSON.stringify(list?.windows));
    const q = await page(b, list!.windows![0].id);
    const after = lastLayout(q).layout;
    await q.close();
    const newMarks = new Map<number, string>();
    for (const pane of panes(after)) {
      newMarks.set(pane.session, await markOf(sock, pane.session));
    }
    assertEquals(
      shape(after, (s) => newMarks.get(s)!),
      shape(before, (s) => markAt.get(s)!),
    );
    // The old server's windows file is gone; this server keeps its own.
    await until(
      () => windowsFiles(root).includes(`windows-${b!.child.pid}.json`),
      10_000,
      "the new server's windows file",
    );
    assertEquals(windowsFiles(root), [`windows-${b.child.pid}.json`]);

    // A windows file that cannot be read: reported, set aside, the
    // sessions come back all the same (each on its own).
    await new Promise((r) => setTimeout(r, 2000));
    b.child.kill("SIGKILL");
    await b.child.status;
    const bad = `${root}/windows-${b.child.pid}.json`;
    Deno.writeTextFileSync(bad, "{not json", { mode: 0o600 });
    c = await startLoggedServer(env);
    const cs = c;
    await until(
      () => cs.stderr().split("restored session").length === 4,
      30_000,
      "three sessions restored again",
    );
    await until(
      () => cs.stderr().includes("windows journal"),
      10_000,
      "the report",
    );
    assertMatch(
      cs.stderr(),
      new RegExp(
        `windows journal ${bad}: not JSON; its layouts are not restored`,
      ),
    );
    const again = await request(sock, { op: "list" });
    assertEquals(again?.sessions?.length, 3);
    assert(windowsFiles(root).includes(`windows-${b.child.pid}.json.broken`));
  } finally {
    await runDomterm(["kill-server"], env);
    for (const s of [a, b, c]) {
      if (s === null) continue;
      try {
        s.child.kill("SIGKILL");
      } catch { /* gone */ }
      await s.child.status;
    }
  }
});

Deno.test("journal windows: the next server opens one browser window per restored window, and one per restored session no window showed", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-journal-windows-" });
  const env = privateRuntimeEnv({ DOMTERM_RUNTIME_DIR: dir, PS1: "$ " });
  const sock = `${dir}/server.sock`;
  const root = `${dir}/state/domterm/journal`;
  // A "browser" that notes the page its launcher opens.
  const opened = `${dir}/opened.txt`;
  const browser = `${dir}/browser.sh`;
  Deno.writeTextFileSync(
    browser,
    `#!/bin/sh\nfor a; do case "$a" in --app=file://*) ` +
      `grep -o 'replace("[^"]*")' "\${a#--app=file://}" >> '${opened}';; ` +
      `esac; done\n`,
    { mode: 0o700 },
  );
  const a = await startLoggedServer(env);
  let b: Deno.ChildProcess | null = null;
  try {
    const p = await page(a, null);
    const first = panes(lastLayout(p).layout)[0].session;
    const tab = await runDomterm(["new", "--tab"], {
      ...env,
      DOMTERM_SOCKET: "",
      DOMTERM: `version=1;session#=${first}`,
    });
    assertEquals(tab.code, 0, tab.stderr);
    await p.until(() => panes(lastLayout(p).layout).length === 2, "2 panes");
    await p.close();
    // A session no window shows.
    const alone = await runDomterm(
      ["new", "--no-browser", "--", "/bin/sh"],
      env,
    );
    assertEquals(alone.code, 0, alone.stderr);
    await until(() => windowsFiles(root).length === 1, 10_000, "windows file");
    await new Promise((r) => setTimeout(r, 2000));
    a.child.kill("SIGKILL");
    await a.child.status;

    const started = spawnLoggedServer(env, ["--browser", browser]);
    b = started.child;
    started.child.stdout.cancel();
    await until(
      () => started.stderr().split("restored session").length === 4,
      30_000,
      "three sessions restored",
    );
    await until(
      () => {
        try {
          return Deno.readTextFileSync(opened).split("\n").length >= 3;
        } catch {
          return false;
        }
      },
      20_000,
      "two pages opened",
    );
    await new Promise((r) => setTimeout(r, 500));
    const pages = Deno.readTextFileSync(opened).trim().split("\n");
    assertEquals(pages.length, 2, pages.join("\n"));
    const list = await request(sock, { op: "list" });
    assertEquals(list?.windows?.length, 1);
    const win = list!.windows![0];
    assertEquals(win.panes.length, 2);
    const shown = new Set(win.panes.map((x) => x.session));
    const other = list!.sessions!.find((x) => !shown.has(x.id))!;
    // (The two browsers run at once: either may note its page first.)
    assertEquals(
      pages.map((u) => /&(window|session)=(\d+)"/.exec(u)?.slice(1).join("="))
        .sort(),
      [`session=${other.id}`, `window=${win.id}`],
    );
  } finally {
    await runDomterm(["kill-server"], env);
    for (const child of [a.child, b]) {
      if (child === null) continue;
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
    }
  }
});
