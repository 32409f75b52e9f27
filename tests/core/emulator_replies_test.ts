import { assertEquals, CSI, DCS, OSC, runCases, ST } from "./helpers.ts";
import { DA2_VERSION } from "../../core/emulator/replies.ts";

const DA1 = `${CSI}?65;1;2;6;8;9;15;16;17;18;21;22;28c`;

runCases("replies", [
  { name: "DA1", input: `${CSI}c`, replies: [DA1] },
  { name: "DA1 with 0", input: `${CSI}0c`, replies: [DA1] },
  {
    name: "DA1 with another parameter is ignored",
    input: `${CSI}1c`,
    replies: [],
  },
  { name: "DECID (ESC Z) answers like DA1", input: `\x1bZ`, replies: [DA1] },
  { name: "DA2", input: `${CSI}>c`, replies: [`${CSI}>990;${DA2_VERSION};0c`] },
  { name: "DA2 with 0", input: `${CSI}>0c`, replies: [`${CSI}>990;10;0c`] },
  { name: "DA3", input: `${CSI}=c`, replies: [`${DCS}!|00000000${ST}`] },
  {
    name: "XTVERSION",
    input: `${CSI}>q`,
    replies: [`${DCS}>|domterm(0.1.0)${ST}`],
  },
  {
    name: "XTVERSION with 0",
    input: `${CSI}>0q`,
    replies: [`${DCS}>|domterm(0.1.0)${ST}`],
  },
  { name: "DSR 5", input: `${CSI}5n`, replies: [`${CSI}0n`] },
  { name: "CPR", input: `${CSI}3;7H${CSI}6n`, replies: [`${CSI}3;7R`] },
  { name: "CPR at home", input: `${CSI}6n`, replies: [`${CSI}1;1R`] },
  {
    name: "CPR with the pending wrap reports the last column",
    cols: 10,
    rows: 3,
    input: `0123456789${CSI}6n`,
    replies: [`${CSI}1;10R`],
  },
  {
    name: "CPR in origin mode is relative",
    input: `${CSI}5;20r${CSI}?6h${CSI}2;3H${CSI}6n`,
    replies: [`${CSI}2;3R`],
  },
  { name: "DECXCPR", input: `${CSI}4;2H${CSI}?6n`, replies: [`${CSI}?4;2;1R`] },
  { name: "DSR printer", input: `${CSI}?15n`, replies: [`${CSI}?13n`] },
  {
    name: "DSR UDK (unlocked, as xterm)",
    input: `${CSI}?25n`,
    replies: [`${CSI}?20n`],
  },
  { name: "DSR keyboard", input: `${CSI}?26n`, replies: [`${CSI}?27;1;0;0n`] },
  { name: "DSR locator", input: `${CSI}?55n`, replies: [`${CSI}?50n`] },
  { name: "unknown DSR is ignored", input: `${CSI}99n${CSI}?99n`, replies: [] },
  { name: "DECRQM ?7 set", input: `${CSI}?7$p`, replies: [`${CSI}?7;1$y`] },
  {
    name: "DECRQM ?7 reset",
    input: `${CSI}?7l${CSI}?7$p`,
    replies: [`${CSI}?7;2$y`],
  },
  { name: "DECRQM ?25", input: `${CSI}?25$p`, replies: [`${CSI}?25;1$y`] },
  {
    name: "DECRQM ?1",
    input: `${CSI}?1h${CSI}?1$p`,
    replies: [`${CSI}?1;1$y`],
  },
  { name: "DECRQM ?6", input: `${CSI}?6$p`, replies: [`${CSI}?6;2$y`] },
  {
    name: "DECRQM ?69",
    input: `${CSI}?69h${CSI}?69$p`,
    replies: [`${CSI}?69;1$y`],
  },
  {
    name: "DECRQM ?1049",
    input: `${CSI}?1049h${CSI}?1049$p`,
    replies: [`${CSI}?1049;1$y`],
  },
  {
    name: "DECRQM ?47 when normal",
    input: `${CSI}?47$p`,
    replies: [`${CSI}?47;2$y`],
  },
  {
    name: "DECRQM ?2004",
    input: `${CSI}?2004h${CSI}?2004$p`,
    replies: [`${CSI}?2004;1$y`],
  },
  {
    name: "DECRQM ?2026",
    input: `${CSI}?2026$p`,
    replies: [`${CSI}?2026;2$y`],
  },
  {
    name: "DECRQM mouse modes",
    input: `${CSI}?1002h${CSI}?1000$p${CSI}?1002$p`,
    replies: [`${CSI}?1000;2$y`, `${CSI}?1002;1$y`],
  },
  {
    name: "DECRQM ?1006",
    input: `${CSI}?1006h${CSI}?1006$p`,
    replies: [`${CSI}?1006;1$y`],
  },
  {
    name: "DECRQM unknown DEC mode",
    input: `${CSI}?12345$p`,
    replies: [`${CSI}?12345;0$y`],
  },
  { name: "DECRQM IRM", input: `${CSI}4h${CSI}4$p`, replies: [`${CSI}4;1$y`] },
  { name: "DECRQM LNM", input: `${CSI}20$p`, replies: [`${CSI}20;2$y`] },
  {
    name: "DECRQM unknown ANSI mode",
    input: `${CSI}99$p`,
    replies: [`${CSI}99;0$y`],
  },
  {
    name: "DECRQSS SGR default",
    input: `${DCS}$qm${ST}`,
    replies: [`${DCS}1$r0m${ST}`],
  },
  {
    name: "DECRQSS SGR",
    input: `${CSI}1;4;31;48;5;200m${DCS}$qm${ST}`,
    replies: [`${DCS}1$r0;1;4;31;48;5;200m${ST}`],
  },
  {
    name: "DECRQSS SGR direct colour",
    input: `${CSI}38;2;1;2;3;4:3m${DCS}$qm${ST}`,
    replies: [`${DCS}1$r0;4:3;38;2;1;2;3m${ST}`],
  },
  {
    name: "DECRQSS DECSTBM",
    input: `${DCS}$qr${ST}`,
    replies: [`${DCS}1$r1;24r${ST}`],
  },
  {
    name: "DECRQSS DECSTBM set",
    input: `${CSI}2;10r${DCS}$qr${ST}`,
    replies: [`${DCS}1$r2;10r${ST}`],
  },
  {
    name: "DECRQSS DECSLRM",
    input: `${DCS}$qs${ST}`,
    replies: [`${DCS}1$r1;80s${ST}`],
  },
  {
    name: "DECRQSS DECSCUSR",
    input: `${CSI}5 q${DCS}$q q${ST}`,
    replies: [`${DCS}1$r5 q${ST}`],
  },
  {
    name: "DECRQSS DECSCUSR default",
    input: `${DCS}$q q${ST}`,
    replies: [`${DCS}1$r2 q${ST}`],
  },
  {
    name: "DECRQSS DECSCA",
    input: `${DCS}$q"q${ST}`,
    replies: [`${DCS}1$r0"q${ST}`],
  },
  {
    name: "DECRQSS DECSCA set",
    input: `${CSI}1"q${DCS}$q"q${ST}`,
    replies: [`${DCS}1$r1"q${ST}`],
  },
  {
    name: "DECRQSS DECSCL",
    input: `${DCS}$q"p${ST}`,
    replies: [`${DCS}1$r65;1"p${ST}`],
  },
  {
    name: "DECRQSS unknown",
    input: `${DCS}$qx${ST}`,
    replies: [`${DCS}0$r${ST}`],
  },
  { name: "other DCS is ignored", input: `${DCS}1;2|abc${ST}`, replies: [] },
  { name: "XTWINOPS 14", input: `${CSI}14t`, replies: [`${CSI}4;384;640t`] },
  { name: "XTWINOPS 16", input: `${CSI}16t`, replies: [`${CSI}6;16;8t`] },
  { name: "XTWINOPS 18", input: `${CSI}18t`, replies: [`${CSI}8;24;80t`] },
  { name: "XTWINOPS 19", input: `${CSI}19t`, replies: [`${CSI}9;24;80t`] },
  { name: "XTWINOPS 11", input: `${CSI}11t`, replies: [`${CSI}1t`] },
  {
    name: "XTWINOPS resize requests are ignored",
    input: `${CSI}8;10;10t`,
    replies: [],
  },
  {
    name: "setCellSize changes pixel reports",
    input: "",
    check: (t) => {
      t.term.setCellSize(10, 20);
      t.term.write(`${CSI}16t${CSI}14t`);
      assertEquals(t.replies, [`${CSI}6;20;10t`, `${CSI}4;480;800t`]);
    },
  },
  {
    name: "OSC 10 query ended by BEL is answered with BEL (as xterm)",
    input: `${OSC}10;?\x07`,
    replies: [`${OSC}10;rgb:d0d0/d0d0/d0d0\x07`],
  },
  {
    name: "OSC 4 query ended by BEL is answered with BEL",
    input: `${OSC}4;1;?\x07${OSC}4;1;?${ST}`,
    replies: [
      `${OSC}4;1;rgb:cdcd/0000/0000\x07`,
      `${OSC}4;1;rgb:cdcd/0000/0000${ST}`,
    ],
  },
  {
    name: "OSC 11 query",
    input: `${OSC}11;?${ST}`,
    replies: [`${OSC}11;rgb:0000/0000/0000${ST}`],
  },
  {
    name: "OSC 12 query",
    input: `${OSC}12;?${ST}`,
    replies: [`${OSC}12;rgb:d0d0/d0d0/d0d0${ST}`],
  },
  {
    name: "OSC 10 with two queries answers 10 and 11",
    input: `${OSC}10;?;?${ST}`,
    replies: [
      `${OSC}10;rgb:d0d0/d0d0/d0d0${ST}`,
      `${OSC}11;rgb:0000/0000/0000${ST}`,
    ],
  },
  {
    name: "OSC 11 set then query",
    input: `${OSC}11;#102030${ST}${OSC}11;?${ST}`,
    replies: [`${OSC}11;rgb:1010/2020/3030${ST}`],
    check: (t) => assertEquals(t.term.dynamicColorOverride(1), "#102030"),
  },
  {
    name: "OSC 111 resets the background",
    input: `${OSC}11;#102030${ST}${OSC}111${ST}${OSC}11;?${ST}`,
    replies: [`${OSC}11;rgb:0000/0000/0000${ST}`],
  },
  {
    name: "OSC 110 / 112 reset foreground and cursor",
    input: `${OSC}10;#111111;#222222;#333333${ST}${OSC}110${ST}${OSC}112${ST}`,
    check: (t) => {
      assertEquals(t.term.dynamicColorOverride(0), null);
      assertEquals(t.term.dynamicColorOverride(1), "#222222");
      assertEquals(t.term.dynamicColorOverride(2), null);
    },
  },
  {
    name: "OSC 4 query default",
    input: `${OSC}4;1;?${ST}`,
    replies: [`${OSC}4;1;rgb:cdcd/0000/0000${ST}`],
  },
  {
    name: "OSC 4 query cube colour",
    input: `${OSC}4;196;?${ST}`,
    replies: [`${OSC}4;196;rgb:ffff/0000/0000${ST}`],
  },
  {
    name: "OSC 4 query grey",
    input: `${OSC}4;232;?${ST}`,
    replies: [`${OSC}4;232;rgb:0808/0808/0808${ST}`],
  },
  {
    name: "OSC 4 set and query",
    input: `${OSC}4;1;#ff8000${ST}${OSC}4;1;?${ST}`,
    replies: [`${OSC}4;1;rgb:ffff/8080/0000${ST}`],
    check: (t) => assertEquals(t.term.paletteOverride(1), "#ff8000"),
  },
  {
    name: "OSC 4 several pairs, rgb: form",
    input: `${OSC}4;1;rgb:ff/00/00;2;rgb:0/f/0${ST}`,
    check: (t) => {
      assertEquals(t.term.paletteOverride(1), "#ff0000");
      assertEquals(t.term.paletteOverride(2), "#00ff00");
    },
  },
  {
    name: "OSC 4 short and long hex forms",
    input: `${OSC}4;3;#abc;4;#111122223333${ST}`,
    check: (t) => {
      assertEquals(t.term.paletteOverride(3), "#a0b0c0");
      assertEquals(t.term.paletteOverride(4), "#112233");
    },
  },
  {
    name: "OSC 4 invalid colour is ignored",
    input: `${OSC}4;1;chartreusy${ST}${OSC}4;300;#ffffff${ST}`,
    check: (t) => assertEquals(t.term.paletteOverride(1), null),
  },
  {
    name: "OSC 104 resets one entry",
    input: `${OSC}4;1;#ffffff;2;#ffffff${ST}${OSC}104;1${ST}`,
    check: (t) => {
      assertEquals(t.term.paletteOverride(1), null);
      assertEquals(t.term.paletteOverride(2), "#ffffff");
    },
  },
  {
    name: "OSC 104 resets all",
    input: `${OSC}4;1;#ffffff;2;#ffffff${ST}${OSC}104${ST}`,
    check: (t) => assertEquals(t.term.paletteOverride(2), null),
  },
]);
