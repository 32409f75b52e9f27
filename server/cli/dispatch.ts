/**
 * `domterm ARGS`: parse with the table (server/cli/table.ts), route to the
 * handler, and turn mistakes into exit statuses: 2 for a usage error
 * (one line, then a hint), 1 for a runtime error.
 *
 * Each handler's module is imported when its command runs, never before
 * (issue 31 §7): `domterm list` or a second `domterm` loads the control
 * socket's client, not the server (server/cli/serve.ts) and its ~200
 * modules. The specifiers are literal, so `deno compile` and
 * `deno bundle` still take them in (tests/server/cli/lazy_imports_test.ts
 * checks what this module loads up front).
 *
 * @module
 */
import type { Asset } from "../http.ts";
import { RuntimeDirError } from "../control.ts";
import { runMain } from "../cli.ts";
import { looksLikeHost } from "../ssh/target.ts";
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

/** A handler whose module is imported on its first call. */
function lazy<M>(load: () => Promise<M>, pick: (m: M) => Handler): Handler {
  return async (a, ctx) => await pick(await load())(a, ctx);
}

const sessions = () => import("../commands/sessions.ts");
const journal = () => import("../commands/journal.ts");

/** Every subcommand's handler: the type makes one per table entry. */
const HANDLERS: Readonly<Record<CommandName, Handler>> = {
  // `--restorable`: the journals (server/commands/journal.ts).
  "list": (a, ctx) =>
    flag(a, "restorable")
      ? lazy(journal, (m) => m.listRestorable)(a, ctx)
      : lazy(sessions, (m) => m.list)(a, ctx),
  "attach": lazy(sessions, (m) => m.attach),
  "new": lazy(sessions, (m) => m.newSession),
  "name-window": lazy(sessions, (m) => m.nameWindow),
  "detach": lazy(sessions, (m) => m.detach),
  "kill": lazy(sessions, (m) => m.kill),
  "input-mode": lazy(
    () => import("../commands/input_mode.ts"),
    (m) => m.inputMode,
  ),
  "save": lazy(sessions, (m) => m.save),
  "view-saved": lazy(
    () => import("../commands/view_saved.ts"),
    (m) => m.viewSaved,
  ),
  "restore": lazy(journal, (m) => m.restore),
  "forget": lazy(journal, (m) => m.forget),
  "kill-server": lazy(sessions, (m) => m.killServer),
  "restart-server": lazy(sessions, (m) => m.restartServer),
  "settings": lazy(
    () => import("../commands/settings.ts"),
    (m) => m.settingsCommand,
  ),
  "share": lazy(() => import("../commands/share.ts"), (m) => m.share),
  "hash-password": lazy(
    () => import("../commands/hash_password.ts"),
    (m) => m.hashPasswordCommand,
  ),
  "is-domterm": lazy(
    () => import("../commands/is_domterm.ts"),
    (m) => m.isDomterm,
  ),
  "html": lazy(() => import("../commands/html.ts"), (m) => m.html),
  "hcat": lazy(() => import("../commands/hcat.ts"), (m) => m.hcat),
  "inspect": lazy(() => import("../commands/inspect.ts"), (m) => m.inspect),
  "imgcat": lazy(() => import("../commands/imgcat.ts"), (m) => m.imgcat),
  "fresh-line": lazy(
    () => import("../commands/fresh_line.ts"),
    (m) => m.freshLine,
  ),
  "shell-integration": lazy(
    () => import("../commands/shell_integration.ts"),
    (m) => m.shellIntegration,
  ),
  "python-path": lazy(
    () => import("../commands/python_path.ts"),
    (m) => m.pythonPath,
  ),
  "completion": lazy(
    () => import("../commands/completion.ts"),
    (m) => m.completion,
  ),
  "install-desktop": lazy(
    () => import("../commands/install_desktop.ts"),
    (m) => m.installDesktop,
  ),
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

/**
 * Run `domterm` with `argv` (without the program's name); resolves with the
 * exit status. `assets` loads the embedded client, when a command needs it
 * (the server, `install-desktop`).
 */
export async function main(
  argv: string[],
  assets: () => Promise<Readonly<Record<string, Asset>>>,
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
  assets: () => Promise<Readonly<Record<string, Asset>>>,
): Promise<number> {
  const ctx: CliContext = { assets };
  // Internal: what the local domterm runs on a remote host through ssh.
  if (argv[0] === "ssh-stdio") {
    const { runSshStdio } = await import("../ssh/stdio.ts");
    return await runSshStdio(argv.slice(1));
  }
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
