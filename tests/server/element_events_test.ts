/**
 * Session.elementEvent (server/session.ts) on a real PTY: with the mode
 * ?7101 on, an event from a window reaches the program as one
 * `ESC ] 7101 ; JSON BEL LF` line; one from a read-only window, or for
 * another generation, does not; a long value is cut to fit 4 KiB.
 */
import { assert, assertEquals } from "../assert.ts";
import { Session } from "../../server/session.ts";
import type { Viewer } from "../../server/viewer.ts";
import type { ElementEventMessage } from "../../core/protocol.ts";

function viewer(readOnly = false): Viewer {
  return {
    output: () => {},
    snapshot: () => {},
    message: () => {},
    end: () => {},
    readOnly,
  };
}

const click = (generation = 0): ElementEventMessage => ({
  type: "element-event",
  generation,
  name: "go",
  key: null,
  event: "click",
  value: null,
});

async function until(what: string, f: () => boolean | Promise<boolean>) {
  const end = performance.now() + 10_000;
  while (!(await f())) {
    if (performance.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("element events: a window's event reaches the program; read-only and stale ones do not", async () => {
  const dir = await Deno.makeTempDir();
  const log = `${dir}/log`;
  const session = Session.start({
    id: 1,
    command: "/bin/sh",
    args: ["-c", `stty raw -echo; printf '\\033[?7101h'; exec cat > '${log}'`],
    cols: 80,
    rows: 24,
    shellIntegration: false,
  });
  try {
    const w = session.attach(viewer(), 80, 24);
    const ro = session.attach(viewer(true), 80, 24);
    assertEquals(session.elementEvent(ro, click()), false);
    await until("the mode is on", () => session.elementEvent(w, click()));
    assertEquals(session.elementEvent(ro, click()), false, "read-only");
    assertEquals(session.elementEvent(w, click(1)), false, "generation");
    const long = "é".repeat(5000);
    assert(session.elementEvent(w, {
      ...click(),
      name: "who",
      key: "k",
      event: "change",
      value: long,
    }));
    const go =
      `\x1b]7101;{"name":"go","key":null,"event":"click","value":null}\x07\n`;
    let text = "";
    await until("two lines", async () => {
      text = await Deno.readTextFile(log).catch(() => "");
      return text.split("\n").length === 3;
    });
    const lines = text.split("\n");
    assertEquals(lines[0] + "\n", go);
    const json = lines[1].slice("\x1b]7101;".length, -1);
    assertEquals(new TextEncoder().encode(json).length <= 4096, true);
    const ev = JSON.parse(json);
    assertEquals(ev.truncated, true);
    assertEquals(ev.value, "é".repeat(ev.value.length));
    assert(ev.value.length > 1900, `${ev.value.length}`);
  } finally {
    await session.close();
    await Deno.remove(dir, { recursive: true });
  }
});
