/**
 * REP (`CSI Ps b`): print the last printed character Ps more times.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { count } from "./params.ts";

/** `CSI Ps b` REP: repeat the last printed character Ps times (at most a screenful). */
export function rep(t: Emulator, p: Params): void {
  const s = t.s;
  const ch = s.lastChar;
  if (ch === 0) return;
  const n = Math.min(count(p, 0), s.cols * s.rows);
  for (let k = 0; k < n; k++) t.printChar(ch);
}
