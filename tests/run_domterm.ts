/**
 * Runs this checkout's `domterm` (main.ts) as a command, to its end, for
 * tests of the command line.
 *
 * @module
 */
import { privateRuntimeEnv } from "./runtime_dir.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** What a finished `domterm` printed, and its exit status. */
export interface DomtermOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `domterm ARGS` with no input and the environment
 * `privateRuntimeEnv(env)` (its own runtime directory unless `env` names
 * one); resolves once it exits.
 */
export async function runDomterm(
  args: string[],
  env: Record<string, string> = {},
): Promise<DomtermOutput> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env: privateRuntimeEnv(env),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}
