import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  controlCharacter,
  encodeFocus,
  encodeKey,
  encodePaste,
  type KeyOptions,
  type KeyPress,
} from "../../core/keys.ts";
import {
  type InputModes,
  POWER_ON_INPUT_MODES,
} from "../../core/terminal_view.ts";

const NORMAL: InputModes = { ...POWER_ON_INPUT_MODES };
const APP_CURSOR: InputModes = { ...NORMAL, applicationCursorKeys: true };
const APP_KEYPAD: InputModes = { ...NORMAL, applicationKeypad: true };

/** Modifiers spelled as a string: "S" shift, "A" alt, "C" ctrl, "M" meta, "G" AltGr. */
function press(key: string, code: string, mods = ""): KeyPress {
  return {
    key,
    code,
    shiftKey: mods.includes("S"),
    altKey: mods.includes("A"),
    ctrlKey: mods.includes("C"),
    metaKey: mods.includes("M"),
    altGraph: mods.includes("G"),
  };
}

function enc(
  key: string,
  code: string,
  mods = "",
  modes: InputModes = NORMAL,
  options?: KeyOptions,
): string | null {
  return encodeKey(press(key, code, mods), modes, options);
}

const show = (s: string | null) => s === null ? "null" : JSON.stringify(s);

/** Runs each [key, code, mods, expected] row and reports all mismatches at once. */
function table(
  rows: [string, string, string, string | null][],
  modes: InputModes = NORMAL,
  options?: KeyOptions,
) {
  const bad: string[] = [];
  for (const [key, code, mods, want] of rows) {
    const got = enc(key, code, mods, modes, options);
    if (got !== want) {
      bad.push(
        `${mods || "-"}+${key} (${code}): got ${show(got)}, want ${show(want)}`,
      );
    }
  }
  assertEquals(bad, []);
}

// Modifier combinations and their xterm parameter (1 + bits).
const MOD_PARAMS: [string, number][] = [
  ["S", 2],
  ["A", 3],
  ["SA", 4],
  ["C", 5],
  ["SC", 6],
  ["AC", 7],
  ["SAC", 8],
  ["M", 9],
  ["SM", 10],
  ["SACM", 16],
];

Deno.test("cursor keys: CSI in normal mode, SS3 in application mode, CSI 1;m with modifiers", () => {
  const keys: [string, string][] = [
    ["ArrowUp", "A"],
    ["ArrowDown", "B"],
    ["ArrowRight", "C"],
    ["ArrowLeft", "D"],
    ["Home", "H"],
    ["End", "F"],
  ];
  for (const [name, final] of keys) {
    const rows: [string, string, string, string | null][] = [[
      name,
      name,
      "",
      `\x1b[${final}`,
    ]];
    const appRows: [string, string, string, string | null][] = [[
      name,
      name,
      "",
      `\x1bO${final}`,
    ]];
    for (const [mods, p] of MOD_PARAMS) {
      // Modified cursor keys use the CSI form in both modes.
      rows.push([name, name, mods, `\x1b[1;${p}${final}`]);
      appRows.push([name, name, mods, `\x1b[1;${p}${final}`]);
    }
    table(rows, NORMAL);
    table(appRows, APP_CURSOR);
  }
});

Deno.test("editing keys and F5-F20: CSI n ~ and CSI n;m ~", () => {
  const keys: [string, number][] = [
    ["Insert", 2],
    ["Delete", 3],
    ["PageUp", 5],
    ["PageDown", 6],
    ["F5", 15],
    ["F6", 17],
    ["F7", 18],
    ["F8", 19],
    ["F9", 20],
    ["F10", 21],
    ["F11", 23],
    ["F12", 24],
    ["F13", 25],
    ["F20", 34],
  ];
  for (const modes of [NORMAL, APP_CURSOR, APP_KEYPAD]) {
    const rows: [string, string, string, string | null][] = [];
    for (const [name, n] of keys) {
      rows.push([name, name, "", `\x1b[${n}~`]);
      for (const [mods, p] of MOD_PARAMS) {
        rows.push([name, name, mods, `\x1b[${n};${p}~`]);
      }
    }
    table(rows, modes);
  }
});

Deno.test("F1-F4: SS3 P..S, CSI 1;m P..S with modifiers", () => {
  for (const modes of [NORMAL, APP_CURSOR]) {
    const rows: [string, string, string, string | null][] = [];
    for (
      const [name, final] of [["F1", "P"], ["F2", "Q"], ["F3", "R"], [
        "F4",
        "S",
      ]]
    ) {
      rows.push([name, name, "", `\x1bO${final}`]);
      for (const [mods, p] of MOD_PARAMS) {
        rows.push([name, name, mods, `\x1b[1;${p}${final}`]);
      }
    }
    table(rows, modes);
  }
});

Deno.test("Enter, Tab, Backspace, Escape", () => {
  table([
    ["Enter", "Enter", "", "\r"],
    ["Enter", "Enter", "S", "\r"],
    ["Enter", "Enter", "C", "\r"],
    ["Enter", "Enter", "A", "\x1b\r"],
    ["Enter", "Enter", "M", null],
    ["Tab", "Tab", "", "\t"],
    ["Tab", "Tab", "S", "\x1b[Z"],
    ["Tab", "Tab", "A", "\x1b\t"],
    ["Tab", "Tab", "SA", "\x1b\x1b[Z"],
    ["Tab", "Tab", "C", "\t"],
    ["Backspace", "Backspace", "", "\x7f"],
    ["Backspace", "Backspace", "S", "\x7f"],
    ["Backspace", "Backspace", "C", "\x08"],
    ["Backspace", "Backspace", "A", "\x1b\x7f"],
    ["Backspace", "Backspace", "AC", "\x1b\x08"],
    ["Escape", "Escape", "", "\x1b"],
    ["Escape", "Escape", "A", "\x1b\x1b"],
    ["Escape", "Escape", "C", "\x1b"],
  ]);
  // DECBKM (?67) set: Backspace sends BS, Ctrl+Backspace DEL (xterm).
  table([
    ["Backspace", "Backspace", "", "\x08"],
    ["Backspace", "Backspace", "C", "\x7f"],
  ], { ...NORMAL, backarrowBs: true });
  // LNM: Enter sends CR LF.
  table([
    ["Enter", "Enter", "", "\r\n"],
    ["Enter", "Enter", "A", "\x1b\r\n"],
  ], { ...NORMAL, newlineMode: true });
  // Application modes do not change these.
  table([
    ["Enter", "Enter", "", "\r"],
    ["Backspace", "Backspace", "", "\x7f"],
  ], { ...APP_CURSOR, applicationKeypad: true });
});

Deno.test("Ctrl+letter -> 0x01..0x1a, also on non-Latin layouts via code", () => {
  const rows: [string, string, string, string | null][] = [];
  for (let i = 0; i < 26; i++) {
    const lower = String.fromCharCode(0x61 + i);
    const code = `Key${lower.toUpperCase()}`;
    const ctl = String.fromCharCode(i + 1);
    rows.push([lower, code, "C", ctl]);
    rows.push([lower, code, "AC", "\x1b" + ctl]);
    // Ctrl+Shift+letter is left to the browser (devtools, copy/paste shortcuts).
    rows.push([lower.toUpperCase(), code, "SC", null]);
    rows.push([lower.toUpperCase(), code, "SAC", "\x1b" + ctl]);
  }
  // Russian layout: the key is Cyrillic, the physical key decides.
  rows.push(["с", "KeyC", "C", "\x03"]);
  rows.push(["д", "KeyL", "C", "\x0c"]);
  rows.push(["д", "KeyL", "AC", "\x1b\x0c"]);
  rows.push(["ф", "KeyA", "SC", null]);
  // Dvorak: the key (not the physical position) decides for Latin letters.
  rows.push(["c", "KeyI", "C", "\x03"]);
  // A non-Latin key on a non-letter physical key: nothing to map to.
  rows.push(["ü", "BracketLeft", "C", null]);
  table(rows);
  table(rows, APP_CURSOR);
});

Deno.test("Ctrl+symbols and digits as xterm (X11) maps them", () => {
  table([
    ["@", "Digit2", "SC", "\x00"],
    [" ", "Space", "C", "\x00"],
    [" ", "Space", "SC", "\x00"],
    [" ", "Space", "AC", "\x1b\x00"],
    ["[", "BracketLeft", "C", "\x1b"],
    ["\\", "Backslash", "C", "\x1c"],
    ["]", "BracketRight", "C", "\x1d"],
    ["^", "Digit6", "SC", "\x1e"],
    ["_", "Minus", "SC", "\x1f"],
    ["/", "Slash", "C", "\x1f"],
    ["?", "Slash", "SC", "\x7f"],
    ["`", "Backquote", "C", "\x00"],
    ["2", "Digit2", "C", "\x00"],
    ["3", "Digit3", "C", "\x1b"],
    ["4", "Digit4", "C", "\x1c"],
    ["5", "Digit5", "C", "\x1d"],
    ["6", "Digit6", "C", "\x1e"],
    ["7", "Digit7", "C", "\x1f"],
    ["8", "Digit8", "C", "\x7f"],
    ["3", "Digit3", "AC", "\x1b\x1b"],
    // No control mapping: left to the browser (tab switching, zoom).
    ["1", "Digit1", "C", null],
    ["9", "Digit9", "C", null],
    ["0", "Digit0", "C", null],
    ["=", "Equal", "C", null],
    ["-", "Minus", "C", null],
    ["+", "Equal", "SC", null],
  ]);
  assertEquals(controlCharacter("ab"), null);
});

Deno.test("Alt+key -> ESC prefix", () => {
  table([
    ["b", "KeyB", "A", "\x1bb"],
    ["B", "KeyB", "SA", "\x1bB"],
    [".", "Period", "A", "\x1b."],
    [">", "Period", "SA", "\x1b>"],
    ["1", "Digit1", "A", "\x1b1"],
    [" ", "Space", "A", "\x1b "],
    ["ф", "KeyA", "A", "\x1bф"],
  ]);
  // altSendsEscape off: the browser's text is used instead.
  table(
    [
      ["b", "KeyB", "A", null],
      ["b", "KeyB", "AC", "\x02"],
      ["Backspace", "Backspace", "A", "\x7f"],
      // Modified cursor keys keep the parameter form.
      ["ArrowLeft", "ArrowLeft", "A", "\x1b[1;3D"],
    ],
    NORMAL,
    { altSendsEscape: false },
  );
});

Deno.test("macOS: Option composes unless macOptionIsMeta; Cmd is left to the browser", () => {
  const mac: KeyOptions = { isMac: true };
  table(
    [
      ["∫", "KeyB", "A", null],
      ["b", "KeyB", "M", null],
      ["c", "KeyC", "M", null],
      ["v", "KeyV", "M", null],
      ["ArrowLeft", "ArrowLeft", "A", "\x1b[1;3D"],
      ["Backspace", "Backspace", "A", "\x1b\x7f"],
      ["c", "KeyC", "C", "\x03"],
    ],
    NORMAL,
    mac,
  );
  table(
    [
      ["∫", "KeyB", "A", "\x1bb"],
      ["ı", "KeyB", "SA", "\x1bB"],
      ["¡", "Digit1", "A", "\x1b1"],
      // No Latin equivalent for the physical key: the composed character.
      ["≤", "Comma", "A", "\x1b≤"],
    ],
    NORMAL,
    { isMac: true, macOptionIsMeta: true },
  );
});

Deno.test("application keypad: SS3 forms keyed by code", () => {
  const rows: [string, string, string, string | null][] = [
    ["Enter", "NumpadEnter", "", "\x1bOM"],
    ["*", "NumpadMultiply", "", "\x1bOj"],
    ["+", "NumpadAdd", "", "\x1bOk"],
    [",", "NumpadComma", "", "\x1bOl"],
    ["-", "NumpadSubtract", "", "\x1bOm"],
    [".", "NumpadDecimal", "", "\x1bOn"],
    // German keypad: the decimal key produces ",".
    [",", "NumpadDecimal", "", "\x1bOn"],
    ["/", "NumpadDivide", "", "\x1bOo"],
    ["=", "NumpadEqual", "", "\x1bOX"],
    // NumLock off: the keypad keys are cursor and editing keys.
    ["ArrowUp", "Numpad8", "", "\x1b[A"],
    ["Home", "Numpad7", "", "\x1b[H"],
    ["Clear", "Numpad5", "", "\x1b[E"],
    ["Delete", "NumpadDecimal", "", "\x1b[3~"],
    ["PageDown", "Numpad3", "", "\x1b[6~"],
    // The main keyboard's digits and Enter are not affected.
    ["1", "Digit1", "", null],
    ["Enter", "Enter", "", "\r"],
    ["-", "Minus", "", null],
  ];
  for (let d = 0; d <= 9; d++) {
    rows.push([String(d), `Numpad${d}`, "", "\x1bO" + "pqrstuvwxy"[d]]);
  }
  table(rows, APP_KEYPAD);
  // With application cursor keys too, NumLock-off arrows use SS3.
  table(
    [["ArrowUp", "Numpad8", "", "\x1bOA"], ["5", "Numpad5", "", "\x1bOu"]],
    {
      ...APP_KEYPAD,
      applicationCursorKeys: true,
    },
  );
  // Numeric keypad mode: digits and operators are text, Enter is CR.
  table([
    ["5", "Numpad5", "", null],
    ["+", "NumpadAdd", "", null],
    ["Enter", "NumpadEnter", "", "\r"],
    ["ArrowUp", "Numpad8", "", "\x1b[A"],
    ["Clear", "Numpad5", "", "\x1b[E"],
  ]);
});

Deno.test("keys the terminal leaves alone", () => {
  const rows: [string, string, string, string | null][] = [
    ["a", "KeyA", "", null],
    ["A", "KeyA", "S", null],
    [" ", "Space", "", null],
    [" ", "Space", "S", null],
    ["é", "KeyE", "", null],
    ["€", "KeyE", "ACG", null], // Windows AltGr+E
    ["@", "KeyQ", "ACG", null], // German AltGr+Q
    ["Dead", "BracketLeft", "", null],
    ["Process", "KeyA", "", null],
    ["Unidentified", "", "", null],
    ["Shift", "ShiftLeft", "S", null],
    ["Control", "ControlLeft", "C", null],
    ["Alt", "AltLeft", "A", null],
    ["Meta", "MetaLeft", "M", null],
    ["CapsLock", "CapsLock", "", null],
    ["AudioVolumeUp", "AudioVolumeUp", "", null],
    ["", "", "", null],
    ["i", "KeyI", "SC", null], // Ctrl+Shift+I: devtools
  ];
  table(rows);
  table(rows, { ...APP_CURSOR, applicationKeypad: true });
});

Deno.test("encodePaste: newline normalization", () => {
  assertEquals(encodePaste("a\nb\r\nc\rd", false), "a\rb\rc\rd");
  assertEquals(encodePaste("one line", false), "one line");
  assertEquals(encodePaste("", false), "");
  assertEquals(encodePaste("x\n\n", false), "x\r\r");
  // Plain mode passes everything else through.
  assertEquals(encodePaste("\x1b[201~", false), "\x1b[201~");
});

Deno.test("encodePaste: bracketed", () => {
  assertEquals(
    encodePaste("ls\nrm -rf x\n", true),
    "\x1b[200~ls\rrm -rf x\r\x1b[201~",
  );
  assertEquals(encodePaste("", true), "\x1b[200~\x1b[201~");
  assertEquals(
    encodePaste("héllo 世界\t", true),
    "\x1b[200~héllo 世界\t\x1b[201~",
  );
});

Deno.test("encodePaste: a paste cannot end the bracket early", () => {
  const wrap = (s: string) => `\x1b[200~${s}\x1b[201~`;
  assertEquals(
    encodePaste("a\x1b[201~\rrm -rf ~\r", true),
    wrap("a\rrm -rf ~\r"),
  );
  assertEquals(encodePaste("\x1b[200~x\x1b[201~", true), wrap("x"));
  // Removing one marker must not leave another one behind.
  assertEquals(encodePaste("\x1b[20\x1b[201~1~evil", true), wrap("evil"));
  // Lone ESC and C1 CSI bytes go too.
  assertEquals(encodePaste("a\x1bb\x1b[Ac", true), wrap("ab[Ac"));
  assertEquals(encodePaste("a\x9b201~b", true), wrap("ab"));
  const out = encodePaste("p\x1b\x1b[201~[201~q", true);
  assertEquals(out.indexOf("\x1b[201~"), out.length - 6);
  assertEquals(out, wrap("pq"));
});

Deno.test("encodeFocus", () => {
  assertEquals(encodeFocus(true), "\x1b[I");
  assertEquals(encodeFocus(false), "\x1b[O");
});

const MOK1: InputModes = { ...NORMAL, modifyOtherKeys: 1 };
const MOK2: InputModes = { ...NORMAL, modifyOtherKeys: 2 };
const other = (mods: number, code: number) => `\x1b[27;${mods};${code}~`;

Deno.test("modifyOtherKeys 1: only keys without a traditional encoding", () => {
  table([
    // Ctrl+letter and Ctrl+Shift+letter keep their control characters.
    ["a", "KeyA", "C", "\x01"],
    ["A", "KeyA", "SC", null],
    ["A", "KeyA", "S", null],
    ["a", "KeyA", "A", "\x1ba"],
    ["a", "KeyA", "AC", "\x1b\x01"],
    // Ctrl with keys that make no control character: reported.
    [",", "Comma", "C", other(5, 44)],
    [".", "Period", "C", other(5, 46)],
    ["1", "Digit1", "C", other(5, 49)],
    ["=", "Equal", "C", other(5, 61)],
    [";", "Semicolon", "C", other(5, 59)],
    ["!", "Digit1", "SC", other(6, 33)],
    ["?", "Slash", "SC", other(6, 63)],
    // Alt sends ESC, so it is dropped: Ctrl is what is left.
    [",", "Comma", "AC", other(5, 44)],
    // Keys whose Ctrl form is a control character keep it.
    ["2", "Digit2", "C", "\x00"],
    ["@", "Digit2", "SC", "\x00"],
    ["/", "Slash", "C", "\x1f"],
    ["[", "BracketLeft", "C", "\x1b"],
    [" ", "Space", "C", "\x00"],
    [" ", "Space", "S", null],
    // Enter and Tab with Ctrl or Shift are reported; Alt keeps ESC.
    ["Enter", "Enter", "S", other(2, 13)],
    ["Enter", "Enter", "C", other(5, 13)],
    ["Enter", "Enter", "SC", other(6, 13)],
    ["Enter", "Enter", "A", "\x1b\r"],
    ["Enter", "Enter", "AC", "\x1b\r"],
    ["Tab", "Tab", "C", other(5, 9)],
    ["Tab", "Tab", "S", "\x1b[Z"],
    ["Tab", "Tab", "SC", "\x1b[Z"],
    // Backspace and Escape are left alone at level 1.
    ["Backspace", "Backspace", "S", "\x7f"],
    ["Backspace", "Backspace", "C", "\x08"],
    ["Escape", "Escape", "C", "\x1b"],
    ["Escape", "Escape", "A", "\x1b\x1b"],
    // Cursor and function keys are not "other" keys.
    ["ArrowUp", "ArrowUp", "C", "\x1b[1;5A"],
    ["F5", "F5", "S", "\x1b[15;2~"],
    // Plain keys and Cmd combinations as before.
    ["a", "KeyA", "", null],
    ["Enter", "Enter", "", "\r"],
    ["c", "KeyC", "M", null],
  ], MOK1);
});

Deno.test("modifyOtherKeys 2: every modified key, Shift on letters included", () => {
  table([
    ["a", "KeyA", "C", other(5, 97)],
    ["A", "KeyA", "SC", other(6, 65)],
    ["H", "KeyH", "SC", other(6, 72)],
    ["A", "KeyA", "S", other(2, 65)],
    ["a", "KeyA", "A", other(3, 97)],
    ["a", "KeyA", "AC", other(7, 97)],
    ["A", "KeyA", "SAC", other(8, 65)],
    ["[", "BracketLeft", "C", other(5, 91)],
    ["@", "Digit2", "SC", other(6, 64)],
    ["2", "Digit2", "C", other(5, 50)],
    ["/", "Slash", "C", other(5, 47)],
    [",", "Comma", "C", other(5, 44)],
    [",", "Comma", "AC", other(7, 44)],
    ["1", "Digit1", "A", other(3, 49)],
    // Shift alone on non-letters: the shifted character is the key.
    ["!", "Digit1", "S", null],
    ["?", "Slash", "S", null],
    [" ", "Space", "S", other(2, 32)],
    [" ", "Space", "C", other(5, 32)],
    // Ctrl on a non-Latin layout: the Latin letter of the physical key.
    ["с", "KeyC", "C", other(5, 99)],
    ["Enter", "Enter", "S", other(2, 13)],
    ["Enter", "Enter", "A", other(3, 13)],
    ["Enter", "Enter", "AC", other(7, 13)],
    ["Tab", "Tab", "C", other(5, 9)],
    ["Tab", "Tab", "S", "\x1b[Z"],
    ["Tab", "Tab", "SC", other(6, 9)],
    ["Tab", "Tab", "SA", other(4, 9)],
    ["Backspace", "Backspace", "S", other(2, 127)],
    ["Backspace", "Backspace", "A", other(3, 127)],
    ["Backspace", "Backspace", "C", "\x08"],
    ["Backspace", "Backspace", "SC", other(6, 8)],
    ["Escape", "Escape", "C", other(5, 27)],
    ["Escape", "Escape", "A", other(3, 27)],
    ["Escape", "Escape", "S", "\x1b"],
    // Not other keys, and keys left to the OS/browser.
    ["ArrowLeft", "ArrowLeft", "S", "\x1b[1;2D"],
    ["F1", "F1", "C", "\x1b[1;5P"],
    ["a", "KeyA", "", null],
    ["é", "KeyE", "G", null],
    ["v", "KeyV", "M", null],
  ], MOK2);
});

Deno.test("modifyOtherKeys: macOS Option still composes; key releases send nothing", () => {
  table([["å", "KeyA", "A", null]], MOK2, { isMac: true });
  assertEquals(
    encodeKey({ ...press("a", "KeyA", "C"), type: "keyup" }, MOK2),
    null,
  );
});
