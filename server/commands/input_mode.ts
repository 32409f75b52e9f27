/**
 * `domterm input-mode MODE [N|NAME]`: switch the input mode of every window
 * of a session (default: the session it runs in). MODE is `auto`, `char`,
 * `line` or `pipe` (docs/input-modes.md).
 *
 * @module
 */
import { isInputMode } from "../../core/protocol.ts";
import type { Command } from "./mod.ts";
import { ask, ownSession, ref } from "./sessions.ts";
import { parseArgs, UsageError } from "./tty.ts";

/** The subcommand. */
export const inputMode: Command = {
  usage: "domterm input-mode auto|char|line|pipe [N|NAME]",
  async run(argv) {
    const a = parseArgs(argv, [], []);
    const [mode, target] = a.operands;
    if (a.operands.length < 1 || a.operands.length > 2) {
      throw new UsageError("name a mode (and at most one session)");
    }
    if (!isInputMode(mode)) {
      throw new UsageError(
        `unknown input mode '${mode}': auto, char, line or pipe`,
      );
    }
    const session = target !== undefined
      ? ref(target, "a number or a name")
      : ownSession();
    if (session === null) {
      throw new UsageError("not inside a domterm session: name one");
    }
    await ask({ op: "input-mode", session, mode });
    return 0;
  },
};
