/**
 * `domterm html [html...]`: insert an HTML fragment at the cursor
 * (`OSC 72 ; html BEL`), from the arguments or from standard input.
 *
 * @module
 */
import { flag, type ParsedArgs } from "../cli/parse.ts";
import {
  CommandError,
  MAX_INPUT_BYTES,
  osc72,
  readCapped,
  requireDomterm,
  writeAll,
} from "./tty.ts";

/** Decode UTF-8 strictly: a terminal would show broken bytes as U+FFFD anyway. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CommandError(`${what} is not valid UTF-8`);
  }
}

/** The `html` subcommand. */
export async function html(a: ParsedArgs): Promise<number> {
  // Check before reading stdin, so a wrong terminal fails fast.
  await requireDomterm(flag(a, "force"));
  let text: string;
  if (a.operands.length) {
    text = a.operands.join(" ");
  } else {
    const bytes = await readCapped(
      Deno.stdin.readable,
      MAX_INPUT_BYTES,
      "standard input",
    );
    text = decodeUtf8(bytes, "standard input");
  }
  await writeAll(
    osc72(text, a.operands.length ? "the HTML" : "standard input"),
  );
  return 0;
}
