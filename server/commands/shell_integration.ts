/**
 * `domterm shell-integration bash|zsh|fish`: print the shell integration
 * script, for shells that domterm did not start itself (over ssh, inside
 * tmux): `source <(domterm shell-integration bash)` in ~/.bashrc.
 *
 * @module
 */
import type { ParsedArgs } from "../cli/parse.ts";
import { UsageError } from "../cli/errors.ts";
import { writeAll } from "./tty.ts";
import { integrationScript } from "../shell/integration.ts";

/** The `shell-integration` subcommand (the table checks the shell's name). */
export async function shellIntegration(a: ParsedArgs): Promise<number> {
  const shell = a.operands[0];
  if (shell !== "bash" && shell !== "zsh" && shell !== "fish") {
    throw new UsageError(
      `no integration script for '${shell}' (bash, zsh or fish)`,
    );
  }
  await writeAll(integrationScript(shell));
  return 0;
}
