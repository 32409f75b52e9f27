/**
 * `domterm shell-integration bash|zsh|fish`: print the shell integration
 * script, for shells that domterm did not start itself (over ssh, inside
 * tmux): `source <(domterm shell-integration bash)` in ~/.bashrc.
 *
 * @module
 */
import type { Command } from "./mod.ts";
import { parseArgs, UsageError, writeAll } from "./tty.ts";
import { integrationScript } from "../shell/integration.ts";

/** The `shell-integration` subcommand. */
export const shellIntegration: Command = {
  usage: "domterm shell-integration bash|zsh|fish",
  async run(argv) {
    const a = parseArgs(argv, [], []);
    if (a.operands.length !== 1) {
      throw new UsageError(
        a.operands.length === 0
          ? "which shell? bash, zsh or fish"
          : `unexpected argument '${a.operands[1]}'`,
      );
    }
    const shell = a.operands[0];
    if (shell !== "bash" && shell !== "zsh" && shell !== "fish") {
      throw new UsageError(
        `no integration script for '${shell}' (bash, zsh or fish)`,
      );
    }
    await writeAll(integrationScript(shell));
    return 0;
  },
};
