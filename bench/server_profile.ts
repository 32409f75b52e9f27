/**
 * A CPU profile of the server's main thread during a flood: where the read
 * loop's time goes (PTY reads, sends to the windows, the replay log, the
 * hand-off to the emulator thread, acks).
 *
 * Starts a real `domterm --no-browser` under `--inspect`, plays one window
 * that acknowledges every message at once (as bench/sessions_bench.ts
 * does), floods it, and samples the main thread with the V8 profiler over
 * the inspector protocol. Prints self time by function and by module, and
 * writes the `.cpuprofile` (open it in Chromium's DevTools) with `--out`.
 *
 * Run: `deno run -A bench/server_profile.ts [--flood yes|base64] [--mb N]
 * [--out FILE] [--main PATH]`. Exits 0 whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { spawnServer } from "../tests/e2e/domterm.ts";
import { Inspector } from "./inspector.ts";

const MB = 1000 * 1000;
const { values } = parseArgs({
  options: {
    main: { type: "string" },
    mb: { type: "string", default: "20" },
    flood: { type: "string", default: "yes" },
    out: { type: "string" },
    top: { type: "string", default: "25" },
  },
});
const MAIN = values.main ?? new URL("../main.ts", import.meta.url).pathname;
const floodMb = Number(values.mb);
const INSPECT_PORT = 9000 + Math.floor(Math.random() * 900);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const dir = Deno.makeTempDirSync({ prefix: "domterm-prof-" });
const server = await spawnServer(
  ["--", "/bin/sh"],
  { DOMTERM_RUNTIME_DIR: dir, DOMTERM_SOCKET: "" },
  MAIN,
  undefined,
  [`--inspect=127.0.0.1:${INSPECT_PORT}`],
);
const child = server.child;
const url = new URL(server.url);

const insp = await Inspector.connect(INSPECT_PORT);
await insp.send("Profiler.enable");
await insp.send("Profiler.setSamplingInterval", { interval: 200 });

const producer = values.flood === "yes"
  ? `yes | head -c ${Math.round(floodMb * MB)}`
  : `head -c ${Math.round(floodMb * MB * 3 / 4)} /dev/zero | base64`;
const key = new URLSearchParams(url.hash.slice(1)).get("key")!;
const ws = new WebSocket(`ws://${url.host}/ws`);
ws.binaryType = "arraybuffer";
const dec = new TextDecoder();
let bytes = 0;
let t0 = 0;
const wall = await new Promise<number>((resolve, reject) => {
  let tail = "";
  ws.onopen = () =>
    ws.send(JSON.stringify({ type: "hello", key, cols: 80, rows: 24 }));
  ws.onerror = () => reject(new Error("socket error"));
  ws.onmessage = async (ev) => {
    if (typeof ev.data === "string") {
      if (JSON.parse(ev.data).type === "ready") {
        await insp.send("Profiler.start");
        t0 = performance.now();
        ws.send(new TextEncoder().encode(
          `stty -echo; ${producer}; echo FLOOD''-DONE\r`,
        ));
      }
      return;
    }
    const b = new Uint8Array(ev.data as ArrayBuffer);
    bytes += b.length;
    ws.send(JSON.stringify({ type: "ack", bytes: b.length }));
    tail = (tail + dec.decode(b, { stream: true })).slice(-200);
    if (tail.includes("FLOOD-DONE")) resolve(performance.now() - t0);
  };
});
const { profile } = await insp.send("Profiler.stop") as { profile: Profile };
ws.close();
insp.close();
child.kill("SIGTERM");
await child.status;
Deno.removeSync(dir, { recursive: true });
if (values.out) Deno.writeTextFileSync(values.out, JSON.stringify(profile));

// Self time per node, then per function and per module.
const self = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i] / 1000);
}
const byFn = new Map<string, number>();
const byModule = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const ms = self.get(node.id) ?? 0;
  if (ms === 0) continue;
  total += ms;
  const f = node.callFrame;
  const file = f.url.replace(/^.*\/(main|bench|server|core)\//, "$1/")
    .replace(/^ext:/, "ext:") || "(native)";
  const name = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
  byFn.set(name, (byFn.get(name) ?? 0) + ms);
  byModule.set(file, (byModule.get(file) ?? 0) + ms);
}
const mb = bytes / MB;
console.log(
  `server: ${MAIN}\nflood: ${producer} (${
    mb.toFixed(1)
  } MB of terminal bytes) in ${(wall / 1000).toFixed(2)} s, ${
    (mb / (wall / 1000)).toFixed(1)
  } MB/s`,
);
const idle = byFn.get("(idle) (native):0") ?? 0;
console.log(
  `main thread sampled ${total.toFixed(0)} ms, of which idle ${
    idle.toFixed(0)
  } ms; busy ${((total - idle) / mb).toFixed(1)} ms per MB`,
);
const top = Number(values.top);
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${v.toFixed(0).padStart(7)} ms ${
        (100 * v / total).toFixed(1).padStart(5)
      }%  ${k}`,
    );
  }
};
show("self time by module", byModule);
show("self time by function", byFn);
