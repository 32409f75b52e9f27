/**
 * Start-up (issue 31 §7): a command that only talks to the running server
 * (`domterm list`, `new`, `attach`, a second `domterm`, `--help`) must not
 * load the server. main.ts imports the server (server/cli/serve.ts), the
 * embedded client (static/gen/assets.ts), the emulator and the commands
 * with `import()` when they are needed: checked on the real module graph
 * that `deno info` reports (what `deno run` and `deno compile` load).
 */
import { assert, assertEquals } from "../../assert.ts";

const ROOT = new URL("../../../", import.meta.url);

interface InfoModule {
  specifier: string;
  dependencies?: {
    specifier: string;
    code?: { specifier: string };
    isDynamic?: boolean;
  }[];
}

/** `deno info --json` of a file of the checkout. */
async function graph(
  file: string,
): Promise<{ root: string; modules: Map<string, InfoModule> }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(file, ROOT).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  assertEquals(out.code, 0, dec.decode(out.stderr));
  const info = JSON.parse(dec.decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  return {
    root: info.roots[0],
    modules: new Map(info.modules.map((m) => [m.specifier, m])),
  };
}

/** The checkout's files `from` loads before any `import()` runs. */
function staticClosure(
  modules: Map<string, InfoModule>,
  from: string,
): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length) {
    const s = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of modules.get(s)?.dependencies ?? []) {
      if (!d.isDynamic && d.code) todo.push(d.code.specifier);
    }
  }
  const root = ROOT.href;
  return new Set(
    [...seen].filter((s) => s.startsWith(root)).map((s) =>
      s.slice(root.length)
    ),
  );
}

/** What only the server, the embedded client or a page's snapshot needs. */
const SERVER_ONLY = [
  "server/cli/serve.ts",
  "server/http.ts",
  "server/session.ts",
  "server/session_control.ts",
  "server/handover/give.ts",
  "server/handover/take.ts",
  "server/pty/pty.ts",
  "static/gen/assets.ts",
  "core/emulator/terminal.ts",
];

Deno.test("startup: main.ts loads no server module before it is the server", async () => {
  const { root, modules } = await graph("main.ts");
  const loaded = staticClosure(modules, root);
  assert(loaded.has("server/cli/dispatch.ts"), [...loaded].join("\n"));
  assert(loaded.has("server/control.ts"), "the control socket's client");
  for (const m of SERVER_ONLY) {
    assert(!loaded.has(m), `main.ts loads ${m} up front`);
  }
  // A handful of the server's ~210 modules (39 when this was written).
  assert(loaded.size < 80, `main.ts loads ${loaded.size} modules up front`);
  // ...and the rest is still in the graph, so `deno compile` and
  // `deno bundle` include it (a literal `import()`).
  for (const m of ["server/cli/serve.ts", "static/gen/assets.ts"]) {
    assert(
      modules.has(new URL(m, ROOT).href),
      `${m} is not in main.ts's graph: a compiled domterm would lack it`,
    );
  }
});

Deno.test("startup: the session commands (list, new, attach) load no server module", async () => {
  const file = "server/commands/sessions.ts";
  const { root, modules } = await graph(file);
  const loaded = staticClosure(modules, root);
  for (const m of SERVER_ONLY) {
    assert(!loaded.has(m), `${file} loads ${m} up front`);
  }
});
