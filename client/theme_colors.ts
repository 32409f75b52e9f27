/**
 * The colours a terminal shows, as the page computes them: the theme's
 * custom properties (--dt-fg, --dt-bg, --dt-cursor, --dt-color-0..15 of
 * domterm.css, light or dark, under the colour settings and the user's
 * style.css) on the terminal element, as "#rrggbb". The session's emulator
 * answers the program's colour queries with them (a `colors` message,
 * core/protocol.ts), and so does the page's own.
 *
 * @module
 */
import { defaultPaletteColor } from "../core/emulator/colors.ts";

/** What a view shows: default foreground, background, cursor, palette 0-15. */
export interface ShownColors {
  foreground: string;
  background: string;
  cursor: string;
  palette: string[];
}

let probe: CanvasRenderingContext2D | null = null;

function hex2(n: number): string {
  return Math.max(0, Math.min(255, Math.round(n))).toString(16).padStart(
    2,
    "0",
  );
}

/**
 * A CSS colour as "#rrggbb" (its alpha dropped), or null when the canvas
 * does not take it. The canvas parses CSS colours (names, rgb(), hsl()...)
 * and gives them back as "#rrggbb" or "rgba(r, g, b, a)".
 */
export function cssColorHex(value: string): string | null {
  const text = value.trim();
  if (text === "") return null;
  probe ??= document.createElement("canvas").getContext("2d");
  if (probe === null) return null;
  // A value the canvas refuses leaves fillStyle as it was: try from two.
  probe.fillStyle = "#000000";
  probe.fillStyle = text;
  const a = String(probe.fillStyle);
  probe.fillStyle = "#ffffff";
  probe.fillStyle = text;
  if (String(probe.fillStyle) !== a) return null;
  if (/^#[0-9a-f]{6}$/i.test(a)) return a.toLowerCase();
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(a);
  return m ? "#" + hex2(+m[1]) + hex2(+m[2]) + hex2(+m[3]) : null;
}

/**
 * The colours `el` shows (its computed custom properties), or null when
 * the stylesheet does not define the default ones. A palette entry it
 * does not define is xterm's.
 */
export function shownColors(el: Element): ShownColors | null {
  const style = getComputedStyle(el);
  const get = (name: string) => cssColorHex(style.getPropertyValue(name));
  const foreground = get("--dt-fg");
  const background = get("--dt-bg");
  const cursor = get("--dt-cursor") ?? foreground;
  if (foreground === null || background === null || cursor === null) {
    return null;
  }
  const palette = Array.from(
    { length: 16 },
    (_, i) => get(`--dt-color-${i}`) ?? defaultPaletteColor(i),
  );
  return { foreground, background, cursor, palette };
}
