/**
 * Issue 37 §6: "A renderer's memory rose to 610-660 MB (PSS) over a
 * 10-minute soak at 80 KB/s with 10,000 lines kept". A real
 * `domterm --no-browser` server runs bench/soak_output.ts (about `--rate`
 * bytes a second of coloured, wrapped and linked lines, a small image and
 * an HTML fragment now and then) with `--scrollback` lines kept; a
 * headless Chromium page shows it. Every `--every` seconds it prints the
 * renderer process's PSS (/proc/PID/smaps_rollup), the page's JS heap
 * after a full GC (CDP `Runtime.getHeapUsage`), the document's nodes, row
 * elements, chunks (as text), `<img>` elements and the lines of the page's
 * model. Heap snapshots are taken at `--snap` seconds and at the end and
 * compared: the constructors whose retained count or self size grew most,
 * and the detached DOM nodes of each.
 *
 *   deno task build && deno run -A bench/renderer_soak_bench.ts \
 *     [--secs 240] [--rate 80000] [--every 10] [--snap 60] \
 *     [--scrollback 10000] [--embeds 1] [--main OTHER/main.ts] \
 *     [--keep DIR]   (keep the two .heapsnapshot files there)
 *
 * On a loaded machine the figures are upper bounds (the page falls behind,
 * holding more output at once). Exits 0.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { RawBrowser, type RawPage } from "./e2e/cdp.ts";
import { spawnServer } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";

const { values } = parseArgs({
  options: {
    secs: { type: "string", default: "240" },
    rate: { type: "string", default: "80000" },
    every: { type: "string", default: "10" },
    snap: { type: "string", default: "60" },
    scrollback: { type: "string", default: "10000" },
    embeds: { type: "string", default: "1" },
    main: { type: "string" },
    keep: { type: "string" },
  },
});
const SECS = Number(values.secs);
const EVERY = Number(values.every) * 1000;
const SNAP_AT = Number(values.snap) * 1000;

/** Pids of `root`'s descendants whose command line has `--type=renderer`. */
function renderers(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e.name));
      children.set(ppid, list);
    } catch { /* gone */ }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      try {
        const cmd = Deno.readTextFileSync(`/proc/${c}/cmdline`);
        if (cmd.includes("--type=renderer")) out.push(c);
      } catch { /* gone */ }
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** PSS of `pid` in MB (0 when it is gone). */
function pssMb(pid: number): number {
  try {
    const t = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
    const m = /^Pss:\s+(\d+) kB/m.exec(t);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

interface PageCounts {
  lines: number;
  nodes: number;
  rows: number;
  chunks: number;
  textChunks: number;
  imgs: number;
  offset: number;
  done: boolean;
}

function pageCounts(page: RawPage): Promise<PageCounts> {
  return page.evaluate(() => {
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
      imgs: n("img"),
      offset: dt.position().offset,
      done: dt.screenText().some((l) => l.startsWith("SOAK-DONE")),
    };
  });
}

/** Count and self size per (type, name) of a heap snapshot; detached nodes apart. */
interface Tally {
  count: number;
  size: number;
  detached: number;
}

function tally(text: string): Map<string, Tally> {
  const snap = JSON.parse(text) as {
    snapshot: {
      meta: { node_fields: string[]; node_types: [string[]] };
    };
    nodes: number[];
    strings: string[];
  };
  const f = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const step = f.length;
  const iType = f.indexOf("type"), iName = f.indexOf("name");
  const iSize = f.indexOf("self_size"), iDet = f.indexOf("detachedness");
  const out = new Map<string, Tally>();
  for (let i = 0; i < snap.nodes.length; i += step) {
    const type = types[snap.nodes[i + iType]];
    let name = snap.strings[snap.nodes[i + iName]];
    if (type === "string" || type === "concatenated string") name = "";
    if (name.length > 60) name = name.slice(0, 60) + "…";
    const key = `${type}:${name}`;
    let t = out.get(key);
    if (!t) out.set(key, t = { count: 0, size: 0, detached: 0 });
    t.count++;
    t.size += snap.nodes[i + iSize];
    if (
      (iDet >= 0 && snap.nodes[i + iDet] === 2) || name.startsWith("Detached ")
    ) t.detached++;
  }
  return out;
}

function diff(a: Map<string, Tally>, b: Map<string, Tally>): void {
  const rows: { key: string; dc: number; ds: number; det: number }[] = [];
  for (const [key, tb] of b) {
    const ta = a.get(key) ?? { count: 0, size: 0, detached: 0 };
    rows.push({
      key,
      dc: tb.count - ta.count,
      ds: tb.size - ta.size,
      det: tb.detached,
    });
  }
  const sum = (m: Map<string, Tally>, k: keyof Tally) =>
    [...m.values()].reduce((s, t) => s + t[k], 0);
  console.log(
    `heap snapshots: ${(sum(a, "size") / 2 ** 20).toFixed(1)} MB -> ${
      (sum(b, "size") / 2 ** 20).toFixed(1)
    } MB self size; detached nodes ${sum(a, "detached")} -> ${
      sum(b, "detached")
    }`,
  );
  console.log("grew most (self size), type:name  +count  +KB  detached");
  for (const r of rows.sort((x, y) => y.ds - x.ds).slice(0, 25)) {
    console.log(
      `  ${r.key}  ${r.dc >= 0 ? "+" : ""}${r.dc}  ${
        (r.ds / 1024).toFixed(0)
      }  ${r.det}`,
    );
  }
  console.log("grew most (count):");
  for (const r of rows.sort((x, y) => y.dc - x.dc).slice(0, 15)) {
    console.log(`  ${r.key}  +${r.dc}  ${(r.ds / 1024).toFixed(0)} KB`);
  }
}

const soak = new URL("./soak_output.ts", import.meta.url).pathname;
const server = await spawnServer(
  [
    "--scrollback",
    values.scrollback!,
    "--",
    Deno.execPath(),
    "run",
    soak,
    "--rate",
    values.rate!,
    "--secs",
    String(SECS),
    "--embeds",
    values.embeds!,
  ],
  undefined,
  values.main,
);
const browser = await RawBrowser.launch();
let first: Map<string, Tally> | null = null;
try {
  const page = await browser.newPage({ width: 1000, height: 600 });
  await page.goto(server.url);
  await page.waitForFunction(
    () =>
      "domtermInspect" in globalThis &&
      (globalThis as unknown as Inspected).domtermInspect.connected,
    null,
    60_000,
  );
  const t0 = performance.now();
  console.log(
    "   s  PSS MB  (renderers)  heap MB   nodes   rows  chunks(text)  imgs  lines  MB recv",
  );
  let next = 0;
  for (;;) {
    const now = performance.now() - t0;
    if (now < next) {
      await new Promise((r) => setTimeout(r, next - now));
      continue;
    }
    next += EVERY;
    const heap = (await page.heapUsed()) / 2 ** 20;
    const c = await pageCounts(page);
    const pids = renderers(browser.pid);
    const pss = pids.map(pssMb);
    console.log(
      `${((performance.now() - t0) / 1000).toFixed(0).padStart(4)}  ${
        Math.max(0, ...pss).toFixed(0).padStart(6)
      }  (${pss.map((p) => p.toFixed(0)).join("+")})  ${
        heap.toFixed(1).padStart(7)
      }  ${String(c.nodes).padStart(6)}  ${String(c.rows).padStart(5)}  ${
        String(c.chunks).padStart(6)
      }(${c.textChunks})  ${String(c.imgs).padStart(4)}  ${
        String(c.lines).padStart(5)
      }  ${(c.offset / 2 ** 20).toFixed(1)}`,
    );
    if (first === null && performance.now() - t0 >= SNAP_AT) {
      const text = await page.heapSnapshot();
      if (values.keep) {
        await Deno.writeTextFile(`${values.keep}/a.heapsnapshot`, text);
      }
      first = tally(text);
    }
    if (c.done) break;
  }
  const text = await page.heapSnapshot();
  if (values.keep) {
    await Deno.writeTextFile(`${values.keep}/b.heapsnapshot`, text);
  }
  if (first) diff(first, tally(text));
  await page.close();
} finally {
  await browser.close();
  server.child.kill("SIGTERM");
  await server.child.status;
}
