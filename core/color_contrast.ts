/**
 * Minimum contrast (the `minimum-contrast-ratio` setting, as VS Code's
 * `terminal.integrated.minimumContrastRatio`): WCAG 2 relative luminance
 * and contrast ratio, and the nearest colour to a program's foreground
 * that reaches a ratio against a background. Pure functions of "#rrggbb"
 * strings: no DOM. The page applies them where colours are resolved
 * (client/render/contrast.ts); tests check the themes' palettes with them.
 *
 * @module
 */

/** A colour as red, green and blue, 0-255 each. */
export type Rgb = readonly [number, number, number];

/** "#rrggbb" (or "#rgb") to components; null for anything else. */
export function parseHex(hex: string): Rgb | null {
  let h = hex.trim();
  if (/^#[0-9a-f]{3}$/i.test(h)) {
    h = "#" + h[1] + h[1] + h[2] + h[2] + h[3] + h[3];
  }
  if (!/^#[0-9a-f]{6}$/i.test(h)) return null;
  const n = parseInt(h.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/** Components to "#rrggbb". */
export function toHex(c: Rgb): string {
  return "#" +
    c.map((v) =>
      Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0")
    ).join("");
}

function channel(v: number): number {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
}

/** WCAG 2 relative luminance, 0 (black) to 1 (white). */
export function luminance(c: Rgb): number {
  return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) +
    0.0722 * channel(c[2]);
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = luminance(a), lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `c` moved a fraction `t` (0-1) of the way to `to`. */
function mix(c: Rgb, to: number, t: number): Rgb {
  return [
    c[0] + (to - c[0]) * t,
    c[1] + (to - c[1]) * t,
    c[2] + (to - c[2]) * t,
  ];
}

/**
 * The smallest move of `fg` towards `to` (0: black, 255: white) that
 * reaches `ratio` against `bg`, or null when even `to` does not.
 */
function moveTowards(fg: Rgb, bg: Rgb, to: number, ratio: number): Rgb | null {
  const end: Rgb = [to, to, to];
  if (contrastRatio(end, bg) < ratio) return null;
  let lo = 0, hi = 1;
  // 12 halvings: finer than one step of 255.
  for (let i = 0; i < 12; i++) {
    const t = (lo + hi) / 2;
    if (contrastRatio(mix(fg, to, t), bg) >= ratio) hi = t;
    else lo = t;
  }
  // Rounded to whole components, then checked again (rounding can lose a
  // hair of contrast).
  let out = mix(fg, to, hi).map(Math.round) as unknown as Rgb;
  for (let step = 0; contrastRatio(out, bg) < ratio && step < 8; step++) {
    out = mix(out, to, 0.1).map(Math.round) as unknown as Rgb;
  }
  return contrastRatio(out, bg) >= ratio ? out : end;
}

/**
 * `fg` as shown on `bg` under a minimum contrast `ratio` (1: off): `fg`
 * itself when it reaches the ratio, else the nearest colour on the way to
 * black or white that does: away from the background first (lighter when
 * `fg` is the lighter one), the other way when that cannot reach it, and
 * black or white (the better) when neither can. Returns "#rrggbb", or null when `fg`
 * needs no change (or a colour is not "#rrggbb").
 */
export function adjustForContrast(
  fgHex: string,
  bgHex: string,
  ratio: number,
): string | null {
  if (!(ratio > 1)) return null;
  const fg = parseHex(fgHex), bg = parseHex(bgHex);
  if (fg === null || bg === null) return null;
  if (contrastRatio(fg, bg) >= ratio) return null;
  // Away from the background: lighter when fg is the lighter of the two.
  const first = luminance(fg) >= luminance(bg) ? 255 : 0;
  const moved = moveTowards(fg, bg, first, ratio) ??
    moveTowards(fg, bg, 255 - first, ratio);
  if (moved !== null) return toHex(moved);
  const white: Rgb = [255, 255, 255], black: Rgb = [0, 0, 0];
  return contrastRatio(white, bg) >= contrastRatio(black, bg)
    ? "#ffffff"
    : "#000000";
}
