/**
 * less through a real PTY: search (with highlighted matches), next match,
 * scroll back, end of file. Screens checked against tmux with the same keys.
 */
import assert from "node:assert/strict";
import { A_INVERSE } from "../../core/model/cell.ts";
import { type ProgramSession, withProgram } from "./harness.ts";

const LINES = Array.from(
  { length: 100 },
  (_, i) => `line ${String(i + 1).padStart(3, "0")}`,
);

/** The screen shows file lines from..from+22 and then `prompt`. */
function page(from: number, prompt: string) {
  return (s: ProgramSession) => {
    const l = s.lines();
    return l[23] === prompt &&
      l.slice(0, 23).join("\n") === LINES.slice(from - 1, from + 22).join("\n");
  };
}

Deno.test("less: search, next match, scroll back, end", async () => {
  await withProgram(
    {
      command: "less",
      args: ["f.txt"],
      files: { "f.txt": LINES.join("\n") + "\n" },
    },
    async (s) => {
      await s.waitForScreen(page(1, "f.txt"), undefined, "first page");

      await s.send("/line 05\r");
      await s.waitForScreen(page(50, ":"), undefined, "first match on top");
      // Every visible match is highlighted (standout), the rest is not.
      for (let y = 0; y < 10; y++) {
        assert.ok(s.attr(0, y) & A_INVERSE, `match on row ${y} highlighted`);
        assert.ok(!(s.attr(7, y) & A_INVERSE), `row ${y} after the match`);
      }
      assert.ok(!(s.attr(0, 10) & A_INVERSE), "line 060 is not a match");

      await s.send("n");
      await s.waitForScreen(page(51, ":"), undefined, "next match");

      await s.send("b");
      await s.waitForScreen(page(28, ":"), undefined, "a page back");

      await s.send("G");
      await s.waitForScreen(page(78, "(END)"), undefined, "the end");

      await s.send("q");
      await s.waitForExit();
    },
  );
});
