/**
 * Code-shape checks: the longest functions per layer, the largest files and
 * the import cycles of `core/`, `server/` and `client/`.
 *
 * Usage:
 *   deno run -A scripts/code_metrics.ts            # report (top 10 per layer)
 *   deno run -A scripts/code_metrics.ts --check    # fail on an import cycle or
 *                                                  # a function over the limit
 *   deno run -A scripts/code_metrics.ts --check --layers core
 *                                   # only these layers (comma-separated)
 *
 * A function longer than {@link MAX_FUNCTION_LINES} is allowed only when the
 * line just above it (its JSDoc or a comment) says `hot path:` and why.
 *
 * @module
 */
import ts from "typescript";
import { parseArgs } from "node:util";

/** The longest a function may be, in lines, unless it is a measured hot path. */
export const MAX_FUNCTION_LINES = 150;
const LAYERS = ["core", "server", "client"];

/** One function and how long it is. */
export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
  /** Its leading comment says `hot path:`. */
  hotPath: boolean;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}

/** Every `.ts` file of a layer, sorted. */
export async function layerFiles(
  root: string,
  layer: string,
): Promise<string[]> {
  const files: string[] = [];
  for await (const f of walk(`${root}/${layer}`)) files.push(f);
  return files.sort();
}

function functionName(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(sf);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText(sf);
  }
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return "<anonymous>";
}

/** The functions of one source text, with their lengths in lines. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
      ts.isFunctionExpression(node) || ts.isArrowFunction(node) ||
      ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) ||
      ts.isSetAccessor(node)
    ) {
      const body = (node as ts.FunctionLikeDeclarationBase).body;
      if (body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        const comments =
          ts.getLeadingCommentRanges(text, node.getFullStart()) ??
            [];
        let commentText = comments.map((c) => text.slice(c.pos, c.end)).join(
          "\n",
        );
        // A variable's initializer: its comment sits on the statement.
        let holder: ts.Node = node.parent;
        for (let i = 0; i < 3 && holder && !commentText; i++) {
          const cs = ts.getLeadingCommentRanges(text, holder.getFullStart()) ??
            [];
          commentText = cs.map((c) => text.slice(c.pos, c.end)).join("\n");
          holder = holder.parent;
        }
        out.push({
          file,
          name: functionName(node, sf),
          line: start + 1,
          lines: end - start + 1,
          hotPath: /hot path:/i.test(commentText),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["'](\.[^"']+)["']/g;

/** Relative imports of a file (type-only imports flagged). */
export function relativeImports(
  text: string,
): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    out.push({ spec: m[2], typeOnly: Boolean(m[1]) });
  }
  return out;
}

function resolve(from: string, spec: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const p of spec.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  return parts.join("/");
}

/**
 * The strongly connected components of more than one file (or a file that
 * imports itself) in a graph of files -> imported files.
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) {
        out.push(comp.sort());
      }
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      check: { type: "boolean", default: false },
      top: { type: "string", default: "10" },
      "values-only": { type: "boolean", default: false },
      layers: { type: "string", default: LAYERS.join(",") },
    },
  });
  const layers = values.layers.split(",").map((l) => l.trim()).filter((l) =>
    l !== ""
  );
  for (const l of layers) {
    if (!LAYERS.includes(l)) {
      console.error(`code_metrics: unknown layer ${l} (${LAYERS.join(", ")})`);
      Deno.exit(2);
    }
  }
  const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const top = Number(values.top);
  const tooLong: FunctionLength[] = [];
  const graph = new Map<string, string[]>();
  const sizes: { file: string; lines: number }[] = [];
  for (const layer of layers) {
    const all: FunctionLength[] = [];
    for (const path of await layerFiles(root, layer)) {
      const rel = path.slice(root.length + 1);
      if (rel.startsWith("static/gen")) continue;
      const text = await Deno.readTextFile(path);
      sizes.push({ file: rel, lines: text.split("\n").length });
      const fns = functionLengths(rel, text);
      all.push(...fns);
      for (const f of fns) {
        if (f.lines > MAX_FUNCTION_LINES && !f.hotPath) tooLong.push(f);
      }
      const deps = relativeImports(text)
        .filter((i) => !values["values-only"] || !i.typeOnly)
        .map((i) => resolve(rel, i.spec))
        .filter((d) => d.endsWith(".ts"));
      graph.set(rel, deps);
    }
    all.sort((a, b) => b.lines - a.lines);
    console.log(`\n## ${layer}/: the ${top} longest functions`);
    for (const f of all.slice(0, top)) {
      console.log(
        `${String(f.lines).padStart(5)}  ${f.file}:${f.line} ${f.name}${
          f.hotPath ? " (hot path)" : ""
        }`,
      );
    }
  }
  sizes.sort((a, b) => b.lines - a.lines);
  console.log(`\n## the ${top} largest files`);
  for (const s of sizes.slice(0, top)) {
    console.log(`${String(s.lines).padStart(5)}  ${s.file}`);
  }
  const cycles = importCycles(graph);
  console.log(
    `\n## import cycles (${
      values["values-only"] ? "value imports" : "all imports, types too"
    }): ${cycles.length}`,
  );
  for (const c of cycles) console.log(`  ${c.length} files: ${c.join(", ")}`);
  if (values.check) {
    const problems: string[] = [];
    for (const f of tooLong) {
      problems.push(
        `${f.file}:${f.line} ${f.name} is ${f.lines} lines (limit ${MAX_FUNCTION_LINES}; a measured hot path says "hot path:" in its comment)`,
      );
    }
    for (const c of cycles) problems.push(`import cycle: ${c.join(" -> ")}`);
    if (problems.length) {
      console.error(`\ncode_metrics --check: ${problems.length} problem(s)`);
      for (const p of problems) console.error(`  ${p}`);
      Deno.exit(1);
    }
    console.log("\ncode_metrics --check: ok");
  }
}

if (import.meta.main) await main();
