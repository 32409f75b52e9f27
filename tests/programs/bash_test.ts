/**
 * bash with readline through a real PTY: line editing, history, Ctrl-R
 * reverse search.
 */
import assert from "node:assert/strict";
import { type ProgramSession, withProgram } from "./harness.ts";

/** The last non-blank screen row. */
function lastRow(s: ProgramSession): string {
  const l = s.lines();
  let y = l.length - 1;
  while (y > 0 && l[y] === "") y--;
  return l[y];
}

Deno.test("bash readline: editing, history, reverse search", async () => {
  await withProgram({ command: "bash" }, async (s) => {
    await s.waitForScreen((s) => lastRow(s) === "$", undefined, "the prompt");

    await s.send("echo one\r");
    await s.waitForScreen("one\n$", undefined, "first command ran");
    await s.send("echo two\r");
    await s.waitForScreen("two\n$", undefined, "second command ran");

    // Up twice: the older command comes back; edit it in the middle.
    await s.key("ArrowUp");
    await s.key("ArrowUp");
    await s.waitForScreen((s) => lastRow(s) === "$ echo one", undefined, "up");
    await s.key("ArrowLeft", {}, 3);
    await s.send("very ");
    await s.waitForScreen(
      (s) => lastRow(s) === "$ echo very one" && s.cursor[0] === 12,
      undefined,
      "inserted in the middle",
    );
    // Ctrl-A, Ctrl-K: beginning of line, kill to the end.
    await s.key("a", { ctrl: true });
    await s.waitForScreen((s) => s.cursor[0] === 2, undefined, "Ctrl-A");
    await s.key("k", { ctrl: true });
    await s.waitForScreen((s) => lastRow(s) === "$", undefined, "Ctrl-K");

    // An empty line: the history position goes back to the newest entry.
    await s.key("Enter");
    await s.waitForScreen(
      (s) => s.lines().filter((l) => l === "$").length === 2,
      undefined,
      "empty command line",
    );

    // Ctrl-R finds the newest match.
    await s.key("r", { ctrl: true });
    await s.send("tw");
    await s.waitForScreen(
      (s) => lastRow(s) === "(reverse-i-search)`tw': echo two",
      undefined,
      "reverse search",
    );
    // Enter runs the found command.
    await s.key("Enter");
    await s.waitForScreen(
      (s) => {
        const l = s.lines().filter((x) => x !== "");
        return l.at(-1) === "$" && l.at(-2) === "two" &&
          l.at(-3) === "$ echo two";
      },
      undefined,
      "found command ran",
    );
    const text = s.text();
    assert.equal(text.split("\n").filter((l) => l === "one").length, 1);

    await s.send("exit\r");
    await s.waitForExit();
  });
});
