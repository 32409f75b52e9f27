/**
 * The command line's table and parser (server/cli/): every main option,
 * subcommand options and operands, `--`, errors and typo suggestions.
 */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import { parseCli } from "../../../server/cli.ts";
import { UsageError } from "../../../server/cli/errors.ts";
import { parseCommand, type ParsedArgs } from "../../../server/cli/parse.ts";
import { nearest } from "../../../core/suggest.ts";
import {
  COMMANDS,
  findCommand,
  MAIN,
  optionsOf,
} from "../../../server/cli/table.ts";
import { MAX_SCROLLBACK_LINES } from "../../../core/protocol.ts";

function usageError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert(e instanceof UsageError, `a UsageError, not ${e}`);
    return e.message;
  }
  throw new Error("no UsageError");
}

function cmd(name: string, argv: string[]): ParsedArgs {
  const spec = findCommand(name);
  assert(spec, `command ${name}`);
  return parseCommand(spec, argv);
}

Deno.test("cli parse: every main option, as the old loop read it", () => {
  const cases: [string[], Record<string, unknown>][] = [
    [[], { port: 0, noBrowser: false, browser: undefined, command: [] }],
    [["--port", "8080"], { port: 8080 }],
    [["--port=0"], { port: 0 }],
    [["--port", "65535"], { port: 65535 }],
    [["--browser", "/x/y"], { browser: "/x/y" }],
    [["--browser=chromium"], { browser: "chromium" }],
    [["--no-browser"], { noBrowser: true }],
    [["--file-opener", "code -g %f:%l"], { fileOpener: "code -g %f:%l" }],
    [["--no-shell-integration"], { noShellIntegration: true }],
    [["--scrollback", "500"], { scrollback: 500 }],
    [["--scrollback", "unlimited"], { scrollback: null }],
    [["--scrollback", String(MAX_SCROLLBACK_LINES)], {
      scrollback: MAX_SCROLLBACK_LINES,
    }],
    [[], { scrollback: undefined, detachedTimeout: undefined }],
    [["--detached-timeout", "30"], { detachedTimeout: 30 }],
    [["--detached-timeout", "never"], { detachedTimeout: undefined }],
    [["-h"], { help: true }],
    [["--help"], { help: true }],
    [["-V"], { version: true }],
    [["--version"], { version: true }],
    [["--port", "1", "--port", "2"], { port: 2 }],
    [["--", "vim", "-u", "NONE", "--", "x"], {
      command: ["vim", "-u", "NONE", "--", "x"],
    }],
    [["--no-browser", "--", "--port", "5"], {
      noBrowser: true,
      port: 0,
      command: ["--port", "5"],
    }],
  ];
  for (const [argv, want] of cases) {
    const got = parseCli(argv) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) {
      assertEquals(got[k], v, `${argv.join(" ")}: ${k}`);
    }
  }
});

Deno.test("cli parse: main option mistakes are one-line usage errors", () => {
  const cases: [string[], RegExp][] = [
    [["--frobnicate"], /^unknown option '--frobnicate'$/],
    [["--prot", "1"], /^unknown option '--prot' \(did you mean '--port'\?\)$/],
    [["--no-brwoser"], /did you mean '--no-browser'/],
    [["-x"], /^unknown option '-x'$/],
    [["--port", "http"], /^--port: 'http' is not a port number \(0-65535\)$/],
    [["--port", "65536"], /not a port number/],
    [
      ["--port", "-1"],
      /^option '--port' needs a value \(for one that starts with '-', write --port=-1\)$/,
    ],
    [["--port=-1"], /not a port number/],
    [["--port"], /^option '--port' needs a value$/],
    [["--help=yes"], /^option '--help' takes no value$/],
    [["--no-browser=1"], /takes no value/],
    [["--browser", ""], /--browser needs a name or a path/],
    [["--file-opener", " "], /--file-opener needs a command/],
    [["--scrollback", "lots"], /--scrollback: 'lots' is not a line count/],
    [["--scrollback", String(MAX_SCROLLBACK_LINES + 1)], /not a line count/],
    [["--detached-timeout", "soon"], /is not a number of seconds or 'never'/],
    [
      ["bash"],
      /^unexpected argument 'bash' \(to run a command, put it after '--'\)$/,
    ],
    [["--"], /^'--' must be followed by a command$/],
    [["--no-browser", "--browser", "chrome"], /cannot be used together/],
  ];
  for (const [argv, want] of cases) {
    const msg = usageError(() => parseCli(argv));
    assertMatch(msg, want, argv.join(" "));
    assert(!msg.includes("\n"), `one line: ${msg}`);
  }
});

Deno.test("cli parse: subcommand options, operands and '--'", () => {
  assertEquals(cmd("list", ["--json"]).options.json, true);
  assertEquals(
    cmd("attach", ["3", "--browser", "brave"]).options.browser,
    "brave",
  );
  assertEquals(cmd("attach", ["--no-browser", "work"]).operands, ["work"]);
  const n = cmd("new", ["--name", "w", "--", "vim", "-R"]);
  assertEquals([n.options.name, n.rest], ["w", ["vim", "-R"]]);
  assertEquals(cmd("new", []).rest, undefined);
  assertEquals(cmd("new", ["--"]).rest, []);
  // Without a command to run, '--' only ends the options.
  assertEquals(cmd("html", ["--", "-x", "<b>"]).operands, ["-x", "<b>"]);
  assertEquals(cmd("hcat", ["-"]).operands, ["-"]);
  assertEquals(cmd("save", ["out.html"]).operands, ["out.html"]);
  assertEquals(cmd("save", ["2", "out.html"]).operands, ["2", "out.html"]);
  assertEquals(cmd("input-mode", ["line"]).operands, ["line"]);
  assertEquals(cmd("input-mode", ["pipe", "2"]).operands, ["pipe", "2"]);
  const img = cmd("imgcat", [
    "--width=10",
    "--height",
    "50%",
    "--alt",
    "A",
    "a.png",
  ]);
  assertEquals([img.options.width, img.options.height, img.options.alt], [
    "10",
    "50%",
    "A",
  ]);
  assertEquals(cmd("settings", ["--session", "2", "a=1", "b=2"]).operands, [
    "a=1",
    "b=2",
  ]);
  assertEquals(cmd("install-desktop", ["--uninstall"]).options.uninstall, true);
  assertEquals(cmd("completion", ["fish"]).operands, ["fish"]);
  // --pane's value is optional (right); --tab is a flag; attach's operand too.
  assertEquals(cmd("new", ["--pane"]).options.pane, "right");
  assertEquals(
    cmd("new", ["--pane=above", "--", "--pane"]).options.pane,
    "above",
  );
  assertEquals(cmd("new", ["--pane", "--", "--pane"]).rest, ["--pane"]);
  assertEquals(cmd("new", ["--tab", "--window", "w"]).options, {
    tab: true,
    window: "w",
  });
  assertEquals(cmd("attach", ["--pane=left", "4"]).options.pane, "left");
  assertEquals(cmd("attach", []).operands, []);
  // --help is read before the operands are checked.
  assertEquals(cmd("attach", ["--help"]).options.help, true);
  assertEquals(cmd("kill", ["-h"]).options.help, true);
});

Deno.test("cli parse: subcommand mistakes", () => {
  const cases: [string, string[], RegExp][] = [
    ["list", ["x"], /^unexpected argument 'x'$/],
    [
      "list",
      ["--jsno"],
      /^unknown option '--jsno' \(did you mean '--json'\?\)$/,
    ],
    ["attach", ["--pane=middle", "1"], /^--pane: 'middle' is not a side/],
    ["new", ["--pane", "below"], /^unexpected argument 'below'/],
    ["attach", ["1", "2"], /^unexpected argument '2'$/],
    ["attach", ["--browser"], /^option '--browser' needs a value$/],
    ["new", ["vim"], /put it after '--'/],
    ["input-mode", [], /^name a mode/],
    [
      "input-mode",
      ["fast"],
      /^unknown input mode 'fast': auto, char, line or pipe$/,
    ],
    ["input-mode", ["line", "1", "2"], /^unexpected argument '2'$/],
    ["save", [], /^save needs a file/],
    ["save", ["1", "f", "g"], /^unexpected argument 'g'$/],
    ["view-saved", [], /^missing file operand$/],
    ["hcat", [], /^missing file operand$/],
    ["imgcat", ["--width", "big", "a.png"], /^--width: 'big' is not a size/],
    ["imgcat", ["--height", "1em", "a.png"], /^--height: '1em' is not a size/],
    ["imgcat", [], /^missing file or URL operand$/],
    ["fresh-line", ["--force=yes"], /^option '--force' takes no value$/],
    ["fresh-line", ["x"], /^unexpected argument 'x'$/],
    ["shell-integration", [], /^which shell\?/],
    ["shell-integration", ["tcsh"], /^no integration script for 'tcsh'/],
    ["completion", ["csh"], /^no completion script for 'csh'/],
    ["install-desktop", ["--uninstal"], /did you mean '--uninstall'/],
    ["help", ["a", "b"], /^unexpected argument 'b'$/],
  ];
  for (const [name, argv, want] of cases) {
    const msg = usageError(() => cmd(name, argv));
    assertMatch(msg, want, `${name} ${argv.join(" ")}`);
    assert(!msg.includes("\n"), `one line: ${msg}`);
  }
});

Deno.test("cli table: names are unique and every option is well formed", () => {
  const names = COMMANDS.map((c) => c.name);
  assertEquals(new Set(names).size, names.length);
  for (const spec of [MAIN, ...COMMANDS]) {
    const opts = optionsOf(spec);
    const longs = opts.map((o) => o.name);
    assertEquals(new Set(longs).size, longs.length, `${spec.name}: options`);
    assert(longs.includes("help"), `${spec.name} has --help`);
    for (const o of opts) {
      assertMatch(o.name, /^[a-z][a-z-]*$/);
      assert(o.help.length > 0, `${spec.name} --${o.name} has help`);
    }
    const variadic = spec.operands.findIndex((o) => o.variadic);
    assert(
      variadic < 0 || variadic === spec.operands.length - 1,
      `${spec.name}: only the last operand repeats`,
    );
  }
});

Deno.test("cli suggest: near names only", () => {
  assertEquals(nearest("lsit", ["list", "kill"]), "list");
  assertEquals(nearest("atach", ["attach", "detach"]), "attach");
  assertEquals(nearest("kil-server", ["kill", "kill-server"]), "kill-server");
  assertEquals(
    nearest("input", ["input-mode", "install-desktop"]),
    "input-mode",
  );
  assertEquals(nearest("bash", ["list", "attach", "hcat"]), undefined);
  assertEquals(nearest("vim", ["view-saved", "kill", "imgcat"]), undefined);
});
