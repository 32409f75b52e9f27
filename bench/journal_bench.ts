/**
 * What the journal (server/journal/) costs and gives back:
 *
 * 1. CPU per MB of a flood with and without the journal: sessions of this
 *    process (a `SessionRegistry`, as the server makes them) read a flood
 *    from a real PTY through their emulators, with no window attached;
 *    CPU is this process's (all threads: the emulator thread too), from
 *    `process.cpuUsage()`; the program making the flood is another
 *    process and not counted. Alternating runs, the median.
 * 2. Size on disk per 10,000 lines: a session prints 10,000 lines like
 *    `ls -l`'s (some in colour); the journal as it is during output (the
 *    segment) and after the quiet point (the snapshot that replaced it).
 * 3. Restore time for 10 sessions of 10,000 lines: journals kept by a
 *    server that stopped, restored at the start of another
 *    (`restoreAtStart`: load, divider, new program, first snapshot on
 *    disk), wall time.
 *
 * Run: `deno run -A bench/journal_bench.ts [--mb N] [--runs N] [--only
 * cpu,size,restore]`. Prints
 * the figures; exits 0 whatever they are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import process from "node:process";
import { SessionRegistry } from "../server/session_registry.ts";
import { SettingsStore } from "../server/settings/file.ts";
import { restoreAtStart } from "../server/journal/restore.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "40" },
    runs: { type: "string", default: "5" },
    /** Only some parts: "cpu", "size", "restore" (comma-separated). */
    only: { type: "string", default: "cpu,size,restore" },
  },
});
const floodMb = Number(values.mb);
const runs = Number(values.runs);
const parts = new Set(values.only!.split(","));
const MB = 1000 * 1000;

function registry(root: string, journal: boolean): SessionRegistry {
  const store = new SettingsStore(null, { journal }, () => {});
  store.load();
  return new SessionRegistry({
    command: "/bin/sh",
    args: [],
    shellIntegration: false,
    journalRoot: root,
    log: (m) => console.error(m),
  }, store);
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The names in `dir` (none while it is not made yet). */
function names(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name);
  } catch {
    return [];
  }
}

/** Bytes under `dir`. */
function du(dir: string): number {
  let n = 0;
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    n += e.isDirectory ? du(p) : Deno.statSync(p).size;
  }
  return n;
}

const FLOODS: Record<string, string> = {
  "base64 (76-column lines)": `head -c ${
    Math.round(floodMb * MB * 3 / 4)
  } /dev/zero | base64`,
  "seq (short lines)": `seq 1 ${Math.round(floodMb * MB / 8)}`,
};

/**
 * CPU ms per MB of `script`'s output while it floods, with or without the
 * journal (up to 300 ms after the output stopped: before the journal's
 * quiet point), and the CPU ms of what follows in the next 2.5 s (the
 * quiet point's snapshot, with the journal).
 */
async function floodCost(
  script: string,
  journal: boolean,
): Promise<{ perMb: number; quiet: number }> {
  const root = Deno.makeTempDirSync({ prefix: "domterm-journal-bench-" });
  const reg = registry(root, journal);
  const start = cpuMs();
  const s = reg.create(["/bin/sh", "-c", `${script}; exec sleep 60`]);
  let seen = -1, still = 0;
  while (still < 6) {
    await new Promise((r) => setTimeout(r, 50));
    if (s.bytesRead === seen && s.bytesRead > 0) still++;
    else still = 0;
    seen = s.bytesRead;
  }
  const flood = cpuMs() - start;
  await new Promise((r) => setTimeout(r, 2500));
  const quiet = cpuMs() - start - flood;
  await reg.closeAll();
  Deno.removeSync(root, { recursive: true });
  return { perMb: flood / (s.bytesRead / MB), quiet };
}

if (parts.has("cpu")) {
  console.log(
    `1. CPU per MB of a flood (${floodMb} MB, no window, median of ${runs} alternating runs):`,
  );
}
for (const [name, script] of parts.has("cpu") ? Object.entries(FLOODS) : []) {
  const off: number[] = [],
    on: number[] = [],
    offQ: number[] = [],
    onQ: number[] = [];
  for (let i = 0; i < runs; i++) {
    const a = await floodCost(script, false);
    const b = await floodCost(script, true);
    off.push(a.perMb);
    offQ.push(a.quiet);
    on.push(b.perMb);
    onQ.push(b.quiet);
  }
  const a = median(off), b = median(on);
  console.log(
    `   ${name.padEnd(26)} without ${a.toFixed(1)} ms/MB, with ${
      b.toFixed(1)
    } ms/MB (${b >= a ? "+" : ""}${((b / a - 1) * 100).toFixed(1)}%); ` +
      `the 2.5 s after it: ${median(offQ).toFixed(0)} ms without, ${
        median(onQ).toFixed(0)
      } ms with (the quiet point's snapshot)`,
  );
}

/** Print 10,000 lines like `ls -l`'s, every tenth in colour; then wait. */
const LINES_10K = `i=0; while [ $i -lt 10000 ]; do ` +
  `if [ $((i % 10)) = 0 ]; then printf '\\033[1;34mdrwxr-xr-x\\033[0m  2 user user  4096 Dec  7 07:41 \\033[1;34mdir-%05d\\033[0m\\n' $i; ` +
  `else printf -- '-rw-r--r--  1 user user %6d Dec  7 07:41 file-%05d.txt\\n' $((i * 37 % 100000)) $i; fi; i=$((i+1)); done; exec cat`;

const sizeRoot = Deno.makeTempDirSync({ prefix: "domterm-journal-bench-" });
if (parts.has("size")) {
  const reg = registry(sizeRoot, true);
  const s = reg.create(["/bin/sh", "-c", LINES_10K]);
  const journal = reg.journal(s.id)!;
  while (!names(journal.dir).includes("out-0.bin")) {
    await new Promise((r) => setTimeout(r, 50));
  }
  let segment = 0;
  // The segment while output comes, then the snapshot at the quiet point.
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const now = names(journal.dir);
    if (now.includes("out-0.bin")) {
      segment = Deno.statSync(`${journal.dir}/out-0.bin`).size;
    }
    if (now.some((n) => n.startsWith("snap-") && n !== "snap-0.json")) break;
  }
  await journal.settled();
  console.log(
    `2. On disk per 10,000 lines (ls -l like, 1 in 10 in colour; ${
      (s.bytesRead / 1024).toFixed(0)
    } KiB of output): segment ${(segment / 1024).toFixed(0)} KiB, ` +
      `after the quiet point (snapshot + meta) ${
        (du(journal.dir) / 1024).toFixed(0)
      } KiB`,
  );
  await reg.closeAll();
}

if (parts.has("restore")) {
  const root = Deno.makeTempDirSync({ prefix: "domterm-journal-bench-" });
  const before = registry(root, true);
  const sessions = Array.from(
    { length: 10 },
    () => before.create(["/bin/sh", "-c", LINES_10K]),
  );
  // Written down (a snapshot each), then the server stops under them.
  for (const s of sessions) {
    const j = before.journal(s.id)!;
    while (
      !names(j.dir).some((n) => n.startsWith("snap-") && n !== "snap-0.json")
    ) await new Promise((r) => setTimeout(r, 100));
    await j.settled();
  }
  await before.closeAll("bench", { reason: "the bench stopped", auto: true });
  const after = registry(root, true);
  const t0 = performance.now(), c0 = cpuMs();
  const restored = await restoreAtStart(after, root, () => {});
  const ms = performance.now() - t0, cpu = cpuMs() - c0;
  console.log(
    `3. Restore of ${restored.length} sessions of 10,000 lines (load, ` +
      `divider, new program, first snapshot on disk): ${
        ms.toFixed(0)
      } ms wall, ${cpu.toFixed(0)} ms CPU (${
        (cpu / restored.length).toFixed(0)
      } ms CPU each); load average ${
        Deno.readTextFileSync("/proc/loadavg").split(" ")[0]
      } on ${navigator.hardwareConcurrency} CPUs`,
  );
  await after.closeAll();
  Deno.removeSync(root, { recursive: true });
}
Deno.removeSync(sizeRoot, { recursive: true });
