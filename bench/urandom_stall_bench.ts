/**
 * Issue 37 §6: "1 GB from /dev/urandom stalled once at 555 MB (the program
 * blocked in write, a second window attached but nothing moved)". This
 * runs it repeatedly, smaller: each run is a session running
 * `head -c MB MiB /dev/urandom` on a real PTY with one window (a real
 * WebSocket that acknowledges what it gets, as a page does) attached from
 * the start and a second one attaching half-way; a run stalls when the
 * server reads nothing from the PTY and neither window gets a byte or a
 * message for --stall seconds before the program's exit. On a
 * stall it prints the session's flow-control state and exits 1.
 *
 *   deno run -A bench/urandom_stall_bench.ts [--mb 200] [--runs 5] [--stall 20]
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startServer } from "../server/http.ts";
import { TestClient } from "../tests/server/ws_client.ts";
import type { Session } from "../server/session.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    mb: { type: "string", default: "200" },
    runs: { type: "string", default: "5" },
    stall: { type: "string", default: "20" },
  },
});
const MB = Number(args.mb);
const RUNS = Number(args.runs);
const STALL_MS = Number(args.stall) * 1000;

/** A window that acknowledges every byte as it arrives. */
function window(port: number, key: string, session: number): TestClient {
  const c = new TestClient(`ws://127.0.0.1:${port}/ws`, false);
  let acked = 0;
  const ack = () => {
    if (c.outputLength > acked && c.ws.readyState === WebSocket.OPEN) {
      c.send({ type: "ack", bytes: c.outputLength - acked });
      acked = c.outputLength;
    }
  };
  c.ws.addEventListener("message", ack);
  c.opened.then(() =>
    c.send({ type: "hello", key, cols: 80, rows: 24, session })
  );
  return c;
}

/** What the program and its children are doing (/proc: state and wait channel). */
function programState(pid: number): string {
  const out: string[] = [];
  const walk = (p: number) => {
    try {
      const stat = Deno.readTextFileSync(`/proc/${p}/stat`);
      const wchan = Deno.readTextFileSync(`/proc/${p}/wchan`);
      out.push(`${p} ${stat.split(" ").slice(1, 3).join(" ")} wchan=${wchan}`);
      const kids = Deno.readTextFileSync(`/proc/${p}/task/${p}/children`);
      for (const k of kids.trim().split(/\s+/)) if (k) walk(Number(k));
    } catch { /* gone */ }
  };
  walk(pid);
  return out.join("; ");
}

function state(s: Session, clients: TestClient[]): string {
  // A window waiting for its snapshot (pending: what follows it) has
  // acked nothing since it attached; the snapshot waits for the session's
  // emulator to parse its backlog (on the low-priority emulator thread).
  const ws = [...s.windows].map((w) =>
    `{sent ${w.sent}, acked ${w.acked}${w.stale ? ", stale" : ""}${
      w.pending ? `, waiting for its snapshot (${w.pending.length} held)` : ""
    }}`
  ).join(" ");
  return `read ${s.bytesRead}, paused ${s.paused}, windows ${ws}; ` +
    `clients got ${
      clients.map((c) => `${c.outputLength} B + ${c.messages.length} msgs`)
        .join(", ")
    }`;
}

async function run(i: number): Promise<boolean> {
  const server = startServer({
    command: "/bin/sh",
    args: [],
    assets: { "/": { type: "text/html", body: "" } },
    log: (m) => console.error(`server: ${m}`),
  });
  const total = MB * 1024 * 1024;
  const s = server.newSession([
    "/bin/sh",
    "-c",
    `head -c ${total} /dev/urandom`,
  ]);
  const t0 = performance.now();
  const clients = [window(server.port, server.key, s.id)];
  let second = false;
  let last = 0, lastAt = performance.now();
  try {
    while (true) {
      await new Promise((r) => setTimeout(r, 100));
      if (!second && s.bytesRead >= total / 2) {
        clients.push(window(server.port, server.key, s.id));
        second = true;
      }
      // Output comes as bytes, or as grid/snapshot messages for a window
      // the server moves on from a flood's bytes: either is progress.
      const moved = clients.reduce(
        (n, c) => n + c.outputLength + c.messages.length,
        0,
      ) + s.bytesRead;
      if (moved !== last) {
        last = moved;
        lastAt = performance.now();
      }
      if (clients[0].messages.some((m) => m.type === "exit")) break;
      if (performance.now() - lastAt > STALL_MS) {
        console.log(
          `run ${i}: STALLED at ${
            (s.bytesRead / 2 ** 20).toFixed(1)
          } MiB read: ${state(s, clients)}; program: ${programState(s.pid)}`,
        );
        return false;
      }
    }
    const secs = (performance.now() - t0) / 1000;
    console.log(
      `run ${i}: ${MB} MiB in ${secs.toFixed(1)} s (${
        (MB / secs).toFixed(1)
      } MiB/s); ${state(s, clients)}`,
    );
    return true;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.shutdown();
  }
}

let stalls = 0;
for (let i = 1; i <= RUNS; i++) if (!(await run(i))) stalls++;
console.log(`${stalls} of ${RUNS} runs stalled`);
Deno.exit(stalls ? 1 : 0);
