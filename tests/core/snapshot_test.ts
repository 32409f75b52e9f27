/**
 * `Terminal.snapshot()` / `Terminal.restore()`: table-driven. Each row
 * feeds `before` to a terminal A, restores B from A's snapshot (through
 * JSON), and C from B's, then feeds `after` to all three: their models
 * (modelDiff), replies and events must stay the same. One row per piece of
 * state the snapshot holds, with an `after` that makes it observable; a
 * row's `check` looks at A afterwards, to prove that `after` really
 * exercised that state.
 *
 * Then malformed snapshots: restore must throw an Error with a message,
 * quickly.
 */
import {
  Terminal,
  type TerminalOptions,
  type TerminalSnapshot,
} from "../../core/emulator/terminal.ts";
import type { TerminalEvent } from "../../core/terminal_view.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import {
  A_CLUSTER,
  A_ERROR,
  A_PROTECTED,
  A_WIDE,
  A_WIDE_TAIL,
} from "../../core/model/cell.ts";
import {
  assert,
  assertEquals,
  checkCells,
  checkInvariants,
  CSI,
  DCS,
  ESC,
  OSC,
  rng,
  screenLine,
  screenLines,
  screenText,
  ST,
  TINY_PNG,
} from "./helpers.ts";

const enc = new TextEncoder();
const BEL = "\x07";
const SO = "\x0e", SI = "\x0f";

/** One step of input: bytes, or an action on the terminal (resize...). */
type Step = string | Uint8Array | ((t: Terminal) => void);

/** A terminal plus what it sent back since `clear()`. */
interface Recorded {
  term: Terminal;
  replies: string[];
  events: TerminalEvent[];
  errors: unknown[];
}

interface Row {
  name: string;
  cols?: number;
  rows?: number;
  scrollback?: number;
  /** Caps for all terminals of the row (restore gets them too). */
  options?: Pick<TerminalOptions, "maxImageMemory" | "maxHtmlMemory">;
  before: Step | Step[];
  after: Step | Step[];
  /** Checks on A after `after` (what A replied after the snapshot). */
  check?: (a: Recorded) => void;
}

function steps(s: Step | Step[]): Step[] {
  return Array.isArray(s) ? s : [s];
}

function run(t: Terminal, s: Step | Step[]): void {
  for (const step of steps(s)) {
    if (typeof step === "function") step(t);
    else t.write(step);
  }
}

/** Callbacks that record into `r` (the terminal is filled in later). */
function recorder(): [Recorded, Omit<TerminalOptions, "cols" | "rows">] {
  const r: Recorded = {
    term: undefined as unknown as Terminal,
    replies: [],
    events: [],
    errors: [],
  };
  return [r, {
    reply: (d) => r.replies.push(d),
    onEvent: (e) => r.events.push(structuredClone(e)),
    onError: (e) => r.errors.push(e),
  }];
}

/** A snapshot as it comes back from the wire. */
export function throughJson(s: TerminalSnapshot): TerminalSnapshot {
  return JSON.parse(JSON.stringify(s));
}

/** Throw if `v` holds anything JSON would change (undefined in arrays, NaN, Map...). */
export function checkJsonSafe(v: unknown, path = "snapshot"): void {
  if (v === null) return;
  switch (typeof v) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (!Number.isFinite(v)) throw new Error(`${path} is ${v}`);
      return;
    case "object":
      break;
    default:
      throw new Error(`${path} is a ${typeof v}`);
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      if (x === undefined) throw new Error(`${path}[${i}] is undefined`);
      checkJsonSafe(x, `${path}[${i}]`);
    });
    return;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    throw new Error(`${path} is a ${proto?.constructor?.name ?? "?"}`);
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x !== undefined) checkJsonSafe(x, `${path}.${k}`);
  }
}

function same(what: string, a: Recorded, b: Recorded): void {
  const d = modelDiff(a.term, b.term);
  if (d !== null) throw new Error(`${what}: model differs: ${d}`);
  if (modelHash(a.term) !== modelHash(b.term)) {
    throw new Error(`${what}: model hashes differ`);
  }
  assertEquals(b.replies, a.replies, `${what}: replies`);
  assertEquals(b.events, a.events, `${what}: events`);
  if (a.errors.length + b.errors.length > 0) {
    throw a.errors[0] ?? b.errors[0];
  }
}

/** Run one row: A fed before; B restored from A, C from B; all fed after. */
function runRow(row: Row): Recorded {
  const cols = row.cols ?? 80, rows = row.rows ?? 24;
  const [a, optsA] = recorder();
  a.term = new Terminal({
    cols,
    rows,
    scrollback: row.scrollback,
    ...row.options,
    ...optsA,
  });
  run(a.term, row.before);
  if (a.errors.length > 0) throw a.errors[0];
  const snap = a.term.snapshot();
  checkJsonSafe(snap);
  assertEquals(snap.v, 1);
  const [b, optsB] = recorder();
  b.term = Terminal.restore(throughJson(snap), { ...row.options, ...optsB });
  const [c, optsC] = recorder();
  c.term = Terminal.restore(throughJson(b.term.snapshot()), {
    ...row.options,
    ...optsC,
  });
  for (const r of [a, b, c]) {
    r.replies.length = 0;
    r.events.length = 0;
  }
  same("right after restore (B)", a, b);
  same("right after restore (C)", a, c);
  for (const r of [a, b, c]) run(r.term, row.after);
  for (const r of [a, b, c]) {
    checkInvariants(r.term);
    checkCells(r.term);
  }
  same("after (B)", a, b);
  same("after (C)", a, c);
  return a;
}

// ---------------------------------------------------------------- inputs

const decrqss = (q: string) => `${DCS}$q${q}${ST}`;
const decrqm = (m: number) => `${CSI}?${m}$p`;
const resize = (c: number, r: number) => (t: Terminal) => t.resize(c, r);
const lines = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i) + "\r\n").join("");

/** A sixel image of `w` columns and 2 bands. */
const sixel = (body = "~~~~-~~~~") =>
  `${DCS}0;1;0q"1;1;4;12#0;2;100;0;0#0${body}${ST}`;
const png = (name = "a.png") =>
  `${OSC}1337;File=inline=1;name=${btoa(name)};size=${
    atob(TINY_PNG).length
  }:${TINY_PNG}${BEL}`;

/** An inline OSC 72 fragment whose children OSC 721 can replace by `key`. */
const keyed = (key: string) =>
  `${OSC}72;<span class="can-replace-children" replace-key="${key}">old</span>${ST}`;

/** Replies of `a` (after the snapshot) as one string. */
const replied = (a: Recorded) => a.replies.join("");

function has(a: Recorded, ...parts: string[]): void {
  const r = replied(a);
  for (const p of parts) {
    assert(
      r.includes(p),
      `replies ${JSON.stringify(r)} lack ${JSON.stringify(p)}`,
    );
  }
}

function titles(a: Recorded): string[] {
  return a.events.flatMap((e) => e.type === "title" ? [e.title] : []);
}

/** The extras of every line of the active buffer, as JSON (functions dropped). */
function extrasText(t: Terminal): string {
  const out: unknown[] = [];
  const b = t.buffer;
  for (let i = 0; i < b.length; i++) {
    const e = b.getLine(i).extras;
    if (e) out.push(e);
  }
  return JSON.stringify(out);
}

const ROWS: Row[] = [
  {
    name: "empty terminal",
    before: "",
    after: `hello${CSI}6n`,
    check: (a) => has(a, `${CSI}1;6R`),
  },
  // ------------------------------------------------------------ cursor
  {
    name: "cursor position and pending wrap",
    before: "x".repeat(80),
    after: `y${CSI}6n`,
    check: (a) => {
      has(a, `${CSI}2;2R`);
      assertEquals(screenLines(a.term)[1], "y");
    },
  },
  {
    name: "pending wrap with a wide character next",
    cols: 10,
    before: "abcdefghi",
    after: `字${CSI}6n`,
    check: (a) => has(a, `${CSI}2;3R`),
  },
  {
    name: "pen: SGR with 38:2 and 58 underline colour, queried by DECRQSS",
    before: `${CSI}1;3;4:3;38:2::10:20:30;48;5;99;58:2::1:2:3m`,
    after: `styled${decrqss("m")}`,
    check: (a) => has(a, "1$r0;1;3;4:3;38;2;10;20;30;48;5;99;58;2;1;2;3m"),
  },
  {
    name: "saved cursor (DECSC) with bold red, DECRC after restore",
    before: `${CSI}5;5H${CSI}1;31mab${ESC}7${CSI}m${CSI}H`,
    after: `${CSI}1;1H${ESC}8x${decrqss("m")}`,
    check: (a) => {
      assertEquals(screenLines(a.term)[4], "    abx");
      has(a, "1$r0;1;31m");
    },
  },
  {
    name:
      "saved cursor of each screen (?1049 and DECSC on the alternate screen)",
    before: `${CSI}3;3H${CSI}?1049h${CSI}6;6H${CSI}32m${ESC}7${CSI}m${CSI}H`,
    after: `${ESC}8A${CSI}?1049lB${ESC}8C${decrqss("m")}${CSI}6n`,
    check: (a) => {
      assertEquals(screenLines(a.term)[2], "  C");
      has(a, `${CSI}3;4R`);
    },
  },
  {
    name: "?1048 saved cursor, reported by DECRQM",
    before: `${CSI}4;7H${CSI}?1048h${CSI}H`,
    after: `${decrqm(1048)}${CSI}?1048lx${CSI}6n`,
    check: (a) => has(a, `${CSI}?1048;1$y`, `${CSI}4;8R`),
  },
  {
    name: "SCOSC / SCORC",
    before: `${CSI}2;9H${CSI}s${CSI}H`,
    after: `${CSI}uy${CSI}6n`,
    check: (a) => has(a, `${CSI}2;10R`),
  },
  {
    name: "saved cursor keeps origin mode and charsets",
    before: `${CSI}5;10r${CSI}?6h${ESC}(0${ESC}7${ESC}(B${CSI}?6l`,
    after: `${ESC}8q${CSI}6n`,
    check: (a) => {
      has(a, `${CSI}1;2R`);
      assertEquals(screenLines(a.term)[4], "─");
    },
  },
  {
    name: "DECSCA protected pen and selective erase",
    before: `${CSI}1"qprot`,
    after: `${decrqss('"q')}more${CSI}0"q free\r${CSI}?2K`,
    check: (a) => {
      has(a, '1$r1"q');
      assertEquals(screenLines(a.term)[0], "protmore");
      assert((screenLine(a.term, 0).attr(0) & A_PROTECTED) !== 0);
    },
  },
  {
    name: "error output (DomTerm CSI 12 u)",
    before: `${CSI}12u`,
    after: `err${CSI}11uok`,
    check: (a) => {
      assert((screenLine(a.term, 0).attr(0) & A_ERROR) !== 0);
      assert((screenLine(a.term, 0).attr(3) & A_ERROR) === 0);
    },
  },
  {
    name: "OSC 8 link open at the snapshot",
    before: `${OSC}8;id=7;http://example.com/${ST}li`,
    after: `nk${OSC}8;;${ST} plain`,
    check: (a) => {
      const l = screenLine(a.term, 0);
      assertEquals(a.term.ext(l.attr(3) >>> 16).link, "http://example.com/");
      assertEquals(l.attr(5) >>> 16, 0);
    },
  },
  {
    name: "cursor style (DECSCUSR) and blink",
    before: `${CSI}4 q`,
    after: decrqss(" q"),
    check: (a) => has(a, "1$r4 q"),
  },
  // ------------------------------------------------------------ modes
  {
    name: "IRM insert mode",
    before: `abc${CSI}4h${CSI}1G`,
    after: `XY${CSI}4$p`,
    check: (a) => {
      assertEquals(screenText(a.term), "XYabc");
      has(a, `${CSI}4;1$y`);
    },
  },
  {
    name: "DECAWM off",
    before: `${CSI}?7l`,
    after: "x".repeat(100) + "y",
    check: (a) => assertEquals(screenText(a.term), "x".repeat(79) + "y"),
  },
  {
    name: "LNM newline mode",
    before: `${CSI}20h`,
    after: `ab\ncd${CSI}20$p`,
    check: (a) => assertEquals(screenText(a.term), "ab\ncd"),
  },
  {
    name: "DEC private modes, modifyOtherKeys and keypad, queried",
    before: `${CSI}?1h${CSI}?5h${CSI}?12h${CSI}?25l${CSI}?45h${CSI}?66h` +
      `${CSI}?1004h${CSI}?1007h${CSI}?2004h${CSI}?2026h${CSI}?1002h` +
      `${CSI}?1006h${CSI}?40h${CSI}?42h${CSI}>4;2m${ESC}=`,
    after: [1, 5, 12, 25, 45, 66, 1004, 1007, 2004, 2026, 1002, 1006, 40, 42]
      .map(decrqm).join("") + `${CSI}?4m${CSI}?2026l${CSI}?1002l`,
    check: (a) => has(a, `${CSI}?2004;1$y`, `${CSI}?25;2$y`, `${CSI}>4;2m`),
  },
  {
    name: "reverse wraparound (?45) across a soft wrap",
    before: `${CSI}?45h` + "x".repeat(85),
    after: `\r\b\bZ${CSI}6n`,
    check: (a) => has(a, `${CSI}1;80R`),
  },
  {
    name: "DECCOLM with ?40 (132-column flag)",
    before: `${CSI}?40h${CSI}?3h`,
    after: `${decrqm(3)}${CSI}?3lx`,
    check: (a) => has(a, `${CSI}?3;1$y`),
  },
  {
    name: "origin mode inside a scroll region",
    before: `${CSI}5;15r${CSI}?6h`,
    after: `${CSI}3;4HX${CSI}6n`,
    check: (a) => {
      has(a, `${CSI}3;5R`);
      assertEquals(screenLines(a.term)[6], "   X");
    },
  },
  {
    name: "XTSAVE, change, XTRESTORE after restore, DECRQM",
    before: `${CSI}?1h${CSI}?2004h${CSI}?1;2004s${CSI}?1l${CSI}?2004l`,
    after: `${decrqm(1)}${CSI}?1;2004r${decrqm(1)}${decrqm(2004)}`,
    check: (a) =>
      assertEquals(a.replies, [
        `${CSI}?1;2$y`,
        `${CSI}?1;1$y`,
        `${CSI}?2004;1$y`,
      ]),
  },
  {
    name: "kitty keyboard stacks of both screens",
    before: `${CSI}>5u${CSI}?1049h${CSI}>1u`,
    after: `${CSI}?u${CSI}?1049l${CSI}?u${CSI}<u${CSI}?u${CSI}?1049h${CSI}?u`,
    check: (a) =>
      assertEquals(a.replies, [
        `${CSI}?1u`,
        `${CSI}?5u`,
        `${CSI}?0u`,
        `${CSI}?1u`,
      ]),
  },
  {
    name: "kitty keyboard: pushed entries and CSI = u",
    before: `${CSI}>1u${CSI}>3u${CSI}=4;2u`,
    after: `${CSI}?u${CSI}<u${CSI}?u${CSI}<u${CSI}?u`,
    check: (a) =>
      assertEquals(a.replies, [`${CSI}?7u`, `${CSI}?1u`, `${CSI}?0u`]),
  },
  // ------------------------------------------------------------ margins, tabs
  {
    name: "scroll region (DECSTBM) then scrolling",
    before: `${CSI}5;10r` + lines(12, (i) => `line ${i}`),
    after: `${CSI}10;1H\n\n\nX${CSI}2S${CSI}2T${CSI}L${decrqss("r")}`,
    check: (a) => has(a, "1$r5;10r"),
  },
  {
    name: "left/right margins (DECSLRM with ?69) then scrolling and wrapping",
    before: `${CSI}?69h${CSI}10;30s${CSI}3;8r` + "abcdefghij".repeat(20),
    after: `${CSI}8;30Hwrap here${CSI}S${CSI}2@${decrqss("s")}${CSI}6n`,
    check: (a) => has(a, "1$r10;30s"),
  },
  {
    name: "tab stops: HTS and TBC, then HT",
    before: `${CSI}3g${CSI}5G${ESC}H${CSI}13G${ESC}H${CSI}30G${ESC}H` +
      `${CSI}40G${ESC}H${CSI}30G${CSI}0g\r`,
    after: `\ta\tb\tc\td${CSI}6n`,
    check: (a) => {
      const text = screenText(a.term);
      assertEquals(
        ["a", "b", "c", "d"].map((c) => text.indexOf(c)),
        [4, 12, 39, 79],
      );
      has(a, `${CSI}1;80R`);
    },
  },
  {
    name: "tab stops survive a resize after restore",
    before: `${CSI}3g${CSI}7G${ESC}H\r`,
    after: [resize(100, 24), `\tx\ty`],
    check: (a) => assertEquals(screenText(a.term).indexOf("x"), 6),
  },
  // ------------------------------------------------------------ charsets
  {
    name: "charsets: G0 DEC graphics",
    before: `${ESC}(0`,
    after: "lqk",
    check: (a) => assertEquals(screenText(a.term), "┌─┐"),
  },
  {
    name: "charsets: G1 invoked with SO",
    before: `${ESC})0${SO}`,
    after: `lqk${SI}lqk`,
    check: (a) => assertEquals(screenText(a.term), "┌─┐lqk"),
  },
  {
    name: "charsets: single shift SS2 pending",
    before: `${ESC}*0${ESC}N`,
    after: "qq",
    check: (a) => assertEquals(screenText(a.term), "─q"),
  },
  {
    name: "charsets: LS3 (G3 into GL)",
    before: `${ESC}+0${ESC}o`,
    after: "lqk",
    check: (a) => assertEquals(screenText(a.term), "┌─┐"),
  },
  {
    name: "charsets: national replacement set with ?42",
    before: `${CSI}?42h${ESC}(A`,
    after: "#1",
    check: (a) => assertEquals(screenText(a.term), "£1"),
  },
  // ------------------------------------------------------------ colours, titles
  {
    name:
      "palette (OSC 4) and dynamic colours (OSC 10/11/12) set, then queried",
    before: `${OSC}4;1;#123456;200;rgb:ff/00/80${ST}${OSC}10;#abcdef${ST}` +
      `${OSC}11;#010203${ST}${OSC}12;#fedcba${ST}`,
    after: `${OSC}4;1;?${ST}${OSC}4;200;?${BEL}${OSC}10;?${ST}${OSC}11;?${ST}` +
      `${OSC}12;?${ST}${OSC}104;1${ST}${OSC}4;1;?${ST}`,
    check: (a) =>
      has(a, "4;1;rgb:1212/3434/5656", "11;rgb:0101/0202/0303", "12;rgb:fefe"),
  },
  {
    name: "title and icon title",
    before: `${OSC}1;icon${ST}${OSC}2;window${ST}`,
    after:
      `${CSI}22;1t${OSC}1;other${ST}${CSI}23;1t${CSI}22t${OSC}0;x${ST}${CSI}23t`,
  },
  {
    name: "title stack: CSI 22 t, OSC 2, CSI 23 t",
    before: `${OSC}2;first${ST}${CSI}22;0t${OSC}2;second${ST}${CSI}22;2t` +
      `${OSC}2;third${ST}`,
    after: `${CSI}23;2t${CSI}23;0t${CSI}23t`,
    check: (a) => assertEquals(titles(a), ["second", "first"]),
  },
  {
    name: "cwd (OSC 7)",
    before: `${OSC}7;file://host/home/me${ST}`,
    after: `x${OSC}7;file://host/tmp${ST}`,
  },
  // ------------------------------------------------------------ REP, clusters
  {
    name: "REP after a printed character",
    before: "ab",
    after: `${CSI}3b`,
    check: (a) => assertEquals(screenText(a.term), "abbbb"),
  },
  {
    name: "REP after a wide character",
    before: "字",
    after: `${CSI}2b`,
    check: (a) => assertEquals(screenText(a.term), "字字字"),
  },
  {
    name: "a combining mark joins the character printed before the snapshot",
    before: "e",
    after: "\u0301\u0302x",
    check: (a) => assertEquals(screenText(a.term), "e\u0301\u0302x"),
  },
  {
    name: "ZWJ at the snapshot: the next emoji joins",
    before: "👨\u200d",
    after: "👩\u200d👧 x",
  },
  {
    name: "VS16 after the snapshot widens the character",
    before: "❤",
    after: `\ufe0fx${CSI}6n`,
  },
  {
    name: "second regional indicator after the snapshot",
    before: "🇩",
    after: `🇪x${CSI}6n`,
  },
  // ------------------------------------------------------------ mid-sequence
  {
    name: "split inside a CSI",
    before: `ab${CSI}3`,
    after: `1mred${CSI}m`,
    check: (a) => assertEquals(screenLine(a.term, 0).fg(2) !== 0, true),
  },
  {
    name: "split inside a private CSI",
    before: `${CSI}?10`,
    after: `49hx`,
    check: (a) => assert(a.term.buffer.isAlt),
  },
  {
    name: "split after ESC",
    before: `x${ESC}`,
    after: "(0q",
    check: (a) => assertEquals(screenText(a.term), "x─"),
  },
  {
    name: "split inside a UTF-8 character",
    before: new Uint8Array([0x61, 0xe5, 0xad]),
    after: new Uint8Array([0x97, 0x62]),
    check: (a) => assertEquals(screenText(a.term), "a字b"),
  },
  {
    name: "split after the first byte of a 4-byte UTF-8 character",
    before: enc.encode("😀").subarray(0, 1),
    after: enc.encode("😀").subarray(1),
    check: (a) => assertEquals(screenText(a.term), "😀"),
  },
  {
    name: "split inside an OSC 2 title",
    before: `${OSC}2;half ti`,
    after: `tle${ST}x`,
    check: (a) => assertEquals(titles(a), ["half title"]),
  },
  {
    name: "split between the ESC and the \\ of an OSC's ST",
    before: `${OSC}2;t${ESC}`,
    after: "\\y",
    check: (a) => {
      assertEquals(a.term.title, "t");
      assertEquals(screenText(a.term), "y");
    },
  },
  {
    name: "split inside a sixel DCS",
    before: `${DCS}0;1;0q"1;1;4;12#0;2;100;0;0#0~~`,
    after: `~~-~~~~${ST}after`,
    check: (a) => assert(extrasText(a.term).includes("image/x-sixel")),
  },
  {
    name: "split inside a DECRQSS",
    before: `${DCS}$`,
    after: `qm${ST}`,
    check: (a) => has(a, "1$r"),
  },
  {
    name: "split inside an OSC 72 fragment",
    before: `${OSC}72;<div>hal`,
    after: `f</div>${ST}`,
    check: (a) => assert(extrasText(a.term).includes("<div>half</div>")),
  },
  {
    name: "split inside an APC string",
    before: `${ESC}_Gsome`,
    after: `thing${ST}x`,
    check: (a) => assertEquals(screenText(a.term), "x"),
  },
  {
    name: "split inside an OSC 1337 image",
    before: png().slice(0, 40),
    after: png().slice(40) + "after",
    check: (a) => assert(extrasText(a.term).includes("image/png")),
  },
  // ------------------------------------------------------------ embeds
  {
    name: "image: OSC 1337 File= PNG, then reflow",
    before: `text${png()}more`,
    after: [resize(30, 24), "x", resize(90, 20)],
    check: (a) => assert(extrasText(a.term).includes("image/png")),
  },
  {
    name: "image: sixel, then reflow",
    before: `text\r\n${sixel()}more`,
    after: [resize(30, 24), "x", resize(90, 20)],
    check: (a) => assert(extrasText(a.term).includes("image/x-sixel")),
  },
  {
    name: "image memory cap counts the images from before the snapshot",
    options: { maxImageMemory: 300 },
    before: `${sixel("~".repeat(200))}`,
    after: `${sixel("?".repeat(200))}`,
    check: (a) => assert(extrasText(a.term).includes('"evicted":true')),
  },
  {
    name: "HTML memory cap counts the fragments from before the snapshot",
    options: { maxHtmlMemory: 100 },
    before: `${OSC}72;<div>${"a".repeat(60)}</div>${ST}`,
    after: `${OSC}72;<div>${"b".repeat(60)}</div>${ST}`,
    check: (a) => assert(!extrasText(a.term).includes("a".repeat(60))),
  },
  {
    name: "OSC 72 block and inline fragments, then reflow",
    before: `${OSC}72;<div>block</div>${ST}ab${OSC}72;<b>in</b>${ST}cd`,
    after: [resize(3, 24), "more", resize(80, 24)],
    check: (a) => assert(extrasText(a.term).includes("<b>in</b>")),
  },
  {
    name: "OSC 721 replaces a keyed block inserted before the snapshot",
    before:
      `${OSC}72;<div class="can-replace-children" replace-key="k1">old</div>${ST}` +
      "text\r\n",
    after: `${OSC}721;k1;<b>new</b>${ST}`,
    check: (a) => assert(extrasText(a.term).includes("<b>new</b>")),
  },
  {
    name:
      "OSC 721 replaces a keyed inline fragment inserted before the snapshot",
    before:
      `x${OSC}72;<span class="can-replace-children" replace-key="p">0%</span>${ST}`,
    after: `${OSC}721;p;50%${ST}`,
    check: (a) => assert(extrasText(a.term).includes(">50%</span>")),
  },
  {
    name: "OSC 721 finds a key that scrolled into history before the snapshot",
    rows: 5,
    before:
      `${OSC}72;<div class="can-replace-children" replace-key="h">old</div>${ST}` +
      lines(30, (i) => `l${i}`),
    after: `${OSC}721;h;new${ST}`,
    check: (a) => {
      const l = a.term.normalBuffer.getLine(0);
      assert(l.extras?.block?.html.includes(">new</div>"));
    },
  },
  {
    name:
      "OSC 721 after switching back to the screen where its key was last inserted",
    rows: 8,
    before: `${CSI}6;1Hx${keyed("k")}${CSI}3;1Hy${keyed("k")}${CSI}?47h`,
    after: `${CSI}?47l${OSC}721;k;NEW${ST}`,
    check: (a) => {
      // The hint (row 2, inserted last) wins over the search from the bottom.
      const inline = screenLine(a.term, 2).extras?.inline ?? [];
      assert(inline[0]?.html.includes(">NEW</span>"), JSON.stringify(inline));
    },
  },
  {
    name: "marks cleared below a new prompt (empty extras), then fewer rows",
    cols: 20,
    rows: 5,
    before: `\r\n\r\n\r\n${OSC}133;B${ST}${CSI}2H${OSC}133;A${ST}`,
    after: [resize(20, 2), `${CSI}6n`],
    check: (a) => {
      // Row 3 still counts as content: the top row went into history.
      assertEquals(a.term.normalBuffer.historyLength, 1);
      has(a, `${CSI}1;1R`);
    },
  },
  {
    name: "OSC 133 shell marks, then more marks and a reflow",
    before: `${OSC}133;A${ST}$ ${OSC}133;B${ST}ls\r\n${OSC}133;C${ST}out\r\n` +
      `${OSC}133;D;0${ST}${OSC}133;A;aid=4${ST}$ `,
    after: [`${OSC}133;B${ST}cmd\r\n${OSC}133;C${ST}`, resize(20, 24)],
    check: (a) => assert(extrasText(a.term).includes("output-start")),
  },
  // ------------------------------------------------------------ pretty printing
  {
    name:
      "pretty printing: an open block at the snapshot, the rest after, resize",
    before: `${OSC}110;"("${BEL}defun${OSC}116;"",""," "${BEL}name` +
      `${OSC}110;"("${BEL}args`,
    after: [
      `${OSC}111${BEL}${OSC}116;"",""," "${BEL}body-form-number-one` +
      `${OSC}116;"",""," "${BEL}body-two)${OSC}111${BEL}`,
      resize(30, 24),
      resize(100, 24),
    ],
    check: (a) => assert(screenText(a.term).includes("(defun name(args")),
  },
  {
    name: "pretty printing: a printed block laid out again after restore",
    before: `${OSC}110;"("${BEL}${
      "abcdefgh".split("").map((c) => c.repeat(8)).join(
        `${OSC}115;"",""," "${BEL}`,
      )
    })${OSC}111${BEL}`,
    after: [resize(40, 24), resize(20, 24), resize(100, 24)],
    check: (a) => assert(screenText(a.term).includes("hhhhhhhh)")),
  },
  // ------------------------------------------------------------ screens, history
  {
    name: "alternate screen with content, then ?1049l",
    before: `main text${CSI}?1049h${CSI}2;2Halt content`,
    after: `${CSI}?1049l more${CSI}6n`,
    check: (a) => assertEquals(screenText(a.term), "main text more"),
  },
  {
    name: "alternate screen shown at the snapshot, then resize",
    before: `main${CSI}?1049h${CSI}2;2Halt content`,
    after: [resize(40, 10), "x", resize(100, 30), `${CSI}?1049l`],
  },
  {
    name: "?47 alternate content kept across a switch",
    before: `${CSI}?47halt47${CSI}?47lnormal`,
    after: `${CSI}?47hX`,
    check: (a) => assertEquals(screenText(a.term), "alt47      X"),
  },
  {
    name: "?1047 clears the alternate screen when leaving",
    before: `${CSI}?1047hfoo`,
    after: `${CSI}?1047l${CSI}?47hX`,
  },
  {
    name: "scrollback history of 150 lines, then resize (reflow)",
    cols: 40,
    rows: 10,
    scrollback: 1000,
    before: lines(
      150,
      (i) =>
        `${CSI}3${i % 8}mline ${i} ${"字é".repeat(i % 7)}${"x".repeat(i % 50)}`,
    ),
    after: [
      resize(25, 8),
      "more text",
      resize(70, 12),
      lines(5, (i) => `${i}`),
    ],
    check: (a) => assert(a.term.normalBuffer.historyLength > 100),
  },
  {
    name: "soft-wrapped lines joined by a reflow",
    before: "x".repeat(100) + "\r\n" + "y".repeat(170),
    after: [resize(120, 24), resize(50, 24)],
  },
  {
    name: "scrollback limit",
    rows: 5,
    scrollback: 20,
    before: lines(30, (i) => `a${i}`),
    after: lines(30, (i) => `b${i}`),
    check: (a) => assertEquals(a.term.normalBuffer.historyLength, 20),
  },
  {
    name: "unlimited scrollback (Infinity)",
    rows: 5,
    scrollback: Infinity,
    before: lines(30, (i) => `a${i}`),
    after: lines(30, (i) => `b${i}`),
    check: (a) => assertEquals(a.term.normalBuffer.scrollback, Infinity),
  },
  {
    name: "DEC line sizes (DECDWL, DECDHL)",
    before: `${ESC}#6wide\r\n${ESC}#3top\r\n${ESC}#4bot\r\n`,
    after: [`${CSI}1;1Hxy${CSI}3;30Hz`, resize(60, 24), `${CSI}2;39Hw`],
  },
  {
    name: "cell pixel size, reported by CSI 14 t / 16 t",
    before: (t) => t.setCellSize(9.5, 19),
    after: `${CSI}14t${CSI}16t`,
    check: (a) => has(a, `${CSI}6;19;10t`),
  },
  {
    name: "DECSACE rectangle extent, then DECCARA",
    before: `${CSI}2*x` + lines(4, () => "abcdefghij"),
    after: `${CSI}1;3;3;5;1$r`,
    check: (a) => {
      // A rectangle: row 2 column 1 is not bold.
      assertEquals(screenLine(a.term, 1).attr(0) & 1, 0);
      assertEquals(screenLine(a.term, 1).attr(2) & 1, 1);
    },
  },
  {
    name: "DECRQCRA checksum of content from before the snapshot",
    before: `${CSI}1;31mhello${CSI}m\r\nworld`,
    after: `${CSI}1;1;1;1;2;10*y`,
    check: (a) => has(a, "1!~"),
  },
  {
    name: "DECSTR after restore",
    before: `${CSI}?6h${CSI}4h${CSI}?7l${CSI}1;31m${CSI}3;10r${ESC}(0`,
    after: `${CSI}!p${decrqss("m")}${decrqss("r")}${decrqm(7)}q`,
  },
  {
    name: "RIS after restore keeps history",
    rows: 5,
    before: lines(10, (i) => `h${i}`) + `${CSI}?1049h${OSC}4;1;#111111${ST}`,
    after: `${ESC}c${OSC}4;1;?${ST}${decrqm(1049)}x`,
  },
  {
    name: "a resize before the snapshot (margins reset, tabs extended)",
    before: [`${CSI}3;8r`, resize(100, 30), `${CSI}90G${ESC}H\r`],
    after: `\t\t\t\t\t\t\t\t\t\t\tX${decrqss("r")}`,
  },
  {
    name: "a 1x1 terminal",
    cols: 1,
    rows: 1,
    before: "ab字",
    after: `c${CSI}6n`,
  },
];

for (const row of ROWS) {
  Deno.test(`snapshot: ${row.name}`, () => {
    const a = runRow(row);
    row.check?.(a);
  });
}

// ---------------------------------------------------------------- malformed

/** `fn` must throw an Error with a message, within a second. */
function mustThrow(what: string, fn: () => unknown): void {
  const t0 = performance.now();
  let thrown: unknown = undefined;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  const ms = performance.now() - t0;
  assert(thrown !== undefined, `${what}: restore did not throw`);
  assert(thrown instanceof Error, `${what}: threw ${String(thrown)}`);
  assert(thrown.message.length > 0, `${what}: empty message`);
  assert(ms < 1000, `${what}: took ${ms.toFixed(0)} ms`);
}

/** A snapshot with some of everything. */
function richSnapshot(): Record<string, unknown> {
  const t = new Terminal({ cols: 30, rows: 6, scrollback: 50 });
  t.write(
    lines(
      20,
      (i) => `${CSI}3${i % 8}ml${i} 字 e\u0301 👨\u200d👩${OSC}133;A${ST}`,
    ) +
      `${OSC}8;;http://x/${ST}link${OSC}8;;${ST}${OSC}72;<div>b</div>${ST}` +
      `${keyed("k")}${png()}${OSC}2;t${ST}${CSI}22t${CSI}>5u${CSI}?1s` +
      `${OSC}4;3;#102030${ST}${CSI}4:3;58;5;9m${ESC}(0${ESC}7${CSI}m${ESC}(B` +
      `${OSC}110;"("${BEL}${OSC}110;"["${BEL}pretty${OSC}116;"",""," "${BEL}` +
      `${sixel()}${CSI}?1049halt${CSI}5;5H${ESC}7${CSI}2;4r${CSI}3g\x1b[?6`,
  );
  return throughJson(t.snapshot()) as unknown as Record<string, unknown>;
}

const restore = (s: unknown) =>
  Terminal.restore(s as TerminalSnapshot, { reply: () => {} });

Deno.test("snapshot: restore refuses what is not a snapshot", () => {
  for (
    const [what, s] of [
      ["undefined", undefined],
      ["null", null],
      ["a number", 1],
      ["a string", "snapshot"],
      ["an array", []],
      ["{}", {}],
      ["{ v: 1 } only", { v: 1 }],
    ] as [string, unknown][]
  ) mustThrow(what, () => restore(s));
});

Deno.test("snapshot: restore refuses another version", () => {
  const good = richSnapshot();
  restore(good); // the unchanged one is fine
  for (const v of [0, 2, "1", null, 1.5, -1]) {
    mustThrow(`v ${JSON.stringify(v)}`, () => restore({ ...good, v }));
  }
  const { v: _v, ...noVersion } = good;
  mustThrow("no v", () => restore(noVersion));
});

/** Every [path, value] of `v` (objects and arrays, depth first). */
function paths(
  v: unknown,
  path: (string | number)[] = [],
  out: [(string | number)[], unknown][] = [],
): [(string | number)[], unknown][] {
  out.push([path, v]);
  if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      paths(x, [...path, Array.isArray(v) ? Number(k) : k], out);
    }
  }
  return out;
}

/** A deep copy of `root` with the value at `path` replaced (or deleted). */
function withValue(
  root: unknown,
  path: (string | number)[],
  value: unknown,
  del = false,
): unknown {
  const copy = structuredClone(root);
  if (path.length === 0) return value;
  let o = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) {
    o = o[k] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (del) {
    if (Array.isArray(o)) o.splice(last as number, 1);
    else delete o[last];
  } else o[last] = value;
  return copy;
}

const pathText = (p: (string | number)[]) =>
  p.map((k) => typeof k === "number" ? `[${k}]` : `.${k}`).join("");

/** A value of another type than `v` (never one JSON could confuse with it). */
function wrongType(v: unknown): unknown {
  if (typeof v === "number") return "7";
  if (typeof v === "string") return 7;
  if (typeof v === "boolean") return "true";
  if (v === null) return { bogus: true };
  if (Array.isArray(v)) return "[]";
  return 7;
}

Deno.test("snapshot: restore refuses wrong types of top-level fields", () => {
  const good = richSnapshot();
  for (const [k, v] of Object.entries(good)) {
    if (k === "v") continue;
    mustThrow(
      `.${k} = ${JSON.stringify(wrongType(v))}`,
      () => restore({ ...good, [k]: wrongType(v) }),
    );
  }
});

Deno.test("snapshot: restore refuses a snapshot without one of its fields", () => {
  const good = richSnapshot();
  for (const k of Object.keys(good)) {
    const copy = { ...good };
    delete copy[k];
    mustThrow(`without .${k}`, () => restore(copy));
  }
});

Deno.test("snapshot: restore refuses huge or impossible dimensions", () => {
  const good = richSnapshot();
  const dims = paths(good).filter(([p, v]) =>
    typeof v === "number" && p.length <= 2 &&
    /^(cols|rows)$/.test(String(p[p.length - 1]))
  );
  assert(dims.length >= 2, "no cols/rows in the snapshot");
  for (const [p] of dims) {
    for (const v of [1e9, 5000, 0, -1, 2.5, 1e300]) {
      mustThrow(`${pathText(p)} = ${v}`, () => restore(withValue(good, p, v)));
    }
  }
});

Deno.test("snapshot: restore refuses truncated lines", () => {
  const good = richSnapshot();
  // Arrays of lines: arrays whose name says so.
  const lineArrays = paths(good).filter(([p, v]) =>
    Array.isArray(v) && v.length > 0 && /lines/i.test(String(p[p.length - 1]))
  );
  assert(lineArrays.length > 0, "no line arrays found in the snapshot");
  let cuts = 0;
  for (const [p, arr] of lineArrays) {
    const lineList = arr as unknown[];
    // Drop lines (fewer than the screen needs).
    mustThrow(`${pathText(p)} emptied`, () => restore(withValue(good, p, [])));
    // Cut the style runs ([length, fg, bg, attr]*, which cover every
    // cell) of each line that has them: mid-run, and by a whole run.
    for (const [li, line] of lineList.entries()) {
      for (const [q, v] of paths(line)) {
        if (
          q.length !== 1 || !Array.isArray(v) || v.length < 8 ||
          v.length % 4 !== 0 || !v.every((x) => typeof x === "number")
        ) continue;
        for (const len of [v.length - 1, v.length - 4]) {
          const full = [...p, li, ...q];
          mustThrow(
            `${pathText(full)} cut to ${len}`,
            () => restore(withValue(good, full, v.slice(0, len))),
          );
          cuts++;
        }
      }
    }
  }
  assert(cuts >= 2, `only ${cuts} line fields to cut`);
});

/**
 * Throw unless every line of both buffers (history included) is
 * consistent: wide heads have tails and tails heads, cluster text exists
 * exactly for A_CLUSTER cells, ext ids are in the ext table, and screen
 * lines have `cols` cells.
 */
function checkAllCells(term: Terminal): void {
  const bufs: [string, typeof term.buffer][] = [
    ["normal", term.normalBuffer],
    ["active", term.buffer],
  ];
  const extIds = term.stats.extStyles;
  for (const [name, buf] of bufs) {
    for (let i = 0; i < buf.length; i++) {
      const l = buf.getLine(i);
      const where = `${name} buffer line ${i}`;
      if (l.data.length !== l.cols * 4) throw new Error(`${where}: data size`);
      if (i >= buf.length - term.rows && l.cols !== term.cols) {
        throw new Error(`${where}: ${l.cols} cells, want ${term.cols}`);
      }
      for (let x = 0; x < l.cols; x++) {
        const a = l.attr(x);
        if ((a >>> 16) > extIds) {
          throw new Error(
            `${where} cell ${x}: ext id ${a >>> 16} past the table (${extIds})`,
          );
        }
        if (
          (a & A_WIDE) && !(x + 1 < l.cols && (l.attr(x + 1) & A_WIDE_TAIL))
        ) {
          throw new Error(`${where} cell ${x}: wide head without tail`);
        }
        if ((a & A_WIDE_TAIL) && !(x > 0 && (l.attr(x - 1) & A_WIDE))) {
          throw new Error(`${where} cell ${x}: tail without head`);
        }
        const has = l.clusters?.has(x) ?? false;
        if (has !== ((a & A_CLUSTER) !== 0)) {
          throw new Error(
            `${where} cell ${x}: cluster text ${has}, flag ${
              (a & A_CLUSTER) !== 0
            }`,
          );
        }
      }
    }
  }
}

/**
 * Restore `s`: it must throw an Error, or give consistent cells; a
 * description of what went wrong goes to `bad`.
 */
function throwsOrConsistent(what: string, s: unknown, bad: string[]): void {
  let term: Terminal;
  try {
    term = restore(s);
  } catch (e) {
    if (!(e instanceof Error && e.message.length > 0)) {
      bad.push(`${what}: threw ${e}`);
    }
    return;
  }
  try {
    checkInvariants(term);
    checkAllCells(term);
  } catch (e) {
    bad.push(`${what}: restored, but ${e instanceof Error ? e.message : e}`);
  }
}

Deno.test("snapshot: wide characters and clusters that do not add up are refused or repaired", () => {
  const t = new Terminal({ cols: 12, rows: 3 });
  t.write("a字b\r\ne\u0301x\r\n👨\u200d👩z");
  const good = throughJson(t.snapshot()) as unknown as {
    normal: { lines: { s?: number[]; k?: [number, string][] }[] };
  };
  let cases = 0;
  const bad: string[] = [];
  for (const [li, line] of good.normal.lines.entries()) {
    const runs = line.s ?? [];
    for (let r = 3; r < runs.length; r += 4) {
      for (const bit of [A_WIDE, A_WIDE_TAIL, A_CLUSTER]) {
        for (const on of [false, true]) {
          const copy = structuredClone(good);
          const s = copy.normal.lines[li].s!;
          s[r] = on ? (s[r] | bit) >>> 0 : s[r] & ~bit;
          if (s[r] === runs[r]) continue;
          throwsOrConsistent(
            `line ${li} run ${(r - 3) / 4} attr ${on ? "+" : "-"}${
              bit.toString(16)
            }`,
            copy,
            bad,
          );
          cases++;
        }
      }
    }
    if (line.k !== undefined) {
      const copy = structuredClone(good);
      delete copy.normal.lines[li].k;
      throwsOrConsistent(`line ${li} without clusters`, copy, bad);
      const moved = structuredClone(good);
      moved.normal.lines[li].k = line.k.map(([x, text]) => [x + 1, text]);
      throwsOrConsistent(
        `line ${li} clusters moved one cell right`,
        moved,
        bad,
      );
      cases += 2;
    }
  }
  assert(cases >= 10, `only ${cases} cases`);
  if (bad.length > 0) {
    throw new Error(
      `${bad.length} of ${cases} inconsistent snapshots accepted:\n` +
        bad.join("\n"),
    );
  }
});

Deno.test("snapshot: random damage either throws an Error or restores a consistent terminal", () => {
  const good = richSnapshot();
  const all = paths(good).filter(([p]) => p.length > 0);
  // A fixed seed; DT_FUZZ_SEED=<n> tries another.
  const env = Deno.env.get("DT_FUZZ_SEED");
  const random = rng(
    env !== undefined && /^[0-9]+$/.test(env) ? Number(env) : 0xdeadbeef,
  );
  const values = [
    -1,
    0,
    1,
    2.5,
    1e9,
    -1e9,
    "",
    "x",
    null,
    true,
    [],
    {},
    [1, 2, 3],
  ];
  let threw = 0, restored = 0;
  const bad: string[] = [];
  for (let k = 0; k < 2000; k++) {
    const [p, v] = all[Math.floor(random() * all.length)];
    const r = random();
    const value = r < 0.5
      ? values[Math.floor(random() * values.length)]
      : r < 0.8
      ? wrongType(v)
      : undefined;
    const damaged = withValue(good, p, value, value === undefined);
    const what = `${pathText(p)} ${
      value === undefined ? "deleted" : `= ${JSON.stringify(value)}`
    }`;
    const t0 = performance.now();
    let term: Terminal;
    const errors: unknown[] = [];
    try {
      term = Terminal.restore(damaged as TerminalSnapshot, {
        onError: (e) => errors.push(e),
      });
    } catch (e) {
      assert(e instanceof Error, `${what}: threw ${String(e)}`);
      assert(e.message.length > 0, `${what}: empty message`);
      threw++;
      continue;
    } finally {
      const ms = performance.now() - t0;
      assert(ms < 1000, `${what}: took ${ms.toFixed(0)} ms`);
    }
    restored++;
    // Accepted: it must be a working terminal.
    try {
      checkInvariants(term);
      checkAllCells(term);
      term.write(`x${CSI}6n${ESC}8y${CSI}?1049l\r\n${ESC}8z${CSI}10;10H字`);
      term.resize(term.cols + 3, term.rows + 1);
      checkInvariants(term);
      modelHash(term);
      throughJson(term.snapshot());
      Terminal.restore(throughJson(term.snapshot()));
    } catch (e) {
      bad.push(
        `${what}: restored, but then ${e instanceof Error ? e.message : e}`,
      );
      continue;
    }
    if (errors.length > 0) {
      bad.push(`${what}: restored, but input then failed: ${errors[0]}`);
    }
  }
  console.log(
    `damaged snapshots: ${threw} refused, ${restored} restored, ${bad.length} of those broken`,
  );
  if (bad.length > 0) {
    throw new Error(
      `${bad.length} damaged snapshots were accepted but make a broken terminal:\n` +
        bad.slice(0, 12).join("\n"),
    );
  }
});
