/**
 * Shell-integration sequences (OSC 133, 633, 1337, DomTerm's CSI u and
 * OSC 119-121): input bytes -> marks on lines, screen, cursor, attributes.
 */
import { A_ERROR } from "../../core/model/cell.ts";
import type { Terminal } from "../../core/emulator/terminal.ts";
import {
  assertEquals,
  cell,
  CSI,
  expectEqual,
  OSC,
  runCases,
  ST,
} from "./helpers.ts";

/** Every mark of the normal buffer as "line@x kind k=v,k=v". */
function marks(term: Terminal): string[] {
  const buf = term.normalBuffer;
  const out: string[] = [];
  for (let i = 0; i < buf.length; i++) {
    for (const m of buf.getLine(i).extras?.marks ?? []) {
      const attrs = m.attrs
        ? " " + Object.entries(m.attrs).map(([k, v]) => `${k}=${v}`).join(",")
        : "";
      out.push(`${i}@${m.x} ${m.kind}${attrs}`);
    }
  }
  return out;
}

/** A case whose check compares the marks. */
function marksCase(
  name: string,
  input: string,
  expected: string[],
  more: { screen?: string; cursor?: [number, number] } = {},
) {
  return {
    name,
    input,
    rows: 5,
    cols: 20,
    ...more,
    check: (t: { term: Terminal }) =>
      expectEqual(marks(t.term), expected, "marks"),
  };
}

const BEL = "\x07";

runCases("shell marks", [
  marksCase(
    "133 A B C D at the cursor",
    [
      `${OSC}133;A${ST}$ ${OSC}133;B${ST}ls\r\n`,
      `${OSC}133;C${ST}out\r\n${OSC}133;D;0${ST}`,
    ].join(""),
    [
      "0@0 prompt-start",
      "0@2 input-start",
      "1@0 output-start",
      "2@0 end exit=0",
    ],
    { screen: "$ ls\nout", cursor: [0, 2] },
  ),
  marksCase(
    "133 A parameters (aid, cl) kept; BEL terminator",
    `${OSC}133;A;aid=42;cl=m${BEL}> `,
    ["0@0 prompt-start aid=42,cl=m"],
  ),
  marksCase("133 A is a fresh line", `abc${OSC}133;A${ST}$ `, [
    "1@0 prompt-start",
  ], { screen: "abc\n$ ", cursor: [2, 1] }),
  marksCase(
    "133 L: fresh line only",
    `abc${OSC}133;L${ST}x${OSC}133;L${ST}`,
    [],
    {
      screen: "abc\nx",
      cursor: [0, 2],
    },
  ),
  marksCase(
    "133 L at the start of a line does nothing",
    `${OSC}133;L${ST}`,
    [],
    {
      cursor: [0, 0],
    },
  ),
  marksCase("133 A with k=s is a secondary prompt", `${OSC}133;A;k=s${ST}> `, [
    "0@0 prompt k=s",
  ]),
  marksCase(
    "133 N ends the previous group, then starts one",
    `${OSC}133;N;aid=7${ST}`,
    [
      "0@0 end aid=7",
      "0@0 prompt-start aid=7",
    ],
  ),
  marksCase("133 P;k=i", `${OSC}133;P;k=i${ST}`, ["0@0 prompt k=i"]),
  marksCase("133 I is input start", `$ ${OSC}133;I${ST}`, ["0@2 input-start"]),
  marksCase(
    "133 D exit code and aid",
    `${OSC}133;D;127;aid=3${ST}`,
    ["0@0 end aid=3,exit=127"],
  ),
  marksCase("133 D without exit code", `${OSC}133;D${ST}`, ["0@0 end"]),
  marksCase("133 D with a bad exit code keeps no exit", `${OSC}133;D;x1${ST}`, [
    "0@0 end",
  ]),
  marksCase("133 unknown command is ignored", `${OSC}133;Z;a=1${ST}`, []),
  marksCase(
    "633 A B C D E P",
    [
      `${OSC}633;A${ST}$ ${OSC}633;B${ST}`,
      `${OSC}633;E;echo a\\x3bb\\\\${ST}\r\n${OSC}633;C${ST}`,
      `${OSC}633;D;2${ST}${OSC}633;P;Cwd=/tmp${ST}`,
    ].join(""),
    [
      "0@0 prompt-start",
      "0@2 input-start",
      "0@2 command-line cmd=echo a;b\\",
      "1@0 output-start",
      "1@0 end exit=2",
      "1@0 property Cwd=/tmp",
    ],
  ),
  marksCase(
    "1337 SetMark and CurrentDir",
    [
      `ab${OSC}1337;SetMark${BEL}${OSC}1337;CurrentDir=/home/u${BEL}`,
    ].join(""),
    ["0@2 user-mark", "0@2 cwd dir=/home/u"],
  ),
  marksCase(
    "1337 other payloads are not marks",
    `${OSC}1337;File=x:AAAA${BEL}`,
    [],
  ),
  marksCase(
    "OSC 119 / 120 / 121 groups",
    [
      `${OSC}119;g1${BEL}${OSC}120;g1${BEL}${OSC}121;g1${BEL}${OSC}119${BEL}`,
    ].join(""),
    [
      "0@0 group-start id=g1",
      "0@0 group-push id=g1",
      "0@0 group-pop id=g1",
      "0@0 group-start",
    ],
  ),
  marksCase("OSC 119 then CSI 14u: both kept", `${OSC}119;g${BEL}${CSI}14u`, [
    "0@0 group-start id=g",
    "0@0 prompt-start",
  ]),
  marksCase("CSI 14u 13u 15u 18u", `${CSI}14u$ ${CSI}13u${CSI}15;1u`, [
    "0@0 prompt-start",
    "0@2 prompt-end",
    "0@2 input-start mode=1",
  ]),
  marksCase("CSI 18u: prompt end that selection skips", `${CSI}18u`, [
    "0@0 prompt-end select=skip",
  ]),
  marksCase("CSI 15;7u: a bad mode is dropped", `${CSI}15;7u`, [
    "0@0 input-start",
  ]),
  marksCase("CSI 20u is a fresh line", `ab${CSI}20ucd${CSI}20u${CSI}20u`, [], {
    screen: "ab\ncd",
    cursor: [0, 2],
  }),
  marksCase(
    "CSI 16u..17u button, 83;1u / 83;2u / 83;0u span",
    `${CSI}16u>${CSI}17u head\r\n${CSI}83;1ubody\r\n${CSI}83;0u${CSI}83;2u`,
    [
      "0@0 fold-button-start",
      "0@1 fold-button-end",
      "1@0 fold-start",
      "2@0 fold-end",
      "2@0 fold-start hidden=1",
    ],
    { screen: "> head\nbody" },
  ),
  marksCase("CSI 83;5u and CSI 99u are not marks", `${CSI}83;5u${CSI}99u`, []),
  marksCase(
    "CSI u alone still restores the cursor (SCORC)",
    `ab${CSI}sxy${CSI}u`,
    [],
    {
      cursor: [2, 0],
    },
  ),
  marksCase(
    "a mark left of older marks on the line drops them (redrawn line)",
    `$ ${OSC}133;B${ST}\r${OSC}133;P;k=i${ST}`,
    ["0@0 prompt k=i"],
  ),
  marksCase(
    "the same mark twice at one place is kept once (prompt redraw)",
    `$ ${OSC}133;B${ST}\r$ ${OSC}133;B${ST}`,
    ["0@2 input-start"],
  ),
  marksCase(
    "a new prompt replaces an old prompt at its place and clears marks below (clear)",
    [
      `${OSC}133;A${ST}$ ${OSC}133;B${ST}x\r\n${OSC}133;C${ST}`,
      `\x1b[H\x1b[2J${OSC}133;D;0${ST}${OSC}133;A${ST}$ `,
    ].join(""),
    ["0@0 end exit=0", "0@0 prompt-start"],
  ),
  marksCase(
    "a D before the prompt at the same place is kept",
    `${OSC}133;C${ST}${OSC}133;D;1${ST}${OSC}133;A${ST}`,
    ["0@0 output-start", "0@0 end exit=1", "0@0 prompt-start"],
  ),
  {
    name: "long parameter values are cut, __proto__ is a plain key",
    input: `${OSC}133;A;aid=${"x".repeat(5000)};__proto__=1${ST}`,
    check: (t) => {
      const m = t.term.normalBuffer.getLine(0).extras!.marks![0];
      assertEquals(m.attrs!.aid.length, 4096);
      assertEquals(Object.hasOwn(m.attrs!, "__proto__"), true);
      assertEquals(Object.getPrototypeOf(m.attrs!), Object.prototype);
    },
  },
  {
    name: "marks per line are capped",
    input: Array.from({ length: 100 }, (_, i) => `${OSC}133;P;k=${i}${ST}`)
      .join(""),
    check: (t) => {
      assertEquals(t.term.normalBuffer.getLine(0).extras!.marks!.length, 64);
    },
  },
  {
    name: "marksVersion counts added marks",
    input: `${OSC}133;A${ST}${OSC}133;B${ST}${OSC}133;L${ST}`,
    check: (t) => assertEquals(t.term.marksVersion, 2),
  },
  {
    name: "marks scroll into history with their line",
    rows: 2,
    input: `${OSC}133;A${ST}$ \r\n1\r\n2\r\n3`,
    check: (t) => expectEqual(marks(t.term), ["0@0 prompt-start"], "marks"),
  },
  {
    name: "CSI 12u..11u marks error output; SGR 0 keeps it",
    input: `a${CSI}12ub${CSI}0m${CSI}1mc${CSI}11ud`,
    screen: "abcd",
    check: (t) => {
      const flags = [0, 1, 2, 3].map((x) =>
        (cell(t.term, x, 0).attr & A_ERROR) !== 0
      );
      assertEquals(flags, [false, true, true, false]);
    },
  },
  {
    name: "RIS ends error output",
    input: `${CSI}12u\x1bcx`,
    check: (t) => assertEquals(cell(t.term, 0, 0).attr & A_ERROR, 0),
  },
]);
