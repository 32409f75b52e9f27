/**
 * ESCAPES.md section 1 pieces: DECRQM for every mode, DECRQSS, window
 * reports, OSC 7 / 52 / 9;4 and XTWINOPS 8 events, national replacement
 * character sets, DEC double-size lines, DECSTR and RIS.
 */
import {
  assertEquals,
  cell,
  CSI,
  DCS,
  ESC,
  OSC,
  runCases,
  screenLine,
  ST,
} from "./helpers.ts";
import { NRC_SETS } from "../../core/emulator/charsets.ts";

/** DECRQM cases: [mode (with "?" for DEC), setup input, expected value]. */
const RQM: [string, string, number][] = [
  ["?1", "", 2],
  ["?1", `${CSI}?1h`, 1],
  ["?2", "", 1], // xterm: DECANM set (ANSI)
  ["?3", "", 2],
  ["?3", `${CSI}?40h${CSI}?3h`, 1],
  ["?4", "", 2], // xterm keeps DECSCLM as a flag
  ["?4", `${CSI}?4h`, 1],
  ["?5", `${CSI}?5h`, 1],
  ["?6", `${CSI}?6h`, 1],
  ["?7", "", 1],
  ["?8", "", 1], // xterm: auto-repeat on
  ["?8", `${CSI}?8l`, 2],
  ["?9", `${CSI}?9h`, 1],
  ["?12", `${CSI}?12h`, 1],
  ["?25", `${CSI}?25l`, 2],
  ["?40", "", 2],
  ["?40", `${CSI}?40h`, 1],
  ["?42", `${CSI}?42h`, 1],
  // xterm sets DECNRCM only from level 2 and DECNCSM from level 5.
  ["?42", `${CSI}61"p${CSI}?42h${CSI}65;1"p`, 2],
  ["?95", `${CSI}64;1"p${CSI}?95h${CSI}65;1"p`, 2],
  ["?95", `${CSI}?95h`, 1],
  ["?43", "", 2], // DECGEPM: ctlseqs lists it; kept as a reported flag
  ["?43", `${CSI}?43h`, 1],
  ["?45", `${CSI}?45h`, 1],
  ["?47", `${CSI}?47h`, 1],
  ["?66", `${CSI}?66h`, 1],
  ["?66", `${ESC}=`, 1],
  ["?67", "", 2], // DECBKM: Backspace sends DEL (Debian's xterm)
  ["?67", `${CSI}?67h`, 1],
  ["?69", "", 2],
  ["?1000", `${CSI}?1000h`, 1],
  ["?1002", `${CSI}?1002h`, 1],
  ["?1003", `${CSI}?1003h`, 1],
  ["?1000", `${CSI}?1003h`, 2],
  ["?1004", `${CSI}?1004h`, 1],
  ["?1005", `${CSI}?1005h`, 1],
  ["?1006", `${CSI}?1006h`, 1],
  ["?1006", "", 2],
  ["?1007", `${CSI}?1007h`, 1],
  ["?1015", `${CSI}?1015h`, 1],
  ["?1016", `${CSI}?1016h`, 1],
  ["?1047", `${CSI}?1047h`, 1],
  ["?1048", "", 2],
  ["?1048", `${ESC}7`, 1],
  ["?1049", `${CSI}?1049h`, 1],
  ["?2004", "", 2],
  ["?2004", `${CSI}?2004h`, 1],
  ["?2026", `${CSI}?2026h`, 1],
  ["?2026", "", 2],
  ["?9999", "", 0],
  ["1", "", 4],
  ["2", "", 2], // KAM: xterm reports the flag
  ["2", `${CSI}2h`, 1],
  ["3", "", 2], // CRM: xterm's do_rpm answers mdMaybeReset, not permanently
  ["4", "", 2],
  ["4", `${CSI}4h`, 1],
  ["12", "", 1], // SRM: set (no local echo) is xterm's default
  ["12", `${CSI}12l`, 2],
  ["13", "", 4],
  ["20", `${CSI}20h`, 1],
  ["20", "", 2],
  ["21", "", 0],
];

runCases(
  "DECRQM",
  RQM.map(([mode, setup, value]) => ({
    name: `${mode} after ${JSON.stringify(setup)} is ${value}`,
    input: `${setup}${CSI}${mode}$p`,
    replies: [`${CSI}${mode};${value}$y`],
  })),
);

runCases("DECRQSS", [
  {
    name: "DECSCPP (columns)",
    cols: 100,
    input: `${DCS}$q$|${ST}`,
    replies: [`${DCS}1$r100$|${ST}`],
  },
  {
    name: "DECSNLS (rows)",
    rows: 30,
    input: `${DCS}$q*|${ST}`,
    replies: [`${DCS}1$r30*|${ST}`],
  },
  {
    name: "DECSLPP (rows)",
    input: `${DCS}$qt${ST}`,
    replies: [`${DCS}1$r24t${ST}`],
  },
  {
    name: "DECSLRM after margins",
    input: `${CSI}?69h${CSI}5;40s${DCS}$qs${ST}`,
    replies: [`${DCS}1$r5;40s${ST}`],
  },
  {
    name: "SGR with everything",
    input: `${CSI}1;2;3;5;7;8;9;53;31;44m${DCS}$qm${ST}`,
    replies: [`${DCS}1$r0;1;2;3;5;7;8;9;53;31;44m${ST}`],
  },
  {
    name: "an unknown request is refused",
    input: `${DCS}$q+z${ST}`,
    replies: [`${DCS}0$r${ST}`],
  },
]);

runCases("window ops", [
  {
    name: "14 t: text area in pixels (8x16 cells by default)",
    input: `${CSI}14t`,
    replies: [`${CSI}4;384;640t`],
  },
  {
    name: "16 t: cell size",
    input: `${CSI}16t`,
    replies: [`${CSI}6;16;8t`],
  },
  {
    name: "15 t: screen in pixels (the text area)",
    input: `${CSI}15t`,
    replies: [`${CSI}5;384;640t`],
  },
  {
    name: "a fractional cell size is rounded after multiplying",
    input: "",
    check: (t) => {
      t.term.setCellSize(8.4, 17.6);
      t.term.write(`${CSI}14t${CSI}16t`);
      assertEquals(t.replies, [`${CSI}4;422;672t`, `${CSI}6;18;8t`]);
    },
  },
  {
    name: "18 t: text area in characters",
    cols: 100,
    rows: 30,
    input: `${CSI}18t`,
    replies: [`${CSI}8;30;100t`],
  },
  {
    name: "22/23 t push and pop the title",
    input: `${OSC}2;one\x07${CSI}22;2t${OSC}2;two\x07${CSI}23;2t`,
    check: (t) => assertEquals(t.term.title, "one"),
  },
  {
    name: "23 t with an empty stack does nothing",
    input: `${OSC}2;one\x07${CSI}23t`,
    check: (t) => assertEquals(t.term.title, "one"),
  },
  {
    name: "the title stack is bounded",
    input: `${CSI}22t`.repeat(1000),
    check: (t) => {
      t.term.write(`${OSC}2;x\x07`);
      for (let i = 0; i < 1000; i++) t.term.write(`${CSI}23t`);
      assertEquals(t.term.title, "");
    },
  },
  {
    name: "8 t asks for a size: the model takes it at once",
    input: `${CSI}8;10;40t${CSI}18t`,
    replies: [`${CSI}8;10;40t`],
    check: (t) =>
      assertEquals(t.events, [
        { type: "resize", rows: 10, cols: 40 },
        { type: "resize-request", rows: 10, cols: 40 },
      ]),
  },
  {
    name: "8 t: omitted parameters keep the size, 0 is the window's",
    input: `${CSI}8;;0t`,
    check: (t) =>
      assertEquals(t.events, [{ type: "resize-request", rows: 24, cols: 0 }]),
  },
  {
    name: "8 t: huge requests are clamped (the model at 1000 x 500)",
    input: `${CSI}8;99999;99999t${CSI}18t`,
    replies: [`${CSI}8;500;1000t`],
    check: (t) =>
      assertEquals(t.events, [
        { type: "resize", rows: 500, cols: 1000 },
        { type: "resize-request", rows: 2048, cols: 4096 },
      ]),
  },
]);

runCases("OSC events", [
  {
    name: "OSC 7 keeps the directory and reports it",
    input: `${OSC}7;file://host/home/me\x07`,
    check: (t) => {
      assertEquals(t.term.cwd, "file://host/home/me");
      assertEquals(t.events, [{ type: "cwd", url: "file://host/home/me" }]);
    },
  },
  {
    name: "OSC 7 with something that is not a file URL is ignored",
    input: `${OSC}7;/home/me\x07${OSC}7;http://x/\x07`,
    check: (t) => {
      assertEquals(t.term.cwd, "");
      assertEquals(t.events, []);
    },
  },
  {
    name: "OSC 52 sets the clipboard (base64 of UTF-8)",
    input: `${OSC}52;c;${btoa("héllo".replace("é", "\xc3\xa9"))}\x07`,
    check: (t) =>
      assertEquals(t.events, [{
        type: "clipboard",
        selection: "c",
        text: "héllo",
      }]),
  },
  {
    name: "OSC 52 with an empty selection list and unpadded base64",
    input: `${OSC}52;;YWJj${ST}`,
    check: (t) =>
      assertEquals(t.events, [{
        type: "clipboard",
        selection: "",
        text: "abc",
      }]),
  },
  {
    name: "OSC 52 with data that is not base64 clears the clipboard",
    input: `${OSC}52;c;not base64!\x07`,
    check: (t) =>
      assertEquals(t.events, [{ type: "clipboard", selection: "c", text: "" }]),
  },
  {
    name: "OSC 52 query: no answer from the core, a clipboard-read event",
    input: `${OSC}52;c;?\x07`,
    replies: [],
    check: (t) => {
      assertEquals(t.events, [{ type: "clipboard-read", selection: "c" }]);
      assertEquals(
        t.term.clipboardReply("c", "héllo 52"),
        `${OSC}52;c;aMOpbGxvIDUy${ST}`,
      );
      assertEquals(t.term.clipboardReply("", ""), `${OSC}52;s0;${ST}`);
    },
  },
  {
    name: "OSC 52 with a bad selection is ignored",
    input: `${OSC}52;xyz;YWJj\x07`,
    check: (t) => assertEquals(t.events, []),
  },
  {
    name: "OSC 9;4 progress",
    input:
      `${OSC}9;4;1;42\x07${OSC}9;4;3\x07${OSC}9;4;0;0\x07${OSC}9;4;2;250\x07`,
    check: (t) =>
      assertEquals(t.events, [
        { type: "progress", state: 1, percent: 42 },
        { type: "progress", state: 3, percent: 0 },
        { type: "progress", state: 0, percent: 0 },
        { type: "progress", state: 2, percent: 100 },
      ]),
  },
  {
    name: "OSC 9;4 with a bad state is ignored",
    input: `${OSC}9;4;7;1\x07${OSC}9;4;x\x07`,
    check: (t) => assertEquals(t.events, []),
  },
]);

runCases("NRCS", [
  {
    name: "national sets need DECNRCM",
    input: `${ESC}(K@[\\]{|}~`,
    screen: "@[\\]{|}~",
  },
  {
    name: "German with DECNRCM",
    input: `${CSI}?42h${ESC}(K@[\\]{|}~`,
    screen: "§ÄÖÜäöüß",
  },
  {
    name: "French into G1, shifted in with SO",
    input: `${CSI}?42h${ESC})R\x0e#@{\x0f#`,
    screen: "£àé#",
  },
  {
    name: "Portuguese (% 6) into G2 with SS2",
    input: `${CSI}?42h${ESC}*%6${ESC}N[[`,
    screen: "Ã[",
  },
  {
    name: "Swedish by either final",
    input: `${CSI}?42h${ESC}(H@${ESC}(7@`,
    screen: "ÉÉ",
  },
  {
    name: "UK works without DECNRCM",
    input: `${ESC}(A#`,
    screen: "£",
  },
  {
    name: "DEC Supplemental (% 5)",
    input: `${ESC}(%5!W}`,
    screen: "¡Œÿ",
  },
  {
    name: "Latin-1 supplemental (96-set) into G1",
    input: `${ESC}-A\x0e!i\x0f`,
    screen: "¡é",
  },
  {
    name: "an unknown designator leaves the set alone",
    input: `${ESC}(0${ESC}(%9q`,
    screen: "─",
  },
  {
    name: "ESC ( B returns to ASCII",
    input: `${CSI}?42h${ESC}(K[${ESC}(B[`,
    screen: "Ä[",
  },
]);

Deno.test("NRCS: every national set replaces only the 12 NRC positions", () => {
  const positions = new Set([..."#@[\\]^_`{|}~"].map((c) => c.charCodeAt(0)));
  for (const [name, t] of Object.entries(NRC_SETS)) {
    for (let c = 0; c < 128; c++) {
      if (t[c] !== c && !positions.has(c)) {
        throw new Error(`${name} changes ${c}`);
      }
    }
  }
});

runCases("double-size lines", [
  {
    name: "ESC # 6 makes the line double width; printing wraps at half",
    cols: 10,
    rows: 3,
    input: `${ESC}#6abcdefg`,
    screen: "abcde\nfg",
    cursor: [2, 1],
    check: (t) => {
      assertEquals(screenLine(t.term, 0).size, 1);
      assertEquals(screenLine(t.term, 0).wrapped, true);
      assertEquals(screenLine(t.term, 1).size, 0);
    },
  },
  {
    name: "the cursor stops at the half on a double-width line",
    cols: 10,
    rows: 3,
    input: `${ESC}#6${CSI}20C${CSI}6n${CSI}9G${CSI}6n`,
    replies: [`${CSI}1;5R`, `${CSI}1;5R`],
  },
  {
    name: "setting double width moves a cursor beyond the half",
    cols: 10,
    rows: 3,
    input: `${CSI}9G${ESC}#6X`,
    screen: "    X",
    cursor: [4, 0],
  },
  {
    name: "ESC # 3 / ESC # 4 mark top and bottom halves",
    cols: 10,
    rows: 3,
    input: `${ESC}#3Big\r\n${ESC}#4Big`,
    screen: "Big\nBig",
    check: (t) => {
      assertEquals(screenLine(t.term, 0).size, 2);
      assertEquals(screenLine(t.term, 1).size, 3);
    },
  },
  {
    name: "ESC # 5 makes it single again",
    cols: 10,
    rows: 3,
    input: `${ESC}#6${ESC}#5abcdefghij`,
    screen: "abcdefghij",
    check: (t) => assertEquals(screenLine(t.term, 0).size, 0),
  },
  {
    name: "a tab stops at the half",
    cols: 20,
    rows: 3,
    input: `${ESC}#6\t\t\tx`,
    cursor: [9, 0],
    check: (t) => assertEquals(cell(t.term, 9, 0).text, "x"),
  },
  {
    name: "a wide character that does not fit wraps from the half",
    cols: 10,
    rows: 3,
    input: `${ESC}#6abcd字`,
    screen: "abcd\n字",
  },
  {
    name: "ED 2 makes the lines single size again",
    cols: 10,
    rows: 3,
    input: `${ESC}#6${CSI}2J`,
    check: (t) => assertEquals(screenLine(t.term, 0).size, 0),
  },
  {
    name: "EL keeps the line size",
    cols: 10,
    rows: 3,
    input: `${ESC}#6${CSI}2K`,
    check: (t) => assertEquals(screenLine(t.term, 0).size, 1),
  },
  {
    name: "DECALN makes the lines single size",
    cols: 4,
    rows: 2,
    input: `${ESC}#3${ESC}#8`,
    screen: "EEEE\nEEEE",
    check: (t) => assertEquals(screenLine(t.term, 0).size, 0),
  },
  {
    name: "the size scrolls with its line",
    cols: 10,
    rows: 2,
    input: `${ESC}#6a\r\nb\r\nc`,
    history: ["a"],
    check: (t) => {
      assertEquals(t.term.normalBuffer.getLine(0).size, 1);
      assertEquals(screenLine(t.term, 1).size, 0);
    },
  },
  {
    name: "RIS makes the lines single size",
    cols: 10,
    rows: 2,
    input: `${ESC}#6${ESC}c`,
    check: (t) => assertEquals(screenLine(t.term, 0).size, 0),
  },
]);

runCases("DECSTR", [
  {
    name: "resets the cursor shape, DECLRMM, charsets, IRM, DECCKM, keypad",
    input: `${CSI}4 q${CSI}?69h${CSI}5;10s${ESC}(0${CSI}4h${CSI}?1h${ESC}=` +
      `${CSI}!p${CSI}?69$p${CSI}4$p${CSI}?1$p${CSI}?66$p${DCS}$q q${ST}q`,
    replies: [
      `${CSI}?69;2$y`,
      `${CSI}4;2$y`,
      `${CSI}?1;2$y`,
      `${CSI}?66;2$y`,
      `${DCS}1$r2 q${ST}`,
    ],
    screen: "q",
    check: (t) => {
      assertEquals(t.term.margins, { left: 0, right: 79 });
      assertEquals(t.term.cursorStyle, "block");
    },
  },
  {
    name: "keeps the screen, the cursor position, DECSCNM and bracketed paste",
    input: `abc${CSI}?5h${CSI}?2004h${CSI}!p${CSI}?5$p${CSI}?2004$p`,
    screen: "abc",
    cursor: [3, 0],
    replies: [`${CSI}?5;1$y`, `${CSI}?2004;1$y`],
  },
  {
    name: "a cursor counts as saved afterwards (?1048), as in xterm",
    input: `${CSI}!p${CSI}?1048$p${ESC}c${CSI}?1048$p`,
    replies: [`${CSI}?1048;1$y`, `${CSI}?1048;1$y`],
  },
  {
    name: "the saved cursor becomes home with the default rendition",
    input:
      `${CSI}5;5H${CSI}1m${ESC}7${CSI}!p${CSI}3;3H${ESC}8${CSI}6n${DCS}$qm${ST}`,
    replies: [`${CSI}1;1R`, `${DCS}1$r0m${ST}`],
  },
]);

runCases("RIS", [
  {
    name: "resets every mode, the palette, the title stack and DECNRCM",
    input: `${CSI}?2004h${CSI}?1006h${CSI}?1003h${CSI}?2026h${CSI}?42h` +
      `${OSC}4;1;#010203\x07${ESC}c${CSI}?2004$p${CSI}?1006$p${CSI}?1003$p` +
      `${CSI}?2026$p${CSI}?42$p`,
    replies: [
      `${CSI}?2004;2$y`,
      `${CSI}?1006;2$y`,
      `${CSI}?1003;2$y`,
      `${CSI}?2026;2$y`,
      `${CSI}?42;2$y`,
    ],
    check: (t) => assertEquals(t.term.paletteOverride(1), null),
  },
]);

runCases("DECRQCRA", [
  {
    name: "sum of code points, blanks count as spaces",
    cols: 10,
    rows: 2,
    input: `AB${CSI}1;1;1;1;1;3*y`,
    // 0x41 + 0x42 + 0x20
    replies: [`${DCS}1!~00A3${ST}`],
  },
  {
    name: "16-bit wrap-around",
    cols: 80,
    rows: 24,
    input: `${CSI}7*y`,
    // 80*24 blanks = 1920 * 0x20 = 0xF000
    replies: [`${DCS}7!~F000${ST}`],
  },
  {
    name: "a wide character counts once",
    cols: 10,
    rows: 1,
    input: `字${CSI}2;1;1;1;1;2*y`,
    replies: [`${DCS}2!~5B57${ST}`],
  },
]);

runCases("combining marks", [
  {
    name: "a long run of marks on one cell stays bounded",
    cols: 10,
    rows: 2,
    input: "e" + "\u0301".repeat(100000) + "x",
    cursor: [2, 0],
    check: (t) => {
      const text = cell(t.term, 0, 0).text;
      if (text.length > 32) throw new Error(`cluster of ${text.length}`);
      assertEquals(text.startsWith("e\u0301"), true);
      assertEquals(cell(t.term, 1, 0).text, "x");
    },
  },
  {
    name: "a million marks and ZWJs in one write are dropped quickly",
    cols: 10,
    rows: 2,
    input: "",
    check: (t) => {
      const start = performance.now();
      t.term.write(
        "e" + "\u0301".repeat(1_000_000) + "\u200d".repeat(1_000_000),
      );
      const ms = performance.now() - start;
      const text = cell(t.term, 0, 0).text;
      if (text.length > 34) throw new Error(`cluster of ${text.length}`);
      if (ms > 10_000) throw new Error(`2M marks took ${ms} ms`);
      assertEquals([t.term.cursorX, t.term.cursorY], [1, 0]);
    },
  },
  {
    name: "marks written one at a time stay bounded too",
    cols: 10,
    rows: 2,
    input: "",
    check: (t) => {
      t.term.write("e");
      const start = performance.now();
      for (let i = 0; i < 20000; i++) t.term.write("\u0308");
      const ms = performance.now() - start;
      const text = cell(t.term, 0, 0).text;
      if (text.length > 32) throw new Error(`cluster of ${text.length}`);
      if (ms > 5000) throw new Error(`20000 marks took ${ms} ms`);
    },
  },
]);
