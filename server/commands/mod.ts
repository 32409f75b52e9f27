/**
 * The helper subcommands that programs run inside a domterm window
 * (`domterm html`, `domterm imgcat`, ...), `domterm view-saved` (opens a
 * session saved as HTML), and their dispatch.
 *
 * @module
 */
import { freshLine } from "./fresh_line.ts";
import { hcat } from "./hcat.ts";
import { html } from "./html.ts";
import { imgcat } from "./imgcat.ts";
import { isDomterm } from "./is_domterm.ts";
import { shellIntegration } from "./shell_integration.ts";
import { viewSaved } from "./view_saved.ts";
import { inputMode } from "./input_mode.ts";
import {
  attach,
  detach,
  kill,
  killServer,
  list,
  newSession,
  save,
} from "./sessions.ts";
import { CommandError, UsageError } from "./tty.ts";
import { settingsCommand } from "./settings.ts";
import { share } from "./share.ts"; // remote listener options
import { hashPasswordCommand } from "./hash_password.ts"; // remote listener options

/** A subcommand: its one-line usage and its body, which resolves with the exit status. */
export interface Command {
  usage: string;
  run: (argv: string[]) => Promise<number>;
}

/** The subcommands by name. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  "is-domterm": isDomterm,
  "html": html,
  "hcat": hcat,
  "imgcat": imgcat,
  "fresh-line": freshLine,
  "shell-integration": shellIntegration,
  "view-saved": viewSaved,
  "list": list,
  "attach": attach,
  "new": newSession,
  "kill": kill,
  "detach": detach,
  "kill-server": killServer,
  "save": save,
  "input-mode": inputMode,
  "settings": settingsCommand,
  // remote listener options
  "share": share,
  "hash-password": hashPasswordCommand,
};

/** True if `name` is a subcommand. */
export function isCommand(name: string | undefined): name is string {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

/**
 * Run subcommand `name`: usage errors exit 2 with a hint, runtime errors
 * exit 1, both as `domterm NAME: message` on standard error.
 */
export async function runCommand(
  name: string,
  argv: string[],
): Promise<number> {
  const cmd = COMMANDS[name];
  if (argv.includes("-h") || argv.includes("--help")) {
    const end = argv.indexOf("--");
    const at = Math.max(argv.indexOf("-h"), argv.indexOf("--help"));
    if (end < 0 || at < end) {
      console.log(`Usage: ${cmd.usage}`);
      return 0;
    }
  }
  try {
    return await cmd.run(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(
        `domterm ${name}: ${e.message}\nUsage: ${cmd.usage}\nTry 'domterm --help' for more information.`,
      );
      return 2;
    }
    if (e instanceof CommandError) {
      console.error(`domterm ${name}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
