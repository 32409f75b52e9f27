/**
 * `domterm hash-password`: read a password and print the line that
 * `--password-file` expects. On a terminal it asks twice without echo;
 * otherwise it reads the first line of standard input.
 *
 * @module
 */
import { CommandError } from "../cli/errors.ts";
import { hashPassword } from "../remote/password.ts";

/** Longest password read, in bytes. */
const MAX_PASSWORD_BYTES = 4096;

/** Read one line from a terminal with echo off (the terminal's mode is restored). */
async function readHidden(prompt: string): Promise<string> {
  const enc = new TextEncoder();
  // Echo off before the prompt shows: what is typed after it must not echo.
  Deno.stdin.setRaw(true);
  await Deno.stderr.write(enc.encode(prompt));
  const bytes: number[] = [];
  const buf = new Uint8Array(64);
  try {
    for (;;) {
      const n = await Deno.stdin.read(buf);
      if (n === null) break;
      for (const b of buf.subarray(0, n)) {
        if (b === 13 || b === 10) {
          return new TextDecoder().decode(new Uint8Array(bytes));
        }
        if (b === 3 || b === 4) throw new CommandError("cancelled");
        if (b === 127 || b === 8) bytes.pop();
        else if (b >= 32) bytes.push(b);
        if (bytes.length > MAX_PASSWORD_BYTES) {
          throw new CommandError(`longer than ${MAX_PASSWORD_BYTES} bytes`);
        }
      }
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(enc.encode("\n"));
  }
}

/** The first line of standard input (a pipe or file). */
async function readPiped(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const c of Deno.stdin.readable) {
    chunks.push(c);
    total += c.length;
    if (total > MAX_PASSWORD_BYTES + 2) {
      throw new CommandError(`longer than ${MAX_PASSWORD_BYTES} bytes`);
    }
  }
  const all = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return new TextDecoder().decode(all).split(/\r?\n/)[0];
}

/** `domterm hash-password` (the table gives it no options or operands). */
export async function hashPasswordCommand(): Promise<number> {
  {
    let password: string;
    if (Deno.stdin.isTerminal()) {
      password = await readHidden("Password: ");
      if (password !== "" && await readHidden("Again: ") !== password) {
        throw new CommandError("the passwords differ");
      }
    } else {
      password = await readPiped();
    }
    if (password === "") throw new CommandError("the password is empty");
    console.log(await hashPassword(password));
    return 0;
  }
}
