/**
 * Key to the frame that shows its echo, read from a Chromium trace of the
 * key phase (`bench:e2e --trace-keys`).
 *
 * The page alone cannot see when a frame reaches the screen. Its
 * `requestAnimationFrame` timestamp is the frame's nominal begin time:
 * when the compositor had been idle, Chromium hands out a frame that began
 * at the last vsync, which may be before the key was even pressed. The
 * trace knows more: the renderer's commit of the frame that holds the
 * change, the compositor's submission of that frame to the display
 * compositor (`EndActivateToSubmitCompositorFrame` ends), and the end of
 * the frame's whole pipeline (`PipelineReporter` ends).
 *
 * @module
 */

/** One event of Chrome's JSON trace format (the fields used here). */
interface TraceEvent {
  name?: string;
  ph?: string;
  ts?: number;
  dur?: number;
  pid?: number;
  tid?: number;
  args?: {
    name?: string;
    data?: { type?: string };
  };
}

/** Per key, in ms after its keydown event (NaN where no frame followed). */
export interface KeyFrames {
  /** The frame that holds the echo was submitted to the display compositor. */
  submitted: number[];
  /** That frame's pipeline ended (presentation, as far as the trace sees it). */
  presented: number[];
}

/** The first value of sorted `xs` at or after `t`, or NaN. */
function firstAfter(xs: number[], t: number): number {
  if (Number.isNaN(t)) return NaN;
  let lo = 0, hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length ? xs[lo] : NaN;
}

/**
 * Times from each key to the frame that shows its echo.
 *
 * `t0[i]` is key `i`'s keydown and `lat[i]` the time from it to the echo's
 * rows in the DOM, both as the page measured them (`performance.now()`,
 * ms). The page's clock is placed on the trace's by the keydown events the
 * trace recorded (the median difference); the frame that shows an echo is
 * the first whose commit ends after the DOM change.
 */
export function keyFramesFromTrace(
  trace: string,
  t0: number[],
  lat: number[],
): KeyFrames {
  const parsed = JSON.parse(trace) as
    | TraceEvent[]
    | { traceEvents: TraceEvent[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const threads = new Map<string, string>();
  for (const e of events) {
    if (e.ph === "M" && e.name === "thread_name" && e.args?.name) {
      threads.set(`${e.pid}/${e.tid}`, e.args.name);
    }
  }
  const onMain = (e: TraceEvent) =>
    threads.get(`${e.pid}/${e.tid}`) === "CrRendererMain";
  const keys: number[] = [], commits: number[] = [];
  const submits: number[] = [], ends: number[] = [];
  for (const e of events) {
    if (e.ts === undefined) continue;
    if (
      e.name === "EventDispatch" && e.args?.data?.type === "keydown" &&
      onMain(e)
    ) keys.push(e.ts);
    else if (
      e.name === "ProxyMain::BeginMainFrame::commit" && e.ph === "X" &&
      onMain(e)
    ) commits.push(e.ts + (e.dur ?? 0));
    else if (e.name === "EndActivateToSubmitCompositorFrame" && e.ph === "e") {
      submits.push(e.ts);
    } else if (e.name === "PipelineReporter" && e.ph === "e") ends.push(e.ts);
  }
  for (const xs of [keys, commits, submits, ends]) xs.sort((a, b) => a - b);
  const n = Math.min(keys.length, t0.length, lat.length);
  if (n === 0) return { submitted: [], presented: [] };
  // Trace time (us) = page time (ms) * 1000 + offset.
  const offsets = Array.from({ length: n }, (_, i) => keys[i] - t0[i] * 1000)
    .sort((a, b) => a - b);
  const offset = offsets[n >> 1];
  const submitted: number[] = [], presented: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = t0[i] * 1000 + offset;
    const commit = firstAfter(commits, key + lat[i] * 1000);
    submitted.push((firstAfter(submits, commit) - key) / 1000);
    presented.push((firstAfter(ends, commit) - key) / 1000);
  }
  return { submitted, presented };
}
