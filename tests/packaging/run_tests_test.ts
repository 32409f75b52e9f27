/**
 * scripts/run_tests.ts (`deno task test`) runs every test file exactly once,
 * split between its parallel and its one-at-a-time run, and adds up the
 * closing lines of both.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  afterRerun,
  checkedRun,
  closingCounts,
  FIRST_DIRS,
  MAX_RERUN_FILES,
  parallelFiles,
  rerunFiles,
  type Run,
  SERIAL_FILES,
  SLOWEST_FILES,
  testFiles,
  testName,
} from "../../scripts/run_tests.ts";

Deno.test("run_tests: every test file runs once, in one of the two runs", () => {
  const all = testFiles("tests/");
  assert(all.includes("tests/packaging/run_tests_test.ts"), "finds this file");
  assert(all.every((f) => /_test\.ts$/.test(f)), JSON.stringify(all));
  const parallel = parallelFiles();
  for (const f of SERIAL_FILES) {
    assert(all.includes(f), `${f} (one at a time) is a test file`);
    assert(!parallel.includes(f), `${f} is not also in the parallel run`);
  }
  assertEquals(new Set(parallel).size, parallel.length, "no file twice");
  assertEquals([...parallel, ...SERIAL_FILES].sort(), all);
  // The slow folders come first, in their order.
  const rank = (f: string) => {
    const i = FIRST_DIRS.findIndex((d) => f.startsWith(d));
    return i < 0 ? FIRST_DIRS.length : i;
  };
  const ranks = parallel.map(rank);
  assertEquals(ranks, ranks.slice().sort((a, b) => a - b));
  assert(parallel[0].startsWith(FIRST_DIRS[0]), parallel[0]);
});

Deno.test("run_tests: the slowest files start first, slowest first", () => {
  const all = testFiles("tests/");
  for (const f of SLOWEST_FILES) {
    assert(all.includes(f), `${f} (slowest) is a test file`);
    assert(!SERIAL_FILES.includes(f), `${f} is in the parallel run`);
    assert(f.startsWith(FIRST_DIRS[0]), `${f} is in the first folder`);
  }
  assertEquals(
    parallelFiles().slice(0, SLOWEST_FILES.length),
    SLOWEST_FILES,
  );
});

Deno.test("run_tests: the type check runs beside the tests; a failed one stops them", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-check-" });
  const marker = `domterm-check-${crypto.randomUUID()}`;
  try {
    Deno.writeTextFileSync(`${dir}/bad.ts`, `export const n: number = "no";\n`);
    // A test that would run for 1000 s: the failed check must stop it.
    Deno.writeTextFileSync(
      `${dir}/slow_test.ts`,
      `Deno.test("runs long", async () => {
  await new Deno.Command("sh", { args: ["-c", "sleep 1000; : ${marker}"] })
    .spawn().status;
});
`,
    );
    const t0 = Date.now();
    const { checked, run } = await checkedRun(
      [`${dir}/bad.ts`],
      ["test", "-A", "--no-check", `${dir}/slow_test.ts`],
    );
    assertEquals(checked, false);
    assertEquals(run.ok, false);
    assert(Date.now() - t0 < 120_000, "stopped when the check failed");
    assertEquals(run.failures.at(-1), `deno check ${dir}/bad.ts`);
    const left = await new Deno.Command("pgrep", { args: ["-f", marker] })
      .output();
    assertEquals(new TextDecoder().decode(left.stdout), "", "sleep was killed");
    // A check that passes leaves the run alone.
    Deno.writeTextFileSync(`${dir}/good.ts`, `export const n: number = 1;\n`);
    Deno.writeTextFileSync(
      `${dir}/quick_test.ts`,
      `Deno.test("quick", () => {});\n`,
    );
    const good = await checkedRun(
      [`${dir}/good.ts`],
      ["test", "-A", "--no-check", `${dir}/quick_test.ts`],
    );
    assertEquals(good.checked, true);
    assertEquals(good.run.ok, true);
    assertEquals(good.run.counts, { passed: 1, failed: 0, ignored: 0 });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("run_tests: the closing line's counts, colours and all", () => {
  assertEquals(
    closingCounts(
      "x ... ok (1ms)\n\n\x1b[0m\x1b[32mok\x1b[0m | 12 passed | 0 failed " +
        "\x1b[0m\x1b[38;5;245m(2m40s)\x1b[0m\n",
    ),
    { passed: 12, failed: 0, ignored: 0 },
  );
  assertEquals(
    closingCounts(
      "FAILED | 2070 passed (31 steps) | 4 failed | 1 ignored (9m)\n",
    ),
    { passed: 2070, failed: 4, ignored: 1 },
  );
  assertEquals(closingCounts("error: Module not found\n"), null);
});

Deno.test("run_tests: a test that hangs stops the run with its name, its processes killed", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-hang-" });
  const marker = `domterm-hang-${crypto.randomUUID()}`;
  try {
    // The sleeping program carries a marker in its argv to find it by.
    Deno.writeTextFileSync(
      `${dir}/hang_test.ts`,
      `Deno.test("finishes", () => {});
Deno.test("hangs forever", async () => {
  await new Deno.Command("sh", { args: ["-c", "sleep 1000; : ${marker}"] })
    .spawn().status;
});
`,
    );
    const t0 = Date.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../scripts/run_tests.ts", import.meta.url).pathname,
        "--no-check",
        `${dir}/hang_test.ts`,
      ],
      // --no-check and 10 s: under load (2 cores, load 40) the type check of
      // the file alone took 17 s, and a stall before the first test starts
      // names no test ('still running: unknown').
      env: { RUN_TESTS_STALL_MS: "10000" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 1, text);
    assert(Date.now() - t0 < 60_000, "stopped soon after the stall");
    assert(
      /no test finished for 10 s; stopping this run \(still running: 'hangs forever'\)/
        .test(text),
      text,
    );
    const left = await new Deno.Command("pgrep", { args: ["-f", marker] })
      .output();
    assertEquals(new TextDecoder().decode(left.stdout), "", "sleep was killed");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("run_tests: the failed tests' names come last, after the closing line", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-fail-" });
  try {
    Deno.writeTextFileSync(
      `${dir}/fail_test.ts`,
      `Deno.test("passes", () => {});
Deno.test("fails on purpose", () => { throw new Error("no"); });
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../scripts/run_tests.ts", import.meta.url).pathname,
        "--no-check",
        `${dir}/fail_test.ts`,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 1);
    const text = new TextDecoder().decode(out.stdout)
      .replaceAll("\x1b", "").replace(/\[[0-9;]*m/g, "");
    const lines = text.trimEnd().split("\n");
    // Each with its error's first line and where in the test file.
    assertEquals(lines.slice(-3), [
      "failed tests (1):",
      "  fails on purpose",
      `    error: Error: no (${dir}/fail_test.ts:2)`,
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** A run's result as `denoTest` gives it. */
function run(
  failures: string[],
  counts: Run["counts"],
  errors: [string, string][] = [],
): Run {
  return {
    ok: failures.length === 0 && counts !== null,
    counts,
    failures,
    errors: new Map(errors),
  };
}

Deno.test("run_tests: the files of tests that failed in the parallel run run again alone, within limits", () => {
  const a = "./tests/e2e/a_test.ts => a: one";
  const a2 = "./tests/e2e/a_test.ts => a: two ... its step";
  const b = "./tests/e2e/b_test.ts => b: one";
  const counts = { passed: 10, failed: 2, ignored: 0 };
  const table: [string, Run, string[]][] = [
    ["two files", run([a, b], counts), [
      "tests/e2e/a_test.ts",
      "tests/e2e/b_test.ts",
    ]],
    ["one file twice, a step", run([a, a2], counts), ["tests/e2e/a_test.ts"]],
    ["nothing failed", run([], { passed: 12, failed: 0, ignored: 0 }), []],
    // A stall names the test without its file; a crash has no closing line.
    ["a stall", run([a, "a: hangs (stalled)"], counts), []],
    ["no closing line", run([a], null), []],
    [
      "too many files",
      run(
        Array.from(
          { length: MAX_RERUN_FILES + 1 },
          (_, i) => `./tests/e2e/f${i}_test.ts => f${i}`,
        ),
        counts,
      ),
      [],
    ],
  ];
  for (const [what, r, files] of table) {
    assertEquals(rerunFiles(r), files, what);
  }
  assertEquals(testName(a2), "a: two");
  assertEquals(testName("    its step"), "its step");
});

Deno.test("run_tests: after the rerun, a test fails only if it failed alone; the others are named flaky", () => {
  const a = "./tests/e2e/a_test.ts => a: one";
  const b = "./tests/e2e/b_test.ts => b: one";
  const parallel = run([a, b], { passed: 10, failed: 2, ignored: 1 }, [
    ["a: one", "error: Error: timed out (tests/e2e/a_test.ts:9)"],
  ]);
  // b failed again alone; a passed.
  const again = run(["b: one"], { passed: 5, failed: 1, ignored: 0 }, [
    ["b: one", "error: Error: wrong (tests/e2e/b_test.ts:3)"],
  ]);
  const { run: after, flaky } = afterRerun(parallel, again);
  assertEquals(flaky, [a]);
  assertEquals(after.ok, false);
  assertEquals(after.failures, ["b: one"]);
  assertEquals(after.counts, { passed: 11, failed: 1, ignored: 1 });
  assertEquals(
    after.errors.get("b: one"),
    "error: Error: wrong (tests/e2e/b_test.ts:3)",
  );
  // Both passed alone: the run is ok, both flaky.
  const clean = afterRerun(
    parallel,
    run([], { passed: 6, failed: 0, ignored: 0 }),
  );
  assertEquals(clean.flaky, [a, b]);
  assertEquals(clean.run.ok, true);
  assertEquals(clean.run.counts, { passed: 12, failed: 0, ignored: 1 });
});
