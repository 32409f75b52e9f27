// deno-lint-ignore-file no-control-regex -- the tests parse escape sequences
/**
 * Shell integration (server/shell): unit tests of the launch planning, and
 * end-to-end tests that start real bash, zsh and fish through
 * planShellLaunchSync on a real pseudo-terminal and check the raw output for the
 * OSC 133 / OSC 7 marks. zsh and fish must be installed (Debian packages
 * `zsh` and `fish`); a missing one fails its tests.
 *
 * Run with `deno test -A tests/server/shell_integration_test.ts`.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { libc } from "../../server/pty/libc.ts";
import { startServer } from "../../server/http.ts";
import { parseCli } from "../../server/cli.ts";
import { TestClient } from "./ws_client.ts";
import { Pty } from "../../server/pty/pty.ts";
import {
  detectShell,
  integrationScript,
  type LaunchPlan,
  planShellLaunchSync,
  SCRIPT_FILES,
  type ShellKind,
  writeShellScripts,
} from "../../server/shell/integration.ts";
import { makeTerminal as makeCoreTerminal } from "../core/helpers.ts";
import {
  type CommandGroup,
  deriveCommandGroups,
} from "../../core/model/command_groups.ts";
import { runDomterm } from "../run_domterm.ts";

// Open libc before any test runs: the library handle is a process-lifetime
// resource, and the resource sanitizer would blame whichever test opened it.
libc();

const TIMEOUT_MS = 20_000;
const ESC = "\x1b";
const ST = `${ESC}\\`;
const MARK_B = `${ESC}]133;B${ST}`;

// ------------------------------------------------------------ helpers

/** A temp directory tree for one test, removed by `dispose()`. */
async function tempRoot(): Promise<
  { root: string; planDir: string; home: string; dispose(): Promise<void> }
> {
  const root = await Deno.makeTempDir({ prefix: "domterm-shell-test-" });
  const planDir = join(root, "plan");
  const home = join(root, "home");
  await Deno.mkdir(planDir, { mode: 0o700 });
  await Deno.mkdir(home);
  return {
    root,
    planDir,
    home,
    dispose: () => Deno.remove(root, { recursive: true }),
  };
}

/** Full path of `name` on PATH, or null. */
function which(name: string): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (!dir) continue;
    try {
      const p = join(dir, name);
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** Fails (never skips) when a shell under test is missing. */
function requireShell(kind: ShellKind): void {
  if (!which(kind)) {
    throw new Error(
      `${kind} is not installed: install the Debian package '${kind}' ` +
        `(apt-get install -y ${kind}) to run the shell integration tests`,
    );
  }
}

/** A shell on a pty, with all output collected as text. */
class Terminal {
  out = "";
  #pty: Pty;
  #reader: Promise<void>;
  #wake: (() => void) | null = null;
  #eof = false;

  constructor(pty: Pty) {
    this.#pty = pty;
    const decoder = new TextDecoder();
    this.#reader = (async () => {
      for (let c = await pty.read(); c; c = await pty.read()) {
        this.out += decoder.decode(c, { stream: true });
        this.#wake?.();
      }
      this.#eof = true;
      this.#wake?.();
    })();
  }

  static start(plan: LaunchPlan, cwd?: string): Terminal {
    return new Terminal(
      Pty.spawn({
        command: plan.command,
        args: plan.args,
        env: plan.env,
        cwd,
        cols: 200,
        rows: 30,
      }),
    );
  }

  /** Waits until `pred(out)` holds. */
  async waitFor(pred: (out: string) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + TIMEOUT_MS;
    while (!pred(this.out)) {
      if (this.#eof) throw new Error(`EOF before ${what}: ${show(this.out)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timeout: ${what}: ${show(this.out)}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((ok) => {
        this.#wake = ok;
        timer = setTimeout(ok, Math.min(left, 200));
      });
      clearTimeout(timer);
      this.#wake = null;
    }
  }

  write(s: string): Promise<void> {
    return this.#pty.write(s);
  }

  async close(): Promise<void> {
    await this.#pty.close();
    await this.#reader;
  }
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** Output made readable for failure messages. */
function show(text: string): string {
  return JSON.stringify(text.length > 4000 ? "..." + text.slice(-4000) : text);
}

/** Text without escape sequences and carriage returns, as a reader sees it. */
function plain(text: string): string {
  return text
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, "")
    .replace(/\x1b\[[0-9;?<=>]*[ -/]*[@-~]/g, "")
    .replace(/\x1b[()][0-9A-Za-z]/g, "")
    .replace(/\x1b[=>78]/g, "")
    .replace(/[\r\x07]/g, "");
}

/** One OSC 133 or OSC 7 mark found in the output, with its position. */
interface Mark {
  /** "133;A;cl=m", "133;D;0", "7;file://...", ... */
  body: string;
  start: number;
  end: number;
}

function marks(out: string): Mark[] {
  const re = /\x1b\]((?:133|7);[^\x07\x1b]*)(?:\x1b\\|\x07)/g;
  return [...out.matchAll(re)].map((m) => ({
    body: m[1],
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The expected file:// URL for a directory (our scripts encode all but A-Za-z0-9/._~-). */
function fileUrl(dir: string): string {
  const bytes = new TextEncoder().encode(dir);
  let path = "";
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    path += /[A-Za-z0-9/._~-]/.test(c)
      ? c
      : "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }
  return `file://${Deno.hostname()}${path}`;
}

/** A child environment that does not depend on the caller's. */
function baseEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
}

/** Writes the user's startup files for `kind` into `home`. */
async function writeUserConfig(
  kind: ShellKind,
  home: string,
  options: { sourceScriptToo?: boolean } = {},
): Promise<void> {
  const own = join(home, `own-copy.${kind}`);
  if (options.sourceScriptToo) {
    await Deno.writeTextFile(own, integrationScript(kind));
  }
  switch (kind) {
    case "bash":
      await Deno.writeTextFile(
        join(home, ".bashrc"),
        [
          "PS1='custom> '",
          "DOMTERM_TEST_RC=yes",
          // A strict user config must not break the integration.
          "set -u",
          options.sourceScriptToo ? `. '${own}'` : "",
          "",
        ].join("\n"),
      );
      break;
    case "zsh":
      // The user's .zshenv moves ZDOTDIR: the rest lives in ~/zdot.
      await Deno.mkdir(join(home, "zdot"));
      await Deno.writeTextFile(
        join(home, ".zshenv"),
        'ZDOTDIR="$HOME/zdot"\n',
      );
      await Deno.writeTextFile(
        join(home, "zdot", ".zshrc"),
        [
          "PROMPT='custom> '",
          "DOMTERM_TEST_RC=yes",
          "setopt nounset",
          options.sourceScriptToo ? `source '${own}'` : "",
          "",
        ].join("\n"),
      );
      break;
    case "fish":
      await Deno.mkdir(join(home, ".config", "fish"), { recursive: true });
      await Deno.writeTextFile(
        join(home, ".config", "fish", "config.fish"),
        [
          "set -g fish_greeting",
          "function fish_prompt; printf 'custom> '; end",
          "set -g DOMTERM_TEST_RC yes",
          options.sourceScriptToo ? `source '${own}'` : "",
          "",
        ].join("\n"),
      );
      break;
  }
}

/** One command line typed at a prompt (several lines: continuation prompts). */
interface Step {
  lines: string[];
  /** Expected exit status; undefined for an empty line (no C, no D). */
  status?: number;
  /** Text expected in the command's output. */
  output?: string;
}

function stepsFor(kind: ShellKind): Step[] {
  const steps: Step[] = [
    { lines: ["true"], status: 0 },
    { lines: ["false"], status: 1 },
    { lines: [""] },
    {
      lines: [kind === "fish" ? "sh -c 'exit 3'" : "(exit 3)"],
      status: 3,
    },
    { lines: ["echo hi"], status: 0, output: "hi" },
    { lines: ['echo "rc=$DOMTERM_TEST_RC"'], status: 0, output: "rc=yes" },
  ];
  // fish edits a multi-line command as one buffer: no continuation prompt.
  if (kind !== "fish") {
    steps.push({
      lines: ["echo con\\", "tinued"],
      status: 0,
      output: "continued",
    });
  }
  return steps;
}

/** Types each line once the previous prompt is complete (its B mark arrived). */
async function runSteps(term: Terminal, steps: Step[]): Promise<void> {
  let prompts = 1;
  await term.waitFor((o) => count(o, MARK_B) >= prompts, "the first prompt");
  for (const step of steps) {
    for (const line of step.lines) {
      await term.write(line + "\r");
      prompts++;
      await term.waitFor(
        (o) => count(o, MARK_B) >= prompts,
        `the prompt after ${JSON.stringify(line)}`,
      );
    }
  }
}

/**
 * Checks the marks in `out`: their exact order (D before OSC 7 before A, one
 * group per prompt), the prompt text between A and B, the command between B
 * and C, the output between C and D, and the cwd in OSC 7.
 */
function checkTranscript(out: string, steps: Step[], cwd: string): void {
  const found = marks(out);
  // A and D carry the shell's pid as the application id: one pid throughout.
  const aids = new Set(
    found.flatMap((m) => [...m.body.matchAll(/;aid=(\d+)/g)].map((a) => a[1])),
  );
  assertEquals(aids.size, 1, `one aid in ${show(out)}`);
  for (const m of found) m.body = m.body.replace(/;aid=\d+/, ";aid=PID");
  const expected: string[] = ["7", "133;A;aid=PID;cl=m", "133;B"];
  for (const step of steps) {
    for (let i = 1; i < step.lines.length; i++) {
      expected.push("133;A;k=s", "133;B");
    }
    if (step.status !== undefined) {
      expected.push("133;C", `133;D;${step.status};aid=PID`);
    }
    expected.push("7", "133;A;aid=PID;cl=m", "133;B");
  }
  const bodies = found.map((m) => m.body.startsWith("7;") ? "7" : m.body);
  assertEquals(bodies, expected, `marks in ${show(out)}`);

  for (const m of found) {
    if (m.body.startsWith("7;")) assertEquals(m.body, `7;${fileUrl(cwd)}`);
  }
  const between = (a: Mark, b: Mark) => plain(out.slice(a.end, b.start));

  // Walk the marks prompt by prompt, in the same order as `expected`.
  let at = 1; // index of the first A
  const prompt = () => {
    assertEquals(found[at].body, "133;A;aid=PID;cl=m");
    assertEquals(between(found[at], found[at + 1]), "custom> ");
    at += 2;
  };
  prompt();
  for (const step of steps) {
    const inputStart = found[at - 1]; // the B that ends the prompt
    for (let i = 1; i < step.lines.length; i++) {
      assertMatch(between(found[at], found[at + 1]), /> $/, "PS2 text");
      at += 2;
    }
    if (step.status !== undefined) {
      const c = found[at];
      const d = found[at + 1];
      const typed = between(inputStart, c);
      for (const line of step.lines) {
        assert(
          typed.includes(line.replace(/\\$/, "")),
          `command ${JSON.stringify(line)} echoed between B and C: ${
            show(typed)
          }`,
        );
      }
      if (step.output !== undefined) {
        assert(
          between(c, d).includes(step.output),
          `output ${JSON.stringify(step.output)} between C and D: ${
            show(between(c, d))
          }`,
        );
      }
      at += 2;
    }
    at += 1; // OSC 7
    prompt();
  }
}

/** Starts `kind` with integration and the standard user config, runs the steps, checks. */
async function endToEnd(
  kind: ShellKind,
  options: { sourceScriptToo?: boolean; args?: string[] } = {},
): Promise<void> {
  requireShell(kind);
  const t = await tempRoot();
  let term: Terminal | null = null;
  try {
    await writeUserConfig(kind, t.home, options);
    const cwd = join(t.root, "work dir é");
    await Deno.mkdir(cwd);
    const plan = planShellLaunchSync(
      kind,
      options.args ?? [],
      baseEnv(t.home),
      t.planDir,
    );
    assertEquals(plan.cleanup.length, 1, "integration was injected");
    term = Terminal.start(plan, cwd);
    const steps = stepsFor(kind);
    await runSteps(term, steps);
    checkTranscript(term.out, steps, cwd);
    await term.close();
    term = null;
    for (const path of plan.cleanup) {
      await Deno.remove(path, { recursive: true });
    }
  } finally {
    await term?.close();
    await t.dispose();
  }
}

// ------------------------------------------------------------ unit tests

Deno.test("detectShell: by basename of argv[0]", () => {
  assertEquals(detectShell("bash"), "bash");
  assertEquals(detectShell("/usr/bin/bash"), "bash");
  assertEquals(detectShell("-zsh"), "zsh");
  assertEquals(detectShell("/usr/local/bin/fish"), "fish");
  assertEquals(detectShell("sh"), null);
  assertEquals(detectShell("/bin/dash"), null);
  assertEquals(detectShell("rbash"), null);
  assertEquals(detectShell("python3"), null);
  assertEquals(detectShell("/opt/bash/bin/vim"), null);
});

Deno.test("integrationScript: the scripts are embedded", () => {
  assertMatch(integrationScript("bash"), /PROMPT_COMMAND/);
  assertMatch(integrationScript("zsh"), /add-zsh-hook/);
  assertMatch(integrationScript("fish"), /fish_prompt/);
});

/** Plans with a throwaway dir; returns the plan and the dir's remover. */
async function plan(
  command: string,
  args: string[],
  env: Record<string, string> = { HOME: "/nonexistent" },
): Promise<{ plan: LaunchPlan; files: Record<string, string> }> {
  const t = await tempRoot();
  try {
    const p = planShellLaunchSync(command, args, env, t.planDir);
    const files: Record<string, string> = {};
    for (const dir of p.cleanup) {
      assert(dir.startsWith(t.planDir + "/"), "files go into dir");
      assertEquals((await Deno.stat(dir)).mode! & 0o777, 0o700);
      for await (const e of Deno.readDir(dir)) {
        files[e.name] = await Deno.readTextFile(join(dir, e.name));
        assertEquals((await Deno.stat(join(dir, e.name))).mode! & 0o777, 0o600);
      }
    }
    return { plan: p, files };
  } finally {
    await t.dispose();
  }
}

function assertUnchanged(
  p: LaunchPlan,
  command: string,
  args: string[],
  env: Record<string, string> = { HOME: "/nonexistent" },
) {
  assertEquals(p, { command, args, env, cleanup: [] });
}

Deno.test("planShellLaunchSync: unknown shells and disabled integration are untouched", async () => {
  for (const [cmd, args] of [["python3", []], ["sh", ["-i"]], ["vim", ["x"]]]) {
    assertUnchanged(
      (await plan(cmd as string, args as string[])).plan,
      cmd as string,
      args as string[],
    );
  }
  const env = { HOME: "/h", DOMTERM_SHELL_INTEGRATION: "0" };
  for (const kind of ["bash", "zsh", "fish"]) {
    assertUnchanged((await plan(kind, [], env)).plan, kind, [], env);
  }
});

Deno.test("planShellLaunchSync: bash interactive gets --rcfile sourcing ~/.bashrc then the script", async () => {
  const { plan: p, files } = await plan("/bin/bash", []);
  assertEquals(p.command, "/bin/bash");
  assertEquals(p.args[0], "--rcfile");
  assertEquals(p.args.length, 2);
  assertEquals(p.cleanup.length, 1);
  assertEquals(p.args[1], join(p.cleanup[0], "bashrc"));
  assertMatch(files.bashrc, /\. ~\/\.bashrc/);
  assert(!files.bashrc.includes("/etc/profile"));
  assertMatch(files.bashrc, /domterm\.bash'\n$/);
  assertEquals(files["domterm.bash"], integrationScript("bash"));

  // Harmless options are kept, long ones before short ones.
  const withOpts = (await plan("bash", ["--noediting", "-i", "-o", "vi"])).plan;
  assertEquals(withOpts.args.slice(2), ["--noediting", "-i", "-o", "vi"]);
  // -s: the rest are positional parameters, not a script.
  const stdin = (await plan("bash", ["-s", "a", "b"])).plan;
  assertEquals(stdin.args.slice(2), ["-s", "a", "b"]);
});

Deno.test("planShellLaunchSync: bash login shell reads the profile files from the rcfile", async () => {
  for (
    const [cmd, args] of [["bash", ["-l"]], ["bash", ["--login"]], [
      "-bash",
      [],
    ], ["bash", ["-il"]]]
  ) {
    const { plan: p, files } = await plan(cmd as string, args as string[]);
    assertEquals(p.command, "bash");
    assert(
      !p.args.some((a) => a === "-l" || a === "--login" || a === "-il"),
      `${p.args}`,
    );
    assert(p.args.includes("-i"));
    assertMatch(files.bashrc, /\/etc\/profile/);
    assertMatch(
      files.bashrc,
      /~\/\.bash_profile[\s\S]*~\/\.bash_login[\s\S]*~\/\.profile/,
    );
    assert(!files.bashrc.includes(".bashrc"));
  }
  const { files } = await plan("bash", ["-l", "--noprofile"]);
  assert(!files.bashrc.includes("profile;"), "--noprofile: no profile files");
});

Deno.test("planShellLaunchSync: bash arguments that make injection wrong", async () => {
  for (
    const args of [
      ["-c", "echo hi"],
      ["-ic", "echo hi"],
      ["script.sh"],
      ["--", "script.sh"],
      ["--norc"],
      ["--rcfile", "x"],
      ["--init-file", "x"],
      ["--posix"],
      ["-o", "posix"],
      ["-r"],
      ["--restricted"],
      ["--version"],
      ["--weird-option"],
    ]
  ) {
    assertUnchanged((await plan("bash", args)).plan, "bash", args);
  }
});

Deno.test("planShellLaunchSync: zsh gets a temp ZDOTDIR and keeps the user's", async () => {
  const { plan: p, files } = await plan("zsh", [], { HOME: "/h" });
  assertEquals(p.args, []);
  assertEquals(p.env.ZDOTDIR, p.cleanup[0]);
  assertEquals(p.env.DOMTERM_ORIG_ZDOTDIR, undefined, "none: it was unset");
  for (const f of [".zshenv", ".zprofile", ".zshrc", ".zlogin"]) {
    assert(files[f].includes(`/${f}; fi`), `${f} sources the user's ${f}`);
  }
  assertMatch(files[".zshrc"], /domterm\.zsh'/);
  assertEquals(files["domterm.zsh"], integrationScript("zsh"));

  const set =
    (await plan("/usr/bin/zsh", ["-l"], { HOME: "/h", ZDOTDIR: "/z" })).plan;
  assertEquals(set.env.DOMTERM_ORIG_ZDOTDIR, "/z");
  assertEquals(set.args, ["-l"]);
  // argv[0] "-zsh" (a login shell) cannot be passed as such: -l says it.
  const dash = (await plan("-zsh", [])).plan;
  assertEquals([dash.command, dash.args], ["zsh", ["-l"]]);
  // -s: the rest are positional parameters.
  assertEquals((await plan("zsh", ["-s", "a"])).plan.cleanup.length, 1);
});

Deno.test("planShellLaunchSync: zsh arguments that make injection wrong", async () => {
  for (
    const args of [
      ["-c", "echo hi"],
      ["-ic", "echo hi"],
      ["-f"],
      ["--no-rcs"],
      ["--norcs"],
      ["-o", "no_rcs"],
      ["+o", "rcs"],
      ["script.zsh"],
      ["-i", "script.zsh"],
      ["--emulate", "sh"],
      ["--version"],
    ]
  ) {
    assertUnchanged((await plan("zsh", args)).plan, "zsh", args);
  }
});

Deno.test("planShellLaunchSync: fish gets --init-command; -c, scripts, --no-config untouched", async () => {
  const { plan: p, files } = await plan("fish", ["-l"]);
  assertEquals(p.args.length, 3);
  assertEquals(p.args[0], "--init-command");
  assertEquals(p.args[1], `source '${join(p.cleanup[0], "domterm.fish")}'`);
  assertEquals(p.args[2], "-l");
  assertEquals(files["domterm.fish"], integrationScript("fish"));
  assertEquals((await plan("-fish", [])).plan.args[0], "-l");
  assertEquals((await plan("fish", ["-C", "set x 1"])).plan.cleanup.length, 1);
  for (
    const args of [
      ["-c", "echo hi"],
      ["--command=echo hi"],
      ["script.fish"],
      ["--no-config"],
      ["-N"],
      ["-n"],
      ["--version"],
    ]
  ) {
    assertUnchanged((await plan("fish", args)).plan, "fish", args);
  }
});

// ------------------------------------------------------------ real shells

for (const kind of ["bash", "zsh", "fish"] as const) {
  Deno.test(`${kind} on a pty: marks, exit statuses, prompt, cwd, user config`, async () => {
    await endToEnd(kind);
  });

  Deno.test(`${kind} on a pty: sourcing the script twice does not double the marks`, async () => {
    await endToEnd(kind, { sourceScriptToo: true });
  });

  Deno.test(`${kind} on a pty: DOMTERM_SHELL_INTEGRATION=0 means no marks at all`, async () => {
    requireShell(kind);
    const t = await tempRoot();
    try {
      await writeUserConfig(kind, t.home);
      const env = { ...baseEnv(t.home), DOMTERM_SHELL_INTEGRATION: "0" };
      // Not injected at all, and the script itself (injected with the
      // variable set only for the child) also stays quiet.
      const unchanged = planShellLaunchSync(kind, [], env, t.planDir);
      assertEquals(unchanged.cleanup, []);
      const injected = planShellLaunchSync(
        kind,
        [],
        baseEnv(t.home),
        t.planDir,
      );
      injected.env.DOMTERM_SHELL_INTEGRATION = "0";
      for (const p of [unchanged, injected]) {
        const term = Terminal.start(p);
        try {
          await term.waitFor((o) => o.includes("custom> "), "the prompt");
          await term.write('echo "rc=$DOMTERM_TEST_RC"\r');
          await term.waitFor(
            (o) => /rc=yes[\s\S]*custom> /.test(o),
            "the output and the next prompt",
          );
        } finally {
          await term.close();
        }
        assert(
          !term.out.includes(`${ESC}]133;`),
          `no OSC 133: ${show(term.out)}`,
        );
        assert(!term.out.includes(`${ESC}]7;`), `no OSC 7: ${show(term.out)}`);
      }
    } finally {
      await t.dispose();
    }
  });
}

Deno.test("bash login shell on a pty: profile files read, .bashrc not, marks present", async () => {
  const t = await tempRoot();
  let term: Terminal | null = null;
  try {
    await Deno.writeTextFile(
      join(t.home, ".bash_profile"),
      "PS1='custom> '\nDOMTERM_TEST_RC=yes\n",
    );
    await Deno.writeTextFile(
      join(t.home, ".bashrc"),
      "DOMTERM_TEST_RC=bashrc\n",
    );
    const p = planShellLaunchSync("bash", ["-l"], baseEnv(t.home), t.planDir);
    term = Terminal.start(p, t.home);
    const steps: Step[] = [
      { lines: ['echo "rc=$DOMTERM_TEST_RC"'], status: 0, output: "rc=yes" },
    ];
    await runSteps(term, steps);
    checkTranscript(term.out, steps, t.home);
  } finally {
    await term?.close();
    await t.dispose();
  }
});

Deno.test("zsh on a pty: ZDOTDIR is the user's again after startup (login shell)", async () => {
  requireShell("zsh");
  const t = await tempRoot();
  let term: Terminal | null = null;
  try {
    // The user's ZDOTDIR comes from the environment; every startup file in it
    // leaves a trace.
    const zdot = join(t.home, "zd");
    await Deno.mkdir(zdot);
    for (const f of [".zshenv", ".zprofile", ".zshrc", ".zlogin"]) {
      await Deno.writeTextFile(
        join(zdot, f),
        `TRACE+=${f}:$ZDOTDIR,\n` +
          (f === ".zshrc" ? "PROMPT='custom> '\nDOMTERM_TEST_RC=yes\n" : ""),
      );
    }
    const env = { ...baseEnv(t.home), ZDOTDIR: zdot };
    const p = planShellLaunchSync("zsh", ["-l"], env, t.planDir);
    term = Terminal.start(p, t.home);
    const steps: Step[] = [
      {
        lines: [
          'echo "trace=$TRACE zd=$ZDOTDIR orig=${DOMTERM_ORIG_ZDOTDIR-unset} x=$(printenv ZDOTDIR)"',
        ],
        status: 0,
        output:
          `trace=.zshenv:${zdot},.zprofile:${zdot},.zshrc:${zdot},.zlogin:${zdot}, ` +
          `zd=${zdot} orig=unset x=${zdot}`,
      },
    ];
    await runSteps(term, steps);
    checkTranscript(term.out, steps, t.home);
  } finally {
    await term?.close();
    await t.dispose();
  }
});

// ------------------------------------------------- sessions and the CLI

/** Starts a server whose sessions run `command` with `env`. */
function serveShell(
  command: string,
  env: Record<string, string>,
  shellIntegration?: boolean,
) {
  return startServer({
    command,
    args: [],
    assets: { "/": { type: "text/html", body: "" } },
    env,
    shellIntegration,
    log: () => {},
  });
}

/** Connects a window, runs `echo hi` at the prompt, returns the output. */
async function sessionTranscript(
  server: ReturnType<typeof startServer>,
  waitForPrompt: (out: string) => boolean,
): Promise<{ out: string; dirs: Map<string, number> }> {
  const c = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
  await c.opened;
  c.send({ type: "hello", key: server.key, cols: 100, rows: 30 });
  try {
    await c.until(() => waitForPrompt(c.text), "the first prompt", TIMEOUT_MS);
    // The session's temp files while the shell runs.
    const dirs = new Map<string, number>();
    for (const e of Deno.readDirSync(tmpDir())) {
      if (!e.name.startsWith("domterm-shell-")) continue;
      const path = join(tmpDir(), e.name);
      dirs.set(path, Deno.statSync(path).mode! & 0o777);
    }
    c.input("echo h''i\r");
    await c.until(
      () => /\nhi\n[\s\S]*custom> /.test(plain(c.text)),
      "the output and the next prompt",
      TIMEOUT_MS,
    );
    return { out: c.text, dirs };
  } finally {
    await c.close();
    await server.shutdown();
  }
}

function tmpDir(): string {
  return Deno.env.get("TMPDIR") ?? "/tmp";
}

Deno.test("session: bash is started with integration; a custom PS1 is shown unchanged", async () => {
  const t = await tempRoot();
  try {
    await writeUserConfig("bash", t.home);
    const before = new Set(Deno.readDirSync(tmpDir()).map((e) => e.name));
    const server = serveShell("bash", baseEnv(t.home));
    const { out, dirs } = await sessionTranscript(
      server,
      (o) => o.includes(MARK_B),
    );
    const ours = [...dirs.keys()].filter((d) =>
      !before.has(d.slice(tmpDir().length + 1))
    );
    assertEquals(ours.length, 1, "one private temp dir for the session");
    assertEquals(dirs.get(ours[0]), 0o700);
    const found = marks(out).map((m) => m.body.replace(/;aid=\d+/, ""));
    assertEquals(
      found.filter((b) => b.startsWith("133;")),
      ["133;A;cl=m", "133;B", "133;C", "133;D;0", "133;A;cl=m", "133;B"],
    );
    // The prompt between A and B is the user's, unchanged.
    const all = marks(out);
    const a = all.find((m) => m.body.startsWith("133;A"))!;
    const b = all.find((m) => m.body === "133;B")!;
    assertEquals(plain(out.slice(a.end, b.start)), "custom> ");
    // The files are gone once the session has ended.
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      try {
        Deno.statSync(ours[0]);
        await new Promise((r) => setTimeout(r, 100));
      } catch {
        gone = true;
      }
    }
    assert(gone, `${ours[0]} removed after the session`);
  } finally {
    await t.dispose();
  }
});

Deno.test("session: with shell integration off, no marks and the custom PS1 is shown", async () => {
  const t = await tempRoot();
  try {
    await writeUserConfig("bash", t.home);
    const server = serveShell("bash", baseEnv(t.home), false);
    const { out } = await sessionTranscript(
      server,
      (o) => plain(o).includes("custom> "),
    );
    assert(!out.includes(`${ESC}]133;`), `no OSC 133: ${show(out)}`);
    assert(!out.includes(`${ESC}]7;`), `no OSC 7: ${show(out)}`);
    assertMatch(plain(out), /custom> echo h''i\n/);
  } finally {
    await t.dispose();
  }
});

Deno.test("session: zsh and fish sessions get integration too", async () => {
  for (const kind of ["zsh", "fish"] as const) {
    requireShell(kind);
    const t = await tempRoot();
    try {
      await writeUserConfig(kind, t.home);
      const server = serveShell(kind, baseEnv(t.home));
      const { out } = await sessionTranscript(
        server,
        (o) => o.includes(MARK_B),
      );
      const found = marks(out).map((m) => m.body.replace(/;aid=\d+/, ""))
        .filter((b) => b.startsWith("133;"));
      assertEquals(
        found,
        ["133;A;cl=m", "133;B", "133;C", "133;D;0", "133;A;cl=m", "133;B"],
        kind,
      );
    } finally {
      await t.dispose();
    }
  }
});

Deno.test("writeShellScripts: the three scripts, private, rewritten in place", async () => {
  const t = await tempRoot();
  try {
    const dir = writeShellScripts(t.root);
    assertEquals(dir, join(t.root, "shell"));
    assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
    for (const kind of ["bash", "zsh", "fish"] as const) {
      const path = join(dir, SCRIPT_FILES[kind]);
      assertEquals(Deno.readTextFileSync(path), integrationScript(kind));
      assertEquals(Deno.statSync(path).mode! & 0o777, 0o600, path);
    }
    // A second server start finds the files there and replaces them.
    Deno.writeTextFileSync(join(dir, SCRIPT_FILES.bash), "stale");
    writeShellScripts(t.root);
    assertEquals(
      Deno.readTextFileSync(join(dir, SCRIPT_FILES.bash)),
      integrationScript("bash"),
    );
    assertEquals(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["bash.sh", "fish.fish", "zsh.zsh"],
    );
  } finally {
    await t.dispose();
  }
});

Deno.test("session: a bash started inside the session loads the scripts from its .bashrc; its commands nest in the outer command", async () => {
  const t = await tempRoot();
  try {
    const scripts = writeShellScripts(t.root);
    await Deno.writeTextFile(
      join(t.home, ".bashrc"),
      [
        "PS1='custom> '",
        "set -u",
        // The one-liner of docs/shell-integration.md.
        `[ -r "\${DOMTERM_SHELL_SCRIPTS-}/bash.sh" ] && . "$DOMTERM_SHELL_SCRIPTS/bash.sh"`,
        "",
      ].join("\n"),
    );
    const server = serveShell("bash", {
      ...baseEnv(t.home),
      DOMTERM_SHELL_SCRIPTS: scripts,
    });
    const c = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
    await c.opened;
    c.send({ type: "hello", key: server.key, cols: 100, rows: 30 });
    const prompts = () => count(c.text, MARK_B);
    try {
      await c.until(() => prompts() === 1, "the outer prompt", TIMEOUT_MS);
      c.input("bash\r");
      await c.until(() => prompts() === 2, "the inner prompt", TIMEOUT_MS);
      c.input("echo in''ner\r");
      await c.until(
        () => prompts() === 3,
        "the inner prompt again",
        TIMEOUT_MS,
      );
      c.input("exit\r");
      await c.until(
        () => prompts() === 4,
        "the outer prompt again",
        TIMEOUT_MS,
      );
    } finally {
      await c.close();
      await server.shutdown();
    }
    const out = c.text;
    // Each prompt is marked once: the outer shell's .bashrc line and
    // domterm's own copy do not both load the script.
    const aids = marks(out).filter((m) => m.body.startsWith("133;A"))
      .map((m) => /aid=(\d+)/.exec(m.body)?.[1]);
    assertEquals(aids.length, 4, show(out));
    assertEquals(aids[0], aids[3], "the outer shell's prompts");
    assertEquals(aids[1], aids[2], "the inner shell's prompts");
    assert(aids[0] !== aids[1], `two shells: ${aids}`);

    const { term } = makeCoreTerminal(100, 30, 1000);
    term.write(out);
    const groups = deriveCommandGroups(term.normalBuffer);
    const text = (g: CommandGroup) =>
      g.input === null
        ? ""
        : term.normalBuffer.getLine(g.input.line).toString(true, g.input.x);

    const top = groups.filter((g) => g.parent === null);
    assertEquals(top.map(text), ["bash", ""], "the outer shell's commands");
    assertEquals(
      top[0].children.map(text),
      ["echo in''ner", "exit"],
      "the inner shell's commands are inside `bash`",
    );
    assertEquals(top[0].exitCode, 0);
    assertEquals(top[0].children[0].exitCode, 0);
  } finally {
    await t.dispose();
  }
});

Deno.test("cli: --no-shell-integration is parsed; it takes no value", () => {
  assertEquals(parseCli(["--no-shell-integration"]).noShellIntegration, true);
  assertEquals(parseCli([]).noShellIntegration, false);
  let err = "";
  try {
    parseCli(["--no-shell-integration=1"]);
  } catch (e) {
    err = (e as Error).message;
  }
  assertMatch(err, /takes no value/);
});

Deno.test("domterm shell-integration prints each script; bad names exit 2", async () => {
  for (const kind of ["bash", "zsh", "fish"] as const) {
    const r = await runDomterm(["shell-integration", kind]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, integrationScript(kind));
  }
  const bad = await runDomterm(["shell-integration", "tcsh"]);
  assertEquals(bad.code, 2);
  assertMatch(bad.stderr, /no integration script for 'tcsh'/);
  const none = await runDomterm(["shell-integration"]);
  assertEquals(none.code, 2);
  assertMatch(none.stderr, /which shell/);
});

Deno.test("domterm shell-integration bash: sourcing the printed script in bash marks prompts", async () => {
  const t = await tempRoot();
  let term: Terminal | null = null;
  try {
    const r = await runDomterm(["shell-integration", "bash"]);
    const script = join(t.home, "from-cli.bash");
    await Deno.writeTextFile(script, r.stdout);
    await Deno.writeTextFile(
      join(t.home, ".bashrc"),
      `PS1='custom> '\n. '${script}'\n`,
    );
    term = Terminal.start({
      command: "bash",
      args: ["-i"],
      env: baseEnv(t.home),
      cleanup: [],
    }, t.home);
    await term.waitFor((o) => o.includes(MARK_B), "a marked prompt");
    assertMatch(term.out, /\x1b\]133;A;aid=\d+;cl=m\x1b\\custom> \x1b\]133;B/);
  } finally {
    await term?.close();
    await t.dispose();
  }
});
