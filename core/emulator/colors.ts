/**
 * Default colours (reported by OSC 4 / 10 / 11 / 12 queries) and colour
 * specifications as X11 parses them (`#rgb`, `rgb:r/g/b`, ...).
 *
 * The stylesheet draws the actual default colours; these are the values
 * the emulator reports when a program asks, so keep the two in step.
 *
 * @module
 */

/** Default foreground (OSC 10 query answer). */
export const DEFAULT_FOREGROUND = "#d0d0d0";
/** Default background (OSC 11 query answer). */
export const DEFAULT_BACKGROUND = "#000000";
/** Default cursor colour (OSC 12 query answer). */
export const DEFAULT_CURSOR = "#d0d0d0";

/** xterm's 16 ANSI colours. */
const ANSI_16 = [
  "#000000",
  "#cd0000",
  "#00cd00",
  "#cdcd00",
  "#0000ee",
  "#cd00cd",
  "#00cdcd",
  "#e5e5e5",
  "#7f7f7f",
  "#ff0000",
  "#00ff00",
  "#ffff00",
  "#5c5cff",
  "#ff00ff",
  "#00ffff",
  "#ffffff",
];

function hex2(n: number): string {
  return n.toString(16).padStart(2, "0");
}

/** "#rrggbb" of the default palette entry `index` (0-255, xterm's palette). */
export function defaultPaletteColor(index: number): string {
  if (index < 16) return ANSI_16[index];
  if (index < 232) {
    const i = index - 16;
    const level = (v: number) => v === 0 ? 0 : 55 + v * 40;
    return "#" + hex2(level(Math.floor(i / 36))) +
      hex2(level(Math.floor(i / 6) % 6)) + hex2(level(i % 6));
  }
  const g = 8 + (index - 232) * 10;
  return "#" + hex2(g) + hex2(g) + hex2(g);
}

/** Scale `digits` hex digits to 8 bits as X11 does. */
function scaleHex(s: string): number {
  if (!/^[0-9a-fA-F]{1,4}$/.test(s)) return -1;
  const v = parseInt(s, 16);
  const max = (1 << (4 * s.length)) - 1;
  return Math.round((v * 255) / max);
}

/**
 * Parse an X11 colour specification: `#rgb`, `#rrggbb`, `#rrrgggbbb`,
 * `#rrrrggggbbbb` (high-order digits) or `rgb:r/g/b` (1-4 hex digits each,
 * scaled). Returns "#rrggbb", or null if it is not one of these.
 */
export function parseColorSpec(spec: string): string | null {
  spec = spec.trim();
  if (spec.startsWith("#")) {
    const h = spec.slice(1);
    if (!/^[0-9a-fA-F]+$/.test(h) || h.length % 3 !== 0 || h.length > 12) {
      return null;
    }
    const n = h.length / 3;
    const part = (k: number) => {
      // "#rgb" means the high 4 bits: #abc = #a0b0c0.
      const v = parseInt(h.slice(k * n, k * n + n), 16);
      return n >= 2 ? v >> (4 * (n - 2)) : v << 4;
    };
    return "#" + hex2(part(0)) + hex2(part(1)) + hex2(part(2));
  }
  const m = /^rgb:([^/]+)\/([^/]+)\/([^/]+)$/i.exec(spec);
  if (m) {
    const r = scaleHex(m[1]), g = scaleHex(m[2]), b = scaleHex(m[3]);
    if (r < 0 || g < 0 || b < 0) return null;
    return "#" + hex2(r) + hex2(g) + hex2(b);
  }
  return null;
}

/** "#rrggbb" -> "rgb:rrrr/gggg/bbbb" (the form xterm uses in query replies). */
export function formatColorReply(color: string): string {
  const c = color.slice(1);
  const r = c.slice(0, 2), g = c.slice(2, 4), b = c.slice(4, 6);
  return `rgb:${r}${r}/${g}${g}/${b}${b}`;
}

/** Colours a program changed with OSC 4 / 10 / 11 / 12. */
export class ColorOverrides {
  /** Palette index -> "#rrggbb". */
  readonly palette: Map<number, string> = new Map();
  /** OSC 10 (foreground), 11 (background), 12 (cursor): "#rrggbb" or null. */
  readonly dynamic: (string | null)[] = [null, null, null];

  /** The colour OSC 4 reports for `index`. */
  paletteColor(index: number): string {
    return this.palette.get(index) ?? defaultPaletteColor(index);
  }
  /** The colour OSC 10+`which` reports (0 foreground, 1 background, 2 cursor). */
  dynamicColor(which: number): string {
    return this.dynamic[which] ??
      [DEFAULT_FOREGROUND, DEFAULT_BACKGROUND, DEFAULT_CURSOR][which];
  }
  /** Forget every override. */
  reset(): void {
    this.palette.clear();
    this.dynamic.fill(null);
  }
}
