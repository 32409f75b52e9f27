/**
 * Where the page's main thread spent a run: a V8 CPU profile of the page
 * sorted into the stages of the output path (parse, emulator, scrolling
 * into history, the renderer's frame, the connection, acks, browser work,
 * garbage collection, idle). Functions are placed by the source module
 * they come from, read from the `// path.ts` comments that `deno bundle`
 * writes into an unminified bundle (build without `--minify` to use it;
 * with a minified bundle everything in the bundle is "page script").
 *
 * @module
 */
import type { CpuProfile } from "./cdp.ts";

/** The stages, in report order. */
export const STAGES = [
  "parse (core/parser)",
  "emulator (core/emulator, print, modes)",
  "scrolling into history (buffer scroll, line store)",
  "other model (core/model, lines)",
  "renderer frame, JS (client/renderer, row painter)",
  "renderer frame, DOM calls (innerHTML, insertAdjacentHTML...)",
  "connection: queue, slices (client/connection)",
  "WebSocket send (acks)",
  "other page script",
  "browser: style, layout, paint, events ((program))",
  "garbage collector",
  "idle (waiting for output)",
] as const;

/** Functions of core/model that are the scroll into history. */
const SCROLL_FNS = new Set([
  "scrollUp",
  "#dropTop",
  "take",
  "recycle",
  "#append",
  "#ensureCapacity",
  "reset",
  "#trimToLimit",
]);

/** Module of each line of an unminified bundle (0-based line numbers). */
export function bundleModules(bundle: string): (line: number) => string {
  const starts: [number, string][] = [];
  const lines = bundle.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^\/\/ ((?:core|client|static|node_modules|npm)[^ ]*\.[jt]s)$/
      .exec(lines[i]);
    if (m) starts.push([i, m[1]]);
  }
  return (line) => {
    let lo = 0, hi = starts.length - 1, found = "";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

function stageOf(
  fn: string,
  url: string,
  line: number,
  moduleOf: (line: number) => string,
): (typeof STAGES)[number] {
  if (fn === "(idle)") return STAGES[11];
  if (fn === "(garbage collector)") return STAGES[10];
  if (fn === "(program)" || fn === "(root)") return STAGES[9];
  if (url === "") {
    // Native functions called from script.
    if (fn === "send") return STAGES[7];
    return STAGES[5];
  }
  const mod = moduleOf(line);
  if (mod.startsWith("core/parser/")) return STAGES[0];
  if (mod.startsWith("core/model/buffer.ts") && SCROLL_FNS.has(fn)) {
    return STAGES[2];
  }
  if (mod === "core/model/line.ts" && fn === "reset") return STAGES[2];
  if (mod === "core/emulator/scroll_region.ts" && fn === "scrollUp") {
    return STAGES[2];
  }
  if (mod.startsWith("core/model/")) return STAGES[3];
  if (mod === "core/style_runs.ts") return STAGES[4];
  if (mod.startsWith("core/")) return STAGES[1];
  if (
    mod === "client/renderer.ts" || mod === "client/row_painter.ts" ||
    mod === "client/embeds.ts"
  ) return STAGES[4];
  if (mod === "client/connection.ts") return STAGES[6];
  return STAGES[8];
}

/** Milliseconds of self time per stage in `p`. */
export function breakdown(
  p: CpuProfile,
  bundle: string,
): Map<string, number> {
  const moduleOf = bundleModules(bundle);
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i];
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const out = new Map<string, number>(STAGES.map((s) => [s, 0]));
  for (const node of p.nodes) {
    const us = self.get(node.id) ?? 0;
    if (us === 0) continue;
    const f = node.callFrame;
    const stage = stageOf(f.functionName, f.url, f.lineNumber, moduleOf);
    out.set(stage, out.get(stage)! + us / 1000);
  }
  return out;
}
