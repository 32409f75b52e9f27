/**
 * `domterm completion bash|zsh|fish`: print the shell's completion script
 * (server/cli/completion.ts).
 *
 * @module
 */
import { completionScript, type CompletionShell } from "../cli/completion.ts";
import type { ParsedArgs } from "../cli/parse.ts";
import { writeAll } from "./tty.ts";

/** The subcommand (the table checks the shell's name). */
export async function completion(a: ParsedArgs): Promise<number> {
  await writeAll(completionScript(a.operands[0] as CompletionShell));
  return 0;
}
