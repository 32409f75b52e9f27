/**
 * `deno task bench:e2e`: issue 39's measurement. domterm against the PTY
 * floor and ttyd 1.7.7 (xterm.js 5, DOM renderer and WebGL), in one run,
 * alternating, each figure clocked where the user sees it (bench/e2e/
 * screens.ts says how), then the same over a slow link (bench/e2e/
 * slow_link.ts: 100 ms round trip, 2 Mbit/s each way). Prints one table:
 * each figure, its floor, the peers, the ratios and issue 39's target with
 * met / not met.
 *
 * Run: `deno task bench:e2e [--quick] [--ttyd PATH] [--mb 10,50]
 * [--runs N] [--keys N] [--main PATH] [--only KIND]... [--skip PARTS]`.
 * `--quick`: 10 MB only, 2 runs of each figure, 30 keys: a few minutes.
 * `--ttyd`: the ttyd binary (default: `ttyd` on PATH); without one the
 * bench says so and runs the rest. `--main`: another checkout's main.ts
 * (its client built) as the domterm to measure. `--only`: floor, domterm,
 * ttyd-dom or ttyd-webgl (repeatable). `--skip`: a comma list of streams,
 * yes, keys, ctrlc, slow.
 *
 * Stream figures: the program's start (the wall clock its shell noted just
 * before it) to its marker line on screen, MB of the program's output per
 * second. The machine is shared: every time is an upper bound.
 *
 * The older domterm-vs-xterm.js-page bench is `deno task bench:e2e:xterm`
 * (bench/e2e/bench.ts).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { RawBrowser } from "./cdp.ts";
import {
  type Kind,
  marker,
  now,
  openDomterm,
  openFloor,
  openTtyd,
  type Route,
  runCommand,
  type Screen,
  stamp,
  upcoming,
} from "./screens.ts";
import { e2eStream } from "./streams.ts";
import { slowLink, type WireCount } from "./slow_link.ts";
import { report, type Results } from "./screen_report.ts";

const MB = 1000 * 1000;
/** The slow link's stream, and the figure of the program's own time. */
const SLOW_SEQ = "seq 1 10000000 | head -c 2000000";
const SLOW_OWN = "slow link: the program's own time for 2 MB, s";
const ECHO = new URL("./echo_keys.ts", import.meta.url).pathname;

/** The streams of targets 1: name -> the command (BYTES: the size). */
function streamCommands(files: string): [string, string][] {
  return [
    ["seq", "seq 1 1000000000 | head -c BYTES"],
    ["ls/sgr", `head -c BYTES ${files}/ls.txt`],
    ["wrap", `head -c BYTES ${files}/wrap.txt`],
    ["cjk", `head -c BYTES ${files}/cjk.txt`],
  ];
}

/** The programs of target 4 (Ctrl+C -> prompt). */
function interruptCommands(files: string): [string, string][] {
  return [
    ["yes", "yes"],
    ["base64", "base64 /dev/urandom"],
    ["cat 50 MB", `cat ${files}/ls.txt`],
    ["seq", "seq 1 100000000"],
  ];
}

/** Write the stream files (`size` bytes each, LF line ends: the tty adds CR). */
async function writeFiles(dir: string, size: number): Promise<void> {
  for (
    const [file, stream] of [["ls", "ls"], ["wrap", "wrap"], ["cjk", "cjk"]]
  ) {
    const block = e2eStream(stream).block(4 * MB);
    const lf = new TextEncoder().encode(
      new TextDecoder().decode(block).replaceAll("\r\n", "\n"),
    );
    const f = await Deno.open(`${dir}/${file}.txt`, {
      write: true,
      create: true,
      truncate: true,
    });
    for (let left = size; left > 0; left -= lf.length) {
      const p = lf.subarray(0, Math.min(left, lf.length));
      let off = 0;
      while (off < p.length) off += await f.write(p.subarray(off));
    }
    f.close();
  }
}

async function rssMb(pid: number | null): Promise<number> {
  if (pid === null) return NaN;
  const s = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const m = /VmRSS:\s+(\d+) kB/.exec(s);
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Collects samples by figure and terminal; a terminal that times out is lost. */
class Book {
  results: Results = new Map();
  lost = new Set<Kind>();
  add(figure: string, kind: Kind, v: number): void {
    let m = this.results.get(figure);
    if (!m) this.results.set(figure, m = new Map());
    let xs = m.get(kind);
    if (!xs) m.set(kind, xs = []);
    xs.push(v);
  }
  lose(figure: string, s: Screen): void {
    console.error(`  ${s.kind}: ${figure} timed out: lost for the rest`);
    this.lost.add(s.kind);
    this.add(figure, s.kind, NaN);
  }
  /**
   * A stream run that timed out (slow, or its session dropped): the run
   * counts as NaN; Ctrl+C, and if its marker then shows within a minute the
   * terminal goes on, else it is lost until {@link reopenLost}.
   */
  async timedOut(figure: string, s: Screen): Promise<void> {
    this.add(figure, s.kind, NaN);
    await s.ctrlC();
    if (Number.isNaN(await s.seen(60_000))) {
      console.error(`  ${s.kind}: ${figure} timed out: lost for now`);
      this.lost.add(s.kind);
    } else console.error(`  ${s.kind}: ${figure} timed out, Ctrl+C ended it`);
  }
}

/** One stream run; returns its seconds from program start to marker drawn. */
async function streamRun(s: Screen, cmd: string, timeoutMs: number) {
  const n0 = upcoming();
  await s.arm(marker(n0));
  const n = await runCommand(s, cmd);
  if (n !== n0) throw new Error("run numbers out of step");
  const seen = await s.seen(timeoutMs);
  const start = await stamp(s, "start", n);
  const end = await stamp(s, "end", n);
  return { seen, start, end, n };
}

async function streams(
  book: Book,
  screens: Screen[],
  files: string,
  sizes: number[],
  reps: number,
): Promise<void> {
  for (const [name, cmd] of streamCommands(files)) {
    for (const s of screens) {
      if (book.lost.has(s.kind)) continue;
      // Warm-up (JIT, caches), not counted.
      await streamRun(s, cmd.replace("BYTES", String(MB)), 60_000);
    }
    for (const mb of sizes) {
      const figure = `${name} ${mb} MB on screen, MB/s`;
      for (let r = 0; r < reps; r++) {
        for (const s of screens) {
          if (book.lost.has(s.kind)) continue;
          const c = cmd.replace("BYTES", String(mb * MB));
          const { seen, start } = await streamRun(s, c, 60_000 + mb * 6000);
          if (Number.isNaN(seen)) {
            await book.timedOut(figure, s);
            continue;
          }
          const mbps = mb / ((seen - start) / 1000);
          book.add(figure, s.kind, mbps);
          console.error(
            `  ${s.kind} ${name} ${mb} MB: ${mbps.toFixed(1)} MB/s`,
          );
        }
      }
    }
  }
}

async function yesRuns(book: Book, screens: Screen[], reps: number) {
  const figure = "`yes | head -c 50000000` on screen, s";
  for (let r = 0; r < reps; r++) {
    for (const s of screens) {
      if (book.lost.has(s.kind)) continue;
      const { seen, start } = await streamRun(
        s,
        "yes | head -c 50000000",
        120_000,
      );
      if (Number.isNaN(seen)) {
        await book.timedOut(figure, s);
        continue;
      }
      book.add(figure, s.kind, (seen - start) / 1000);
      console.error(
        `  ${s.kind} yes 50 MB: ${((seen - start) / 1000).toFixed(2)} s`,
      );
    }
  }
}

/** Keydown -> echo on screen, `count` keys per page, ms. */
async function keyRuns(book: Book, screens: Screen[], count: number) {
  const chars = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (const s of screens) {
    if (!s.page || book.lost.has(s.kind)) continue;
    await s.arm("echo-ready", 1);
    const n = upcoming();
    await runCommand(s, `${Deno.execPath()} run -q ${ECHO} ${count}`);
    if (Number.isNaN(await s.seen(60_000))) {
      book.lose("keys", s);
      continue;
    }
    for (let i = 0; i < count; i++) {
      // 0-20 ms apart, so keys fall anywhere in the frame cycle.
      await new Promise((r) => setTimeout(r, (i * 7919) % 21));
      const c = chars[i % chars.length];
      await s.arm(`key ${i} ${c}`, 1);
      await s.page.press(c);
      const seen = await s.seen(10_000);
      book.add(
        "keydown -> echo on screen, ms",
        s.kind,
        seen - await s.lastKey(),
      );
    }
    await s.arm(marker(n));
    await s.seen(30_000);
  }
}

/** Ctrl+C `delayMs` after `cmd` started -> the prompt (marker) on screen, ms. */
async function interrupt(
  book: Book,
  s: Screen,
  figure: string,
  cmd: string,
  delayMs: number,
) {
  const n = upcoming();
  await s.arm(marker(n));
  await runCommand(s, cmd);
  await stamp(s, "start", n);
  await new Promise((r) => setTimeout(r, delayMs));
  await s.ctrlC();
  const seen = await s.seen(60_000);
  if (Number.isNaN(seen)) {
    book.lose(figure, s);
    return NaN;
  }
  const ms = seen - await s.lastKey();
  book.add(figure, s.kind, ms);
  console.error(`  ${s.kind} ${figure}: ${ms.toFixed(0)}`);
  return ms;
}

async function interrupts(
  book: Book,
  screens: Screen[],
  files: string,
  reps: number,
) {
  for (const [name, cmd] of interruptCommands(files)) {
    const figure = `Ctrl+C in \`${name}\` -> prompt on screen, ms`;
    for (let r = 0; r < reps; r++) {
      for (const s of screens) {
        if (!book.lost.has(s.kind)) await interrupt(book, s, figure, cmd, 200);
      }
    }
  }
}

/** Slow link: Ctrl+C in yes, the last screen of 2 MB of seq, bytes on the wire. */
async function slowRuns(
  book: Book,
  screens: { s: Screen; wire: WireCount }[],
  reps: number,
) {
  for (let r = 0; r < reps; r++) {
    for (const { s } of screens) {
      if (book.lost.has(s.kind)) continue;
      await interrupt(
        book,
        s,
        "slow link: Ctrl+C in `yes` -> prompt, ms",
        "yes",
        1000,
      );
    }
  }
  for (let r = 0; r < reps; r++) {
    for (const { s, wire } of screens) {
      if (book.lost.has(s.kind)) continue;
      const down = wire.down, up = wire.up;
      const { seen, start, end } = await streamRun(
        s,
        SLOW_SEQ,
        120_000,
      );
      if (Number.isNaN(seen)) {
        await book.timedOut(
          "slow link: last screen of 2 MB after the program ends, s",
          s,
        );
        continue;
      }
      // Bytes of this run: what crossed until the marker was drawn, and the
      // tail that follows within a second (acks, frames still in flight).
      await new Promise((ok) => setTimeout(ok, 1000));
      book.add(
        "slow link: last screen of 2 MB after the program ends, s",
        s.kind,
        (seen - end) / 1000,
      );
      book.add(SLOW_OWN, s.kind, (end - start) / 1000);
      book.add(
        "slow link: bytes on the wire down for 2 MB, KB",
        s.kind,
        (wire.down - down) / 1000,
      );
      book.add(
        "slow link: bytes on the wire up for 2 MB, KB",
        s.kind,
        (wire.up - up) / 1000,
      );
      console.error(
        `  ${s.kind} slow 2 MB: drawn ${
          ((seen - end) / 1000).toFixed(2)
        } s after the end, program ${((end - start) / 1000).toFixed(2)} s, ${
          ((wire.down - down) / 1000).toFixed(0)
        } KB down`,
      );
    }
  }
}

interface Options {
  sizes: number[];
  reps: number;
  keys: number;
  ttyd: string | null;
  main: string | undefined;
  /** Terminals to measure (--only; default all). */
  only: Kind[] | null;
  /** Parts to leave out (--skip streams,yes,keys,ctrlc,slow). */
  skip: Set<string>;
}

function options(): Options {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      quick: { type: "boolean", default: false },
      ttyd: { type: "string", default: "ttyd" },
      mb: { type: "string" },
      runs: { type: "string" },
      keys: { type: "string" },
      main: { type: "string" },
      only: { type: "string", multiple: true },
      skip: { type: "string", default: "" },
    },
  });
  const q = values.quick;
  const sizes = (values.mb ?? (q ? "10" : "10,50")).split(",").map(Number);
  if (sizes.some((n) => !(n > 0))) throw new Error(`--mb ${values.mb}?`);
  return {
    sizes,
    reps: Number(values.runs ?? (q ? 2 : 5)),
    keys: Number(values.keys ?? (q ? 30 : 200)),
    ttyd: values.ttyd,
    main: values.main,
    only: (values.only as Kind[] | undefined) ?? null,
    skip: new Set(values.skip.split(",").filter((x) => x)),
  };
}

/** The ttyd binary, or null (said on stderr) when there is none. */
async function findTtyd(path: string): Promise<string | null> {
  try {
    const out = await new Deno.Command(path, { args: ["--version"] }).output();
    const v = new TextDecoder().decode(out.stdout).trim();
    console.error(`peer: ${v} (${path})`);
    if (!v.includes("1.7.7")) console.error("  (issue 39 measured ttyd 1.7.7)");
    return path;
  } catch {
    console.error(
      `peer: NO ttyd at '${path}' (--ttyd PATH): the ttyd columns stay empty; running the rest`,
    );
    return null;
  }
}

async function openAll(
  browser: RawBrowser,
  base: string,
  o: Options,
  route?: Route,
): Promise<Screen[]> {
  const out: Screen[] = [];
  const d = await openDomterm(browser, base, o.main, route);
  if (!route) out.push(await openFloor(base, d.cols, d.rows));
  out.push(d);
  if (o.ttyd) {
    out.push(await openTtyd(browser, base, o.ttyd, "dom", route));
    out.push(await openTtyd(browser, base, o.ttyd, "webgl", route));
  }
  return out;
}

/**
 * A fresh page and server for each terminal lost in the last phase (ttyd's
 * page drops its session under a flood), so that the next phase measures
 * it again. Only for the direct route.
 */
async function reopenLost(
  browser: RawBrowser,
  base: string,
  o: Options,
  book: Book,
  screens: Screen[],
): Promise<void> {
  for (let i = 0; i < screens.length; i++) {
    const s = screens[i];
    if (!book.lost.has(s.kind)) continue;
    await s.close();
    screens[i] = s.kind === "floor"
      ? await openFloor(base, s.cols, s.rows)
      : s.kind === "domterm"
      ? await openDomterm(browser, base, o.main)
      : await openTtyd(
        browser,
        base,
        o.ttyd!,
        s.kind === "ttyd-dom" ? "dom" : "webgl",
      );
    book.lost.delete(s.kind);
    const note = `${s.kind} reopened: renderer ${screens[i].renderer}`;
    console.error(`  ${note}`);
    notes.push(note);
  }
}

/** What each terminal was (size, renderer), for the report. */
const notes: string[] = [];

/** The screens `--only` asks for; the others closed. */
async function keep(o: Options, all: Screen[]): Promise<Screen[]> {
  const out: Screen[] = [];
  for (const s of all) {
    if (o.only && !o.only.includes(s.kind)) await s.close();
    else {
      out.push(s);
      const note = `${s.kind}: ${s.cols}x${s.rows}, renderer ${s.renderer}`;
      console.error(`  ${note}`);
      notes.push(note);
    }
  }
  return out;
}

async function main(): Promise<number> {
  const o = options();
  const ttyd = o.ttyd ? await findTtyd(o.ttyd) : null;
  o.ttyd = ttyd;
  const base = await Deno.makeTempDir({ prefix: "domterm-bench39-" });
  const book = new Book();
  const browser = await RawBrowser.launch();
  const started = now();
  try {
    console.error(
      `${browser.version}, wall vs this clock ${
        (Date.now() - now()).toFixed(1)
      } ms`,
    );
    await writeFiles(base, 50 * MB);
    const screens = await keep(o, await openAll(browser, base, o));
    await new Promise((r) => setTimeout(r, 3000));
    for (const s of screens) {
      if (s.pid) book.add("server RSS idle, MB", s.kind, await rssMb(s.pid));
    }
    const on = (part: string) => !o.skip.has(part);
    if (on("streams")) await streams(book, screens, base, o.sizes, o.reps);
    for (const s of screens) {
      if (s.pid) {
        book.add(
          "server RSS after the streams, MB",
          s.kind,
          await rssMb(s.pid),
        );
      }
    }
    await reopenLost(browser, base, o, book, screens);
    if (on("yes")) {
      await yesRuns(book, screens, Math.max(1, Math.ceil(o.reps / 2)));
    }
    await reopenLost(browser, base, o, book, screens);
    if (on("keys")) await keyRuns(book, screens, o.keys);
    await reopenLost(browser, base, o, book, screens);
    if (on("ctrlc")) await interrupts(book, screens, base, o.reps);
    // The slow-link figure's floor: the same 2 MB on the bare PTY.
    for (let r = 0; r < o.reps && screens[0].kind === "floor"; r++) {
      const { start, end } = await streamRun(screens[0], SLOW_SEQ, 60_000);
      book.add(SLOW_OWN, "floor", (end - start) / 1000);
    }
    for (const s of screens) await s.close();
    if (on("slow")) {
      book.lost.clear();
      const links: { s: Screen; wire: WireCount; close(): void }[] = [];
      const route: Route = (port) => {
        const l = slowLink(port);
        links.push({
          s: null as unknown as Screen,
          wire: l.wire,
          close: l.close,
        });
        return l.port;
      };
      const all = await openAll(browser, base, o, route);
      all.forEach((s, i) => links[i].s = s);
      const slow = await keep(o, all);
      const used = links.filter((l) => slow.includes(l.s));
      await slowRuns(book, used, o.reps);
      for (const l of used) await l.s.close();
      for (const l of links) l.close();
    }
  } finally {
    await browser.close();
    await Deno.remove(base, { recursive: true }).catch(() => {});
  }
  console.error(`(${((now() - started) / 1000).toFixed(0)} s)`);
  console.log(report(book.results, o.sizes));
  console.log(`\nTerminals (fast, then slow link): ${notes.join("; ")}.`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
