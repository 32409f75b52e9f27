/**
 * Deterministic byte streams for terminal throughput benchmarks.
 *
 * Every generator builds its stream in memory from a fixed-seed PRNG, so the
 * same `(size, seed)` always gives the same bytes. A stream is made of whole
 * "units" (a line, a redraw step, ...) and is at least `size` bytes long: it
 * stops after the unit that crosses `size`, so it never ends inside an
 * escape sequence or a UTF-8 sequence. All streams are valid UTF-8.
 *
 * @module
 */

/** Default seed of every generator. */
export const DEFAULT_SEED = 0x5eed_d0e7;

/**
 * A small, fast, deterministic pseudo-random generator (xorshift32 with a
 * seed scrambler). Not for cryptography.
 */
export class Prng {
  #s: number;

  /** @param seed any 32-bit integer; 0 is remapped to a fixed non-zero state */
  constructor(seed: number) {
    let s = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b);
    s ^= s >>> 13;
    s = Math.imul(s, 0xc2b2ae35);
    s ^= s >>> 16;
    this.#s = s === 0 ? 0x1234567 : s;
  }

  /** Next unsigned 32-bit value. */
  nextU32(): number {
    let s = this.#s;
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    this.#s = s;
    return s >>> 0;
  }

  /** Integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + (this.nextU32() % (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.nextU32() < p * 4294967296;
  }

  /** A uniformly chosen element of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.nextU32() % items.length];
  }
}

/**
 * Collects string pieces and UTF-8 encodes them into one preallocated
 * buffer, growing it if needed.
 */
class ByteSink {
  #buf: Uint8Array;
  #len = 0;
  #parts: string[] = [];
  #partChars = 0;
  #enc = new TextEncoder();

  constructor(capacity: number) {
    this.#buf = new Uint8Array(capacity);
  }

  /** Bytes written so far (after flushing pending pieces). */
  get length(): number {
    this.#flush();
    return this.#len;
  }

  /** Append a string. */
  push(s: string): void {
    this.#parts.push(s);
    this.#partChars += s.length;
    if (this.#partChars >= 16384) this.#flush();
  }

  #flush(): void {
    if (this.#parts.length === 0) return;
    const s = this.#parts.join("");
    this.#parts = [];
    this.#partChars = 0;
    // Every UTF-16 unit encodes to at most 3 bytes.
    if (this.#len + s.length * 3 > this.#buf.length) {
      const grown = new Uint8Array(
        Math.max(this.#buf.length * 2, this.#len + s.length * 3),
      );
      grown.set(this.#buf.subarray(0, this.#len));
      this.#buf = grown;
    }
    const r = this.#enc.encodeInto(s, this.#buf.subarray(this.#len));
    this.#len += r.written;
  }

  /** The bytes written, as a fresh Uint8Array of exactly that length. */
  bytes(): Uint8Array {
    this.#flush();
    return this.#buf.slice(0, this.#len);
  }
}

/**
 * Run `unit` repeatedly until at least `size` bytes were produced. The size
 * is checked every few units (cheaply, by flushing), so the result may
 * exceed `size` by a few kilobytes.
 */
function generate(
  size: number,
  seed: number,
  unit: (rng: Prng, out: ByteSink) => void,
): Uint8Array {
  const rng = new Prng(seed);
  const out = new ByteSink(size + 65536);
  let check = 0;
  for (;;) {
    unit(rng, out);
    if (++check >= 64) {
      check = 0;
      if (out.length >= size) break;
    }
  }
  return out.bytes();
}

const ESC = "\x1b";
const CSI = "\x1b[";

const LOG_WORDS = [
  "INFO",
  "WARN",
  "DEBUG",
  "request",
  "handled",
  "GET",
  "POST",
  "/api/v1/items",
  "status=200",
  "status=404",
  "latency",
  "ms",
  "user",
  "session",
  "connected",
  "closing",
  "worker",
  "queue",
  "retry",
  "timeout",
  "cache",
  "miss",
  "hit",
  "bytes",
  "the",
  "of",
  "and",
  "config",
  "loaded",
  "from",
  "/etc/app.conf",
  "pid",
  "=",
  "->",
  "[ok]",
  "{id:",
  "}",
  "error:",
];

/** Random printable ASCII text of exactly `len` characters, log-like. */
function logText(rng: Prng, len: number): string {
  let s = "";
  while (s.length < len) {
    const r = rng.nextU32() % 10;
    if (r < 6) s += rng.pick(LOG_WORDS);
    else if (r < 8) s += String(rng.nextU32() % 100000);
    else s += String.fromCharCode(rng.int(0x21, 0x7e));
    s += " ";
  }
  return s.slice(0, len);
}

/**
 * Stream 1: plain ASCII log lines of 0-120 characters with CRLF endings
 * (lines longer than the screen width wrap).
 */
export function plainAscii(size: number, seed = DEFAULT_SEED): Uint8Array {
  return generate(size, seed, (rng, out) => {
    const len = rng.chance(0.05) ? 0 : rng.int(1, 120);
    const ts = `2024-05-${String(rng.int(10, 28))}T${rng.int(10, 23)}:${
      rng.int(10, 59)
    }:${rng.int(10, 59)}Z `;
    out.push((ts + logText(rng, len)).slice(0, len) + "\r\n");
  });
}

const FILE_STEMS = [
  "README",
  "main",
  "build",
  "config",
  "node_modules",
  "src",
  "lib",
  "test",
  "archive",
  "photo",
  "setup",
  "Makefile",
  "index",
  "vendor",
  "docs",
  "tmp",
];
const FILE_KINDS: readonly [string, string][] = [
  ["", ""], // plain file
  ["01;34", ""], // directory
  ["01;32", ".sh"], // executable
  ["01;31", ".tar.gz"], // archive
  ["01;35", ".png"], // image
  ["01;36", ".link"], // symlink
  ["00;33", ".fifo"], // fifo
  ["30;42", ".shared"], // sticky other-writable dir
];

function sgr256(rng: Prng): string {
  const fg = rng.chance(0.5);
  return `${CSI}${fg ? 38 : 48};5;${rng.int(0, 255)}m`;
}

function sgrTrue(rng: Prng): string {
  const fg = rng.chance(0.6) ? 38 : 48;
  const r = rng.int(0, 255), g = rng.int(0, 255), b = rng.int(0, 255);
  // Both the semicolon form and the ITU T.416 colon form are in use.
  return rng.chance(0.7)
    ? `${CSI}${fg};2;${r};${g};${b}m`
    : `${CSI}${fg}:2::${r}:${g}:${b}m`;
}

/**
 * Stream 2: SGR-heavy coloured output: `ls --color` listings, compiler
 * diagnostics, and text painted with 16-colour, 256-colour and truecolor
 * SGR plus bold/italic/underline/reset.
 */
export function sgrHeavy(size: number, seed = DEFAULT_SEED): Uint8Array {
  return generate(size, seed, (rng, out) => {
    const kind = rng.nextU32() % 4;
    if (kind === 0) {
      // ls --color: a row of 3-4 names padded to 18 columns.
      let row = "";
      const n = rng.int(3, 4);
      for (let i = 0; i < n; i++) {
        const [code, ext] = rng.pick(FILE_KINDS);
        const name = rng.pick(FILE_STEMS) + (rng.chance(0.5) ? "" : "_" +
          String(rng.int(0, 99))) +
          ext;
        row += code ? `${CSI}${code}m${name}${CSI}0m` : name;
        row += " ".repeat(Math.max(1, 18 - name.length));
      }
      out.push(row + "\r\n");
    } else if (kind === 1) {
      // gcc/clang-style diagnostic with caret line.
      const file = rng.pick(FILE_STEMS) + ".c";
      const line = rng.int(1, 2000), col = rng.int(1, 60);
      const isErr = rng.chance(0.5);
      out.push(
        `${CSI}1m${file}:${line}:${col}: ${CSI}0m${CSI}1;${isErr ? 31 : 35}m${
          isErr ? "error" : "warning"
        }: ${CSI}0m${CSI}1m${logText(rng, rng.int(20, 50))}${CSI}0m\r\n`,
      );
      const code = logText(rng, rng.int(10, 70));
      out.push(
        ` ${String(line).padStart(4)} | ${
          code.slice(0, col % code.length)
        }${CSI}01;31m${CSI}K${code.slice(col % code.length)}${CSI}m${CSI}K\r\n`,
      );
      out.push(
        `      | ${" ".repeat(col % code.length)}${CSI}01;32m${CSI}K^${
          "~".repeat(rng.int(0, 8))
        }${CSI}m${CSI}K\r\n`,
      );
    } else {
      // Painted text: short words, each with its own attributes.
      let s = "";
      const words = rng.int(4, 12);
      for (let i = 0; i < words; i++) {
        const a = rng.nextU32() % 8;
        if (a === 0) s += `${CSI}${rng.int(30, 37)}m`;
        else if (a === 1) s += `${CSI}1;${rng.int(90, 97)}m`;
        else if (a === 2) s += sgr256(rng);
        else if (a === 3) s += sgrTrue(rng);
        else if (a === 4) {
          s += `${CSI}${rng.pick(["1", "3", "4", "7", "2", "9", "4:3"])}m`;
        } else if (a === 5) s += `${CSI}0m`;
        else if (a === 6) s += `${CSI}${rng.int(40, 47)};${rng.int(30, 37)}m`;
        s += logText(rng, rng.int(1, 9)) + " ";
      }
      out.push(s + `${CSI}0m\r\n`);
    }
  });
}

/**
 * Stream 3: cursor-motion-heavy full-screen redraws on a 120x40 screen:
 * CUP to random positions with short writes, relative moves, ED/EL/ECH,
 * insert/delete characters, save/restore cursor, and brief scroll regions.
 */
export function cursorMotion(
  size: number,
  seed = DEFAULT_SEED,
  cols = 120,
  rows = 40,
): Uint8Array {
  let frame = 0;
  return generate(size, seed, (rng, out) => {
    // One "frame": a clear or home, then a burst of positioned writes.
    frame++;
    let s = frame % 8 === 0 ? `${CSI}H${CSI}2J` : `${CSI}?25l${CSI}H`;
    const ops = rng.int(40, 120);
    for (let i = 0; i < ops; i++) {
      const r = rng.nextU32() % 20;
      if (r < 9) {
        s += `${CSI}${rng.int(1, rows)};${rng.int(1, cols)}H`;
        if (rng.chance(0.3)) s += `${CSI}${rng.int(30, 37)}m`;
        s += logText(rng, rng.int(1, 12));
      } else if (r < 11) {
        s += `${CSI}${rng.int(1, 5)}${rng.pick(["A", "B", "C", "D"])}x`;
      } else if (r < 13) s += `${CSI}${rng.pick(["", "0", "1", "2"])}K`;
      else if (r === 13) s += `${CSI}${rng.pick(["0", "1"])}J`;
      else if (r === 14) s += `${CSI}${rng.int(1, 10)}X`;
      else if (r === 15) {
        s += `${CSI}${rng.int(1, 4)}${rng.pick(["@", "P"])}`;
      } else if (r === 16) {
        s += `${ESC}7${CSI}${rng.int(1, rows)};1H${
          logText(rng, rng.int(5, 30))
        }${ESC}8`;
      } else if (r === 17) {
        const top = rng.int(1, rows - 2), bot = rng.int(top + 1, rows);
        s += `${CSI}${top};${bot}r${CSI}${bot};1H` +
          "\n".repeat(rng.int(1, 3)) +
          `${CSI}r`;
      } else if (r === 18) {
        s += `${CSI}${rng.int(1, rows)}d${CSI}${rng.int(1, cols)}G@`;
      } else s += `${CSI}0m`;
    }
    out.push(s + `${CSI}0m${CSI}?25h`);
  });
}

/**
 * Stream 4: scrolling inside a region: DECSTBM set to a middle region of a
 * 80x24 screen, lines written at its bottom (LF scrolls the region up), RI
 * at its top (scrolls it down), IL/DL and SU/SD inside it.
 */
export function regionScroll(
  size: number,
  seed = DEFAULT_SEED,
  rows = 24,
): Uint8Array {
  let n = 0, top = 1;
  return generate(size, seed, (rng, out) => {
    let s = "";
    if (n++ % 200 === 0) {
      // (Re)establish a middle region, as a pager or editor status UI would.
      top = rng.int(2, 6);
      const bot = rng.int(rows - 6, rows - 2);
      s += `${CSI}${top};${bot}r${CSI}${bot};1H`;
    }
    const r = rng.nextU32() % 10;
    if (r < 5) {
      s += "\r\n" + logText(rng, rng.int(0, 78)); // LF at bottom scrolls up
    } else if (r < 7) {
      // RI at the region top scrolls the region down.
      s += `${ESC}7${CSI}${top};1H` + `${ESC}M`.repeat(rng.int(1, 3)) +
        logText(rng, rng.int(0, 60)) + `${ESC}8`;
    } else if (r === 7) {
      s += `${CSI}${rng.int(1, 3)}L` + logText(rng, rng.int(0, 40));
    } else if (r === 8) s += `${CSI}${rng.int(1, 3)}M`;
    else s += `${CSI}${rng.int(1, 2)}${rng.pick(["S", "T"])}`;
    out.push(s);
  });
}

/** A random code point from [lo, hi] as a string. */
function cp(rng: Prng, lo: number, hi: number): string {
  return String.fromCodePoint(rng.int(lo, hi));
}

const ZWJ_SEQUENCES = [
  "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}", // family
  "\u{1F3F3}\uFE0F\u200D\u{1F308}", // rainbow flag
  "\u{1F469}\u{1F3FD}\u200D\u{1F4BB}", // woman technologist, skin tone
  "\u{1F9D1}\u200D\u{1F91D}\u200D\u{1F9D1}", // people holding hands
  "\u2764\uFE0F\u200D\u{1F525}", // heart on fire
  "\u{1F1EF}\u{1F1F5}", // flag (regional indicators)
  "\u{1F44D}\u{1F3FB}", // thumbs up, skin tone
];
const COMBINING = ["\u0301", "\u0300", "\u0308", "\u0327", "\u030A", "\u0323"];

/**
 * Stream 5: CJK and emoji text in lines: Han, Hiragana, Katakana, Hangul
 * and fullwidth forms (wide), Latin letters with combining marks, single
 * emoji and ZWJ / modifier / flag sequences, mixed with ASCII words.
 * Line display widths reach past 80 columns, so lines wrap (including a
 * wide character at the right margin).
 */
export function cjkEmoji(size: number, seed = DEFAULT_SEED): Uint8Array {
  return generate(size, seed, (rng, out) => {
    let s = "";
    const items = rng.int(0, 40);
    for (let i = 0; i < items; i++) {
      const r = rng.nextU32() % 16;
      if (r < 5) s += cp(rng, 0x4e00, 0x9fff); // CJK unified ideographs
      else if (r === 5) s += cp(rng, 0x3041, 0x3096); // Hiragana
      else if (r === 6) s += cp(rng, 0x30a1, 0x30fa); // Katakana
      else if (r === 7) s += cp(rng, 0xac00, 0xd7a3); // Hangul syllables
      else if (r === 8) s += cp(rng, 0xff01, 0xff5e); // fullwidth ASCII
      else if (r === 9) {
        s += String.fromCharCode(rng.int(0x61, 0x7a)) + rng.pick(COMBINING);
      } else if (r === 10) s += cp(rng, 0x1f600, 0x1f64f); // emoticons
      else if (r === 11) s += cp(rng, 0x1f300, 0x1f5ff); // pictographs
      else if (r === 12) s += rng.pick(ZWJ_SEQUENCES);
      else s += logText(rng, rng.int(1, 8)) + " ";
    }
    out.push(s + "\r\n");
  });
}

/** A benchmark stream: what it is, the screen it is meant for, its generator. */
export interface StreamSpec {
  /** Short identifier (used on the command line). */
  name: string;
  /** One-line description. */
  description: string;
  /** Screen columns the stream is written for. */
  cols: number;
  /** Screen rows the stream is written for. */
  rows: number;
  /** Build at least `size` bytes, deterministically for a given seed. */
  generate(size: number, seed?: number): Uint8Array;
}

/** The benchmark streams, in report order. */
export const STREAMS: readonly StreamSpec[] = [
  {
    name: "ascii",
    description: "plain ASCII log lines, 0-120 chars, CRLF",
    cols: 80,
    rows: 24,
    generate: plainAscii,
  },
  {
    name: "sgr",
    description: "ls --color, compiler diagnostics, 16/256/truecolor SGR",
    cols: 80,
    rows: 24,
    generate: sgrHeavy,
  },
  {
    name: "cursor",
    description: "full-screen redraws: CUP, short writes, ED/EL, regions",
    cols: 120,
    rows: 40,
    generate: (size, seed) => cursorMotion(size, seed, 120, 40),
  },
  {
    name: "region",
    description: "DECSTBM middle region: LF/RI/IL/DL/SU/SD inside it",
    cols: 80,
    rows: 24,
    generate: (size, seed) => regionScroll(size, seed, 24),
  },
  {
    name: "cjk",
    description: "CJK, combining marks, emoji and ZWJ sequences in lines",
    cols: 80,
    rows: 24,
    generate: cjkEmoji,
  },
];
