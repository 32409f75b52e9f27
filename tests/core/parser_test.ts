/**
 * Tests of the escape-sequence parser (core/parser): table-driven cases
 * (input bytes -> exact handler calls), payload caps, UTF-8 against
 * TextDecoder, chunk-boundary invariance and a seeded fuzz run.
 *
 * @module
 */

import assert, { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { Params, ParserHandler } from "../../core/parser/handler.ts";
import { Parser, type ParserOptions } from "../../core/parser/parser.ts";
import { ParamBuffer } from "../../core/parser/params.ts";
import { rng } from "./helpers.ts";

// ------------------------------------------------------------------ helpers

/** One recorded handler call. */
type Call = (string | number)[];

/** Params in their text form: `38:2::10;;5` (missing values are empty). */
function fmtParams(p: Params): string {
  let s = "";
  for (let i = 0; i < p.length; i++) {
    if (i > 0) s += ";";
    if (p.has(i)) s += p.get(i, -1);
    const sub = p.sub(i);
    if (sub) { for (const v of sub) s += v < 0 ? ":" : ":" + v; }
  }
  return s;
}

/** Bytes as a string with one char per byte (for payload comparison). */
function binary(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/**
 * Records calls: ["print", text] (adjacent prints joined), ["exec", code],
 * ["csi", prefix, params, intermediates, final], ["esc", intermediates,
 * final], ["osc", data], ["dcs", prefix, params, intermediates, final,
 * payload], ["apc" | "pm" | "sos", payload]. Payloads are binary strings.
 */
class Recorder implements ParserHandler {
  /** The calls so far. */
  calls: Call[] = [];

  print(codes: Uint32Array, start: number, end: number): void {
    let s = "";
    for (let i = start; i < end; i++) s += String.fromCodePoint(codes[i]);
    const last = this.calls[this.calls.length - 1];
    if (last !== undefined && last[0] === "print") last[1] += s;
    else this.calls.push(["print", s]);
  }
  execute(code: number): void {
    this.calls.push(["exec", code]);
  }
  csi(prefix: string, params: Params, inter: string, final: number): void {
    this.calls.push([
      "csi",
      prefix,
      fmtParams(params),
      inter,
      String.fromCharCode(final),
    ]);
  }
  esc(inter: string, final: number): void {
    this.calls.push(["esc", inter, String.fromCharCode(final)]);
  }
  osc(data: string): void {
    this.calls.push(["osc", data]);
  }
  dcs(
    prefix: string,
    params: Params,
    inter: string,
    final: number,
    payload: Uint8Array,
  ): void {
    this.calls.push([
      "dcs",
      prefix,
      fmtParams(params),
      inter,
      String.fromCharCode(final),
      binary(payload),
    ]);
  }
  apc(payload: Uint8Array): void {
    this.calls.push(["apc", binary(payload)]);
  }
  pm(payload: Uint8Array): void {
    this.calls.push(["pm", binary(payload)]);
  }
  sos(payload: Uint8Array): void {
    this.calls.push(["sos", binary(payload)]);
  }
}

const encoder = new TextEncoder();

/**
 * Build input bytes: strings are UTF-8 encoded (so "\u009b" is C2 9B, a C1
 * CSI), number arrays are raw bytes.
 */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((p) =>
    typeof p === "string" ? encoder.encode(p) : Uint8Array.from(p)
  );
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Parse `input` fed in the given chunk lengths (rest in one chunk) and return the calls. */
function run(
  input: Uint8Array,
  options?: ParserOptions,
  splits: number[] = [],
): Call[] {
  const rec = new Recorder();
  const p = new Parser(rec, options);
  let o = 0;
  for (const s of splits) {
    p.feed(input.subarray(o, o + s));
    o += s;
  }
  if (o < input.length) p.feed(input.subarray(o));
  return rec.calls;
}

/** Parse `input` one byte per `feed` call. */
function runBytewise(input: Uint8Array, options?: ParserOptions): Call[] {
  const rec = new Recorder();
  const p = new Parser(rec, options);
  for (let i = 0; i < input.length; i++) p.feed(input.subarray(i, i + 1));
  return rec.calls;
}

const ESC = "\x1b";
const CSI = "\x1b[";
const OSC = "\x1b]";
const DCS = "\x1bP";
const ST = "\x1b\\";
const BEL = "\x07";
const CAN = "\x18";
const SUB = "\x1a";

/** One table row: input -> the exact calls. */
interface Case {
  name: string;
  input: Uint8Array | string;
  expect: Call[];
  options?: ParserOptions;
}

const toBytes = (x: Uint8Array | string) =>
  typeof x === "string" ? bytes(x) : x;

// ------------------------------------------------------------- the tables

const groundCases: Case[] = [
  { name: "plain ascii", input: "hello", expect: [["print", "hello"]] },
  { name: "empty input", input: "", expect: [] },
  {
    name: "text around LF and CR",
    input: "ab\r\ncd",
    expect: [["print", "ab"], ["exec", 13], ["exec", 10], ["print", "cd"]],
  },
  { name: "DEL ignored in ground", input: "a\x7fb", expect: [["print", "ab"]] },
  {
    name: "C1 ST in ground does nothing",
    input: "a\u009cb",
    expect: [["print", "ab"]],
  },
  {
    name: "raw 0x9b byte is invalid UTF-8, not CSI",
    input: bytes("a", [0x9b], "1m"),
    expect: [["print", "a\ufffd1m"]],
  },
  {
    name: "UTF-8 1-4 bytes",
    input: "a\u00e9\u20ac\u{1f600}\u4e2d\u6587",
    expect: [["print", "a\u00e9\u20ac\u{1f600}\u4e2d\u6587"]],
  },
  { name: "U+00A0 prints", input: "\u00a0", expect: [["print", "\u00a0"]] },
  {
    name: "ESC inside a UTF-8 sequence",
    input: bytes([0xe2, 0x82], "\x1b7"),
    expect: [["print", "\ufffd"], ["esc", "", "7"]],
  },
  {
    name: "CAN inside a UTF-8 sequence",
    input: bytes("x", [0xf0, 0x9f, 0x98], CAN, "y"),
    expect: [["print", "x\ufffd"], ["exec", 0x18], ["print", "y"]],
  },
];

// Every C0 except ESC is executed in ground (CAN/SUB too: nothing to abort).
for (let c = 0; c < 0x20; c++) {
  if (c === 0x1b) continue;
  groundCases.push({
    name: `C0 0x${c.toString(16)} executes`,
    input: bytes("a", [c], "b"),
    expect: [["print", "a"], ["exec", c], ["print", "b"]],
  });
}
// Every C1 that is not a sequence introducer or ST is executed.
for (let c = 0x80; c < 0xa0; c++) {
  if ([0x90, 0x98, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f].includes(c)) continue;
  groundCases.push({
    name: `C1 U+${c.toString(16)} via UTF-8 executes`,
    input: "a" + String.fromCharCode(c) + "b",
    expect: [["print", "a"], ["exec", c], ["print", "b"]],
  });
}

const escCases: Case[] = [
  { name: "DECSC", input: ESC + "7", expect: [["esc", "", "7"]] },
  { name: "RIS", input: ESC + "c", expect: [["esc", "", "c"]] },
  {
    name: "IND NEL HTS RI",
    input: ESC + "D" + ESC + "E" + ESC + "H" + ESC + "M",
    expect: [["esc", "", "D"], ["esc", "", "E"], ["esc", "", "H"], [
      "esc",
      "",
      "M",
    ]],
  },
  {
    name: "SS2 SS3",
    input: ESC + "N" + ESC + "O",
    expect: [["esc", "", "N"], ["esc", "", "O"]],
  },
  {
    name: "keypad modes",
    input: ESC + "=" + ESC + ">",
    expect: [["esc", "", "="], ["esc", "", ">"]],
  },
  {
    name: "charset G0 DEC graphics",
    input: ESC + "(0",
    expect: [["esc", "(", "0"]],
  },
  {
    name: "charset G1..G3",
    input: ESC + ")B" + ESC + "*A" + ESC + "+0",
    expect: [["esc", ")", "B"], ["esc", "*", "A"], ["esc", "+", "0"]],
  },
  { name: "DECALN", input: ESC + "#8", expect: [["esc", "#", "8"]] },
  { name: "select UTF-8", input: ESC + "%G", expect: [["esc", "%", "G"]] },
  {
    name: "two intermediates",
    input: ESC + "$(A",
    expect: [["esc", "$(", "A"]],
  },
  {
    name: "ESC [ after intermediate is a final",
    input: ESC + "([",
    expect: [["esc", "(", "["]],
  },
  {
    name: "lone ST is an ESC sequence",
    input: ESC + "\\",
    expect: [["esc", "", "\\"]],
  },
  {
    name: "C0 inside ESC executes",
    input: ESC + "(\n0",
    expect: [["exec", 10], ["esc", "(", "0"]],
  },
  {
    name: "C0 right after ESC",
    input: ESC + "\r7",
    expect: [["exec", 13], ["esc", "", "7"]],
  },
  {
    name: "ESC ESC restarts",
    input: ESC + "(" + ESC + "7",
    expect: [["esc", "", "7"]],
  },
  {
    name: "DEL inside ESC ignored",
    input: ESC + "(\x7f0",
    expect: [["esc", "(", "0"]],
  },
  {
    name: "CAN aborts ESC",
    input: ESC + "(" + CAN + "0",
    expect: [["exec", 0x18], ["print", "0"]],
  },
  {
    name: "SUB aborts ESC",
    input: ESC + SUB + "7",
    expect: [["exec", 0x1a], ["print", "7"]],
  },
  {
    name: "non-ASCII aborts ESC and prints",
    input: ESC + "\u00e9x",
    expect: [["print", "\u00e9x"]],
  },
  {
    name: "too many intermediates: not dispatched",
    input: ESC + "(((((((((0x",
    expect: [["print", "x"]],
  },
  {
    name: "C1 CSI after ESC",
    input: ESC + "\u009bm",
    expect: [["csi", "", "", "", "m"]],
  },
  {
    name: "C1 ST after ESC cancels",
    input: ESC + "\u009c7",
    expect: [["print", "7"]],
  },
  {
    name: "C1 NEL after ESC executes",
    input: ESC + "\u00857",
    expect: [["exec", 0x85], ["print", "7"]],
  },
  {
    name: "ESC then text",
    input: "ab" + ESC + "7cd",
    expect: [["print", "ab"], ["esc", "", "7"], ["print", "cd"]],
  },
];

const csiCases: Case[] = [
  { name: "no params", input: CSI + "m", expect: [["csi", "", "", "", "m"]] },
  {
    name: "two params",
    input: CSI + "1;2H",
    expect: [["csi", "", "1;2", "", "H"]],
  },
  {
    name: "explicit zero",
    input: CSI + "0m",
    expect: [["csi", "", "0", "", "m"]],
  },
  {
    name: "leading zeros",
    input: CSI + "007m",
    expect: [["csi", "", "7", "", "m"]],
  },
  {
    name: "empty params",
    input: CSI + ";H",
    expect: [["csi", "", ";", "", "H"]],
  },
  {
    name: "empty first param",
    input: CSI + ";5H",
    expect: [["csi", "", ";5", "", "H"]],
  },
  {
    name: "empty last param",
    input: CSI + "5;H",
    expect: [["csi", "", "5;", "", "H"]],
  },
  {
    name: "DEC private",
    input: CSI + "?1049h",
    expect: [["csi", "?", "1049", "", "h"]],
  },
  {
    name: "DEC private, several",
    input: CSI + "?1;1000;1006h",
    expect: [["csi", "?", "1;1000;1006", "", "h"]],
  },
  {
    name: "marker > (DA2)",
    input: CSI + ">c",
    expect: [["csi", ">", "", "", "c"]],
  },
  {
    name: "marker = (DA3)",
    input: CSI + "=c",
    expect: [["csi", "=", "", "", "c"]],
  },
  {
    name: "marker < (kitty pop)",
    input: CSI + "<u",
    expect: [["csi", "<", "", "", "u"]],
  },
  {
    name: "marker then empty param",
    input: CSI + "?;1h",
    expect: [["csi", "?", ";1", "", "h"]],
  },
  {
    name: "marker not first: ignored",
    input: CSI + "1?hx",
    expect: [["print", "x"]],
  },
  {
    name: "two markers: ignored",
    input: CSI + "??hx",
    expect: [["print", "x"]],
  },
  {
    name: "marker after ; : ignored",
    input: CSI + ";>cx",
    expect: [["print", "x"]],
  },
  {
    name: "DECSCUSR (SP intermediate)",
    input: CSI + "2 q",
    expect: [["csi", "", "2", " ", "q"]],
  },
  {
    name: "DECSTR (!)",
    input: CSI + "!p",
    expect: [["csi", "", "", "!", "p"]],
  },
  {
    name: "DECRQM private ($)",
    input: CSI + "?2026$p",
    expect: [["csi", "?", "2026", "$", "p"]],
  },
  {
    name: 'DECSCA (")',
    input: CSI + '1"q',
    expect: [["csi", "", "1", '"', "q"]],
  },
  {
    name: "DECRQCRA (*)",
    input: CSI + "1;1;1;1;5;5*y",
    expect: [["csi", "", "1;1;1;1;5;5", "*", "y"]],
  },
  {
    name: "two intermediates",
    input: CSI + "1 $x",
    expect: [["csi", "", "1", " $", "x"]],
  },
  {
    name: "param after intermediate: ignored",
    input: CSI + " 1qx",
    expect: [["print", "x"]],
  },
  {
    name: "marker after intermediate: ignored",
    input: CSI + "$?px",
    expect: [["print", "x"]],
  },
  {
    name: "too many intermediates: ignored",
    input: CSI + "1         qx",
    expect: [["print", "x"]],
  },
  {
    name: "SGR truecolor with colons",
    input: CSI + "38:2::10:20:30m",
    expect: [["csi", "", "38:2::10:20:30", "", "m"]],
  },
  {
    name: "SGR truecolor with semicolons",
    input: CSI + "38;2;10;20;30m",
    expect: [["csi", "", "38;2;10;20;30", "", "m"]],
  },
  {
    name: "underline style",
    input: CSI + "4:3m",
    expect: [["csi", "", "4:3", "", "m"]],
  },
  {
    name: "mixed sub-params",
    input: CSI + "1;38:5:196;4:0;58:2:1:2:3m",
    expect: [["csi", "", "1;38:5:196;4:0;58:2:1:2:3", "", "m"]],
  },
  {
    name: "trailing empty sub-param",
    input: CSI + "38:5:m",
    expect: [["csi", "", "38:5:", "", "m"]],
  },
  {
    name: "leading colon",
    input: CSI + ":5m",
    expect: [["csi", "", ":5", "", "m"]],
  },
  {
    name: "marker then sub-params",
    input: CSI + "?4:1h",
    expect: [["csi", "?", "4:1", "", "h"]],
  },
  {
    name: "max value",
    input: CSI + "2147483647m",
    expect: [["csi", "", "2147483647", "", "m"]],
  },
  {
    name: "overflow clamps",
    input: CSI + "2147483648;99999999999999999999999m",
    expect: [["csi", "", "2147483647;2147483647", "", "m"]],
  },
  {
    name: "sub-param overflow clamps",
    input: CSI + "4:99999999999m",
    expect: [["csi", "", "4:2147483647", "", "m"]],
  },
  {
    name: "more than 32 params: extra ignored, still dispatched",
    input: CSI + Array.from({ length: 40 }, (_, i) => i + 1).join(";") + "m",
    expect: [[
      "csi",
      "",
      Array.from({ length: 32 }, (_, i) => i + 1).join(";"),
      "",
      "m",
    ]],
  },
  {
    name: "33rd param with sub-params ignored",
    input: CSI + "1;".repeat(32) + "4:3m",
    expect: [["csi", "", "1;".repeat(31) + "1", "", "m"]],
  },
  {
    name: "more than 16 sub-params: extra ignored",
    input: CSI + "38" + ":7".repeat(20) + ";1m",
    expect: [["csi", "", "38" + ":7".repeat(16) + ";1", "", "m"]],
  },
  {
    name: "C0 inside CSI executes, sequence continues",
    input: CSI + "1\n;2\rH",
    expect: [["exec", 10], ["exec", 13], ["csi", "", "1;2", "", "H"]],
  },
  {
    name: "BEL inside CSI entry",
    input: CSI + BEL + "?25l",
    expect: [["exec", 7], ["csi", "?", "25", "", "l"]],
  },
  {
    name: "C0 in csi_intermediate",
    input: CSI + "2 \bq",
    expect: [["exec", 8], ["csi", "", "2", " ", "q"]],
  },
  {
    name: "C0 in csi_ignore",
    input: CSI + "1?\n2hx",
    expect: [["exec", 10], ["print", "x"]],
  },
  {
    name: "DEL inside CSI ignored",
    input: CSI + "1\x7f;2H",
    expect: [["csi", "", "1;2", "", "H"]],
  },
  {
    name: "CAN aborts CSI",
    input: CSI + "1" + CAN + ";2H",
    expect: [["exec", 0x18], ["print", ";2H"]],
  },
  {
    name: "SUB aborts CSI",
    input: CSI + "1" + SUB + "m",
    expect: [["exec", 0x1a], ["print", "m"]],
  },
  {
    name: "CAN aborts csi_ignore",
    input: CSI + "1?" + CAN + "m",
    expect: [["exec", 0x18], ["print", "m"]],
  },
  {
    name: "ESC restarts inside CSI",
    input: CSI + "1;2" + CSI + "3m",
    expect: [["csi", "", "3", "", "m"]],
  },
  {
    name: "ESC restarts csi_ignore",
    input: CSI + "1?" + ESC + "7",
    expect: [["esc", "", "7"]],
  },
  {
    name: "8-bit CSI via UTF-8",
    input: "\u009b1;2H",
    expect: [["csi", "", "1;2", "", "H"]],
  },
  {
    name: "8-bit CSI private",
    input: "\u009b?25l",
    expect: [["csi", "?", "25", "", "l"]],
  },
  {
    name: "C1 CSI restarts CSI",
    input: CSI + "1\u009b2m",
    expect: [["csi", "", "2", "", "m"]],
  },
  {
    name: "C1 ST cancels CSI",
    input: CSI + "1\u009cAB",
    expect: [["print", "AB"]],
  },
  {
    name: "C1 control aborts CSI and executes",
    input: CSI + "1\u0085A",
    expect: [["exec", 0x85], ["print", "A"]],
  },
  {
    name: "non-ASCII in params: ignored until final",
    input: CSI + "1\u00e91mx",
    expect: [["print", "x"]],
  },
  {
    name: "non-ASCII at entry: ignored",
    input: CSI + "\u4e2dmx",
    expect: [["print", "x"]],
  },
  {
    name: "invalid UTF-8 in CSI: ignored",
    input: bytes(CSI, "1", [0xff], "mx"),
    expect: [["print", "x"]],
  },
  {
    name: "text around CSI",
    input: "a" + CSI + "1mb",
    expect: [["print", "a"], ["csi", "", "1", "", "m"], ["print", "b"]],
  },
  {
    name: "back-to-back sequences",
    input: CSI + "H" + CSI + "2J" + CSI + "?25h",
    expect: [["csi", "", "", "", "H"], ["csi", "", "2", "", "J"], [
      "csi",
      "?",
      "25",
      "",
      "h",
    ]],
  },
];
// Every final byte 0x40..0x7e dispatches.
for (let f = 0x40; f <= 0x7e; f++) {
  const ch = String.fromCharCode(f);
  csiCases.push({
    name: `final ${JSON.stringify(ch)}`,
    input: CSI + "5" + ch,
    expect: [["csi", "", "5", "", ch]],
  });
}

const oscCases: Case[] = [
  {
    name: "title with BEL",
    input: OSC + "0;my title" + BEL,
    expect: [["osc", "0;my title"]],
  },
  {
    name: "title with ST (no esc call)",
    input: OSC + "2;t" + ST + "x",
    expect: [["osc", "2;t"], ["print", "x"]],
  },
  {
    name: "title with C1 ST",
    input: OSC + "2;t\u009cx",
    expect: [["osc", "2;t"], ["print", "x"]],
  },
  {
    name: "8-bit OSC",
    input: "\u009d8;;http://example.com\u009c",
    expect: [["osc", "8;;http://example.com"]],
  },
  { name: "empty OSC", input: OSC + BEL, expect: [["osc", ""]] },
  {
    name: "OSC UTF-8 decoded",
    input: OSC + "0;h\u00e9llo \u2713 \u{1f600}" + BEL,
    expect: [["osc", "0;h\u00e9llo \u2713 \u{1f600}"]],
  },
  {
    name: "OSC invalid UTF-8 -> U+FFFD",
    input: bytes(OSC, "0;a", [0xff, 0xe2, 0x82], "b", BEL),
    expect: [["osc", "0;a\ufffd\ufffdb"]],
  },
  {
    name: "OSC: ignored C0 does not glue broken UTF-8",
    input: bytes(OSC, "0;", [0xe2, 0x82], "\x01", [0xac], BEL),
    expect: [["osc", "0;\ufffd\ufffd"]],
  },
  {
    name: "OSC C0 ignored",
    input: OSC + "0;a\nb\tc" + BEL,
    expect: [["osc", "0;abc"]],
  },
  {
    name: "OSC DEL ignored",
    input: OSC + "0;a\x7fb" + BEL,
    expect: [["osc", "0;ab"]],
  },
  { name: "OSC 10 query", input: OSC + "10;?" + ST, expect: [["osc", "10;?"]] },
  {
    name: "OSC 133 prompt marks",
    input: OSC + "133;A" + BEL + "$ " + OSC + "133;B" + BEL,
    expect: [["osc", "133;A"], ["print", "$ "], ["osc", "133;B"]],
  },
  {
    name: "CAN aborts OSC",
    input: OSC + "0;a" + CAN + "b",
    expect: [["exec", 0x18], ["print", "b"]],
  },
  {
    name: "SUB aborts OSC",
    input: OSC + "0;a" + SUB + "b" + BEL,
    expect: [["exec", 0x1a], ["print", "b"], ["exec", 7]],
  },
  {
    name: "ESC + other ends OSC and starts a sequence",
    input: OSC + "0;a" + CSI + "m",
    expect: [["osc", "0;a"], ["csi", "", "", "", "m"]],
  },
  {
    name: "ESC ESC \\ after OSC",
    input: OSC + "0;a" + ESC + ESC + "\\",
    expect: [["osc", "0;a"], ["esc", "", "\\"]],
  },
  {
    name: "C0 between ESC and \\",
    input: OSC + "0;a" + ESC + "\r\\x",
    expect: [["osc", "0;a"], ["exec", 13], ["print", "x"]],
  },
  {
    name: "C1 control ends OSC and executes",
    input: OSC + "0;a\u0085b",
    expect: [["osc", "0;a"], ["exec", 0x85], ["print", "b"]],
  },
  {
    name: "C1 CSI ends OSC",
    input: OSC + "0;a\u009bm",
    expect: [["osc", "0;a"], ["csi", "", "", "", "m"]],
  },
  {
    name: "OSC inside OSC",
    input: OSC + "0;a" + OSC + "1;b" + BEL,
    expect: [["osc", "0;a"], ["osc", "1;b"]],
  },
  {
    name: "semicolons and colons kept",
    input: OSC + "1337;File=name=eA==;inline=1:QUJD" + BEL,
    expect: [["osc", "1337;File=name=eA==;inline=1:QUJD"]],
  },
];

const dcsCases: Case[] = [
  {
    name: "DECRQSS SGR",
    input: DCS + "$qm" + ST,
    expect: [["dcs", "", "", "$", "q", "m"]],
  },
  {
    name: "DECRQSS DECSCUSR",
    input: DCS + "$q q" + ST,
    expect: [["dcs", "", "", "$", "q", " q"]],
  },
  {
    name: "DECRQSS with C1 ST",
    input: DCS + "$qr\u009c",
    expect: [["dcs", "", "", "$", "q", "r"]],
  },
  {
    name: "8-bit DCS",
    input: '\u0090$q"q\u009c',
    expect: [["dcs", "", "", "$", "q", '"q']],
  },
  {
    name: "sixel-like",
    input: DCS + '0;1;0q"1;1;4;2#0;2;100;0;0#0~~@@$-~~' + ST + "x",
    expect: [["dcs", "", "0;1;0", "", "q", '"1;1;4;2#0;2;100;0;0#0~~@@$-~~'], [
      "print",
      "x",
    ]],
  },
  {
    name: "private marker",
    input: DCS + ">|xterm(1)" + ST,
    expect: [["dcs", ">", "", "", "|", "xterm(1)"]],
  },
  {
    name: "empty payload",
    input: DCS + "q" + ST,
    expect: [["dcs", "", "", "", "q", ""]],
  },
  {
    name: "params with sub-params",
    input: DCS + "1:2;3q" + ST,
    expect: [["dcs", "", "1:2;3", "", "q", ""]],
  },
  {
    name: "C0 kept in payload",
    input: DCS + "q#0\r\n~" + BEL + ST,
    expect: [["dcs", "", "", "", "q", "#0\r\n~\x07"]],
  },
  {
    name: "DEL dropped from payload",
    input: DCS + "qa\x7fb" + ST,
    expect: [["dcs", "", "", "", "q", "ab"]],
  },
  {
    name: "C0 in DCS header ignored",
    input: DCS + "\n1\r$\tq" + ST,
    expect: [["dcs", "", "1", "$", "q", ""]],
  },
  {
    name: "UTF-8 payload bytes",
    input: DCS + "q\u00e9" + ST,
    expect: [["dcs", "", "", "", "q", "\xc3\xa9"]],
  },
  {
    name: "invalid UTF-8 in payload -> EF BF BD",
    input: bytes(DCS, "q", [0xff], ST),
    expect: [["dcs", "", "", "", "q", "\xef\xbf\xbd"]],
  },
  {
    name: "CAN aborts DCS",
    input: DCS + "$qm" + CAN + "x",
    expect: [["exec", 0x18], ["print", "x"]],
  },
  {
    name: "SUB aborts DCS header",
    input: DCS + "1" + SUB + "x",
    expect: [["exec", 0x1a], ["print", "x"]],
  },
  {
    name: "ESC + other ends DCS",
    input: DCS + "qab" + CSI + "m",
    expect: [["dcs", "", "", "", "q", "ab"], ["csi", "", "", "", "m"]],
  },
  {
    name: "marker after param: dcs_ignore",
    input: DCS + "1?qpayload" + ST + "x",
    expect: [["print", "x"]],
  },
  {
    name: "param after intermediate: dcs_ignore",
    input: DCS + "$1qpayload" + ST + "x",
    expect: [["print", "x"]],
  },
  {
    name: "non-ASCII in header: dcs_ignore",
    input: DCS + "\u00e9qpayload" + ST + "x",
    expect: [["print", "x"]],
  },
  {
    name: "dcs_ignore ended by C1 ST",
    input: DCS + "1?q\u00e9\u009cx",
    expect: [["print", "x"]],
  },
  {
    name: "CAN aborts dcs_ignore",
    input: DCS + "1?qab" + CAN + "x",
    expect: [["exec", 0x18], ["print", "x"]],
  },
  {
    name: "DCS then CSI reuses params safely",
    input: DCS + "5$qm" + ST + CSI + "7m",
    expect: [["dcs", "", "5", "$", "q", "m"], ["csi", "", "7", "", "m"]],
  },
];

dcsCases.push(
  {
    name: "C1 control ends DCS and executes",
    input: DCS + "qab\u0085c",
    expect: [["dcs", "", "", "", "q", "ab"], ["exec", 0x85], ["print", "c"]],
  },
  {
    name: "ESC in DCS header starts an ESC sequence",
    input: DCS + "1$" + ESC + "7",
    expect: [["esc", "", "7"]],
  },
  {
    name: "ESC \\ in DCS header is a plain ST",
    input: DCS + "1" + ST + "x",
    expect: [["esc", "", "\\"], ["print", "x"]],
  },
  {
    name: "C1 DCS inside DCS",
    input: DCS + "qa\u0090qb\u009c",
    expect: [["dcs", "", "", "", "q", "a"], ["dcs", "", "", "", "q", "b"]],
  },
);

const spaCases: Case[] = [
  {
    name: "APC (kitty graphics)",
    input: ESC + "_Gf=100,a=T;AAAA" + ST,
    expect: [["apc", "Gf=100,a=T;AAAA"]],
  },
  { name: "PM", input: ESC + "^privacy" + ST, expect: [["pm", "privacy"]] },
  { name: "SOS", input: ESC + "Xstart" + ST, expect: [["sos", "start"]] },
  {
    name: "8-bit APC PM SOS",
    input: "\u009fa\u009c\u009eb\u009c\u0098c\u009c",
    expect: [["apc", "a"], ["pm", "b"], ["sos", "c"]],
  },
  {
    name: "C0 ignored in APC",
    input: ESC + "_a\nb" + BEL + "c" + ST,
    expect: [["apc", "abc"]],
  },
  {
    name: "UTF-8 in APC",
    input: ESC + "_\u00e9" + ST,
    expect: [["apc", "\xc3\xa9"]],
  },
  {
    name: "CAN aborts APC",
    input: ESC + "_abc" + CAN + "x",
    expect: [["exec", 0x18], ["print", "x"]],
  },
  {
    name: "ESC + other ends APC",
    input: ESC + "_abc" + ESC + "7",
    expect: [["apc", "abc"], ["esc", "", "7"]],
  },
];

// CAN and SUB abort whatever is in progress and are executed.
const abortCases: Case[] = [];
for (
  const [state, prefix] of [
    ["ground", ""],
    ["escape", ESC],
    ["escape_intermediate", ESC + "("],
    ["csi_entry", CSI],
    ["csi_param", CSI + "1;2"],
    ["csi_intermediate", CSI + "1$"],
    ["csi_ignore", CSI + "1?"],
    ["osc_string", OSC + "0;x"],
    ["dcs_entry", DCS],
    ["dcs_param", DCS + "1"],
    ["dcs_intermediate", DCS + "$"],
    ["dcs_ignore", DCS + "1?"],
    ["dcs_passthrough", DCS + "qab"],
    ["apc", ESC + "_ab"],
    ["pm", ESC + "^ab"],
    ["sos", ESC + "Xab"],
  ]
) {
  for (const c of [0x18, 0x1a]) {
    abortCases.push({
      name: `${c === 0x18 ? "CAN" : "SUB"} in ${state}`,
      input: prefix + String.fromCharCode(c) + "z",
      expect: [["exec", c], ["print", "z"]],
    });
  }
}

const capOptions: ParserOptions = {
  maxOsc: 8,
  maxLargeOsc: 16,
  maxDcs: 4,
  maxApc: 5,
  maxSosPm: 3,
};
const capCases: Case[] = [
  {
    name: "OSC at the cap",
    input: OSC + "0;123456" + BEL,
    expect: [["osc", "0;123456"]],
  },
  {
    name: "OSC over the cap dropped",
    input: OSC + "0;1234567" + BEL + "x",
    expect: [["print", "x"]],
  },
  {
    name: "OSC over the cap with ST",
    input: OSC + "0;1234567" + ST + "x",
    expect: [["print", "x"]],
  },
  {
    name: "OSC over the cap with C1 ST",
    input: OSC + "0;1234567\u009cx",
    expect: [["print", "x"]],
  },
  {
    name: "cap counts UTF-8 bytes (at the cap)",
    input: OSC + "0;\u00e9\u00e9\u00e9" + BEL,
    expect: [["osc", "0;\u00e9\u00e9\u00e9"]],
  },
  {
    name: "cap counts UTF-8 bytes (over)",
    input: OSC + "0;a\u00e9\u00e9\u00e9" + BEL + "x",
    expect: [["print", "x"]],
  },
  {
    name: "OSC 1337 uses the large cap",
    input: OSC + "1337;File=:QUJD" + BEL,
    expect: [["osc", "1337;File=:QUJD"]],
  },
  {
    name: "OSC 1337 over the large cap",
    input: OSC + "1337;File=:QUJDQU" + BEL + "x",
    expect: [["print", "x"]],
  },
  {
    name: "OSC 52 uses the large cap",
    input: OSC + "52;c;QUJDRA==" + BEL,
    expect: [["osc", "52;c;QUJDRA=="]],
  },
  {
    name: "OSC 72 uses the large cap",
    input: OSC + "72;<b>hi</b>" + BEL,
    expect: [["osc", "72;<b>hi</b>"]],
  },
  {
    name: "OSC 721 uses the large cap",
    input: OSC + "721;k;<i>x</i>" + BEL,
    expect: [["osc", "721;k;<i>x</i>"]],
  },
  {
    name: "OSC 7211 does not",
    input: OSC + "7211;k;<i>" + BEL + "x",
    expect: [["print", "x"]],
  },
  {
    name: "OSC 5 does not",
    input: OSC + "5;1234567" + BEL + "x",
    expect: [["print", "x"]],
  },
  {
    name: "DCS at the cap",
    input: DCS + "$q1234" + ST,
    expect: [["dcs", "", "", "$", "q", "1234"]],
  },
  {
    name: "DCS over the cap dropped",
    input: DCS + "$q12345" + ST + "x",
    expect: [["print", "x"]],
  },
  {
    name: "APC at / over the cap",
    input: ESC + "_12345" + ST + ESC + "_123456" + ST + "x",
    expect: [["apc", "12345"], ["print", "x"]],
  },
  {
    name: "PM over the cap",
    input: ESC + "^123" + ST + ESC + "^1234" + ST + "x",
    expect: [["pm", "123"], ["print", "x"]],
  },
  {
    name: "SOS over the cap",
    input: ESC + "X1234\u009cx",
    expect: [["print", "x"]],
  },
  {
    name: "dropped, then the next one works",
    input: OSC + "0;1234567890" + BEL + OSC + "0;ok" + BEL,
    expect: [["osc", "0;ok"]],
  },
];

/** Run a table: whole input, then byte by byte. */
function table(title: string, cases: Case[], options?: ParserOptions): void {
  Deno.test(`parser: ${title}`, async (t) => {
    for (const c of cases) {
      await t.step(c.name, () => {
        const input = toBytes(c.input);
        const opts = c.options ?? options;
        deepStrictEqual(run(input, opts), c.expect);
        deepStrictEqual(runBytewise(input, opts), c.expect, "byte by byte");
      });
    }
  });
}

table("ground, C0, C1, UTF-8 printing", groundCases);
table("ESC sequences", escCases);
table("CSI sequences", csiCases);
table("OSC strings", oscCases);
table("DCS strings", dcsCases);
table("SOS/PM/APC strings", spaCases);
table("CAN/SUB abort in every state", abortCases);
table("payload caps", capCases, capOptions);

// ------------------------------------------------------------ other tests

Deno.test("parser: Params get/has/sub contract", () => {
  const seen: [string, Params][] = [];
  const got: unknown[] = [];
  const h = new Recorder();
  h.csi = (_prefix, params) => {
    seen.push(["csi", params]);
    got.push({
      length: params.length,
      g0: params.get(0, 99),
      g1: params.get(1, 99),
      g9: params.get(9, 99),
      gneg: params.get(-1, 99),
      h0: params.has(0),
      h1: params.has(1),
      s0: params.sub(0),
      s1: params.sub(1),
      s5: params.sub(5),
    });
  };
  const p = new Parser(h);
  p.feed(bytes(CSI + "38:2::10:20:30m"));
  p.feed(bytes(CSI + ";5H"));
  p.feed(bytes(CSI + "0;0m"));
  p.feed(bytes(CSI + "m"));
  deepStrictEqual(got, [
    {
      length: 1,
      g0: 38,
      g1: 99,
      g9: 99,
      gneg: 99,
      h0: true,
      h1: false,
      s0: [2, -1, 10, 20, 30],
      s1: undefined,
      s5: undefined,
    },
    {
      length: 2,
      g0: 99,
      g1: 5,
      g9: 99,
      gneg: 99,
      h0: false,
      h1: true,
      s0: undefined,
      s1: undefined,
      s5: undefined,
    },
    {
      length: 2,
      g0: 0,
      g1: 0,
      g9: 99,
      gneg: 99,
      h0: true,
      h1: true,
      s0: undefined,
      s1: undefined,
      s5: undefined,
    },
    {
      length: 0,
      g0: 99,
      g1: 99,
      g9: 99,
      gneg: 99,
      h0: false,
      h1: false,
      s0: undefined,
      s1: undefined,
      s5: undefined,
    },
  ]);
  // The same Params object is reused for every sequence.
  strictEqual(seen[0][1], seen[3][1]);
});

Deno.test("parser: ParamBuffer toString is the canonical form", () => {
  const pb = new ParamBuffer();
  for (const ch of "38:2::1;;5:") {
    if (ch === ";") pb.semicolon();
    else if (ch === ":") pb.colon();
    else pb.digit(ch.charCodeAt(0) - 0x30);
  }
  pb.finish();
  strictEqual(pb.toString(), "38:2::1;;5:");
  pb.reset();
  pb.finish();
  strictEqual(pb.toString(), "");
  strictEqual(pb.length, 0);
});

Deno.test("parser: UTF-8 decoding matches TextDecoder", async (t) => {
  const samples: number[][] = [
    [0x41],
    [0xc3, 0xa9],
    [0xe2, 0x82, 0xac],
    [0xf0, 0x9f, 0x98, 0x80],
    [0xf4, 0x8f, 0xbf, 0xbf], // U+10FFFF
    [0xef, 0xbf, 0xbf], // U+FFFF
    [0xc0, 0x80], // overlong NUL
    [0xc1, 0xbf], // overlong
    [0xe0, 0x80, 0x80], // overlong 3
    [0xe0, 0x9f, 0xbf], // overlong 3
    [0xf0, 0x80, 0x80, 0x80], // overlong 4
    [0xf0, 0x8f, 0xbf, 0xbf], // overlong 4
    [0xed, 0xa0, 0x80], // surrogate D800
    [0xed, 0xbf, 0xbf], // surrogate DFFF
    [0xed, 0x9f, 0xbf], // U+D7FF ok
    [0xf4, 0x90, 0x80, 0x80], // > U+10FFFF
    [0xf5, 0x80, 0x80, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0xfc, 0x84, 0x80, 0x80, 0x80, 0x80],
    [0xfe],
    [0xff],
    [0x80],
    [0xbf],
    [0x80, 0x80, 0x80],
    [0xc2], // truncated, then ASCII
    [0xe2, 0x82], // truncated 3
    [0xf0, 0x9f, 0x98], // truncated 4
    [0xe2, 0xe2, 0x82, 0xac],
    [0xf0, 0x9f, 0xe2, 0x82, 0xac],
    [0xc3, 0xa9, 0xa9],
    [0xe0, 0xa0], // truncated after a narrowed range
    [0xf4, 0x8f],
    [0xc2, 0xc2, 0xa0],
  ];
  for (const s of samples) {
    const input = bytes("x", s, "y");
    const want = new TextDecoder().decode(input);
    await t.step(s.map((b) => b.toString(16)).join(" "), () => {
      deepStrictEqual(run(input), [["print", want]]);
      deepStrictEqual(runBytewise(input), [["print", want]]);
    });
  }
  await t.step("random byte soup", () => {
    const r = rng(1234);
    let checked = 0;
    for (let k = 0; k < 2000; k++) {
      const len = 1 + Math.floor(r() * 12);
      const arr: number[] = [];
      for (let j = 0; j < len; j++) {
        arr.push(r() < 0.15 ? 0x41 : 0x80 + Math.floor(r() * 0x80));
      }
      const input = bytes(arr, "z");
      const want = new TextDecoder().decode(input);
      // Decoded C1 controls are not printed: skip those samples.
      if (/[\u0080-\u009f]/.test(want)) continue;
      checked++;
      deepStrictEqual(run(input), [["print", want]], arr.join(","));
      deepStrictEqual(run(input, undefined, [1 + (k % len)]), [[
        "print",
        want,
      ]]);
    }
    assert(checked > 1000);
  });
});

Deno.test("parser: a 10 MiB OSC is dropped, memory freed, text after it prints", () => {
  const calls: Call[] = [];
  const h = new Recorder();
  h.osc = (d) => calls.push(["osc", d.length]);
  h.print = (c, s, e) =>
    calls.push(["print", String.fromCodePoint(...c.subarray(s, e))]);
  const p = new Parser(h);
  const chunk = new Uint8Array(64 * 1024).fill(0x41);
  p.feed(bytes(OSC + "1337;File=inline=1:"));
  for (let i = 0; i < 160; i++) p.feed(chunk);
  // The buffer is not kept while the rest of the sequence is consumed.
  assert((Reflect.get(p, "strBuf") as Uint8Array).length <= 64 * 1024);
  p.feed(bytes(BEL + "after"));
  deepStrictEqual(calls, [["print", "after"]]);
});

Deno.test("parser: a 7 MiB OSC 1337 in small chunks is delivered whole", () => {
  const got: string[] = [];
  const h = new Recorder();
  h.osc = (d) => got.push(d);
  const p = new Parser(h);
  const size = 7 * 1024 * 1024;
  const body = new Uint8Array(size);
  for (let i = 0; i < size; i++) body[i] = 0x41 + (i % 26);
  p.feed(bytes(OSC + "1337;File=:"));
  const t0 = performance.now();
  for (let i = 0; i < size; i += 4093) p.feed(body.subarray(i, i + 4093));
  p.feed(bytes(ST));
  const ms = performance.now() - t0;
  strictEqual(got.length, 1);
  strictEqual(got[0].length, "1337;File=:".length + size);
  strictEqual(
    got[0].slice(-3),
    String.fromCharCode(...body.subarray(size - 3)),
  );
  assert(ms < 2000, `took ${ms} ms`); // linear, not quadratic
  // The big buffer is not kept after dispatch.
  assert((Reflect.get(p, "strBuf") as Uint8Array).length <= 64 * 1024);
});

Deno.test("parser: default caps for ordinary OSC, DCS", () => {
  const big = "a".repeat(64 * 1024);
  deepStrictEqual(run(bytes(OSC + big.slice(2) + "xx" + BEL)), [[
    "osc",
    big.slice(2) + "xx",
  ]]);
  deepStrictEqual(run(bytes(OSC + big + "x" + BEL + "t")), [["print", "t"]]);
  deepStrictEqual(run(bytes(OSC + "0;" + big + BEL + "t")), [["print", "t"]]);
  deepStrictEqual(run(bytes(OSC + "52;c;" + big + BEL)), [[
    "osc",
    "52;c;" + big,
  ]]);
  const dcs = run(bytes(DCS + "q" + big + big + ST));
  strictEqual(dcs.length, 1);
  strictEqual((dcs[0][5] as string).length, 128 * 1024);
});

Deno.test("parser: tiny OSC cap still recognises the large OSC numbers", () => {
  for (const id of ["1337", "52", "72", "721", "01337"]) {
    const s = id + ";" + "q".repeat(10);
    deepStrictEqual(
      run(bytes(OSC + s + BEL), { maxOsc: 2, maxLargeOsc: 100 }),
      [["osc", s]],
      id,
    );
    deepStrictEqual(
      runBytewise(bytes(OSC + s + BEL), { maxOsc: 2, maxLargeOsc: 100 }),
      [["osc", s]],
      id,
    );
  }
  deepStrictEqual(run(bytes(OSC + "133;" + BEL + "x"), { maxOsc: 2 }), [[
    "print",
    "x",
  ]]);
  deepStrictEqual(run(bytes(OSC + "13" + BEL), { maxOsc: 2 }), [["osc", "13"]]);
  deepStrictEqual(run(bytes(OSC + "0;x" + BEL + "y"), { maxOsc: 0 }), [[
    "print",
    "y",
  ]]);
  // Number incomplete when the string ends: decided at the end.
  deepStrictEqual(run(bytes(OSC + "1" + BEL), { maxOsc: 0 }), []);
  deepStrictEqual(run(bytes(OSC + "13" + BEL), { maxOsc: 1 }), []);
  deepStrictEqual(run(bytes(OSC + "52" + BEL), { maxOsc: 1 }), [["osc", "52"]]);
  deepStrictEqual(run(bytes(OSC + "8;;x" + BEL), { maxOsc: 0 }), []);
});

Deno.test("parser: a handler without apc/pm/sos just consumes them", () => {
  const calls: Call[] = [];
  const h: ParserHandler = {
    print: (c, s, e) =>
      calls.push(["print", String.fromCodePoint(...c.subarray(s, e))]),
    execute: (c) => calls.push(["exec", c]),
    csi: (_p, _q, _i, f) => calls.push(["csi", f]),
    esc: (_i, f) => calls.push(["esc", f]),
    osc: (d) => calls.push(["osc", d]),
    dcs: () => calls.push(["dcs"]),
  };
  const p = new Parser(h);
  p.feed(
    bytes(
      "a" + ESC + "_Gx=1;" + "A".repeat(100000) + ST + "b" + ESC + "^pm" + ST +
        ESC + "Xs\u009cc",
    ),
  );
  deepStrictEqual(calls, [["print", "abc"]]);
});

Deno.test("parser: handler errors are reported and parsing continues", () => {
  const errors: unknown[] = [];
  const calls: Call[] = [];
  const boom = (what: string) => {
    calls.push([what]);
    throw new Error(what);
  };
  const h: ParserHandler = {
    print: () => boom("print"),
    execute: () => boom("execute"),
    csi: () => boom("csi"),
    esc: () => boom("esc"),
    osc: () => boom("osc"),
    dcs: () => boom("dcs"),
    apc: () => boom("apc"),
  };
  const p = new Parser(h, { onError: (e) => errors.push(e) });
  p.feed(
    bytes(
      "a\n" + CSI + "mb" + ESC + "7" + OSC + "0;t" + BEL + DCS + "q" + ST +
        ESC + "_x" + ST + "c",
    ),
  );
  deepStrictEqual(calls, [
    ["print"],
    ["execute"],
    ["csi"],
    ["print"],
    ["esc"],
    ["osc"],
    ["dcs"],
    ["apc"],
    ["print"],
  ]);
  strictEqual(errors.length, 9);
  // Without onError, errors are swallowed.
  new Parser(h).feed(bytes("x" + CSI + "m"));
  // A throwing onError is swallowed as well.
  const q = new Parser(h, {
    onError: () => {
      throw new Error("reporter");
    },
  });
  q.feed(bytes("x" + CSI + "m"));
});

Deno.test("parser: reset() drops partial state", () => {
  const rec = new Recorder();
  const p = new Parser(rec);
  p.feed(bytes(CSI + "1;2"));
  p.reset();
  p.feed(bytes("H"));
  p.feed(bytes(OSC + "0;abc"));
  p.reset();
  p.feed(bytes(BEL + "x"));
  p.feed(bytes([0xe2, 0x82]));
  p.reset();
  p.feed(bytes([0xac], "y"));
  deepStrictEqual(rec.calls, [["print", "H"], ["exec", 7], [
    "print",
    "x\ufffdy",
  ]]);
});

Deno.test("parser: long text runs through a growing print buffer", () => {
  const text = "0123456789".repeat(30000) + "\u4e2d".repeat(70000);
  deepStrictEqual(run(bytes(text)), [["print", text]]);
  let calls = 0;
  let total = 0;
  const h = new Recorder();
  h.print = (_c, s, e) => {
    calls++;
    total += e - s;
  };
  new Parser(h).feed(bytes("ab".repeat(1000)));
  strictEqual(calls, 1); // one run, one call
  strictEqual(total, 2000);
});

// ------------------------------------------------ chunk-boundary invariance

/** Everything from the tables, concatenated. */
function corpus(cases: Case[]): Uint8Array {
  return bytes(
    ...cases.flatMap((c) => [Array.from(toBytes(c.input)), "\x18"]),
  );
}

function checkSplits(input: Uint8Array, options?: ParserOptions): void {
  const whole = run(input, options);
  for (let k = 1; k < input.length; k++) {
    const split = run(input, options, [k]);
    if (JSON.stringify(split) !== JSON.stringify(whole)) {
      deepStrictEqual(split, whole, `split at ${k}`);
    }
  }
  deepStrictEqual(runBytewise(input, options), whole, "byte by byte");
}

Deno.test("parser: splitting the input anywhere changes nothing", async (t) => {
  const all = [
    ...groundCases,
    ...escCases,
    ...csiCases,
    ...oscCases,
    ...dcsCases,
    ...spaCases,
    ...abortCases,
  ];
  // Each case ends with CAN so that an unterminated one cannot swallow the next.
  const input = corpus(all);
  await t.step(
    `default options, ${input.length} bytes`,
    () => checkSplits(input),
  );
  const caps = corpus(capCases);
  await t.step(
    `small caps, ${caps.length} bytes`,
    () => checkSplits(caps, capOptions),
  );
  await t.step(
    "tiny OSC cap",
    () =>
      checkSplits(
        bytes(OSC + "1337;abcdefgh" + BEL + OSC + "133;A" + BEL + "x"),
        { maxOsc: 2, maxLargeOsc: 10 },
      ),
  );
  await t.step("without the CAN separators", () => {
    const raw = bytes(...all.map((c) => Array.from(toBytes(c.input))));
    const whole = run(raw);
    const r = rng(7);
    for (let k = 0; k < 300; k++) {
      const splits: number[] = [];
      for (let o = 0; o < raw.length;) {
        const s = 1 + Math.floor(r() * 64);
        splits.push(s);
        o += s;
      }
      deepStrictEqual(run(raw, undefined, splits), whole);
    }
  });
});

// ---------------------------------------------------------------- fuzzing

/** Random input biased towards the bytes that matter to the state machine. */
function fuzzBytes(r: () => number, n: number): Uint8Array {
  const alphabet = [
    0x1b,
    0x1b,
    0x5b,
    0x5d,
    0x50,
    0x5c,
    0x5f,
    0x5e,
    0x58,
    0x07,
    0x18,
    0x1a,
    0x3b,
    0x3a,
    0x3f,
    0x3e,
    0x24,
    0x20,
    0x30,
    0x31,
    0x39,
    0x6d,
    0x71,
    0x48,
    0x0a,
    0x0d,
    0x7f,
    0xc2,
    0x9b,
    0x9c,
    0x9d,
    0x90,
    0x9f,
    0x85,
    0xe2,
    0x82,
    0xac,
    0xf0,
    0x9f,
    0x98,
    0x80,
    0xed,
    0xa0,
    0xff,
    0x41,
    0x61,
  ];
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = r() < 0.3
      ? Math.floor(r() * 256)
      : alphabet[Math.floor(r() * alphabet.length)];
  }
  return out;
}

Deno.test("parser: fuzz, 2 MB of random bytes in random chunks never throws", () => {
  const r = rng(20240601);
  let errors = 0;
  const h: ParserHandler = {
    print: (c, s, e) => {
      for (let i = s; i < e; i++) {
        if (c[i] > 0x10ffff) throw new Error("bad cp");
      }
    },
    execute: () => {},
    csi: (_p, params) => {
      for (let i = -1; i <= params.length; i++) {
        params.get(i, 0);
        params.has(i);
        params.sub(i);
      }
      if (params.length > 32) throw new Error("too many params");
    },
    esc: () => {},
    osc: () => {},
    dcs: (_p, params, _i, _f, payload) => {
      if (payload.length > 8 * 1024 * 1024 || params.length > 32) {
        throw new Error("cap");
      }
    },
    apc: () => {},
  };
  const p = new Parser(h, { onError: () => errors++ });
  const q = new Parser(h, { ...capOptions, onError: () => errors++ });
  const data = new Uint8Array(2 * 1024 * 1024);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(r() * 256);
  for (let o = 0; o < data.length;) {
    const n = 1 + Math.floor(r() * 4096);
    p.feed(data.subarray(o, o + n));
    q.feed(data.subarray(o, o + n));
    o += n;
  }
  const biased = fuzzBytes(r, 1024 * 1024);
  for (let o = 0; o < biased.length;) {
    const n = 1 + Math.floor(r() * 512);
    p.feed(biased.subarray(o, o + n));
    q.feed(biased.subarray(o, o + n));
    o += n;
  }
  strictEqual(errors, 0);
});

Deno.test("parser: fuzz, random chunking gives the same calls as whole input", () => {
  const r = rng(99);
  for (let round = 0; round < 20; round++) {
    const input = fuzzBytes(r, 4096);
    for (const opts of [undefined, capOptions]) {
      const whole = run(input, opts);
      const splits: number[] = [];
      for (let o = 0; o < input.length;) {
        const s = 1 + Math.floor(r() * 40);
        splits.push(s);
        o += s;
      }
      deepStrictEqual(run(input, opts, splits), whole, `round ${round}`);
    }
  }
});

Deno.test("parser: the OSC handler learns whether BEL ended the string", () => {
  const seen: [string, boolean][] = [];
  const h: ParserHandler = {
    print: () => {},
    execute: () => {},
    csi: () => {},
    esc: () => {},
    osc: (d, bel) => seen.push([d, bel]),
    dcs: () => {},
  };
  const p = new Parser(h);
  p.feed(
    bytes(
      OSC + "1;a" + BEL + OSC + "2;b" + ST + OSC + "3;c\u009c" + OSC + "4;d" +
        BEL + OSC + "5;e" + ESC + "[m",
    ),
  );
  deepStrictEqual(seen, [
    ["1;a", true],
    ["2;b", false],
    ["3;c", false],
    ["4;d", true],
    ["5;e", false],
  ]);
});
