/**
 * `domterm ARGS`: parse with the table (server/cli/table.ts), route to the
 * handler, and turn mistakes into exit statuses: 2 for a usage error
 * (one line, then a hint), 1 for a runtime error.
 *
 * @module
 */
import type { Asset } from "../http.ts";
import { runMain } from "../cli.ts";
import { completion } from "../commands/completion.ts";
import { freshLine } from "../commands/fresh_line.ts";
import { hcat } from "../commands/hcat.ts";
import { html } from "../commands/html.ts";
import { imgcat } from "../commands/imgcat.ts";
import { inputMode } from "../commands/input_mode.ts";
import { installDesktop } from "../commands/install_desktop.ts";
import { isDomterm } from "../commands/is_domterm.ts";
import {
  attach,
  detach,
  kill,
  killServer,
  list,
  nameWindow,
  newSession,
  save,
} from "../commands/sessions.ts";
import { settingsCommand } from "../commands/settings.ts";
import { shellIntegration } from "../commands/shell_integration.ts";
import { viewSaved } from "../commands/view_saved.ts";
import { runSshStdio } from "../ssh/stdio.ts";
import { looksLikeHost } from "../ssh/target.ts";
import { share } from "../commands/share.ts";
import { hashPasswordCommand } from "../commands/hash_password.ts";
import { RuntimeDirError } from "../control.ts";
import { CommandError, UsageError } from "./errors.ts";
import type { CliContext, Handler } from "./handler.ts";
import { commandHelp, mainHelp, usageLine } from "./help.ts";
import { flag, parseCommand, type ParsedArgs } from "./parse.ts";
import { didYouMean, nearest } from "../../core/suggest.ts";
import {
  COMMAND_NAMES,
  type CommandName,
  type CommandSpec,
  findCommand,
  MAIN,
} from "./table.ts";

/** `domterm help [COMMAND]`. */
function help(a: ParsedArgs): Promise<number> {
  const name = a.operands[0];
  if (name === undefined) {
    console.log(mainHelp());
    return Promise.resolve(0);
  }
  const spec = findCommand(name);
  if (spec === undefined) {
    throw new UsageError(
      `no command '${name}'${didYouMean(name, COMMAND_NAMES)}`,
    );
  }
  console.log(commandHelp(spec));
  return Promise.resolve(0);
}

/** Every subcommand's handler: the type makes one per table entry. */
const HANDLERS: Readonly<Record<CommandName, Handler>> = {
  "list": list,
  "attach": attach,
  "new": newSession,
  "name-window": nameWindow,
  "detach": detach,
  "kill": kill,
  "input-mode": inputMode,
  "save": save,
  "view-saved": viewSaved,
  "kill-server": killServer,
  "settings": settingsCommand,
  "share": share,
  "hash-password": hashPasswordCommand,
  "is-domterm": isDomterm,
  "html": html,
  "hcat": hcat,
  "imgcat": imgcat,
  "fresh-line": freshLine,
  "shell-integration": shellIntegration,
  "completion": completion,
  "install-desktop": installDesktop,
  "help": help,
};

const HINT = "Try 'domterm --help' for more information.";

/** Run subcommand `spec` on `argv`; usage errors print its usage line too. */
async function runCommand(
  spec: CommandSpec,
  argv: string[],
  ctx: CliContext,
): Promise<number> {
  const prefix = `domterm ${spec.name}`;
  try {
    const a = parseCommand(spec, argv);
    if (flag(a, "help")) {
      console.log(commandHelp(spec));
      return 0;
    }
    return await HANDLERS[spec.name as CommandName](a, ctx);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(
        `${prefix}: ${e.message}\nUsage: ${usageLine(spec)}\n${HINT}`,
      );
      return 2;
    }
    if (e instanceof CommandError) {
      // The server's answers name their request ("new: ..."): once is enough.
      const message = e.message.startsWith(`${spec.name}: `)
        ? e.message.slice(spec.name.length + 2)
        : e.message;
      console.error(`${prefix}: ${message}`);
      return 1;
    }
    throw e;
  }
}

/** Run `domterm` with `argv` (without the program's name); resolves with the exit status. */
export async function main(
  argv: string[],
  assets: Record<string, Asset>,
): Promise<number> {
  try {
    return await dispatch(argv, assets);
  } catch (e) {
    // Said in one line, with what to do, rather than a stack trace.
    if (e instanceof RuntimeDirError) {
      console.error(`domterm: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

async function dispatch(
  argv: string[],
  assets: Record<string, Asset>,
): Promise<number> {
  const ctx: CliContext = { assets };
  // Internal: what the local domterm runs on a remote host through ssh.
  if (argv[0] === "ssh-stdio") return await runSshStdio(argv.slice(1));
  // A subcommand is only ever the first argument: `domterm -- list` runs `list`.
  const spec = findCommand(argv[0]);
  if (spec !== undefined) return await runCommand(spec, argv.slice(1), ctx);
  try {
    const first = argv[0];
    if (
      first !== undefined && !first.startsWith("-") && !looksLikeHost(first)
    ) {
      // ┌─ HOST OPERAND ─────────────────────────────────────────────────┐
      // │ `domterm [user@]host[:port] [-- cmd]` (issue 17 §1, the ssh    │
      // │ work) is routed here: a first argument that is neither an      │
      // │ option nor a command. Recognise the host form before the typo  │
      // │ check below, and add the operand to MAIN in table.ts for help, │
      // │ completion and docs/cli.md.                                    │
      // └────────────────────────────────────────────────────────────────┘
      const near = nearest(first, COMMAND_NAMES);
      if (near !== undefined) {
        throw new UsageError(
          `unknown command '${first}' (did you mean '${near}'?)`,
        );
      }
    }
    return await runMain(parseCommand(MAIN, argv), ctx);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`domterm: ${e.message}\n${HINT}`);
      return 2;
    }
    throw e;
  }
}
