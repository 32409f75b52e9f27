/**
 * `domterm hcat file.html...`: insert each file as an HTML fragment, one
 * `OSC 72` per file.
 *
 * @module
 */
import { decodeUtf8 } from "./html.ts";
import { flag, type ParsedArgs } from "../cli/parse.ts";
import {
  CommandError,
  MAX_INPUT_BYTES,
  osc72,
  readCapped,
  requireDomterm,
  writeAll,
} from "./tty.ts";

/** Read a file with the size cap, turning errors into CommandErrors. */
export async function readFileCapped(path: string): Promise<Uint8Array> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound
      ? "no such file"
      : (e as Error).message;
    throw new CommandError(`${path}: ${why}`);
  }
  try {
    const info = await file.stat();
    if (info.isDirectory) throw new CommandError(`${path}: is a directory`);
    // readable closes the file when the stream ends or is cancelled.
    return await readCapped(file.readable, MAX_INPUT_BYTES, path);
  } catch (e) {
    try {
      file.close();
    } catch {
      // the stream already closed it
    }
    if (e instanceof CommandError) throw e;
    throw new CommandError(`${path}: ${(e as Error).message}`);
  }
}

/** The `hcat` subcommand. */
export async function hcat(a: ParsedArgs): Promise<number> {
  await requireDomterm(flag(a, "force"));
  // A bad file is reported and skipped; the others are still shown.
  let status = 0;
  for (const path of a.operands) {
    try {
      const text = decodeUtf8(await readFileCapped(path), path);
      await writeAll(osc72(text, path));
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      console.error(`domterm hcat: ${e.message}`);
      status = 1;
    }
  }
  return status;
}
