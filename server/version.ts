/** The domterm version, from deno.json (one place to change it). */
import denoJson from "../deno.json" with { type: "json" };

/** Version string, e.g. "0.1.0". */
export const VERSION: string = denoJson.version;

/**
 * Compares two versions by their dotted numbers ("0.10.0" > "0.9.3"); a
 * pre-release or build suffix ("-rc1", "+abc") is ignored, and a missing
 * number counts as 0. Negative when `a` is older, 0 when equal, positive
 * when newer: a newer `domterm` that finds an older server running hands
 * the server's sessions to itself (server/cli.ts).
 */
export function compareVersions(a: string, b: string): number {
  const nums = (v: string) =>
    v.replace(/[-+].*$/, "").split(".").map((p) => Number.parseInt(p, 10) || 0);
  const x = nums(a), y = nums(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
