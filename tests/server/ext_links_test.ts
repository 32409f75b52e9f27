/**
 * Extended-style ids across the wire (core/emulator/ext_sweep.ts): the
 * session's emulator frees and reuses the ids of links that left its
 * history, and the page keeps a table of its own (its core Terminal). A
 * window that attaches after the session's emulator swept gets a snapshot
 * whose ids are the session's, free ones included; the links printed
 * after the sweep, and those printed after it attached (interned by the
 * page into its own free ids), resolve to their own URLs. Real PTY, real
 * WebSocket; the page's side is the core Terminal the page runs.
 */
import { assert, assertEquals } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import type { SnapshotMessage } from "../../core/protocol.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalSnapshot } from "../../core/serialize/snapshot.ts";
import { autoAck, TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

/** A shell loop that prints `n` lines, each a link `<p><i>` to `https://x/<p>/<i>`. */
function links(p: string, n: number): string {
  return `awk 'BEGIN { for (i = 0; i < ${n}; i++) printf "\\033]8;;https://x/${p}/%d\\033\\\\${p}%d\\033]8;;\\033\\\\\\n", i, i }'`;
}

/** Every `<p><i>` on the screen of `t` with its link, or the first wrong one. */
function screenLinks(t: Terminal, p: string): { ok: number; wrong: string[] } {
  let ok = 0;
  const wrong: string[] = [];
  const buf = t.buffer;
  for (let y = 0; y < t.rows; y++) {
    const line = buf.getLine(buf.length - t.rows + y);
    for (const m of line.toString().matchAll(new RegExp(`${p}(\\d+)`, "g"))) {
      const want = `https://x/${p}/${m[1]}`;
      const got = t.ext(line.attr(m.index) >>> 16).link;
      if (got === want) ok++;
      else wrong.push(`${m[0]}: ${got}`);
    }
  }
  return { ok, wrong };
}

Deno.test("ext links: a window attached after the session swept its link table shows the links printed since, and those printed later", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    scrollback: 100,
  });
  const a = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  const b = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  const stops: (() => void)[] = [];
  try {
    // 12,000 distinct links through 100 lines of history: the session's
    // emulator sweeps (at 4,096 ids, then at twice what it kept).
    s.newSession([
      "/bin/sh",
      "-c",
      `${links("f", 12_000)}; echo DONE; read x; ${
        links("g", 6_000)
      }; echo END; sleep 100`,
    ]);
    await a.opened;
    a.send({ type: "hello", key: s.key, cols: 80, rows: 24, session: 1 });
    stops.push(autoAck(a));
    // DONE comes as output, or in the snapshot of a window that attached
    // after the program printed it (the session runs from newSession on).
    await a.until(
      () =>
        a.text.includes("DONE") ||
        a.messages.some((m) =>
          m.type === "snapshot" && JSON.stringify(m).includes("DONE")
        ),
      "DONE",
      30_000,
    );
    // The second window attaches now: it gets a snapshot.
    await b.opened;
    b.send({ type: "hello", key: s.key, cols: 80, rows: 24, session: 1 });
    await b.until(
      () => b.messages.some((m) => m.type === "snapshot"),
      "a snapshot",
      20_000,
    );
    stops.push(autoAck(b));
    const msg = b.messages.find((m) =>
      m.type === "snapshot"
    ) as SnapshotMessage;
    const snap = msg.snapshot as TerminalSnapshot;
    // Ids were reused: far fewer than the 12,000 links printed.
    assert(snap.ext.length < 12_000, `${snap.ext.length} ids`);
    const page = new Terminal({ cols: 80, rows: 24, scrollback: 100 });
    page.load(snap);
    const before = screenLinks(page, "f");
    assertEquals(before.wrong, []);
    assert(before.ok >= 20, `${before.ok} links on the screen`);
    assert(
      page.buffer.getLine(page.buffer.length - 3).toString().includes("f11999"),
      "the newest links are on the screen",
    );
    // More links, printed after the window attached: the page interns them
    // into the free ids of the table it loaded, and sweeps its own.
    b.input("go\r");
    await b.until(() => b.text.includes("END"), "END", 30_000);
    page.write(b.output);
    const after = screenLinks(page, "g");
    assertEquals(after.wrong, []);
    assert(after.ok >= 20, `${after.ok} links on the screen`);
    assert(page.stats.extSweeps > 0, "the page swept too");
  } finally {
    for (const stop of stops) stop();
    await a.close();
    await b.close();
    await s.shutdown();
  }
});
