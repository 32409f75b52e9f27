/**
 * A size a program asks for (XTWINOPS 8, DECCOLM) is the session's grid and
 * reaches the PTY at once, before any window answers (issue 32 §1); the
 * window's answer (what fits) is then a grid change as usual.
 */
import { assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import { TestClient } from "./ws_client.ts";

const SCRIPT = [
  String.raw`printf '\033[8;30;100t'`,
  "sleep 0.5",
  'echo "one $(stty size)"',
  String.raw`printf '\033[?40h\033[?3h'`,
  "sleep 0.5",
  'echo "two $(stty size)"',
  "read x",
  'echo "three $(stty size)"',
].join("; ");

Deno.test("server: a program's size request is the grid and the PTY's size", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: ["-c", SCRIPT],
    assets: { "/": { type: "text/html", body: "<!DOCTYPE html>" } },
    log: () => {},
  });
  try {
    const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
    await c.until(() => c.text.includes("two "), "the second size");
    assertEquals(/one (\d+ \d+)/.exec(c.text)?.[1], "30 100");
    assertEquals(/two (\d+ \d+)/.exec(c.text)?.[1], "30 132");
    // The window has room for 90 x 25 of it: that is the grid then.
    c.send({ type: "resize", cols: 90, rows: 25 });
    await c.until(
      () => c.messages.some((m) => m.type === "grid" && m.cols === 90),
      "the grid",
    );
    await new Promise((r) => setTimeout(r, 400));
    c.input("x\r");
    await c.until(() => c.text.includes("three "), "the third size");
    assertEquals(/three (\d+ \d+)/.exec(c.text)?.[1], "25 90");
    await c.closed;
  } finally {
    await s.shutdown();
  }
});
