/**
 * Emacs, Neovim and the modern TUIs (fzf, ncdu, btop) through a real PTY
 * into the headless core, checked by their screens: what a user of xterm
 * sees, they must see here.
 */
import assert from "node:assert/strict";
import { rgbColor, underlineStyle } from "../../core/model/cell.ts";
import { type ProgramSession, withProgram } from "./harness.ts";

/** Index of the first screen row matching `re`, or -1. */
function rowOf(s: ProgramSession, re: RegExp): number {
  return s.lines().findIndex((l) => re.test(l));
}
/** Waits until some row matches `re`. */
function waitRow(s: ProgramSession, re: RegExp, what: string): Promise<void> {
  return s.waitForScreen((s) => rowOf(s, re) >= 0, undefined, what);
}

const NOTES = { "notes.txt": "alpha line\nbeta line\n" };

Deno.test("emacs -nw: a file, C-x 2, M-x shell, the menu bar with F10", async () => {
  await withProgram(
    { command: "emacs", args: ["-nw", "-Q", "notes.txt"], files: NOTES },
    async (s) => {
      await s.waitForScreen(
        (s) =>
          /^File Edit Options Buffers Tools Text Help$/.test(s.lines()[0]) &&
          s.lines()[1] === "alpha line" &&
          /^-UU-:----F1 +notes\.txt +All L1 +\(Text\) -+$/.test(s.lines()[22]),
        undefined,
        "emacs with notes.txt",
      );
      // C-x 2: two windows on the file, each with its mode line.
      await s.send("\x182");
      await s.waitForScreen(
        (s) =>
          s.lines().filter((l) => /^-UU-:----F1 +notes\.txt /.test(l))
              .length === 2 && s.lines()[12] === "alpha line",
        undefined,
        "two windows",
      );
      // M-x shell: a shell in the upper window that runs commands.
      await s.send("\x1bxshell\r");
      await waitRow(
        s,
        /^-UUU:\*\*--F1 +\*shell\* +All L1 +\(Shell:run\)/,
        "*shell*",
      );
      await s.send("echo from-$((6*7))\r");
      await waitRow(s, /^from-42$/, "the shell's output");
      // F10 opens the File menu of the menu bar.
      await s.key("F10");
      await waitRow(s, /^ Visit New File\.\.\. +C-x C-f/, "the File menu");
      assert.ok(rowOf(s, /^ New Window Below +C-x 2/) > 0, "menu items");
      // C-g closes it.
      await s.send("\x07");
      try {
        await s.waitForScreen(
          (s) => rowOf(s, /Visit New File/) < 0,
          3000,
          "menu closed",
        );
      } catch {
        // Seen on a loaded machine: the menu stays on the screen. C-l makes
        // emacs repaint the whole frame (recenter-redisplay is on for ttys);
        // if the menu goes then, emacs had closed it and skipped repainting.
        await s.send("\x0c");
        await s.waitForScreen(
          (s) => rowOf(s, /Visit New File/) < 0,
          undefined,
          "menu closed (after C-l)",
        );
      }
      await s.send("\x18\x03");
      await waitRow(
        s,
        /Active processes exist; kill them and exit anyway\?/,
        "exit question",
      );
      await s.send("yes\r");
      await s.waitForExit();
      assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
    },
  );
});

/**
 * A terminfo directory with xterm-256color plus Smulx (styled underlines),
 * which is how a user tells Neovim 0.7 that the terminal has undercurl.
 */
async function terminfoWithSmulx(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "domterm-terminfo-" });
  const src = await new Deno.Command("infocmp", {
    args: ["-x", "xterm-256color"],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(src.stdout).trimEnd() +
    "\n\tSmulx=\\E[4:%p1%dm,\n";
  await Deno.writeTextFile(`${dir}/src`, text);
  const tic = await new Deno.Command("tic", {
    args: ["-x", "-o", dir, `${dir}/src`],
    stderr: "piped",
  }).output();
  assert.ok(tic.success, new TextDecoder().decode(tic.stderr));
  return dir;
}

Deno.test("neovim: true colour, undercurl, :terminal", async () => {
  const terminfo = await terminfoWithSmulx();
  try {
    await withProgram(
      {
        command: "nvim",
        args: ["--clean", "notes.txt"],
        files: NOTES,
        env: { TERMINFO: terminfo },
      },
      async (s) => {
        await s.waitForScreen(
          (s) =>
            s.lines()[0] === "alpha line" && /^notes\.txt /.test(s.lines()[22]),
          undefined,
          "nvim with notes.txt",
        );
        await s.send(
          ":set termguicolors\r:hi Normal guibg=#102030 guifg=#e0d0c0\r" +
            ":hi Err gui=undercurl guisp=#ff0000\r:match Err /beta/\r",
        );
        await s.waitForScreen(
          (s) =>
            s.bg(0, 0) === rgbColor(0x10, 0x20, 0x30) &&
            s.fg(0, 0) === rgbColor(0xe0, 0xd0, 0xc0) &&
            underlineStyle(s.attr(0, 1)) === 3 &&
            underlineStyle(s.attr(5, 1)) === 0,
          undefined,
          "true colour and undercurl",
        );
        await s.send(":terminal\r");
        await waitRow(s, /^term:\/\/.*bash/, "a terminal buffer");
        await s.send("iecho hi-from-$((6*7))\r");
        await waitRow(s, /^hi-from-42$/, "the terminal's output");
        await s.send("exit\r");
        await waitRow(s, /^\[Process exited 0\]$/, "the shell ended");
        await s.send("\r");
        await waitRow(s, /^notes\.txt /, "back to the file");
        await s.send("\x1b:qa!\r");
        await s.waitForExit();
        assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
      },
    );
  } finally {
    await Deno.remove(terminfo, { recursive: true });
  }
});

Deno.test("fzf: list, filter, pick", async () => {
  await withProgram(
    {
      command: "bash",
      args: [
        "-c",
        "echo \"picked: $(printf 'apple\\nbanana\\ncherry\\n' | fzf)\"; sleep 0.2",
      ],
    },
    async (s) => {
      await s.waitForScreen(
        (s) =>
          s.lines()[23] === ">" && /^ {2}3\/3 ─+$/.test(s.lines()[22]) &&
          s.lines()[21] === "> apple" && s.lines()[20] === "  banana",
        undefined,
        "fzf's list",
      );
      await s.send("an");
      await s.waitForScreen(
        (s) =>
          s.lines()[23] === "> an" && /^ {2}1\/3 ─+$/.test(s.lines()[22]) &&
          s.lines()[21] === "> banana",
        undefined,
        "filtered",
      );
      await s.send("\r");
      await waitRow(s, /^picked: banana$/, "the pick");
      await s.waitForExit();
    },
  );
});

Deno.test("ncdu: sizes, bars, quit", async () => {
  await withProgram(
    {
      command: "ncdu",
      args: ["-x", "."],
      files: { "big/a.txt": "x".repeat(50_000), "small/b.txt": "y" },
    },
    async (s) => {
      await s.waitForScreen(
        (s) =>
          /^ncdu [\d.]+ ~ Use the arrow keys to navigate, press \? for help$/
            .test(s.lines()[0]) &&
          /^--- \/.* -+$/.test(s.lines()[1]) &&
          /^ +[\d.]+ KiB \[#{11}\] \/big$/.test(s.lines()[2]) &&
          /^ Total disk usage: .* Items: \d+$/.test(s.lines()[23]),
        undefined,
        "ncdu's listing",
      );
      assert.ok(rowOf(s, /\[#? +\] \/small$/) > 2, "small below big");
      await s.send("q");
      await s.waitForExit();
      assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
    },
  );
});

Deno.test("btop: boxes line up, quit", async () => {
  await withProgram({ command: "btop", cols: 100, rows: 30 }, async (s) => {
    await s.waitForScreen(
      (s) => {
        const l = s.lines();
        return /^╭.*cpu.*╮$/.test(l[0]) && rowOf(s, /mem.*proc/) > 0 &&
          /^╰.*╯$/.test(l[29]) && /Pid:.*Program:/.test(s.text());
      },
      20_000,
      "btop's boxes",
    );
    // Every row of the screen is exactly 100 cells of box drawing and text.
    const l = s.lines();
    assert.equal([...l[0]].length, 100, "top border fills the width");
    assert.equal([...l[29]].length, 100, "bottom border fills the width");
    await s.send("q");
    await s.waitForExit();
    assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
  });
});
