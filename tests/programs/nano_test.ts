/**
 * nano through a real PTY: type two lines, cut one with Ctrl-K and paste it
 * below the other with Ctrl-U, save with Ctrl-O, quit with Ctrl-X; the file on disk
 * holds what the screen showed.
 */
import assert from "node:assert/strict";
import { A_INVERSE } from "../../core/model/cell.ts";
import { withProgram } from "./harness.ts";

Deno.test("nano: edit, cut and paste, save, quit", async () => {
  await withProgram({ command: "nano", args: ["n.txt"] }, async (s) => {
    await s.waitForScreen(
      (s) =>
        /^ {2}GNU nano [\d.]+ +n\.txt$/.test(s.lines()[0]) &&
        s.lines()[22].startsWith("^G Help") &&
        s.lines()[23].startsWith("^X Exit"),
      undefined,
      "the editor",
    );
    // The title bar and the shortcut keys are in reverse video.
    assert.ok(s.attr(0, 0) & A_INVERSE, "title bar");
    assert.ok(s.attr(0, 22) & A_INVERSE, "^G");

    await s.send("first line\rsecond line");
    await s.waitForScreen(
      (s) =>
        s.lines()[1] === "first line" && s.lines()[2] === "second line" &&
        s.lines()[0].endsWith("n.txt *"),
      undefined,
      "typed text, modified",
    );
    assert.deepEqual(s.cursor, [11, 2]);

    // Up, Ctrl-K cuts "first line"; Ctrl-U pastes it below "second line".
    await s.key("ArrowUp");
    await s.key("k", { ctrl: true });
    await s.waitForScreen(
      (s) => s.lines()[1] === "second line" && s.lines()[2] === "",
      undefined,
      "line cut",
    );
    await s.key("ArrowDown");
    await s.key("u", { ctrl: true });
    await s.waitForScreen(
      (s) => s.lines()[1] === "second line" && s.lines()[2] === "first line",
      undefined,
      "line pasted",
    );

    await s.key("o", { ctrl: true });
    await s.waitForScreen(/^File Name to Write: n\.txt$/m, undefined, "save");
    await s.key("Enter");
    await s.waitForScreen(/\[ Wrote 2 lines \]/, undefined, "saved");
    assert.equal(
      Deno.readTextFileSync(`${s.home}/n.txt`),
      "second line\nfirst line\n",
    );
    await s.key("x", { ctrl: true });
    await s.waitForExit();
  });
});
