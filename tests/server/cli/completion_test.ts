/**
 * `domterm completion bash|zsh|fish`: each script, printed by the real
 * CLI, loaded into the real shell and asked to complete command lines.
 */
import { assert, assertEquals } from "../../assert.ts";
import { join } from "node:path";
import { privateRuntimeEnv } from "../../runtime_dir.ts";

const MAIN_TS = new URL("../../../main.ts", import.meta.url).pathname;
const ZSH_DRIVER =
  new URL("./fixtures/zsh_complete.zsh", import.meta.url).pathname;

/** stdout of a program, failing with its stderr (or a clear word when it is missing). */
async function output(cmd: string, args: string[]): Promise<string> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(cmd, {
      args,
      stdin: "null",
      env: privateRuntimeEnv(),
    }).output();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(`${cmd} is missing: install it (Debian package ${cmd})`);
    }
    throw e;
  }
  const dec = new TextDecoder();
  assertEquals(
    out.code,
    0,
    `${cmd} ${args.join(" ")}: ${dec.decode(out.stderr)}`,
  );
  return dec.decode(out.stdout);
}

/** A temp directory with the script of `shell` in it, and a saved-session file. */
async function setUp(shell: string, file: string) {
  const dir = await Deno.makeTempDir({ prefix: "domterm-completion-" });
  const script = await output(Deno.execPath(), [
    "run",
    "-A",
    MAIN_TS,
    "completion",
    shell,
  ]);
  const path = join(dir, file);
  await Deno.writeTextFile(path, script);
  await Deno.writeTextFile(join(dir, "saved-session.html"), "<!DOCTYPE html>");
  return { dir, path };
}

/** Command lines and the one completion each must give (files: in the temp dir). */
function cases(dir: string): [string, string][] {
  return [
    ["domterm at", "attach"],
    ["domterm input-mode l", "line"],
    ["domterm --scro", "--scrollback"],
    ["domterm --browser chromi", "chromium"],
    ["domterm --scrollback unl", "unlimited"],
    ["domterm shell-integration z", "zsh"],
    ["domterm imgcat --wi", "--width"],
    ["domterm completion fi", "fish"],
    ["domterm help install-d", "install-desktop"],
    ["domterm attach --no-b", "--no-browser"],
    [`domterm view-saved ${dir}/saved-s`, `${dir}/saved-session.html`],
  ];
}

Deno.test("completion: bash completes commands, options, their values and files", async () => {
  const { dir, path } = await setUp("bash", "domterm.bash");
  try {
    const all = cases(dir);
    // One bash: for each line, run the completion function as bash would.
    const script = [
      `source ${JSON.stringify(path)}`,
      "complete -p domterm",
      't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _domterm; printf \'%s\\n\' "${COMPREPLY[*]}"; }',
      ...all.map(([line]) => `t ${line}`),
      "t domterm ''",
      "t domterm input-mode ''",
      "t domterm new -- bas",
    ].join("\n");
    const lines =
      (await output("bash", ["--norc", "--noprofile", "-c", script]))
        .split("\n");
    assertEquals(lines[0], "complete -F _domterm domterm");
    all.forEach(([line, want], i) => {
      assertEquals(lines[i + 1], want, line);
    });
    const commands = lines[all.length + 1].split(" ");
    for (
      const c of [
        "list",
        "attach",
        "new",
        "kill-server",
        "completion",
        "install-desktop",
      ]
    ) {
      assert(commands.includes(c), `commands offer ${c}`);
    }
    assertEquals(lines[all.length + 2], "auto char line pipe");
    assert(
      lines[all.length + 3].split(" ").includes("bash"),
      "a command after --",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("completion: zsh completes the same lines in an interactive zsh", async () => {
  const { dir } = await setUp("zsh", "_domterm");
  try {
    const all = cases(dir);
    const out = await output("zsh", [
      "-f",
      ZSH_DRIVER,
      dir,
      ...all.map(([line]) => line),
    ]);
    const lines = out.split("\n").filter((l) => l !== "");
    assertEquals(lines.length, all.length, out);
    all.forEach(([line, want], i) => {
      // zsh completes the word in the line and adds a space after it.
      const words = lines[i].trim().split(" ");
      assertEquals(words.at(-1), want, `${line} -> ${lines[i]}`);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("completion: fish completes the same lines", async () => {
  const { dir, path } = await setUp("fish", "domterm.fish");
  try {
    const all = cases(dir);
    const script = [
      `source ${JSON.stringify(path)}`,
      ...all.map(([line]) => `complete -C${JSON.stringify(line)}; echo ---`),
    ].join("\n");
    const out = await output("fish", ["--no-config", "-c", script]);
    const blocks = out.split("---\n").slice(0, all.length);
    all.forEach(([line, want], i) => {
      const offered = blocks[i].split("\n").filter(Boolean).map((l) =>
        l.split("\t")[0]
      );
      assertEquals(offered, [want], line);
    });
    const list = await output("fish", [
      "--no-config",
      "-c",
      `source ${JSON.stringify(path)}; complete -C"domterm "`,
    ]);
    assert(list.includes("attach\topen a window on a session"), list);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
