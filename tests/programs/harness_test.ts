/** The program harness itself: clear failures, replies reach the program. */
import assert from "node:assert/strict";
import { ProgramSession, withProgram } from "./harness.ts";

Deno.test("harness: a missing program fails saying what is missing", () => {
  assert.throws(
    () => ProgramSession.start({ command: "no-such-program-domterm" }),
    /program 'no-such-program-domterm' is missing/,
  );
});

Deno.test("harness: a timeout reports the screen", async () => {
  await withProgram(
    { command: "bash", args: ["-c", "printf 'hello there'; sleep 30"] },
    async (s) => {
      await s.waitForScreen("hello there");
      await assert.rejects(
        s.waitForScreen("never shown", 300),
        (e: Error) =>
          /timeout after 300 ms waiting for never shown/.test(e.message) &&
          e.message.includes(" 0|hello there"),
      );
    },
  );
});

Deno.test("harness: the terminal's replies reach the program (CPR)", async () => {
  // The shell asks for the cursor position and prints the answer it read.
  const script = "printf 'abc\\033[6n'; IFS= read -rsd R reply; " +
    "printf '\\ngot %q\\n' \"$reply\"; sleep 30";
  await withProgram(
    { command: "bash", args: ["-c", script] },
    async (s) => {
      await s.waitForScreen("got $'\\E[1;4'", undefined, "the CPR answer");
    },
  );
});

Deno.test("harness: clean environment", async () => {
  await withProgram(
    {
      command: "bash",
      args: ["-c", 'echo "[$TERM|$LANG|$HOME|$EDITOR]"; sleep 30'],
    },
    async (s) => {
      await s.waitForScreen(`[xterm-256color|C.UTF-8|${s.home}|]`);
    },
  );
});
