/**
 * The `domterm` command line as data: the main options and every
 * subcommand with its options, operands and help. Parsing
 * (server/cli/parse.ts), help (help.ts), shell completions
 * (completion.ts) and docs/cli.md (scripts/gen_cli_doc.ts) are all made
 * from this one table; server/cli/dispatch.ts maps each command to its
 * handler. A new option or subcommand is one entry here plus its handler.
 *
 * @module
 */
import { MAX_SCROLLBACK_LINES } from "../../core/protocol.ts";
import { SETTINGS } from "../../core/settings/schema.ts";
import { UsageError } from "./errors.ts";
import { REMOTE_OPTIONS } from "../remote/cli_options.ts";

/** An option: `--name` (and `-short`), a flag or, with `value`, taking one. */
export interface OptionSpec {
  /** The long name, without the dashes. */
  readonly name: string;
  /** A one-letter alias (`-h`). */
  readonly short?: string;
  /** The value's placeholder in help (`N`); absent for a flag. */
  readonly value?: string;
  /** What it does, one paragraph (help wraps it). */
  readonly help: string;
  /** Values that shells offer to complete (not a restriction). */
  readonly suggest?: readonly string[];
  /** Shells complete file names for the value. */
  readonly files?: boolean;
  /**
   * With `value`: the value it has when given without one (`--pane` is
   * `--pane=right`); a value then goes after `=` only. Help writes
   * `--pane[=SIDE]`.
   */
  readonly optionalValue?: string;
  /** Checks and converts the value; throws UsageError. Default: the text. */
  readonly parse?: (value: string) => unknown;
}

/** An operand (positional argument) of a subcommand. */
export interface OperandSpec {
  /** Its placeholder in help (`N|NAME`, `FILE`). */
  readonly name: string;
  readonly optional?: boolean;
  /** Any number of them (at least one unless optional); only the last. */
  readonly variadic?: boolean;
  /** The only values it takes (checked by the parser; completed by shells). */
  readonly choices?: readonly string[];
  /** The error for a value not in `choices`. */
  readonly badChoice?: (value: string) => string;
  /** Values that shells offer to complete (not a restriction). */
  readonly suggest?: readonly string[];
  /** Shells complete file names. */
  readonly files?: boolean;
  /** Shells complete subcommand names. */
  readonly commands?: boolean;
  /** The error when it is missing (default: `missing NAME operand`). */
  readonly missing?: string;
}

/** Where a subcommand is listed in help. */
export type CommandGroup = "sessions" | "window" | "setup";

/** A subcommand: `domterm NAME [options] operands [-- command...]`. */
export interface CommandSpec {
  readonly name: string;
  readonly group: CommandGroup;
  /** One line for the list of commands. */
  readonly summary: string;
  /** More, for `domterm help NAME` (paragraphs separated by blank lines). */
  readonly description?: string;
  readonly options: readonly OptionSpec[];
  readonly operands: readonly OperandSpec[];
  /** Takes a command to run after `--`; its placeholder. */
  readonly rest?: string;
}

/** `-h`/`--help`, which every subcommand has. */
export const HELP_OPTION: OptionSpec = {
  name: "help",
  short: "h",
  help: "show this help and exit",
};

function wholeNumber(flag: string, v: string, max: number, what: string) {
  if (!/^\d{1,10}$/.test(v) || Number(v) > max) {
    throw new UsageError(`--${flag}: '${v}' is not ${what}`);
  }
  return Number(v);
}

function nonEmpty(message: string): (v: string) => string {
  return (v) => {
    if (v.trim() === "") throw new UsageError(message);
    return v;
  };
}

/** Browser names `--browser` knows (server/browser.ts). */
const BROWSERS = ["chrome", "chromium", "edge", "brave", "default"] as const;
const SHELLS = ["bash", "zsh", "fish"] as const;
const INPUT_MODES = ["auto", "char", "line", "pipe"] as const;
/** A size for imgcat's --width/--height: N (cells), Npx, N% or auto. */
const SIZE = /^(?:\d+(?:px|%)?|auto)$/;

function imageSize(flag: string): (v: string) => string {
  return (v) => {
    if (!SIZE.test(v)) {
      throw new UsageError(
        `--${flag}: '${v}' is not a size (N cells, Npx, N% or auto)`,
      );
    }
    return v;
  };
}

const browserOption: OptionSpec = {
  name: "browser",
  value: "B",
  help:
    "open the window with B: chrome, chromium, edge, brave, default (the system opener), or the path of a browser (default: $CHROME_PATH, then the first one found)",
  suggest: BROWSERS,
  files: true,
  parse: nonEmpty("--browser needs a name or a path"),
};
const noBrowserOption: OptionSpec = {
  name: "no-browser",
  help:
    "open nothing; print the URL to open (it contains the server key) alone on one line of standard output. A browser you open it in records that URL, key included, in its history; windows domterm opens itself get a one-time launch token instead, so the key is in none of their profile's files",
};
const forceOption: OptionSpec = {
  name: "force",
  help: "write the escape sequences even where the terminal is not domterm",
};
const session: OperandSpec = { name: "N|NAME" };
const SIDE_NAMES = ["left", "right", "above", "below"] as const;
const tabOption: OptionSpec = {
  name: "tab",
  help:
    "as a new tab of the window this runs in (or --window's), after its focused pane",
};
const paneOption: OptionSpec = {
  name: "pane",
  value: "SIDE",
  optionalValue: "right",
  help:
    "as a new pane on SIDE (left, right, above or below; default right) of the focused pane of the window this runs in (or --window's)",
  suggest: SIDE_NAMES,
  parse: (v) => {
    if ((SIDE_NAMES as readonly string[]).includes(v)) return v;
    throw new UsageError(
      `--pane: '${v}' is not a side (left, right, above or below)`,
    );
  },
};
const windowOption: OptionSpec = {
  name: "window",
  value: "W",
  help: "the window, by number or name (see 'domterm list')",
};
const ownSessionDefault: OperandSpec = { name: "N|NAME", optional: true };

/** `domterm [options] [-- command...]`: start (or ask for) a session and a window. */
export const MAIN: CommandSpec = {
  name: "domterm",
  group: "setup",
  summary: "a rich terminal emulator in your browser",
  description:
    "Runs command (default: $SHELL, else /bin/sh) on a new pseudo-terminal and opens a terminal window for it: Chrome, Chromium, Edge or Brave in app mode (no URL bar), else the system's default browser.",
  rest: "command [args...]",
  operands: [{
    name: "[user@]host[:port]",
    optional: true,
  }],
  options: [
    {
      name: "port",
      value: "N",
      help: "listen on 127.0.0.1 port N (default: a free port)",
      parse: (v) => wholeNumber("port", v, 65535, "a port number (0-65535)"),
    },
    browserOption,
    noBrowserOption,
    {
      name: "foreground",
      help:
        "run the server in this terminal (default from a terminal: it detaches, so closing the terminal does not end it and its sessions, and logs to $XDG_STATE_HOME/domterm/server.log)",
    },
    {
      name: "file-opener",
      value: "T",
      help:
        "open Ctrl/Cmd+clicked file references with the command template T: %f path, %l line, %c column, %u file URL, e.g. 'code -g %f:%l:%c' (default: the system opener; $DOMTERM_OPENER replaces the system opener command)",
      parse: nonEmpty("--file-opener needs a command"),
    },
    {
      name: "no-shell-integration",
      help:
        "start bash, zsh or fish without domterm's prompt marks (also: DOMTERM_SHELL_INTEGRATION=0 in the environment)",
    },
    {
      name: "scrollback",
      value: "N",
      help:
        "keep N lines of history per session (default 10000); 'unlimited' keeps everything",
      suggest: ["unlimited"],
      parse: (v) => {
        if (v === "unlimited") return null;
        if (/^\d{1,10}$/.test(v) && Number(v) <= MAX_SCROLLBACK_LINES) {
          return Number(v);
        }
        throw new UsageError(
          `--scrollback: '${v}' is not a line count (0-${MAX_SCROLLBACK_LINES}) or 'unlimited'`,
        );
      },
    },
    {
      name: "detached-timeout",
      value: "S",
      help:
        "end a session S seconds after its last window was lost (default: never; a window closed on purpose ends it)",
      suggest: ["never"],
      parse: (v) => {
        if (v === "never") return undefined;
        if (/^\d{1,9}$/.test(v)) return Number(v);
        throw new UsageError(
          `--detached-timeout: '${v}' is not a number of seconds or 'never'`,
        );
      },
    },
    {
      name: "remote-domterm",
      value: "CMD",
      help:
        "with a host: how to run domterm there (default: $DOMTERM_REMOTE_DOMTERM, else 'domterm'; a shell command prefix, e.g. 'deno run -A /opt/domterm/main.ts')",
    },
    // The remote listener's (server/remote/cli_options.ts checks them).
    ...REMOTE_OPTIONS.map((o): OptionSpec => ({
      name: o.name.slice(2),
      help: o.help,
      ...(o.type === "string" ? { value: o.valueName ?? "VALUE" } : {}),
      ...(o.valueName === "FILE" ? { files: true } : {}),
    })),
    HELP_OPTION,
    { name: "version", short: "V", help: "print the version and exit" },
  ],
};

const COMMAND_TABLE = [
  // Sessions: through the running server's control socket.
  {
    name: "list",
    group: "sessions",
    summary:
      "the sessions: number, name, pid, size, windows, state (attached, detached) and command; then the windows: their panes and the sessions these show",
    options: [
      {
        name: "json",
        help:
          "print the sessions as JSON, each with the panes that show it (window and pane ids)",
      },
      {
        name: "restorable",
        help:
          "list the sessions that can come back from their journals instead (docs/persistence.md): number, name, when and why they stopped, directory, command; a journal that cannot be read with its path and why",
      },
    ],
    operands: [],
  },
  {
    name: "attach",
    group: "sessions",
    summary:
      "open a window on a session, bring back a window whose page is gone, or put a session into a pane",
    description:
      "With a session that a window without a page shows (its browser was " +
      "closed or killed), or with --window, or with nothing when a window " +
      "has lost its page: that window comes back, with its layout and " +
      "sessions. With --tab or --pane: the session becomes a new pane of " +
      "the window this runs in (or --window's). Otherwise a new window " +
      "shows the session.\n\n" +
      "Waits until the window has connected. A browser that exits before " +
      "that (no display, say) is reported, and the command exits 1.",
    options: [
      tabOption,
      paneOption,
      windowOption,
      noBrowserOption,
      browserOption,
    ],
    operands: [{ name: "N|NAME", optional: true }],
  },
  {
    name: "new",
    group: "sessions",
    summary:
      "a new session in this directory: in a new window, or a tab or pane of this one",
    description:
      "With --tab or --pane the session becomes a new pane of the window " +
      "this runs in (the one showing the session of $DOMTERM), or of " +
      "--window's; a window that no page shows is opened.\n\n" +
      "Waits until the window has connected. A browser that exits before " +
      "that (no display, say) is reported, the new session is ended, and " +
      "the command exits 1.",
    options: [
      { name: "name", value: "NAME", help: "name the session" },
      tabOption,
      paneOption,
      windowOption,
      {
        name: "no-journal",
        help:
          "keep no journal of it on disk: it cannot be restored after a crash (the 'journal' setting does it for every session)",
      },
      noBrowserOption,
      browserOption,
    ],
    operands: [],
    rest: "command...",
  },
  {
    name: "name-window",
    group: "sessions",
    summary: "name the window this runs in (or --window's), for --window NAME",
    options: [windowOption],
    operands: [{
      name: "NAME",
      missing: "name-window needs a name",
    }],
  },
  {
    name: "detach",
    group: "sessions",
    summary:
      "detach every window of a session (default: the one this runs in); Ctrl+Shift+D in the window",
    options: [],
    operands: [ownSessionDefault],
  },
  {
    name: "kill",
    group: "sessions",
    summary: "end a session (its program is hung up)",
    options: [],
    operands: [session],
  },
  {
    name: "input-mode",
    group: "sessions",
    summary:
      "auto, char, line or pipe: how the windows of a session take input (Ctrl+Shift+L in a window)",
    options: [],
    operands: [
      {
        name: "MODE",
        choices: INPUT_MODES,
        badChoice: (v) => `unknown input mode '${v}': auto, char, line or pipe`,
        missing: "name a mode (and at most one session)",
      },
      ownSessionDefault,
    ],
  },
  {
    name: "save",
    group: "sessions",
    summary:
      "the session (default: the one this runs in), scrollback included, as a standalone HTML file (Ctrl+Shift+S in a window)",
    options: [],
    operands: [
      ownSessionDefault,
      {
        name: "FILE",
        files: true,
        missing: "save needs a file (and optionally a session)",
      },
    ],
  },
  {
    name: "view-saved",
    group: "sessions",
    summary: "open a saved session in an app window",
    options: [browserOption],
    operands: [{ name: "FILE", files: true, missing: "missing file operand" }],
  },
  {
    name: "restore",
    group: "sessions",
    summary:
      "bring sessions back from their journals: N from 'domterm list --restorable', a name, or all",
    description:
      "Each comes back with its scrollback as it was drawn, a divider saying when and why it stopped, and a new program in the same directory: the shell at once, another command shown and run on Enter (the 'restore.commands' setting). Sessions lost by a crash, a logout or a reboot come back by themselves when the server starts; those ended by 'domterm kill-server' wait for this. See docs/persistence.md.",
    options: [],
    operands: [{
      name: "N|NAME|all",
      suggest: ["all"],
      missing: "which? a number, a name or all",
    }],
  },
  {
    name: "forget",
    group: "sessions",
    summary:
      "delete the journals of sessions that could be restored: N from 'domterm list --restorable', a name, or all",
    options: [],
    operands: [{
      name: "N|NAME|all",
      suggest: ["all"],
      missing: "which? a number, a name or all",
    }],
  },
  {
    name: "kill-server",
    group: "sessions",
    summary: "end every session and the server",
    options: [],
    operands: [],
  },
  {
    name: "restart-server",
    group: "sessions",
    summary:
      "start a new server (this program) and hand it every session: the programs go on, windows reconnect",
    description:
      "The running server starts this program again (after an upgrade: the new version) and hands it every session: the PTYs (their programs notice nothing), the screens and scrollback, the output offsets, the key and the port. Open windows reconnect by themselves and go on where they were. If the new server fails, the old one goes on serving and this says why. A newer 'domterm' that finds an older server running does the same by itself. See docs/persistence.md.\n\nWhat cannot be carried: the exit status of a program started by the old server (the new one is not its parent: it learns of the exit but not the status) and sessions on other hosts (their windows close; 'domterm user@host' reaches them again). The key, the logins and the share links stay valid.",
    options: [],
    operands: [],
  },
  {
    name: "settings",
    group: "sessions",
    summary:
      "set settings for a session's windows (over the settings file's); none: print them",
    options: [
      {
        name: "session",
        value: "N|NAME",
        help: "the session (default: the one this runs in)",
      },
    ],
    operands: [{
      name: "key=value",
      optional: true,
      variadic: true,
      suggest: SETTINGS.map((s) => `${s.key}=`),
    }],
  },
  {
    name: "share",
    group: "sessions",
    summary: "print a link that opens this session only, without the password",
    description:
      "The link holds a token that the running server accepts for that one session until the server or the session ends. With --read-only its windows watch: they cannot type, resize or detach. See docs/remote.md.",
    options: [{ name: "read-only", help: "watch, never type" }],
    operands: [{
      name: "N|NAME",
      missing: "give its number from 'domterm list'",
    }],
  },
  {
    name: "hash-password",
    group: "setup",
    summary: "read a password, print the line that --password-file expects",
    description:
      "On a terminal it asks twice without echo; otherwise it reads the first line of standard input.",
    options: [],
    operands: [],
  },
  // Helpers for programs running inside a window: they print escape sequences.
  {
    name: "is-domterm",
    group: "window",
    summary: "exit 0 only inside domterm (asks the terminal)",
    options: [{
      name: "verbose",
      help: "say on standard error why or why not",
    }],
    operands: [],
  },
  {
    name: "html",
    group: "window",
    summary: "insert HTML (standard input if no arguments)",
    options: [forceOption],
    operands: [{ name: "html", optional: true, variadic: true }],
  },
  {
    name: "hcat",
    group: "window",
    summary: "insert each file as HTML",
    options: [forceOption],
    operands: [{
      name: "file.html",
      variadic: true,
      files: true,
      missing: "missing file operand",
    }],
  },
  {
    name: "inspect",
    group: "window",
    summary: "explore a JSON file as a tree that opens as you click",
    description:
      "Prints the top level of the file as nested inspectors; opening one (a click) prints its children, 100 at a time with a 'more' button. Only what is opened is ever printed, so large files open at once. q, Ctrl+C or Ctrl+D ends it. See docs/interactive.md.",
    options: [forceOption],
    operands: [{
      name: "file.json",
      files: true,
      missing: "missing file operand",
    }],
  },
  {
    name: "imgcat",
    group: "window",
    summary: "show images (W, H: N cells, Npx, N%, auto)",
    options: [
      forceOption,
      {
        name: "width",
        value: "W",
        help: "the width: N cells, Npx, N% or auto",
        suggest: ["auto"],
        parse: imageSize("width"),
      },
      {
        name: "height",
        value: "H",
        help: "the height: N cells, Npx, N% or auto",
        suggest: ["auto"],
        parse: imageSize("height"),
      },
      {
        name: "alt",
        value: "TEXT",
        help: "alternative text (the image is then inserted as HTML)",
      },
    ],
    operands: [{
      name: "file|url",
      variadic: true,
      files: true,
      missing: "missing file or URL operand",
    }],
  },
  {
    name: "fresh-line",
    group: "window",
    summary: "new line unless at the start of a line",
    options: [forceOption],
    operands: [],
  },
  {
    name: "shell-integration",
    group: "window",
    summary:
      "print the shell integration script (for shells domterm did not start: ssh, tmux)",
    options: [],
    operands: [{
      name: "SHELL",
      choices: SHELLS,
      badChoice: (v) => `no integration script for '${v}' (bash, zsh or fish)`,
      missing: "which shell? bash, zsh or fish",
    }],
  },
  {
    name: "python-path",
    group: "window",
    summary:
      "print the directory of domterm's Python package, for PYTHONPATH (rich display, REPL hook, IPython, matplotlib)",
    description:
      "The package is written into the runtime directory first if it is not there. 'export PYTHONPATH=\"$(domterm python-path)\"', then 'import domterm'. See docs/python.md.",
    options: [],
    operands: [],
  },
  // Setting domterm up.
  {
    name: "completion",
    group: "setup",
    summary: "print the completion script of a shell",
    description:
      "bash: 'source <(domterm completion bash)' in ~/.bashrc. zsh: 'domterm completion zsh > DIR/_domterm' with DIR in $fpath before compinit runs. fish: 'domterm completion fish > ~/.config/fish/completions/domterm.fish'.",
    options: [],
    operands: [{
      name: "SHELL",
      choices: SHELLS,
      badChoice: (v) => `no completion script for '${v}' (bash, zsh or fish)`,
      missing: "which shell? bash, zsh or fish",
    }],
  },
  {
    name: "install-desktop",
    group: "setup",
    summary:
      "add domterm to the desktop's launcher (a .desktop entry and an icon under $XDG_DATA_HOME, default ~/.local/share)",
    description:
      "The entry runs this same domterm: the compiled program, or 'deno run -A' with this checkout's main.ts. 'update-desktop-database' refreshes the launcher's cache when it is installed.",
    options: [{
      name: "uninstall",
      help: "remove the entry and the icon instead",
    }],
    operands: [],
  },
  {
    name: "help",
    group: "setup",
    summary: "show the help of domterm or of a command",
    options: [],
    operands: [{ name: "COMMAND", optional: true, commands: true }],
  },
] as const satisfies readonly CommandSpec[];

/** A subcommand's name. */
export type CommandName = typeof COMMAND_TABLE[number]["name"];

/** Every subcommand, in the order help lists them. */
export const COMMANDS: readonly (CommandSpec & { name: CommandName })[] =
  COMMAND_TABLE;

/** Every subcommand's name, in table order. */
export const COMMAND_NAMES: readonly CommandName[] = COMMANDS.map((c) =>
  c.name
);

/** The subcommand called `name`, if any. */
export function findCommand(name: string | undefined): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** The options of `spec` as given on its command line (subcommands gain -h/--help). */
export function optionsOf(spec: CommandSpec): readonly OptionSpec[] {
  return spec.options.some((o) => o.name === "help")
    ? spec.options
    : [...spec.options, HELP_OPTION];
}
