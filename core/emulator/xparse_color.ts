/**
 * Colour specifications as xterm reads them (Xlib's XParseColor with the
 * Xcms colour spaces), to 16-bit RGB:
 *
 * - `#rgb`, `#rrggbb`, `#rrrgggbbb`, `#rrrrggggbbbb`: the digits are the
 *   high-order bits (`#abc` is a000/b000/c000);
 * - `rgb:r/g/b`, 1-4 hex digits a channel, scaled (`f` is ffff);
 * - `rgbi:r/g/b`, intensities 0.0-1.0, and `CIEXYZ:X/Y/Z`,
 *   `CIEuvY:u/v/Y`, `CIExyY:x/y/Y`, `CIELab:L/a/b`, `CIELuv:L/u/v`,
 *   `TekHVC:H/V/C`: through Xcms's default screen colour
 *   characterization and gamut compression (`xcms.ts`), so `rgbi:0.5/0.5/0.5`
 *   is c1c1/bbbb/bbbb as in xterm, not 8080/8080/8080;
 * - an X11 colour name (`x11_color_names.ts`).
 *
 * Prefixes are case-insensitive, as in Xcms.
 *
 * @module
 */
import { lookupX11Color } from "./x11_color_names.ts";
import { type Rgb16, rgbiToRgb, xcmsToRgb } from "./xcms.ts";

export type { Rgb16 };

function hexChannel(s: string): number {
  if (!/^[0-9a-fA-F]{1,4}$/.test(s)) return -1;
  const max = (1 << (4 * s.length)) - 1;
  return Math.floor(parseInt(s, 16) * 0xffff / max);
}

/** One number as C's `%lf` reads it: leading white space, a decimal float. */
const FLOAT = /^[ \t\n\v\f\r]*([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?)/;

/**
 * Xcms reads the three numbers with `sscanf("%lf/%lf/%lf")`: white space
 * before each number, a slash right after the first two, and anything
 * after the third. When that fails it tries again with `.` and `,`
 * swapped (for a locale with a decimal comma). Decimal forms only.
 */
function floats(body: string): [number, number, number] | null {
  const scan = (s: string) => {
    const out: number[] = [];
    for (let i = 0; i < 3; i++) {
      const m = FLOAT.exec(s);
      if (m === null) return null;
      out.push(parseFloat(m[1]));
      s = s.slice(m[0].length);
      if (i < 2) {
        if (s[0] !== "/") return null;
        s = s.slice(1);
      }
    }
    return out as [number, number, number];
  };
  return scan(body) ??
    scan(body.replace(/[.,]/g, (c) => c === "." ? "," : "."));
}

/** XParseColor: `spec` as 16-bit RGB, or null when X would refuse it. */
export function parseXColor(spec: string): Rgb16 | null {
  if (spec.length === 0 || spec.length > 256) return null;
  if (spec[0] === "#") {
    const h = spec.slice(1);
    if (!/^[0-9a-fA-F]+$/.test(h) || h.length % 3 !== 0 || h.length > 12) {
      return null;
    }
    const n = h.length / 3;
    const part = (k: number) =>
      parseInt(h.slice(k * n, k * n + n), 16) << (16 - 4 * n);
    return [part(0), part(1), part(2)];
  }
  const colon = spec.indexOf(":");
  if (colon < 0) {
    const c = lookupX11Color(spec);
    return c === null ? null : [c[0] * 257, c[1] * 257, c[2] * 257];
  }
  const prefix = spec.slice(0, colon).toLowerCase();
  const body = spec.slice(colon + 1);
  if (prefix === "rgb") {
    const p = body.split("/");
    if (p.length !== 3) return null;
    const c = p.map(hexChannel);
    return c.some((v) => v < 0) ? null : c as Rgb16;
  }
  const f = floats(body.toLowerCase());
  if (f === null) return null;
  if (prefix === "rgbi") {
    // Xcms takes any number here; we keep to the documented 0.0-1.0.
    if (f.some((v) => !(v >= 0 && v <= 1))) return null;
    return rgbiToRgb(f[0], f[1], f[2]);
  }
  return xcmsToRgb(prefix, f);
}
