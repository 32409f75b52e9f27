/**
 * `domterm fresh-line`: start a new line unless the cursor is already at
 * the start of one (`CSI 20 u`).
 *
 * @module
 */
import type { Command } from "./mod.ts";
import { parseArgs, requireDomterm, UsageError, writeAll } from "./tty.ts";

/** The `fresh-line` subcommand. */
export const freshLine: Command = {
  usage: "domterm fresh-line [--force]",
  async run(argv) {
    const a = parseArgs(argv, ["--force"], []);
    if (a.operands.length) {
      throw new UsageError(`unexpected argument '${a.operands[0]}'`);
    }
    await requireDomterm(a.flags.has("--force"));
    await writeAll("\x1b[20u");
    return 0;
  },
};
