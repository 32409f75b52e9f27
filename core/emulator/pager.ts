/**
 * DomTerm's pager switch, `CSI 92 ; Ps u`: a program turns the window's
 * automatic pager on (`Ps` 1) or off (`Ps` 2) for a while, for example
 * around a long listing. The emulator keeps no state for it: it reports a
 * `pager` event and the page's pager (client/pager.ts) acts on it.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";

/** The first parameter of DomTerm's pager `CSI u`. */
export const PAGER_CSI_U = 92;

/**
 * `CSI 92 ; 1 u` / `CSI 92 ; 2 u`: the automatic pager on / off (a
 * `pager` event). Returns false when `p` is not a pager sequence; a
 * pager sequence with another second parameter is ignored (true).
 */
export function pagerCsiU(t: Emulator, p: Params): boolean {
  if (p.get(0, 0) !== PAGER_CSI_U) return false;
  const what = p.get(1, 0);
  if (what === 1 || what === 2) {
    t.emit({ type: "pager", automatic: what === 1 });
  }
  return true;
}
