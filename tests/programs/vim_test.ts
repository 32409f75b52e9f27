/**
 * vim through a real PTY: open a file, scroll, :split, visual mode. The
 * expected screens were checked against the same keys in tmux.
 */
import assert from "node:assert/strict";
import { A_BOLD, A_INVERSE } from "../../core/model/cell.ts";
import { type ProgramSession, withProgram } from "./harness.ts";

const FILE = Array.from(
  { length: 100 },
  (_, i) => `line ${String(i + 1).padStart(3, "0")}\n`,
).join("");

const row = (s: ProgramSession, y: number) => s.lines()[y];

Deno.test("vim: open, scroll, :split, visual selection, quit", async () => {
  await withProgram(
    { command: "vim", args: ["f.txt"], files: { "f.txt": FILE } },
    async (s) => {
      await s.waitForScreen(
        // The whole first state, not just the message: vim may still be
        // drawing when the message line appears.
        (s) =>
          row(s, 23).startsWith('"f.txt" 100L, 900B') &&
          s.cursor[0] === 0 && s.cursor[1] === 0 &&
          s.lines().slice(0, 23).join("\n") ===
            FILE.split("\n").slice(0, 23).join("\n"),
        undefined,
        "the file loaded",
      );
      assert.equal(s.term.buffer.isAlt, true, "vim uses the alternate screen");
      assert.deepEqual(s.lines().slice(0, 23), FILE.split("\n").slice(0, 23));
      assert.deepEqual(s.cursor, [0, 0]);

      // Ctrl-F: one page forward, two lines of context.
      await s.key("f", { ctrl: true });
      await s.waitForScreen(
        (s) => row(s, 0) === "line 022" && row(s, 22) === "line 044",
        undefined,
        "Ctrl-F scrolled a page",
      );

      // 50G puts line 50 in the middle (scrolled from below).
      await s.send("gg50G");
      await s.waitForScreen(
        (s) =>
          row(s, 0) === "line 039" && /50,1\s+49%$/.test(row(s, 23)) &&
          s.cursor[1] === 11,
        undefined,
        "line 50",
      );
      assert.deepEqual(s.cursor, [0, 11]);
      assert.equal(row(s, s.cursor[1]), "line 050");

      // :split: two windows of 11 lines, each with a status line.
      await s.send(":split\r");
      await s.waitForScreen(
        (s) =>
          row(s, 11).startsWith("f.txt") && row(s, 22).startsWith("f.txt") &&
          row(s, 0) === "line 045" && row(s, 12) === "line 046" &&
          s.cursor[1] === 5 && (s.attr(0, 11) & A_BOLD) !== 0,
        undefined,
        "two windows",
      );
      assert.equal(row(s, 0), "line 045");
      assert.equal(row(s, 12), "line 046");
      assert.deepEqual(s.cursor, [0, 5]);
      // The current window's status line is reverse bold, the other reverse.
      assert.equal(s.attr(0, 11) & (A_INVERSE | A_BOLD), A_INVERSE | A_BOLD);
      assert.equal(s.attr(0, 22) & (A_INVERSE | A_BOLD), A_INVERSE);

      // Line-wise visual mode over three lines: those lines are highlighted.
      await s.send("Vjj");
      await s.waitForScreen(
        (s) =>
          row(s, 23).includes("-- VISUAL LINE --") && s.cursor[1] === 7 &&
          (s.bg(3, 7) | s.attr(3, 7)) !== (s.bg(3, 9) | s.attr(3, 9)),
        undefined,
        "visual mode",
      );
      const plain = s.bg(3, 9) | s.attr(3, 9);
      for (const y of [5, 6, 7]) {
        assert.notEqual(s.bg(3, y) | s.attr(3, y), plain, `row ${y} selected`);
      }
      assert.equal(s.bg(3, 4) | s.attr(3, 4), plain, "row 4 not selected");

      await s.send("\x1b:qa!\r");
      await s.waitForExit();
      assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
    },
  );
});
