/**
 * The server's side of a large paste in automatic mode (server/line_input.ts,
 * `key` messages with `bulk`) over a real WebSocket to a real program on a
 * real PTY: written in order whatever the terminal's state, INTR drops what
 * is not yet in the kernel, and what was pasted for one program never goes
 * to the next one in the foreground.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { TestClient } from "./ws_client.ts";

const LINES = 16384; // of 64 bytes: 1 MiB
const TEXT = Array.from(
  { length: LINES },
  (_, i) => `${i}`.padEnd(63, "x") + "\n",
).join("");

/** A canonical program, no echo, that waits `delay` s and then counts lines. */
const COUNTER = (delay: number, pace = 0) => `
import os, signal, termios, time
a = termios.tcgetattr(0); a[3] &= ~termios.ECHO; termios.tcsetattr(0, termios.TCSANOW, a)
n = 0
def onint(*_):
    os.write(1, b"INT %d\\n" % n); os._exit(0)
signal.signal(signal.SIGINT, onint)
os.write(1, b"READY\\n")
time.sleep(${delay})
while True:
    d = os.read(0, ${pace ? 4096 : 65536})
    if not d: break
    n += d.count(b"\\n")
    time.sleep(${pace})
os.write(1, b"EOF %d\\n" % n)
time.sleep(5)
`;

/**
 * A child in its own process group takes the foreground, reads 3 lines and
 * exits; the parent takes the terminal back and counts what reaches it.
 */
const HANDOVER = `
import os, signal, termios, time
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
a = termios.tcgetattr(0); a[3] &= ~termios.ECHO; termios.tcsetattr(0, termios.TCSANOW, a)
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpgrp())
    os.write(w, b"x")
    time.sleep(1.0)
    for _ in range(3): os.read(0, 100)
    os._exit(0)
os.read(r, 1)
os.write(1, b"READY\\n")
os.waitpid(pid, 0)
os.tcsetpgrp(0, os.getpgrp())
time.sleep(1.0)
os.set_blocking(0, False)
n = 0
end = time.time() + 2
while time.time() < end:
    try: n += os.read(0, 65536).count(b"\\n")
    except BlockingIOError: time.sleep(0.02)
os.write(1, b"PARENT %d\\n" % n)
time.sleep(5)
`;

async function withProgram(
  program: string,
  fn: (c: TestClient) => Promise<void>,
): Promise<void> {
  const s = await startServer({
    command: "python3",
    args: ["-c", program],
    assets: {},
    log: () => {},
    shellIntegration: false,
  });
  const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  try {
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
    await c.until(() => c.text.includes("READY"), "ready");
    await fn(c);
  } finally {
    await c.close();
    await s.shutdown();
  }
}

/** Sends TEXT as bulk pieces of 16 KiB; returns the next seq. */
function sendBulk(c: TestClient): number {
  let seq = 0;
  for (let i = 0; i < TEXT.length; i += 16384) {
    c.send({
      type: "key",
      seq: ++seq,
      data: TEXT.slice(i, i + 16384),
      bulk: true,
    });
  }
  return seq + 1;
}

Deno.test("paste: bulk pieces reach a canonical program whole and in order, before later input", async () => {
  await withProgram(COUNTER(0), async (c) => {
    const seq = sendBulk(c);
    // EOF typed after it: canonical, so handed back, then sent with `line`.
    c.send({ type: "key", seq, data: "\x04" });
    await c.until(
      () => c.messages.some((m) => m.type === "edit" && m.seq === seq),
      "EOF handed back, not the bulk pieces",
    );
    assertEquals(c.messages.filter((m) => m.type === "edit").length, 1);
    c.send({ type: "line" });
    c.input("\x04");
    await c.until(() => /EOF \d+/.test(c.text), "EOF", 30_000);
    assertEquals(Number(/EOF (\d+)/.exec(c.text)![1]), LINES);
  });
});

/** The seqs answered `bulk-ack`, in order. */
function acks(c: TestClient): number[] {
  return c.messages.filter((m) => m.type === "bulk-ack").map((m) =>
    (m as { seq: number }).seq
  );
}

Deno.test("paste: every bulk piece is answered once written, or dropped by INTR", async () => {
  // It reads a line (canonical) every 2 ms after a first sleep: slow enough
  // (16 KiB in 0.5 s) that most pieces still wait when INTR comes, whatever
  // the machine's load.
  await withProgram(COUNTER(1, 0.002), async (c) => {
    // The program sleeps: the first piece's answer waits for the kernel.
    c.send({ type: "key", seq: 1, data: TEXT.slice(0, 16384), bulk: true });
    await c.until(() => acks(c).length === 1, "first piece written");
    const seq = sendBulk(c); // seqs 1..64 again: answered in order
    await new Promise((r) => setTimeout(r, 300));
    const early = acks(c).length;
    assert(early < seq, `${early} answered while the program sleeps`);
    c.send({ type: "key", seq, data: "\x03" });
    await c.until(() => acks(c).length === seq, "every piece answered");
    assertEquals(
      acks(c).slice(1),
      Array.from({ length: seq - 1 }, (_, i) => i + 1),
    );
    await c.until(() => /INT \d+/.test(c.text), "SIGINT", 30_000);
  });
});

Deno.test("paste: INTR drops the rest of a bulk paste not yet in the kernel", async () => {
  await withProgram(COUNTER(1), async (c) => {
    const seq = sendBulk(c);
    c.send({ type: "key", seq, data: "\x03" });
    await c.until(() => /INT \d+/.test(c.text), "SIGINT", 30_000);
    const n = Number(/INT (\d+)/.exec(c.text)![1]);
    // What the tty held when INTR came (its queue and line: ~70 KiB).
    assert(n < LINES / 4, `the program read ${n} lines before SIGINT`);
  });
});

Deno.test("paste: the rest of a bulk paste never reaches the next foreground program", async () => {
  await withProgram(HANDOVER, async (c) => {
    sendBulk(c);
    await c.until(() => /PARENT \d+/.test(c.text), "parent", 30_000);
    const n = Number(/PARENT (\d+)/.exec(c.text)![1]);
    assert(n < LINES / 4, `the next program got ${n} lines`);
  });
});
