/**
 * Help made from the table (server/cli/table.ts): `domterm --help`,
 * `domterm help CMD` and `domterm CMD --help`.
 *
 * @module
 */
import { VERSION } from "../version.ts";
import { settingsHelp } from "../../core/settings/help.ts";
import {
  type CommandGroup,
  COMMANDS,
  type CommandSpec,
  MAIN,
  type OperandSpec,
  optionsOf,
  type OptionSpec,
} from "./table.ts";

/** Help lines are wrapped to this width. */
const WIDTH = 78;

/** `words` wrapped into lines of at most `width` characters. */
export function wrap(textToWrap: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of textToWrap.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** `left` in a column of `col` characters, then `help` wrapped beside it. */
function entry(left: string, help: string, col: number, indent = 2): string {
  const body = wrap(help, WIDTH - col);
  const pad = " ".repeat(col);
  const first = " ".repeat(indent) + left;
  if (first.length + 2 > col) {
    return [first, ...body.map((l) => pad + l)].join("\n");
  }
  return [
    first.padEnd(col) + (body[0] ?? ""),
    ...body.slice(1).map((l) => pad + l),
  ]
    .join("\n");
}

/** An option as help writes it: `-h, --help` or `--port N`. */
export function optionLabel(o: OptionSpec): string {
  const long = `--${o.name}${valueLabel(o)}`;
  return o.short ? `-${o.short}, ${long}` : long;
}

/** An option's value as help writes it: ` N`, `[=SIDE]` or nothing. */
function valueLabel(o: OptionSpec): string {
  if (!o.value) return "";
  return o.optionalValue ? `[=${o.value}]` : ` ${o.value}`;
}

function operandLabel(o: OperandSpec): string {
  const name = o.variadic ? `${o.name}...` : o.name;
  return o.optional ? `[${name}]` : name;
}

/** A subcommand's synopsis without the program name: `attach [--no-browser] [--browser B] N|NAME`. */
export function synopsis(spec: CommandSpec): string {
  return [
    spec.name,
    ...spec.options.map((o) => `[--${o.name}${valueLabel(o)}]`),
    ...spec.operands.map(operandLabel),
    ...(spec.rest ? [`[-- ${spec.rest}]`] : []),
  ].join(" ");
}

/**
 * A subcommand in the list of `domterm --help`: its synopsis, or with
 * `[options]` for its options when that would not fit on a line.
 */
function listSynopsis(spec: CommandSpec): string {
  const full = synopsis(spec);
  if (full.length <= WIDTH - 2) return full;
  return [
    spec.name,
    "[options]",
    ...spec.operands.map(operandLabel),
    ...(spec.rest ? [`[-- ${spec.rest}]`] : []),
  ].join(" ");
}

/** The usage line of a subcommand: `domterm attach ...`. */
export function usageLine(spec: CommandSpec): string {
  return `domterm ${synopsis(spec)}`;
}

const GROUP_TITLES: Record<CommandGroup, string> = {
  sessions: "Sessions:",
  window:
    "Commands, for use inside a domterm window (they print escape sequences;\noutside domterm they exit 1 unless given --force):",
  setup: "Setting up:",
};

/** The list of one group's subcommands. */
function commandList(group: CommandGroup): string {
  const lines = COMMANDS.filter((c) => c.group === group).map((c) =>
    entry(listSynopsis(c), c.summary, 30)
  );
  return `${GROUP_TITLES[group]}\n${lines.join("\n")}`;
}

/** The text of `domterm --help`. */
export function mainHelp(): string {
  const options = MAIN.options.map((o) => entry(optionLabel(o), o.help, 20))
    .join("\n");
  return `domterm ${VERSION} - ${MAIN.summary}

Usage:
  domterm [options] [-- ${MAIN.rest ?? "command"}]
  domterm [options] [user@]host[:port] [-- ${MAIN.rest ?? "command"}]
  domterm COMMAND [options] [args...]

${wrap(MAIN.description ?? "", WIDTH).join("\n")}

Options:
${options}

The server listens on 127.0.0.1 only unless --listen says otherwise (see
docs/remote.md). Every window proves it knows a random server key that is
never put on a command line. One server runs per user: a later 'domterm'
asks the running one for a new session and window (through a socket in
$XDG_RUNTIME_DIR/domterm). Sessions live in the server: a reload, a crash or
a lost connection only detaches the window; closing it on purpose ends the
session. The server exits when its last session ends.

A first operand with '@', ':' or '.' (or 'localhost') is a host: the session
runs there, under a domterm server on that host, reached through your own ssh
($DOMTERM_SSH replaces 'ssh'); it survives a dropped link (docs/ssh.md).

${commandList("sessions")}

${commandList("window")}

${commandList("setup")}

'domterm help COMMAND' or 'domterm COMMAND --help' shows the usage of a command.

Environment of the command: your environment plus TERM=xterm-256color,
COLORTERM=truecolor and DOMTERM=version=..;tty=..;session#=..;pid=..

Exit status: 0 normally, 1 on a runtime error, 2 on a usage error.

` + settingsHelp();
}

/** The text of `domterm help CMD` and `domterm CMD --help`. */
export function commandHelp(spec: CommandSpec): string {
  const parts = [
    `Usage: ${usageLine(spec)}`,
    wrap(spec.summary, WIDTH).join("\n"),
  ];
  if (spec.description) {
    parts.push(
      ...spec.description.split(/\n\s*\n/).map((p) =>
        wrap(p, WIDTH).join("\n")
      ),
    );
  }
  const options = optionsOf(spec).map((o) => entry(optionLabel(o), o.help, 20));
  parts.push(`Options:\n${options.join("\n")}`);
  const choices = spec.operands.filter((o) => o.choices);
  for (const o of choices) {
    parts.push(`${o.name}: one of ${o.choices!.join(", ")}`);
  }
  return parts.join("\n\n");
}
