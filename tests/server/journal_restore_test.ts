/**
 * Restore after a crash, with real server processes (main.ts): a shell
 * prints styled text, changes directory and floods with no window
 * attached; the server is killed with SIGKILL; the next server brings the
 * session back by itself (scrollback, divider, a new shell in the same
 * directory) and reports the journals it cannot read (corrupt, another
 * version, a snapshot that does not load) with their paths, which
 * `domterm list --restorable` also shows; `domterm forget` removes them.
 * Then `domterm kill-server` keeps the journal without restoring it at
 * the next start, and `domterm restore 1` brings it back.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";
import { runDomterm } from "../run_domterm.ts";
import { request } from "../../server/control.ts";
import { TestClient } from "./ws_client.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalSnapshot } from "../../core/emulator/terminal.ts";
import {
  type ServerProcess,
  startLoggedServer,
  until,
} from "./journal_helpers.ts";

type Server = ServerProcess;
const startServer = startLoggedServer;

async function connect(
  s: Server,
  session?: number,
): Promise<{ c: TestClient; id: number }> {
  const c = new TestClient(`ws://${s.url.host}/ws`);
  await c.opened;
  c.send({
    type: "hello",
    key: s.key,
    cols: 80,
    rows: 24,
    ...(session ? { session } : {}),
  });
  await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
  const ready = c.messages.find((m) => m.type === "ready")!;
  return { c, id: (ready as { session: number }).session };
}

function allText(t: Terminal): string {
  const b = t.normalBuffer;
  const out: string[] = [];
  for (let i = 0; i < b.length; i++) out.push(b.getLine(i).toString(true));
  return out.join("\n");
}

function badJournal(root: string, id: string, files: Record<string, string>) {
  Deno.mkdirSync(`${root}/${id}`, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(files)) {
    Deno.writeTextFileSync(`${root}/${id}/${name}`, text, { mode: 0o600 });
  }
}

Deno.test("journal restore: kill -9 mid-flood, the next server brings the session back; bad journals reported and skipped", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-restore-test-" });
  const env = privateRuntimeEnv({ DOMTERM_RUNTIME_DIR: dir, PS1: "$ " });
  const sock = `${dir}/server.sock`;
  const root = `${dir}/state/domterm/journal`;
  const work = Deno.realPathSync(Deno.makeTempDirSync()) + "/some where";
  const a = await startServer(env);
  const { c, id } = await connect(a);
  c.input(
    `mkdir -p '${work}' && cd '${work}' && printf '\\033[1;31mRED-BOLD\\033[0m\\n' && echo done-$((6*7))\n`,
  );
  await c.until(() => c.text.includes("done-42"), "the output");
  // A flood nobody watches: nothing holds reading back.
  // (Paced so that the history keeps it all: 2,000 lines a second at most.)
  c.input(
    "i=0; while :; do echo flood-$i; i=$((i+1)); [ $((i % 200)) = 0 ] && sleep 0.1; done\n",
  );
  await c.until(() => c.text.includes("flood-1"), "the flood");
  await c.close();
  await new Promise((r) => setTimeout(r, 2500));
  a.child.kill("SIGKILL");
  await a.child.status;

  // Journals that cannot come back.
  badJournal(root, "100-1", { "meta.json": "{not json" });
  badJournal(root, "101-2", { "meta.json": JSON.stringify({ v: 99 }) });
  const meta = JSON.parse(
    Deno.readTextFileSync(
      `${root}/${
        [...Deno.readDirSync(root)].find((e) =>
          e.name.endsWith(`-${id}`) && !e.name.startsWith("10")
        )!.name
      }/meta.json`,
    ),
  );
  badJournal(root, "102-3", {
    "meta.json": JSON.stringify({ ...meta, session: 3, started: 102 }),
    "snap-5.json": '{"v":1,"cols":"x"}',
  });

  const b = await startServer(env);
  try {
    await until(
      () => b.stderr().includes("restored session"),
      20_000,
      "the restore",
    );
    const err = b.stderr();
    assertMatch(err, /100-1: meta.json is not JSON; not restored/);
    assertMatch(
      err,
      /101-2: journal version 99 \(this domterm reads version 1\); not restored/,
    );
    assertMatch(err, /102-3: no snapshot reads back/);
    const list = await request(sock, { op: "list" });
    assertEquals(list?.sessions?.length, 1);
    const restored = list!.sessions![0];
    assertEquals(restored.command, ["/bin/sh"]);
    const snap = await request(sock, { op: "snapshot", session: restored.id });
    const term = Terminal.restore(snap!.snapshot as TerminalSnapshot);
    const text = allText(term);
    assert(text.includes("RED-BOLD"), text.slice(0, 500));
    // Every line of the flood up to where the journal ends: no gap.
    const floods = [...text.matchAll(/^flood-(\d+)$/gm)].map((m) => +m[1]);
    assert(floods.length > 200, `${floods.length} flood lines`);
    assertEquals(floods, floods.map((_, i) => i));
    assertMatch(
      text,
      /── session restored: the server stopped at \d\d:\d\d:\d\d ──/,
    );
    // The styles came back: the line has its style runs (bold red).
    const lines = (snap!.snapshot as TerminalSnapshot).normal.lines;
    const styled = lines.find((l) => l.c === "RED-BOLD");
    assert(styled?.s !== undefined, JSON.stringify(styled));
    // A new shell in the same directory.
    const { c: c2 } = await connect(b, restored.id);
    c2.input("pwd\n");
    await c2.until(() => c2.text.includes(`\n${work}\r\n`), "pwd");
    await c2.close();

    // list --restorable: the bad ones, with their paths and why.
    const l = await runDomterm(["list", "--restorable"], env);
    assertEquals(l.code, 0, l.stderr);
    assertMatch(l.stdout, /cannot be restored/);
    assert(l.stdout.includes(`${root}/100-1: meta.json is not JSON`), l.stdout);
    assert(l.stdout.includes(`${root}/101-2: journal version 99`), l.stdout);
    assert(
      l.stdout.includes(`${root}/102-3: no snapshot reads back`),
      l.stdout,
    );
    const f = await runDomterm(["forget", "all"], env);
    assertEquals(f.code, 0, f.stderr);
    assertEquals(
      (await runDomterm(["list", "--restorable"], env)).stdout.trim(),
      "nothing to restore",
    );

    // kill-server: kept, not restored by itself; `domterm restore 1`.
    assertEquals((await runDomterm(["kill-server"], env)).code, 0);
    await b.child.status;
    const kept = await runDomterm(["list", "--restorable", "--json"], env);
    const entries = JSON.parse(kept.stdout);
    assertEquals(entries.length, 1);
    assertEquals(entries[0].auto, false);
    assertEquals(entries[0].cwd, work);
    assertMatch(entries[0].reason, /kill-server/);
    const s3 = await startServer(env);
    try {
      await new Promise((r) => setTimeout(r, 500));
      assertEquals((await request(sock, { op: "list" }))?.sessions, []);
      const r = await runDomterm(["restore", "1"], env);
      assertEquals(r.code, 0, r.stderr);
      assertMatch(r.stdout, /restored as session \d+/);
      const after = await request(sock, { op: "list" });
      assertEquals(after?.sessions?.length, 1);
    } finally {
      await runDomterm(["kill-server"], env);
      await s3.child.status;
    }
  } finally {
    try {
      b.child.kill("SIGKILL");
    } catch { /* gone */ }
    await b.child.status;
  }
});

Deno.test("journal restore: a server stopped by SIGTERM (a logout, a reboot) keeps its sessions' journals; the next one restores them", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-restore-test-" });
  const env = privateRuntimeEnv({ DOMTERM_RUNTIME_DIR: dir, PS1: "$ " });
  const sock = `${dir}/server.sock`;
  const a = await startServer(env);
  const { c } = await connect(a);
  c.input("echo before-$((6*7))\n");
  await c.until(() => c.text.includes("before-42"), "the output");
  await c.close();
  a.child.kill("SIGTERM");
  await a.child.status;
  const b = await startServer(env);
  try {
    await until(
      () => b.stderr().includes("restored session"),
      20_000,
      "the restore",
    );
    const list = await request(sock, { op: "list" });
    assertEquals(list?.sessions?.length, 1);
    const snap = await request(sock, {
      op: "snapshot",
      session: list!.sessions![0].id,
    });
    const text = allText(
      Terminal.restore(snap!.snapshot as TerminalSnapshot),
    ).replace(/\n/g, "");
    assert(text.includes("before-42"), text);
    assertMatch(
      text,
      /── session restored: the server was stopped \(SIGTERM\) at \d\d:\d\d:\d\d ──/,
    );
  } finally {
    await runDomterm(["kill-server"], env);
    await b.child.status;
  }
});
