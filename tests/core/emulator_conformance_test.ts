/**
 * xterm conformance beyond the basics, byte-exact: colour specifications
 * and queries (OSC 4, 5, 10-19, 104, 105, 110-117), DECDSR, DECRQSS,
 * conformance levels and 8-bit replies, DECCOLM, ISO protection
 * (SPA/EPA), XTWINOPS and title modes. Expected values are xterm's (from
 * ctlseqs, or xterm 379's behaviour where ctlseqs is silent).
 */
import { assertEquals, CSI, DCS, ESC, OSC, runCases, ST } from "./helpers.ts";
import { parseXColor } from "../../core/emulator/xparse_color.ts";
import { Terminal } from "../../core/emulator/terminal.ts";

const q = (n: string) => `${OSC}4;${n};?${ST}`;
const rgb = (n: string, v: string) => `${OSC}4;${n};rgb:${v}${ST}`;

/** [spec, reply channels after setting palette 1 to it]. */
const SPECS: [string, string][] = [
  ["rgb:1234/5678/9abc", "1212/5656/9a9a"], // 8 bits kept, reported x 257
  ["rgb:f/8/0", "ffff/8888/0000"], // 1 digit: scaled
  ["rgb:800/80/8", "8080/8080/8888"],
  ["RGB:ff/00/ff", "ffff/0000/ffff"], // prefixes are case-insensitive
  ["#abc", "a0a0/b0b0/c0c0"], // high-order bits
  ["#123456789", "1212/4545/7878"],
  ["#112233445566", "1111/3333/5555"],
  ["#0000ff", "0000/0000/ffff"],
  ["Navy Blue", "0000/0000/8080"], // rgb.txt, spaces and case ignored
  ["navyblue", "0000/0000/8080"],
  ["LightGoldenrodYellow", "fafa/fafa/d2d2"],
  ["gray", "bebe/bebe/bebe"], // X11's gray, not CSS's
  ["grey50", "7f7f/7f7f/7f7f"],
  ["gray10", "1a1a/1a1a/1a1a"],
  ["green", "0000/ffff/0000"],
  ["red3", "cdcd/0000/0000"],
  ["rgbi:1/0.5/0", "ffff/bbbb/0000"], // Xcms's intensity tables (esctest2)
  ["CIEXYZ:0.95047/1/1.08883", "ffff/ffff/ffff"], // D65 white: clipped
  ["CIEXYZ:0.5/0.5/0.5", "dddd/b5b5/a0a0"], // xterm (esctest2)
  ["CIExyY:0.3127/0.329/1", "ffff/ffff/ffff"],
  ["CIEuvY:0.1978/0.4683/1", "ffff/ffff/ffff"],
  ["CIELab:100/0/0", "ffff/ffff/ffff"],
  ["CIELab:0/0/0", "0000/0000/0000"],
  ["CIELuv:100/0/0", "ffff/ffff/ffff"],
  ["TekHVC:0/100/0", "ffff/ffff/ffff"],
  ["TekHVC:0/0/0", "0000/0000/0000"],
];

runCases(
  "colour specs",
  SPECS.map(([spec, reply]) => ({
    name: spec,
    input: `${OSC}4;1;${spec}${ST}${q("1")}`,
    replies: [rgb("1", reply)],
  })),
);

runCases(
  "colour specs refused",
  [
    "rgb:12345/0/0",
    "rgb:1/2",
    "#12",
    "#1234567890abc",
    "nosuchcolour",
    "rgbi:2/0/0",
    "CIELab:a/b/c",
  ].map((spec) => ({
    name: spec,
    input: `${OSC}4;1;${spec}${ST}${q("1")}`,
    replies: [rgb("1", "cdcd/0000/0000")], // xterm's default colour 1
  })),
);

Deno.test("colour specs: parseXColor keeps 16 bits", () => {
  assertEquals(parseXColor("rgb:1234/5678/9abc"), [0x1234, 0x5678, 0x9abc]);
  assertEquals(parseXColor("#abc"), [0xa000, 0xb000, 0xc000]);
  assertEquals(parseXColor("rgb:f/f/f"), [0xffff, 0xffff, 0xffff]);
  assertEquals(parseXColor("gray100"), [0xffff, 0xffff, 0xffff]);
  assertEquals(parseXColor("gray101"), null);
});

runCases("colour queries", [
  {
    name: "several pairs in one OSC 4, each query answered in order",
    input: `${OSC}4;1;red;2;?;1;?${ST}`,
    replies: [rgb("2", "0000/cdcd/0000"), rgb("1", "ffff/0000/0000")],
  },
  {
    name: "a query ended by BEL is answered with BEL",
    input: `${OSC}4;0;?\x07`,
    replies: [`${OSC}4;0;rgb:0000/0000/0000\x07`],
  },
  {
    name: "palette 255 (grey 238)",
    input: q("255"),
    replies: [rgb("255", "eeee/eeee/eeee")],
  },
  {
    name: "OSC 5 special colours default to the foreground",
    input: `${OSC}5;0;?;4;?${ST}`,
    replies: [
      `${OSC}5;0;rgb:d0d0/d0d0/d0d0${ST}`,
      `${OSC}5;4;rgb:d0d0/d0d0/d0d0${ST}`,
    ],
  },
  {
    name: "OSC 5 and OSC 4 from 256 are the same colours",
    input: `${OSC}5;1;#00ff00${ST}${q("257")}${OSC}4;260;blue${ST}` +
      `${OSC}5;4;?${ST}`,
    replies: [
      rgb("257", "0000/ffff/0000"),
      `${OSC}5;4;rgb:0000/0000/ffff${ST}`,
    ],
  },
  {
    name: "OSC 105 with an index resets that special colour",
    input: `${OSC}5;0;red;1;red${ST}${OSC}105;0${ST}${OSC}5;0;?;1;?${ST}`,
    replies: [
      `${OSC}5;0;rgb:d0d0/d0d0/d0d0${ST}`,
      `${OSC}5;1;rgb:ffff/0000/0000${ST}`,
    ],
  },
  {
    name: "OSC 105 alone resets them all",
    input: `${OSC}5;0;red;1;red${ST}${OSC}105${ST}${OSC}5;1;?${ST}`,
    replies: [`${OSC}5;1;rgb:d0d0/d0d0/d0d0${ST}`],
  },
  {
    name: "OSC 104 alone resets the palette and the special colours",
    input: `${OSC}4;3;red;256;red${ST}${OSC}104${ST}${q("3")}${q("256")}`,
    replies: [rgb("3", "cdcd/cdcd/0000"), rgb("256", "d0d0/d0d0/d0d0")],
  },
  {
    name: "OSC 104 with indices resets those",
    input: `${OSC}4;3;red;4;red${ST}${OSC}104;3${ST}${q("3")}${q("4")}`,
    replies: [rgb("3", "cdcd/cdcd/0000"), rgb("4", "ffff/0000/0000")],
  },
  {
    name: "OSC 10 ; ? ; ? answers 10 then 11",
    input: `${OSC}10;?;?${ST}`,
    replies: [
      `${OSC}10;rgb:d0d0/d0d0/d0d0${ST}`,
      `${OSC}11;rgb:0000/0000/0000${ST}`,
    ],
  },
  {
    name: "OSC 12 sets the cursor and 13 the pointer in one sequence",
    input: `${OSC}12;red;blue${ST}${OSC}12;?;?${ST}`,
    replies: [
      `${OSC}12;rgb:ffff/0000/0000${ST}`,
      `${OSC}13;rgb:0000/0000/ffff${ST}`,
    ],
  },
  {
    name: "OSC 13-19 defaults follow the text colours",
    input: `${OSC}13;?;?;?;?;?;?;?${ST}`,
    replies: [
      `${OSC}13;rgb:d0d0/d0d0/d0d0${ST}`, // pointer foreground
      `${OSC}14;rgb:0000/0000/0000${ST}`, // pointer background
      `${OSC}15;rgb:d0d0/d0d0/d0d0${ST}`, // Tek foreground
      `${OSC}16;rgb:0000/0000/0000${ST}`, // Tek background
      `${OSC}17;rgb:d0d0/d0d0/d0d0${ST}`, // highlight background
      `${OSC}18;rgb:d0d0/d0d0/d0d0${ST}`, // Tek cursor
      `${OSC}19;rgb:0000/0000/0000${ST}`, // highlight foreground
    ],
  },
  {
    name: "OSC 11 changed: the defaults that follow it follow",
    input: `${OSC}11;#102030${ST}${OSC}19;?${ST}`,
    replies: [`${OSC}19;rgb:1010/2020/3030${ST}`],
  },
  {
    name: "OSC 110 resets the foreground, reported afterwards",
    input: `${OSC}10;red${ST}${OSC}110${ST}${OSC}10;?${ST}`,
    replies: [`${OSC}10;rgb:d0d0/d0d0/d0d0${ST}`],
  },
  {
    name: "bare OSC 113-117 reset the pointer, Tek and highlight colours",
    input: `${OSC}13;red;red;red;red;red${ST}` +
      `${OSC}113${ST}${OSC}114${ST}${OSC}115${ST}${OSC}116${ST}${OSC}117${ST}` +
      `${OSC}13;?;?;?;?;?${ST}`,
    replies: [
      `${OSC}13;rgb:d0d0/d0d0/d0d0${ST}`,
      `${OSC}14;rgb:0000/0000/0000${ST}`,
      `${OSC}15;rgb:d0d0/d0d0/d0d0${ST}`,
      `${OSC}16;rgb:0000/0000/0000${ST}`,
      `${OSC}17;rgb:d0d0/d0d0/d0d0${ST}`,
    ],
  },
  {
    name: "OSC 113 with an argument stays DomTerm's pretty-printing",
    input: `${OSC}13;red${ST}${OSC}113;2${ST}${OSC}13;?${ST}`,
    replies: [`${OSC}13;rgb:ffff/0000/0000${ST}`],
  },
  {
    name: "RIS resets the colours",
    input: `${OSC}4;1;blue${ST}${OSC}17;red${ST}${ESC}c${
      q("1")
    }${OSC}17;?${ST}`,
    replies: [rgb("1", "cdcd/0000/0000"), `${OSC}17;rgb:d0d0/d0d0/d0d0${ST}`],
  },
]);

runCases("DECDSR", [
  { name: "15 printer: none", input: `${CSI}?15n`, replies: [`${CSI}?13n`] },
  { name: "25 UDK: unlocked", input: `${CSI}?25n`, replies: [`${CSI}?20n`] },
  {
    name: "26 keyboard at level 5",
    input: `${CSI}?26n`,
    replies: [`${CSI}?27;1;0;0n`],
  },
  {
    // ctlseqs: "The last two parameters apply to VT300 & up (keyboard
    // ready) and VT400 & up (LK01) respectively."
    name: "26 keyboard at level 3 (no LK201 field)",
    input: `${CSI}63;1"p${CSI}?26n`,
    replies: [`${CSI}?27;1;0n`],
  },
  {
    name: "26 keyboard at level 2",
    input: `${CSI}62;1"p${CSI}?26n`,
    replies: [`${CSI}?27;1n`],
  },
  {
    // xterm gates each DECDSR by the level of the DEC terminal that had it.
    name: "a VT100 (level 1) answers no DECDSR but DECXCPR",
    input: `${CSI}61"p${CSI}?15n${CSI}?25n${CSI}?26n${CSI}?6n`,
    replies: [`${CSI}?1;1R`],
  },
  {
    name: "level 2: no locator, no VT420 reports, DECXCPR without a page",
    input: `${CSI}62;1"p${CSI}?55n${CSI}?56n${CSI}?62n${CSI}?75n${CSI}?85n` +
      `${CSI}?6n${CSI}?15n`,
    replies: [`${CSI}?1;1R`, `${CSI}?13n`],
  },
  {
    name: "DA3 from level 4 (a VT400 feature, as xterm)",
    input: `${CSI}63;1"p${CSI}=c${CSI}64;1"p${CSI}=c`,
    replies: [`${DCS}!|00000000${ST}`],
  },
  {
    name: "level 3: the locator, not the VT420 reports",
    input: `${CSI}63;1"p${CSI}?62n${CSI}?63;1n${CSI}?55n${CSI}?6n`,
    replies: [`${CSI}?50n`, `${CSI}?1;1;1R`],
  },
  { name: "53 locator", input: `${CSI}?53n`, replies: [`${CSI}?50n`] },
  { name: "55 locator", input: `${CSI}?55n`, replies: [`${CSI}?50n`] },
  {
    name: "56 locator type: mouse",
    input: `${CSI}?56n`,
    replies: [`${CSI}?57;1n`],
  },
  { name: "62 DECMSR", input: `${CSI}?62n`, replies: [`${CSI}0*{`] },
  {
    name: "63 DECCKSR with its id",
    input: `${CSI}?63;7n`,
    replies: [`${DCS}7!~0000${ST}`],
  },
  { name: "75 data integrity", input: `${CSI}?75n`, replies: [`${CSI}?70n`] },
  {
    name: "85 multiple sessions",
    input: `${CSI}?85n`,
    replies: [`${CSI}?83n`],
  },
]);

const rqss = (_req: string, reply: string | null) =>
  reply === null ? `${DCS}0$r${ST}` : `${DCS}1$r${reply}${ST}`;

runCases("DECRQSS settings", [
  {
    name: "DECSACE default",
    input: `${DCS}$q*x${ST}`,
    replies: [rqss("*x", "1*x")],
  },
  {
    name: "DECSACE rectangle",
    input: `${CSI}2*x${DCS}$q*x${ST}`,
    replies: [rqss("*x", "2*x")],
  },
  { name: "DECSASD", input: `${DCS}$q$}${ST}`, replies: [rqss("$}", "0$}")] },
  { name: "DECSSDT", input: `${DCS}$q$~${ST}`, replies: [rqss("$~", "0$~")] },
  {
    name: "DECSCL default",
    input: `${DCS}$q"p${ST}`,
    replies: [rqss('"p', '65;1"p')],
  },
  {
    name: "DECSCL level 3, 7-bit",
    input: `${CSI}63;1"p${DCS}$q"p${ST}`,
    replies: [rqss('"p', '63;1"p')],
  },
  {
    // xterm 379 (misc.c do_dcs): "none of DECRQSS is valid for vt100's":
    // the DECSCL query is not answered at level 1; other settings still are.
    name: "DECSCL level 1: not answered",
    input: `${CSI}61"p${DCS}$q"p${ST}${DCS}$qr${ST}`,
    replies: [rqss("r", "1;24r")],
  },
  {
    name: "DECSCA set",
    input: `${CSI}1"q${DCS}$q"q${ST}`,
    replies: [rqss('"q', '1"q')],
  },
  {
    name: "DECSCA: SPA protection is not DECSCA's",
    input: `${ESC}V${DCS}$q"q${ST}`,
    replies: [rqss('"q', '0"q')],
  },
  {
    name: "DECSTBM",
    input: `${CSI}3;20r${DCS}$qr${ST}`,
    replies: [rqss("r", "3;20r")],
  },
  {
    name: "DECSCUSR",
    input: `${CSI}4 q${DCS}$q q${ST}`,
    replies: [rqss(" q", "4 q")],
  },
  {
    name: "SGR",
    input: `${CSI}1;4;38;5;100m${DCS}$qm${ST}`,
    replies: [rqss("m", "0;1;4;38;5;100m")],
  },
]);

runCases("conformance levels", [
  {
    name: "DA1 reports level 5",
    input: `${CSI}c`,
    replies: [`${CSI}?65;1;2;6;8;9;15;16;17;18;21;22;28c`],
  },
  {
    // ctlseqs: DA1 "depends on the decTerminalID resource setting"; xterm:
    // "there's no control sequence that modifies this".
    name: "DA1 at level 2 is still the VT525's",
    input: `${CSI}62;1"p${CSI}c`,
    replies: [`${CSI}?65;1;2;6;8;9;15;16;17;18;21;22;28c`],
  },
  {
    name: "DA1 at level 1 is still the VT525's",
    input: `${CSI}61"p${CSI}c`,
    replies: [`${CSI}?65;1;2;6;8;9;15;16;17;18;21;22;28c`],
  },
  {
    // ctlseqs: Pc 0 and 2 are 8-bit controls, 1 7-bit; xterm takes an
    // omitted Pc as 0.
    name: "DECSCL Pc: omitted and 2 select 8-bit controls, 1 7-bit",
    input: `${CSI}62"p${CSI}5n${CSI}63;1"p${CSI}5n${CSI}64;2"p${CSI}5n` +
      `${CSI}65;1"p${CSI}5n`,
    replies: ["\x9b0n", `${CSI}0n`, "\x9b0n", `${CSI}0n`],
  },
  {
    name: "level 2 has no DECRQM",
    input: `${CSI}62"p${CSI}?7$p${CSI}4$p`,
    replies: [],
  },
  {
    name: "level 3 has DECRQM but no DECLRMM/DECSLRM",
    input: `${CSI}63;1"p${CSI}?69h${CSI}5;10s${CSI}?69$p`,
    replies: [`${CSI}?69;2$y`],
  },
  {
    name: "DECSCL 8-bit: replies use C1",
    input: `${CSI}64;0"p${CSI}5n${DCS}$qr${ST}`,
    replies: ["\x9b0n", "\x901$r1;24r\x9c"],
  },
  {
    name: "S8C1T and S7C1T",
    input: `${ESC} G${CSI}6n${OSC}10;?${ST}${ESC} F${CSI}6n`,
    replies: ["\x9b1;1R", "\x9d10;rgb:d0d0/d0d0/d0d0\x9c", `${CSI}1;1R`],
  },
  {
    name: "S8C1T is ignored at level 1",
    input: `${CSI}61"p${ESC} G${CSI}5n`,
    replies: [`${CSI}0n`],
  },
  {
    name: "RIS returns to level 5 and 7-bit replies",
    input: `${CSI}62;0"p${ESC}c${CSI}5n${DCS}$q"p${ST}`,
    replies: [`${CSI}0n`, rqss('"p', '65;1"p')],
  },
]);

runCases("DECCOLM", [
  {
    name: "without ?40 nothing happens",
    input: `ab${CSI}?3h`,
    screen: "ab",
    check: (t) =>
      assertEquals(t.events.filter((e) => e.type === "resize-request"), []),
  },
  {
    name:
      "with ?40: 132 columns asked for, screen cleared, margins reset, cursor home",
    input: `ab${CSI}5;10r${CSI}3;3H${CSI}?40h${CSI}?3h${DCS}$qr${ST}`,
    screen: "",
    cursor: [0, 0],
    replies: [rqss("r", "1;24r")],
    check: (t) =>
      assertEquals(t.events.filter((e) => e.type === "resize-request"), [
        { type: "resize-request", rows: 24, cols: 132 },
      ]),
  },
  {
    name: "DECNCSM keeps the screen",
    input: `ab${CSI}?40;95h${CSI}?3h${CSI}?3$p`,
    screen: "ab",
    replies: [`${CSI}?3;1$y`],
  },
  {
    name: "132 columns at once: a size query in the same write sees them",
    input: `${CSI}?40h${CSI}?3h${CSI}18t${CSI}1;132H${CSI}6n${CSI}?3l${CSI}18t`,
    replies: [`${CSI}8;24;132t`, `${CSI}1;132R`, `${CSI}8;24;80t`],
    check: (t) => {
      assertEquals(t.term.cols, 80);
      assertEquals(
        t.events.filter((e) => e.type === "resize").length,
        2,
      );
    },
  },
  {
    name: "DECNCSM: the text stays through 132 columns and back",
    input: `abc${CSI}?40;95h${CSI}?3h${CSI}2;130Hxyz${CSI}?3l${CSI}18t`,
    // Back at 80 the line that was 132 wide is reflowed, as any resize.
    screen: "abc\n\n" + " ".repeat(49) + "xyz",
    replies: [`${CSI}8;24;80t`],
  },
  {
    name: "RIS after 132 columns is 80 columns at once",
    input: `${CSI}?40h${CSI}?3h${ESC}c${CSI}18t`,
    replies: [`${CSI}8;24;80t`],
  },
  {
    name: "reset asks for 80; RIS after 132 too",
    input: `${CSI}?40h${CSI}?3h${CSI}?3l${CSI}?3h${ESC}c`,
    check: (t) =>
      assertEquals(
        t.events.filter((e) => e.type === "resize-request").map((e) =>
          e.type === "resize-request" ? e.cols : 0
        ),
        [132, 80, 132, 80],
      ),
  },
]);

runCases("SPA/EPA", [
  {
    name: "EL keeps a guarded area",
    input: `${ESC}VAB${ESC}WCD\r${CSI}K`,
    screen: "AB",
  },
  {
    name: "ED keeps it",
    input: `xy\r\n${ESC}VAB${ESC}WCD${CSI}H${CSI}2J`,
    screen: "\nAB",
  },
  {
    name: "ECH keeps it",
    input: `${ESC}VA${ESC}WBC\r${CSI}3X`,
    screen: "A",
  },
  {
    name: "C1 SPA and EPA",
    input: `\u0096A\u0097B\r${CSI}2K`,
    screen: "A",
  },
  {
    name: "DECSCA protection does not stop ED",
    input: `${CSI}1"qAB${CSI}0"q\r${CSI}K`,
    screen: "",
  },
  {
    name: "DECSCA protection stops DECSEL",
    input: `${CSI}1"qAB${CSI}0"qC\r${CSI}?K`,
    screen: "AB",
  },
]);

runCases("XTWINOPS", [
  {
    name: "2 iconifies, 11 reports it, 1 de-iconifies",
    input: `${CSI}11t${CSI}2t${CSI}11t${CSI}1t${CSI}11t`,
    replies: [`${CSI}1t`, `${CSI}2t`, `${CSI}1t`],
  },
  {
    name: "3 moves, 13 reports the position",
    input: `${CSI}13t${CSI}3;100;50t${CSI}13t`,
    replies: [`${CSI}3;0;0t`, `${CSI}3;100;50t`],
  },
  {
    name: "24+ (DECSLPP) asks for that many lines",
    input: `${CSI}30t`,
    check: (t) =>
      assertEquals(t.events.filter((e) => e.type === "resize-request"), [
        { type: "resize-request", rows: 30, cols: 80 },
      ]),
  },
  {
    name: "20 and 21 report the icon label and the title",
    input: `${OSC}1;icon${ST}${OSC}2;my title${ST}${CSI}20t${CSI}21t`,
    replies: [`${OSC}Licon${ST}`, `${OSC}lmy title${ST}`],
  },
  {
    name: "a title is stored without control characters (no Enter in a reply)",
    input: `${CSI}>0t${OSC}2;610d620a63c29b647f65${ST}${CSI}21t`,
    replies: [`${OSC}labcde${ST}`],
  },
  {
    name: "the reports can be turned off",
    input: "",
    check: (t) => {
      t.term.setTitleReports(false);
      t.term.write(`${OSC}2;x${ST}${CSI}21t${CSI}20t`);
      assertEquals(t.replies, []);
    },
  },
  {
    name: "22/23 keep the icon and window titles on their own stacks",
    input: `${OSC}1;i1${ST}${OSC}2;w1${ST}${CSI}22;1t${CSI}22;2t` +
      `${OSC}0;x${ST}${CSI}23;1t${CSI}20t${CSI}21t${CSI}23;2t${CSI}21t`,
    replies: [
      `${OSC}Li1${ST}`,
      `${OSC}lx${ST}`,
      `${OSC}lw1${ST}`,
    ],
  },
  {
    name: "each stack holds 10",
    input: Array.from({ length: 12 }, (_, i) => `${OSC}2;t${i}${ST}${CSI}22;2t`)
      .join("") + `${CSI}23;2t`.repeat(12) + `${CSI}21t`,
    replies: [`${OSC}lt2${ST}`],
  },
]);

runCases("title modes", [
  {
    name: "hex titles set and reported (XTSMTITLE 0 and 1)",
    input: `${CSI}>0;1t${OSC}2;414243${ST}${CSI}21t`,
    replies: [`${OSC}l414243${ST}`],
    check: (t) => assertEquals(t.term.title, "ABC"),
  },
  {
    name: "UTF-8 in hex",
    input: `${CSI}>0t${OSC}2;c3a9${ST}${CSI}21t`,
    replies: [`${OSC}l\u00e9${ST}`],
  },
  {
    name: "XTRMTITLE turns them off",
    input: `${CSI}>0;1t${CSI}>0;1T${OSC}2;41${ST}${CSI}21t`,
    replies: [`${OSC}l41${ST}`],
  },
  {
    name: "RIS resets them",
    input: `${CSI}>1t${ESC}c${OSC}2;A${ST}${CSI}21t`,
    replies: [`${OSC}lA${ST}`],
  },
]);

runCases("reverse wraparound and margins", [
  {
    name: "BS in column 1 goes to the end of the previous line (?1045)",
    cols: 10,
    rows: 3,
    input: `${CSI}?1045h${CSI}2;1H\b`,
    cursor: [9, 0],
  },
  {
    name: "CUB wraps as far as it counts",
    cols: 10,
    rows: 3,
    input: `${CSI}?1045h${CSI}2;2H${CSI}3D`,
    cursor: [8, 0],
  },
  {
    name: "without autowrap there is no reverse wrap",
    cols: 10,
    rows: 3,
    input: `${CSI}?45h${CSI}?7l${CSI}2;1H\b`,
    cursor: [0, 1],
  },
  {
    name: "?45 goes back over a soft wrap only (xterm 383, esctest2)",
    cols: 10,
    rows: 3,
    input: `${CSI}?45h${"x".repeat(12)}\r\b${CSI}2;1H\b`,
    cursor: [9, 0],
  },
  {
    name: "?45 stops at a line that did not wrap",
    cols: 10,
    rows: 3,
    input: `${CSI}?45hab\r\n\b${CSI}3D`,
    cursor: [0, 1],
  },
  {
    name: "?45 stops at the top-left",
    cols: 10,
    rows: 3,
    input: `${CSI}?45h${CSI}H\b${CSI}5D`,
    cursor: [0, 0],
  },
  {
    name: "?1045 wraps from the top row to the bottom one",
    cols: 10,
    rows: 3,
    input: `${CSI}?45;1045h${CSI}H\b`,
    cursor: [9, 2],
  },
  {
    name: "a pending wrap counts as one step",
    cols: 10,
    rows: 3,
    input: `${CSI}?45h0123456789\bX`,
    screen: "012345678X",
    cursor: [9, 0],
  },
  {
    name: "inside left/right margins it wraps within them",
    cols: 10,
    rows: 3,
    input: `${CSI}?1045h${CSI}?69h${CSI}3;6s${CSI}2;3H\b`,
    cursor: [5, 0],
  },
  {
    name: "CBT ignores the left margin",
    input: `${CSI}?69h${CSI}5;20s${CSI}1;7H${CSI}Z`,
    cursor: [0, 0],
  },
  {
    name: "NEL goes to the left margin",
    input: `${CSI}?69h${CSI}3;6s${CSI}1;4H${ESC}E`,
    cursor: [2, 1],
  },
]);

const hex = (s: string) =>
  [...s].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("")
    .toUpperCase();

runCases("XTGETTCAP", [
  {
    name: "TN and Co",
    input: `${DCS}+q${hex("TN")};${hex("Co")}${ST}`,
    replies: [
      `${DCS}1+r${hex("TN")}=${hex("xterm-256color")};${hex("Co")}=${
        hex("256")
      }${ST}`,
    ],
  },
  {
    name: "a key",
    input: `${DCS}+q${hex("kf5")}${ST}`,
    replies: [`${DCS}1+r${hex("kf5")}=${hex("\x1b[15~")}${ST}`],
  },
  {
    name: "an unknown name",
    input: `${DCS}+q${hex("zz")}${ST}`,
    replies: [`${DCS}0+r${hex("zz")}${ST}`],
  },
]);

runCases("page size requests", [
  {
    name: "DECSNLS asks for lines, DECSCPP for 132 columns: at once",
    input: `${CSI}30*|${CSI}18t${CSI}132$|${CSI}18t${CSI}$|${CSI}18t`,
    replies: [`${CSI}8;30;80t`, `${CSI}8;30;132t`, `${CSI}8;30;80t`],
    check: (t) =>
      assertEquals(t.events.filter((e) => e.type === "resize-request"), [
        { type: "resize-request", rows: 30, cols: 80 },
        { type: "resize-request", rows: 30, cols: 132 },
        { type: "resize-request", rows: 30, cols: 80 },
      ]),
  },
]);

runCases("features by conformance level", [
  {
    name: "DECFRA needs level 4",
    cols: 10,
    rows: 2,
    input: `${CSI}63"p${CSI}88;1;1;1;3$x${CSI}64"p${CSI}89;2;1;2;3$x`,
    screen: "\nYYY",
  },
  {
    name: "the selective erases need level 2",
    input: `${CSI}61"pAB\r${CSI}?K${CSI}62"p\n${CSI}1"qC${CSI}0"qD\r${CSI}?K`,
    screen: "AB\nC",
  },
]);

Deno.test("conformance state survives a snapshot (an attaching window is exact)", () => {
  const setup = `${CSI}63;0"p${OSC}5;2;#123456${ST}${OSC}17;blue${ST}` +
    `${CSI}>0;1t${OSC}2;414243${ST}${CSI}2t${CSI}3;40;50t${CSI}2h` +
    `${CSI}?1045;95h${CSI}?1010l${ESC}V`;
  const queries = `${OSC}5;2;?${ST}${OSC}17;?${ST}${CSI}21t${CSI}11t${CSI}13t` +
    `${CSI}2$p${CSI}?1045$p${CSI}?95$p${CSI}?1010$p${DCS}$q"p${ST}` +
    `${CSI}c${DCS}$q"q${ST}`;
  const answers = (term: Terminal, out: string[]) => {
    out.length = 0;
    term.write(queries);
    return [...out];
  };
  const a: string[] = [];
  const first = new Terminal({ cols: 80, rows: 24, reply: (d) => a.push(d) });
  first.write(setup);
  const want = answers(first, a);
  const b: string[] = [];
  const second = Terminal.restore(
    JSON.parse(JSON.stringify(first.snapshot())),
    { reply: (d) => b.push(d) },
  );
  assertEquals(answers(second, b), want);
  assertEquals(want.length, 12, JSON.stringify(want));
});
