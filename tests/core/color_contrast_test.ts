/**
 * The minimum-contrast adjustment (core/color_contrast.ts) over the real
 * themes: every colour of the 16-colour palette of static/domterm.css, as
 * a foreground on both themes' backgrounds (and on every other palette
 * colour), meets the ratio after the adjustment; colours that already
 * did are left alone.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  adjustForContrast,
  contrastRatio,
  parseHex,
} from "../../core/color_contrast.ts";
import { SETTINGS_BY_KEY } from "../../core/settings/schema.ts";

interface Theme {
  name: string;
  bg: string;
  fg: string;
  palette: string[];
}

/** The dark theme (`:root`) and the light one (the prefers-color-scheme rule). */
function themes(): Theme[] {
  const css = Deno.readTextFileSync(
    new URL("../../static/domterm.css", import.meta.url),
  );
  const light = css.indexOf("@media (prefers-color-scheme: light)");
  assert(light > 0, "domterm.css has a light theme");
  const read = (name: string, text: string): Theme => {
    const get = (prop: string) => {
      const m = new RegExp(`${prop}:\\s*(#[0-9a-fA-F]{6})`).exec(text);
      assert(m, `${name}: ${prop}`);
      return m[1].toLowerCase();
    };
    return {
      name,
      bg: get("--dt-bg"),
      fg: get("--dt-fg"),
      palette: Array.from({ length: 16 }, (_, i) => get(`--dt-color-${i}\\b`)),
    };
  };
  return [read("dark", css.slice(0, light)), read("light", css.slice(light))];
}

function shown(fg: string, bg: string, ratio: number): string {
  return adjustForContrast(fg, bg, ratio) ?? fg;
}

Deno.test("contrast: the default setting is 4.5, 1 turns it off", () => {
  assertEquals(SETTINGS_BY_KEY.get("minimum-contrast-ratio")?.default, 4.5);
  assertEquals(adjustForContrast("#d6d8dc", "#fbfbfa", 1), null);
});

Deno.test("contrast: every palette colour on both themes' backgrounds meets 4.5 after the adjustment", () => {
  const failedBefore: string[] = [];
  for (const t of themes()) {
    const bg = parseHex(t.bg)!;
    for (let i = 0; i < 16; i++) {
      const fg = t.palette[i];
      if (contrastRatio(parseHex(fg)!, bg) < 4.5) {
        failedBefore.push(`${t.name} ${i}`);
      }
      const out = shown(fg, t.bg, 4.5);
      const r = contrastRatio(parseHex(out)!, bg);
      assert(r >= 4.5, `${t.name}: colour ${i} ${fg} -> ${out}: ${r}`);
    }
    // The default foreground too (a user's colour settings could spoil it).
    const r = contrastRatio(parseHex(shown(t.fg, t.bg, 4.5))!, bg);
    assert(r >= 4.5, `${t.name}: default fg`);
  }
  // The adjustment has work to do: the light theme's bright white (bold
  // bright white was invisible there) and greys, the dark theme's black.
  assert(failedBefore.includes("light 15"), failedBefore.join(", "));
  assert(failedBefore.includes("dark 0"), failedBefore.join(", "));
});

Deno.test("contrast: every pair of palette colours, at several ratios (or the best black or white can do)", () => {
  for (const t of themes()) {
    for (const ratio of [3, 4.5, 7]) {
      for (const fg of t.palette) {
        for (const bg of t.palette) {
          const out = shown(fg, bg, ratio);
          const b = parseHex(bg)!;
          const r = contrastRatio(parseHex(out)!, b);
          // On a mid-tone background a high ratio may be out of reach:
          // then black or white, whichever is better.
          const best = Math.max(
            contrastRatio([0, 0, 0], b),
            contrastRatio([255, 255, 255], b),
          );
          const want = Math.min(ratio, best);
          assert(r >= want - 1e-9, `${t.name} ${fg} on ${bg} @${ratio}: ${r}`);
        }
      }
    }
  }
});

Deno.test("contrast: readable colours are left alone, and moves are small", () => {
  // Already readable: no change.
  assertEquals(adjustForContrast("#2f333b", "#fbfbfa", 4.5), null);
  assertEquals(adjustForContrast("#d5d9e0", "#1c1f26", 4.5), null);
  // Light grey on white darkens (keeps its hue family), not to black.
  const out = adjustForContrast("#d6d8dc", "#fbfbfa", 4.5)!;
  const c = parseHex(out)!;
  assert(c[0] > 40 && c[0] < 140, out);
  // Dark on dark lightens.
  const up = parseHex(adjustForContrast("#2e333d", "#1c1f26", 4.5)!)!;
  assert(up[0] > 0x2e, String(up));
  // Unreachable ratios give the better of black and white.
  assertEquals(adjustForContrast("#777777", "#767676", 21), "#000000");
});
