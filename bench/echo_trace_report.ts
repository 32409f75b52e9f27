/**
 * Where a typed key's echo waited: the server's echo trace
 * (server/echo_trace.ts, `DOMTERM_ECHO_TRACE=FILE`) matched with the
 * typist's send and receive times (bench/many_sessions_typist.ts), all on
 * one clock, as the median, p90 and max of each step (ms).
 *
 * @module
 */
import type { EchoRecord } from "../server/echo_trace.ts";

/** The steps, from the client's send to its receive. */
const STEPS: [string, (r: EchoRecord, sent: number, got: number) => number][] =
  [
    ["client send -> server message", (r, s) => r.message - s],
    ["message -> PTY write", (r) => r.write! - r.message],
    ["write -> reader woken", (r) => (r.ready ?? r.read!) - r.write!],
    ["woken -> read", (r) => r.read! - (r.ready ?? r.read!)],
    ["read -> read loop", (r) => r.loop! - r.read!],
    ["read loop -> socket send", (r) => r.send! - r.loop!],
    ["socket send -> client receive", (r, _s, g) => g - r.send!],
    ["longest main-thread gap meanwhile", (r) => r.maxGap],
  ];

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/**
 * The steps' figures, one line each, for the keys of `times` ([sent,
 * received] ms on the trace's clock), or without `times` the server's steps
 * of every key (inputs of at most 4 bytes) the trace holds.
 */
export function echoStages(file: string, times?: [number, number][]): string {
  let text = "";
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return "  echo trace: no records";
  }
  const records = text.trim().split("\n").filter((l) => l).map((l) =>
    JSON.parse(l) as EchoRecord
  );
  const matched: [EchoRecord, number, number][] = [];
  if (!times) {
    for (const r of records) {
      if (r.bytes <= 4 && r.loop !== undefined) matched.push([r, NaN, NaN]);
    }
  }
  for (const [sent, got] of times ?? []) {
    const r = records.find((r) =>
      r.message >= sent - 1 && r.message <= got && r.send !== undefined &&
      r.loop !== undefined
    );
    if (r) matched.push([r, sent, got]);
  }
  const lines = [
    times
      ? `  echo trace: ${matched.length} of ${times.length} keys matched (ms: median / p90 / max)`
      : `  echo trace: the server's steps of ${matched.length} keys (ms: median / p90 / max)`,
  ];
  for (const [name, f] of STEPS) {
    const clientStep = name.startsWith("client") || name.endsWith("receive");
    if (!times && clientStep) continue;
    const xs = matched.map(([r, s, g]) => f(r, s, g)).sort((a, b) => a - b);
    if (xs.length === 0) continue;
    lines.push(
      `    ${name.padEnd(36)} ${pct(xs, 0.5).toFixed(1)} / ${
        pct(xs, 0.9).toFixed(1)
      } / ${xs.at(-1)!.toFixed(1)}`,
    );
  }
  return lines.join("\n");
}
