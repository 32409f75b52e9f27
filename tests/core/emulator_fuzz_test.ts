// deno-lint-ignore-file no-control-regex -- the reply regexes match escape sequences
/**
 * Fuzzing the emulator: random bytes mixed with escape-sequence fragments,
 * and real program output (tests/fixtures/captures/, made with
 * scripts/capture.ts) split into random chunks and randomly mutated. The
 * emulator must never throw, must keep its invariants (cursor on the
 * screen, consistent cells), must keep its memory bounded, and every reply
 * must be a well-formed sequence.
 *
 * Each run uses a fixed seed and one random seed, which it prints; set
 * `DT_FUZZ_SEED=<n>` to run that seed again.
 */
import { MAX_CLUSTER_LENGTH, Terminal } from "../../core/emulator/terminal.ts";
import { checkCells, checkInvariants, rng, snapshot } from "./helpers.ts";

const enc = new TextEncoder();

function generator(random: () => number) {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)];
  const chars = [
    "字",
    "中",
    "😀",
    "👨\u200d👩",
    "\u200d",
    "\u0301",
    "\ufe0f",
    "é",
    "ｱ",
    "Ａ",
    "\u1100\u1161",
    "🇩🇪",
    "\u0085",
    "\u009b",
    "\u008d",
    "\ufffd",
  ];
  const finals = "@ABCDEFGHIJKLMPSTXZ`abcdefghlmnpqrstuxy{|}~";
  const param = () => {
    const r = random();
    if (r < 0.1) return "";
    if (r < 0.2) return String(int(100000));
    if (r < 0.3) return `${int(60)}:${int(6)}::${int(300)}:${int(300)}`;
    if (r < 0.5) {
      return pick([
        "1",
        "3",
        "4",
        "6",
        "7",
        "25",
        "45",
        "47",
        "69",
        "1047",
        "1048",
        "1049",
        "2026",
        "1006",
        "3",
      ]);
    }
    return String(int(300));
  };
  const csi = () => {
    const n = int(5);
    const params = Array.from({ length: n }, param).join(";");
    return `\x1b[${pick(["", "", "", "?", ">", "=", "<"])}${params}` +
      `${pick(["", "", "", "", " ", "$", "$", "*", "!", '"', "'"])}${
        pick([...finals])
      }`;
  };
  const osc = () =>
    `\x1b]${
      pick([
        "0",
        "1",
        "2",
        "4",
        "8",
        "10",
        "11",
        "12",
        "104",
        "110",
        "777",
        "x",
      ])
    };` +
    `${
      pick([
        "?",
        "1;?",
        "id=a;http://x",
        ";",
        "1;#ff0000",
        "rgb:1/2/3",
        "title é",
        "",
      ])
    }` +
    pick(["\x07", "\x1b\\", "", "\x18"]);
  const dcs = () =>
    `\x1bP${pick(["$q", "1$r", ">|", ""])}${
      pick(["m", "r", "s", " q", '"q', "zz"])
    }\x1b\\`;
  const esc = () =>
    "\x1b" +
    pick([
      "7",
      "8",
      "D",
      "E",
      "H",
      "M",
      "c",
      "=",
      ">",
      "n",
      "o",
      "N",
      "O",
      "#8",
      "(0",
      ")0",
      "*A",
      "+B",
      "(B",
      "%G",
      "6",
      "9",
      "Z",
    ]);
  const ascii = () => {
    let s = "";
    const n = 1 + int(120);
    for (let i = 0; i < n; i++) s += String.fromCharCode(0x20 + int(95));
    return s;
  };
  const controls = () =>
    pick([
      "\r",
      "\n",
      "\r\n",
      "\b",
      "\t",
      "\x07",
      "\x0e",
      "\x0f",
      "\x0b",
      "\x0c",
      "\x00",
    ]);
  return (): Uint8Array => {
    const r = random();
    let text: string;
    if (r < 0.05) {
      const b = new Uint8Array(1 + int(64));
      for (let i = 0; i < b.length; i++) b[i] = int(256);
      return b;
    }
    if (r < 0.3) text = ascii();
    else if (r < 0.55) text = csi();
    else if (r < 0.65) text = pick(chars).repeat(1 + int(8));
    else if (r < 0.75) text = controls();
    else if (r < 0.85) text = esc();
    else if (r < 0.93) text = osc();
    else text = dcs();
    let bytes = enc.encode(text);
    if (random() < 0.05) bytes = bytes.subarray(0, int(bytes.length + 1)); // a cut fragment
    return bytes;
  };
}

Deno.test("fuzz: 1 MB of random input keeps the invariants", () => {
  const random = rng(0x5eed);
  const next = generator(random);
  const errors: unknown[] = [];
  const term = new Terminal({
    cols: 80,
    rows: 24,
    scrollback: 500,
    reply: () => {},
    onError: (e) => errors.push(e),
  });
  const TOTAL = 1 << 20;
  let written = 0;
  let chunks = 0;
  const buf = new Uint8Array(8192);
  while (written < TOTAL) {
    // Assemble a chunk of random size from fragments.
    const size = 1 + Math.floor(random() * buf.length);
    let n = 0;
    while (n < size) {
      const f = next();
      const k = Math.min(f.length, size - n);
      buf.set(f.subarray(0, k), n);
      n += k;
    }
    term.write(buf.subarray(0, n));
    written += n;
    chunks++;
    checkInvariants(term);
    checkCells(term);
    if (chunks % 50 === 0) {
      term.resize(
        1 + Math.floor(random() * 120),
        1 + Math.floor(random() * 50),
      );
      checkInvariants(term);
    }
    if (errors.length > 0) throw errors[0];
  }
});

Deno.test("fuzz: tiny terminals survive wide characters and margins", () => {
  const random = rng(42);
  const next = generator(random);
  for (const [cols, rows] of [[1, 1], [2, 1], [1, 3], [3, 2]]) {
    const errors: unknown[] = [];
    const term = new Terminal({ cols, rows, onError: (e) => errors.push(e) });
    for (let i = 0; i < 20000; i++) {
      term.write(next());
      checkInvariants(term);
      checkCells(term);
      if (errors.length > 0) throw errors[0];
    }
  }
});

// ---------------------------------------------------------------- seeds

/** The fixed seed, and the random one of this run (or DT_FUZZ_SEED). */
function seeds(): number[] {
  const env = Deno.env.get("DT_FUZZ_SEED");
  const random = env !== undefined && /^[0-9]+$/.test(env)
    ? Number(env) >>> 0
    : crypto.getRandomValues(new Uint32Array(1))[0];
  console.log(
    `fuzz: random seed ${random} (DT_FUZZ_SEED=${random} repeats it)`,
  );
  return [0xc0ffee, random];
}
const SEEDS = seeds();

// ---------------------------------------------------------------- checks

/** Every reply family the emulator may send, one regex each. */
const REPLY_FORMS: RegExp[] = [
  /^\x1b\[\?(6[2-5](;[0-9]+)*|1;2)c$/, // DA1 (at each conformance level)
  /^\x1b\[>990;[0-9]+;0c$/, // DA2
  /^\x1bP!\|[0-9A-F]{8}\x1b\\$/, // DA3
  /^\x1bP>\|domterm\([0-9.]+\)\x1b\\$/, // XTVERSION
  /^\x1b\[0n$/, // DSR 5
  /^\x1b\[[0-9]+;[0-9]+R$/, // CPR
  /^\x1b\[\?[0-9]+;[0-9]+;1R$/, // DECXCPR
  /^\x1b\[\?(13|20|27;1(;0){0,2}|50|57;1|70|83)n$/, // DECDSR answers
  /^\x1b\[0\*\{$/, // DECMSR
  /^\x1b\[[23];1;1;128;128;1;0x$/, // DECREQTPARM
  /^\x1bP[01]\+r[0-9A-Fa-f=;]*\x1b\\$/, // XTGETTCAP
  /^\x1b\[\??[0-9]+;[0-4]\$y$/, // DECRQM
  /^\x1bP[01]\$r[\x20-\x7e]*\x1b\\$/, // DECRQSS
  /^\x1bP[0-9]+!~[0-9A-F]{4}\x1b\\$/, // DECRQCRA
  /^\x1b\[([12]|[345689];[0-9]+;[0-9]+)t$/, // window reports
  /^\x1b\][Ll][^\x00-\x1f\x7f-\x9f]*\x1b\\$/, // title reports
  /^\x1b\](4;[0-9]+|5;[0-4]|1[0-9]);rgb:[0-9a-f]{4}\/[0-9a-f]{4}\/[0-9a-f]{4}(\x1b\\|\x07)$/, // colours
  /^\x1b\[\?[0-9]+u$/, // kitty keyboard flags
  /^\x1b\[>[0-9]+;[0-9]+m$/, // XTQMODKEYS
  /^\x1b\/Z$/, // identify (ESC Z) in VT52 mode
];

/** Throw unless `reply` matches one of {@link REPLY_FORMS}. */
function checkReply(reply: string): void {
  // After S8C1T the introducers are C1 controls: check the 7-bit form.
  reply = reply.replace(
    /[\x90\x9b\x9c\x9d]/g,
    (c) =>
      ({ "\x90": "\x1bP", "\x9b": "\x1b[", "\x9c": "\x1b\\", "\x9d": "\x1b]" })[
        c
      ]!,
  );
  if (!REPLY_FORMS.some((re) => re.test(reply))) {
    throw new Error(`malformed reply ${JSON.stringify(reply)}`);
  }
}

/** Throw unless the emulator's memory is within its bounds. */
function checkBounds(term: Terminal, scrollback: number): void {
  const normal = term.normalBuffer;
  if (normal.length > term.rows + scrollback) {
    throw new Error(
      `normal buffer ${normal.length} > ${term.rows}+${scrollback}`,
    );
  }
  if (term.buffer.isAlt && term.buffer.length !== term.rows) {
    throw new Error(`alternate buffer has ${term.buffer.length} lines`);
  }
  for (const buf of [normal, term.buffer]) {
    for (let y = 0; y < term.rows; y++) {
      const l = buf.getLine(buf.length - term.rows + y);
      const clusters = l.clusters;
      if (clusters === null) continue;
      if (clusters.size > l.cols) {
        throw new Error(`row ${y}: ${clusters.size} clusters`);
      }
      for (const text of clusters.values()) {
        if (text.length > MAX_CLUSTER_LENGTH + 2) {
          throw new Error(`row ${y}: cluster of ${text.length} code units`);
        }
      }
    }
  }
  const st = term.stats;
  if (st.titleStack > 10) throw new Error(`title stack ${st.titleStack}`);
  if (st.extStyles > 0xffff) throw new Error(`ext table ${st.extStyles}`);
  if (st.savedModes > 64) throw new Error(`XTSAVE table ${st.savedModes}`);
  if (st.pendingWrites !== 0) {
    throw new Error(`${st.pendingWrites} writes left`);
  }
  if (st.parserBytes > 9 * 1024 * 1024) {
    throw new Error(`parser holds ${st.parserBytes} bytes`);
  }
}

// ---------------------------------------------------------------- captures

const CAPTURES = new URL("../fixtures/captures/", import.meta.url);

/** The captured program outputs, by file name. */
function loadCaptures(): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  for (const e of Deno.readDirSync(CAPTURES)) {
    if (e.isFile && e.name.endsWith(".bin")) {
      out.push([e.name, Deno.readFileSync(new URL(e.name, CAPTURES))]);
    }
  }
  if (out.length === 0) throw new Error(`no captures in ${CAPTURES.pathname}`);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Split `data` into chunks of random sizes (mostly small, some large). */
function randomChunks(data: Uint8Array, random: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < data.length;) {
    const r = random();
    const n = r < 0.5
      ? 1 + Math.floor(random() * 4)
      : r < 0.9
      ? 1 + Math.floor(random() * 64)
      : 1 + Math.floor(random() * 4096);
    out.push(data.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** A copy of `data` with a few random mutations (flips, inserts, deletes, repeats). */
function mutate(
  data: Uint8Array,
  random: () => number,
  fragment: () => Uint8Array,
): Uint8Array {
  let bytes = Array.from(data);
  const int = (n: number) => Math.floor(random() * n);
  const count = 1 + int(20);
  for (let k = 0; k < count && bytes.length > 0; k++) {
    const at = int(bytes.length);
    const r = random();
    if (r < 0.3) bytes[at] = int(256);
    else if (r < 0.5) bytes[at] ^= 1 << int(8);
    else if (r < 0.7) bytes.splice(at, 0, ...fragment());
    else if (r < 0.85) bytes.splice(at, 1 + int(64));
    else {
      const span = bytes.slice(at, at + 1 + int(256));
      bytes.splice(at, 0, ...span);
    }
    if (bytes.length > 1 << 20) bytes = bytes.slice(0, 1 << 20);
  }
  return new Uint8Array(bytes);
}

/** A terminal that records replies and errors. */
function fuzzTerminal(cols: number, rows: number, scrollback: number) {
  const replies: string[] = [];
  const errors: unknown[] = [];
  const term = new Terminal({
    cols,
    rows,
    scrollback,
    reply: (d) => replies.push(d),
    onError: (e) => errors.push(e),
  });
  return { term, replies, errors };
}

for (const seed of SEEDS) {
  Deno.test(`fuzz: captures split into random chunks give the same screen (seed ${seed})`, () => {
    const random = rng(seed);
    for (const [name, data] of loadCaptures()) {
      const whole = fuzzTerminal(80, 24, 200);
      whole.term.write(data);
      const split = fuzzTerminal(80, 24, 200);
      for (const chunk of randomChunks(data, random)) {
        split.term.write(chunk);
        checkInvariants(split.term);
      }
      if (whole.errors.length + split.errors.length > 0) {
        throw whole.errors[0] ?? split.errors[0];
      }
      const a = JSON.stringify(snapshot(whole.term));
      const b = JSON.stringify(snapshot(split.term));
      if (a !== b) throw new Error(`${name}: split input gave another screen`);
      if (JSON.stringify(whole.replies) !== JSON.stringify(split.replies)) {
        throw new Error(`${name}: split input gave other replies`);
      }
      whole.replies.forEach(checkReply);
    }
  });

  Deno.test(`fuzz: mutated captures keep the invariants (seed ${seed})`, () => {
    const random = rng(seed ^ 0x9e3779b9);
    const fragment = generator(random);
    for (const [name, data] of loadCaptures()) {
      for (let round = 0; round < 12; round++) {
        const cols = 1 + Math.floor(random() * 100);
        const rows = 1 + Math.floor(random() * 40);
        const t = fuzzTerminal(cols, rows, 100);
        const input = mutate(data, random, fragment);
        try {
          for (const chunk of randomChunks(input, random)) {
            t.term.write(chunk);
            checkInvariants(t.term);
            if (random() < 0.01) {
              t.term.resize(
                1 + Math.floor(random() * 100),
                1 + Math.floor(random() * 40),
              );
            }
          }
          checkCells(t.term);
          checkBounds(t.term, 100);
          t.replies.forEach(checkReply);
          if (t.errors.length > 0) throw t.errors[0];
        } catch (e) {
          throw new Error(
            `${name} round ${round} (seed ${seed}): ${
              e instanceof Error ? e.message : e
            }`,
          );
        }
      }
    }
  });

  Deno.test(`fuzz: random input, replies well-formed and memory bounded (seed ${seed})`, () => {
    const random = rng(seed);
    const next = generator(random);
    const t = fuzzTerminal(80, 24, 300);
    const TOTAL = 256 * 1024;
    for (let written = 0; written < TOTAL;) {
      const bytes = next();
      t.term.write(bytes);
      written += bytes.length;
      if (random() < 0.02) {
        checkInvariants(t.term);
        checkBounds(t.term, 300);
      }
    }
    checkInvariants(t.term);
    checkCells(t.term);
    checkBounds(t.term, 300);
    if (t.replies.length === 0) throw new Error("no query was answered");
    t.replies.forEach(checkReply);
    if (t.errors.length > 0) throw t.errors[0];
  });
}

Deno.test("fuzz: endless strings and huge parameters stay bounded", () => {
  const t = fuzzTerminal(20, 5, 10);
  const junk = new Uint8Array(1 << 20).fill(0x41);
  for (const intro of ["\x1b]2;", "\x1b]52;c;", "\x1bP$q", "\x1b_", "\x1b^"]) {
    t.term.write(intro);
    for (let i = 0; i < 12; i++) t.term.write(junk);
    checkBounds(t.term, 10);
    t.term.write("\x07\x1b\\");
  }
  t.term.write("\x1b[" + "9".repeat(100000) + ";" + "1;".repeat(100000) + "m");
  t.term.write("\x1b[22t".repeat(10000));
  checkBounds(t.term, 10);
  checkInvariants(t.term);
  t.replies.forEach(checkReply);
  if (t.errors.length > 0) throw t.errors[0];
});
