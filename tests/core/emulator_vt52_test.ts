/**
 * VT52 mode (DECANM reset), table-driven: bytes in, screen, cursor and
 * replies out, byte-exact. The sequences are ctlseqs' "VT52 Mode" list;
 * what is not in it (CSI, OSC, other ESC sequences, C1 controls) is not
 * recognised. Also: the keys in VT52 mode, the snapshot keeping the mode
 * (even in the middle of `ESC Y`), and splitting the input anywhere.
 */
import {
  assertEquals,
  CSI,
  ESC,
  makeTerminal,
  OSC,
  runCases,
  screenText,
} from "./helpers.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { encodeKey, type KeyPress } from "../../core/keys.ts";
import { POWER_ON_INPUT_MODES } from "../../core/terminal_view.ts";

/** Enter VT52 mode. */
const VT52 = `${CSI}?2l`;
/** `ESC Y` to 0-based (row, col). */
const pos = (row: number, col: number) =>
  `${ESC}Y${String.fromCharCode(32 + row, 32 + col)}`;

runCases("VT52", [
  {
    name: "ESC Y addresses the cursor, 0-based, each byte + 32",
    input: `${VT52}${ESC}Y%(X`,
    screen: "\n\n\n\n\n        X",
    cursor: [9, 5],
  },
  {
    name: "ESC Y past the screen is clamped to it",
    input: `${VT52}${ESC}Y~~`,
    cursor: [79, 23],
  },
  {
    name: "ESC A B C D move one cell and stop at the edges",
    input: `${VT52}${pos(5, 10)}${ESC}A${ESC}A${ESC}C${ESC}B${ESC}D${ESC}D`,
    cursor: [9, 4],
  },
  {
    name: "ESC A at the top and ESC D at the left stay",
    input: `${VT52}${ESC}A${ESC}D`,
    cursor: [0, 0],
  },
  {
    name: "ESC B at the bottom and ESC C at the right edge stay",
    input: `${VT52}${pos(23, 79)}${ESC}B${ESC}C`,
    cursor: [79, 23],
  },
  {
    name: "ESC H homes the cursor",
    input: `${VT52}${pos(7, 7)}${ESC}H`,
    cursor: [0, 0],
  },
  {
    name: "ESC I at the top scrolls down",
    rows: 3,
    input: `top\r\nmid\r\nbot${VT52}${ESC}H${ESC}I`,
    screen: "\ntop\nmid",
    cursor: [0, 0],
  },
  {
    name: "ESC I below the top is a cursor up",
    rows: 3,
    input: `top\r\nmid${VT52}${ESC}I`,
    screen: "top\nmid",
    cursor: [3, 0],
  },
  {
    name: "ESC J erases to the end of the screen",
    rows: 3,
    input: `aaaa\r\nbbbb\r\ncccc${VT52}${pos(1, 2)}${ESC}J`,
    screen: "aaaa\nbb",
    cursor: [2, 1],
  },
  {
    name: "ESC K erases to the end of the line",
    rows: 3,
    input: `aaaa\r\nbbbb\r\ncccc${VT52}${pos(1, 2)}${ESC}K`,
    screen: "aaaa\nbb\ncccc",
  },
  {
    name: "ESC F / ESC G: graphics mode is DEC special graphics",
    input: `${VT52}${ESC}Flqkx${ESC}Glq`,
    screen: "┌─┐│lq",
  },
  {
    name: "SO and SI shift the same sets as ESC F and ESC G",
    input: `${VT52}\x0eq\x0fq`,
    screen: "─q",
  },
  {
    name: "ESC Z identifies as a VT52",
    input: `${VT52}${ESC}Z`,
    replies: [`${ESC}/Z`],
  },
  {
    name: "ESC < returns to ANSI mode: CSI works again",
    input: `${VT52}${ESC}<${CSI}5;3HX`,
    screen: "\n\n\n\n  X",
  },
  {
    // As xterm (and a VT420): a VT100 has no DECRQM and ignores S8C1T
    // (DA1 stays the VT525's); DECSCL brings the level back.
    name: "ESC < leaves conformance level 1 (VT100)",
    input: `${VT52}${ESC}<${CSI}c${CSI}?2$p${ESC} G${CSI}6n` +
      `${CSI}65;1"p${CSI}?2$p`,
    replies: [
      `${CSI}?65;1;2;6;8;9;15;16;17;18;21;22;28c`,
      `${CSI}1;1R`,
      `${CSI}?2;1$y`,
    ],
  },
  {
    name: "DECRQM ?2 before VT52 mode: set",
    input: `${CSI}?2$p`,
    replies: [`${CSI}?2;1$y`],
  },
  {
    name: "CSI is not recognised: ESC [ is dropped, the rest printed",
    input: `ab${VT52}${ESC}[2J${ESC}[H`,
    screen: "ab2JH",
  },
  {
    name: "OSC is not recognised, the title stays",
    input: `${VT52}${OSC}0;t\x07x`,
    screen: "0;tx",
    check: (t) => assertEquals(t.term.title, ""),
  },
  {
    name: "other ESC sequences are ignored (ESC c is no reset)",
    input: `abc${VT52}${ESC}c${ESC}7${ESC}Md`,
    screen: "abcd",
    cursor: [4, 0],
  },
  {
    name: "C1 controls are ignored (no 8-bit CSI)",
    input: `${VT52}a\u009b2Jb\u0085c`,
    screen: "a2Jbc",
  },
  {
    name: "C0 controls still work, also inside ESC Y",
    input: `${VT52}ab\r${ESC}\nY\x07"#X`,
    screen: "ab\n\n   X",
  },
  {
    name: "ESC ESC starts again",
    input: `${VT52}${ESC}${ESC}Cx`,
    screen: " x",
  },
  {
    name: "the character sets of before come back after ESC <",
    input: `${ESC}(0q${VT52}q${ESC}<q`,
    screen: "─q─",
  },
  {
    name: "ESC = and ESC > switch the keypad",
    input: `${VT52}${ESC}=`,
    check: (t) => {
      assertEquals(t.term.modes.applicationKeypad, true);
      t.term.write(`${ESC}>`);
      assertEquals(t.term.modes.applicationKeypad, false);
    },
  },
  {
    name: "ESC < in ANSI mode does nothing",
    input: `${ESC}<${CSI}2;2HX`,
    screen: "\n X",
    check: (t) => assertEquals(t.term.modes.vt52, false),
  },
]);

Deno.test("VT52: a snapshot keeps the mode, also inside ESC Y", () => {
  const input = `${VT52}${ESC}Fq${ESC}Y"#X${ESC}Y$`;
  for (let cut = 0; cut <= input.length; cut++) {
    const a = makeTerminal(20, 6);
    a.term.write(input.slice(0, cut));
    const b = Terminal.restore(
      JSON.parse(JSON.stringify(a.term.snapshot())),
      {},
    );
    b.write(input.slice(cut) + `%Y${ESC}[2Jq${ESC}<q`);
    assertEquals(
      screenText(b),
      "─\n\n   X\n\n     Y2J─q",
      `cut at ${cut}`,
    );
    assertEquals(b.modes.vt52, false);
  }
});

Deno.test("VT52: byte-by-byte input gives the same screen", () => {
  const input = `xy${VT52}${ESC}Y%(A${ESC}Fa${ESC}Gb${ESC}I${ESC}K${ESC}<` +
    `${CSI}1;1Hz`;
  const whole = makeTerminal();
  whole.term.write(input);
  const bytes = makeTerminal();
  for (const b of new TextEncoder().encode(input)) {
    bytes.term.write(Uint8Array.of(b));
  }
  assertEquals(screenText(bytes.term), screenText(whole.term));
  assertEquals(
    [bytes.term.cursorX, bytes.term.cursorY],
    [whole.term.cursorX, whole.term.cursorY],
  );
});

/** A key press with no modifiers. */
function press(key: string, code: string, shiftKey = false): KeyPress {
  return {
    key,
    code,
    ctrlKey: false,
    altKey: false,
    shiftKey,
    metaKey: false,
  };
}

Deno.test("VT52: keys send VT52 forms", () => {
  const vt52 = { ...POWER_ON_INPUT_MODES, vt52: true };
  const ckm = { ...vt52, applicationCursorKeys: true };
  const kp = { ...vt52, applicationKeypad: true };
  assertEquals(encodeKey(press("ArrowUp", "ArrowUp"), vt52), `${ESC}A`);
  assertEquals(encodeKey(press("ArrowDown", "ArrowDown"), ckm), `${ESC}B`);
  assertEquals(encodeKey(press("ArrowRight", "ArrowRight"), vt52), `${ESC}C`);
  assertEquals(
    encodeKey(press("ArrowLeft", "ArrowLeft", true), vt52),
    `${ESC}D`,
  );
  assertEquals(encodeKey(press("F1", "F1"), vt52), `${ESC}P`);
  assertEquals(encodeKey(press("F4", "F4"), vt52), `${ESC}S`);
  assertEquals(encodeKey(press("5", "Numpad5"), kp), `${ESC}?u`);
  assertEquals(encodeKey(press("Enter", "NumpadEnter"), kp), `${ESC}?M`);
  assertEquals(encodeKey(press("-", "NumpadSubtract"), kp), `${ESC}?m`);
  // Numeric keypad: the characters themselves (the input event sends them).
  assertEquals(encodeKey(press("5", "Numpad5"), vt52), null);
  // ANSI mode is unchanged.
  assertEquals(
    encodeKey(press("ArrowUp", "ArrowUp"), POWER_ON_INPUT_MODES),
    `${CSI}A`,
  );
});
