/**
 * The server's side of automatic input mode (server/line_input.ts) over a
 * real WebSocket to a real program on a real PTY: raw keys are written,
 * canonical ones handed back with termios' characters, every later key is
 * handed back until the window's `line`, even after the terminal went raw
 * (then `raw` says so), and history goes to the file.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import type { EditMessage, ServerMessage } from "../../core/protocol.ts";
import { HistoryStore, setHistoryStore } from "../../server/input_history.ts";
import { TestClient } from "./ws_client.ts";

const PROGRAM = `
import os, sys, time, tty, termios
def out(s): os.write(1, s.encode())
saved = termios.tcgetattr(0)
tty.setraw(0, termios.TCSANOW)
out("RAWREADY\\r\\n")
got = os.read(0, 1) + os.read(0, 1)
out("RAW:%s\\r\\n" % got.decode())
termios.tcsetattr(0, termios.TCSANOW, saved)
out("CANON\\n")
line = sys.stdin.readline()
out("LINE:%s" % line)
time.sleep(0.6)
tty.setraw(0, termios.TCSANOW)
out("RAW2\\r\\n")
out("GOT:%s\\r\\n" % os.read(0, 1).decode())
time.sleep(5)
`;

function edits(c: TestClient): EditMessage[] {
  return c.messages.filter((m: ServerMessage) =>
    m.type === "edit"
  ) as EditMessage[];
}

Deno.test("line input: raw keys written, canonical keys handed back in order until line; raw notice; history file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-line-input-" });
  const store = new HistoryStore(`${dir}/domterm/history.json`);
  setHistoryStore(store);
  const s = await startServer({
    command: "python3",
    args: ["-c", PROGRAM],
    assets: {},
    log: () => {},
    shellIntegration: false,
  });
  const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  try {
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
    await c.until(() => c.text.includes("RAWREADY"), "raw mode");
    c.send({ type: "key", seq: 1, data: "x" });
    c.send({ type: "key", seq: 2, data: "y" });
    await c.until(() => c.text.includes("RAW:xy"), "raw keys written");
    assertEquals(edits(c), []);

    await c.until(() => c.text.includes("CANON"), "canonical");
    c.send({ type: "key", seq: 3, data: "h" });
    c.send({ type: "key", seq: 4, data: "i" });
    await c.until(() => edits(c).length === 2, "two keys handed back");
    const [first, second] = edits(c);
    assertEquals([first.seq, first.data, second.seq, second.data], [
      3,
      "h",
      4,
      "i",
    ]);
    assertEquals(first.echo, true);
    assertEquals(first.cc.intr, "\x03");
    assertEquals(first.cc.eof, "\x04");
    assertEquals(first.historyKey, "python3");
    assertEquals(first.history, [], "the window gets the history once");
    assertEquals(second.history, undefined);
    assert(!c.text.includes("LINE:"), "nothing was written");
    c.send({ type: "line", history: "hi" });
    c.input("hi\r");
    await c.until(() => c.text.includes("LINE:hi"), "the line");

    // Canonical again (the program sleeps): a key starts an edit; the
    // program then goes raw: `raw`, and the next key is still handed back.
    c.send({ type: "key", seq: 5, data: "q" });
    await c.until(() => edits(c).length === 3, "handed back");
    await c.until(
      () => c.messages.some((m) => m.type === "raw"),
      "raw notice",
    );
    c.send({ type: "key", seq: 6, data: "z" });
    await c.until(() => edits(c).length === 4, "still handed back");
    assertEquals(edits(c)[3].seq, 6);
    assertEquals(edits(c)[2].history, ["hi"], "the new revision");
    c.send({ type: "line" });
    c.input("q");
    await c.until(() => c.text.includes("GOT:q"), "typed text reaches it");
    assert(!c.text.includes("GOT:z"));

    await store.flush();
    const file = JSON.parse(
      await Deno.readTextFile(`${dir}/domterm/history.json`),
    );
    assertEquals(file.programs.python3, ["hi"]);
  } finally {
    await c.close();
    await s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("line input: a program chooses its history with DOMTERM_HISTORY", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-line-input-" });
  setHistoryStore(new HistoryStore(`${dir}/domterm/history.json`));
  const s = await startServer({
    command: "env",
    args: ["DOMTERM_HISTORY=calc", "sh", "-c", "echo READY; exec cat"],
    assets: {},
    log: () => {},
    shellIntegration: false,
  });
  const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  try {
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
    await c.until(() => c.text.includes("READY"), "the program");
    // Past sh's exec of cat (while a program is in exec() its environment
    // cannot be read).
    const pid = [...s.sessions.values()][0].pid;
    await c.until(() => {
      try {
        return Deno.readTextFileSync(`/proc/${pid}/comm`).trim() === "cat";
      } catch {
        return false;
      }
    }, "cat running");
    c.send({ type: "key", seq: 1, data: "a" });
    await c.until(() => edits(c).length === 1, "handed back");
    assertEquals(edits(c)[0].historyKey, "calc");
  } finally {
    await c.close();
    await s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("history store: per program, capped, written atomically, a broken file set aside", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-history-" });
  try {
    const path = `${dir}/d/history.json`;
    const a = new HistoryStore(path, 3);
    for (const l of ["1", "2", "2", "", "3", "4"]) a.add("bc", l);
    a.add("sqlite3", "select 1;");
    await a.flush();
    assertEquals(a.get("bc"), ["2", "3", "4"]);
    // Another server (or a restart) reads the same file.
    const b = new HistoryStore(path, 3);
    assertEquals(b.get("bc"), ["2", "3", "4"]);
    assertEquals(b.get("sqlite3"), ["select 1;"]);
    b.setCap(1);
    assertEquals(b.get("bc"), ["4"]);
    assertEquals(
      [...Deno.readDirSync(`${dir}/d`)].map((e) => e.name),
      ["history.json"],
      "no temporary file left",
    );
    await Deno.writeTextFile(path, "{not json");
    const logs: string[] = [];
    const c = new HistoryStore(path, 3, (m) => logs.push(m));
    assertEquals(c.get("bc"), []);
    assert(logs[0].includes("not valid JSON"), logs[0]);
    assertEquals(await Deno.readTextFile(`${path}.broken`), "{not json");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("control request input-mode: parsed and validated", async () => {
  const { parseRequest } = await import("../../server/control.ts");
  assertEquals(
    parseRequest(
      JSON.stringify({ op: "input-mode", session: 2, mode: "line" }),
    ),
    { op: "input-mode", session: 2, mode: "line" },
  );
  assertEquals(
    parseRequest(JSON.stringify({ op: "input-mode", session: 2, mode: "x" })),
    "input-mode: mode is auto, char, line or pipe",
  );
});
