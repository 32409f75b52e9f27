/**
 * The echo trace (server/echo_trace.ts): with DOMTERM_ECHO_TRACE=FILE, an
 * input's steps are written as one JSON line once its output is sent, in
 * order, with the main thread's longest gap meanwhile; without the
 * variable nothing is traced.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";

const traceModule = new URL("../../server/echo_trace.ts", import.meta.url).href;

/** Runs `code` (with `echoTrace` imported) in a new process with `env`. */
async function run(code: string, env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { echoTrace } from ${JSON.stringify(traceModule)};\n${code}`,
    ],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

const steps = `
const k = {};
echoTrace.mark(k, "write"); // no input yet: ignored
echoTrace.input(k, 1);
echoTrace.send(k); // nothing read yet: not the end
echoTrace.mark(k, "write");
echoTrace.mark(k, "ready");
const t = performance.now(); while (performance.now() - t < 30) {}
echoTrace.mark(k, "read");
echoTrace.mark(k, "loop");
echoTrace.send(k);
echoTrace.send(k); // ended: ignored
Deno.exit(0);
`;

Deno.test("echo trace: an input's steps, in order, one line once sent; the 30 ms the main thread was busy is its longest gap", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = `${dir}/trace.jsonl`;
    await run(steps, { DOMTERM_ECHO_TRACE: file });
    const lines = Deno.readTextFileSync(file).trim().split("\n");
    assertEquals(lines.length, 1);
    const r = JSON.parse(lines[0]);
    assertEquals(r.bytes, 1);
    const order = ["message", "write", "ready", "read", "loop", "send"];
    for (let i = 1; i < order.length; i++) {
      assert(
        r[order[i]] >= r[order[i - 1]],
        `${order[i]} after ${order[i - 1]}`,
      );
    }
    assert(r.read - r.ready >= 30, "the busy wait is between ready and read");
    assert(r.maxGap >= 30, `longest gap ${r.maxGap} ms`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("echo trace: off without DOMTERM_ECHO_TRACE", async () => {
  assertEquals(
    (await run("console.log(echoTrace === null);", {})).trim(),
    "true",
  );
});
