/**
 * `domterm is-domterm`: exit 0 only inside a domterm window, silently, so
 * that it can be used in `if`.
 *
 * @module
 */
import { flag, type ParsedArgs } from "../cli/parse.ts";
import { queryDomterm } from "./tty.ts";

/** The `is-domterm` subcommand. */
export async function isDomterm(a: ParsedArgs): Promise<number> {
  const verbose = flag(a, "verbose");
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
}
