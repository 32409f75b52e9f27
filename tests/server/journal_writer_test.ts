/**
 * The journal writer (server/journal/writer.ts) with real sessions on
 * real PTYs: private modes (0700 directories, 0600 files), output on disk
 * within a second, a snapshot at a quiet point that replaces the older
 * files, the history bound, nothing of a password typed with echo off,
 * and what becomes of a journal when the session ends (removed) or the
 * server stops under it (kept, with why).
 */
import { assert, assertEquals } from "../assert.ts";
import { files, journaledRegistry, until } from "./journal_helpers.ts";
import { loadJournal, scanJournals } from "../../server/journal/reader.ts";
import { FLUSH_MS, JournalWriter } from "../../server/journal/writer.ts";
import { Session } from "../../server/session.ts";
import { JOURNAL_VERSION } from "../../server/journal/format.ts";
import { thisServer } from "../../server/journal/liveness.ts";
import type { Terminal } from "../../core/emulator/terminal.ts";

function mode(path: string): number {
  return Deno.statSync(path).mode! & 0o777;
}

/** Every line of `t`'s normal buffer (history and screen), trimmed. */
export function screenText(t: Terminal): string {
  const b = t.normalBuffer;
  const out: string[] = [];
  for (let i = 0; i < b.length; i++) out.push(b.getLine(i).toString(true));
  return out.join("\n");
}

function diskText(dir: string): string {
  return files(dir).filter((f) => f.startsWith("out-") || f.startsWith("snap-"))
    .map((f) => new TextDecoder().decode(Deno.readFileSync(`${dir}/${f}`)))
    .join("");
}

Deno.test("journal writer: modes, output within a second, a quiet snapshot, removed when the session ends", async () => {
  const { registry, root } = journaledRegistry();
  const s = registry.create([
    "/bin/sh",
    "-c",
    "read go; printf '\\033[1mhello-journal\\033[0m\\n'; read end",
  ]);
  const journal = registry.journal(s.id)!;
  await journal.settled();
  const dir = journal.dir;
  assertEquals(mode(root), 0o700);
  assertEquals(mode(dir), 0o700);
  assertEquals(mode(`${dir}/meta.json`), 0o600);
  const meta = JSON.parse(Deno.readTextFileSync(`${dir}/meta.json`));
  assertEquals(meta.command, [
    "/bin/sh",
    "-c",
    "read go; printf '\\033[1mhello-journal\\033[0m\\n'; read end",
  ]);
  assertEquals(meta.ended, null);
  assertEquals([meta.cols, meta.rows], [80, 24]);

  await s.input(new TextEncoder().encode("x\n"));
  const sent = performance.now();
  await until(
    () => diskText(dir).includes("hello-journal"),
    5000,
    "output on disk",
  );
  const took = performance.now() - sent;
  assert(took < FLUSH_MS + 700, `on disk after ${took.toFixed(0)} ms`);
  for (const f of files(dir)) assertEquals(mode(`${dir}/${f}`), 0o600, f);

  // Quiet: a snapshot at the stream's end replaces the segment before it.
  await until(
    () => files(dir).some((f) => f.startsWith("snap-") && f !== "snap-0.json"),
    5000,
    "a snapshot",
  );
  await journal.settled();
  const names = files(dir);
  assert(!names.includes("out-0.bin"), `old segment removed: ${names}`);
  assertEquals(
    JSON.parse(Deno.readTextFileSync(`${dir}/meta.json`)).cwd,
    Deno.cwd(),
  );
  const [entry] = await scanJournals(root);
  assertEquals(entry.live, true);
  const term = await loadJournal(entry);
  assert(screenText(term).includes("hello-journal"));

  await s.input(new TextEncoder().encode("y\n"));
  await s.finished;
  await until(() => files(root).length === 0, 5000, "the journal removed");
});

Deno.test("journal writer: the server stopping keeps the journal, with why; it loads back with everything", async () => {
  const { registry, root } = journaledRegistry();
  const s = registry.create([
    "/bin/sh",
    "-c",
    "i=0; while [ $i -lt 300 ]; do echo line-$i; i=$((i+1)); done; exec cat",
  ]);
  const dir = registry.journal(s.id)!.dir;
  await until(() => diskText(dir).includes("line-299"), 5000, "output");
  // Resized and then stopped before any quiet point: the segment holds it all.
  await registry.closeAll("stopping", {
    reason: "the server was stopped (SIGTERM)",
    auto: true,
  });
  const meta = JSON.parse(Deno.readTextFileSync(`${dir}/meta.json`));
  assertEquals(meta.ended.reason, "the server was stopped (SIGTERM)");
  assertEquals(meta.ended.auto, true);
  const [entry] = await scanJournals(root);
  assertEquals(entry.live, false);
  const text = screenText(await loadJournal(entry));
  assert(
    text.includes("line-0\n") && text.includes("line-299"),
    text.slice(-200),
  );
});

Deno.test("journal writer: bounded to journal-lines of history", async () => {
  const { registry } = journaledRegistry({ "journal-lines": 50 });
  const s = registry.create([
    "/bin/sh",
    "-c",
    "i=0; while [ $i -lt 500 ]; do echo row-$i; i=$((i+1)); done; exec cat",
  ]);
  const journal = registry.journal(s.id)!;
  await until(
    () =>
      files(journal.dir).some((f) =>
        f.startsWith("snap-") && f !== "snap-0.json"
      ),
    8000,
    "a snapshot",
  );
  await journal.settled();
  const snapFile = files(journal.dir).find((f) => f.startsWith("snap-"))!;
  const snap = JSON.parse(Deno.readTextFileSync(`${journal.dir}/${snapFile}`));
  assertEquals(snap.normal.lines.length, 50 + 24);
  await s.close();
});

Deno.test("journal writer: input typed with echo off is never written", async () => {
  const { registry } = journaledRegistry();
  const s = registry.create([
    "/bin/sh",
    "-c",
    "stty -echo; echo ready; IFS= read -r pw; stty echo; echo got-${#pw}; exec cat",
  ]);
  const journal = registry.journal(s.id)!;
  await until(
    () => diskText(journal.dir).includes("ready"),
    5000,
    "the prompt",
  );
  await s.input(new TextEncoder().encode("hunter2-secret\n"));
  await until(
    () => diskText(journal.dir).includes("got-14"),
    5000,
    "the answer",
  );
  await journal.snapshotNow();
  await journal.settled();
  for (const f of files(journal.dir)) {
    const text = new TextDecoder().decode(
      Deno.readFileSync(`${journal.dir}/${f}`),
    );
    assert(!text.includes("hunter2"), `${f} holds the password`);
  }
  await s.close();
});

Deno.test("journal writer: domterm new --no-journal (journal: false) and the journal setting keep none", async () => {
  const a = journaledRegistry();
  const s = a.registry.create(
    ["/bin/sh", "-c", "echo hi; exec cat"],
    undefined,
    { journal: false },
  );
  assertEquals(a.registry.journal(s.id), undefined);
  await s.close();
  const b = journaledRegistry({ journal: false });
  const t = b.registry.create(["/bin/sh", "-c", "echo hi; exec cat"]);
  assertEquals(b.registry.journal(t.id), undefined);
  await t.close();
  assertEquals(files(a.root), []);
  assertEquals(files(b.root), []);
});

Deno.test("journal writer: a long flood takes snapshots and stays bounded on disk", async () => {
  const base = Deno.makeTempDirSync({ prefix: "domterm-journal-test-" });
  const session = Session.start({
    id: 1,
    command: "/bin/sh",
    args: ["-c", "head -c 24000000 /dev/zero | base64; exec cat"],
    cols: 80,
    rows: 24,
    scrollback: 1000,
    shellIntegration: false,
  });
  const journal = new JournalWriter(
    base,
    {
      v: JOURNAL_VERSION,
      session: 1,
      name: null,
      command: ["sh"],
      cwd: null,
      cols: 80,
      rows: 24,
      initial: { cols: 80, rows: 24 },
      scrollback: 1000,
      started: Date.now(),
      server: thisServer(),
      ended: null,
    },
    { pid: session.pid, snapshot: () => session.snapshot() },
    {
      lines: null,
      log: (m) => console.error(m),
      floodSnapshotMs: 0,
    },
  );
  session.setJournal(journal);
  let most = 0, snapsDuringFlood = 0;
  const size = () =>
    files(journal.dir).reduce((n, f) => {
      try {
        return n + Deno.statSync(`${journal.dir}/${f}`).size;
      } catch {
        return n;
      }
    }, 0);
  let last = -1;
  while (session.bytesRead < 32_000_000 || session.bytesRead !== last) {
    last = session.bytesRead;
    most = Math.max(most, size());
    if (files(journal.dir).some((f) => /^snap-[1-9]/.test(f))) {
      snapsDuringFlood++;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  assert(snapsDuringFlood > 0, "a snapshot during the flood");
  // The bound (4 MiB) plus what comes in a flush interval, at most.
  assert(most < 24 * 1024 * 1024, `${most} bytes on disk at most`);
  await until(
    () =>
      files(journal.dir).every((f) =>
        !f.startsWith("out-") || Deno.statSync(`${journal.dir}/${f}`).size === 0
      ),
    8000,
    "the quiet snapshot",
  );
  await journal.settled();
  assert(size() < 1024 * 1024, `${size()} bytes on disk after the quiet point`);
  await session.close();
  await journal.end(null);
});
