/**
 * Wait until the processes this benchmark started (the browser and its
 * renderers, the servers, their shells and programs) are quiet, before a
 * phase measures latency. A terminal lost in a flood (ttyd's page under
 * `yes`) leaves work behind it: a closed page's renderer or a server still
 * draining megabytes, for seconds after the bench moved on, and a key
 * measured beside it waits for the CPU (on 2 cores, ~1 s per key).
 *
 * Linux only (/proc); elsewhere it returns at once.
 *
 * @module
 */

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const HZ = 100;

interface Proc {
  pid: number;
  ppid: number;
  /** utime + stime, ticks. */
  ticks: number;
  name: string;
}

async function procs(): Promise<Proc[]> {
  const out: Proc[] = [];
  try {
    for await (const e of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      const s = await Deno.readTextFile(`/proc/${e.name}/stat`).catch(() => "");
      // pid (comm) state ppid ... field 14 utime, 15 stime; comm may hold spaces.
      const close = s.lastIndexOf(")");
      if (close < 0) continue;
      const f = s.slice(close + 2).split(" ");
      out.push({
        pid: Number(e.name),
        ppid: Number(f[1]),
        ticks: Number(f[11]) + Number(f[12]),
        name: s.slice(s.indexOf("(") + 1, close),
      });
    }
  } catch { /* no /proc */ }
  return out;
}

/** The processes below `root` (not `root` itself), pid -> process. */
async function below(root: number): Promise<Map<number, Proc>> {
  const all = await procs();
  const kids = new Map<number, Proc[]>();
  for (const p of all) {
    let k = kids.get(p.ppid);
    if (!k) kids.set(p.ppid, k = []);
    k.push(p);
  }
  const out = new Map<number, Proc>();
  const todo = [root];
  while (todo.length > 0) {
    for (const c of kids.get(todo.pop()!) ?? []) {
      out.set(c.pid, c);
      todo.push(c.pid);
    }
  }
  return out;
}

/** What {@link settle} found: how long it waited, and the busiest process then. */
export interface Settled {
  waitedMs: number;
  /** The busiest process in the first window, and its share of one core. */
  busiest: string;
  /** Whether the processes went quiet before `maxMs`. */
  quiet: boolean;
}

/**
 * Wait until the processes below this one used less than `share` of one
 * core over a `windowMs` window (so a renderer or server still draining a
 * flood is done), for at most `maxMs`.
 */
export async function settle(
  { share = 0.15, windowMs = 500, maxMs = 60_000 } = {},
): Promise<Settled> {
  const start = performance.now();
  let busiest = "";
  let before = await below(Deno.pid);
  let t0 = performance.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, windowMs));
    const after = await below(Deno.pid);
    const t1 = performance.now();
    const secs = (t1 - t0) / 1000;
    t0 = t1;
    let used = 0, top = 0, topName = "";
    for (const [pid, p] of after) {
      const d = p.ticks - (before.get(pid)?.ticks ?? 0);
      used += d;
      if (d > top) {
        top = d;
        topName = `${p.name} (pid ${pid})`;
      }
    }
    const cores = used / HZ / secs;
    if (busiest === "" && topName !== "") {
      busiest = `${topName} ${(top / HZ / secs).toFixed(2)} core`;
    }
    const waitedMs = performance.now() - start;
    if (cores < share) return { waitedMs, busiest, quiet: true };
    if (waitedMs > maxMs) return { waitedMs, busiest, quiet: false };
    before = after;
  }
}
