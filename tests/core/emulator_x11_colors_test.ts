/**
 * X11 colour names (rgb.txt) through the replies, byte-exact: a name set by
 * OSC 4 (palette) or OSC 10 (foreground) is reported back as xterm reports
 * it, 16 bits a channel (8-bit value x 257). The values are rgb.txt's.
 * scripts/gen_x11_colors.ts checks the whole table against rgb.txt when it
 * writes it; this is a sample of every kind of entry.
 */
import { assertEquals, OSC, runCases, ST } from "./helpers.ts";
import {
  lookupX11Color,
  x11ColorNames,
} from "../../core/emulator/x11_color_names.ts";

/** The 16-bit query form of "rrggbb". */
function reply16(hex: string): string {
  return [0, 2, 4].map((i) => hex.slice(i, i + 2).repeat(2)).join("/");
}

/** [name as a program may write it, rgb.txt's value]. */
const NAMES: [string, string][] = [
  ["AntiqueWhite1", "ffefdb"], // numbered variants
  ["AntiqueWhite2", "eedfcc"],
  ["antiquewhite3", "cdc0b0"],
  ["ANTIQUEWHITE4", "8b8378"],
  ["DarkSlateGray3", "79cdcd"],
  ["SlateGray4", "6c7b8b"],
  ["HotPink3", "cd6090"], // not a scaled HotPink1
  ["LightGoldenrod4", "8b814c"],
  ["MediumPurple2", "9f79ee"],
  ["VioletRed1", "ff3e96"],
  ["NavajoWhite3", "cdb38b"],
  ["burlywood4", "8b7355"],
  ["snow4", "8b8989"],
  ["yellow4", "8b8b00"],
  ["gray0", "000000"], // computed levels
  ["grey37", "5e5e5e"],
  ["Gray50", "7f7f7f"],
  ["grey100", "ffffff"],
  ["dark grey", "a9a9a9"], // spaces, grey spelling
  ["medium sea green", "3cb371"],
  ["Navajo White", "ffdead"],
  ["DebianRed", "d70751"],
  ["web gray", "808080"],
  ["X11Purple", "a020f0"],
  ["rebecca purple", "663399"],
];

runCases(
  "X11 colour names: OSC 4 set, then queried",
  NAMES.map(([name, hex]) => ({
    name,
    input: `${OSC}4;3;${name}${ST}${OSC}4;3;?${ST}`,
    replies: [`${OSC}4;3;rgb:${reply16(hex)}${ST}`],
  })),
);

runCases(
  "X11 colour names: OSC 10 set, then queried",
  NAMES.map(([name, hex]) => ({
    name,
    input: `${OSC}10;${name}${ST}${OSC}10;?${ST}`,
    replies: [`${OSC}10;rgb:${reply16(hex)}${ST}`],
  })),
);

/** Names rgb.txt does not have: the colour stays (xterm's default 3, cd/cd/00). */
runCases(
  "X11 colour names: not in rgb.txt",
  [
    "AntiqueWhite0",
    "AntiqueWhite5",
    "DarkSlateGrey3", // rgb.txt spells the numbered slate grays only "gray"
    "SlateGrey1",
    "gray101",
    "gray05",
    "grey-1",
    "red 3x",
  ].map((name) => ({
    name,
    input: `${OSC}4;3;${name}${ST}${OSC}4;3;?${ST}`,
    replies: [`${OSC}4;3;rgb:cdcd/cdcd/0000${ST}`],
  })),
);

Deno.test("X11 colour names: the table has every name of rgb.txt once", () => {
  const names = x11ColorNames();
  // Debian's rgb.txt: 752 lines of names, 658 once case and spaces go;
  // and the 19 that X.Org added later ("rebecca purple", "web grey", ...).
  assertEquals(names.length, 677);
  assertEquals(new Set(names).size, 677);
  for (const n of names) {
    if (lookupX11Color(n) === null) throw new Error(`${n} not found`);
  }
});
