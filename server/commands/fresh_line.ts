/**
 * `domterm fresh-line`: start a new line unless the cursor is already at
 * the start of one (`CSI 20 u`).
 *
 * @module
 */
import { flag, type ParsedArgs } from "../cli/parse.ts";
import { requireDomterm, writeAll } from "./tty.ts";

/** The `fresh-line` subcommand. */
export async function freshLine(a: ParsedArgs): Promise<number> {
  await requireDomterm(flag(a, "force"));
  await writeAll("\x1b[20u");
  return 0;
}
