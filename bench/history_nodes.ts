/**
 * How many DOM nodes the page keeps for a full history (docs/renderer.md):
 * a real `domterm --no-browser` server runs `cat` of 3 MB of a `bench:e2e`
 * stream (10,000 lines of history and more), a headless Chromium page shows
 * it, and once the page has been idle for a while the document's nodes,
 * row elements, chunks (text ones apart) and spans are counted.
 *
 * Run: `deno task build && deno run -A bench/history_nodes.ts [--stream
 * plain|ls|wrap|cjk] [--main OTHER/main.ts]` (`--main`: another checkout's
 * server and page, to compare). Prints one line; exits 0.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { RawBrowser } from "./e2e/cdp.ts";
import { e2eStream } from "./e2e/streams.ts";
import { spawnServer } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";

const { values } = parseArgs({
  options: {
    stream: { type: "string", default: "plain" },
    main: { type: "string" },
    "idle-ms": { type: "string", default: "4000" },
  },
});
const dir = await Deno.makeTempDir({ prefix: "domterm-nodes-" });
const file = `${dir}/stream.txt`;
await Deno.writeFile(file, e2eStream(values.stream!).block(3_000_000));
const server = await spawnServer(
  ["--", "sh", "-c", `cat ${file}; echo END-OF-STREAM; sleep 600`],
  undefined,
  values.main,
);
const browser = await RawBrowser.launch();
try {
  const page = await browser.newPage({ width: 1000, height: 600 });
  await page.goto(server.url);
  await page.waitForFunction(
    () => document.body.textContent?.includes("END-OF-STREAM") ?? false,
    null,
    60_000,
  );
  await new Promise((r) => setTimeout(r, Number(values["idle-ms"])));
  const counts = await page.evaluate(() => {
    const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    let nodes = 0;
    while (w.nextNode()) nodes++;
    const n = (sel: string) => document.querySelectorAll(sel).length;
    const dt = (globalThis as unknown as Inspected).domtermInspect;
    return {
      lines: dt.term.normalBuffer.length,
      nodes,
      rows: n(".dt-viewport .dt-row"),
      chunks: n(".dt-chunk"),
      textChunks: n(".dt-chunk.dt-text"),
      spans: n(".dt-viewport .dt-row span"),
    };
  });
  console.log(
    `${values.stream}: ${counts.lines} lines; ${counts.nodes} nodes, ` +
      `${counts.rows} rows, ${counts.spans} spans, ${counts.chunks} chunks ` +
      `(${counts.textChunks} as text)`,
  );
  await page.close();
} finally {
  await browser.close();
  server.child.kill("SIGTERM");
  await server.child.status;
  await Deno.remove(dir, { recursive: true });
}
