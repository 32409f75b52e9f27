/**
 * The typist of bench/many_sessions_bench.ts, in a worker (its own event
 * loop, so that the flooding windows in the bench's main thread do not
 * delay what it measures): a window on a new session of the server at the
 * URL it is sent types one key every 100 ms and times each key's echo,
 * until it is sent "stop"; then it posts the latencies (ms), and each key's
 * send and echo times on the clock the server's echo trace reads
 * (`performance.timeOrigin + performance.now()`, server/echo_trace.ts), and
 * ends.
 *
 * @module
 */

const encoder = new TextEncoder();

/** The worker's global scope (not declared through `lib="deno.worker"`: that would change the globals of everything type-checked with this file). */
const worker = globalThis as unknown as {
  onmessage: ((ev: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
};

worker.onmessage = async (ev: MessageEvent<{ url: string }>) => {
  const u = new URL(ev.data.url);
  const key = new URLSearchParams(u.hash.slice(1)).get("key")!;
  const ws = new WebSocket(`ws://${u.host}/ws`);
  ws.binaryType = "arraybuffer";
  const decoder = new TextDecoder();
  let onText: ((text: string) => void) | null = null;
  const ready = Promise.withResolvers<void>();
  ws.onopen = () =>
    ws.send(JSON.stringify({ type: "hello", key, cols: 80, rows: 24 }));
  ws.onmessage = (m) => {
    if (typeof m.data === "string") {
      if (JSON.parse(m.data).type === "ready") ready.resolve();
      return;
    }
    const b = new Uint8Array(m.data as ArrayBuffer);
    ws.send(JSON.stringify({ type: "ack", bytes: b.length }));
    onText?.(decoder.decode(b, { stream: true }));
  };
  await ready.promise;
  // The shell's prompt first.
  await new Promise((r) => setTimeout(r, 500));
  let running = true;
  worker.onmessage = () => running = false;
  worker.postMessage({ started: true });
  const latencies: number[] = [];
  const times: [number, number][] = [];
  for (let i = 0; running; i++) {
    const k = String.fromCharCode(0x61 + i % 26);
    const echoed = Promise.withResolvers<void>();
    onText = (text) => {
      if (text.includes(k)) echoed.resolve();
    };
    const timer = setTimeout(() => echoed.resolve(), 20_000);
    const t0 = performance.now();
    ws.send(encoder.encode(k));
    await echoed.promise;
    const t1 = performance.now();
    latencies.push(t1 - t0);
    times.push([performance.timeOrigin + t0, performance.timeOrigin + t1]);
    clearTimeout(timer);
    onText = null;
    await new Promise((r) => setTimeout(r, 100));
  }
  ws.send(encoder.encode("\x15"));
  ws.close();
  worker.postMessage({ latencies, times });
  worker.close();
};
