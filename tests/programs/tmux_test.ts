/**
 * tmux through a real PTY (tmux is itself a terminal emulator that redraws
 * its panes with scroll regions, cursor movement and line drawing): split
 * into panes, run a command in each. The layout was checked
 * by hand: border column, junction, each pane's output in its own cells.
 */
import assert from "node:assert/strict";
import { type ProgramSession, withProgram } from "./harness.ts";

const PREFIX = "\x02"; // Ctrl-B

/** Column `x` of every row in rows from..to (inclusive). */
function column(s: ProgramSession, x: number, from: number, to: number) {
  return s.lines().slice(from, to + 1).map((l) => l[x] ?? " ").join("");
}

Deno.test("tmux: split panes, a command in each, status line", async () => {
  await withProgram({ command: "tmux", args: ["new-session"] }, async (s) => {
    try {
      await splitAndRun(s);
    } finally {
      // The tmux server is a daemon outside the PTY's process group: stop it
      // even when the test failed half way (it is gone already otherwise).
      await new Deno.Command("tmux", {
        args: ["kill-server"],
        env: { TMUX_TMPDIR: s.home },
        stdout: "null",
        stderr: "null",
      }).output();
    }
  });
});

async function splitAndRun(s: ProgramSession): Promise<void> {
  await s.waitForScreen(
    (s) => s.lines()[0] === "$" && /^\[0\] 0:bash\*/.test(s.lines()[23]),
    undefined,
    "shell and status line",
  );
  // Vertical split: left pane 40 columns, border, right pane 39 columns.
  await s.send(PREFIX + "%");
  await s.waitForScreen(
    (s) => column(s, 40, 0, 22) === "│".repeat(23),
    undefined,
    "the pane border",
  );
  await s.waitForScreen(
    (s) => s.cursor[0] === 43 && s.cursor[1] === 0,
    undefined,
    "prompt in the right pane",
  );
  await s.send("echo right; seq 1 30 | tail -n 3\r");
  await s.waitForScreen(
    (s) =>
      s.lines()[3].endsWith("│29") && s.lines()[4].endsWith("│30") &&
      s.cursor[0] === 43 && s.cursor[1] === 5,
    undefined,
    "output in the right pane, then its prompt",
  );
  // Back to the left pane and split it horizontally, this time with tmux
  // commands (a second prefix key right after a pane switch was flaky under
  // load: tmux still saw the prefix table); then run something below.
  await s.send("tmux selectp -L\\; splitw -v\r");
  await s.waitForScreen(
    (s) => s.lines()[11].startsWith("─".repeat(40)),
    undefined,
    "the horizontal border",
  );
  await s.waitForScreen(
    (s) => s.cursor[0] === 2 && s.cursor[1] === 12,
    undefined,
    "prompt in the lower left pane",
  );
  await s.send("echo lower-left\r");
  await s.waitForScreen(
    (s) =>
      s.lines()[13] === "lower-left" + " ".repeat(30) + "│" &&
      s.lines()[14].startsWith("$ "),
    undefined,
    "output in the lower left pane",
  );
  const l = s.lines();
  assert.equal(
    l[0],
    "$" + " ".repeat(39) + "│$ echo right; seq 1 30 | tail -n 3",
  );
  assert.equal(l[1].slice(40), "│right");
  assert.equal(l[5].slice(40), "│$ tmux selectp -L\\; splitw -v");
  assert.equal(l[12].slice(0, 17), "$ echo lower-left");
  assert.match(l[23], /^\[0\] 0:bash\*/);
  // Panes keep their content apart: nothing leaked across the border.
  assert.equal(column(s, 40, 0, 22), "│".repeat(11) + "┤" + "│".repeat(11));

  await s.send("tmux kill-server\r");
  await s.waitForExit();
}
