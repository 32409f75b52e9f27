/**
 * Reading many PTYs at once (server/pty/pty.ts): all of them together read
 * a share per turn of the event loop, in turns; a PTY whose reader was
 * waiting for output (an idle shell that echoes a key) is read as soon as
 * the kernel has the echo, not after the poller's call comes back through
 * busy turns or every flooding PTY has had its turn. Real PTYs, real
 * programs.
 */
import { assert } from "../assert.ts";
import { Pty } from "../../server/pty/pty.ts";

const FLOODS = 40;

Deno.test("pty fairness: with 40 PTYs flooding, an idle one's echo comes before the floods read much more", async () => {
  const floods = Array.from(
    { length: FLOODS },
    () => Pty.spawn({ command: "yes", cols: 80, rows: 24 }),
  );
  const echo = Pty.spawn({
    command: "/bin/sh",
    args: ["-c", "stty -icanon; exec cat >/dev/null"],
    cols: 80,
    rows: 24,
  });
  let floodBytes = 0;
  let running = true;
  const loops = floods.map(async (p) => {
    while (running) {
      const c = await p.read();
      if (c === null) return;
      floodBytes += c.length;
    }
  });
  let echoed = "";
  const echoLoop = (async () => {
    for (;;) {
      const c = await echo.read();
      if (c === null) return;
      echoed += new TextDecoder().decode(c);
    }
  })();
  try {
    // The floods under way, each PTY full; the echo's reader waiting.
    await new Promise((r) => setTimeout(r, 1000));
    const between: number[] = [];
    const ms: number[] = [];
    for (let i = 0; i < 7; i++) {
      const k = String.fromCharCode(0x61 + i);
      const before = floodBytes;
      const t0 = performance.now();
      await echo.write(k);
      const end = t0 + 20_000;
      while (!echoed.includes(k) && performance.now() < end) {
        await new Promise((r) => setTimeout(r, 0));
      }
      assert(echoed.includes(k), `the echo of ${k}`);
      between.push(floodBytes - before);
      ms.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    const kib = (b: number) => (b / 1024).toFixed(0);
    console.log(
      `flood KiB read between a key and its echo: ${
        between.map(kib).join(", ")
      }; ms: ${ms.map((m) => m.toFixed(0)).join(", ")}`,
    );
    const median = between.sort((a, b) => a - b)[3];
    // Before: 530-830 KiB and more (the poll() call's completion reached
    // the read loop after many turns); after: 100-260 KiB.
    assert(median < 448 * 1024, `median ${kib(median)} KiB of floods first`);
  } finally {
    running = false;
    await Promise.all([...floods, echo].map((p) => p.close()));
    await Promise.all([...loops, echoLoop]);
  }
});
