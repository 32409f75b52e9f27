/**
 * bench/e2e/key_frames.ts places the page's clock on the trace's and finds,
 * for each key, the first frame committed after the echo's DOM change.
 *
 * @module
 */
import { assertEquals } from "../assert.ts";
import { keyFramesFromTrace } from "../../bench/e2e/key_frames.ts";

const MAIN = { pid: 1, tid: 1 };
const COMPOSITOR = { pid: 1, tid: 2 };

function trace(): string {
  const meta = [
    { ...MAIN, ph: "M", name: "thread_name", args: { name: "CrRendererMain" } },
    {
      ...COMPOSITOR,
      ph: "M",
      name: "thread_name",
      args: { name: "Compositor" },
    },
  ];
  // Trace clock (us) = page clock (ms) * 1000 + 5,000,000.
  const key = (ms: number) => ({
    ...MAIN,
    ph: "X",
    name: "EventDispatch",
    ts: ms * 1000 + 5e6,
    dur: 50,
    args: { data: { type: "keydown" } },
  });
  const frame = (commitEndMs: number, submitMs: number, endMs: number) => [
    {
      ...MAIN,
      ph: "X",
      name: "ProxyMain::BeginMainFrame::commit",
      ts: commitEndMs * 1000 + 5e6 - 200,
      dur: 200,
    },
    {
      ...COMPOSITOR,
      ph: "e",
      name: "EndActivateToSubmitCompositorFrame",
      ts: submitMs * 1000 + 5e6,
    },
    {
      ...COMPOSITOR,
      ph: "e",
      name: "PipelineReporter",
      ts: endMs * 1000 + 5e6,
    },
  ];
  return JSON.stringify({
    traceEvents: [
      ...meta,
      // A keyup, on another thread, and a frame before any echo: ignored.
      {
        ...MAIN,
        ph: "X",
        name: "EventDispatch",
        ts: 5e6 + 1,
        args: { data: { type: "keyup" } },
      },
      ...frame(99, 100, 101),
      key(100),
      ...frame(103, 104, 105), // key 0's echo is in the DOM at 102.5
      key(200),
      ...frame(201, 202, 203), // committed before key 1's echo (203)
      ...frame(210, 211.5, 212),
    ],
  });
}

Deno.test("key frames: the first frame committed after each echo", () => {
  const r = keyFramesFromTrace(trace(), [100, 200], [2.5, 3]);
  assertEquals(r.submitted, [4, 11.5]);
  assertEquals(r.presented, [5, 12]);
});

Deno.test("key frames: NaN when no frame follows, empty without keys", () => {
  const r = keyFramesFromTrace(trace(), [100, 200], [2.5, 50]);
  assertEquals(r.submitted[0], 4);
  assertEquals(r.submitted[1], NaN);
  assertEquals(keyFramesFromTrace("[]", [], []), {
    submitted: [],
    presented: [],
  });
});
