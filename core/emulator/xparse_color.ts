/**
 * Colour specifications as xterm reads them (Xlib's XParseColor with the
 * Xcms colour spaces), to 16-bit RGB:
 *
 * - `#rgb`, `#rrggbb`, `#rrrgggbbb`, `#rrrrggggbbbb`: the digits are the
 *   high-order bits (`#abc` is a000/b000/c000);
 * - `rgb:r/g/b`, 1-4 hex digits a channel, scaled (`f` is ffff);
 * - `rgbi:r/g/b`, intensities 0.0-1.0;
 * - `CIEXYZ:X/Y/Z`, `CIEuvY:u/v/Y`, `CIExyY:x/y/Y`, `CIELab:L/a/b`,
 *   `CIELuv:L/u/v`, `TekHVC:H/V/C`: converted to linear RGB with the D65
 *   white point (the screen's intensity tables are linear, as Xcms assumes
 *   without a colour characterization); values outside the gamut are
 *   clipped;
 * - an X11 colour name (`x11_color_names.ts`).
 *
 * Prefixes are case-insensitive, as in Xcms.
 *
 * @module
 */
import { lookupX11Color } from "./x11_color_names.ts";

/** 16-bit red, green, blue. */
export type Rgb16 = [number, number, number];

// D65 reference white (Y = 1) and its u'v'.
const XN = 0.95047, YN = 1, ZN = 1.08883;
const UN = 4 * XN / (XN + 15 * YN + 3 * ZN);
const VN = 9 * YN / (XN + 15 * YN + 3 * ZN);

function hexChannel(s: string): number {
  if (!/^[0-9a-fA-F]{1,4}$/.test(s)) return -1;
  const max = (1 << (4 * s.length)) - 1;
  return Math.floor(parseInt(s, 16) * 0xffff / max);
}

function floats(body: string): [number, number, number] | null {
  const p = body.split("/");
  if (p.length !== 3) return null;
  const out: number[] = [];
  for (const s of p) {
    if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) {
      return null;
    }
    out.push(parseFloat(s));
  }
  return out as [number, number, number];
}

function intensity(v: number): number {
  return Math.round(Math.min(1, Math.max(0, v)) * 0xffff);
}

function fromXyz(x: number, y: number, z: number): Rgb16 {
  const r = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
  const g = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z;
  const b = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
  return [intensity(r), intensity(g), intensity(b)];
}

function fromUvY(u: number, v: number, y: number): Rgb16 {
  if (v === 0) return fromXyz(0, y, 0);
  return fromXyz(y * 9 * u / (4 * v), y, y * (12 - 3 * u - 20 * v) / (4 * v));
}

/** CIE L* to Y (as Xcms: the linear segment below L* 7.9996). */
function lightnessToY(l: number): number {
  return l < 7.99953624 ? l / 903.29 : ((l + 16) / 116) ** 3;
}

function fromLab(l: number, a: number, b: number): Rgb16 {
  const y = lightnessToY(l);
  const fy = Math.cbrt(y); // as Xcms: from Y, so L* 0 is black

  return fromXyz(XN * (fy + a / 500) ** 3, y, ZN * (fy - b / 200) ** 3);
}

function fromLuv(l: number, u: number, v: number): Rgb16 {
  if (l === 0) return [0, 0, 0];
  return fromUvY(u / (13 * l) + UN, v / (13 * l) + VN, lightnessToY(l));
}

// TekHVC: hue measured from the u'v' direction of "best red".
const U_BEST_RED = 0.7127, V_BEST_RED = 0.4931;
const CHROMA_SCALE = 7.50725;
const HUE_OFFSET = Math.atan2(V_BEST_RED - VN, U_BEST_RED - UN);

function fromTekHvc(h: number, v: number, c: number): Rgb16 | null {
  if (h < 0 || h > 360 || v < 0 || v > 100 || c < 0) return null;
  if (v === 0) return [0, 0, 0];
  const theta = h * Math.PI / 180 + HUE_OFFSET;
  const u = c * Math.cos(theta) / (v * CHROMA_SCALE) + UN;
  const w = c * Math.sin(theta) / (v * CHROMA_SCALE) + VN;
  return fromUvY(u, w, lightnessToY(v));
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
  const f = floats(body);
  if (f === null) return null;
  const [a, b, c] = f;
  switch (prefix) {
    case "rgbi":
      if (f.some((v) => v < 0 || v > 1)) return null;
      return [intensity(a), intensity(b), intensity(c)];
    case "ciexyz":
      return fromXyz(a, b, c);
    case "cieuvy":
      return fromUvY(a, b, c);
    case "ciexyy":
      return b === 0 ? [0, 0, 0] : fromXyz(a * c / b, c, (1 - a - b) * c / b);
    case "cielab":
      return fromLab(a, b, c);
    case "cieluv":
      return fromLuv(a, b, c);
    case "tekhvc":
      return fromTekHvc(a, b, c);
  }
  return null;
}
