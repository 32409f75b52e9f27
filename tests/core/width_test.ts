import {
  BMP_UNKNOWN,
  BMP_WIDTH,
  charWidth,
  computeWidth,
  hasEmojiPresentationWithVs16,
  isEmojiModifier,
  isEmojiModifierBase,
  isRegionalIndicator,
} from "../../core/unicode/width.ts";
import { assert, assertEquals } from "./helpers.ts";

const cases: [string, number, number][] = [
  ["ASCII letter", 0x41, 1],
  ["space", 0x20, 1],
  ["NUL", 0x00, 0],
  ["DEL", 0x7f, 0],
  ["C1 control", 0x85, 0],
  ["Latin-1 é", 0xe9, 1],
  ["soft hyphen", 0xad, 1],
  ["ambiguous ± is narrow", 0xb1, 1],
  ["ambiguous Ω is narrow", 0x3a9, 1],
  ["combining acute", 0x301, 0],
  ["combining enclosing circle (Me)", 0x20dd, 0],
  ["Hebrew point (Mn)", 0x5b4, 0],
  ["Arabic number sign (prepended Cf) is visible", 0x600, 1],
  ["ZWSP (Cf)", 0x200b, 0],
  ["ZWNJ", 0x200c, 0],
  ["ZWJ", 0x200d, 0],
  ["LRM", 0x200e, 0],
  ["word joiner", 0x2060, 0],
  ["BOM", 0xfeff, 0],
  ["VS15", 0xfe0e, 0],
  ["VS16", 0xfe0f, 0],
  ["ideographic VS", 0xe0100, 0],
  ["tag character", 0xe0041, 0],
  ["Hangul leading jamo", 0x1100, 2],
  ["Hangul medial vowel", 0x1161, 0],
  ["Hangul final consonant", 0x11a8, 0],
  ["Hangul syllable", 0xac00, 2],
  ["CJK ideograph", 0x5b57, 2],
  ["CJK extension B", 0x20000, 2],
  ["hiragana", 0x3042, 2],
  ["ideographic space", 0x3000, 2],
  ["fullwidth A", 0xff21, 2],
  ["halfwidth katakana", 0xff71, 1],
  ["emoji (presentation)", 0x1f600, 2],
  ["emoji rocket", 0x1f680, 2],
  ["heart (text presentation)", 0x2764, 1],
  ["watch (emoji presentation)", 0x231a, 2],
  ["box drawing", 0x2500, 1],
  ["Greek α", 0x3b1, 1],
  ["Cyrillic я", 0x44f, 1],
  ["Devanagari ka", 0x915, 1],
  ["Devanagari virama", 0x94d, 0],
  ["private use", 0xe000, 1],
  ["replacement char", 0xfffd, 1],
  ["regional indicator (alone, as wcwidth)", 0x1f1e6, 1],
  ["skin-tone modifier (alone)", 0x1f3fb, 2],
  ["white flag (text default)", 0x1f3f3, 1],
  ["beyond Unicode", 0x110000, 1],
];

for (const [name, cp, w] of cases) {
  Deno.test(`width: ${name} (U+${cp.toString(16).toUpperCase()}) = ${w}`, () => {
    assertEquals(charWidth(cp), w);
  });
}

Deno.test("width: the cached table agrees with the direct computation", () => {
  for (let cp = 0; cp < 0x30000; cp += 7) {
    if (charWidth(cp) !== computeWidth(cp)) {
      throw new Error(
        `U+${cp.toString(16)}: ${charWidth(cp)} vs ${computeWidth(cp)}`,
      );
    }
  }
});

Deno.test("width: repeated lookups are stable", () => {
  for (let k = 0; k < 3; k++) {
    assertEquals(charWidth(0x5b57), 2);
    assertEquals(charWidth(0x301), 0);
  }
});

Deno.test("width: every BMP entry, once filled, equals the direct computation", () => {
  for (let cp = 0; cp < 0x10000; cp++) {
    const w = charWidth(cp);
    if (w !== computeWidth(cp) || BMP_WIDTH[cp] === BMP_UNKNOWN) {
      throw new Error(`U+${cp.toString(16)}: ${w} vs ${computeWidth(cp)}`);
    }
  }
});

Deno.test("width: emoji predicates", () => {
  assert(isEmojiModifier(0x1f3fb) && isEmojiModifier(0x1f3ff));
  assert(!isEmojiModifier(0x1f3fa) && !isEmojiModifier(0x1f400));
  assert(isRegionalIndicator(0x1f1e6) && isRegionalIndicator(0x1f1ff));
  assert(!isRegionalIndicator(0x1f1e5) && !isRegionalIndicator(0x1f200));
  for (const base of [0x1f44d, 0x261d, 0x270a, 0x1f469, 0x1f9d1]) {
    assert(isEmojiModifierBase(base), `U+${base.toString(16)} is a base`);
  }
  for (const other of [0x41, 0x1f600, 0x2764, 0x1f3fb, 0x5b57]) {
    assert(!isEmojiModifierBase(other), `U+${other.toString(16)} is not`);
  }
  // Text-default emoji that VS16 widens, keycap bases included.
  for (const e of [0x2764, 0x263a, 0x2714, 0x1f3f3, 0x31, 0x23, 0x2a, 0xa9]) {
    assert(hasEmojiPresentationWithVs16(e), `U+${e.toString(16)} widens`);
  }
  for (const other of [0x41, 0x5b57, 0x301, 0x2500]) {
    assert(!hasEmojiPresentationWithVs16(other), `U+${other.toString(16)}`);
  }
  // Cached answers stay the same.
  assert(isEmojiModifierBase(0x1f44d) && hasEmojiPresentationWithVs16(0x2764));
});
