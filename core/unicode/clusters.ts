/**
 * Grapheme clusters as the terminal builds them, one code point at a time:
 * which code points join the cell before the cursor instead of taking cells
 * of their own, and which joins make a narrow cell 2 cells wide. One set of
 * rules for the print path (`core/emulator/print.ts`) and the hidden-output
 * planner (`core/emulator/hidden_output.ts`), which must agree exactly.
 *
 * Two sets of rules, chosen by DEC private mode 2027 (`graphemes`):
 *
 * Reset (the default, as xterm and `wcwidth`): every code point takes the
 * cells `charWidth` gives it, and a zero-width one (combining mark, ZWJ,
 * variation selector...) joins the cell before it (one of the C1 range,
 * below U+00A0, is dropped). 👍🏽 is 2 + 2 cells, 👨‍👩‍👧‍👦 4 × 2, ❤️ (with VS16) 1, a
 * flag 1 + 1: what programs that count with `wcwidth` (vim, readline)
 * expect.
 *
 * Set (grapheme clusters, the part of UAX #29 that terminals agree on):
 * - a zero-width character (combining mark, ZWJ, variation selector...)
 *   joins the cell before it; one of the C1 range (below U+00A0) is dropped;
 * - any character after a ZWJ joins (emoji ZWJ sequences);
 * - a skin-tone modifier joins an emoji modifier base, else it is a wide
 *   character of its own;
 * - a regional indicator joins a lone one (not a cluster, not wide): a
 *   flag, 2 cells wide;
 * - VS16 after a single narrow character with the Emoji property asks for
 *   emoji presentation: the cell becomes 2 cells wide;
 * - a cluster's text stops growing at {@link MAX_CLUSTER_LENGTH} UTF-16
 *   code units (further joiners are dropped);
 * - a joiner with no cell to join (column 0, a blank cell) is dropped.
 *
 * @module
 */
import {
  hasEmojiPresentationWithVs16,
  isEmojiModifier,
  isEmojiModifierBase,
  isRegionalIndicator,
  VS16,
  ZWJ,
} from "./width.ts";

export { ZWJ };

/**
 * Grapheme clusters stop growing at this many UTF-16 code units (a cell's
 * cluster text, `Line.setCluster`).
 */
export const MAX_CLUSTER_LENGTH = 32;

/** {@link clusterAction}: a character of its own (its width from `charWidth`). */
export const PRINT = 0;
/** {@link clusterAction}: appended to the cluster of the cell before it. */
export const JOIN = 1;
/** {@link clusterAction}: appended, and the narrow cell becomes 2 cells wide. */
export const JOIN_WIDEN = 2;
/** {@link clusterAction}: nothing (no cell to join, or a C1 control). */
export const DROP = 3;

/** Flag of the target cell: it holds more than one code point. */
export const TARGET_CLUSTER = 1;
/** Flag of the target cell: it is 2 cells wide. */
export const TARGET_WIDE = 2;

/**
 * True when what `cp` does depends on the cell before it (then ask
 * {@link clusterAction}); false when it is a character of its own whatever
 * precedes it. `width` is `charWidth(cp)`; `joinNext`: the previous code
 * point printed was a ZWJ.
 */
export function dependsOnTarget(
  cp: number,
  width: number,
  joinNext: boolean,
  graphemes: boolean,
): boolean {
  return width === 0 || joinNext ||
    (graphemes && (isEmojiModifier(cp) || isRegionalIndicator(cp)));
}

/**
 * What printing `cp` does: {@link PRINT}, {@link JOIN}, {@link JOIN_WIDEN}
 * or {@link DROP}. `width` is `charWidth(cp)`, `joinNext` true right after
 * a ZWJ. The cell it may join: `target`, its code point (0: there is none),
 * `lastCp` the last code point of its text, `flags` {@link TARGET_CLUSTER}
 * and {@link TARGET_WIDE}; `graphemes`: mode 2027 is set (else only
 * zero-width characters join, and nothing widens; `joinNext` is never true
 * then: callers set it only with `graphemes`). (The length cap is the
 * caller's: a cluster at {@link MAX_CLUSTER_LENGTH} drops what would join
 * it.)
 */
export function clusterAction(
  cp: number,
  width: number,
  joinNext: boolean,
  target: number,
  lastCp: number,
  flags: number,
  graphemes: boolean,
): number {
  if (width === 0 || joinNext) {
    if (width === 0 && cp < 0xa0) return DROP;
    if (target === 0) return DROP;
    return graphemes && cp === VS16 && flags === 0 &&
        hasEmojiPresentationWithVs16(target)
      ? JOIN_WIDEN
      : JOIN;
  }
  if (target === 0 || !graphemes) return PRINT;
  if (isEmojiModifier(cp)) return isEmojiModifierBase(lastCp) ? JOIN : PRINT;
  if (isRegionalIndicator(cp)) {
    return flags === 0 && isRegionalIndicator(target) ? JOIN_WIDEN : PRINT;
  }
  return PRINT;
}

/** The last code point of `s` (a cluster's text). */
export function lastCodePoint(s: string): number {
  const n = s.length;
  const lo = s.charCodeAt(n - 1);
  return n > 1 && lo >= 0xdc00 && lo <= 0xdfff ? s.codePointAt(n - 2)! : lo;
}
