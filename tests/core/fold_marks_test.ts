/**
 * Folds made by hand are part of the model (issue 34): the flag
 * `LineMark.folded` on the mark that starts a command group or a DomTerm
 * fold button, set through a {@link MarkRef} (absolute line, column, kind),
 * carried by snapshots (JSON and back), kept through history trimming and
 * reflow. Table-driven: each case writes output, folds by reference, may
 * do more, then reads the flags back from a terminal restored from the
 * snapshot.
 */
import {
  deriveMarks,
  findFoldMark,
  type MarkRef,
  markRef,
  setMarkFolded,
} from "../../core/model/command_groups.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { assertEquals, CSI, makeTerminal, OSC, ST } from "./helpers.ts";

const A = `${OSC}133;A${ST}`;
const B = `${OSC}133;B${ST}`;
const C = `${OSC}133;C${ST}`;
const D = (exit: number) => `${OSC}133;D;${exit}${ST}`;
const cmd = (line: string, output: string, exit = 0) =>
  `${A}$ ${B}${line}\r\n${C}${output}${D(exit)}`;
/** A DomTerm button and a span hidden at first. */
const SPAN =
  `${CSI}16u-${CSI}17u head\r\n${CSI}83;2uone\r\ntwo\r\n${CSI}83;0utail\r\n`;

/** JSON and back, as every snapshot travels (wire, journal, handover). */
function roundTrip(term: Terminal, cols: number, rows: number): Terminal {
  const json = JSON.stringify(term.snapshot());
  const copy = new Terminal({ cols, rows, reply: () => {} });
  copy.load(JSON.parse(json));
  return copy;
}

/** The `folded` flag of each group, then of each span ("-" when absent). */
function flags(term: Terminal): string[] {
  const d = deriveMarks(term.normalBuffer);
  const f = (v: boolean | undefined) => v === undefined ? "-" : String(v);
  return [
    ...d.groups.map((g) => `group ${g.index}: ${f(g.startMark.folded)}`),
    ...d.folds.map((s, i) => `span ${i}: ${f(s.buttonMark.folded)}`),
  ];
}

/** The reference of group `i` (or span `i`) as the page would send it. */
function refOf(term: Terminal, what: "group" | "span", i: number): MarkRef {
  const buf = term.normalBuffer;
  const d = deriveMarks(buf);
  if (what === "group") {
    const g = d.groups[i];
    return markRef(buf, g.start.line, g.startMark);
  }
  const s = d.folds[i];
  return markRef(buf, s.button.line, s.buttonMark);
}

interface FoldCase {
  name: string;
  cols?: number;
  rows?: number;
  scrollback?: number;
  input: string;
  /** Folds to set: what, index, folded; whether the mark was found. */
  folds: [what: "group" | "span", i: number, folded: boolean, found: boolean][];
  /** Output after the folds. */
  after?: string;
  /** Resize (reflow) after the folds. */
  resize?: [cols: number, rows: number];
  /** Flags read back from the restored copy. */
  want: string[];
}

const THREE = cmd("true", "a\r\nb\r\n") + cmd("seq 3", "1\r\n2\r\n3\r\n") +
  cmd("false", "x\r\n", 1) + `${A}$ ${B}`;

const cases: FoldCase[] = [
  {
    name: "the second of three commands folded",
    input: THREE,
    folds: [["group", 1, true, true]],
    want: ["group 0: -", "group 1: true", "group 2: -", "group 3: -"],
  },
  {
    name: "folded then unfolded: false, as the other windows were told",
    input: THREE,
    folds: [["group", 0, true, true], ["group", 0, false, true]],
    want: ["group 0: false", "group 1: -", "group 2: -", "group 3: -"],
  },
  {
    name: "a span hidden at first, shown by hand, stays shown",
    input: SPAN,
    folds: [["span", 0, false, true]],
    want: ["span 0: false"],
  },
  {
    // The first command's prompt leaves the history: seq 3 is group 0 then.
    name: "the reference stays good while history is trimmed",
    rows: 5,
    scrollback: 6,
    input: cmd("ls", "f1\r\nf2\r\n") + cmd("seq 3", "1\r\n2\r\n3\r\n"),
    folds: [["group", 1, true, true]],
    after: "z\r\n".repeat(3) + cmd("pwd", "/tmp\r\n"),
    want: ["group 0: true", "group 1: -"],
  },
  {
    name: "a reflow moves the mark and its flag",
    cols: 20,
    input: cmd("echo " + "w".repeat(30), "w".repeat(30) + "\r\n") +
      cmd("seq 2", "1\r\n2\r\n"),
    folds: [["group", 0, true, true]],
    resize: [12, 24],
    want: ["group 0: true", "group 1: -"],
  },
];

for (const c of cases) {
  Deno.test(`fold marks: ${c.name}`, () => {
    const cols = c.cols ?? 40, rows = c.rows ?? 24;
    const t = makeTerminal(cols, rows, c.scrollback ?? 1000).term;
    t.write(c.input);
    for (const [what, i, folded, found] of c.folds) {
      const ref = refOf(t, what, i);
      assertEquals(
        setMarkFolded(t.normalBuffer, ref, folded),
        found,
        `${what} ${i}`,
      );
    }
    if (c.after) t.write(c.after);
    let [w, h] = [cols, rows];
    if (c.resize) {
      [w, h] = c.resize;
      t.resize(w, h);
    }
    assertEquals(flags(t), c.want, "live");
    assertEquals(flags(roundTrip(t, w, h)), c.want, "restored");
  });
}

Deno.test("fold marks: references that name no fold mark are refused", () => {
  const t = makeTerminal(40, 5, 10).term;
  t.write(THREE);
  const buf = t.normalBuffer;
  const good = refOf(t, "group", 1);
  const bad: [string, MarkRef][] = [
    ["another column", { ...good, x: good.x + 1 }],
    ["another kind", { ...good, kind: "output-start" }],
    ["a line not held", { ...good, line: buf.trimmed + buf.length }],
    ["a negative line", { ...good, line: -1 }],
    ["a fractional line", { ...good, line: 1.5 }],
  ];
  for (const [what, ref] of bad) {
    assertEquals(findFoldMark(buf, ref), null, what);
    assertEquals(setMarkFolded(buf, ref, true), false, what);
  }
  // Trimmed away: the history keeps 10 lines; 30 more push it out.
  t.write("y\r\n".repeat(30));
  assertEquals(setMarkFolded(buf, good, true), false, "trimmed");
});

Deno.test("fold marks: a snapshot whose folded is not a boolean is refused", () => {
  const t = makeTerminal(40, 24, 100).term;
  t.write(THREE);
  setMarkFolded(t.normalBuffer, refOf(t, "group", 0), true);
  const json = JSON.stringify(t.snapshot()).replace(
    '"folded":true',
    '"folded":"yes"',
  );
  const copy = new Terminal({ cols: 40, rows: 24, reply: () => {} });
  let error = "";
  try {
    copy.load(JSON.parse(json));
  } catch (e) {
    error = (e as Error).message;
  }
  assertEquals(/folded is not a boolean/.test(error), true, error);
});

Deno.test("fold marks: a snapshot written before folds existed reads unfolded", () => {
  const t = makeTerminal(40, 24, 100).term;
  t.write(THREE);
  // Version 1 as older builds wrote it: marks without the field.
  const json = JSON.stringify(t.snapshot());
  assertEquals(json.includes('"folded"'), false);
  const copy = new Terminal({ cols: 40, rows: 24, reply: () => {} });
  copy.load(JSON.parse(json));
  assertEquals(flags(copy), [
    "group 0: -",
    "group 1: -",
    "group 2: -",
    "group 3: -",
  ]);
});
