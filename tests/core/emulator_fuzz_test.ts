/**
 * 1 MB of random bytes mixed with escape-sequence fragments (fixed seed):
 * the emulator must never throw and must keep its invariants.
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import { checkCells, checkInvariants } from "./helpers.ts";

/** mulberry32: a small deterministic PRNG. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
