/**
 * Differential fuzzing of `Terminal.snapshot()` / `Terminal.restore()`:
 * a terminal A is fed input; at random byte offsets (often in the middle
 * of a sequence) the newest terminal of the group is snapshotted, the
 * snapshot goes through JSON.stringify / JSON.parse, and a fresh terminal
 * restored from it joins the group (so restores chain: A -> B -> C ...).
 * Every terminal is then fed the same rest of the input (and the same
 * resizes); their models (modelDiff), replies and events must stay equal
 * to A's from the restore on.
 *
 * Inputs: every capture in tests/fixtures/captures (as recorded, and
 * mutated), and random input biased towards sequences that set state and
 * queries that reveal it; 3 MiB of random bytes per run (1.5 MiB per seed).
 *
 * Each run uses a fixed seed and one random seed, which it prints; set
 * `DT_FUZZ_SEED=<n>` to run that seed again. A mismatch names the seed,
 * the input, the byte offsets of the restores, the modelDiff output, and
 * a file that holds the input bytes.
 */
import {
  Terminal,
  type TerminalSnapshot,
} from "../../core/emulator/terminal.ts";
import type { TerminalEvent } from "../../core/terminal_view.ts";
import { modelDiff } from "../../core/serialize/model_hash.ts";
import { rng, TINY_PNG } from "./helpers.ts";

/** The fixed seed, and the random one of this run (or DT_FUZZ_SEED). */
function seeds(): number[] {
  const env = Deno.env.get("DT_FUZZ_SEED");
  const random = env !== undefined && /^[0-9]+$/.test(env)
    ? Number(env) >>> 0
    : crypto.getRandomValues(new Uint32Array(1))[0];
  console.log(
    `snapshot fuzz: random seed ${random} (DT_FUZZ_SEED=${random} repeats it)`,
  );
  return [0x5a4a9, random];
}
const SEEDS = seeds();

const enc = new TextEncoder();

// ---------------------------------------------------------------- generator

/**
 * Fragments of program output, biased to state changes and state queries.
 * With `swarm`, only a random few of the fragment kinds are used (swarm
 * testing): fewer kinds interact more deeply with each other.
 */
function generator(random: () => number, swarm = false): () => Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)];
  const CSI = "\x1b[", OSC = "\x1b]", DCS = "\x1bP", ST = "\x1b\\";
  const end = () => pick(["\x07", ST, ST]);
  const word = () => {
    const n = 1 + int(8);
    let s = "";
    for (let i = 0; i < n; i++) {
      s += pick(["a", "b", "é", "字", " ", "x", "Z", "ü", "😀", "-"]);
    }
    return s;
  };
  const color = () =>
    pick([
      `#${int(0x1000000).toString(16).padStart(6, "0")}`,
      `rgb:${int(256).toString(16)}/${int(256).toString(16)}/${
        int(256).toString(16)
      }`,
      "?",
      "red",
      "#abc",
    ]);
  const sgrParam = () =>
    pick([
      "0",
      "1",
      "2",
      "3",
      "4",
      "4:3",
      "4:0",
      "5",
      "7",
      "8",
      "9",
      "21",
      "22",
      "23",
      "24",
      "27",
      "53",
      "55",
      `3${int(10)}`,
      `4${int(10)}`,
      `9${int(8)}`,
      `10${int(8)}`,
      `38;5;${int(256)}`,
      `48;5;${int(256)}`,
      `38:2::${int(256)}:${int(256)}:${int(256)}`,
      `48;2;${int(256)};${int(256)};${int(256)}`,
      `58:2::${int(256)}:${int(256)}:${int(256)}`,
      `58;5;${int(256)}`,
      "59",
      "",
    ]);
  const decModes = [
    1,
    3,
    5,
    6,
    7,
    12,
    25,
    40,
    42,
    45,
    47,
    66,
    69,
    1000,
    1002,
    1004,
    1006,
    1007,
    1047,
    1048,
    1049,
    2004,
    2026,
  ];
  const texts = [
    "字",
    "中文",
    "😀",
    "👨\u200d👩\u200d👧",
    "\u200d",
    "e\u0301",
    "\u0301",
    "\u0302\u0303",
    "❤\ufe0f",
    "\ufe0f",
    "🇩🇪",
    "🇩",
    "👍🏽",
    "ｱ",
    "Ａ",
    "\u1100\u1161",
    "é",
  ];
  const stateful: (() => string)[] = [
    // saved cursor
    () => pick(["\x1b7", "\x1b8", `${CSI}s`, `${CSI}u`]),
    // charsets
    () =>
      "\x1b" +
      pick([
        "(0",
        ")0",
        "*0",
        "+0",
        "(B",
        ")B",
        "(A",
        "-A",
        "(<",
        "(%5",
        "(>",
        "n",
        "o",
        "N",
        "O",
      ]),
    () => pick(["\x0e", "\x0f"]),
    // a single shift left pending, with a set that shows it
    () => pick(["\x1b*0\x1bN", "\x1b+0\x1bO", "\x1b*A\x1bN"]),
    // tabs
    () => pick(["\x1bH", `${CSI}g`, `${CSI}3g`, "\t", `${CSI}2I`, `${CSI}Z`]),
    () => pick([`${CSI}?5W`, "\t\t"]),
    // margins
    () => `${CSI}${1 + int(30)};${1 + int(30)}r`,
    () => pick([`${CSI}r`, `${CSI}?69h`, `${CSI}?69l`]),
    () => `${CSI}?69h${CSI}${1 + int(40)};${1 + int(90)}s`,
    // SGR
    () => `${CSI}${Array.from({ length: 1 + int(4) }, sgrParam).join(";")}m`,
    // titles
    () => `${OSC}${pick(["0", "1", "2"])};${word()}${end()}`,
    () => `${CSI}${pick(["22", "23"])}${pick(["", ";0", ";1", ";2"])}t`,
    // colours
    () => `${OSC}4;${int(256)};${color()}${end()}`,
    () => `${OSC}${pick(["10", "11", "12"])};${color()}${end()}`,
    () => `${OSC}4;${int(256)};?${end()}`,
    () => `${OSC}${pick(["10", "11", "12"])};?${end()}`,
    () => `${OSC}${pick(["104", "104;" + int(256)])}${end()}`,
    // links
    () =>
      pick([
        `${OSC}8;;http://x/${int(5)}${end()}`,
        `${OSC}8;id=${int(3)};http://y/${end()}`,
        `${OSC}8;;${end()}`,
      ]),
    // cwd
    () => `${OSC}7;file://host/dir${int(4)}${end()}`,
    // kitty keyboard
    () =>
      pick([
        `${CSI}>${int(32)}u`,
        `${CSI}<${pick(["", "1", "2", "20"])}u`,
        `${CSI}=${int(32)};${1 + int(3)}u`,
        `${CSI}?u`,
      ]),
    () => `${CSI}>4;${int(3)}m${pick(["", `${CSI}?4m`])}`,
    // shell marks
    () =>
      `${OSC}133;${
        pick(["A", "B", "C", "D", "D;0", "D;1", "A;aid=1", "L"])
      }${end()}`,
    () => `${CSI}${pick(["12", "11"])}u`,
    // HTML
    () =>
      `${OSC}72;${
        pick([
          "<div>blk</div>",
          "<b>in</b>",
          '<div class="can-replace-children" replace-key="k">o</div>',
          '<span class="can-replace-children" replace-key="s">0</span>',
          "<p>" + word() + "</p>",
        ])
      }${end()}`,
    () => `${OSC}721;${pick(["k", "s", "k", "none"])};<i>${word()}</i>${end()}`,
    // keyed fragments on other rows, so that keys repeat
    () =>
      `${CSI}${1 + int(30)};${1 + int(20)}H${OSC}72;<span ` +
      `class="can-replace-children" replace-key="${pick(["k", "s"])}">${
        int(9)
      }</span>${end()}`,
    // images
    () =>
      `${DCS}${pick(["", "0;1;0"])}q"1;1;2;6#0;2;${int(100)};0;0#0~${
        pick(["~", "-~", "!3~"])
      }${ST}`,
    () =>
      `${OSC}1337;File=inline=${int(2)};name=${
        btoa("p" + int(3))
      }:${TINY_PNG}${end()}`,
    // modes
    () => `${CSI}?${pick(decModes)}${pick(["h", "l"])}`,
    () => `${CSI}?${pick(["47", "47", "1047", "1049"])}${pick(["h", "l"])}`,
    () => `${CSI}${pick(["4", "20"])}${pick(["h", "l"])}`,
    () => `${CSI}?${pick(decModes)};${pick(decModes)}${pick(["s", "r"])}`,
    () => pick(["\x1b=", "\x1b>"]),
    () => `${CSI}${int(7)} q`,
    () => `${CSI}${int(3)}"q`,
    () => `${CSI}${pick(["0", "1", "2"])}*x`,
    // resets
    () => pick([`${CSI}!p`, `${CSI}!p`, "\x1bc"]),
    // REP
    () => `${pick(["a", "字", "é", ""])}${CSI}${int(5)}b`,
    // line sizes
    () => `\x1b#${pick(["3", "4", "5", "6", "8"])}`,
    // pretty printing
    () =>
      pick([
        `${OSC}110;"${pick(["(", "[", ""])}"\x07`,
        `${OSC}111\x07`,
        `${OSC}112;${int(4)}\x07`,
        `${OSC}113;${int(4)}\x07`,
        `${OSC}114;"; "\x07`,
        `${OSC}115;"",""," "\x07`,
        `${OSC}116;"",""," "\x07`,
        `${OSC}117;"",""," "\x07`,
        `${OSC}118\x07`,
      ]),
  ];
  const queries: (() => string)[] = [
    () => `${CSI}?${pick(decModes)}$p`,
    () => `${CSI}${pick(["4", "20", "12"])}$p`,
    () => `${DCS}$q${pick(["m", "r", "s", " q", '"q', "t", "$|"])}${ST}`,
    () => pick([`${CSI}6n`, `${CSI}?6n`, `${CSI}5n`]),
    () =>
      `${CSI}${int(9)};1;${1 + int(10)};${1 + int(10)};${1 + int(30)};${
        1 + int(90)
      }*y`,
    () => pick([`${CSI}14t`, `${CSI}16t`, `${CSI}18t`]),
    () => pick([`${CSI}c`, `${CSI}>c`]),
  ];
  const edits: (() => string)[] = [
    () => `${CSI}${1 + int(30)};${1 + int(90)}H`,
    () => `${CSI}${int(4)}${pick(["A", "B", "C", "D", "E", "F", "G", "d"])}`,
    () => `${CSI}${int(3)}${pick(["J", "K"])}`,
    () => `${CSI}?${int(3)}${pick(["J", "K"])}`,
    () => `${CSI}${int(4)}${pick(["L", "M", "@", "P", "X", "S", "T"])}`,
    () => `${CSI}${int(3)}${pick([" @", " A", "'}", "'~"])}`,
    () =>
      `${CSI}${1 + int(5)};${1 + int(10)};${1 + int(10)};${1 + int(40)};${
        pick(["1", "4", "7", "0"])
      }$${pick(["r", "t"])}`,
    () => `${CSI}${0x41 + int(20)};1;1;${1 + int(10)};${1 + int(40)}$x`,
    () =>
      `${CSI}1;1;${1 + int(5)};${1 + int(20)};1;${1 + int(8)};${1 + int(8)}$v`,
    () => pick(["\x1bD", "\x1bE", "\x1bM", "\x1b6", "\x1b9"]),
  ];
  const controls = ["\r", "\n", "\r\n", "\b", "\x07", "\x0b", "\x0c"];
  const ascii = () => {
    let s = "";
    const n = 1 + int(100);
    for (let i = 0; i < n; i++) s += String.fromCharCode(0x20 + int(95));
    return s;
  };
  /** A random non-empty subset of `kinds` (all of them without swarm). */
  const some = <T>(kinds: T[]): T[] => {
    if (!swarm) return kinds;
    const kept = kinds.filter(() => random() < 0.15);
    return kept.length > 0 ? kept : [pick(kinds)];
  };
  const myStateful = some(stateful),
    myQueries = some(queries),
    myEdits = some(edits);
  return () => {
    const r = random();
    let text: string;
    if (r < 0.03) {
      const b = new Uint8Array(1 + int(32));
      for (let i = 0; i < b.length; i++) b[i] = int(256);
      return b;
    }
    if (r < 0.4) text = pick(myStateful)();
    else if (r < 0.52) text = pick(myQueries)();
    else if (r < 0.62) text = pick(myEdits)();
    else if (r < 0.75) text = ascii();
    else if (r < 0.85) text = pick(texts).repeat(1 + int(4));
    else text = pick(controls);
    let bytes = enc.encode(text);
    if (random() < 0.03) bytes = bytes.subarray(0, int(bytes.length + 1));
    return bytes;
  };
}

/** `total` bytes of generated input, and the offsets where fragments end. */
function randomInput(
  random: () => number,
  total: number,
  swarm: boolean,
): { input: Uint8Array; ends: number[] } {
  const next = generator(random, swarm);
  const out = new Uint8Array(total);
  const ends: number[] = [];
  let n = 0;
  while (n < total) {
    const f = next();
    const k = Math.min(f.length, total - n);
    out.set(f.subarray(0, k), n);
    n += k;
    ends.push(n);
  }
  return { input: out, ends };
}

// ---------------------------------------------------------------- captures

const CAPTURES = new URL("../fixtures/captures/", import.meta.url);

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

/** A copy of `data` with a few random mutations (flips, inserts, deletes). */
function mutate(
  data: Uint8Array,
  random: () => number,
  fragment: () => Uint8Array,
): Uint8Array {
  const bytes = Array.from(data);
  const int = (n: number) => Math.floor(random() * n);
  const n = 1 + int(30);
  for (let k = 0; k < n && bytes.length > 0; k++) {
    const at = int(bytes.length);
    const r = random();
    if (r < 0.3) bytes[at] = int(256);
    else if (r < 0.8) bytes.splice(at, 0, ...fragment());
    else bytes.splice(at, 1 + int(64));
  }
  return new Uint8Array(bytes);
}

// ---------------------------------------------------------------- the group

interface Member {
  term: Terminal;
  replies: string[];
  events: TerminalEvent[];
  errors: number;
  /** Where A's replies / events stood when this one was restored. */
  replyStart: number;
  eventStart: number;
  /** Byte offsets of the restores that led to this terminal. */
  chain: number[];
}

interface Case {
  seed: number;
  name: string;
  input: Uint8Array;
  cols: number;
  rows: number;
  scrollback: number;
  /** Memory caps (small ones make the embed registries matter). */
  caps?: { maxImageMemory?: number; maxHtmlMemory?: number };
  /** Offsets where generated fragments end: some restores happen there. */
  ends?: number[];
}

/** Stats of a run, for the log line. */
const totals = { bytes: 0, randomBytes: 0, restores: 0, checks: 0 };

function member(
  make: (opts: {
    reply: (d: string) => void;
    onEvent: (e: TerminalEvent) => void;
    onError: () => void;
  }) => Terminal,
  replyStart: number,
  eventStart: number,
  chain: number[],
): Member {
  const m = {
    replies: [] as string[],
    events: [] as TerminalEvent[],
    errors: 0,
    replyStart,
    eventStart,
    chain,
  } as Member;
  m.term = make({
    reply: (d) => m.replies.push(d),
    onEvent: (e) => m.events.push(structuredClone(e)),
    onError: () => m.errors++,
  });
  return m;
}

/** Save the input of a failing case and describe the failure. */
function failure(c: Case, m: Member, at: number, what: string): Error {
  let file = "(not saved)";
  try {
    file = Deno.makeTempFileSync({ prefix: "snapshot_fuzz_", suffix: ".bin" });
    Deno.writeFileSync(file, c.input);
  } catch {
    // the message is what matters
  }
  return new Error(
    `snapshot fuzz mismatch: seed ${c.seed}, input ${c.name} ` +
      `(${c.cols}x${c.rows}, scrollback ${c.scrollback}${
        c.caps ? `, caps ${JSON.stringify(c.caps)}` : ""
      }, ${c.input.length} bytes, saved in ${file}); ` +
      `terminal restored at byte ${
        m.chain.join(" -> ")
      }, checked at byte ${at}: ${what}`,
  );
}

function compare(c: Case, a: Member, m: Member, at: number): void {
  totals.checks++;
  const d = modelDiff(a.term, m.term);
  if (d !== null) throw failure(c, m, at, `model: ${d}`);
  const ra = a.replies.slice(m.replyStart);
  if (ra.length !== m.replies.length || ra.some((r, i) => r !== m.replies[i])) {
    const i = ra.findIndex((r, k) => r !== m.replies[k]);
    throw failure(
      c,
      m,
      at,
      `reply ${i}: ${JSON.stringify(ra[i])} vs ${JSON.stringify(m.replies[i])}`,
    );
  }
  const ea = a.events.slice(m.eventStart);
  const ja = JSON.stringify(ea), jm = JSON.stringify(m.events);
  if (ja !== jm) {
    const i = ea.findIndex((e, k) =>
      JSON.stringify(e) !== JSON.stringify(m.events[k])
    );
    throw failure(
      c,
      m,
      at,
      `event ${i}: ${JSON.stringify(ea[i])} vs ${JSON.stringify(m.events[i])}`,
    );
  }
}

/**
 * Feed `c.input` to A in random chunks, restoring copies at `restores`
 * random offsets (chained from the newest copy, at most `live` copies kept),
 * with a few random resizes; compare all copies with A at every restore
 * and at the end.
 */
function runCase(
  c: Case,
  random: () => number,
  restores: number,
  live = 3,
): void {
  const n = c.input.length;
  const a = member(
    (o) =>
      new Terminal({
        cols: c.cols,
        rows: c.rows,
        scrollback: c.scrollback,
        ...c.caps,
        ...o,
      }),
    0,
    0,
    [],
  );
  const ends = c.ends ?? [];
  const points = Array.from(
    { length: restores },
    () =>
      ends.length > 0 && random() < 0.5
        ? ends[Math.floor(random() * ends.length)]
        : Math.floor(random() * (n + 1)),
  ).sort((x, y) => x - y);
  const copies: Member[] = [];
  const all = () => [a, ...copies];
  let pos = 0;
  let p = 0;
  while (pos < n || p < points.length) {
    // Restore at every point reached.
    while (p < points.length && points[p] <= pos) {
      const src = copies.length > 0 ? copies[copies.length - 1] : a;
      for (const m of copies) compare(c, a, m, pos);
      let snap: TerminalSnapshot;
      try {
        snap = JSON.parse(JSON.stringify(src.term.snapshot()));
      } catch (e) {
        throw failure(c, src, pos, `snapshot() threw: ${e}`);
      }
      const chain = [...src.chain, pos];
      let m: Member;
      try {
        m = member(
          (o) => Terminal.restore(snap, { ...c.caps, ...o }),
          a.replies.length,
          a.events.length,
          chain,
        );
      } catch (e) {
        throw failure(
          c,
          { chain } as Member,
          pos,
          `restore threw: ${e instanceof Error ? e.message : e}`,
        );
      }
      m.replies.length = 0;
      m.events.length = 0;
      compare(c, a, m, pos);
      totals.restores++;
      copies.push(m);
      if (copies.length > live) copies.shift();
      p++;
    }
    if (pos >= n) break;
    // The next chunk ends at the next restore point or earlier.
    const r = random();
    let len = r < 0.4
      ? 1 + Math.floor(random() * 8)
      : r < 0.9
      ? 1 + Math.floor(random() * 256)
      : 1 + Math.floor(random() * 8192);
    if (p < points.length) len = Math.min(len, points[p] - pos);
    len = Math.max(1, Math.min(len, n - pos));
    const chunk = c.input.subarray(pos, pos + len);
    for (const m of all()) m.term.write(chunk);
    pos += len;
    if (random() < 0.004) {
      const cols = 1 + Math.floor(random() * 100);
      const rows = 1 + Math.floor(random() * 40);
      for (const m of all()) m.term.resize(cols, rows);
    }
    if (random() < 0.002) {
      const w = 4 + Math.floor(random() * 12),
        h = 8 + Math.floor(random() * 20);
      for (const m of all()) m.term.setCellSize(w, h);
    }
  }
  for (const m of copies) compare(c, a, m, n);
  for (const m of all()) {
    if (m.errors !== a.errors) {
      throw failure(c, m, n, `${m.errors} errors vs ${a.errors} in A`);
    }
  }
  totals.bytes += n;
}

// ---------------------------------------------------------------- tests

/** Random bytes per seed (two seeds: 3 MiB in all). */
const RANDOM_BYTES_PER_SEED = 3 << 19;

for (const seed of SEEDS) {
  Deno.test(`snapshot fuzz: captures, restored at random points (seed ${seed})`, () => {
    const random = rng(seed);
    const fragment = generator(random);
    const t0 = performance.now();
    const before = totals.bytes;
    for (const [name, data] of loadCaptures()) {
      for (let round = 0; round < 6; round++) {
        const mutated = round >= 4;
        runCase(
          {
            seed,
            name: `${name}${mutated ? " (mutated)" : ""} round ${round}`,
            input: mutated ? mutate(data, random, fragment) : data,
            cols: round === 2 ? 1 + Math.floor(random() * 100) : 80,
            rows: round === 2 ? 1 + Math.floor(random() * 40) : 24,
            scrollback: round === 1 ? 50 : 200,
          },
          random,
          3 + Math.floor(random() * 10),
        );
      }
    }
    console.log(
      `snapshot fuzz: captures, seed ${seed}: ${totals.bytes - before} bytes, ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s`,
    );
  });

  Deno.test(`snapshot fuzz: random input, restored at random points (seed ${seed})`, () => {
    const random = rng(seed ^ 0x51ab5);
    const t0 = performance.now();
    let bytes = 0, cases = 0;
    while (bytes < RANDOM_BYTES_PER_SEED) {
      const size = 2048 + Math.floor(random() * 30000);
      const swarm = random() < 0.5;
      const { input, ends } = randomInput(random, size, swarm);
      const small = random() < 0.2;
      const capped = random() < 0.3;
      runCase(
        {
          seed,
          name: `random case ${cases}${swarm ? " (swarm)" : ""}`,
          input,
          ends,
          caps: capped
            ? {
              maxImageMemory: 100 + Math.floor(random() * 2000),
              maxHtmlMemory: 50 + Math.floor(random() * 500),
            }
            : undefined,
          cols: small
            ? 1 + Math.floor(random() * 6)
            : 1 + Math.floor(random() * 100),
          rows: small
            ? 1 + Math.floor(random() * 4)
            : 1 + Math.floor(random() * 40),
          scrollback: Math.floor(random() * 300),
        },
        random,
        3 + Math.floor(random() * 12),
      );
      bytes += size;
      cases++;
    }
    totals.randomBytes += bytes;
    console.log(
      `snapshot fuzz: random input, seed ${seed}: ${bytes} bytes in ${cases} cases, ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s; so far ${totals.restores} restores, ${totals.checks} comparisons, ` +
        `${totals.randomBytes} random bytes`,
    );
  });
}
