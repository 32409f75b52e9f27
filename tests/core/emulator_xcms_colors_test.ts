/**
 * The Xcms colour spaces (`rgbi:`, `CIEXYZ:`, `CIEuvY:`, `CIExyY:`,
 * `CIELab:`, `CIELuv:`, `TekHVC:`) set by OSC 4 and OSC 10, then queried,
 * byte-exact. The expected answers are xterm's, from esctest2's
 * change_color.py, change_dynamic_color.py and change_special_color.py
 * (test_ChangeColor_RGBI ... test_ChangeColor_TekHVC): Xlib's default screen colour characterization
 * (its own white point, one measured intensity table a channel) and its
 * TekHVC chroma clipping make them what they are.
 */
import { assert, assertEquals, OSC, runCases, ST } from "./helpers.ts";
import { parseXColor } from "../../core/emulator/xparse_color.ts";
import { rgbiToRgb, xcmsToRgb } from "../../core/emulator/xcms.ts";

/** [spec, xterm's answer] from esctest2. */
const ESCTEST: [string, string][] = [
  ["rgbi:1/1/1", "ffff/ffff/ffff"],
  ["rgbi:0.5/0.5/0.5", "c1c1/bbbb/bbbb"],
  ["CIEXYZ:1/1/1", "ffff/ffff/ffff"],
  ["CIEXYZ:0.5/0.5/0.5", "dddd/b5b5/a0a0"],
  ["CIEuvY:1/1/1", "ffff/ffff/ffff"],
  ["CIEuvY:0.5/0.5/0.5", "ffff/a3a3/aeae"],
  ["CIExyY:1/1/1", "ffff/ffff/ffff"],
  ["CIExyY:0.5/0.5/0.5", "f7f7/b3b3/0e0e"],
  ["CIELab:1/1/1", "6c6c/6767/6767"],
  ["CIELab:0.5/0.5/0.5", "5252/4f4f/4f4f"],
  ["CIELuv:1/1/1", "1616/1414/0e0e"],
  ["CIELuv:0.5/0.5/0.5", "0e0e/1313/0e0e"],
  ["TekHVC:1/1/1", "1a1a/1313/0f0f"],
  ["TekHVC:0.5/0.5/0.5", "1111/1313/0e0e"],
];

runCases(
  "Xcms colours (esctest2 ChangeColor): OSC 4 set, then queried",
  ESCTEST.map(([spec, reply]) => ({
    name: spec,
    input: `${OSC}4;0;${spec}${ST}${OSC}4;0;?${ST}`,
    replies: [`${OSC}4;0;rgb:${reply}${ST}`],
  })),
);

runCases(
  "Xcms colours (esctest2 ChangeDynamicColor): OSC 10 set, then queried",
  ESCTEST.map(([spec, reply]) => ({
    name: spec,
    input: `${OSC}10;${spec}${ST}${OSC}10;?${ST}`,
    replies: [`${OSC}10;rgb:${reply}${ST}`],
  })),
);

runCases(
  "Xcms colours (esctest2 ChangeSpecialColor): OSC 4 from 256 set, then queried",
  ESCTEST.map(([spec, reply]) => ({
    name: spec,
    input: `${OSC}4;256;${spec}${ST}${OSC}4;256;?${ST}`,
    replies: [`${OSC}4;256;rgb:${reply}${ST}`],
  })),
);

runCases(
  "Xcms colours: the same colour through OSC 11 and OSC 12",
  [
    {
      name: "OSC 11 CIELab, OSC 12 TekHVC",
      input: `${OSC}11;CIELab:1/1/1${ST}${OSC}12;TekHVC:1/1/1${ST}` +
        `${OSC}11;?;?${ST}`,
      replies: [
        `${OSC}11;rgb:6c6c/6767/6767${ST}`,
        `${OSC}12;rgb:1a1a/1313/0f0f${ST}`,
      ],
    },
  ],
);

/** [spec, 16-bit result] for the ends of each space and Xcms's parsing. */
const EDGES: [string, [number, number, number] | null][] = [
  ["rgbi:0/0/0", [0, 0, 0]],
  ["RGBI:1/0.5/0", [0xffff, 0xbbbb, 0]], // prefixes in any case
  ["rgbi: 0.5/ .5/5e-1", [0xc1c1, 0xbbbb, 0xbbbb]], // as sscanf reads %lf
  ["rgbi:0.5/0.5/0.5 and more", [0xc1c1, 0xbbbb, 0xbbbb]], // rest ignored
  ["rgbi:0,5/0,5/0,5", [0xc1c1, 0xbbbb, 0xbbbb]], // decimal comma retried
  ["CIELab:100/0/0", [0xffff, 0xffff, 0xffff]], // the screen white
  ["CIELab:0/0/0", [0, 0, 0]],
  ["CIELuv:100/0/0", [0xffff, 0xffff, 0xffff]],
  ["TekHVC:0/100/0", [0xffff, 0xffff, 0xffff]],
  ["TekHVC:0/0/0", [0, 0, 0]],
  ["TekHVC:360/0/0", [0, 0, 0]], // hue taken modulo 360
  ["CIEXYZ:0/0/0", [0, 0, 0]],
  ["CIEXYZ:0.5/1.5/0.5", null], // Y above 1
  ["CIELab:101/0/0", null], // L* above 100
  ["CIELuv:-1/0/0", null],
  ["TekHVC:0/50/-1", null], // negative chroma
  ["CIExyY:1.5/0.3/0.5", null], // x above 1
  ["CIEuvY:0.2/0.4/2", null], // Y above 1
  ["rgbi:0.5/0.5", null],
  ["rgbi:0.5 /0.5/0.5", null], // the slash must follow the number
  ["CIELab:x/1/1", null],
];

Deno.test("Xcms colours: edges of each space and the number syntax", () => {
  for (const [spec, want] of EDGES) {
    assertEquals(parseXColor(spec), want, spec);
  }
});

Deno.test("Xcms colours: every intensity table rises from 0 to 0xffff", () => {
  // Intensity 0 is value 0; 1 is 0xffff; the values never go down.
  let prev = [0, 0, 0];
  for (let i = 0; i <= 1000; i++) {
    const v = rgbiToRgb(i / 1000, i / 1000, i / 1000);
    for (let c = 0; c < 3; c++) {
      if (v[c] < prev[c]) throw new Error(`falls at ${i / 1000}`);
      if (v[c] % 0x101 !== 0) throw new Error(`not 8 bits at ${i / 1000}`);
    }
    prev = v;
  }
  assertEquals(rgbiToRgb(0, 0, 0), [0, 0, 0]);
  assertEquals(rgbiToRgb(1, 1, 1), [0xffff, 0xffff, 0xffff]);
});

Deno.test("Xcms colours: out of the gamut, chroma goes, value stays", () => {
  // A saturated TekHVC colour far outside the gamut comes back as a
  // colour of the same lightness: grey's neighbours, not black or white.
  const c = xcmsToRgb("tekhvc", [0, 50, 200]);
  if (c === null) throw new Error("refused");
  const inside = xcmsToRgb("tekhvc", [0, 50, 0]);
  if (inside === null) throw new Error("refused");
  // Hue 0 is Tektronix's "best red": red up, green and blue down.
  if (!(c[0] > inside[0] && c[1] < inside[1])) {
    throw new Error(`${c} against grey ${inside}`);
  }
});

Deno.test("Xcms colours: any numbers give a colour or null, quickly", () => {
  // Huge, tiny, negative and non-finite numbers: Xcms itself loops on a
  // huge TekHVC hue; we must not, nor throw.
  const pool = [0, 1, -1, 0.5, 1e-300, 1e300, -1e300, 359.999, 720.5, 1e7, NaN];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const prefixes = ["ciexyz", "cieuvy", "ciexyy", "cielab", "cieluv", "tekhvc"];
  const start = performance.now();
  for (let i = 0; i < 3000; i++) {
    const n = [0, 1, 2].map(() =>
      next() % 3 === 0
        ? pool[next() % pool.length]
        : (next() % 20001) / 100 - 50
    ) as [number, number, number];
    const c = xcmsToRgb(prefixes[i % prefixes.length], n);
    if (c === null) continue;
    for (const v of c) {
      if (!(Number.isInteger(v) && v >= 0 && v <= 0xffff && v % 0x101 === 0)) {
        throw new Error(
          `${prefixes[i % prefixes.length]}:${n.join("/")} -> ${c}`,
        );
      }
    }
  }
  // About 1 ms for the slowest (a search for the chroma); generous here.
  const ms = performance.now() - start;
  if (ms > 20000) throw new Error(`${ms} ms`);
  assert(parseXColor("TekHVC:1e300/50/10") !== null); // a hue, wrapped
  assertEquals(parseXColor("TekHVC:1e400/50/10"), null); // Infinity
});
