/**
 * The device-independent colour specifications of Xlib's colour management
 * (Xcms), as xterm gets them through XParseColor on a 24-bit TrueColor
 * screen without colour characterization properties: `rgbi:`, `CIEXYZ:`,
 * `CIEuvY:`, `CIExyY:`, `CIELab:`, `CIELuv:` and `TekHVC:`.
 *
 * Xlib then uses its default screen colour characterization (a Tektronix
 * 19" monitor): a matrix from RGB intensities to CIE XYZ and back, the
 * screen white point (the sum of that matrix's rows, so not D65), and one
 * table of measured intensities a channel, so that intensity 0.5 is 0xc1
 * in red but 0xbb in green and blue. The pipeline, as the Xlib manual
 * describes it and as xterm's answers (esctest2) show it:
 *
 * 1. each space to CIE XYZ relative to the screen white point, by Xcms's
 *    own formulas (CIELab and CIELuv keep Xcms's scale quirks: the values
 *    xterm reports depend on them);
 * 2. XYZ to RGB intensities by the matrix; out of the gamut (a channel
 *    below -0.001 or above 1.001), the default gamut compression reduces
 *    the TekHVC chroma at constant hue and value (`clipChroma`);
 * 3. each intensity to a device value by linear interpolation in the
 *    channel's table, rounded to the visual's 8 bits a channel.
 *
 * Numbers follow Xcms's own numerics where it matters for the last bit:
 * its arctangent is an arithmetic-geometric-mean iteration that stops at a
 * relative error of 1e-6 (hues are that precise, which decides whether a
 * channel on the edge of the gamut is 0x00 or just above).
 *
 * @module
 */

/** 16-bit red, green, blue. */
export type Rgb16 = [number, number, number];

type Vec3 = [number, number, number];

/** Default characterization: RGB intensities to CIE XYZ (rows X, Y, Z). */
const RGB_TO_XYZ: readonly Vec3[] = [
  [0.38106149108714790, 0.32025712365352110, 0.24834578525933100],
  [0.20729745115140850, 0.68054638776373240, 0.11215616108485920],
  [0.02133944350088028, 0.14297193020246480, 1.24172892629665500],
];

/** Default characterization: CIE XYZ to RGB intensities (as Xlib has it). */
const XYZ_TO_RGB: readonly Vec3[] = [
  [3.48340481253539000, -1.52176374927285200, -0.55923133354049780],
  [-1.07152751306193600, 1.96593795204372400, 0.03673691339553462],
  [0.06351179790497788, -0.20020501000496480, 0.81070942031648220],
];

/**
 * Measured intensity of each channel: pairs of (8-bit device value,
 * intensity 0-1); the device value v stands for v * 0x101. Between two
 * entries the curve is linear.
 */
const RED_TABLE = intensityTable(
  [0x00, 0, 0x09, 0, 0x0a, 0.000936],
  `
    0.001481 0.002329 0.003529 0.005127 0.007169 0.009699 0.012759 0.016392
    0.020637 0.025533 0.031119 0.037431 0.044504 0.052373 0.061069 0.070624
    0.081070 0.092433 0.104744 0.118026 0.132307 0.147610 0.163958 0.181371
    0.199871 0.219475 0.240202 0.262069 0.285089 0.309278 0.334647 0.361208
    0.388971 0.417945 0.448138 0.479555 0.512202 0.546082 0.581199 0.617552
    0.655144 0.693971 0.734031 0.775322 0.817837 0.861571 0.906515 0.952662
  `,
  0x0f,
);
const GREEN_TABLE = intensityTable(
  [0x00, 0, 0x13, 0],
  `
    0.000832 0.001998 0.003612 0.005736 0.008428 0.011745 0.015740 0.020463
    0.025960 0.032275 0.039449 0.047519 0.056520 0.066484 0.077439 0.089409
    0.102418 0.116485 0.131625 0.147853 0.165176 0.183604 0.203140 0.223783
    0.245533 0.268384 0.292327 0.317351 0.343441 0.370580 0.398747 0.427919
    0.458068 0.489165 0.521176 0.554067 0.587797 0.622324 0.657604 0.693588
    0.730225 0.767459 0.805235 0.843491 0.882164 0.921187 0.960490
  `,
  0x14,
);
const BLUE_TABLE = intensityTable(
  [0x00, 0, 0x0e, 0, 0x0f, 0.001341],
  `
    0.002080 0.003188 0.004729 0.006766 0.009357 0.012559 0.016424 0.021004
    0.026344 0.032489 0.039481 0.047357 0.056154 0.065903 0.076634 0.088373
    0.101145 0.114968 0.129862 0.145841 0.162915 0.181095 0.200386 0.220791
    0.242309 0.264937 0.288670 0.313499 0.339410 0.366390 0.394421 0.423481
    0.453547 0.484592 0.516587 0.549498 0.583291 0.617925 0.653361 0.689553
    0.726454 0.764013 0.802178 0.840891 0.880093 0.919723 0.959715
  `,
  0x14,
);

/** A channel's table: 16-bit device values and their intensities, both rising. */
interface IntensityTable {
  values: number[];
  intensities: number[];
}

/**
 * Build a table from its first entries (value, intensity pairs, 8-bit
 * values) and the intensities from `from` on, every 5 values (0x14, 0x19,
 * ..., white space between them), up to 0xff at intensity 1.
 */
function intensityTable(
  head: number[],
  steps: string,
  from: number,
): IntensityTable {
  const values: number[] = [], intensities: number[] = [];
  for (let i = 0; i < head.length; i += 2) {
    values.push(head[i] * 0x101);
    intensities.push(head[i + 1]);
  }
  const ys = steps.trim().split(/\s+/);
  // The measured steps end at 0xfa, just below white.
  if (from + 5 * (ys.length - 1) !== 0xfa) throw new Error("bad table");
  ys.forEach((y, k) => {
    values.push((from + 5 * k) * 0x101);
    intensities.push(parseFloat(y));
  });
  values.push(0xffff);
  intensities.push(1);
  return { values, intensities };
}

/** The screen white point: the RGB-to-XYZ rows summed, Y taken as 1. */
const WHITE: Vec3 = [
  RGB_TO_XYZ[0][0] + RGB_TO_XYZ[0][1] + RGB_TO_XYZ[0][2],
  1,
  RGB_TO_XYZ[2][0] + RGB_TO_XYZ[2][1] + RGB_TO_XYZ[2][2],
];
const WHITE_DIV = WHITE[0] + 15 * WHITE[1] + 3 * WHITE[2];
/** The white point's u'v'. */
const WHITE_U = 4 * WHITE[0] / WHITE_DIV, WHITE_V = 9 * WHITE[1] / WHITE_DIV;

/**
 * Xcms's tolerance: how far out of [0, 1] an intensity may be before the
 * gamut compression, the slack of a hue's wrap at 360, and how close the
 * chroma search comes to the value it looks for.
 */
const EPS = 0.001;

// TekHVC: hue 0 is the direction of "best red" from the white point.
const U_BEST_RED = 0.7127, V_BEST_RED = 0.4931;
const CHROMA_SCALE = 7.50725;
/** Xcms's DBL_EPSILON nudge when it puts a value back in range. */
const NUDGE = Number.EPSILON;

const degrees = (r: number) => r * 180 / Math.PI;
const radians = (d: number) => d * Math.PI / 180;

/**
 * Square root by Newton's method, x' = x - (x - a / x) / 2, from a / 4
 * (a > 1) or 4a, until the step is below the estimate times the machine
 * epsilon: Xcms's square root, which can differ from Math.sqrt in the
 * last bit.
 */
function xcmsSqrt(a: number): number {
  if (a <= 0) return 0;
  let x = a > 1 ? a / 4 : a * 4, delta: number;
  do {
    delta = (x - a / x) / 2;
    x -= delta;
  } while (Math.abs(delta) >= x * Number.EPSILON);
  return x;
}

/** Cube root by Newton's method, x' = x - (x - a / x^2) / 3, as Xcms. */
function xcmsCbrt(a: number): number {
  if (a === 0) return 0;
  const abs = Math.abs(a);
  let x = abs > 1 ? abs / 8 : abs * 8, delta: number;
  do {
    delta = (x - abs / (x * x)) / 3;
    x -= delta;
  } while (Math.abs(delta) >= x * Number.EPSILON);
  return a < 0 ? -x : x;
}

/**
 * Arctangent as Xcms computes it: the arithmetic-geometric mean of
 * 1/sqrt(1 + x^2) and 1, stopped once the two means are within 1e-6
 * (relative, below x = 1); atan x = x / (sqrt(1 + x^2) * mean).
 */
function xcmsAtan(x: number): number {
  if (x === 0) return 0;
  const maxError = x < 1 ? x * 1e-6 : 1e-6;
  let a = xcmsSqrt(1 / (1 + x * x)), b = 1;
  let a1 = 0, b1 = 0;
  for (let i = 0; i < 10000; i++) {
    a1 = (a + b) / 2;
    b1 = xcmsSqrt(a1 * b);
    // (Not `< maxError`: a NaN must end the loop too.)
    if (a1 === b1 || !(Math.abs(a1 - b1) >= maxError)) break;
    a = a1;
    b = b1;
  }
  return x / (xcmsSqrt(1 + x * x) * Math.min(a1, b1));
}

// Xcms's sine and cosine: rational approximations in y = x / (pi / 4) on
// [-pi/4, pi/4] (Hart et al., Computer Approximations), P(y^2) / Q(y^2),
// times y for the sine; other arguments are reduced to that range.
const COS_P = [
  0.12905394659037374438e7,
  -0.37456703915723204710e6,
  0.13432300986539084285e5,
  -0.11231450823340933092e3,
];
const COS_Q = [
  0.12905394659037373590e7,
  0.23467773107245835052e5,
  0.20969518196726306286e3,
  1.0,
];
const SIN_P = [
  0.20664343336995858240e7,
  -0.18160398797407332550e6,
  0.35999306949636188317e4,
  -0.20107483294588615719e2,
];
const SIN_Q = [
  0.26310659102647698963e7,
  0.39270242774649000308e5,
  0.27811919481083844087e3,
  1.0,
];
const HALF_PI = 1.57079632679489660, QUARTER_PI = 0.785398163397448280;
const TWO_PI = 6.28318530717958620;

/** c[0] + x c[1] + x^2 c[2] + x^3 c[3], by Horner's rule. */
function poly(c: number[], x: number): number {
  return c[0] + x * (c[1] + x * (c[2] + x * c[3]));
}

/** Bring x into [-pi, pi] as Xcms does (through x / 2pi's fraction). */
function reduceAngle(x: number): number {
  if (x >= -Math.PI && x <= Math.PI) return x;
  const q = x / TWO_PI;
  x = (q - Math.trunc(q)) * TWO_PI;
  if (x > Math.PI) return x - TWO_PI;
  if (x < -Math.PI) return x + TWO_PI;
  return x;
}

function xcmsCos(x: number): number {
  x = reduceAngle(x);
  if (x > HALF_PI) return -xcmsCos(x - Math.PI);
  if (x < -HALF_PI) return -xcmsCos(x + Math.PI);
  if (x > QUARTER_PI) return xcmsSin(HALF_PI - x);
  if (x < -QUARTER_PI) return xcmsSin(HALF_PI + x);
  if (Math.abs(x) < 4.209340e-52) return xcmsSqrt(1 - x * x);
  const y = x / QUARTER_PI, y2 = y * y;
  return poly(COS_P, y2) / poly(COS_Q, y2);
}

function xcmsSin(x: number): number {
  x = reduceAngle(x);
  if (x > HALF_PI) return -xcmsSin(x - Math.PI);
  if (x < -HALF_PI) return -xcmsSin(x + Math.PI);
  if (x > QUARTER_PI) return xcmsCos(HALF_PI - x);
  if (x < -QUARTER_PI) return -xcmsCos(HALF_PI + x);
  if (Math.abs(x) < 4.209340e-52) return x;
  const y = x / QUARTER_PI, y2 = y * y;
  return y * (poly(SIN_P, y2) / poly(SIN_Q, y2));
}

function mul(m: readonly Vec3[], v: Vec3): Vec3 {
  return [0, 1, 2].map((i) =>
    m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2]
  ) as Vec3;
}

const cube = (x: number) => x * x * x;

/** CIE L* (0-100) to Y, as Xcms's CIELuv and TekHVC do. */
function lightnessToY(l: number): number {
  return l < 7.99953624 ? l / 903.29 : cube((l + 16) / 116);
}

/** Y to CIE L*, as Xcms's TekHVC does. */
function yToLightness(y: number): number {
  return y < 0.008856 ? y * 903.29 : xcmsCbrt(y) * 116 - 16;
}

/** CIE u'v'Y to XYZ (Y 0-1); a u'v' with no chromaticity takes the white point's. */
function uvYToXyz(u: number, v: number, y: number): Vec3 | null {
  if (y < -NUDGE || y > 1 + NUDGE) return null;
  let div = 6 * u - 16 * v + 12;
  if (div === 0) {
    u = WHITE_U;
    v = WHITE_V;
    div = 6 * u - 16 * v + 12;
  }
  const x = 9 * u / div, yy = 4 * v / div, z = 1 - x - yy;
  return yy === 0 ? [x, y, z] : [x * y / yy, y, z * y / yy];
}

function xyzToUvY(c: Vec3): Vec3 | null {
  if (c[1] < -NUDGE || c[1] > 1 + NUDGE) return null;
  const div = c[0] + 15 * c[1] + 3 * c[2];
  if (div === 0) return [WHITE_U, WHITE_V, c[1]];
  return [4 * c[0] / div, 9 * c[1] / div, c[1]];
}

/** CIE x, y, Y to XYZ, by way of u'v' as Xcms does. */
function xyYToXyz(x: number, y: number, yy: number): Vec3 | null {
  if (
    [x, y, yy].some((n) => n < -NUDGE || n > 1 + NUDGE)
  ) return null;
  const div = -2 * x + 12 * y + 3;
  if (div === 0) return [0, 0, 0];
  const u = 4 * x / div, v = 9 * y / div;
  const d = 6 * u - 16 * v + 12;
  const cx = 9 * u / d;
  let cy = 4 * v / d;
  const cz = 1 - cx - cy;
  if (cy === 0) cy = 0.00001; // Xcms's guard against dividing by 0
  return [cx * yy / cy, yy, cz * yy / cy];
}

/**
 * CIELab to XYZ with Xcms's formulas: L* gives Y by the cube (Y =
 * ((L* + 16) / 116)^3), but a* and b* are divided by 5 and 2, not 500
 * and 200; below Y 0.008856, Y = L* / 9.03292 and X, Z are linear in a*
 * and b*.
 */
function labToXyz(l: number, a: number, b: number): Vec3 | null {
  if (l < -NUDGE || l > 100 + NUDGE) return null;
  const f = (l + 16) / 116;
  if (f * f * f < 0.008856) {
    const y = l / 9.03292;
    return [WHITE[0] * (a / 3893.5 + y), y, WHITE[2] * (y - b / 1557.4)];
  }
  return [WHITE[0] * cube(f + a / 5), f * f * f, WHITE[2] * cube(f - b / 2)];
}

/** CIELuv to u'v'Y with Xcms's formula (u*, v* over 13 L* / 100). */
function luvToXyz(l: number, u: number, v: number): Vec3 | null {
  if (l < -NUDGE || l > 100 + NUDGE) return null;
  const y = lightnessToY(l);
  if (l === 0) return uvYToXyz(WHITE_U, WHITE_V, y);
  const k = 13 * (l / 100);
  return uvYToXyz(u / k + WHITE_U, v / k + WHITE_V, y);
}

/** The hue offset of the white point: the direction of best red from it. */
const THETA_OFFSET = degrees(
  xcmsAtan((V_BEST_RED - WHITE_V) / (U_BEST_RED - WHITE_U)),
);

/** A TekHVC colour put back in range as Xcms does (hue in [0, 360)). */
function hvcInRange(h: number, v: number, c: number): Vec3 {
  if (v < 0) v = NUDGE;
  else if (v > 100) v = 100 - NUDGE;
  if (c < 0) c = -NUDGE;
  if (h < 0) {
    h += (Math.trunc(-h / 360) + 1) * 360;
    if (h >= 360) h -= 360;
  } else if (h >= 360) h -= Math.trunc(h / 360) * 360;
  return [h, v, c];
}

/**
 * An angle into [0, 360) by adding or taking 360 as Xcms does; far out
 * (where that would never end: Xcms loops there) by the remainder.
 */
function wrapDegrees(h: number): number {
  if (Math.abs(h) > 1e6) h %= 360;
  while (h < 0) h += 360;
  while (h >= 360) h -= 360;
  return h;
}

function hvcToXyz(h: number, v: number, c: number): Vec3 | null {
  if (v < -NUDGE || v > 100 + NUDGE || c < -NUDGE) return null;
  if (v < 0) v = NUDGE;
  else if (v > 100) v = 100 - NUDGE;
  if (c < 0) c = -NUDGE;
  h = wrapDegrees(h);
  if (v === 0 || v === 100) return uvYToXyz(WHITE_U, WHITE_V, v / 100);
  let hue = h + THETA_OFFSET;
  hue = wrapDegrees(hue);
  const t = radians(hue);
  const u = xcmsCos(t) * c / (v * CHROMA_SCALE);
  const w = xcmsSin(t) * c / (v * CHROMA_SCALE);
  return uvYToXyz(u + WHITE_U, w + WHITE_V, lightnessToY(v));
}

function xyzToHvc(xyz: Vec3): Vec3 | null {
  const uvY = xyzToUvY(xyz);
  if (uvY === null) return null;
  const u = uvY[0] - WHITE_U, v = uvY[1] - WHITE_V;
  let theta = u === 0 ? 0 : degrees(xcmsAtan(v / u));
  let low = 0, high = 360;
  if (u > 0 && v > 0) high = 90;
  else if (u < 0 && v > 0) [low, high] = [90, 180];
  else if (u < 0 && v < 0) [low, high] = [180, 270];
  else if (u > 0 && v < 0) [low, high] = [270, 360];
  while (theta < low) theta += 90;
  while (theta >= high) theta -= 90;
  const l = yToLightness(uvY[2]);
  const c = l * CHROMA_SCALE * xcmsSqrt(u * u + v * v);
  let h = theta - THETA_OFFSET;
  while (h < -EPS) h += 360;
  while (h >= 360 + EPS) h -= 360;
  return [h, l, c];
}

function rgbiToHvc(rgb: Vec3): Vec3 | null {
  return xyzToHvc(mul(RGB_TO_XYZ, rgb));
}

/**
 * The most colourful point of a hue in the gamut (TekHVC value and
 * chroma) and its RGB intensities: a colour of that hue far outside the
 * gamut, brought to it by making its smallest intensity 0 and its largest
 * 1 (adding white and scaling keep the hue).
 */
function maxValueChroma(hue: number): { hvc: Vec3; rgb: Vec3 } | null {
  const xyz = hvcToXyz(hue, 40, 120);
  if (xyz === null) return null;
  const raw = mul(XYZ_TO_RGB, xyz);
  const small = Math.min(...raw);
  const shifted = raw.map((n) => n - small) as Vec3;
  const large = Math.max(...shifted);
  const rgb = shifted.map((n) => n / large) as Vec3;
  const hvc = rgbiToHvc(rgb);
  if (hvc === null) return null;
  return { hvc: [hue, hvc[1], hvc[2]], rgb };
}

/**
 * The largest chroma in the gamut for `hue` and `value` (Xcms's
 * XcmsTekHVCQueryMaxC): below the most colourful point's value, on the
 * line from black to it; above, by a search along the line from that
 * point to white for the value.
 */
function maxChroma(hue: number, value: number): Vec3 | null {
  let tmp = hvcInRange(hue, value, 100);
  const max = maxValueChroma(hue);
  if (max === null) return null;
  const [, maxV, maxC] = max.hvc;
  if (value <= maxV) return hvcInRange(tmp[0], value, value * maxC / maxV);
  let nValue = value;
  let lastValue = -1, lastChroma = -1;
  const maxDist = 100 - maxV;
  let factor = 1;
  const closer = () => {
    if (Math.abs(lastValue - value) < Math.abs(tmp[1] - value)) {
      tmp = [tmp[0], lastValue, lastChroma];
    }
  };
  for (let n = 0; n < 100; n++) {
    const prevValue = lastValue;
    lastValue = tmp[1];
    lastChroma = tmp[2];
    const t = (nValue - maxV) / maxDist * factor;
    const next = rgbiToHvc(max.rgb.map((c) => c * (1 - t) + t) as Vec3);
    if (next === null) return null;
    tmp = next;
    if (Math.abs(tmp[1] - value) <= EPS) {
      return hvcInRange(hue, tmp[1], tmp[2]);
    }
    nValue += value - tmp[1];
    if (nValue < maxV) {
      nValue = maxV;
      factor *= 0.5;
    } else if (nValue > 100) {
      closer();
      return hvcInRange(hue, tmp[1], tmp[2]);
    } else if (Math.abs(tmp[1] - prevValue) <= EPS) {
      factor *= 0.5;
    }
  }
  closer();
  return [hue, tmp[1], tmp[2]];
}

function inGamut(rgb: Vec3): boolean {
  return Math.min(...rgb) >= -EPS && Math.max(...rgb) <= 1 + EPS;
}

/**
 * XYZ to RGB intensities; out of the gamut, the chroma is reduced at
 * constant TekHVC hue and value (Xcms's default gamut compression,
 * XcmsTekHVCClipC). Null when even that does not bring it in.
 */
function xyzToRgbi(xyz: Vec3): Vec3 | null {
  let rgb = mul(XYZ_TO_RGB, xyz);
  if (!inGamut(rgb)) {
    const hvc = xyzToHvc(xyz);
    if (hvc === null) return null;
    const clipped = maxChroma(hvc[0], hvc[1]);
    if (clipped === null) return null;
    const back = hvcToXyz(...clipped);
    if (back === null) return null;
    rgb = mul(XYZ_TO_RGB, back);
    if (!inGamut(rgb)) return null;
  }
  return rgb.map((n) => Math.min(1, Math.max(0, n))) as Vec3;
}

/**
 * An intensity to the device value of a visual with 8 bits a channel:
 * linear between the table's entries, then the nearest 8-bit level
 * (ties go down), as a 16-bit value with the low byte 0.
 */
function intensityToValue(table: IntensityTable, key: number): number {
  const { values, intensities } = table;
  if (key <= intensities[0]) return values[0] & 0xff00;
  let lo = 0, hi = values.length - 1;
  // The binary search Xcms does; an exact hit takes that entry.
  let mid = lo, last = hi;
  while (mid !== last) {
    last = mid;
    mid = lo + Math.floor((hi - lo) / 2);
    if (key === intensities[mid]) return values[mid] & 0xff00;
    if (key < intensities[mid]) hi = mid;
    else lo = mid;
  }
  const ratio = (key - intensities[lo]) / (intensities[hi] - intensities[lo]);
  const target = Math.trunc((values[hi] - values[lo]) * ratio) + values[lo];
  let up = Math.floor((target >> 8) * 0xffff / 255), down: number;
  if (up < target) {
    down = up;
    up = Math.floor(Math.min((down >> 8) + 1, 255) * 0xffff / 255);
  } else {
    down = Math.floor(Math.max((up >> 8) - 1, 0) * 0xffff / 255);
  }
  return (up - target < target - down ? up : down) & 0xff00;
}

/** RGB intensities (0-1) to device RGB through the tables. */
export function rgbiToRgb(r: number, g: number, b: number): Rgb16 {
  const v = [
    intensityToValue(RED_TABLE, r),
    intensityToValue(GREEN_TABLE, g),
    intensityToValue(BLUE_TABLE, b),
  ];
  // The 8 bits a TrueColor visual keeps, as XQueryColor reports them.
  return v.map((n) => (n >> 8) * 0x101) as Rgb16;
}

/**
 * A device-independent colour (`prefix` in lower case, without the
 * colon; the three numbers of the specification) as device RGB, or null
 * when Xcms refuses it (out of range, or out of the gamut beyond repair).
 */
export function xcmsToRgb(prefix: string, n: Vec3): Rgb16 | null {
  if (!n.every(Number.isFinite)) return null;
  let xyz: Vec3 | null;
  switch (prefix) {
    case "ciexyz":
      xyz = n[1] < -NUDGE || n[1] > 1 + NUDGE ? null : n;
      break;
    case "cieuvy":
      xyz = uvYToXyz(n[0], n[1], n[2]);
      break;
    case "ciexyy":
      xyz = xyYToXyz(n[0], n[1], n[2]);
      break;
    case "cielab":
      xyz = labToXyz(n[0], n[1], n[2]);
      break;
    case "cieluv":
      xyz = luvToXyz(n[0], n[1], n[2]);
      break;
    case "tekhvc":
      xyz = hvcToXyz(n[0], n[1], n[2]);
      break;
    default:
      return null;
  }
  if (xyz === null) return null;
  const rgb = xyzToRgbi(xyz);
  return rgb === null ? null : rgbiToRgb(rgb[0], rgb[1], rgb[2]);
}
