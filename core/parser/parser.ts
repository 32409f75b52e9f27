/**
 * The DEC/ANSI escape-sequence parser: a streaming UTF-8 decoder feeding the
 * VT500 state machine of Paul Williams (https://vt100.net/emu/dec_ansi_parser),
 * extended for Unicode, colon sub-parameters and OSC/DCS/APC payloads.
 *
 * Input is raw bytes in chunks split anywhere; output is calls on a
 * {@link ParserHandler}. Splitting the input differently never changes the
 * calls made, except that a run of printable text may arrive in several
 * `print` calls.
 *
 * Unicode rules:
 * - UTF-8 is decoded first; invalid input becomes U+FFFD using the WHATWG
 *   "maximal subpart" rule (the same output as `TextDecoder`).
 * - Decoded U+0080..U+009F are C1 controls (U+009B = CSI, U+009D = OSC, ...).
 *   A raw byte 0x9b is invalid UTF-8 and prints as U+FFFD.
 * - Code points >= U+00A0 print in ground, are collected in string payloads,
 *   abort an ESC sequence (and are then printed) and invalidate a CSI/DCS
 *   header (-> csi_ignore / dcs_ignore).
 *
 * String rules (OSC, DCS, SOS, PM, APC):
 * - Terminated by ST (`ESC \` or U+009C); OSC also by BEL.
 * - CAN and SUB abort the string (no dispatch) and are executed.
 * - ESC followed by anything but `\`, and any other C1 control, terminate the
 *   string as ST would (it is dispatched; this is the VT500 "exit action",
 *   as in xterm.js and vte) and then start their own sequence.
 * - Payloads are the UTF-8 encoding of the decoded code points, so invalid
 *   UTF-8 inside a payload arrives as EF BF BD. DEL is dropped everywhere;
 *   C0 controls are kept in DCS payloads and ignored in the others.
 * - Past its size cap a string is dropped: no dispatch, its buffer is freed,
 *   and parsing resumes normally after its terminator.
 *
 * VT52 mode ({@link Parser.vt52}, DECANM reset): ESC and the byte after it
 * make a VT52 sequence (`ESC Y` takes two more bytes), given to the
 * handler's `vt52` method; CSI, OSC, DCS, SOS, PM and APC are not
 * recognised, 7-bit or 8-bit (C1 controls are ignored). C0 controls are
 * executed as in ANSI mode.
 *
 * Between two `feed` calls the whole parsing state can be saved as JSON-safe
 * data ({@link Parser.saveState}, {@link ParserState}) and loaded into another
 * parser, in another process ({@link Parser.restoreState}), which then goes on
 * exactly as the first would.
 *
 * @module
 */

import type { ParserHandler } from "./handler.ts";
import { MAX_PARAM_VALUE, ParamBuffer, type ParamState } from "./params.ts";

export type { ParamState };

/** Limits and hooks of a {@link Parser}. All sizes are in bytes of UTF-8. */
export interface ParserOptions {
  /** Cap of an ordinary OSC string (default 64 KiB). */
  maxOsc?: number;
  /** Cap of OSC 1337, 72, 721 and 52 (images, HTML, clipboard; default 8 MiB). */
  maxLargeOsc?: number;
  /** Cap of a DCS payload (default 8 MiB). */
  maxDcs?: number;
  /** Cap of an APC payload (default 8 MiB). */
  maxApc?: number;
  /** Cap of an SOS or PM payload (default 64 KiB). */
  maxSosPm?: number;
  /**
   * Called with whatever a handler method threw; parsing then goes on as if
   * the method had returned. Without it such errors are silently ignored.
   */
  onError?: (err: unknown) => void;
}

// States of the VT500 diagram. DCS_* = CSI_* + DCS_OFFSET, so that one
// function parses both headers.
const GROUND = 0;
const ESCAPE = 1;
const ESCAPE_INTERMEDIATE = 2;
const CSI_ENTRY = 3;
const CSI_PARAM = 4;
const CSI_INTERMEDIATE = 5;
const CSI_IGNORE = 6;
const OSC_STRING = 7;
const DCS_OFFSET = 5;
const DCS_ENTRY = CSI_ENTRY + DCS_OFFSET; // 8
const DCS_PARAM = CSI_PARAM + DCS_OFFSET; // 9
const DCS_INTERMEDIATE = CSI_INTERMEDIATE + DCS_OFFSET; // 10
const DCS_IGNORE = CSI_IGNORE + DCS_OFFSET; // 11
const DCS_PASSTHROUGH = 12;
const SOS_PM_APC_STRING = 13;
// VT52 mode (Parser.vt52): after ESC, and the two bytes that follow ESC Y.
const VT52_ESCAPE = 14;
const VT52_ROW = 15;
const VT52_COLUMN = 16;

const KIB = 1024;
const MIB = 1024 * KIB;
/** The print buffer grows up to this many code points, then is flushed when full. */
const MAX_PRINT = 64 * KIB;
/** Initial size of the string payload buffer. */
const STR_INITIAL = 256;
/** A payload buffer bigger than this is not kept once its string is done. */
const STR_RETAIN = 64 * KIB;
/** More intermediate bytes than this make a sequence invalid. */
const MAX_INTERMEDIATES = 8;
/** OSC numbers that may use `maxLargeOsc`. */
const LARGE_OSC = [52, 72, 721, 1337];
const PREFIXES = ["<", "=", ">", "?"];

const utf8Decoder = new TextDecoder();

/** A size option: a finite non-negative integer, else the default. */
function size(v: number | undefined, dflt: number): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0
    ? Math.floor(v)
    : dflt;
}

/** One of the states that read a string (OSC, DCS header ignored or payload, SOS/PM/APC). */
function inString(s: number): boolean {
  return s === OSC_STRING || (s >= DCS_IGNORE && s <= SOS_PM_APC_STRING);
}

/** Could the OSC number whose digits so far have value `v` still become a large one? */
function mayBecomeLargeOsc(v: number): boolean {
  if (v === 0) return true; // only (leading) zeros so far
  const s = String(v);
  return LARGE_OSC.some((id) => String(id).startsWith(s));
}

/**
 * A snapshot of a {@link Parser} between two `feed` calls, made by
 * {@link Parser.saveState} and loaded by {@link Parser.restoreState}: plain
 * JSON-safe data (numbers, strings, booleans, arrays, one nested object), so
 * that a terminal can be serialized in the middle of the byte stream (inside a
 * UTF-8 character, a CSI, an OSC string, a DCS payload...) and parsing goes on
 * in another process from exactly that byte offset.
 *
 * Fields that belong to no sequence in progress (e.g. the intermediates of
 * the last ESC sequence while in ground) are kept as they are; they do not
 * affect parsing. The payload caps in force for the current string (the
 * parser's `strLimit`, and whether an OSC cap is still "tentative" because
 * its number is incomplete) are not stored: they are recomputed from the
 * payload and the caps of the restoring parser, which gives exactly the
 * saved parser's values when both parsers have the same options.
 */
export interface ParserState {
  /** Format version: 1. */
  v: 1;
  /** The state of the VT500 machine, 0..13 (ground, escape, csi_entry, ...), or 14..16 inside a VT52 sequence. */
  state: number;
  /** UTF-8 decoder: continuation bytes still needed, 0..3 (0: none pending). */
  uNeed: number;
  /** UTF-8 decoder: the bits of the pending character decoded so far. */
  uCp: number;
  /** UTF-8 decoder: smallest allowed next continuation byte (0x80..0xbf). */
  uLo: number;
  /** UTF-8 decoder: largest allowed next continuation byte (0x80..0xbf). */
  uHi: number;
  /** The parameters of the CSI/DCS being read (for a DCS payload: the DCS's). */
  params: ParamState;
  /** Private marker of the CSI/DCS header being read (0x3c..0x3f), or 0. */
  prefix: number;
  /** Intermediate bytes (0x20..0x2f, at most 8) of the ESC/CSI/DCS being read. */
  inter: string;
  /** The ESC sequence being read had too many intermediates: it will not be dispatched. */
  interOverflow: boolean;
  /** The pending ESC ended a string: a following `\` completes its ST. */
  afterString: boolean;
  /**
   * The payload collected so far of the OSC/DCS/SOS/PM/APC string being read,
   * one char per byte (latin1: char codes 0..255). Always UTF-8. Empty
   * outside the string states and while `strDrop`.
   */
  str: string;
  /** The string being read is dropped (over its cap, or no handler): not stored, not dispatched. */
  strDrop: boolean;
  /** 0x98 (SOS), 0x9e (PM) or 0x9f (APC) while reading such a string (else 0 or a stale value). */
  strKind: number;
  /** Private marker ("", "<", "=", ">", "?") of the DCS whose payload is being read. */
  dcsPrefix: string;
  /** Intermediates of the DCS whose payload is being read. */
  dcsInter: string;
  /** Final byte (0x40..0x7e) of the DCS whose payload is being read (else 0 or a stale value). */
  dcsFinal: number;
  /** The row byte of a VT52 `ESC Y` whose column byte is still to come (absent: 0). */
  vt52Row?: number;
  /**
   * The string being read was dropped over its cap: the id that
   * `ParserHandler.oversized` will be told (absent or -1: it was not).
   */
  strOver?: number;
}

/** Throw the error of a malformed {@link ParserState}. */
function bad(what: string): never {
  throw new Error("invalid parser state: " + what);
}

/** An integer in lo..hi, else throw. */
function intIn(v: unknown, lo: number, hi: number, what: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi) {
    bad(`${what}: expected an integer in ${lo}..${hi}`);
  }
  return v;
}

/** A boolean, else throw. */
function bool(v: unknown, what: string): boolean {
  if (typeof v !== "boolean") bad(`${what}: expected a boolean`);
  return v;
}

/** A string of at most MAX_INTERMEDIATES intermediate bytes, else throw. */
function intermediates(v: unknown, what: string): string {
  if (typeof v !== "string" || v.length > MAX_INTERMEDIATES) {
    bad(`${what}: expected at most ${MAX_INTERMEDIATES} intermediates`);
  }
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c > 0x2f) bad(`${what}: not an intermediate byte`);
  }
  return v;
}

/** `buf[0..len)` as a string with one char per byte. */
function latin1(buf: Uint8Array, len: number): string {
  let s = "";
  for (let i = 0; i < len; i += 8192) {
    s += String.fromCharCode(...buf.subarray(i, Math.min(len, i + 8192)));
  }
  return s;
}

/** The no-op handler of the parser that checks restored UTF-8 decoder states. */
const NO_HANDLER: ParserHandler = {
  print() {},
  execute() {},
  csi() {},
  esc() {},
  osc() {},
  dcs() {},
};

/**
 * The escape-sequence parser. Feed it bytes; it calls the handler.
 *
 * Never throws: every byte sequence is valid input, and what a handler method
 * throws is caught and passed to `options.onError`. Handler methods must not
 * call `feed`, `reset`, `saveState` or `restoreState` on the same parser.
 */
export class Parser {
  private readonly h: ParserHandler;
  private readonly onError: ((err: unknown) => void) | undefined;
  private readonly maxOsc: number;
  private readonly maxLargeOsc: number;
  private readonly maxDcs: number;
  private readonly maxApc: number;
  private readonly maxSosPm: number;

  private state = GROUND;

  // Streaming UTF-8 decoder: a partly read sequence survives between chunks.
  /** Continuation bytes still needed (0: not inside a sequence). */
  private uNeed = 0;
  /** Bits decoded so far. */
  private uCp = 0;
  /** Range of the next continuation byte (narrower after E0, ED, F0, F4). */
  private uLo = 0x80;
  private uHi = 0xbf;
  /** Result of {@link utf8}: a code point, or -1 when the chunk ended first. */
  private dcp = 0;

  // Pending printable code points, flushed before any other handler call.
  private printBuf = new Uint32Array(1024);
  private printLen = 0;

  // The sequence being read.
  private readonly params = new ParamBuffer();
  /** Private marker code (0x3c..0x3f) or 0. */
  private prefix = 0;
  private inter = "";
  /** An ESC sequence with too many intermediates: not dispatched. */
  private interOverflow = false;
  /** This ESC ended a string: a following `\` completes the ST and is not an ESC sequence. */
  private afterString = false;

  // The string (OSC/DCS/SOS/PM/APC payload) being collected.
  private strBuf = new Uint8Array(STR_INITIAL);
  /** True while dispatching an OSC that BEL ended. */
  private oscBel = false;
  private strLen = 0;
  /** min(strBuf.length, strLimit): the fast path may write below this. */
  private strEnd = 0;
  private strLimit = 0;
  /** Over the cap, or no handler: consume without storing or dispatching. */
  private strDrop = false;
  /** The string was dropped over its cap: its id for `oversized`, else -1. */
  private strOver = -1;
  /** The OSC cap was raised before its number was fully read: check at the end. */
  private oscTentative = false;
  /** 0x98 (SOS), 0x9e (PM) or 0x9f (APC) while in SOS_PM_APC_STRING. */
  private strKind = 0;
  private dcsPrefix = "";
  private dcsInter = "";
  private dcsFinal = 0;
  /** The row byte of the VT52 `ESC Y` being read. */
  private vt52Row = 0;

  /**
   * VT52 mode (DECANM reset). The handler sets it when the program enters
   * (`CSI ? 2 l`) or leaves (`ESC <`) the mode; it is not part of
   * {@link ParserState}: the emulator keeps the mode and sets it again
   * after a restore.
   */
  vt52 = false;

  /** Create a parser that reports to `handler`. */
  /** Bytes held by the string and print buffers (for bounds checks). */
  get retainedBytes(): number {
    return this.strBuf.byteLength + this.printBuf.byteLength;
  }

  constructor(handler: ParserHandler, options: ParserOptions = {}) {
    this.h = handler;
    this.onError = options.onError;
    this.maxOsc = size(options.maxOsc, 64 * KIB);
    this.maxLargeOsc = Math.max(
      this.maxOsc,
      size(options.maxLargeOsc, 8 * MIB),
    );
    this.maxDcs = size(options.maxDcs, 8 * MIB);
    this.maxApc = size(options.maxApc, 8 * MIB);
    this.maxSosPm = size(options.maxSosPm, 64 * KIB);
  }

  /** True between characters and sequences: in ground, with no partial UTF-8 character. */
  get betweenCharacters(): boolean {
    return this.state === GROUND && this.uNeed === 0;
  }

  /**
   * Parse the next chunk of terminal output. Chunks may split UTF-8 and
   * escape sequences anywhere. Text printed by this chunk is delivered
   * before `feed` returns.
   */
  feed(data: Uint8Array): void {
    const n = data.length;
    let i = 0;
    while (i < n) {
      if (this.uNeed === 0) {
        const s = this.state;
        if (s === GROUND) {
          // Returns at the end of the chunk or after a state change.
          i = this.ground(data, i, n);
          continue;
        } else if (s === CSI_PARAM || s === CSI_ENTRY) {
          i = this.csiRun(data, i, n);
          if (i >= n) break;
          if (this.state === GROUND) continue;
        } else if (inString(s)) {
          i = this.stringRun(data, i, n);
          if (i >= n) break;
        }
      }
      // Slow path: one code point through the full state machine.
      let cp = data[i];
      if (cp < 0x80 && this.uNeed === 0) {
        i++;
      } else {
        i = this.utf8(data, i, n);
        cp = this.dcp;
        if (cp < 0) break;
      }
      this.step(cp);
    }
    this.flushPrint();
  }

  /**
   * Back to the initial state: ground, no partial UTF-8 or sequence, no
   * buffered payload. Nothing is dispatched.
   */
  reset(): void {
    this.state = GROUND;
    this.uNeed = 0;
    this.uLo = 0x80;
    this.uHi = 0xbf;
    this.printLen = 0;
    this.params.reset();
    this.prefix = 0;
    this.inter = "";
    this.interOverflow = false;
    this.afterString = false;
    this.releaseString();
  }

  // ------------------------------------------------------------ snapshots

  /**
   * A JSON-safe snapshot of everything that decides how the bytes still to
   * come are parsed (see {@link ParserState}); {@link restoreState} on a
   * parser with the same options and an equivalent handler continues from
   * exactly here. The parser itself is not changed.
   *
   * Call it between `feed` calls only, never from inside a handler method
   * (the parser is then half-way through a transition; text of the current
   * chunk may still be pending). Throws when text is pending.
   */
  saveState(): ParserState {
    if (this.printLen !== 0) {
      throw new Error(
        "Parser.saveState: text is pending (called from a handler?)",
      );
    }
    return {
      v: 1,
      state: this.state,
      uNeed: this.uNeed,
      uCp: this.uCp,
      uLo: this.uLo,
      uHi: this.uHi,
      params: this.params.saveState(),
      prefix: this.prefix,
      inter: this.inter,
      interOverflow: this.interOverflow,
      afterString: this.afterString,
      str: latin1(this.strBuf, this.strLen),
      strDrop: this.strDrop,
      strKind: this.strKind,
      dcsPrefix: this.dcsPrefix,
      dcsInter: this.dcsInter,
      dcsFinal: this.dcsFinal,
      vt52Row: this.vt52Row,
      ...(this.strOver >= 0 ? { strOver: this.strOver } : {}),
    };
  }

  /**
   * Put this parser (fresh or used) into the state `s` made by
   * {@link saveState}, possibly in another process. Nothing is dispatched;
   * whatever this parser was in the middle of is forgotten.
   *
   * `s` is checked as untrusted input: unless it is a state that parsing can
   * produce, this throws an Error (`invalid parser state: ...`) and the
   * parser is left unchanged. The caps of this parser apply: a payload longer
   * than this parser would collect for that string is dropped (as parsing it
   * would have done), as is an APC/PM/SOS payload when this parser's handler
   * lacks the method. Must not be called from inside a handler method.
   */
  restoreState(s: ParserState): void {
    if (typeof s !== "object" || s === null || Array.isArray(s)) {
      bad("expected an object");
    }
    // Each field is read once, into a local: the checks and the assignments
    // below see the same values.
    const o = s as unknown as Record<string, unknown>;
    const v = o.v;
    if (v !== 1) {
      bad(
        `unsupported version ${
          typeof v === "number" ? v : typeof v
        } (expected 1)`,
      );
    }
    const state = intIn(o.state, GROUND, VT52_COLUMN, "state");
    const uNeed = intIn(o.uNeed, 0, 3, "uNeed");
    const uCp = intIn(o.uCp, 0, 0x7fff, "uCp");
    const uLo = intIn(o.uLo, 0x80, 0xbf, "uLo");
    const uHi = intIn(o.uHi, 0x80, 0xbf, "uHi");
    if (!Parser.utf8Pending(uNeed, uCp, uLo, uHi)) {
      bad("uNeed/uCp/uLo/uHi: not the start of a UTF-8 sequence");
    }
    const params = ParamBuffer.parseState(o.params);
    const prefix = o.prefix === 0 ? 0 : intIn(o.prefix, 0x3c, 0x3f, "prefix");
    const inter = intermediates(o.inter, "inter");
    const interOverflow = bool(o.interOverflow, "interOverflow");
    const afterString = bool(o.afterString, "afterString");
    const str = o.str;
    if (typeof str !== "string") bad("str: expected a string");
    const strDrop = bool(o.strDrop, "strDrop");
    const strOver = o.strOver === undefined
      ? -1
      : intIn(o.strOver, -1, 99_999_999, "strOver");
    const strKind = o.strKind;
    if (
      strKind !== 0 && strKind !== 0x98 && strKind !== 0x9e && strKind !== 0x9f
    ) {
      bad("strKind: expected 0, 0x98, 0x9e or 0x9f");
    }
    const dcsPrefix = o.dcsPrefix;
    if (
      typeof dcsPrefix !== "string" ||
      (dcsPrefix !== "" && !PREFIXES.includes(dcsPrefix))
    ) {
      bad('dcsPrefix: expected "", "<", "=", ">" or "?"');
    }
    const dcsInter = intermediates(o.dcsInter, "dcsInter");
    const dcsFinal = o.dcsFinal === 0
      ? 0
      : intIn(o.dcsFinal, 0x40, 0x7e, "dcsFinal");
    const vt52Row = o.vt52Row === undefined
      ? 0
      : intIn(o.vt52Row, 0, 0x10ffff, "vt52Row");

    // What the states imply.
    const nParams = params.values.length;
    switch (state) {
      case ESCAPE:
        if (inter !== "" || interOverflow) bad("ESCAPE with intermediates");
        break;
      case ESCAPE_INTERMEDIATE:
        if (inter === "") bad("ESCAPE_INTERMEDIATE without intermediates");
        if (interOverflow && inter.length !== MAX_INTERMEDIATES) {
          bad("interOverflow with few intermediates");
        }
        break;
      case CSI_ENTRY:
      case DCS_ENTRY:
        if (nParams !== 0 || prefix !== 0 || inter !== "") {
          bad("a CSI/DCS entry state with a header");
        }
        break;
      case CSI_PARAM:
      case DCS_PARAM:
        if (inter !== "") bad("a CSI/DCS param state with intermediates");
        break;
      case CSI_INTERMEDIATE:
      case DCS_INTERMEDIATE:
        if (inter === "") bad("a CSI/DCS intermediate state without them");
        break;
      case DCS_PASSTHROUGH:
        if (params.cur !== -1) bad("DCS payload with unfinished parameters");
        if (dcsFinal === 0) bad("DCS payload without a final byte");
    }
    const isString = state === OSC_STRING || state === DCS_PASSTHROUGH ||
      state === SOS_PM_APC_STRING;
    if ((state === SOS_PM_APC_STRING) !== (isString && strKind !== 0)) {
      bad("strKind does not match the state");
    }
    let drop = strDrop;
    let payload: Uint8Array | undefined;
    if (!isString) {
      if (str !== "" || strDrop) bad("a string payload outside a string state");
    } else if (drop) {
      if (str !== "") bad("a dropped string with a payload");
    } else {
      // (An OSC whose number is still incomplete, at most 8 digits, may
      // exceed even maxLargeOsc for now: see oscLimit.)
      const cap = state === OSC_STRING
        ? Math.max(this.maxLargeOsc, 8)
        : state === DCS_PASSTHROUGH
        ? this.maxDcs
        : strKind === 0x9f
        ? this.maxApc
        : this.maxSosPm;
      // Too long for this parser: checked, then dropped.
      const keep = str.length <= cap;
      payload = Parser.checkPayload(str, state === DCS_PASSTHROUGH, keep);
      if (!keep) drop = true;
    }

    // Valid: apply.
    this.reset();
    this.oscTentative = false;
    this.params.restoreState(params);
    this.uNeed = uNeed;
    this.uCp = uCp;
    this.uLo = uLo;
    this.uHi = uHi;
    this.prefix = prefix;
    this.inter = inter;
    this.interOverflow = interOverflow;
    this.afterString = afterString;
    this.strKind = strKind;
    this.dcsPrefix = dcsPrefix;
    this.dcsInter = dcsInter;
    this.dcsFinal = dcsFinal;
    this.vt52Row = vt52Row;
    if (isString) this.restoreString(state, strKind, drop, payload);
    this.state = state;
    if (isString && this.strDrop) {
      // Dropped over a cap here or in the saved parser: still told at its end.
      if (strOver >= 0) this.strOver = strOver;
      else if (drop && !strDrop) {
        this.strOver = state === OSC_STRING
          ? Number(/^\d{0,8}/.exec(str as string)![0] || 0)
          : state === DCS_PASSTHROUGH
          ? dcsFinal
          : strKind;
      }
    }
  }

  /**
   * Could the UTF-8 decoder be in this state? True when nothing is pending
   * (with the default continuation range), or when the bytes that `cp`
   * implies, fed to a fresh decoder, leave it exactly in this state.
   */
  private static utf8Pending(
    need: number,
    cp: number,
    lo: number,
    hi: number,
  ): boolean {
    if (need === 0) return lo === 0x80 && hi === 0xbf;
    const probe = new Parser(NO_HANDLER);
    // The sequence is `len` bytes long; 1 lead and `len - need - 1`
    // continuation bytes were read.
    for (let len = need + 1; len <= 4; len++) {
      const conts = len - need - 1;
      const lead = cp >> (6 * conts);
      if (lead > 0x1f) continue; // not the low bits of a lead byte
      const seq = [(len === 2 ? 0xc0 : len === 3 ? 0xe0 : 0xf0) | lead];
      for (let j = conts - 1; j >= 0; j--) {
        seq.push(0x80 | ((cp >> (6 * j)) & 0x3f));
      }
      probe.reset();
      probe.utf8(Uint8Array.from(seq), 0, seq.length);
      if (
        probe.dcp === -1 && probe.uNeed === need && probe.uCp === cp &&
        probe.uLo === lo && probe.uHi === hi
      ) return true;
    }
    return false;
  }

  /**
   * Check a restored payload (one byte per char of `str`): it must be what a
   * string can collect, UTF-8 without DEL, C1 controls or, except in a DCS,
   * C0 controls (and never CAN, SUB, ESC). Throws otherwise. Returns the
   * bytes when `keep`, else (a payload to drop) allocates nothing.
   */
  private static checkPayload(
    str: string,
    dcs: boolean,
    keep: boolean,
  ): Uint8Array | undefined {
    const n = str.length;
    const bytes = keep ? new Uint8Array(n) : undefined;
    // UTF-8 as the decoder reads it: continuation bytes still needed and the
    // range of the next one.
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    for (let i = 0; i < n; i++) {
      const c = str.charCodeAt(i);
      if (c > 0xff) bad("str: expected one char (0..255) per byte");
      if (bytes !== undefined) bytes[i] = c;
      if (need > 0) {
        if (c < lo || c > hi) bad("str: not UTF-8");
        need--;
        lo = 0x80;
        hi = 0xbf;
      } else if (c < 0x80) {
        if (
          c === 0x7f ||
          (c < 0x20 && (!dcs || c === 0x18 || c === 0x1a || c === 0x1b))
        ) bad("str: a control that cannot be in this payload");
      } else if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
        if (c === 0xc2) lo = 0xa0; // U+0080..U+009F are C1 controls
      } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        if (c === 0xe0) lo = 0xa0;
        else if (c === 0xed) hi = 0x9f;
      } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        if (c === 0xf0) lo = 0x90;
        else if (c === 0xf4) hi = 0x8f;
      } else bad("str: not UTF-8");
    }
    if (need > 0) bad("str: not UTF-8 (ends inside a character)");
    return bytes;
  }

  /**
   * Enter string state `state` with the payload of a snapshot, under this
   * parser's caps, as if this parser had collected it: a payload above the
   * cap this string starts with (only an OSC's can grow) is appended
   * character by character, so that the OSC's number picks its cap as when
   * parsing.
   */
  private restoreString(
    state: number,
    kind: number,
    drop: boolean,
    payload: Uint8Array | undefined,
  ): void {
    this.startString(state, kind);
    if (drop) this.strDrop = true;
    if (this.strDrop || payload === undefined) return;
    const n = payload.length;
    if (n <= this.strLimit) {
      if (n > this.strBuf.length) this.strBuf = new Uint8Array(n);
      this.strBuf.set(payload);
      this.strLen = n;
      this.strEnd = Math.min(this.strLimit, this.strBuf.length);
    } else if (state === OSC_STRING) {
      for (const ch of utf8Decoder.decode(payload)) {
        this.put(ch.codePointAt(0)!);
        if (this.strDrop) break;
      }
    } else {
      this.strDrop = true;
    }
  }

  // ---------------------------------------------------------------- UTF-8

  /**
   * Decode one code point starting at `data[i]` (a byte >= 0x80, or any byte
   * while a sequence is pending). Sets {@link dcp} and returns the index
   * after the bytes consumed. A byte that breaks a sequence is not consumed:
   * the broken prefix becomes U+FFFD and the byte is read again.
   */
  private utf8(data: Uint8Array, i: number, n: number): number {
    let need = this.uNeed;
    let cp = this.uCp;
    let lo = this.uLo;
    let hi = this.uHi;
    if (need === 0) {
      const b = data[i++];
      if (b >= 0xc2 && b <= 0xdf) {
        need = 1;
        cp = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        cp = b & 0x0f;
        if (b === 0xe0) lo = 0xa0; // no overlong forms
        else if (b === 0xed) hi = 0x9f; // no surrogates
      } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        cp = b & 0x07;
        if (b === 0xf0) lo = 0x90; // no overlong forms
        else if (b === 0xf4) hi = 0x8f; // nothing above U+10FFFF
      } else {
        // Stray continuation byte, C0/C1 lead (overlong) or F5..FF.
        this.dcp = 0xfffd;
        return i;
      }
    }
    while (i < n) {
      const b = data[i];
      if (b < lo || b > hi) {
        this.uNeed = 0;
        this.uLo = 0x80;
        this.uHi = 0xbf;
        this.dcp = 0xfffd;
        return i;
      }
      i++;
      cp = (cp << 6) | (b & 0x3f);
      lo = 0x80;
      hi = 0xbf;
      if (--need === 0) {
        this.uNeed = 0;
        this.uLo = 0x80;
        this.uHi = 0xbf;
        this.dcp = cp;
        return i;
      }
    }
    this.uNeed = need;
    this.uCp = cp;
    this.uLo = lo;
    this.uHi = hi;
    this.dcp = -1;
    return i;
  }

  // ------------------------------------------------------------ fast paths

  /**
   * The hot path: ground state. Copies printable text into the print buffer
   * (ASCII in a tight loop), executes C0 controls, and returns when the state
   * changes or the chunk ends.
   */
  private ground(data: Uint8Array, i: number, n: number): number {
    let buf = this.printBuf;
    let p = this.printLen;
    while (i < n) {
      let b = data[i];
      if (b >= 0x20 && b < 0x7f) {
        if (p === buf.length) {
          this.printLen = p;
          this.makePrintRoom();
          buf = this.printBuf;
          p = this.printLen;
        }
        const end = Math.min(n, i + buf.length - p);
        buf[p++] = b;
        i++;
        while (i < end) {
          b = data[i];
          if (b < 0x20 || b >= 0x7f) break;
          buf[p++] = b;
          i++;
        }
        continue;
      }
      if (b < 0x80) {
        i++;
        if (b === 0x7f) continue;
        this.printLen = p;
        if (b === 0x1b) {
          // ESC [ is by far the most common sequence start: skip the
          // escape state for it.
          if (i < n && data[i] === 0x5b && !this.vt52) {
            this.enterHeader(CSI_ENTRY);
            return i + 1;
          }
          this.escape();
          return i;
        }
        this.exec(b); // CAN and SUB in ground are just executed
        p = this.printLen;
        continue;
      }
      let cp: number;
      if (b >= 0xe1 && b <= 0xef && b !== 0xed && i + 2 < n) {
        // Inline decoding of a whole 3-byte sequence with an unrestricted
        // lead (most of the BMP: CJK, symbols); else the general decoder.
        const b1 = data[i + 1];
        const b2 = data[i + 2];
        if ((b1 & 0xc0) === 0x80 && (b2 & 0xc0) === 0x80) {
          cp = ((b & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
          i += 3;
        } else {
          i = this.utf8(data, i, n);
          cp = this.dcp;
        }
      } else {
        i = this.utf8(data, i, n);
        cp = this.dcp;
        if (cp < 0) break;
      }
      if (cp >= 0xa0) {
        if (p === buf.length) {
          this.printLen = p;
          this.makePrintRoom();
          buf = this.printBuf;
          p = this.printLen;
        }
        buf[p++] = cp;
        continue;
      }
      this.printLen = p;
      this.c1(cp);
      if (this.state !== GROUND) return i;
      p = this.printLen;
    }
    this.printLen = p;
    return i;
  }

  /**
   * Fast path of CSI_ENTRY / CSI_PARAM: digits, `;`, `:` and the final byte.
   * Anything else is left to {@link step}.
   */
  private csiRun(data: Uint8Array, i: number, n: number): number {
    const params = this.params;
    // Digits accumulate in a local; params.cur is synced at every exit.
    let cur = params.cur;
    let entry = this.state === CSI_ENTRY;
    while (i < n) {
      const b = data[i];
      if (b <= 0x39 && b >= 0x30) {
        if (cur < 0) {
          if (params.length === 0) params.begin();
          cur = b - 0x30;
        } else {
          cur = cur * 10 + b - 0x30;
          if (cur > MAX_PARAM_VALUE) cur = MAX_PARAM_VALUE;
        }
      } else if (b === 0x3b || b === 0x3a) {
        params.cur = cur;
        if (b === 0x3b) params.semicolon();
        else params.colon();
        cur = -1;
      } else if (b >= 0x40 && b <= 0x7e) {
        params.cur = cur;
        this.csiDispatch(b);
        return i + 1;
      } else if (b >= 0x3c && b <= 0x3f && entry) {
        this.prefix = b; // private marker, only valid first
      } else break;
      entry = false;
      i++;
    }
    params.cur = cur;
    if (!entry) this.state = CSI_PARAM;
    return i;
  }

  /** Grow the print buffer up to MAX_PRINT, or flush it when at that size. */
  private makePrintRoom(): void {
    const old = this.printBuf;
    if (old.length < MAX_PRINT) {
      const buf = new Uint32Array(old.length * 2);
      buf.set(old.subarray(0, this.printLen));
      this.printBuf = buf;
    } else {
      this.flushPrint();
    }
  }

  /**
   * Fast path of the string states: copy (or, when dropping, skip) a run of
   * ASCII payload bytes. Anything else is left to {@link step}.
   */
  private stringRun(data: Uint8Array, i: number, n: number): number {
    // DCS payloads keep C0 controls (but CAN, SUB, ESC are never payload).
    const dcs = this.state === DCS_PASSTHROUGH;
    if (this.strDrop || this.state === DCS_IGNORE) {
      while (i < n) {
        const b = data[i];
        if (b >= 0x20 && b < 0x7f) i++;
        else break;
      }
      return i;
    }
    const buf = this.strBuf;
    let len = this.strLen;
    const end = Math.min(this.strEnd, len + (n - i));
    while (len < end) {
      const b = data[i];
      if (b >= 0x7f) break;
      if (b < 0x20 && (!dcs || b === 0x1b || b === 0x18 || b === 0x1a)) break;
      buf[len++] = b;
      i++;
    }
    this.strLen = len;
    return i;
  }

  // --------------------------------------------------------- state machine

  /** Run one decoded code point through the state machine. */
  private step(cp: number): void {
    if (cp < 0x20) {
      if (cp === 0x1b) this.escape();
      else if (cp === 0x18 || cp === 0x1a) {
        this.abortString();
        this.state = GROUND;
        this.exec(cp);
      } else this.c0(cp);
      return;
    }
    if (cp >= 0x7f && cp < 0xa0) {
      if (cp !== 0x7f) this.c1(cp);
      return;
    }
    // cp is 0x20..0x7e or >= 0xa0.
    switch (this.state) {
      case GROUND:
        this.printPush(cp);
        break;
      case ESCAPE:
      case ESCAPE_INTERMEDIATE:
        this.escChar(cp);
        break;
      case CSI_ENTRY:
      case CSI_PARAM:
      case CSI_INTERMEDIATE:
        this.header(cp, 0);
        break;
      case DCS_ENTRY:
      case DCS_PARAM:
      case DCS_INTERMEDIATE:
        this.header(cp, DCS_OFFSET);
        break;
      case CSI_IGNORE:
        if (cp >= 0x40 && cp <= 0x7e) this.state = GROUND;
        break;
      case DCS_IGNORE:
        break;
      case VT52_ESCAPE:
        this.vt52Char(cp);
        break;
      case VT52_ROW:
        this.vt52Row = cp;
        this.state = VT52_COLUMN;
        break;
      case VT52_COLUMN:
        this.state = GROUND;
        this.vt52Dispatch(0x59, this.vt52Row, cp);
        break;
      default: // OSC_STRING, DCS_PASSTHROUGH, SOS_PM_APC_STRING
        this.put(cp);
    }
  }

  /** A C0 control other than ESC, CAN, SUB. */
  private c0(cp: number): void {
    switch (this.state) {
      case GROUND:
      case ESCAPE:
      case ESCAPE_INTERMEDIATE:
      case CSI_ENTRY:
      case CSI_PARAM:
      case CSI_INTERMEDIATE:
      case CSI_IGNORE:
      case VT52_ESCAPE:
      case VT52_ROW:
      case VT52_COLUMN:
        // Executed without aborting a sequence in progress (VT500).
        this.exec(cp);
        break;
      case OSC_STRING:
        if (cp === 0x07) {
          this.oscBel = true;
          this.endString();
          this.oscBel = false;
          this.state = GROUND;
        }
        break;
      case DCS_PASSTHROUGH:
        this.put(cp);
        break;
        // DCS header / ignore, SOS/PM/APC: ignored.
    }
  }

  /** A C1 control U+0080..U+009F, in any state. */
  private c1(cp: number): void {
    if (this.vt52) return; // a VT52 has no C1 controls
    this.endString();
    switch (cp) {
      case 0x90:
        this.enterHeader(DCS_ENTRY);
        break;
      case 0x9b:
        this.enterHeader(CSI_ENTRY);
        break;
      case 0x9d:
        this.startString(OSC_STRING, 0);
        break;
      case 0x98:
      case 0x9e:
      case 0x9f:
        this.startString(SOS_PM_APC_STRING, cp);
        break;
      case 0x9c: // ST: ends a string, else cancels a sequence
        this.state = GROUND;
        break;
      default:
        this.state = GROUND;
        this.exec(cp);
    }
  }

  /** ESC: ends a string (as the start of ST), cancels anything else. */
  private escape(): void {
    const s = this.state;
    this.afterString = inString(s);
    this.endString();
    this.state = this.vt52 ? VT52_ESCAPE : ESCAPE;
    this.inter = "";
    this.interOverflow = false;
  }

  /** A printable code point in ESCAPE or ESCAPE_INTERMEDIATE. */
  private escChar(cp: number): void {
    const after = this.afterString;
    this.afterString = false;
    if (cp >= 0xa0) {
      // Not part of any ESC sequence: drop the sequence, keep the text.
      this.state = GROUND;
      this.printPush(cp);
      return;
    }
    if (cp <= 0x2f) {
      if (this.inter.length < MAX_INTERMEDIATES) {
        this.inter += String.fromCharCode(cp);
      } else this.interOverflow = true;
      this.state = ESCAPE_INTERMEDIATE;
      return;
    }
    if (this.state === ESCAPE) {
      switch (cp) {
        case 0x5b: // [
          this.enterHeader(CSI_ENTRY);
          return;
        case 0x5d: // ]
          this.startString(OSC_STRING, 0);
          return;
        case 0x50: // P
          this.enterHeader(DCS_ENTRY);
          return;
        case 0x58: // X
          this.startString(SOS_PM_APC_STRING, 0x98);
          return;
        case 0x5e: // ^
          this.startString(SOS_PM_APC_STRING, 0x9e);
          return;
        case 0x5f: // _
          this.startString(SOS_PM_APC_STRING, 0x9f);
          return;
        case 0x5c: // \ completing the ST of a string: nothing more to do
          if (after) {
            this.state = GROUND;
            return;
          }
      }
    }
    this.state = GROUND;
    if (this.interOverflow) return;
    this.flushPrint();
    try {
      this.h.esc(this.inter, cp);
    } catch (e) {
      this.report(e);
    }
  }

  /** The byte after ESC in VT52 mode. */
  private vt52Char(cp: number): void {
    if (cp >= 0xa0) {
      this.state = GROUND;
      this.printPush(cp);
    } else if (cp === 0x59) {
      this.state = VT52_ROW; // ESC Y row column
    } else {
      this.state = GROUND;
      this.vt52Dispatch(cp, 0, 0);
    }
  }

  /** A complete VT52 sequence: hand it to the handler. */
  private vt52Dispatch(final: number, row: number, column: number): void {
    this.flushPrint();
    try {
      this.h.vt52?.(final, row, column);
    } catch (e) {
      this.report(e);
    }
  }

  /** Enter CSI_ENTRY or DCS_ENTRY with a cleared header. */
  private enterHeader(state: number): void {
    this.state = state;
    this.params.reset();
    this.prefix = 0;
    this.inter = "";
  }

  /**
   * A printable code point in a CSI (off = 0) or DCS (off = DCS_OFFSET)
   * entry/param/intermediate state.
   */
  private header(cp: number, off: number): void {
    const s = this.state - off;
    if (cp >= 0x40 && cp <= 0x7e) {
      if (off === 0) this.csiDispatch(cp);
      else this.dcsHook(cp);
      return;
    }
    if (cp >= 0x30 && cp <= 0x3f) {
      if (s === CSI_INTERMEDIATE) this.state = CSI_IGNORE + off;
      else if (cp <= 0x39) {
        this.params.digit(cp - 0x30);
        this.state = CSI_PARAM + off;
      } else if (cp === 0x3b) {
        this.params.semicolon();
        this.state = CSI_PARAM + off;
      } else if (cp === 0x3a) {
        this.params.colon();
        this.state = CSI_PARAM + off;
      } else if (s === CSI_ENTRY) {
        this.prefix = cp; // private marker: only valid first
        this.state = CSI_PARAM + off;
      } else this.state = CSI_IGNORE + off;
      return;
    }
    if (cp <= 0x2f && this.inter.length < MAX_INTERMEDIATES) {
      this.inter += String.fromCharCode(cp);
      this.state = CSI_INTERMEDIATE + off;
      return;
    }
    // Too many intermediates, or a non-ASCII character.
    this.state = CSI_IGNORE + off;
  }

  /** A complete CSI sequence: hand it to the handler. */
  private csiDispatch(final: number): void {
    this.state = GROUND;
    const params = this.params;
    params.finish();
    this.flushPrint();
    try {
      this.h.csi(
        this.prefix === 0 ? "" : PREFIXES[this.prefix - 0x3c],
        params,
        this.inter,
        final,
      );
    } catch (e) {
      this.report(e);
    }
  }

  /** The DCS header is complete: start collecting its payload. */
  private dcsHook(final: number): void {
    this.params.finish();
    this.dcsPrefix = this.prefix === 0 ? "" : PREFIXES[this.prefix - 0x3c];
    this.dcsInter = this.inter;
    this.dcsFinal = final;
    this.startString(DCS_PASSTHROUGH, 0);
  }

  // --------------------------------------------------------------- strings

  /** Enter a string state with an empty payload and the right cap. */
  private startString(state: number, kind: number): void {
    this.state = state;
    this.strKind = kind;
    this.strLen = 0;
    this.strDrop = false;
    this.strOver = -1;
    this.oscTentative = false;
    let limit: number;
    if (state === OSC_STRING) limit = this.maxOsc;
    else if (state === DCS_PASSTHROUGH) limit = this.maxDcs;
    else if (kind === 0x9f) {
      limit = this.maxApc;
      this.strDrop = typeof this.h.apc !== "function";
    } else if (kind === 0x9e) {
      limit = this.maxSosPm;
      this.strDrop = typeof this.h.pm !== "function";
    } else {
      limit = this.maxSosPm;
      this.strDrop = typeof this.h.sos !== "function";
    }
    this.strLimit = limit;
    this.strEnd = Math.min(limit, this.strBuf.length);
  }

  /** Append a payload code point as UTF-8 (slow path). */
  private put(cp: number): void {
    if (this.strDrop) return;
    let len = this.strLen;
    if (cp < 0x80) {
      if (len >= this.strEnd && !this.reserve(1, cp)) return;
      this.strBuf[this.strLen++] = cp;
      return;
    }
    const k = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (len + k > this.strEnd && !this.reserve(k, cp)) return;
    const buf = this.strBuf;
    if (k === 2) {
      buf[len++] = 0xc0 | (cp >> 6);
    } else if (k === 3) {
      buf[len++] = 0xe0 | (cp >> 12);
      buf[len++] = 0x80 | ((cp >> 6) & 0x3f);
    } else {
      buf[len++] = 0xf0 | (cp >> 18);
      buf[len++] = 0x80 | ((cp >> 12) & 0x3f);
      buf[len++] = 0x80 | ((cp >> 6) & 0x3f);
    }
    buf[len++] = 0x80 | (cp & 0x3f);
    this.strLen = len;
  }

  /**
   * Make room for `k` more payload bytes, the encoding of `cp`: grow the
   * buffer (doubling, so a huge payload costs O(n)), or, past the cap, drop
   * the string.
   */
  private reserve(k: number, cp: number): boolean {
    const need = this.strLen + k;
    if (need > this.strLimit) {
      if (this.state === OSC_STRING) this.strLimit = this.oscLimit(need, cp);
      if (need > this.strLimit) {
        this.strOver = this.stringId();
        this.strDrop = true;
        this.strLen = 0;
        if (this.strBuf.length > STR_RETAIN) {
          this.strBuf = new Uint8Array(STR_INITIAL);
        }
        return false;
      }
    }
    const old = this.strBuf;
    if (need > old.length) {
      const cap = Math.max(need, Math.min(old.length * 2, this.strLimit));
      const buf = new Uint8Array(cap);
      buf.set(old.subarray(0, this.strLen));
      this.strBuf = buf;
    }
    this.strEnd = Math.min(this.strLimit, this.strBuf.length);
    return true;
  }

  /**
   * The cap of the OSC being collected, now that it outgrew `maxOsc` and
   * `cp` is to be appended: its number (the leading digits) decides. With a
   * tiny `maxOsc` the number may still be incomplete; then allow just these
   * bytes (a "tentative" cap) and decide on the next byte or at the end.
   */
  private oscLimit(need: number, cp: number): number {
    this.oscTentative = false;
    const buf = this.strBuf;
    const len = this.strLen;
    let id = 0;
    let j = 0;
    while (j < len && j < 8 && buf[j] >= 0x30 && buf[j] <= 0x39) {
      id = id * 10 + buf[j] - 0x30;
      j++;
    }
    if (j === len && cp >= 0x30 && cp <= 0x39) {
      // Still reading the number.
      if (j < 8 && mayBecomeLargeOsc(id * 10 + cp - 0x30)) {
        this.oscTentative = true;
        return need;
      }
      return this.maxOsc;
    }
    return LARGE_OSC.includes(id) ? this.maxLargeOsc : this.maxOsc;
  }

  /** Is the collected OSC, ended while its cap was tentative, too long? */
  private oscTooLong(): boolean {
    const buf = this.strBuf;
    let id = 0;
    for (let j = 0; j < this.strLen && j < 8; j++) id = id * 10 + buf[j] - 0x30;
    return this.strLen > this.maxOsc && !LARGE_OSC.includes(id);
  }

  /** Leaving a string state normally (ST, BEL, ESC, C1): dispatch it. */
  private endString(): void {
    const s = this.state;
    if (!inString(s)) return;
    if (s === OSC_STRING && this.oscTentative && this.oscTooLong()) {
      this.strOver = this.stringId();
      this.strDrop = true;
    }
    if (s === DCS_IGNORE || this.strDrop) {
      const over = this.strOver;
      this.releaseString();
      if (over >= 0 && s !== DCS_IGNORE) this.tellOversized(s, over);
      return;
    }
    this.flushPrint();
    const h = this.h;
    try {
      if (s === OSC_STRING) {
        const text = utf8Decoder.decode(this.strBuf.subarray(0, this.strLen));
        this.releaseString();
        h.osc(text, this.oscBel);
      } else {
        const payload = this.takePayload();
        if (s === DCS_PASSTHROUGH) {
          h.dcs(
            this.dcsPrefix,
            this.params,
            this.dcsInter,
            this.dcsFinal,
            payload,
          );
        } else if (this.strKind === 0x9f) h.apc?.(payload);
        else if (this.strKind === 0x9e) h.pm?.(payload);
        else h.sos?.(payload);
      }
    } catch (e) {
      this.report(e);
    }
  }

  /** CAN/SUB: drop a string in progress without dispatching it. */
  private abortString(): void {
    const s = this.state;
    if (inString(s)) this.releaseString();
  }

  /** The payload as a Uint8Array the handler may keep. */
  private takePayload(): Uint8Array {
    const buf = this.strBuf;
    const len = this.strLen;
    this.strLen = 0;
    if (buf.length > STR_RETAIN) {
      // Hand the big buffer over instead of copying it; start a new one.
      this.strBuf = new Uint8Array(STR_INITIAL);
      return buf.subarray(0, len);
    }
    return buf.slice(0, len);
  }

  /** Forget the payload; do not keep a big buffer around. */
  /**
   * What `oversized` calls the string being read: the OSC's number (its
   * leading digits), the DCS's final byte, or the C1 code of SOS/PM/APC.
   */
  private stringId(): number {
    if (this.state === DCS_PASSTHROUGH) return this.dcsFinal;
    if (this.state !== OSC_STRING) return this.strKind;
    let id = 0;
    const buf = this.strBuf;
    for (let j = 0; j < this.strLen && j < 8; j++) {
      if (buf[j] < 0x30 || buf[j] > 0x39) break;
      id = id * 10 + buf[j] - 0x30;
    }
    return id;
  }

  /** Tell the handler that a string was dropped over its cap. */
  private tellOversized(state: number, id: number): void {
    const kind = state === OSC_STRING
      ? "osc"
      : state === DCS_PASSTHROUGH
      ? "dcs"
      : "string";
    const cap = state === OSC_STRING
      ? (LARGE_OSC.includes(id) ? this.maxLargeOsc : this.maxOsc)
      : state === DCS_PASSTHROUGH
      ? this.maxDcs
      : id === 0x9f
      ? this.maxApc
      : this.maxSosPm;
    this.flushPrint();
    try {
      this.h.oversized?.(kind, id, cap);
    } catch (e) {
      this.report(e);
    }
  }

  private releaseString(): void {
    this.strLen = 0;
    this.strDrop = false;
    this.strOver = -1;
    if (this.strBuf.length > STR_RETAIN) {
      this.strBuf = new Uint8Array(STR_INITIAL);
    }
  }

  // -------------------------------------------------------------- handlers

  /** Queue a printable code point (slow path). */
  private printPush(cp: number): void {
    if (this.printLen === this.printBuf.length) this.makePrintRoom();
    this.printBuf[this.printLen++] = cp;
  }

  /** Deliver queued text. Runs before every other handler call. */
  private flushPrint(): void {
    const p = this.printLen;
    if (p === 0) return;
    this.printLen = 0;
    try {
      this.h.print(this.printBuf, 0, p);
    } catch (e) {
      this.report(e);
    }
  }

  /** A control function: hand it to the handler. */
  private exec(code: number): void {
    this.flushPrint();
    try {
      this.h.execute(code);
    } catch (e) {
      this.report(e);
    }
  }

  /** Pass what a handler threw to `onError`, if any. */
  private report(err: unknown): void {
    const f = this.onError;
    if (f === undefined) return;
    try {
      f(err);
    } catch {
      // An error reporter that throws must not break parsing either.
    }
  }
}
