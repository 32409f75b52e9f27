/**
 * Default colours (reported by OSC 4 / 5 / 10-19 queries) and colour
 * specifications as xterm parses them (`xparse_color.ts`).
 *
 * The stylesheet draws the actual default colours; these are the values
 * the emulator reports when a program asks, so keep the two in step.
 *
 * @module
 */
import { parseXColor } from "./xparse_color.ts";

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

/**
 * The colours a terminal starts with and goes back to (OSC 104, 110-119,
 * RIS): what OSC 4 / 10 / 11 / 12 queries answer while no program changed
 * them. Colours are "#rrggbb".
 */
export interface DefaultColors {
  /** Default foreground (OSC 10). */
  foreground: string;
  /** Default background (OSC 11). */
  background: string;
  /** Cursor colour (OSC 12). */
  cursor: string;
  /**
   * Palette entries from 0 (OSC 4); the indices it does not reach (up to
   * 255) keep xterm's palette.
   */
  palette: readonly string[];
}

/** Today's defaults: {@link DEFAULT_FOREGROUND} and friends, xterm's palette. */
export const BUILTIN_DEFAULT_COLORS: DefaultColors = Object.freeze({
  foreground: DEFAULT_FOREGROUND,
  background: DEFAULT_BACKGROUND,
  cursor: DEFAULT_CURSOR,
  palette: Object.freeze(
    Array.from({ length: 256 }, (_, i) => defaultPaletteColor(i)),
  ),
});

/**
 * `base` with the colours of `changes` that parse (a "#rrggbb", or any
 * colour specification xterm takes, `parseColorSpec`) put in, as
 * "#rrggbb"; a colour that does not parse is ignored, and palette
 * entries past 255 too.
 */
export function withDefaultColors(
  base: DefaultColors,
  changes: Partial<DefaultColors>,
): DefaultColors {
  const pick = (spec: string | undefined, old: string) =>
    (typeof spec === "string" ? parseColorSpec(spec) : null) ?? old;
  const palette = [...base.palette];
  changes.palette?.slice(0, 256).forEach((c, i) => {
    palette[i] = pick(c, palette[i] ?? defaultPaletteColor(i));
  });
  return Object.freeze({
    foreground: pick(changes.foreground, base.foreground),
    background: pick(changes.background, base.background),
    cursor: pick(changes.cursor, base.cursor),
    palette: Object.freeze(palette),
  });
}

/**
 * Parse a colour specification as xterm does (`xparse_color.ts`: `#rgb`
 * forms, `rgb:`, `rgbi:`, the CIE spaces, TekHVC, X11 names) and keep what
 * a 24-bit X visual keeps: the high 8 bits of each channel. Returns
 * "#rrggbb", or null when X would refuse the specification.
 */
export function parseColorSpec(spec: string): string | null {
  const c = parseXColor(spec);
  if (c === null) return null;
  return "#" + hex2(c[0] >> 8) + hex2(c[1] >> 8) + hex2(c[2] >> 8);
}

/** "#rrggbb" -> "rgb:rrrr/gggg/bbbb" (the form xterm uses in query replies). */
export function formatColorReply(color: string): string {
  const c = color.slice(1);
  const r = c.slice(0, 2), g = c.slice(2, 4), b = c.slice(4, 6);
  return `rgb:${r}${r}/${g}${g}/${b}${b}`;
}

/** Number of dynamic colours: OSC 10 to OSC 19. */
export const DYNAMIC_COLORS = 10;
/** Number of special colours (OSC 5, or OSC 4 from index 256): bold, underline, blink, reverse, italic. */
export const SPECIAL_COLORS = 5;
/** OSC 4 index of special colour 0 (bold). */
export const SPECIAL_BASE = 256;

/**
 * Which default each dynamic colour (OSC 10 + i) has: 0 the foreground, 1
 * the background, 2 the cursor. Pointer, Tektronix and highlight colours
 * follow the text colours, as xterm's resources default them
 * (highlight background = foreground, highlight text = background).
 */
const DYNAMIC_DEFAULT = [0, 1, 2, 0, 1, 0, 1, 0, 2, 1];

/** Colours a program changed with OSC 4 / 5 / 10-19, over the defaults. */
export class ColorOverrides {
  /**
   * What a colour nobody changed is (the terminal's configured defaults;
   * `Terminal` sets it). Not part of a snapshot: configuration, not state.
   */
  defaults: DefaultColors = BUILTIN_DEFAULT_COLORS;
  /**
   * Palette index -> "#rrggbb"; 256-260 are the special colours (OSC 5
   * 0-4).
   */
  readonly palette: Map<number, string> = new Map();
  /**
   * OSC 10 + i: foreground, background, cursor, pointer foreground and
   * background, Tektronix foreground and background, highlight
   * background, Tektronix cursor, highlight foreground ("#rrggbb" or
   * null).
   */
  readonly dynamic: (string | null)[] = new Array(DYNAMIC_COLORS).fill(null);

  /** The colour OSC 4 reports for `index` (0-260). */
  paletteColor(index: number): string {
    const c = this.palette.get(index);
    if (c !== undefined) return c;
    return index >= SPECIAL_BASE
      ? this.dynamicColor(0) // xterm's colorBD etc. default to the foreground
      : this.defaults.palette[index] ?? defaultPaletteColor(index);
  }
  /** The colour OSC 10+`which` reports. */
  dynamicColor(which: number): string {
    const own = this.dynamic[which];
    if (own !== null && own !== undefined) return own;
    const base = DYNAMIC_DEFAULT[which] ?? 0;
    const d = this.defaults;
    return this.dynamic[base] ??
      [d.foreground, d.background, d.cursor][base];
  }
  /** Forget every override (the defaults stay). */
  reset(): void {
    this.palette.clear();
    this.dynamic.fill(null);
  }
}
