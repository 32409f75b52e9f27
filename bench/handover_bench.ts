/**
 * Handover time of `domterm restart-server`: a real server process with
 * `--sessions` sessions (default 10) that each printed `--lines` lines
 * (default 10,000, about 60 characters each) and wait in `cat`; then
 * `--runs` restarts in a row (default 3), each to a new server process.
 *
 * Printed per restart: the time the sessions were stopped (from the old
 * server's listener closing to the new one's `ready`: what a program and
 * a window can notice; the server reports it) and the whole request (the
 * new server's start included: a `deno run` of main.ts). Checks that the
 * sessions' pids and output offsets are the same afterwards.
 *
 * Run: `deno run -A bench/handover_bench.ts [--sessions 10] [--lines
 * 10000] [--runs 3]`. Exits 0 whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { request, socketPath } from "../server/control.ts";
import {
  newSession,
  startHandoverServer,
  stopHandoverServer,
  waitFor,
} from "../tests/handover_server.ts";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "10" },
    lines: { type: "string", default: "10000" },
    runs: { type: "string", default: "3" },
  },
});
const count = Number(values.sessions);
const lines = Number(values.lines);
const runs = Number(values.runs);

const s = await startHandoverServer(["/bin/sh"]);
const path = socketPath(s.dir);
try {
  const awk =
    `awk 'BEGIN{for(i=1;i<=${lines};i++) printf "line %d of the handover benchmark, with some text to fill it\\n", i}'`;
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await newSession(s, ["/bin/sh", "-c", `${awk}; exec cat`]));
  }
  // Every session has printed everything.
  const offsets = async () => {
    const out: number[] = [];
    for (const id of ids) {
      const r = await request(path, { op: "snapshot", session: id }, 60_000);
      out.push(r?.offset ?? -1);
    }
    return out;
  };
  let last: number[] = [];
  await waitFor(
    async () => {
      const now = await offsets();
      const same = JSON.stringify(now) === JSON.stringify(last);
      last = now;
      return same && now.every((o) => o > lines * 50);
    },
    "the sessions' output",
    120_000,
  );
  const before = await request(path, { op: "list" });
  const total = last.reduce((a, b) => a + b, 0);
  console.log(
    `${count} sessions x ${lines} lines (${
      (total / 1048576).toFixed(1)
    } MiB of output)`,
  );
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const res = await request(path, { op: "restart-server" }, 180_000);
    const whole = performance.now() - t0;
    if (!res?.ok) {
      console.log(`restart ${r + 1} failed: ${res?.error}`);
      break;
    }
    console.log(
      `restart ${r + 1}: sessions stopped for ${res.ms} ms; the request took ${
        whole.toFixed(0)
      } ms (new server pid ${res.pid}, ${res.handedOver} sessions)`,
    );
    // The next request goes to the new server.
    await waitFor(
      async () => (await request(path, { op: "info" }))?.pid === res.pid,
      "the new server",
      120_000,
    );
  }
  const after = await request(path, { op: "list" }, 60_000);
  const pids = (x: typeof before) => x?.sessions?.map((i) => i.pid).join(",");
  const now = JSON.stringify(await offsets());
  console.log(
    `pids unchanged: ${pids(before) === pids(after)}; offsets unchanged: ${
      now === JSON.stringify(last)
    }`,
  );
  if (now !== JSON.stringify(last)) console.log(`  ${now} / ${last}`);
} finally {
  await stopHandoverServer(s);
}
