/**
 * Where the CPU of one stream on screen goes, on the whole machine: one
 * domterm page (and the PTY floor beside it, with `--floor`) runs one
 * stream of bench/e2e/screen_bench.ts, and the CPU time each process and
 * thread used meanwhile is read from /proc: the program (seq, head, yes:
 * the loop's shell's children), the server's threads (main, the emulator
 * thread, Deno's pools), Chromium's processes (browser, renderer, GPU,
 * utility), and the machine's busy and idle time. On 2 cores that tells
 * what the page and the server leave for the program, and what the page
 * costs beside the server. With `--profile` the page's V8 profile is also
 * sorted by stage (bench/e2e/breakdown.ts: build the client with
 * `deno task build --no-minify` first).
 *
 * Run: `deno run -A bench/e2e/stream_cpu.ts [--stream seq|ls|yes]
 * [--mb 10] [--runs 1] [--floor] [--profile] [--main PATH]`. CPU times
 * are in ms (the kernel counts in 10 ms ticks); the wall time is the
 * program's start to its marker on screen, as screen_bench clocks it.
 * The machine is shared: every time is an upper bound.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { RawBrowser } from "./cdp.ts";
import {
  marker,
  openDomterm,
  openFloor,
  runCommand,
  type Screen,
  stamp,
  upcoming,
} from "./screens.ts";
import { breakdown } from "./breakdown.ts";
import { e2eStream } from "./streams.ts";

const MB = 1000 * 1000;
/** Kernel clock ticks per second (USER_HZ). */
const TICK_MS = 10;

const COMMANDS: Record<string, string> = {
  seq: "seq 1 1000000000 | head -c BYTES",
  ls: "head -c BYTES FILES/ls.txt",
  yes: "yes | head -c BYTES",
};

/** utime + stime + cutime + cstime of a process or one of its threads, in ticks. */
function ticks(path: string): number {
  try {
    const s = Deno.readTextFileSync(`${path}/stat`);
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return 0; // gone meanwhile
  }
}

function read(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** Every process id below `root` (itself included). */
function descendants(root: number): string[] {
  const kids = new Map<string, string[]>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const s = read(`/proc/${e.name}/stat`);
    const parent = s.slice(s.lastIndexOf(")") + 2).split(" ")[1];
    if (!kids.has(parent)) kids.set(parent, []);
    kids.get(parent)!.push(e.name);
  }
  const out: string[] = [];
  const walk = (p: string) => {
    out.push(p);
    for (const k of kids.get(p) ?? []) walk(k);
  };
  walk(String(root));
  return out;
}

/** A Chromium process's role (`--type=`), or its command name. */
function role(pid: string): string {
  const cmd = read(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  if (!cmd.includes("chrom")) return read(`/proc/${pid}/comm`).trim();
  const t = /--type=([a-z-]+)/.exec(cmd);
  return `chromium ${t ? t[1] : "browser"}`;
}

/** CPU ticks so far by what used them. */
function sample(browser: number, server: number): Map<string, number> {
  const m = new Map<string, number>();
  const add = (k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const p of descendants(browser)) add(role(p), ticks(`/proc/${p}`));
  for (const p of descendants(server)) {
    if (p !== String(server)) {
      // The loop's shell: its reaped children (the program) in cutime.
      add(`program (${role(p)} and children)`, ticks(`/proc/${p}`));
      continue;
    }
    for (const t of Deno.readDirSync(`/proc/${p}/task`)) {
      const path = `/proc/${p}/task/${t.name}`;
      add(`server thread ${read(`${path}/comm`).trim()}`, ticks(path));
    }
  }
  const cpu = read("/proc/stat").split("\n")[0].split(/\s+/).slice(1)
    .map(Number);
  add("machine busy", cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6] + cpu[7]);
  add("machine idle", cpu[3] + cpu[4]);
  return m;
}

/** The ls/sgr stream of screen_bench, `size` bytes, LF line ends (the tty adds CR). */
async function writeLs(path: string, size: number): Promise<void> {
  const block = e2eStream("ls").block(4 * MB);
  const lf = new TextEncoder().encode(
    new TextDecoder().decode(block).replaceAll("\r\n", "\n"),
  );
  const f = await Deno.open(path, { write: true, create: true });
  for (let left = size; left > 0; left -= lf.length) {
    const p = lf.subarray(0, Math.min(left, lf.length));
    for (let off = 0; off < p.length;) off += await f.write(p.subarray(off));
  }
  f.close();
}

async function run(s: Screen, cmd: string) {
  const n = upcoming();
  await s.arm(marker(n));
  await runCommand(s, cmd);
  const seen = await s.seen(180_000);
  return { seen, start: await stamp(s, "start", n) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      stream: { type: "string", default: "seq" },
      mb: { type: "string", default: "10" },
      runs: { type: "string", default: "1" },
      floor: { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
      main: { type: "string" },
    },
  });
  const template = COMMANDS[values.stream];
  if (!template) throw new Error(`--stream ${values.stream}?`);
  const mb = Number(values.mb);
  const base = await Deno.makeTempDir({ prefix: "domterm-stream-cpu-" });
  if (values.stream === "ls") await writeLs(`${base}/ls.txt`, mb * MB);
  const cmd = (bytes: number) =>
    template.replace("FILES", base).replace("BYTES", String(bytes));
  const browser = await RawBrowser.launch();
  try {
    const d = await openDomterm(browser, base, values.main);
    const floor = values.floor ? await openFloor(base, d.cols, d.rows) : null;
    await run(d, cmd(MB)); // warm-up
    for (let r = 0; r < Number(values.runs); r++) {
      if (floor) {
        const x = await run(floor, cmd(mb * MB));
        console.log(
          `floor: ${(mb / ((x.seen - x.start) / 1000)).toFixed(1)} MB/s`,
        );
      }
      const before = sample(browser.pid, d.pid!);
      if (values.profile) await d.page!.startProfile(500);
      const x = await run(d, cmd(mb * MB));
      const profile = values.profile ? await d.page!.stopProfile() : null;
      const after = sample(browser.pid, d.pid!);
      const wall = x.seen - x.start;
      console.log(
        `domterm ${values.stream} ${mb} MB: ${
          (mb / (wall / 1000)).toFixed(1)
        } MB/s, ${wall.toFixed(0)} ms on screen; CPU ms:`,
      );
      const rows = [...after].map(([k, v]) =>
        [k, (v - (before.get(k) ?? 0)) * TICK_MS] as const
      ).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
      for (const [k, v] of rows) console.log(`  ${k}: ${v}`);
      if (profile) {
        const dir = values.main?.replace(/main\.ts$/, "") ??
          new URL("../../", import.meta.url).pathname;
        const bundle = await Deno.readTextFile(`${dir}static/gen/client.js`);
        console.log("page main thread, ms:");
        for (const [stage, ms] of breakdown(profile, bundle)) {
          if (ms >= 1) console.log(`  ${stage}: ${ms.toFixed(0)}`);
        }
      }
    }
    await d.close();
    await floor?.close();
  } finally {
    await browser.close();
    await Deno.remove(base, { recursive: true });
  }
}

if (import.meta.main) await main();
