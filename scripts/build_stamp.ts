/**
 * Whether the embedded client (static/gen/assets.ts) is current: the stamp
 * records the size and modification time of every input it was made from
 * (client/, core/, static/, deno.json, deno.lock, the build scripts) and
 * the Deno version. Shared by `scripts/build.ts`, which writes it, and
 * `scripts/start.ts`, which only builds when it is out of date.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the build writes. */
export const GEN = join(ROOT, "static", "gen");
/** The stamp of the inputs static/gen/assets.ts was made from. */
export const STAMP_FILE = join(GEN, "assets.stamp");

/**
 * One line per input file (path, size, modification time), sorted: what
 * the client bundle and assets.ts are made from.
 */
export async function inputsStamp(): Promise<string> {
  const lines = [`deno ${Deno.version.deno}`];
  async function add(path: string): Promise<void> {
    const st = await Deno.stat(path).catch(() => null);
    if (st === null) return;
    if (st.isDirectory) {
      if (path === GEN) return;
      for await (const e of Deno.readDir(path)) await add(join(path, e.name));
    } else {
      lines.push(`${path}\t${st.size}\t${st.mtime?.getTime()}`);
    }
  }
  for (const p of ["client", "core", "static"]) await add(join(ROOT, p));
  for (const p of ["deno.json", "deno.lock"]) await add(join(ROOT, p));
  for (const p of ["build.ts", "build_stamp.ts"]) {
    await add(join(ROOT, "scripts", p));
  }
  return lines.sort().join("\n") + "\n";
}

/** Whether the outputs exist and were made from inputs that match `stamp`. */
export async function isCurrent(stamp: string): Promise<boolean> {
  try {
    await Deno.stat(join(GEN, "assets.ts"));
    return (await Deno.readTextFile(STAMP_FILE)) === stamp;
  } catch {
    return false;
  }
}
