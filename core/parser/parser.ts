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
 * @module
 */

import type { ParserHandler } from "./handler.ts";
import { MAX_PARAM_VALUE, ParamBuffer } from "./params.ts";

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

/** Could the OSC number whose digits so far have value `v` still become a large one? */
function mayBecomeLargeOsc(v: number): boolean {
  if (v === 0) return true; // only (leading) zeros so far
  const s = String(v);
  return LARGE_OSC.some((id) => String(id).startsWith(s));
}

/**
 * The escape-sequence parser. Feed it bytes; it calls the handler.
 *
 * Never throws: every byte sequence is valid input, and what a handler method
 * throws is caught and passed to `options.onError`. Handler methods must not
 * call `feed` or `reset` on the same parser.
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
  /** The OSC cap was raised before its number was fully read: check at the end. */
  private oscTentative = false;
  /** 0x98 (SOS), 0x9e (PM) or 0x9f (APC) while in SOS_PM_APC_STRING. */
  private strKind = 0;
  private dcsPrefix = "";
  private dcsInter = "";
  private dcsFinal = 0;

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
        } else if (s >= DCS_IGNORE || s === OSC_STRING) {
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
          if (i < n && data[i] === 0x5b) {
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
    this.afterString = s >= DCS_IGNORE || s === OSC_STRING;
    this.endString();
    this.state = ESCAPE;
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
    if (s !== OSC_STRING && s < DCS_IGNORE) return;
    if (
      s === DCS_IGNORE || this.strDrop ||
      (s === OSC_STRING && this.oscTentative && this.oscTooLong())
    ) {
      this.releaseString();
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
    if (s === OSC_STRING || s >= DCS_IGNORE) this.releaseString();
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
  private releaseString(): void {
    this.strLen = 0;
    this.strDrop = false;
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
