/**
 * The pen: what printed cells get. SGR sets the rendition, DECSCA the
 * protection flag, OSC 8 the hyperlink, DomTerm's `CSI 12 u` the error
 * flag; {@link updateAttr} folds them into the ATTR word that the print
 * path writes.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import { A_EXT_SHIFT, A_GLYPH_MASK, A_PROTECTED } from "../model/cell.ts";
import type { Emulator } from "./context.ts";
import { sweepExt } from "./ext_sweep.ts";
import { applySgr } from "./sgr.ts";
import type { TerminalState } from "./state.ts";

/** The ATTR word the pen, link and error flag give (interning the extended style). */
export function penAttr(s: TerminalState): number {
  let id = s.ext.intern(s.pen.underlineColor, s.link, s.linkId);
  if (id < 0) {
    // The table reached its limit: free what nothing holds (ext_sweep.ts).
    sweepExt(s);
    id = s.ext.intern(s.pen.underlineColor, s.link, s.linkId, false);
  }
  return (s.pen.flags & 0xffff & ~A_GLYPH_MASK) | s.errorOutput |
    (id << A_EXT_SHIFT);
}

/** Recompute the ATTR word after the pen, link or error flag changed. */
export function updateAttr(s: TerminalState): void {
  s.attr = penAttr(s);
}

/** Start an OSC 8 hyperlink, or end it with `uri` null. */
export function setLink(
  s: TerminalState,
  uri: string | null,
  id: string,
): void {
  s.link = uri;
  s.linkId = uri === null ? "" : id;
  updateAttr(s);
}

/** `CSI Pm m` SGR: set the rendition. */
export function sgr(t: Emulator, p: Params): void {
  applySgr(t.s.pen, p);
  updateAttr(t.s);
}

/** `CSI Ps " q` DECSCA: 1 protects what is printed next from selective erase, 0 and 2 do not. */
export function decsca(t: Emulator, p: Params): void {
  const s = t.s;
  const v = p.get(0, 0);
  if (v === 1) {
    s.pen.flags |= A_PROTECTED;
    s.modes.protectMode = 1;
  } else if (v === 0 || v === 2) s.pen.flags &= ~A_PROTECTED;
  updateAttr(s);
}

/**
 * `ESC V` SPA: start of a guarded area: what is printed next is protected
 * against ED, EL and ECH too (ISO protection), until EPA.
 */
export function spa(t: Emulator): void {
  const s = t.s;
  s.pen.flags |= A_PROTECTED;
  s.modes.protectMode = 2;
  updateAttr(s);
}
/** `ESC W` EPA: end of the guarded area. */
export function epa(t: Emulator): void {
  t.s.pen.flags &= ~A_PROTECTED;
  updateAttr(t.s);
}
