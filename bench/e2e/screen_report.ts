/**
 * The table of `bench/e2e/screen_bench.ts`: each figure (medians of the
 * alternating runs), its PTY floor, the peers, the ratios, and issue 39's
 * target beside it, met or not.
 *
 * @module
 */
import type { Kind } from "./screens.ts";

/** Samples by figure, then by terminal. */
export type Results = Map<string, Map<Kind, number[]>>;

const PEERS: Kind[] = ["ttyd-dom", "ttyd-webgl"];

export function median(xs: number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

const worst = (xs: number[]) => percentile(xs, 1);

function num(x: number): string {
  if (!Number.isFinite(x)) return "–";
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** A cell: the median, "timed out" when a run did, "–" when not run. */
function cell(xs: number[] | undefined, extra?: (xs: number[]) => string) {
  if (!xs || xs.length === 0) return "–";
  const lost = xs.some((x) => Number.isNaN(x));
  const m = median(xs);
  let s = Number.isNaN(m) ? "" : num(m) + (extra ? ` ${extra(xs)}` : "");
  if (lost) s += s ? " (runs timed out)" : "timed out";
  return s;
}

interface Row {
  figure: string;
  cells: string[];
  vsFloor: string;
  vsPeer: string;
  target: string;
  met: string;
}

const yes = (b: boolean | null) => b === null ? "–" : b ? "met" : "NOT met";

/** The ratio columns and verdict of one figure. */
function judge(
  figure: string,
  m: Map<Kind, number[]>,
  idle: number,
): Omit<Row, "figure" | "cells"> {
  const d = m.get("domterm") ?? [];
  const dm = median(d);
  const floor = median(m.get("floor") ?? []);
  const peers = PEERS.map((k) => median(m.get(k) ?? []));
  const r = (x: number) => Number.isFinite(x) ? x.toFixed(2) : "–";
  if (figure.includes("MB on screen")) {
    const f = dm / floor;
    const p = peers.map((x) => dm / x);
    // A peer that lost its session is beaten.
    const pOk = peers.every((x, i) =>
      Number.isNaN(x) ? (m.get(PEERS[i])?.length ?? 0) > 0 : p[i] >= 3
    );
    return {
      vsFloor: r(f),
      vsPeer: p.map(r).join(" / "),
      target: ">= 0.4 of floor, >= 3x ttyd",
      met: yes(Number.isFinite(f) ? f >= 0.4 && pOk : null),
    };
  }
  if (figure.startsWith("`yes")) {
    const f = dm / floor;
    return {
      vsFloor: r(f),
      vsPeer: peers.map((x) => r(dm / x)).join(" / "),
      target: "<= 1.15x floor",
      met: yes(Number.isFinite(f) ? f <= 1.15 : null),
    };
  }
  if (figure.startsWith("keydown")) {
    const best = Math.min(...peers.filter(Number.isFinite));
    const p99 = percentile(d, 0.99);
    return {
      vsFloor: "–",
      vsPeer: peers.map((x) => r(dm / x)).join(" / "),
      target: "median <= best peer, p99 <= 25 ms",
      met: yes(
        Number.isFinite(dm) ? (!(dm > best)) && p99 <= 25 : null,
      ),
    };
  }
  if (figure.includes("Ctrl+C")) {
    const slow = figure.startsWith("slow");
    return {
      vsFloor: r(dm / floor),
      vsPeer: peers.map((x) => r(dm / x)).join(" / "),
      target: slow ? "<= 1000 ms" : "median <= 50 ms, worst <= 150 ms",
      met: yes(
        Number.isFinite(dm)
          ? slow ? dm <= 1000 : dm <= 50 && worst(d) <= 150
          : null,
      ),
    };
  }
  const base = {
    vsFloor: r(dm / floor),
    vsPeer: peers.map((x) => r(dm / x)).join(" / "),
  };
  if (figure.startsWith("server RSS idle")) {
    return { ...base, target: "<= 60 MB", met: yes(dm <= 60) };
  }
  if (figure.startsWith("server RSS after")) {
    return {
      ...base,
      target: `<= idle + 40 MB (the issue: after 200 MB)`,
      met: yes(Number.isFinite(dm) ? dm <= idle + 40 : null),
    };
  }
  if (figure.includes("last screen")) {
    return { ...base, target: "<= 1.5 s", met: yes(dm <= 1.5) };
  }
  if (figure.includes("program's own time")) {
    return {
      ...base,
      target: "not slowed by the link (<= 1.5x floor)",
      met: yes(Number.isFinite(floor) ? dm <= 1.5 * floor : null),
    };
  }
  if (figure.includes("wire down")) {
    return {
      ...base,
      target: "bounded by screens (< 500 KB for 2 MB)",
      met: yes(dm < 500),
    };
  }
  return { ...base, target: "", met: "" };
}

/** {@link judge}, with no verdict where domterm has no figure. */
function judged(figure: string, m: Map<Kind, number[]>, idle: number) {
  const j = judge(figure, m, idle);
  return Number.isFinite(median(m.get("domterm") ?? []))
    ? j
    : { ...j, met: "–" };
}

/** The markdown table. */
export function report(results: Results, sizes: number[]): string {
  const kinds: Kind[] = ["floor", "domterm", ...PEERS];
  const order = (f: string) =>
    f.startsWith("slow") ? 3 : f.startsWith("server") ? 2 : 1;
  const figures = [...results.keys()].sort((a, b) => order(a) - order(b));
  const idle = median(
    results.get("server RSS idle, MB")?.get("domterm") ?? [],
  );
  const rows: Row[] = figures.map((figure) => {
    const m = results.get(figure)!;
    const extra = figure.startsWith("keydown")
      ? (xs: number[]) => `/ p99 ${num(percentile(xs, 0.99))}`
      : figure.includes("Ctrl+C")
      ? (xs: number[]) => `(worst ${num(worst(xs))})`
      : undefined;
    return {
      figure,
      cells: kinds.map((k) => cell(m.get(k), extra)),
      ...judged(figure, m, idle),
    };
  });
  const head = [
    "figure (median)",
    ...kinds,
    "domterm / floor",
    "domterm / ttyd-dom / ttyd-webgl",
    "target (issue 39)",
    "",
  ];
  const lines = [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) =>
      `| ${
        [
          r.figure.replaceAll("|", "\\|"),
          ...r.cells,
          r.vsFloor,
          r.vsPeer,
          r.target,
          r.met,
        ].join(" | ")
      } |`
    ),
  ];
  lines.push(
    "",
    `Sizes: ${sizes.join(", ")} MB. MB/s: the program's output per second, its`,
    "start (wall clock) to its marker line on screen; ratios of MB/s are",
    "domterm's over the other's (higher is better), of times and RSS",
    "domterm's over the other's (lower is better).",
  );
  return lines.join("\n");
}
