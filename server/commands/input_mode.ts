/**
 * `domterm input-mode MODE [N|NAME]`: switch the input mode of every window
 * of a session (default: the session it runs in). MODE is `auto`, `char`,
 * `line` or `pipe` (docs/input-modes.md).
 *
 * @module
 */
import { isInputMode } from "../../core/protocol.ts";
import type { ParsedArgs } from "../cli/parse.ts";
import { UsageError } from "../cli/errors.ts";
import { ask, ownSession, ref } from "./sessions.ts";

/** The subcommand (the table checks the mode; this checks it for the type). */
export async function inputMode(a: ParsedArgs): Promise<number> {
  const [mode, target] = a.operands;
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
}
