/**
 * `domterm inspect` of a large JSON file: how long opening its top level
 * takes, reading and parsing the file included (the goal: under 200 ms for
 * 10 MB). A generated document of `--mb` megabytes (an object of a few
 * keys holding a large array of records, as an API dump would be) is
 * written to a temporary file; each run reads it, parses it and makes the
 * first output (server/commands/inspect.ts: readJson, JsonInspector.top),
 * then answers the opening of the large array (its first page of 100).
 * Median and worst of `--runs`, wall clock and this process's CPU time
 * (on a loaded machine the wall clock mostly measures the wait for a
 * CPU). Also the whole command once, as a
 * program (`deno run main.ts inspect --force`, its startup included).
 *
 * Run: `deno run -A bench/inspect_bench.ts [--mb 10] [--runs 7]`. Exits 0
 * whatever the figures are.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { cpuUsage } from "node:process";
import { JsonInspector, readJson } from "../server/commands/inspect.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "10" },
    runs: { type: "string", default: "7" },
  },
});
const MB = Number(values.mb);
const RUNS = Number(values.runs);
const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A JSON document of about `bytes` bytes. */
function makeDocument(bytes: number): string {
  const records: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const r = {
      id: i,
      name: `record ${i}`,
      tags: ["alpha", "beta", String(i % 97)],
      score: (i * 7919) % 1000 / 10,
      active: i % 3 === 0,
      owner: { login: `user${i % 1000}`, url: `https://example.com/u/${i}` },
    };
    records.push(r);
    size += JSON.stringify(r).length + 1;
  }
  return JSON.stringify({ version: 1, generated: "bench", records });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const dir = await Deno.makeTempDir({ prefix: "domterm-inspect-bench-" });
try {
  const path = `${dir}/doc.json`;
  const text = makeDocument(MB * 1e6);
  await Deno.writeTextFile(path, text);
  console.log(
    `inspect_bench: ${(text.length / 1e6).toFixed(1)} MB of JSON, ${RUNS} runs`,
  );
  const open: number[] = [];
  const openCpu: number[] = [];
  const first: number[] = [];
  let out = 0;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    const c0 = cpuUsage();
    const ins = new JsonInspector(await readJson(path), "doc.json");
    const top = ins.top();
    const t1 = performance.now();
    const c1 = cpuUsage(c0);
    openCpu.push((c1.user + c1.system) / 1000);
    const page = ins.answer({
      name: "inspect",
      key: "n2",
      event: "toggle",
      value: "open",
    });
    const t2 = performance.now();
    open.push(t1 - t0);
    first.push(t2 - t1);
    out = top.length + page.length;
  }
  console.log(
    `  open the top level (read + parse + print): median ${
      median(open).toFixed(1)
    } ms, worst ${Math.max(...open).toFixed(1)} ms; CPU time median ${
      median(openCpu).toFixed(1)
    } ms (the figure that does not depend on the machine's load)`,
  );
  console.log(
    `  open the large array (its first 100): median ${
      median(first).toFixed(2)
    } ms; ${out} characters printed in all`,
  );
  // The whole program, startup included (standard input not a terminal:
  // it prints the top level and ends).
  const t0 = performance.now();
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "inspect", "--force", path],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const ms = performance.now() - t0;
  console.log(
    `  the command (deno run main.ts inspect --force): ${ms.toFixed(0)} ms, ` +
      `${r.stdout.length} bytes out, status ${r.code}`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
