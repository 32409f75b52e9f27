/**
 * Bundles a test harness for the browser with `deno bundle`, once per
 * harness per test run.
 *
 * @module
 */

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const cache = new Map<string, Promise<string>>();

/** The browser bundle of `entry` as JavaScript text. */
export function bundleForBrowser(entry: URL): Promise<string> {
  let p = cache.get(entry.href);
  if (!p) {
    p = (async () => {
      const dir = await Deno.makeTempDir({ prefix: "domterm-bundle-" });
      try {
        const out = `${dir}/bundle.js`;
        const r = await new Deno.Command(Deno.execPath(), {
          args: [
            "bundle",
            "--quiet",
            "--platform",
            "browser",
            "--config",
            CONFIG,
            "-o",
            out,
            entry.pathname,
          ],
          stdout: "null",
          stderr: "piped",
        }).output();
        if (!r.success) {
          throw new Error(
            `deno bundle ${entry.pathname} failed: ${
              new TextDecoder().decode(r.stderr)
            }`,
          );
        }
        return await Deno.readTextFile(out);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    })();
    cache.set(entry.href, p);
  }
  return p;
}
