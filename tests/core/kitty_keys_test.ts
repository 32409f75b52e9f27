/**
 * The kitty keyboard protocol encoder (core/kitty_keys.ts through
 * encodeKey): one table per flag combination, rows of
 * [key, code, modifiers, event, expected].
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { encodeKey, type KeyOptions, type KeyPress } from "../../core/keys.ts";
import {
  type InputModes,
  POWER_ON_INPUT_MODES,
} from "../../core/terminal_view.ts";

const BASE: InputModes = { ...POWER_ON_INPUT_MODES };

/**
 * Modifiers: "S" shift, "A" alt, "C" ctrl, "M" meta (super), "G" AltGr,
 * "K" caps lock on, "N" num lock on. Event: "" press, "r" repeat, "u" release.
 */
type Row = [string, string, string, "" | "r" | "u", string | null];

function press(key: string, code: string, mods: string, ev: string): KeyPress {
  return {
    key,
    code,
    shiftKey: mods.includes("S"),
    altKey: mods.includes("A"),
    ctrlKey: mods.includes("C"),
    metaKey: mods.includes("M"),
    altGraph: mods.includes("G"),
    capsLock: mods.includes("K"),
    numLock: mods.includes("N"),
    type: ev === "u" ? "keyup" : "keydown",
    repeat: ev === "r",
  };
}

const show = (s: string | null) => s === null ? "null" : JSON.stringify(s);

function table(
  flags: number,
  rows: Row[],
  modes: Partial<InputModes> = {},
  options?: KeyOptions,
) {
  const m = { ...BASE, ...modes, kittyFlags: flags };
  const bad: string[] = [];
  for (const [key, code, mods, ev, want] of rows) {
    const got = encodeKey(press(key, code, mods, ev), m, options);
    if (got !== want) {
      bad.push(
        `flags ${flags} ${mods || "-"}+${key} (${code}) ${ev || "press"}: ` +
          `got ${show(got)}, want ${show(want)}`,
      );
    }
  }
  assertEquals(bad, []);
}

const CSI = "\x1b[";

Deno.test("kitty flag 1 (disambiguate): text stays text, the rest is CSI u", () => {
  table(1, [
    ["a", "KeyA", "", "", null],
    ["A", "KeyA", "S", "", null],
    ["é", "KeyE", "G", "", null],
    ["Escape", "Escape", "", "", `${CSI}27u`],
    ["Escape", "Escape", "S", "", `${CSI}27;2u`],
    ["a", "KeyA", "C", "", `${CSI}97;5u`],
    ["A", "KeyA", "SC", "", `${CSI}97;6u`],
    ["a", "KeyA", "A", "", `${CSI}97;3u`],
    ["A", "KeyA", "SA", "", `${CSI}97;4u`],
    ["a", "KeyA", "AC", "", `${CSI}97;7u`],
    ["a", "KeyA", "M", "", `${CSI}97;9u`],
    ["i", "KeyI", "C", "", `${CSI}105;5u`],
    ["[", "BracketLeft", "A", "", `${CSI}91;3u`],
    [" ", "Space", "C", "", `${CSI}32;5u`],
    ["!", "Digit1", "SC", "", `${CSI}49;6u`],
    ["с", "KeyC", "C", "", `${CSI}1089;5u`],
    // Enter, Tab and Backspace keep their bytes unless modified.
    ["Enter", "Enter", "", "", "\r"],
    ["Tab", "Tab", "", "", "\t"],
    ["Backspace", "Backspace", "", "", "\x7f"],
    ["Enter", "Enter", "S", "", `${CSI}13;2u`],
    ["Enter", "Enter", "C", "", `${CSI}13;5u`],
    ["Enter", "Enter", "A", "", `${CSI}13;3u`],
    ["Tab", "Tab", "S", "", `${CSI}9;2u`],
    ["Tab", "Tab", "SC", "", `${CSI}9;6u`],
    ["Backspace", "Backspace", "C", "", `${CSI}127;5u`],
    ["Backspace", "Backspace", "A", "", `${CSI}127;3u`],
    // Functional keys.
    ["ArrowUp", "ArrowUp", "", "", `${CSI}A`],
    ["ArrowLeft", "ArrowLeft", "S", "", `${CSI}1;2D`],
    ["Home", "Home", "C", "", `${CSI}1;5H`],
    ["End", "End", "", "", `${CSI}F`],
    ["Insert", "Insert", "", "", `${CSI}2~`],
    ["Delete", "Delete", "A", "", `${CSI}3;3~`],
    ["PageUp", "PageUp", "", "", `${CSI}5~`],
    ["PageDown", "PageDown", "SC", "", `${CSI}6;6~`],
    ["F1", "F1", "", "", `${CSI}P`],
    ["F2", "F2", "S", "", `${CSI}1;2Q`],
    ["F3", "F3", "", "", `${CSI}13~`],
    ["F3", "F3", "C", "", `${CSI}13;5~`],
    ["F4", "F4", "", "", `${CSI}S`],
    ["F5", "F5", "", "", `${CSI}15~`],
    ["F12", "F12", "S", "", `${CSI}24;2~`],
    ["F13", "F13", "", "", `${CSI}57376u`],
    ["F20", "F20", "", "", `${CSI}57383u`],
    ["F35", "F35", "", "", `${CSI}57398u`],
    ["CapsLock", "CapsLock", "", "", `${CSI}57358u`],
    ["PrintScreen", "PrintScreen", "", "", `${CSI}57361u`],
    ["Pause", "Pause", "", "", `${CSI}57362u`],
    ["ContextMenu", "ContextMenu", "", "", `${CSI}57363u`],
    ["AudioVolumeUp", "AudioVolumeUp", "", "", `${CSI}57439u`],
    ["MediaPlayPause", "MediaPlayPause", "", "", `${CSI}57430u`],
    // Keypad keys are their own keys.
    ["Enter", "NumpadEnter", "", "", `${CSI}57414u`],
    ["ArrowUp", "Numpad8", "", "", `${CSI}57419u`],
    ["Home", "Numpad7", "", "", `${CSI}57423u`],
    ["Delete", "NumpadDecimal", "", "", `${CSI}57426u`],
    ["Clear", "Numpad5", "", "", `${CSI}E`],
    ["Clear", "Numpad5", "C", "", `${CSI}1;5E`],
    ["5", "Numpad5", "", "", null],
    ["5", "Numpad5", "C", "", `${CSI}57404;5u`],
    ["+", "NumpadAdd", "A", "", `${CSI}57413;3u`],
    // Lone modifiers are not reported; lock modifiers are.
    ["Shift", "ShiftLeft", "S", "", null],
    ["Control", "ControlRight", "C", "", null],
    ["a", "KeyA", "CN", "", `${CSI}97;133u`],
    ["a", "KeyA", "CK", "", `${CSI}97;69u`],
    ["Escape", "Escape", "N", "", `${CSI}27;129u`],
    ["Enter", "Enter", "N", "", "\r"],
    ["A", "KeyA", "K", "", null],
    // No number for these.
    ["Dead", "Quote", "", "", null],
    ["Process", "KeyA", "", "", null],
    ["Unidentified", "", "", "", null],
    // Releases are not reported without flag 2.
    ["Escape", "Escape", "", "u", null],
    ["a", "KeyA", "C", "u", null],
  ]);
});

Deno.test("kitty flag 1 ignores application cursor and keypad modes", () => {
  table(1, [
    ["ArrowUp", "ArrowUp", "", "", `${CSI}A`],
    ["F1", "F1", "", "", `${CSI}P`],
    ["+", "NumpadAdd", "", "", null],
  ], { applicationCursorKeys: true, applicationKeypad: true });
});

Deno.test("kitty flag 2 (event types): repeat and release", () => {
  table(3, [
    ["a", "KeyA", "", "", null],
    ["a", "KeyA", "", "r", null],
    ["a", "KeyA", "", "u", `${CSI}97;1:3u`],
    ["A", "KeyA", "S", "u", `${CSI}97;2:3u`],
    ["a", "KeyA", "C", "", `${CSI}97;5u`],
    ["a", "KeyA", "C", "r", `${CSI}97;5:2u`],
    ["a", "KeyA", "C", "u", `${CSI}97;5:3u`],
    ["Escape", "Escape", "", "u", `${CSI}27;1:3u`],
    ["ArrowUp", "ArrowUp", "", "r", `${CSI}1;1:2A`],
    ["ArrowUp", "ArrowUp", "", "u", `${CSI}1;1:3A`],
    ["F5", "F5", "S", "u", `${CSI}15;2:3~`],
    // Enter, Tab, Backspace: no release, so `reset` can still be typed.
    ["Enter", "Enter", "", "", "\r"],
    ["Enter", "Enter", "", "u", null],
    ["Tab", "Tab", "", "u", null],
    ["Backspace", "Backspace", "", "u", null],
    ["Enter", "Enter", "S", "u", `${CSI}13;2:3u`],
  ]);
  // Flag 2 alone: legacy bytes for presses, CSI u for what legacy cannot say.
  table(2, [
    ["a", "KeyA", "C", "", "\x01"],
    ["a", "KeyA", "C", "u", `${CSI}97;5:3u`],
    ["Escape", "Escape", "", "", "\x1b"],
    ["Escape", "Escape", "", "u", `${CSI}27;1:3u`],
    ["F1", "F1", "", "", `${CSI}P`],
    ["ArrowUp", "ArrowUp", "", "", `${CSI}A`],
  ], { applicationCursorKeys: true });
});

Deno.test("kitty flag 4 (alternate keys): shifted and base-layout keys", () => {
  table(5, [
    ["A", "KeyA", "SC", "", `${CSI}97:65;6u`],
    ["@", "Digit2", "SC", "", `${CSI}50:64;6u`],
    ["!", "Digit1", "SA", "", `${CSI}49:33;4u`],
    ["a", "KeyA", "C", "", `${CSI}97;5u`],
    ["с", "KeyC", "C", "", `${CSI}1089::99;5u`],
    ["С", "KeyC", "SC", "", `${CSI}1089:1057:99;6u`],
    ["ArrowUp", "ArrowUp", "S", "", `${CSI}1;2A`],
  ]);
  // Flag 4 alone keeps legacy encodings where nothing alternate is to say.
  table(4, [
    ["a", "KeyA", "C", "", "\x01"],
    ["A", "KeyA", "SC", "", `${CSI}97:65;6u`],
    ["F1", "F1", "", "", "\x1bOP"],
    ["ArrowUp", "ArrowUp", "", "", "\x1bOA"],
    ["Enter", "Enter", "C", "", "\r"],
    ["Tab", "Tab", "S", "", `${CSI}Z`],
    ["Backspace", "Backspace", "C", "", "\x08"],
    ["F3", "F3", "S", "", `${CSI}13;2~`],
    ["ContextMenu", "ContextMenu", "", "", `${CSI}29~`],
    ["с", "KeyC", "C", "", `${CSI}1089::99;5u`],
  ], { applicationCursorKeys: true });
});

Deno.test("kitty flag 8 (all keys as escape codes), with 16 (text) and 2", () => {
  table(8, [
    ["a", "KeyA", "", "", `${CSI}97u`],
    ["A", "KeyA", "S", "", `${CSI}97;2u`],
    ["!", "Digit1", "S", "", `${CSI}49;2u`],
    ["Enter", "Enter", "", "", `${CSI}13u`],
    ["Tab", "Tab", "", "", `${CSI}9u`],
    ["Backspace", "Backspace", "", "", `${CSI}127u`],
    ["Escape", "Escape", "", "", `${CSI}27u`],
    ["5", "Numpad5", "", "", `${CSI}57404u`],
    ["Shift", "ShiftLeft", "S", "", `${CSI}57441;2u`],
    ["Control", "ControlLeft", "C", "", `${CSI}57442;5u`],
    ["Alt", "AltLeft", "A", "", `${CSI}57443;3u`],
    ["Meta", "MetaLeft", "M", "", `${CSI}57444;9u`],
    ["Shift", "ShiftRight", "S", "", `${CSI}57447;2u`],
    ["Control", "ControlRight", "C", "", `${CSI}57448;5u`],
    ["Alt", "AltRight", "A", "", `${CSI}57449;3u`],
    ["Meta", "MetaRight", "M", "", `${CSI}57450;9u`],
    ["AltGraph", "AltRight", "", "", `${CSI}57453u`],
    ["Shift", "ShiftLeft", "", "u", null],
  ]);
  table(24, [
    ["a", "KeyA", "", "", `${CSI}97;;97u`],
    ["A", "KeyA", "S", "", `${CSI}97;2;65u`],
    ["a", "KeyA", "C", "", `${CSI}97;5u`],
    ["é", "KeyE", "G", "", `${CSI}233;;233u`],
    ["Enter", "Enter", "", "", `${CSI}13u`],
  ]);
  table(10, [
    ["Shift", "ShiftLeft", "", "u", `${CSI}57441;1:3u`],
    ["a", "KeyA", "", "u", `${CSI}97;1:3u`],
    ["a", "KeyA", "", "r", `${CSI}97;1:2u`],
    ["Enter", "Enter", "", "u", `${CSI}13;1:3u`],
  ]);
  table(31, [
    ["A", "KeyA", "S", "", `${CSI}97:65;2;65u`],
    ["A", "KeyA", "S", "u", `${CSI}97:65;2:3u`],
  ]);
});

Deno.test("kitty legacy text keys (flag 16 alone): Ctrl/Alt/Shift as in legacy", () => {
  table(16, [
    ["a", "KeyA", "", "", null],
    ["i", "KeyI", "A", "", "\x1bi"],
    ["I", "KeyI", "SA", "", "\x1bI"],
    ["i", "KeyI", "C", "", "\t"],
    ["i", "KeyI", "AC", "", "\x1b\t"],
    ["I", "KeyI", "SC", "", `${CSI}105;6u`],
    [";", "Semicolon", "C", "", ";"],
    [":", "Semicolon", "SA", "", "\x1b:"],
    [" ", "Space", "C", "", "\x00"],
    [" ", "Space", "SC", "", "\x00"],
    ["Escape", "Escape", "", "", "\x1b"],
    ["Escape", "Escape", "A", "", "\x1b\x1b"],
    ["Tab", "Tab", "SA", "", `\x1b${CSI}Z`],
    // A non-Latin layout falls back to the base-layout key.
    ["с", "KeyC", "C", "", "\x03"],
    ["с", "KeyC", "A", "", "\x1bc"],
  ]);
});

Deno.test("kitty on macOS: Option composes text, reported as text", () => {
  table(1, [["å", "KeyA", "A", "", null]], {}, { isMac: true });
  table(24, [["å", "KeyA", "A", "", `${CSI}97;;229u`]], {}, { isMac: true });
  table(1, [["a", "KeyA", "A", "", `${CSI}97;3u`]], {}, {
    isMac: true,
    macOptionIsMeta: true,
  });
});
