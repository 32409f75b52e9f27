/**
 * Measure domterm against esctest2 (George Nachman's esctest as extended by
 * Thomas Dickey): every test in a fresh terminal, scored strictly.
 *
 * ```
 * deno run -A scripts/esctest.ts --esctest /path/to/esctest2
 *     [--target core|window] [--only REGEX] [--jobs N] [--timeout S]
 * ```
 *
 * esctest2 is not part of this repository: get it from
 * https://github.com/ThomasDickey/esctest2 (its `esctest/esctest.py` runs
 * under python3). Each test runs as
 * `esctest.py --include '^NAME$' --expected-terminal xterm
 * --xterm-checksum 379 --xterm-reverse-wrap 383 --max-vt-level 5
 * --options xtermWinopsEnabled` (xterm 379's checksum, reverse wraparound
 * as xterm 383 and later, a VT520, window operations allowed), in a
 * terminal of its own, 80x25.
 *
 * Strict: esctest's known-bug and option annotations (for xterm) are not
 * excuses: they are made plain (a small bootstrap replaces the decorators
 * before the tests are loaded), so every test runs, a known xterm bug
 * included, and its own assertions decide. So the score is what the
 * terminal does.
 *
 * - `--target core` (the default): esctest runs on a PTY whose output feeds
 *   a core `Terminal` (80x25), whose replies go back to the PTY: the core
 *   answers every query itself; a size it takes (DECCOLM, `CSI 8 t`) is
 *   given to the PTY.
 * - `--target window`: one real domterm server (`main.ts --no-browser`)
 *   whose sessions each run one test, each shown in a fresh page of
 *   headless Chromium whose grid is 80x25; the test starts once the PTY
 *   has that size. The session's emulator answers, with what the page told
 *   it (pixel sizes, colours).
 *
 * Prints the score (passed/failed/total) and the failing tests; `--json
 * FILE` also writes every test's outcome.
 *
 * @module
 */
import { Pty } from "../server/pty/pty.ts";
import { Terminal } from "../core/emulator/terminal.ts";
import type { Browser } from "playwright-core";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { spawnServer } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";

/** How one test came out. */
export type Outcome = "pass" | "fail" | "skip";

interface Options {
  esctest: string;
  target: "core" | "window";
  only: RegExp | null;
  jobs: number;
  timeout: number;
  json: string | null;
}

function usage(message: string): never {
  console.error(`esctest: ${message}`);
  console.error(
    "usage: esctest.ts --esctest DIR [--target core|window] [--only REGEX]" +
      " [--jobs N] [--timeout S] [--json FILE]",
  );
  Deno.exit(2);
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    esctest: "",
    target: "core",
    only: null,
    jobs: 2,
    timeout: 1,
    json: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = argv[i + 1];
    if (a === "--esctest") o.esctest = argv[++i] ?? "";
    else if (a === "--target") {
      if (v !== "core" && v !== "window") usage("--target: core or window");
      o.target = v;
      i++;
    } else if (a === "--only") o.only = new RegExp(argv[++i] ?? "");
    else if (a === "--jobs") o.jobs = Math.max(1, Number(argv[++i]) || 1);
    else if (a === "--timeout") o.timeout = Number(argv[++i]) || 1;
    else if (a === "--json") o.json = argv[++i] ?? null;
    else usage(`unknown argument ${a}`);
  }
  if (!o.esctest) usage("--esctest DIR is required");
  return o;
}

/** The directory that holds esctest.py (DIR or DIR/esctest). */
function scriptDir(dir: string): string {
  for (const d of [`${dir}/esctest`, dir]) {
    try {
      Deno.statSync(`${d}/esctest.py`);
      return d;
    } catch { /* next */ }
  }
  usage(`no esctest.py in ${dir} or ${dir}/esctest`);
}

/**
 * The python3 that runs esctest: the interpreter itself, not a wrapper
 * that finds it (pyenv's shims start a few processes each time).
 */
async function pythonPath(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sys; print(sys.executable)"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim() || "python3";
}
let python = "python3";

/** Lists the tests ("Class.test_name"), as esctest.py finds them. */
async function listTests(dir: string): Promise<string[]> {
  const py = [
    "import inspect, esc, escargs, esccmd, escio, esclog, esctypes, escutil",
    "escargs.args = escargs.parser.parse_args([])",
    "import tests",
    "for c in tests.tests:",
    "  for n, _ in inspect.getmembers(c(), predicate=inspect.ismethod):",
    "    if n.startswith('test_'): print(c.__name__ + '.' + n)",
  ].join("\n");
  const out = await new Deno.Command("python3", {
    args: ["-c", py],
    cwd: dir,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("esctest: listing the tests failed");
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l);
}

/**
 * Runs esctest.py (argv[1]: its directory) with the known-bug and option
 * annotations made plain: every test runs, and its own assertions decide
 * (even a test esctest would not try on xterm).
 */
const STRICT_BOOT = [
  "import sys",
  "d = sys.argv[1]",
  "sys.argv = [d + '/esctest.py'] + sys.argv[2:]",
  "sys.path.insert(0, d)",
  "import esc, escargs, esccmd, escio, esclog, esctypes, escutil",
  "plain = lambda *a, **k: (lambda f: f)",
  "escutil.knownBug = escutil.optionRequired = escutil.optionRejects = plain",
  "src = open(sys.argv[0]).read()",
  "exec(compile(src, sys.argv[0], 'exec'), {'__name__': '__main__'})",
].join("\n");

/** The arguments of python3 that run test `name`, logging to `log`. */
function esctestArgs(
  dir: string,
  name: string,
  log: string,
  timeout: number,
): string[] {
  return [
    "-c",
    STRICT_BOOT,
    dir,
    `--include=^${name.replace(".", "\\.")}$`,
    "--expected-terminal=xterm",
    "--xterm-checksum=379",
    "--xterm-reverse-wrap=383",
    "--max-vt-level=5",
    `--timeout=${timeout}`,
    "--no-print-logs",
    `--logfile=${log}`,
    "--options",
    "xtermWinopsEnabled",
  ];
}

/**
 * The outcome in a test's log, strictly: a known xterm bug or a missing
 * option that made it fail is a failure; "Should have failed" (the test
 * passed where xterm does not) a pass.
 */
export function outcomeOf(log: string): Outcome {
  if (/^Passed\.$/m.test(log)) return "pass";
  if (/Skipped because terminal lacks/.test(log)) return "skip";
  if (/InternalError: Should have failed/.test(log)) return "pass";
  return "fail";
}

/** Run one test on a PTY whose output feeds a core Terminal. */
async function runCore(
  dir: string,
  name: string,
  log: string,
  timeout: number,
): Promise<void> {
  const pty = Pty.spawn({
    command: python,
    args: esctestArgs(dir, name, log, timeout),
    env: { ...Deno.env.toObject(), TERM: "xterm", LANG: "C.UTF-8" },
    cwd: dir,
    cols: 80,
    rows: 25,
  });
  let term: Terminal | null = null;
  term = new Terminal({
    cols: 80,
    rows: 25,
    reply: (data) => void pty.write(data).catch(() => {}),
    onEvent: (e) => {
      // The model took the size at once; the PTY follows, as a window would.
      if (e.type === "resize-request" && term) pty.resize(term.cols, term.rows);
    },
  });
  const reading = (async () => {
    for (;;) {
      const data = await pty.read();
      if (data === null) return;
      term.write(data);
    }
  })();
  const timer = setTimeout(() => pty.kill("SIGHUP"), 120_000);
  await reading.catch(() => {});
  clearTimeout(timer);
  await pty.close();
}

/**
 * The program each window session runs: it takes the test its server was
 * given (the file `next` in the queue directory), waits until the window
 * made its PTY 80x25 (at most 10 s), then runs the command in the file.
 */
const WINDOW_RUNNER = `
q="$1"
while [ ! -e "$q/next" ]; do sleep 0.05; done
mv "$q/next" "$q/running"
i=0
while [ "$(stty size)" != "25 80" ] && [ $i -lt 200 ]; do
  sleep 0.05; i=$((i + 1))
done
eval "exec $(cat "$q/running")"
`;

/** One domterm server and its queue (one test at a time). */
interface WindowServer {
  url: string;
  queue: string;
  child: Deno.ChildProcess;
}

const DEBUG = !!Deno.env.get("ESCTEST_DEBUG");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Open a page on `server` whose session sleeps (the server ends with its
 * last session), and measure on it the viewport whose grid is 80x25.
 */
async function keeperPage(
  browser: Browser,
  server: WindowServer,
): Promise<{ width: number; height: number }> {
  await Deno.writeTextFile(`${server.queue}/next`, "sleep 100000");
  const context = await browser.newContext();
  const page = await context.newPage();
  let size = { width: 800, height: 500 };
  {
    await page.setViewportSize(size);
    await page.goto(server.url);
    await page.waitForFunction(() =>
      "domtermInspect" in globalThis &&
      (globalThis as unknown as Inspected).domtermInspect.connected
    );
    for (let i = 0; i < 5; i++) {
      const { fit, cell } = await page.evaluate(() => {
        const d = (globalThis as unknown as Inspected).domtermInspect;
        return { fit: d.fit(), cell: d.cell() };
      });
      if (fit.cols === 80 && fit.rows === 25) return size;
      size = {
        width: Math.ceil(size.width + (80 - fit.cols) * cell.width),
        height: Math.ceil(size.height + (25 - fit.rows) * cell.height),
      };
      await page.setViewportSize(size);
      await sleep(200);
    }
    throw new Error("esctest: no viewport gives an 80x25 grid");
  }
}

/** Run one test in a fresh page (and session) of `server`. */
async function runWindowTest(
  browser: Browser,
  server: WindowServer,
  viewport: { width: number; height: number },
  command: string[],
  log: string,
): Promise<void> {
  const quoted = command.map((a) => `'${a.replaceAll("'", `'\\''`)}'`);
  await Deno.writeTextFile(`${server.queue}/next`, quoted.join(" "));
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(server.url);
    if (DEBUG) console.error(`goto ${Date.now() - t0} ms`);
    // Until the test's log says it ended (esctest's last line), at most 2 min.
    const end = Date.now() + 120_000;
    let seen = false;
    while (Date.now() < end) {
      await sleep(200);
      try {
        const text = await Deno.readTextFile(log);
        if (DEBUG && !seen) console.error(`log ${Date.now() - t0} ms`);
        seen = true;
        if (/^\*\*\* .* \*\*\*$/m.test(text)) break;
      } catch { /* not yet */ }
    }
    if (DEBUG) console.error(`end ${Date.now() - t0} ms`);
  } finally {
    await context.close();
  }
}

/**
 * `--target window`: `jobs` domterm servers, each running one test at a
 * time in a fresh session shown in a fresh page at 80x25.
 */
async function runWindowTarget(
  dir: string,
  names: string[],
  o: Options,
  logDir: string,
  onResult: (results: Map<string, Outcome>) => void,
): Promise<Map<string, Outcome>> {
  const runner = `${logDir}/runner.sh`;
  await Deno.writeTextFile(runner, WINDOW_RUNNER);
  const browser = await launchChromium();
  const servers: WindowServer[] = [];
  try {
    for (let k = 0; k < o.jobs; k++) {
      const queue = `${logDir}/queue${k}`;
      await Deno.mkdir(queue);
      const { child, url } = await spawnServer(
        ["--", "sh", runner, queue],
        { TERM: "xterm", LANG: "C.UTF-8" },
      );
      servers.push({ url, queue, child });
    }
    let viewport = { width: 0, height: 0 };
    for (const s of servers) viewport = await keeperPage(browser, s);
    console.error(`viewport ${viewport.width}x${viewport.height}`);
    const free = [...servers];
    return await runAll(names, o.jobs, logDir, async (name, log) => {
      const server = free.pop()!;
      try {
        await runWindowTest(
          browser,
          server,
          viewport,
          [python, ...esctestArgs(dir, name, log, o.timeout)],
          log,
        );
      } finally {
        free.push(server);
      }
    }, onResult);
  } finally {
    await browser.close();
    for (const s of servers) {
      try {
        s.child.kill("SIGTERM");
      } catch { /* gone */ }
      await s.child.status;
    }
  }
}

/** Run `names` with at most `jobs` at a time; `run` leaves each test's log at its path. */
async function runAll(
  names: string[],
  jobs: number,
  logDir: string,
  run: (name: string, log: string) => Promise<void>,
  onResult?: (results: Map<string, Outcome>) => void,
): Promise<Map<string, Outcome>> {
  const results = new Map<string, Outcome>();
  let next = 0, done = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      const log = `${logDir}/${name}.log`;
      await run(name, log);
      let text = "";
      try {
        text = await Deno.readTextFile(log);
      } catch { /* no log: failed to start */ }
      const outcome = outcomeOf(text);
      results.set(name, outcome);
      onResult?.(results);
      done++;
      if (outcome === "fail") console.error(`FAIL ${name}`);
      if (done % 50 === 0) console.error(`${done}/${names.length}`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return results;
}

async function main(): Promise<void> {
  const o = parseArgs(Deno.args);
  const dir = scriptDir(o.esctest);
  python = await pythonPath();
  const save = (results: Map<string, Outcome>) => {
    if (o.json) {
      Deno.writeTextFileSync(
        o.json,
        JSON.stringify(Object.fromEntries(results), null, 1) + "\n",
      );
    }
  };
  const names = (await listTests(dir)).filter((n) => !o.only || o.only.test(n));
  const logDir = await Deno.makeTempDir({ prefix: "esctest-logs-" });
  const started = Date.now();
  let results: Map<string, Outcome>;
  if (o.target === "core") {
    results = await runAll(
      names,
      o.jobs,
      logDir,
      (name, log) => runCore(dir, name, log, o.timeout),
      save,
    );
  } else {
    results = await runWindowTarget(dir, names, o, logDir, save);
  }
  const failed = names.filter((n) => results.get(n) === "fail");
  const passed = names.filter((n) => results.get(n) === "pass").length;
  const skipped = names.length - failed.length - passed;
  console.log(`failing:\n${failed.map((n) => `  ${n}`).join("\n")}`);
  console.log(
    `esctest2 (${o.target}): ${passed} passed, ${failed.length} failed, ` +
      `${skipped} skipped, ${names.length} total ` +
      `(${(100 * passed / Math.max(1, names.length)).toFixed(1)}%) in ` +
      `${Math.round((Date.now() - started) / 1000)} s; logs in ${logDir}`,
  );
  save(results);
}

if (import.meta.main) await main();
