/**
 * Midnight Commander (without its subshell, `mc -u`) through a real PTY:
 * the two panels' frames, the file list of HOME, the selection bar moving
 * with the arrow keys, entering a directory, mouse tracking on, F10 to quit.
 * Times, dates and disk sizes change, so only names and frames are checked.
 */
import assert from "node:assert/strict";
import { type ProgramSession, withProgram } from "./harness.ts";

/** The Name column of the left panel (rows 3..), trailing blanks trimmed. */
function leftNames(s: ProgramSession, n: number): string[] {
  return s.lines().slice(3, 3 + n).map((l) => l.slice(1, 18).trimEnd());
}

Deno.test("mc: panels, selection, directories, quit", async () => {
  await withProgram({
    command: "mc",
    args: ["-u"],
    files: { "dir1/a.txt": "hello\n", "b.txt": "x\n" },
  }, async (s) => {
    await s.waitForScreen(
      (s) =>
        /^ 1Help .*10Quit$/.test(s.lines()[23]) &&
        s.lines()[0].includes("Right") && s.lines()[20].endsWith("┘") &&
        leftNames(s, 12)[11] === " b.txt",
      undefined,
      "mc's panels",
    );
    const l = s.lines();
    assert.match(l[0], /^ {2}Left {5}File {5}Command {5}Options {5}Right$/);
    // Two framed panels of 40 columns, side by side.
    assert.match(l[1], /^┌<─ ~ ─+\.\[\^\]>┐┌<─ ~ ─+\.\[\^\]>┐$/);
    assert.match(l[2], /^│\.n +Name +│ Size +│Modify time ││\.n +Name/);
    for (let y = 3; y <= 17; y++) {
      for (const x of [0, 18, 26, 39, 40, 79]) {
        assert.equal(l[y][x], "│", `frame at (${x},${y})`);
      }
    }
    assert.equal(l[18], "├" + "─".repeat(38) + "┤├" + "─".repeat(38) + "┤");
    assert.match(l[20], /^└─+ .* ─┘└─+ .* ─┘$/);
    assert.deepEqual(leftNames(s, 12), [
      "/..",
      "/.cache",
      "/.config",
      "/.local",
      "/dir1",
      " .bash_profile",
      " .bashrc",
      " .inputrc",
      " .nanorc",
      " .tmux.conf",
      " .vimrc",
      " b.txt",
    ]);
    assert.notEqual(s.term.modes.mouseTracking, 0, "mc asked for the mouse");

    // The selection bar (a background colour) starts on "/.." and moves.
    const bar = (y: number) => s.bg(2, y);
    assert.notEqual(bar(3), bar(4), "bar on the first row");
    await s.key("ArrowDown");
    await s.waitForScreen(
      (s) => s.lines()[19].startsWith("│/.cache "),
      undefined,
      "mini status follows",
    );
    assert.notEqual(bar(4), bar(3), "bar moved to row 4");
    assert.equal(bar(3), bar(5), "row 3 back to normal");

    // Down to dir1 and Enter: the left panel shows its contents.
    await s.key("ArrowDown", {}, 3);
    await s.key("Enter");
    await s.waitForScreen(
      (s) =>
        /^┌<─ ~\/dir1 ─/.test(s.lines()[1]) &&
        leftNames(s, 3).join("|") === "/..| a.txt|",
      undefined,
      "inside dir1",
    );
    // The right panel did not change.
    assert.match(s.lines()[7], /│\/dir1 +│ +\d+│.{12}│$/);

    await s.key("F10");
    await s.waitForExit();
    assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
    assert.equal(s.term.modes.mouseTracking, 0, "mouse tracking off again");
  });
});
