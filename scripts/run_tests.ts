/**
 * Runs the whole test suite (the last step of `deno task test`): one type
 * check of tests/ beside (not before) every test file but the
 * timing-sensitive ones with `deno test --parallel`, the slowest files and
 * the slow folders first (most test time is
 * waiting: for a server to start, a page to load, a shell to answer, time
 * another file can use), then the timing-sensitive files one after
 * another, alone on the machine. Both runs always happen. The files of
 * tests that failed in the parallel run then run again alone (at most
 * `MAX_RERUN_FILES`): their verdict there counts, and the tests that failed
 * only beside another file are listed as flaky. It ends with one closing
 * line in `deno test`'s own form that adds the runs up, and fails if any
 * failed; the failed and flaky tests come last, each with its error.
 *
 * Usage: deno run -A scripts/run_tests.ts [FILE_OR_DIR...]
 *
 * With arguments it runs just `deno test -A ARGS` (no split). `DENO_JOBS`
 * sets how many files run at once in the parallel run (default below).
 *
 * @module
 */

const ROOT = new URL("..", import.meta.url).pathname;

/**
 * How many files the parallel run runs at once, unless DENO_JOBS says: the
 * cores of the 2-core machines the suite is made for. (A run with 3 at once
 * under heavy load from other work failed 10 timing-dependent tests; the
 * files of the clearly timing-bound ones were added to SERIAL_FILES.)
 */
export const DEFAULT_JOBS = 2;

/**
 * Files that run alone, after the parallel run: they assert how long
 * something takes (or how often something happens in a time), or they
 * change this process's environment, which the files running beside them
 * in the same process would see.
 */
export const SERIAL_FILES: string[] = [
  // Ctrl-C stops a flood within 300 ms.
  "tests/e2e/flood_test.ts",
  // Frames during a flood are spaced by their cost, cheap ones 20 a second
  // (the renderer's other tests, renderer_test.ts, run in the parallel run).
  "tests/e2e/renderer_frames_test.ts",
  // The page answers within 200 ms during a large paste; the prompt within 1 s.
  "tests/e2e/paste_test.ts",
  // With predictions a key shows within 60 ms (median).
  "tests/e2e/predict_test.ts",
  // The emulator thread is released by idle within 300 ms.
  "tests/server/emulator_host_test.ts",
  // An echo with many sessions open comes within 2 s.
  "tests/server/many_sessions_test.ts",
  // is-domterm on a silent terminal gives up within 3 s (the other
  // subcommand tests, commands_test.ts, run in the parallel run).
  "tests/server/commands_timing_test.ts",
  // The emulator moves back to the main thread after 150 ms of quiet.
  "tests/server/session_emulator_test.ts",
  // At most 3 notifications within the rate limit's interval; a command
  // over 1 s notifies, a short one not (the window's other tests,
  // window_page_test.ts, run in the parallel run).
  "tests/e2e/window_ui_test.ts",
  // The bell's flash ends within 2 s (the page's other features,
  // ui_test.ts, run in the parallel run; the zoom test beside it waits for
  // the refitted grid itself).
  "tests/e2e/ui_timing_test.ts",
  // tmux has renamed the window after its shell by the time of the split.
  "tests/programs/tmux_test.ts",
  // Sets XDG_CONFIG_HOME for this process.
  "tests/server/browser_test.ts",
  // Sets DOMTERM_OPENER for this process.
  "tests/server/opener_test.ts",
];

/**
 * The parallel run starts the files of these folders first, in this order,
 * then the rest: the browser, program and server tests take longest, and a
 * long file started last would run on alone while the other jobs sit idle.
 */
export const FIRST_DIRS = [
  "tests/e2e/",
  "tests/programs/",
  "tests/server/",
  "tests/packaging/",
];

/**
 * The slowest files of the parallel run, slowest first (sum of their test
 * times in a full run, 2026-12): they start before the rest of their
 * folder, so that the two jobs end together instead of one running a
 * 2-minute file alone at the end. All in `FIRST_DIRS[0]`.
 */
export const SLOWEST_FILES = [
  "tests/e2e/sessions_test.ts",
  "tests/e2e/pager_test.ts",
  "tests/e2e/sanitize_test.ts",
  "tests/e2e/line_editor_test.ts",
  "tests/e2e/ssh_test.ts",
  "tests/e2e/mouse_test.ts",
  "tests/e2e/panes_test.ts",
  "tests/e2e/element_events_test.ts",
  "tests/e2e/handover_test.ts",
];

/** A test module by `deno test`'s rule for folders: `{*_,*.,}test.{js,mjs,ts,mts,jsx,tsx}`. */
const TEST_FILE = /^(.*[_.])?test\.(js|mjs|ts|mts|jsx|tsx)$/;

/** The test files under `dir` (relative to the repository), sorted. */
export function testFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(`${ROOT}${rel}`)) {
      const path = `${rel}${e.name}`;
      if (e.isDirectory) walk(`${path}/`);
      else if (e.isFile && TEST_FILE.test(e.name)) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Every test file but `SERIAL_FILES`, those under `FIRST_DIRS` first, and
 * in each folder the `SLOWEST_FILES` first.
 */
export function parallelFiles(): string[] {
  const all = testFiles("tests/").filter((f) => !SERIAL_FILES.includes(f));
  const rank = (f: string) => {
    const i = FIRST_DIRS.findIndex((d) => f.startsWith(d));
    return i < 0 ? FIRST_DIRS.length : i;
  };
  const slow = (f: string) => {
    const i = SLOWEST_FILES.indexOf(f);
    return i < 0 ? SLOWEST_FILES.length : i;
  };
  return all.map((f, i) => ({ f, i })).sort((a, b) =>
    rank(a.f) - rank(b.f) || slow(a.f) - slow(b.f) || a.i - b.i
  ).map((x) => x.f);
}

/**
 * What one `deno test` run gave: its success, closing counts, failed tests
 * and, by test name, the first line of each failure's error and where in
 * its test file it was thrown.
 */
export interface Run {
  ok: boolean;
  counts: Counts | null;
  failures: string[];
  errors: Map<string, string>;
}

/** What one `deno test` run printed last: its counts. */
interface Counts {
  passed: number;
  failed: number;
  ignored: number;
}

/** The counts of `deno test`'s closing line in `text` (colours removed), if any. */
export function closingCounts(text: string): Counts | null {
  // deno-lint-ignore no-control-regex
  const plain = text.replace(/\x1b\[[0-9;]*m/g, "");
  const lines = plain.split("\n").filter((l) =>
    /^(ok|FAILED) \| \d+ passed/.test(l)
  );
  const last = lines.at(-1);
  if (!last) return null;
  const n = (what: string) =>
    Number(last.match(new RegExp(`(\\d+) ${what}`))?.[1] ?? 0);
  return { passed: n("passed"), failed: n("failed"), ignored: n("ignored") };
}

/**
 * How long a run may go without any test finishing before it is stopped
 * (ms): a test that hangs (a program that never exits, a server that
 * never answers) fails the run with its name instead of holding it until
 * CI's own limit. The slowest single test takes about 2 minutes.
 * `RUN_TESTS_STALL_MS` overrides it.
 */
export const STALL_MS = Number(Deno.env.get("RUN_TESTS_STALL_MS")) ||
  5 * 60_000;

/** A test's result line (`NAME ... ok (2s)`, a step's too), colours removed. */
const RESULT_LINE = /\.\.\. (ok|FAILED|ignored) \(/;
/** Deno's own warning for a test that runs long: its name. */
const RUNNING_LONG = /'(.*)' has been running for over/;
/** A test's start in a run of one file at a time (`NAME ...` alone). */
const STARTED = /^(?:\S+ => )?(.*) \.\.\.\s*$/;
/** A failure's heading in `deno test`'s ERRORS section: `NAME => ./FILE:L:C`. */
const ERROR_HEAD = /^(.*) => (\S+):\d+:\d+$/;
/** A stack frame in a test file (`at ... file:///…/x_test.ts:12:5`). */
const TEST_FRAME = /(?:file:\/\/)?(\/?[^\s()]*?_test\.ts:\d+):\d+/;
/** How much of an error's first line the closing lines repeat. */
const ERROR_CHARS = 240;

/**
 * Reads `deno test`'s ERRORS section line by line: for each failed test,
 * the first line of its error and the first frame in a test file.
 */
class ErrorSection {
  readonly errors = new Map<string, string>();
  #inside = false;
  #name = "";
  #error = "";
  #frame = "";

  /** Takes one output line, colours removed. */
  line(plain: string): void {
    const t = plain.trim();
    if (t === "ERRORS") {
      this.#inside = true;
      return;
    }
    if (!this.#inside) return;
    if (t === "FAILURES") {
      this.#flush();
      this.#inside = false;
      return;
    }
    const head = ERROR_HEAD.exec(plain);
    if (head && !plain.startsWith(" ")) {
      this.#flush();
      this.#name = head[1];
      return;
    }
    if (!this.#name) return;
    if (!this.#error && t.startsWith("error: ")) {
      this.#error = t.length > ERROR_CHARS ? `${t.slice(0, ERROR_CHARS)}…` : t;
    } else if (!this.#frame && t.startsWith("at ")) {
      const frame = TEST_FRAME.exec(t)?.[1] ?? "";
      this.#frame = frame.startsWith(ROOT) ? frame.slice(ROOT.length) : frame;
    }
  }

  #flush(): void {
    if (this.#name && this.#error) {
      // A step's error is kept under its test's name; the test's own
      // ("1 test step failed") says less.
      const key = testName(this.#name);
      const had = this.errors.get(key);
      if (!had || / steps? failed/.test(had)) {
        this.errors.set(
          key,
          this.#frame ? `${this.#error} (${this.#frame})` : this.#error,
        );
      }
    }
    this.#name = this.#error = this.#frame = "";
  }
}

/**
 * A failure's test name without the `./FILE => ` of a parallel run, and
 * for a step the test's own name (a parallel run names a step
 * `TEST ... STEP`, a run of one file indents it under its test).
 */
export function testName(failure: string): string {
  return failure.replace(/^\S+ => /, "").split(" ... ")[0].trim();
}

/**
 * Run `deno ARGS` with its output passed through as it comes; resolves to
 * its exit success and the counts of its closing line. It runs in its own
 * process group, so that a run stopped for a hang (`STALL_MS`) takes its
 * servers and browsers with it.
 */
async function denoTest(
  args: string[],
  env: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Run> {
  // setsid: a new process group whose id is the child's pid.
  const child = new Deno.Command("setsid", {
    args: [Deno.execPath(), ...args],
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // Keep the end of the output: the closing line is there.
  let tail = "";
  let line = "";
  let lastResult = Date.now();
  const longRunning = new Set<string>();
  let stalled = false;
  // The names of the tests that failed, in order: the closing lines repeat
  // them, since a CI log may keep only its end.
  const failures: string[] = [];
  const errorSection = new ErrorSection();
  const watch = setInterval(() => {
    if (Date.now() - lastResult < STALL_MS) return;
    stalled = true;
    clearInterval(watch);
    // deno-lint-ignore no-control-regex
    const open = STARTED.exec(line.replace(/\x1b\[[0-9;]*m/g, ""));
    if (open) longRunning.add(open[1]);
    const names = [...longRunning].map((n) => `'${n}'`).join(", ");
    console.log(
      `\nrun_tests: no test finished for ${
        Math.round(STALL_MS / 1000)
      } s; stopping this run (still running: ${names || "unknown"})`,
    );
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* gone */ }
  }, Math.min(5_000, STALL_MS / 4));
  // Stopped from outside (the type check beside it failed): the whole group.
  const stop = () => {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* gone */ }
  };
  signal?.addEventListener("abort", stop);
  if (signal?.aborted) stop();
  const dec = new TextDecoder();
  try {
    for await (const chunk of child.stdout) {
      await Deno.stdout.write(chunk);
      const text = dec.decode(chunk, { stream: true });
      tail = (tail + text).slice(-8192);
      const lines = (line + text).split("\n");
      line = lines.pop()!;
      for (const l of lines) {
        // deno-lint-ignore no-control-regex
        const plain = l.replace(/\x1b\[[0-9;]*m/g, "");
        errorSection.line(plain);
        const long = RUNNING_LONG.exec(plain) ?? STARTED.exec(plain);
        if (long) longRunning.add(long[1]);
        else if (RESULT_LINE.test(plain)) {
          lastResult = Date.now();
          const name = /^(?:\S+ => )?(.*?) \.\.\. /.exec(plain)?.[1];
          if (name) longRunning.delete(name);
          if (/\.\.\. FAILED \(/.test(plain)) {
            failures.push(plain.replace(/ \.\.\. FAILED \(.*$/, ""));
          }
        }
      }
    }
  } finally {
    clearInterval(watch);
    signal?.removeEventListener("abort", stop);
  }
  const status = await child.status;
  if (stalled) {
    const names = [...longRunning].map((n) => `${n} (stalled)`);
    return {
      ok: false,
      counts: closingCounts(tail) ?? ZERO,
      failures: [...failures, ...names],
      errors: errorSection.errors,
    };
  }
  return {
    ok: status.success,
    counts: closingCounts(tail),
    failures,
    errors: errorSection.errors,
  };
}

const ZERO: Counts = { passed: 0, failed: 1, ignored: 0 };

/**
 * The state directory the tests' servers share unless a test gives its
 * own: a fresh one, so that no test writes journals or logs into the
 * user's (and no test server restores the user's sessions).
 */
const STATE_ENV = {
  XDG_STATE_HOME: Deno.makeTempDirSync({ prefix: "domterm-test-state-" }),
};

/**
 * `deno check CHECK` and `deno test TEST` (with `--no-check`) at once: the
 * type check no longer holds the tests back (about 20 s of CPU on a cold
 * cache). A failed check stops the test run at once (its process group,
 * as a stall does) and its errors are printed; the check's own output is
 * kept out of the tests' otherwise.
 */
export async function checkedRun(
  check: string[],
  test: string[],
  env: Record<string, string> = {},
): Promise<{ checked: boolean; run: Run }> {
  const t0 = performance.now();
  const failedCheck = new AbortController();
  const checking = new Deno.Command(Deno.execPath(), {
    args: ["check", ...check],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output().then((out) => {
    if (!out.success) failedCheck.abort();
    return out;
  });
  const run = await denoTest(test, env, failedCheck.signal);
  const out = await checking;
  const s = Math.round((performance.now() - t0) / 1000);
  if (out.success) {
    console.log(
      `run_tests: deno check ${check.join(" ")}: ok (beside the tests)`,
    );
    return { checked: true, run };
  }
  const dec = new TextDecoder();
  console.log(
    `\nrun_tests: deno check ${
      check.join(" ")
    } failed; the tests were stopped (${s}s):\n` +
      dec.decode(out.stdout) + dec.decode(out.stderr),
  );
  return {
    checked: false,
    run: {
      ok: false,
      counts: run.counts ?? ZERO,
      failures: [...run.failures, `deno check ${check.join(" ")}`],
      errors: run.errors,
    },
  };
}

/**
 * At most this many files of the parallel run are run again alone when
 * tests in them failed there. More failed files than that is no load
 * effect but a broken build: the run fails without a second try.
 */
export const MAX_RERUN_FILES = 4;

/**
 * The files to run again alone after the parallel run failed: those of its
 * failed tests, if every failure names its file (a stall or a crash names
 * none, and is not run again) and there are at most `MAX_RERUN_FILES`.
 */
export function rerunFiles(run: Run): string[] {
  if (run.ok || run.counts === null || run.failures.length === 0) return [];
  const files = new Set<string>();
  for (const f of run.failures) {
    const file = /^(\S+_test\.ts) => /.exec(f)?.[1];
    if (!file) return [];
    files.add(file.replace(/^\.\//, ""));
  }
  return files.size <= MAX_RERUN_FILES ? [...files] : [];
}

/**
 * The parallel run's result once its failed files ran again alone: a test
 * fails if it failed alone (the second run's verdict on those files counts,
 * for every test in them); the tests that failed only beside another file
 * are `flaky`, with the error they had there.
 */
export function afterRerun(
  parallel: Run,
  rerun: Run,
): { run: Run; flaky: string[] } {
  const failedAlone = new Set(rerun.failures.map(testName));
  const flaky = parallel.failures.filter((f) => !failedAlone.has(testName(f)));
  const total = (parallel.counts?.passed ?? 0) + (parallel.counts?.failed ?? 0);
  const failed = rerun.counts?.failed ?? rerun.failures.length;
  return {
    run: {
      ok: rerun.ok && rerun.counts !== null,
      counts: {
        passed: total - failed,
        failed,
        ignored: parallel.counts?.ignored ?? 0,
      },
      failures: rerun.failures,
      errors: new Map([...parallel.errors, ...rerun.errors]),
    },
    flaky,
  };
}

async function main(args: string[]): Promise<number> {
  if (args.length > 0) {
    const run = await denoTest(["test", "-A", ...args], STATE_ENV);
    printFailures("failed tests", run.failures, run.errors);
    return run.ok ? 0 : 1;
  }
  const t0 = performance.now();
  const jobs = Deno.env.get("DENO_JOBS") ?? String(DEFAULT_JOBS);
  // The type check of tests/ runs beside the parallel run (which is
  // --no-check); a failed check stops it and the serial run never starts.
  const { checked, run: firstParallel } = await checkedRun(
    ["tests/"],
    ["test", "-A", "--no-check", "--parallel", ...parallelFiles()],
    { ...STATE_ENV, DENO_JOBS: jobs },
  );
  if (!checked) {
    printFailures("failed tests", firstParallel.failures, firstParallel.errors);
    return 1;
  }
  const t1 = performance.now();
  const serialFiles = SERIAL_FILES.filter((f) => {
    try {
      return Deno.statSync(`${ROOT}${f}`).isFile;
    } catch {
      return false; // moved or gone: not ours to fail on
    }
  });
  const serial = serialFiles.length > 0
    ? await denoTest(["test", "-A", "--no-check", ...serialFiles], STATE_ENV)
    : {
      ok: true,
      counts: { passed: 0, failed: 0, ignored: 0 },
      failures: [],
      errors: new Map(),
    };
  const t2 = performance.now();
  // A test that failed beside another file (two at once on two cores) runs
  // again alone, as the timing-bound files always do: it fails the suite
  // only if it fails there too, and is named as flaky either way.
  let parallel = firstParallel;
  let flaky: string[] = [];
  const again = rerunFiles(firstParallel);
  if (again.length > 0) {
    console.log(
      `\nrun_tests: ${firstParallel.failures.length} failed beside ` +
        `another file; running ${again.join(", ")} again, alone`,
    );
    ({ run: parallel, flaky } = afterRerun(
      firstParallel,
      await denoTest(["test", "-A", "--no-check", ...again], STATE_ENV),
    ));
  }
  const t3 = performance.now();
  const sum = (k: keyof Counts) =>
    (parallel.counts?.[k] ?? 0) + (serial.counts?.[k] ?? 0);
  const ok = parallel.ok && serial.ok && parallel.counts !== null &&
    serial.counts !== null;
  const s = (ms: number) => `${Math.round(ms / 1000)}s`;
  const rerunTime = again.length > 0
    ? `, then ${s(t3 - t2)} running ${again.length} file(s) again`
    : "";
  console.log(
    `\n${ok ? "ok" : "FAILED"} | ${sum("passed")} passed | ${
      sum("failed")
    } failed | ${sum("ignored")} ignored (both runs: ${
      s(t1 - t0)
    } with ${jobs} files at once, then ${
      s(t2 - t1)
    } one file at a time${rerunTime})`,
  );
  printFailures(
    "flaky tests (failed beside another file, passed alone)",
    flaky,
    firstParallel.errors,
  );
  printFailures(
    "failed tests",
    [...parallel.failures, ...serial.failures],
    new Map([...parallel.errors, ...serial.errors]),
  );
  return ok ? 0 : 1;
}

/**
 * The tests' names and the first line of each one's error, last, where a
 * log cut to its end still shows them.
 */
function printFailures(
  title: string,
  failures: string[],
  errors: Map<string, string>,
): void {
  if (failures.length === 0) return;
  console.log(`${title} (${failures.length}):`);
  for (const f of failures) {
    console.log(`  ${f}`);
    const error = errors.get(testName(f));
    if (error) console.log(`    ${error}`);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
