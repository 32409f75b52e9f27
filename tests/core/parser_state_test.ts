/**
 * Tests of the parser's snapshots (Parser.saveState / restoreState): a parser
 * restored from a JSON round trip of another's state, at any byte offset,
 * makes exactly the calls the original makes on the rest of the input; a
 * seeded fuzz run with random split points; malformed states are refused
 * and leave the parser working; the restoring parser's caps apply.
 *
 * The fuzz run uses a fixed seed and one random seed, which it prints; set
 * `DT_FUZZ_SEED=<n>` to run that seed again.
 *
 * @module
 */

import assert, {
  deepStrictEqual,
  strictEqual,
  throws,
} from "node:assert/strict";
import type { Params, ParserHandler } from "../../core/parser/handler.ts";
import {
  Parser,
  type ParserOptions,
  type ParserState,
} from "../../core/parser/parser.ts";
import { MAX_PARAMS, MAX_SUB_PARAMS } from "../../core/parser/params.ts";
import { rng } from "./helpers.ts";

// ------------------------------------------------------------------ helpers

/** One recorded handler call. */
type Call = (string | number | boolean)[];

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

/** Bytes as a string with one char per byte. */
function binary(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/**
 * Records calls as in parser_test.ts (adjacent prints joined), plus whether
 * BEL ended an OSC. `calls` may be replaced to start a new record.
 */
class Recorder implements ParserHandler {
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
  osc(data: string, bel: boolean): void {
    this.calls.push(["osc", data, bel]);
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

/** A recorder without the optional apc/pm/sos methods. */
function bareRecorder(): Recorder {
  const r = new Recorder();
  const h = r as unknown as Record<string, unknown>;
  h.apc = undefined;
  h.pm = undefined;
  h.sos = undefined;
  return r;
}

/** `a` then `b`, with a print at the junction joined as the recorder would. */
function join(a: Call[], b: Call[]): Call[] {
  const out = a.map((c) => [...c]);
  for (const c of b) {
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === "print" && c[0] === "print") {
      last[1] = (last[1] as string) + (c[1] as string);
    } else out.push([...c]);
  }
  return out;
}

const encoder = new TextEncoder();

/** Strings are UTF-8 encoded (so "\u009b" is C2 9B, a C1 CSI), number arrays are raw bytes. */
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

/** The snapshot as it comes out of the network. */
function wire(s: ParserState): ParserState {
  return JSON.parse(JSON.stringify(s));
}

/** Fails unless `v` is made of plain JSON values only. */
function assertPlain(v: unknown, path = "state"): void {
  if (v === null || typeof v === "string" || typeof v === "boolean") return;
  if (typeof v === "number") {
    assert(Number.isFinite(v), `${path} is not finite`);
    return;
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => assertPlain(x, `${path}[${i}]`));
    return;
  }
  assert(typeof v === "object", `${path} is a ${typeof v}`);
  strictEqual(Object.getPrototypeOf(v), Object.prototype, `${path} class`);
  for (const [k, x] of Object.entries(v)) assertPlain(x, `${path}.${k}`);
}

/** Whole-input calls. */
function run(
  input: Uint8Array,
  opts?: ParserOptions,
  mk: () => Recorder = () => new Recorder(),
): Call[] {
  const r = mk();
  new Parser(r, opts).feed(input);
  return r.calls;
}

/**
 * A parser on `r` in the middle of things (a big OSC, a partial UTF-8
 * sequence, parameters of an earlier CSI); what it did is not recorded.
 */
function usedParser(r: Recorder, opts?: ParserOptions): Parser {
  const keep = r.calls;
  r.calls = [];
  const p = new Parser(r, opts);
  p.feed(bytes("\x1b[?1;2:3$m"));
  p.feed(bytes("\x1b]1337;" + "x".repeat(70000), [0xf0, 0x9f]));
  r.calls = keep;
  return p;
}

/**
 * Split `input` at every offset k: parser A gets [0, k), B is a fresh parser
 * restored from A's state after a JSON round trip, C a used one restored
 * from it; then all three get [k, end) and must make the same calls, A's and
 * B's states must agree, and A's calls before k plus B's after k must be
 * what one parser makes on the whole input.
 */
function checkEverySplit(
  input: Uint8Array,
  opts?: ParserOptions,
  mk: () => Recorder = () => new Recorder(),
  label = "",
): void {
  const whole = run(input, opts, mk);
  for (let k = 0; k <= input.length; k++) {
    const where = `${label} split at ${k}/${input.length}`;
    const ra = mk();
    const a = new Parser(ra, opts);
    a.feed(input.subarray(0, k));
    const before = ra.calls;
    ra.calls = [];
    const saved = a.saveState();
    assertPlain(saved);
    const state = wire(saved);
    deepStrictEqual(state, saved, where);

    const rb = mk();
    const b = new Parser(rb, opts);
    b.restoreState(state);
    deepStrictEqual(b.saveState(), state, `${where}: restored state`);
    const rc = mk();
    const c = usedParser(rc, opts);
    c.restoreState(state);
    deepStrictEqual(c.saveState(), state, `${where}: restored into used`);

    const rest = input.subarray(k);
    a.feed(rest);
    b.feed(rest);
    c.feed(rest);
    deepStrictEqual(rb.calls, ra.calls, `${where}: fresh B vs A`);
    deepStrictEqual(rc.calls, ra.calls, `${where}: used C vs A`);
    deepStrictEqual(b.saveState(), a.saveState(), `${where}: final state`);
    deepStrictEqual(join(before, rb.calls), whole, `${where}: vs whole`);
  }
}

const ESC = "\x1b";
const CSI = "\x1b[";
const OSC = "\x1b]";
const DCS = "\x1bP";
const ST = "\x1b\\";
const BEL = "\x07";
const CAN = "\x18";
const SUB = "\x1a";

/** Tricky inputs, each checked at every split point. */
const CORPUS: [string, Uint8Array][] = [
  ["2-byte UTF-8", bytes("a\u00e9b\u00ff")],
  ["3-byte UTF-8", bytes("\u20ac\u4e2d\u6587x")],
  ["4-byte UTF-8", bytes("\u{1f600}\u{10000}\u{10ffff}")],
  ["E0 / ED / F0 / F4 leads", bytes("\u0800\ud55c\ud7ff\u{10000}\u{10fffd}")],
  [
    "invalid UTF-8",
    bytes(
      [0xe0, 0x80, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0xc0, 0xaf, 0xff],
      [0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0x1b, 0x5b, 0x6d, 0x80, 0x9b],
    ),
  ],
  ["UTF-8 cut by controls", bytes([0xe2, 0x0a, 0x82, 0xac, 0xc3, 0x1b], "7")],
  ["CSI with params", bytes(CSI + "1;2H" + CSI + ";5;;m" + CSI + "m")],
  [
    "CSI sub-parameters",
    bytes(CSI + "38:2::10:20:30;48:5:123;4:3m" + CSI + "1" + ":2".repeat(20)),
  ],
  [
    "private prefixes",
    bytes(CSI + "?1049h" + CSI + ">0;1c" + CSI + "=5u" + CSI + "<0;10;20M"),
  ],
  [
    "CSI intermediates",
    bytes(CSI + " q" + CSI + "2 q" + CSI + "!p" + CSI + '1"p'),
  ],
  [
    "CSI overflow",
    bytes(
      CSI + "1;".repeat(40) + "m" + CSI + "99999999999999999;1m",
      CSI + "!".repeat(10) + "p",
    ),
  ],
  ["CSI ignore", bytes(CSI + "1$2m" + CSI + "1?m" + CSI + "1\u00e9mX")],
  ["C0 inside CSI", bytes(CSI + "1\n2\rH" + CSI + "\x07?\x082l")],
  ["ESC inside CSI", bytes(CSI + "1" + ESC + "[2m" + CSI + "3\x7fm")],
  ["C1 CSI", bytes("\u009b1;2m\u009b?25l")],
  [
    "ESC sequences",
    bytes(ESC + "(0" + ESC + "#8" + ESC + "7" + ESC + "c" + ESC + " F"),
  ],
  [
    "ESC oddities",
    bytes(ESC + "!".repeat(10) + "F" + ESC + "\u00e9" + ESC + ESC + "[m"),
  ],
  ["ESC \\ in ground", bytes(ESC + "\\x" + ESC + "\n(B")],
  ["OSC BEL", bytes(OSC + "0;title" + BEL + "x")],
  ["OSC ST", bytes(OSC + "2;t\u00e9\u4e2d\u{1f600}" + ST + "y")],
  ["OSC 8 link", bytes(OSC + "8;;http://x/" + ST + "link" + OSC + "8;;" + ST)],
  ["C1 OSC", bytes("\u009d0;c1\u009cz")],
  ["OSC ended by ESC [", bytes(OSC + "0;a" + CSI + "m")],
  ["OSC with C0, DEL", bytes(OSC + "0;a\nb\x7fc\rd" + BEL)],
  ["OSC with invalid UTF-8", bytes(OSC + "0;", [0xe2, 0x28, 0xff], "q" + BEL)],
  ["OSC 52", bytes(OSC + "52;c;" + "QUJD".repeat(30) + BEL)],
  ["OSC aborted", bytes(OSC + "0;x" + CAN + "y" + OSC + "0;z" + SUB + "w")],
  ["OSC ended by C1", bytes(OSC + "0;a\u0085b" + OSC + "1;b\u009b1m")],
  [
    "ESC \\ after strings",
    bytes(OSC + "0;a" + ST + "\\" + DCS + "q" + ST + ST),
  ],
  ["sixel", bytes(DCS + "q#0;2;0;0;0#1~~@@vv-!10~" + ST)],
  ["sixel with params", bytes(DCS + '0;1;0q"1;1;10;10#0!10~-' + ST)],
  ["DECRQSS", bytes(DCS + "$qm" + ST + DCS + "$q r" + ST)],
  ["DCS replies", bytes(DCS + ">|" + ST + DCS + "1$r0m" + ST)],
  ["DCS with C0 payload", bytes(DCS + "q\r\n#1\x00\x1f" + ST)],
  ["DCS ignore", bytes(DCS + "1$2qabc" + ST + DCS + "\u00e9q" + ST)],
  ["C1 DCS", bytes("\u0090$qm\u009c")],
  ["DCS non-ASCII payload", bytes(DCS + "$q\u00e9\u4e2d" + ST)],
  ["DCS aborted", bytes(DCS + "qab" + CAN + "x" + DCS + "q" + SUB + "y")],
  ["DCS ended by CSI", bytes(DCS + "qabc" + CSI + "1m")],
  ["APC", bytes(ESC + "_Gf=100;AAAA" + ST + "\u009fapc\u009c")],
  ["PM", bytes(ESC + "^pm text" + ST + "\u009ebla\u009c")],
  ["SOS", bytes(ESC + "Xsos" + ST + "\u0098x\u009c")],
  ["APC with C0", bytes(ESC + "_a\nb\x07c" + ST)],
  ["C1 controls", bytes("a\u0085b\u0084c\u008dd\u009ce\u0088")],
  ["raw C1 bytes", bytes([0x9b, 0x31, 0x6d, 0x9d, 0x90, 0x85])],
  [
    "CAN / SUB",
    bytes(
      CSI + "1" + CAN + "m" + ESC + "(" + CAN + "B" + CSI + "2" + SUB + "m",
    ),
  ],
  [
    "tentative OSC numbers",
    bytes(
      OSC + "1337;abcdefgh" + BEL + OSC + "133;A" + BEL + "x" + OSC + "13",
      BEL + OSC + "52;c;abc" + BEL + OSC + "00000052;x" + BEL,
      OSC + "000000529;x" + BEL + OSC + "1" + BEL + OSC + "8;;x" + BEL,
    ),
  ],
  ["oversized OSC", bytes(OSC + "0;" + "x".repeat(80) + BEL + "after")],
  [
    "oversized DCS, APC",
    bytes(
      DCS + "q" + "~".repeat(40) + ST + ESC + "_" + "a".repeat(40) + ST + "b",
    ),
  ],
];

const r0 = rng(12345);
for (let i = 0; i < 6; i++) {
  const b = new Uint8Array(120);
  for (let j = 0; j < b.length; j++) b[j] = Math.floor(r0() * 256);
  CORPUS.push([`random bytes ${i}`, b]);
}

/** Option sets the differential tests run with. */
const OPTION_SETS: [string, ParserOptions | undefined, () => Recorder][] = [
  ["default options", undefined, () => new Recorder()],
  [
    "small caps",
    { maxOsc: 8, maxLargeOsc: 24, maxDcs: 10, maxApc: 6, maxSosPm: 4 },
    () => new Recorder(),
  ],
  ["tiny OSC cap", { maxOsc: 1, maxLargeOsc: 40 }, () => new Recorder()],
  ["zero OSC cap", { maxOsc: 0, maxLargeOsc: 3 }, () => new Recorder()],
  ["no apc/pm/sos handler", undefined, bareRecorder],
];

// -------------------------------------------------------------------- tests

for (const [name, opts, mk] of OPTION_SETS) {
  Deno.test(`parser state: every split of the corpus, ${name}`, async (t) => {
    for (const [label, input] of CORPUS) {
      await t.step(label, () => checkEverySplit(input, opts, mk, label));
    }
  });
}

Deno.test("parser state: every split of the whole corpus run together", () => {
  const all = bytes(...CORPUS.map(([, b]) => Array.from(b)));
  checkEverySplit(all, undefined, () => new Recorder(), "together");
  checkEverySplit(
    all,
    { maxOsc: 8, maxLargeOsc: 24, maxDcs: 10, maxApc: 6, maxSosPm: 4 },
    () => new Recorder(),
    "together, small caps",
  );
});

// ---------------------------------------------------------------- fuzzing

/** Random input biased towards the bytes and fragments that matter. */
function fuzzBytes(r: () => number, n: number): Uint8Array {
  const fragments = [
    ESC,
    CSI,
    OSC,
    DCS,
    ST,
    BEL,
    CAN,
    SUB,
    ESC + "_",
    ESC + "^",
    ESC + "X",
    "\u009b",
    "\u009c",
    "\u009d",
    "\u0090",
    "\u0085",
    "1337;",
    "52;",
    "8;;",
    "0;",
    "q",
    "$q",
    "#1~~",
    ";",
    ":",
    "?",
    ">",
    " ",
    "!",
    "$",
    "1",
    "0",
    "9",
    "m",
    "H",
    "\\",
    "\n",
    "\r",
    "\x7f",
    "\u00e9",
    "\u20ac",
    "\u{1f600}",
    "\ud55c",
    "abc",
  ];
  const raw = [
    0xc2,
    0xe2,
    0x82,
    0xf0,
    0x9f,
    0xed,
    0xa0,
    0xe0,
    0xf4,
    0xff,
    0x80,
  ];
  const out: number[] = [];
  while (out.length < n) {
    const x = r();
    if (x < 0.15) out.push(Math.floor(r() * 256));
    else if (x < 0.3) out.push(raw[Math.floor(r() * raw.length)]);
    else if (x < 0.32) {
      // A long run of payload, to cross the caps.
      const len = Math.floor(r() * 200);
      for (let i = 0; i < len; i++) out.push(0x41 + (i % 26));
    } else {
      const f = fragments[Math.floor(r() * fragments.length)];
      for (const b of encoder.encode(f)) out.push(b);
    }
  }
  return Uint8Array.from(out.slice(0, n));
}

/** The fixed seed, and the random one of this run (or DT_FUZZ_SEED). */
function seeds(): number[] {
  let env: string | undefined;
  try {
    env = Deno.env.get("DT_FUZZ_SEED");
  } catch {
    env = undefined; // no --allow-env
  }
  const random = env !== undefined && /^[0-9]+$/.test(env)
    ? Number(env) >>> 0
    : crypto.getRandomValues(new Uint32Array(1))[0];
  console.log(
    `parser state fuzz: random seed ${random} (DT_FUZZ_SEED=${random} repeats it)`,
  );
  return [0x5eed, random];
}

for (const seed of seeds()) {
  Deno.test(`parser state: fuzz, 10^5 bytes, a restored parser at every random split (seed ${seed})`, () => {
    const r = rng(seed);
    const input = fuzzBytes(r, 100_000);
    for (const [name, opts, mk] of OPTION_SETS) {
      const whole = run(input, opts, mk);
      // The reference: one parser fed the same chunks.
      const ref = new Parser(mk(), opts);
      // The chain: after each chunk, the next parser is restored from the
      // state of the one before (every third time a used parser).
      const rec = mk();
      let p = new Parser(rec, opts);
      let splits = 0;
      for (let o = 0; o < input.length;) {
        const n = 1 + Math.floor(r() * (r() < 0.5 ? 8 : 300));
        const chunk = input.subarray(o, o + n);
        o += n;
        p.feed(chunk);
        ref.feed(chunk);
        const state = wire(p.saveState());
        const where = `seed ${seed}, ${name}, offset ${o}`;
        deepStrictEqual(state, ref.saveState(), where);
        p = splits % 3 === 2 ? usedParser(rec, opts) : new Parser(rec, opts);
        p.restoreState(state);
        deepStrictEqual(p.saveState(), state, where);
        splits++;
      }
      deepStrictEqual(rec.calls, whole, `seed ${seed}, ${name}`);
      assert(splits > 500, "enough splits");
    }
  });
}

// -------------------------------------------------------- malformed states

/** A parser that has read `prefix`, and the state it is in. */
function parserAfter(
  prefix: string | Uint8Array,
  opts?: ParserOptions,
): { p: Parser; r: Recorder; s: ParserState } {
  const r = new Recorder();
  const p = new Parser(r, opts);
  p.feed(typeof prefix === "string" ? bytes(prefix) : prefix);
  r.calls = [];
  return { p, r, s: wire(p.saveState()) };
}

/** `s` with some fields replaced (or removed, with `undefined`). */
function withFields(s: ParserState, f: Record<string, unknown>): ParserState {
  const o: Record<string, unknown> = { ...wire(s) };
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined) delete o[k];
    else o[k] = v;
  }
  return o as unknown as ParserState;
}

/** `s` with some params fields replaced. */
function withParams(s: ParserState, f: Record<string, unknown>): ParserState {
  const o = wire(s);
  return withFields(o, { params: { ...o.params, ...f } });
}

/**
 * Every bad state must throw `invalid parser state` and leave the victim
 * parser, which is in the middle of `CSI 12;3`, unchanged and working.
 */
function checkRefused(bad: [string, unknown][]): void {
  const { p, r, s } = parserAfter("x" + CSI + "12;3");
  for (const [what, state] of bad) {
    throws(
      () => p.restoreState(state as ParserState),
      (e: unknown) =>
        e instanceof Error && /^invalid parser state: /.test(e.message),
      what,
    );
    deepStrictEqual(p.saveState(), s, `${what}: state unchanged`);
  }
  p.feed(bytes("m\u00e9"));
  deepStrictEqual(r.calls, [["csi", "", "12;3", "", "m"], ["print", "\u00e9"]]);
}

Deno.test("parser state: malformed top level and version", () => {
  const { s } = parserAfter("");
  checkRefused([
    ["null", null],
    ["undefined", undefined],
    ["number", 5],
    ["string", JSON.stringify(s)],
    ["array", [s]],
    ["empty object", {}],
    ["no version", withFields(s, { v: undefined })],
    ["version 2", withFields(s, { v: 2 })],
    ["version as string", withFields(s, { v: "1" })],
  ]);
});

Deno.test("parser state: malformed fields", () => {
  const { s } = parserAfter("");
  const bad: [string, unknown][] = [];
  const field = (k: string, ...vs: unknown[]) => {
    for (const v of vs) {
      bad.push([`${k} = ${JSON.stringify(v)}`, withFields(s, { [k]: v })]);
    }
  };
  field("state", 17, -1, 2.5, "3", NaN, Infinity, null, undefined, true);
  field("uNeed", 4, -1, "0", undefined);
  field("uCp", -1, 0x8000, 1.5, "0");
  field("uLo", 0x7f, 0xc0, "x");
  field("uHi", 0x7f, 0xc0, null);
  field("prefix", 0x41, "?", 0x3b, -1);
  field("inter", "abc", "!".repeat(9), 5, null, "\x1f");
  field("interOverflow", "no", 0, undefined);
  field("afterString", 1, null);
  field("str", 5, null, undefined, "x");
  field("strDrop", "false", 0, true);
  field("strKind", 5, 0x9d, "0x98", null);
  field("dcsPrefix", "!", "??", 0x3f, null);
  field("dcsInter", "a", 0x24, "!".repeat(9));
  field("dcsFinal", 0x20, 0x7f, "q", null);
  field("vt52Row", -1, 0x110000, 1.5, "!", null);
  field("params", undefined, null, [], "1;2", 5);
  checkRefused(bad);
});

Deno.test("parser state: malformed parameters", () => {
  const { s } = parserAfter(CSI + "1;2");
  const many = Array.from({ length: MAX_PARAMS + 1 }, () => 1);
  const manySubs = Array.from({ length: MAX_PARAMS + 1 }, () => []);
  checkRefused([
    ["too many values", withParams(s, { values: many, subs: manySubs })],
    ["value too big", withParams(s, { values: [1, 2 ** 31], subs: [[], []] })],
    ["value -2", withParams(s, { values: [1, -2], subs: [[], []] })],
    ["fractional value", withParams(s, { values: [1.5, 2], subs: [[], []] })],
    ["string value", withParams(s, { values: ["1", 2], subs: [[], []] })],
    ["values not an array", withParams(s, { values: "1;2" })],
    ["subs length mismatch", withParams(s, { subs: [[]] })],
    ["subs not arrays", withParams(s, { subs: [1, 2] })],
    [
      "too many sub-parameters",
      withParams(s, {
        subs: [Array.from({ length: MAX_SUB_PARAMS + 1 }, () => 1), []],
      }),
    ],
    ["bad sub-parameter", withParams(s, { subs: [[NaN], []] })],
    ["cur -2", withParams(s, { cur: -2 })],
    ["cur too big", withParams(s, { cur: 2 ** 31 })],
    ["inSub not boolean", withParams(s, { inSub: "x" })],
    ["overflow with few values", withParams(s, { overflow: true })],
    [
      "pending field without parameters",
      withParams(s, { values: [], subs: [], cur: 5 }),
    ],
    ["no cur", withParams(s, { cur: undefined })],
  ]);
});

Deno.test("parser state: states that parsing cannot produce", () => {
  const ground = parserAfter("").s;
  const utf8 = parserAfter(bytes([0xe0])).s; // uNeed 2, uLo 0xa0
  strictEqual(utf8.uNeed, 2);
  const csi = parserAfter(CSI + "1").s;
  const osc = parserAfter(OSC + "0;ab").s;
  const dcs = parserAfter(DCS + "1$qab").s;
  const apc = parserAfter(ESC + "_ab").s;
  const esc = parserAfter(ESC + "(").s;
  checkRefused([
    ["UTF-8: need 1 with no bits", withFields(ground, { uNeed: 1, uCp: 0 })],
    ["UTF-8: E0 without its range", withFields(utf8, { uLo: 0x80 })],
    [
      "UTF-8: ED without its range",
      withFields(ground, { uNeed: 2, uCp: 0xd, uLo: 0x80, uHi: 0xbf }),
    ],
    ["UTF-8: range while nothing pending", withFields(ground, { uLo: 0xa0 })],
    ["UTF-8: lo above hi", withFields(utf8, { uLo: 0xb0, uHi: 0xa0 })],
    [
      "UTF-8: F5 lead",
      withFields(ground, { uNeed: 3, uCp: 5, uLo: 0x80, uHi: 0xbf }),
    ],
    ["payload in ground", withFields(ground, { str: "x" })],
    ["dropped in ground", withFields(ground, { strDrop: true })],
    ["payload in CSI", withFields(csi, { str: "x" })],
    ["CSI entry with a header", withFields(csi, { state: 3 })],
    ["CSI param with intermediates", withFields(csi, { inter: "$" })],
    ["CSI intermediate without them", withFields(csi, { state: 5 })],
    ["ESCAPE with intermediates", withFields(esc, { state: 1 })],
    [
      "ESCAPE_INTERMEDIATE overflow with few",
      withFields(esc, { interOverflow: true }),
    ],
    ["dropped with a payload", withFields(osc, { strDrop: true })],
    ["OSC with a strKind", withFields(osc, { strKind: 0x98 })],
    ["APC without a strKind", withFields(apc, { strKind: 0 })],
    ["OSC payload with ESC", withFields(osc, { str: "0;a\x1bb" })],
    ["OSC payload with LF", withFields(osc, { str: "0;a\nb" })],
    ["OSC payload with DEL", withFields(osc, { str: "0;\x7f" })],
    ["OSC payload with C1 (C2 85)", withFields(osc, { str: "0;\xc2\x85" })],
    ["OSC payload not latin1", withFields(osc, { str: "0;\u00e9\u4e2d" })],
    ["OSC payload not UTF-8", withFields(osc, { str: "0;\xff" })],
    ["OSC payload: surrogate", withFields(osc, { str: "0;\xed\xa0\x80" })],
    ["OSC payload: overlong", withFields(osc, { str: "\xc0\xaf" })],
    ["OSC payload: cut character", withFields(osc, { str: "0;\xe2\x82" })],
    ["DCS payload with CAN", withFields(dcs, { str: "a\x18" })],
    ["DCS payload with ESC", withFields(dcs, { str: "a\x1b" })],
    ["DCS payload, unfinished params", withParams(dcs, { cur: 4 })],
    ["DCS payload without final", withFields(dcs, { dcsFinal: 0 })],
    ["APC payload with BEL", withFields(apc, { str: "\x07" })],
    [
      "huge malformed payload",
      withFields(osc, { str: "x".repeat(20 * 1024 * 1024) + "\u0100" }),
    ],
  ]);
});

Deno.test("parser state: a getter that throws leaves the parser unchanged", () => {
  const { p, r, s } = parserAfter(OSC + "0;ab");
  const evil = { ...s };
  Object.defineProperty(evil, "dcsFinal", {
    get() {
      throw new Error("boom");
    },
  });
  throws(() => p.restoreState(evil), /boom/);
  deepStrictEqual(p.saveState(), s);
  p.feed(bytes("c" + BEL));
  deepStrictEqual(r.calls, [["osc", "0;abc", true]]);
});

// ------------------------------------------------------- caps and handlers

Deno.test("parser state: a payload over the restoring parser's cap is dropped, not buffered", () => {
  // Saved by a parser with the default caps, restored by a smaller one.
  const { s } = parserAfter(OSC + "0;" + "x".repeat(100));
  const r = new Recorder();
  const p = new Parser(r, { maxOsc: 16, maxLargeOsc: 32 });
  p.restoreState(s);
  strictEqual(p.saveState().strDrop, true);
  strictEqual(p.saveState().str, "");
  p.feed(bytes("yyy" + BEL + "after" + OSC + "0;ok" + BEL));
  deepStrictEqual(r.calls, [["print", "after"], ["osc", "0;ok", true]]);

  // A 9 MiB DCS payload (over the default 8 MiB cap) is not kept.
  const big = "~".repeat(9 * 1024 * 1024);
  const dcs = withFields(parserAfter(DCS + "q").s, { str: big });
  const r2 = new Recorder();
  const q = new Parser(r2);
  q.restoreState(dcs);
  assert(q.retainedBytes < 1024 * 1024, `retains ${q.retainedBytes}`);
  q.feed(bytes(ST + DCS + "$qm" + ST));
  deepStrictEqual(r2.calls, [["dcs", "", "", "$", "q", "m"]]);

  // The same for DCS, APC, PM and SOS under small caps.
  const small = { maxDcs: 4, maxApc: 4, maxSosPm: 4 };
  for (const intro of [DCS + "q", ESC + "_", ESC + "^", ESC + "X"]) {
    const st = parserAfter(intro + "abcdef").s;
    const r3 = new Recorder();
    const t = new Parser(r3, small);
    t.restoreState(st);
    t.feed(bytes("g" + ST + "z"));
    deepStrictEqual(r3.calls, [["print", "z"]], JSON.stringify(intro));
  }
});

Deno.test("parser state: an OSC above maxOsc keeps its large cap when restored", () => {
  const opts = { maxOsc: 16, maxLargeOsc: 100_000 };
  const body = "1337;File=inline=1:" + "QUFB".repeat(20_000);
  const { s } = parserAfter(OSC + body, opts);
  strictEqual(s.str, body);
  const r = new Recorder();
  const p = new Parser(r, opts);
  p.restoreState(s);
  p.feed(bytes("==" + BEL));
  deepStrictEqual(r.calls, [["osc", body + "==", true]]);
  // An ordinary OSC number does not get the large cap.
  const r2 = new Recorder();
  const q = new Parser(r2, opts);
  q.restoreState(withFields(s, { str: "2;" + "x".repeat(30) }));
  q.feed(bytes(BEL + "k"));
  deepStrictEqual(r2.calls, [["print", "k"]]);
  // A still incomplete number under a tiny cap stays tentative.
  const tiny = { maxOsc: 1, maxLargeOsc: 40 };
  for (
    const [num, rest, expect] of [
      ["13", "37;abc", [["osc", "1337;abc", true]]],
      ["13", "3;A", []],
      ["5", "2;c;x", [["osc", "52;c;x", true]]],
    ] as const
  ) {
    const st = parserAfter(OSC + num, tiny).s;
    const r3 = new Recorder();
    const t = new Parser(r3, tiny);
    t.restoreState(st);
    t.feed(bytes(rest + BEL));
    deepStrictEqual(r3.calls, expect, num + rest);
  }
});

Deno.test("parser state: APC/PM/SOS are dropped when the restoring handler lacks the method", () => {
  for (const intro of [ESC + "_", ESC + "^", ESC + "X"]) {
    const { s } = parserAfter(intro + "abc");
    strictEqual(s.strDrop, false);
    const r = bareRecorder();
    const p = new Parser(r);
    p.restoreState(s);
    strictEqual(p.saveState().strDrop, true);
    p.feed(bytes("d" + ST + "z"));
    deepStrictEqual(r.calls, [["print", "z"]]);
    // And the other way round: dropped stays dropped.
    const r2 = bareRecorder();
    const q = new Parser(r2);
    q.feed(bytes(intro + "abc"));
    const dropped = wire(q.saveState());
    strictEqual(dropped.strDrop, true);
    const r3 = new Recorder();
    const t = new Parser(r3);
    t.restoreState(dropped);
    t.feed(bytes("d" + ST + "z"));
    deepStrictEqual(r3.calls, [["print", "z"]]);
  }
});

Deno.test("parser state: the snapshot of a fresh parser, and its shape", () => {
  const p = new Parser(new Recorder());
  const s = p.saveState();
  deepStrictEqual(s, {
    v: 1,
    state: 0,
    uNeed: 0,
    uCp: 0,
    uLo: 0x80,
    uHi: 0xbf,
    params: { values: [], subs: [], cur: -1, inSub: false, overflow: false },
    prefix: 0,
    inter: "",
    interOverflow: false,
    afterString: false,
    str: "",
    strDrop: false,
    strKind: 0,
    dcsPrefix: "",
    dcsInter: "",
    dcsFinal: 0,
    vt52Row: 0,
  });
  // A DCS payload with every byte a DCS can hold survives JSON.
  const payload = Array.from({ length: 0x20 }, (_, i) => i)
    .filter((b) => b !== 0x18 && b !== 0x1a && b !== 0x1b)
    .map((b) => String.fromCharCode(b)).join("") + "~\u00e9\u{1f600}";
  const { s: d } = parserAfter(DCS + "1;2:3$q" + payload);
  assertPlain(d);
  strictEqual(d.state, 12);
  deepStrictEqual(d.params, {
    values: [1, 2],
    subs: [[], [3]],
    cur: -1,
    inSub: true,
    overflow: false,
  });
  strictEqual(d.str, binary(encoder.encode(payload)));
  strictEqual(d.dcsInter, "$");
  strictEqual(d.dcsFinal, 0x71);
  const r = new Recorder();
  const q = new Parser(r);
  q.restoreState(wire(d));
  q.feed(bytes(ST));
  deepStrictEqual(r.calls, [[
    "dcs",
    "",
    "1;2:3",
    "$",
    "q",
    binary(encoder.encode(payload)),
  ]]);
});

Deno.test("parser state: saveState does not change the parser", () => {
  const r = new Recorder();
  const p = new Parser(r);
  const input = bytes(OSC + "0;t\u00e9", [0xe2, 0x82, 0xac], BEL + CSI + "1");
  p.feed(input.subarray(0, 9)); // inside the euro sign
  const s1 = p.saveState();
  strictEqual(s1.uNeed, 1);
  const s2 = p.saveState();
  deepStrictEqual(s1, s2);
  p.feed(input.subarray(9));
  p.feed(bytes("m"));
  deepStrictEqual(
    r.calls,
    run(bytes(OSC + "0;t\u00e9\u20ac" + BEL + CSI + "1m")),
  );
});
