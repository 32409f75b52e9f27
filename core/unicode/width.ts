/**
 * Display width of a Unicode code point in terminal cells: 0, 1 or 2.
 *
 * - 0: combining marks (Mn, Me), format characters (Cf: ZWJ, ZWNJ, bidi
 *   controls, tags, ...), variation selectors, Hangul medial vowels and final
 *   consonants (U+1160-U+11FF, U+D7B0-U+D7FF).
 * - 2: East Asian Wide and Fullwidth, which includes emoji with default emoji
 *   presentation (from the npm package `get-east-asian-width`).
 * - 1: everything else (including East Asian Ambiguous, as xterm does by
 *   default).
 *
 * Code points below U+0300 come from a precomputed table, the rest of the
 * BMP from a flat table filled entry by entry on first use, other planes from
 * a lazily built two-level table (256 code points per page), so the package
 * is called at most once per code point.
 *
 * Widths of whole grapheme clusters (skin-tone modifiers joining their base,
 * VS16 widening, regional-indicator pairs) are the emulator's business; the
 * predicates it needs are at the end of this module.
 *
 * @module
 */
import { eastAsianWidth } from "get-east-asian-width";

/** Code points below this have their width in {@link LOW_WIDTH}. */
export const LOW_LIMIT = 0x300;

/**
 * Widths of U+0000..U+02FF. Controls (C0, DEL, C1) are 0; U+00AD (soft
 * hyphen) is 1, as in xterm and wcwidth.
 */
export const LOW_WIDTH: Uint8Array = (() => {
  const t = new Uint8Array(LOW_LIMIT).fill(1);
  for (let c = 0; c < 0x20; c++) t[c] = 0;
  for (let c = 0x7f; c < 0xa0; c++) t[c] = 0;
  return t;
})();

const ZERO_WIDTH_CATEGORY = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

/** Prepended concatenation marks: Cf, but visible (wcwidth gives 1). */
function isPrependedMark(cp: number): boolean {
  return (cp >= 0x600 && cp <= 0x605) || cp === 0x6dd || cp === 0x70f ||
    cp === 0x890 || cp === 0x891 || cp === 0x8e2 || cp === 0x110bd ||
    cp === 0x110cd;
}

/**
 * Width computed from first principles (no cache): what the cached tables
 * ({@link charWidth}) hold.
 */
export function computeWidth(cp: number): 0 | 1 | 2 {
  if (cp < LOW_LIMIT) return LOW_WIDTH[cp] as 0 | 1;
  if (cp > 0x10ffff) return 1;
  if ((cp >= 0x1160 && cp <= 0x11ff) || (cp >= 0xd7b0 && cp <= 0xd7ff)) {
    return 0;
  }
  if (cp >= 0xd800 && cp <= 0xdfff) return 1; // lone surrogates (U+FFFD in practice)
  if (
    ZERO_WIDTH_CATEGORY.test(String.fromCodePoint(cp)) && !isPrependedMark(cp)
  ) {
    return 0;
  }
  return eastAsianWidth(cp) as 1 | 2;
}

const PAGE_SHIFT = 8;
const PAGE_SIZE = 1 << PAGE_SHIFT;
const pages: (Uint8Array | undefined)[] = new Array(0x110000 >> PAGE_SHIFT);

function buildPage(page: number): Uint8Array {
  const t = new Uint8Array(PAGE_SIZE);
  const base = page << PAGE_SHIFT;
  for (let i = 0; i < PAGE_SIZE; i++) t[i] = computeWidth(base + i);
  pages[page] = t;
  return t;
}

/**
 * Widths of the whole BMP, one byte per code point, filled on demand:
 * {@link BMP_UNKNOWN} until the code point is first looked up. A flat table
 * costs one read and one compare per character on the print hot path (no
 * page lookup, no call into the package), and filling it lazily per entry
 * means no start-up cost for the 64 Ki code points nobody prints.
 */
export const BMP_WIDTH: Uint8Array = new Uint8Array(0x10000).fill(3);
/** Marks a {@link BMP_WIDTH} entry that has not been computed yet. */
export const BMP_UNKNOWN = 3;

/** Compute, store and return the width of BMP code point `cp`. */
export function fillBmpWidth(cp: number): number {
  const w = cp < LOW_LIMIT ? LOW_WIDTH[cp] : computeWidth(cp);
  BMP_WIDTH[cp] = w;
  return w;
}

/**
 * Width in cells of code point `cp` (0, 1 or 2). BMP code points cost one
 * read of {@link BMP_WIDTH} once looked up; others one table read after the
 * first use of their 256-code-point page.
 */
export function charWidth(cp: number): number {
  if (cp < 0x10000) {
    const w = BMP_WIDTH[cp];
    return w !== BMP_UNKNOWN ? w : fillBmpWidth(cp);
  }
  if (cp > 0x10ffff) return 1;
  const page = cp >>> PAGE_SHIFT;
  const t = pages[page] ?? buildPage(page);
  return t[cp & (PAGE_SIZE - 1)];
}

/** Zero width joiner. */
export const ZWJ = 0x200d;
/** Variation selector 16 (emoji presentation). */
export const VS16 = 0xfe0f;

/** Emoji skin-tone modifiers U+1F3FB..U+1F3FF (Fitzpatrick types 1-2 to 6). */
export function isEmojiModifier(cp: number): boolean {
  return cp >= 0x1f3fb && cp <= 0x1f3ff;
}

/** Regional indicator symbols U+1F1E6..U+1F1FF (two make a flag). */
export function isRegionalIndicator(cp: number): boolean {
  return cp >= 0x1f1e6 && cp <= 0x1f1ff;
}

const EMOJI_MODIFIER_BASE = /^\p{Emoji_Modifier_Base}$/u;
const EMOJI = /^\p{Emoji}$/u;

/**
 * Emoji properties of U+0000..U+1FFFF, filled on demand (all emoji are
 * below U+20000): the regular expressions cost far more than a table read,
 * and the same few emoji come back again and again.
 */
const emojiProps = new Uint8Array(0x20000);
const P_KNOWN = 1, P_EMOJI = 2, P_MODIFIER_BASE = 4;

function emojiPropsOf(cp: number): number {
  if (cp >= 0x20000) return P_KNOWN;
  let p = emojiProps[cp];
  if (p === 0) {
    const s = String.fromCodePoint(cp);
    p = P_KNOWN | (EMOJI.test(s) ? P_EMOJI : 0) |
      (EMOJI_MODIFIER_BASE.test(s) ? P_MODIFIER_BASE : 0);
    emojiProps[cp] = p;
  }
  return p;
}

/** True when a skin-tone modifier after `cp` joins it (Emoji_Modifier_Base). */
export function isEmojiModifierBase(cp: number): boolean {
  return (emojiPropsOf(cp) & P_MODIFIER_BASE) !== 0;
}

/**
 * True when `cp` followed by VS16 is an emoji presentation sequence that
 * terminals draw 2 cells wide: characters with the Emoji property (which
 * includes text-default ones such as U+2764 and the keycap bases 0-9, # and
 * *). Only called for narrow characters, so wide emoji stay as they are.
 */
export function hasEmojiPresentationWithVs16(cp: number): boolean {
  return (emojiPropsOf(cp) & P_EMOJI) !== 0;
}
