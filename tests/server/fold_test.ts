/**
 * A fold made by hand is the session's (issue 34), over real WebSockets
 * with a real PTY: window a folds a command group (a `fold` message naming
 * the group's mark, as the page computes it from its own model); the
 * server's model has the flag, window b is sent the fold, a is not sent
 * its own back, and a window that attaches later, or resumes from an
 * offset before the fold, has it too, and so does a window of the server
 * that `domterm restart-server` started. The journal has it within about a
 * second, even while output goes on (no quiet point). A read-only viewer's
 * fold changes nothing.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { Session } from "../../server/session.ts";
import type { Viewer } from "../../server/viewer.ts";
import type {
  FoldMessage,
  ServerMessage,
  SnapshotMessage,
} from "../../core/protocol.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import {
  deriveMarks,
  type MarkRef,
  markRef,
} from "../../core/model/command_groups.ts";
import { TestClient } from "./ws_client.ts";
import { files, journaledRegistry, until } from "./journal_helpers.ts";
import { loadJournal, scanJournals } from "../../server/journal/reader.ts";
import {
  domterm,
  newSession,
  startHandoverServer,
  stopHandoverServer,
} from "../handover_server.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

/** A command group as a shell with OSC 133 marks prints it. */
const COMMAND = `stty -echo; PS1=''; ` +
  `printf '\\033]133;A\\007$ \\033]133;B\\007seq 3\\r\\n\\033]133;C\\007'; ` +
  `seq 3; printf '\\033]133;D;0\\007\\033]133;A\\007$ \\033]133;B\\007done\\n'\r`;

function msgs<T extends ServerMessage["type"]>(
  c: TestClient,
  type: T,
): Extract<ServerMessage, { type: T }>[] {
  return c.messages.filter((m) => m.type === type) as Extract<
    ServerMessage,
    { type: T }
  >[];
}

async function hello(
  c: TestClient,
  key: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await c.opened;
  c.send({ type: "hello", key, cols: 80, rows: 24, ...extra });
  await c.until(() => msgs(c, "ready").length > 0, "ready");
}

/** A client's copy of the model: its snapshot, then the bytes after it. */
function clientModel(c: TestClient): Terminal {
  const snap = msgs(c, "snapshot")[0] as SnapshotMessage;
  const t = Terminal.restore(snap.snapshot as never);
  t.write(c.output);
  return t;
}

/** The folded flag of every group of `t`. */
function folds(t: Terminal): (boolean | undefined)[] {
  return deriveMarks(t.normalBuffer).groups.map((g) => g.startMark.folded);
}

/** The reference of group `i` in `t`, as the page sends it. */
function groupRef(t: Terminal, i: number): MarkRef {
  const g = deriveMarks(t.normalBuffer).groups[i];
  return markRef(t.normalBuffer, g.start.line, g.startMark);
}

async function serverModel(session: Session): Promise<Terminal> {
  const snap = await session.snapshot();
  assert(snap !== null, "the session has a model");
  return Terminal.restore(JSON.parse(snap.json));
}

Deno.test("fold: a window's fold reaches the server's model, the other windows, later ones and a resumed one", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
  });
  const clients: TestClient[] = [];
  try {
    const a = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
    clients.push(a);
    await hello(a, s.key);
    const id = msgs(a, "ready")[0].session;
    const b = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
    clients.push(b);
    await hello(b, s.key, { session: id });
    await a.until(() => msgs(a, "snapshot").length > 0, "a's snapshot");
    await b.until(() => msgs(b, "snapshot").length > 0, "b's snapshot");
    a.input(COMMAND);
    for (const c of [a, b]) {
      await c.until(() => c.text.includes("\x07done"), "the output");
    }
    const session = s.sessions.get(id)!;
    const model = clientModel(a);
    assertEquals(folds(model).length, 2, "two groups (seq 3, the prompt)");
    const ref = groupRef(model, 0);
    const before = session.bytesRead;
    const bSnap = msgs(b, "snapshot")[0].offset;

    const fold: FoldMessage = { type: "fold", ...ref, folded: true };
    a.send(fold);
    await b.until(() => msgs(b, "fold").length === 1, "b is told");
    assertEquals(msgs(b, "fold")[0], fold);
    assertEquals(folds(await serverModel(session)), [true, undefined]);
    assertEquals(msgs(a, "fold").length, 0, "a is not sent its own fold");

    // A window that attaches now gets it in its snapshot.
    const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
    clients.push(c);
    await hello(c, s.key, { session: id });
    await c.until(() => msgs(c, "snapshot").length > 0, "c's snapshot");
    assertEquals(folds(clientModel(c)), [true, undefined], "in a snapshot");

    // b resumes from an offset before the fold: it is sent again.
    const had = b.output.length;
    await b.close();
    const r = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
    clients.push(r);
    await hello(r, s.key, { session: id, offset: bSnap + had, gridSeq: 0 });
    assertEquals(msgs(r, "ready")[0].resumed, true);
    assertEquals(bSnap + had, before);
    await r.until(() => msgs(r, "fold").length === 1, "the fold replayed");
    assertEquals(msgs(r, "fold")[0], fold);

    // Unfolded again: false, everywhere.
    a.send({ ...fold, folded: false });
    await c.until(() => msgs(c, "fold").length === 1, "c is told");
    assertEquals(msgs(c, "fold")[0].folded, false);
    assertEquals(folds(await serverModel(session)), [false, undefined]);

    // A message that names no mark changes nothing and breaks nothing.
    a.send({ ...fold, line: ref.line + 1000 });
    a.send({ ...fold, kind: "output-start" });
    a.input("echo still\r");
    await a.until(() => a.text.includes("still"), "the session goes on");
    assertEquals(folds(await serverModel(session)), [false, undefined]);
  } finally {
    for (const c of clients) await c.close();
    await s.shutdown();
  }
});

Deno.test("fold: a read-only viewer's fold leaves the session's model alone", async () => {
  const told: ServerMessage[] = [];
  const viewer = (readOnly: boolean): Viewer => ({
    output: () => {},
    snapshot: () => {},
    message: (m: ServerMessage) => void told.push(m),
    end: () => {},
    readOnly,
  });
  const session = Session.start({
    id: 1,
    command: "/bin/sh",
    args: ["-c", COMMAND.replace(/\r$/, "") + "; exec sleep 100"],
    cols: 80,
    rows: 24,
    shellIntegration: false,
  });
  try {
    const owner = session.attach(viewer(false), 80, 24);
    const ro = session.attach(viewer(true), 80, 24);
    let model = await serverModel(session);
    const end = performance.now() + 10_000;
    while (folds(model).length < 2) {
      if (performance.now() > end) throw new Error("no command group");
      await new Promise((r) => setTimeout(r, 50));
      model = await serverModel(session);
    }
    const fold: FoldMessage = {
      type: "fold",
      ...groupRef(model, 0),
      folded: true,
    };
    told.length = 0;
    session.fold(ro, fold);
    assertEquals(folds(await serverModel(session)), [undefined, undefined]);
    assertEquals(told.filter((m) => m.type === "fold"), [], "nobody is told");
    session.fold(owner, fold);
    assertEquals(folds(await serverModel(session)), [true, undefined]);
    assertEquals(told.filter((m) => m.type === "fold"), [fold], "ro is told");
  } finally {
    await session.close();
  }
});

Deno.test("fold: a fold made by hand is handed over by restart-server", async () => {
  const s = await startHandoverServer(["/bin/sh"]);
  const clients: TestClient[] = [];
  /** A new window on session `id` (retries while nobody listens). */
  const attach = async (id: number): Promise<TestClient> => {
    for (let i = 0;; i++) {
      const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
      clients.push(c);
      await c.opened;
      if (c.closeCode === null) {
        await hello(c, s.key, { session: id });
        await c.until(() => msgs(c, "snapshot").length > 0, "a snapshot");
        return c;
      }
      if (i > 200) throw new Error("nobody listens");
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    const id = await newSession(s, [
      "/bin/sh",
      "-c",
      COMMAND.replace(/\r$/, "") + "; exec cat",
    ]);
    let a = await attach(id);
    await a.until(() => folds(clientModel(a)).length === 2, "the groups");
    const fold: FoldMessage = {
      type: "fold",
      ...groupRef(clientModel(a), 0),
      folded: true,
    };
    a.send(fold);
    // The fold reached the session when a second window gets it.
    const b = await attach(id);
    assertEquals(folds(clientModel(b)), [true, undefined], "before");
    const out = await domterm(s, ["restart-server"]);
    assertEquals(out.code, 0, out.stderr);
    a = await attach(id);
    assertEquals(folds(clientModel(a)), [true, undefined], "after");
  } finally {
    for (const c of clients) await c.close();
    await stopHandoverServer(s);
  }
});

Deno.test("fold: the journal has a fold within about a second, while output goes on", async () => {
  const { registry, root } = journaledRegistry();
  const s = registry.create([
    "/bin/sh",
    "-c",
    COMMAND.replace(/\r$/, "") +
    "; while :; do echo tick; sleep 0.1; done",
  ]);
  try {
    const journal = registry.journal(s.id)!;
    let model = await serverModel(s);
    await until(
      async () => {
        model = await serverModel(s);
        return folds(model).length >= 2;
      },
      10_000,
      "the groups",
    );
    const w = s.attach(
      {
        output: () => {},
        snapshot: () => {},
        message: () => {},
        end: () => {},
      },
      80,
      24,
    );
    s.fold(w, { type: "fold", ...groupRef(model, 0), folded: true });
    const at = performance.now();
    const hasFold = () =>
      files(journal.dir).some((f) =>
        f.startsWith("snap-") &&
        Deno.readTextFileSync(`${journal.dir}/${f}`).includes(
          '"folded":true',
        )
      );
    await until(hasFold, 10_000, "a snapshot with the fold");
    const took = performance.now() - at;
    // One flush interval, and the snapshot (upper bound on a loaded machine).
    assert(took < 5000, `on disk after ${took.toFixed(0)} ms`);
    await journal.settled();
    const [entry] = await scanJournals(root);
    assertEquals(folds(await loadJournal(entry))[0], true, "it loads back");
  } finally {
    await registry.closeAll("test over", { reason: "test", auto: false });
  }
});
