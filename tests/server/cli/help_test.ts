/**
 * Generated help and the dispatch of `domterm ARGS`, run as a real
 * process: `--help`, `help CMD`, `CMD --help`, exit statuses and hints.
 */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import { commandHelp, mainHelp, usageLine } from "../../../server/cli/help.ts";
import { COMMANDS, MAIN, optionsOf } from "../../../server/cli/table.ts";

import { runDomterm as run } from "../../run_domterm.ts";

Deno.test("cli help: --help names every main option and every command", () => {
  const help = mainHelp();
  for (const o of MAIN.options) assert(help.includes(`--${o.name}`), o.name);
  for (const c of COMMANDS) {
    assert(help.includes(`\n  ${c.name}`), `--help lists ${c.name}`);
  }
  for (const line of help.split("\n")) {
    assert(line.length <= 80, `short line: ${line}`);
  }
});

Deno.test("cli help: each command's help shows its usage, options and choices", () => {
  for (const c of COMMANDS) {
    const help = commandHelp(c);
    assert(help.startsWith(`Usage: ${usageLine(c)}\n`), c.name);
    for (const o of optionsOf(c)) {
      assert(help.includes(`--${o.name}`), `${c.name} --${o.name}`);
    }
    for (const op of c.operands) {
      assert(usageLine(c).includes(op.name), `${c.name} ${op.name}`);
      for (const v of op.choices ?? []) assert(help.includes(v), v);
    }
  }
  assertEquals(
    usageLine(COMMANDS.find((c) => c.name === "save")!),
    "domterm save [N|NAME] FILE",
  );
  assertEquals(
    usageLine(COMMANDS.find((c) => c.name === "new")!),
    "domterm new [--name NAME] [--tab] [--pane[=SIDE]] [--window W] [--no-browser] [--browser B] [-- command...]",
  );
});

Deno.test("cli dispatch: help forms, typos and exit statuses", async () => {
  const [top, helpCmd, cmdHelp, shortHelp, helpNone, typo, badHelp, version] =
    await Promise.all([
      run(["--help"]),
      run(["help", "imgcat"]),
      run(["imgcat", "--help"]),
      run(["imgcat", "-h", "--width", "x"]),
      run(["help"]),
      run(["atach", "1"]),
      run(["help", "lsit"]),
      run(["-V"]),
    ]);
  assertEquals(top.code, 0);
  assertEquals(top.stdout.trimEnd(), mainHelp().trimEnd());
  assertEquals(helpNone.stdout, top.stdout);
  assertEquals(helpCmd.code, 0);
  assertMatch(
    helpCmd.stdout,
    /^Usage: domterm imgcat \[--force\] \[--width W\]/,
  );
  assertMatch(helpCmd.stdout, /--alt TEXT/);
  assertEquals(cmdHelp.stdout, helpCmd.stdout);
  // --help wins over a bad value after it, as before.
  assertEquals(shortHelp.code, 0);
  assertEquals(shortHelp.stdout, helpCmd.stdout);
  assertEquals(typo.code, 2);
  assertEquals(
    typo.stderr,
    "domterm: unknown command 'atach' (did you mean 'attach'?)\nTry 'domterm --help' for more information.\n",
  );
  assertEquals(badHelp.code, 2);
  assertMatch(
    badHelp.stderr,
    /^domterm help: no command 'lsit' \(did you mean 'list'\?\)\n/,
  );
  assertEquals(version.code, 0);
  assertMatch(version.stdout, /^domterm \d+\.\d+\.\d+\n$/);
});

Deno.test("cli dispatch: a subcommand's usage error names it, shows its usage and exits 2", async () => {
  const r = await run(["input-mode", "fast"]);
  assertEquals(r.code, 2);
  assertEquals(
    r.stderr,
    "domterm input-mode: unknown input mode 'fast': auto, char, line or pipe\n" +
      "Usage: domterm input-mode MODE [N|NAME]\n" +
      "Try 'domterm --help' for more information.\n",
  );
  assertEquals(r.stdout, "");
});
