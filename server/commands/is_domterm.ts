/**
 * `domterm is-domterm`: exit 0 only inside a domterm window, silently, so
 * that it can be used in `if`.
 *
 * @module
 */
import type { Command } from "./mod.ts";
import { parseArgs, queryDomterm, UsageError } from "./tty.ts";

/** The `is-domterm` subcommand. */
export const isDomterm: Command = {
  usage: "domterm is-domterm [--verbose]",
  async run(argv) {
    const a = parseArgs(argv, ["--verbose"], []);
    if (a.operands.length) {
      throw new UsageError(`unexpected argument '${a.operands[0]}'`);
    }
    const verbose = a.flags.has("--verbose");
    let check;
    if (!Deno.stdin.isTerminal()) {
      check = { ok: false, reason: "standard input is not a terminal" };
    } else {
      check = await queryDomterm();
    }
    if (verbose) {
      const env = Deno.env.get("DOMTERM") === undefined
        ? " (DOMTERM is not set)"
        : "";
      console.error(
        `domterm is-domterm: ${check.ok ? "yes" : "no"}: ${check.reason}${env}`,
      );
    }
    return check.ok ? 0 : 1;
  },
};
