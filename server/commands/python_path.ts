/**
 * `domterm python-path`: write domterm's Python package (embedded in the
 * program) into the runtime directory and print the directory to add to
 * PYTHONPATH: `export PYTHONPATH="$(domterm python-path)"`. docs/python.md.
 *
 * @module
 */
import { runtimeDir } from "../control.ts";
import { writePythonPackage } from "../python/package.ts";

/** The `python-path` subcommand. */
export async function pythonPath(): Promise<number> {
  console.log(await writePythonPackage(runtimeDir()));
  return 0;
}
