/**
 * Attach time: how long a new window takes to show a session that already
 * holds 1,000 / 10,000 / 100,000 lines of coloured history, in headless
 * Chromium against a real `domterm --no-browser` server.
 *
 * Each session runs `awk` printing the lines, then sleeps; a WebSocket
 * client waits for the end and leaves (the session stays, detached). Then a
 * fresh page attaches (`#key=...&session=N`) and the page's performance
 * marks (client/main.ts, client/connection.ts) give the times from the
 * page's hello (the socket is open; the page has loaded): the snapshot
 * received (parsed), loaded into the emulator, and the first frame drawn
 * after it. Median of `--runs` pages per size.
 *
 * Run: `deno run -A bench/attach_bench.ts [--lines 1000,10000,100000]
 * [--runs 3]`. Exits 0 whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { spawnServer } from "../tests/e2e/domterm.ts";
import { request, socketPath } from "../server/control.ts";
import type { Inspected } from "../client/inspect.ts";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "1000,10000,100000" },
    runs: { type: "string", default: "3" },
  },
});
const sizes = values.lines!.split(",").map(Number);
const runs = Number(values.runs);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Wait for `marker` in a session's output through a throwaway window. */
function waitFor(url: string, session: number, marker: string): Promise<void> {
  const u = new URL(url);
  const key = new URLSearchParams(u.hash.slice(1)).get("key")!;
  const ws = new WebSocket(`ws://${u.host}/ws`);
  ws.binaryType = "arraybuffer";
  const dec = new TextDecoder();
  let text = "";
  return new Promise((resolve, reject) => {
    ws.onopen = () =>
      ws.send(
        JSON.stringify({ type: "hello", key, cols: 120, rows: 36, session }),
      );
    ws.onerror = () => reject(new Error("socket error"));
    ws.onmessage = (ev) => {
      if (typeof ev.data === "string") {
        // The snapshot may already hold the marker.
        if (ev.data.includes(marker)) text += marker;
      } else {
        const b = new Uint8Array(ev.data as ArrayBuffer);
        ws.send(JSON.stringify({ type: "ack", bytes: b.length }));
        text = (text + dec.decode(b, { stream: true })).slice(-4096);
      }
      if (text.includes(marker)) {
        ws.close(); // a lost window: the session stays
        resolve();
      }
    };
  });
}

const dir = Deno.makeTempDirSync({ prefix: "domterm-attach-bench-" });
const { child, url } = await spawnServer(
  ["--scrollback", "200000", "--", "/bin/sh"],
  { DOMTERM_RUNTIME_DIR: dir },
);
const browser = await launchChromium();
console.log(
  "lines    snapshot   received ms   loaded ms   first frame ms   (median of " +
    runs + ", from the hello the page sends)",
);
try {
  for (const n of sizes) {
    const res = await request(socketPath(dir), {
      op: "new",
      command: [
        "/bin/sh",
        "-c",
        `awk 'BEGIN{for(i=1;i<=${n};i++) printf "\\033[3%dm%06d\\033[0m a line of coloured history \\033[1mbold\\033[0m \\033[4;32munder\\033[0m tail\\n", i%8, i}'; echo 'HIST'-DONE; sleep 100000`,
      ],
    });
    if (!res?.ok) throw new Error(`new session: ${res?.error}`);
    await waitFor(url, res.session!, "HIST-DONE");
    const rec: number[] = [], load: number[] = [], drawn: number[] = [];
    let chars = 0;
    for (let r = 0; r < runs; r++) {
      const page = await browser.newPage({
        viewport: { width: 1000, height: 600 },
      });
      await page.goto(`${url}&session=${res.session}`);
      await page.waitForFunction(
        () => performance.getEntriesByName("domterm:attach-drawn").length > 0,
        undefined,
        { timeout: 120_000 },
      );
      const t = await page.evaluate(() => {
        const at = (n: string) => performance.getEntriesByName(n)[0].startTime;
        const hello = performance.getEntriesByName("domterm:hello").at(-1)!
          .startTime;
        return [
          at("domterm:snapshot-received") - hello,
          at("domterm:snapshot-loaded") - hello,
          at("domterm:attach-drawn") - hello,
        ];
      });
      rec.push(t[0]);
      load.push(t[1]);
      drawn.push(t[2]);
      const snap = await request(socketPath(dir), {
        op: "snapshot",
        session: res.session!,
      });
      chars = JSON.stringify(snap?.snapshot).length;
      // Leave as a lost window would (no "closing"): the session stays.
      await page.evaluate(() =>
        (globalThis as unknown as Inspected)
          .domtermInspect.dropConnection()
      );
      await page.close({ runBeforeUnload: false });
    }
    console.log(
      `${String(n).padEnd(8)} ${(chars / 1e6).toFixed(1).padStart(5)} MB   ${
        median(rec).toFixed(0).padStart(11)
      }   ${median(load).toFixed(0).padStart(9)}   ${
        median(drawn).toFixed(0).padStart(14)
      }`,
    );
  }
} finally {
  await browser.close();
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  await child.status;
}
