/**
 * What server-owned sessions cost the server: CPU time per MB of output
 * (now that every byte also goes through the session's emulator), and the
 * resident memory of idle sessions holding 10,000 lines of history each.
 *
 * The server is a real `domterm --no-browser` process (this checkout's
 * main.ts, or another checkout's with `--main PATH` to compare with the
 * code before); a WebSocket client in this process plays the window and
 * acknowledges output at once. CPU and RSS come from /proc/PID.
 *
 * Run: `deno run -A bench/sessions_bench.ts [--main PATH] [--mb N]
 * [--sessions 1,20]`. Prints one table; exits 0 whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { spawnServer } from "../tests/e2e/domterm.ts";

const MB = 1000 * 1000;

const { values } = parseArgs({
  options: {
    main: { type: "string" },
    mb: { type: "string", default: "50" },
    sessions: { type: "string", default: "1,20" },
    "history-lines": { type: "string", default: "10000" },
    /** The flood: base64 lines (76 columns) or `yes` (2-byte lines). */
    flood: { type: "string", default: "base64" },
  },
});
const MAIN = values.main ?? new URL("../main.ts", import.meta.url).pathname;
const floodMb = Number(values.mb);
const sessionCounts = values.sessions === "none"
  ? []
  : values.sessions!.split(",").map(Number);
const historyLines = Number(values["history-lines"]);

/** User + system CPU of a process, in ms. */
function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks * 10; // USER_HZ = 100
}

/** CPU (ms) of each thread of a process, summed by thread name. */
function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const dir = `/proc/${pid}/task/${t.name}`;
      const name = Deno.readTextFileSync(`${dir}/comm`).trim();
      const stat = Deno.readTextFileSync(`${dir}/stat`);
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ms = (Number(f[11]) + Number(f[12])) * 10;
      out.set(name, (out.get(name) ?? 0) + ms);
    } catch {
      // the thread ended
    }
  }
  return out;
}

function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
  return kb / 1024;
}

async function startServer(
  command: string[],
): Promise<{ child: Deno.ChildProcess; url: string; dir: string }> {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-bench-" });
  const { child, url } = await spawnServer(
    ["--", ...command],
    { DOMTERM_RUNTIME_DIR: dir, DOMTERM_SOCKET: "" },
    MAIN,
  );
  return { child, url, dir };
}

/** A window: hello, then acknowledge everything; resolves when `marker` arrived. */
function window(
  url: string,
  input: string,
  marker: string,
  session?: number,
): Promise<
  { bytes: number; messages: number; ws: WebSocket; session: number }
> {
  const u = new URL(url);
  const key = new URLSearchParams(u.hash.slice(1)).get("key")!;
  const ws = new WebSocket(`ws://${u.host}/ws`);
  ws.binaryType = "arraybuffer";
  const dec = new TextDecoder();
  let tail = "";
  let bytes = 0;
  let messages = 0;
  let id = session ?? 0;
  return new Promise((resolve, reject) => {
    ws.onopen = () => {
      ws.send(JSON.stringify({
        type: "hello",
        key,
        cols: 80,
        rows: 24,
        ...(session ? { session } : {}),
      }));
    };
    ws.onerror = () => reject(new Error("socket error"));
    ws.onmessage = (ev) => {
      if (typeof ev.data === "string") {
        const m = JSON.parse(ev.data);
        if (m.type === "ready") {
          id = m.session;
          if (input) {
            ws.send(new TextEncoder().encode(input));
          }
        }
        return;
      }
      const b = new Uint8Array(ev.data as ArrayBuffer);
      bytes += b.length;
      messages++;
      ws.send(JSON.stringify({ type: "ack", bytes: b.length }));
      tail = (tail + dec.decode(b, { stream: true })).slice(-200);
      if (tail.includes(marker)) resolve({ bytes, messages, ws, session: id });
    };
  });
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  await child.status;
}

// ------------------------------------------------------------- CPU per MB

async function cpuPerMb(): Promise<
  { ms: number; mbps: number; threads: string; kibPerMessage: number }
> {
  const { child, url } = await startServer(["/bin/sh"]);
  try {
    // Wait for the shell, then flood: base64 lines of 76 characters.
    const producer = values.flood === "yes"
      ? `yes | head -c ${Math.round(floodMb * MB)}`
      : `head -c ${Math.round(floodMb * MB * 3 / 4)} /dev/zero | base64`;
    const t0 = cpuMs(child.pid);
    const th0 = threadCpuMs(child.pid);
    const w0 = performance.now();
    const w = await window(
      url,
      `stty -echo; ${producer}; echo FLOOD''-DONE\r`,
      "FLOOD-DONE",
    );
    const wall = performance.now() - w0;
    const cpu = cpuMs(child.pid) - t0;
    const th1 = threadCpuMs(child.pid);
    w.ws.close();
    const mb = w.bytes / MB;
    const threads = [...th1].map(([k, v]) =>
      [k, v - (th0.get(k) ?? 0)] as const
    )
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${(v / mb).toFixed(1)}`)
      .join(", ");
    return {
      ms: cpu / mb,
      mbps: mb / (wall / 1000),
      threads,
      kibPerMessage: w.bytes / 1024 / w.messages,
    };
  } finally {
    await stop(child);
  }
}

// ------------------------------------------------------------- idle RSS

async function idleRss(n: number): Promise<number> {
  const { child, url } = await startServer(["/bin/sh"]);
  try {
    const script =
      `stty -echo; awk 'BEGIN{for(i=1;i<=${historyLines};i++) printf "\\033[3%dm%06d\\033[0m a line of coloured history \\033[1mbold\\033[0m \\033[4munder\\033[0m\\n", i%8, i}'; echo HIST''-DONE\r`;
    const sockets: WebSocket[] = [];
    for (let k = 0; k < n; k++) {
      const w = await window(url, script, "HIST-DONE");
      sockets.push(w.ws);
    }
    // Windows gone (a lost connection: the sessions stay, detached).
    for (const ws of sockets) ws.close();
    await new Promise((r) => setTimeout(r, 1500));
    // Let the collector settle.
    let rss = rssMb(child.pid);
    for (let k = 0; k < 5; k++) {
      await new Promise((r) => setTimeout(r, 500));
      rss = Math.min(rss, rssMb(child.pid));
    }
    return rss;
  } finally {
    await stop(child);
  }
}

console.log(`server: ${MAIN}`);
const cpu = await cpuPerMb();
console.log(
  `flood ${floodMb} MB (${values.flood} lines), one window acking at once: ` +
    `server CPU ${cpu.ms.toFixed(1)} ms/MB, ${cpu.mbps.toFixed(1)} MB/s`,
);
console.log(`  by thread (ms/MB): ${cpu.threads}`);
console.log(
  `  output messages to the window: ${cpu.kibPerMessage.toFixed(1)} KiB each`,
);
for (const n of sessionCounts) {
  const rss = await idleRss(n);
  console.log(
    `${n} idle session(s) of ${historyLines} coloured lines each, no window: server RSS ${
      rss.toFixed(0)
    } MB`,
  );
}
