/**
 * Kitty keyboard protocol state in the emulator: push, pop, set, query,
 * separate stacks per screen, the stack bound, resets, and that other
 * `CSI ... u` forms are left alone.
 */
import { assertEquals, CSI, runCases } from "./helpers.ts";
import { KITTY_STACK_LIMIT } from "../../core/emulator/kitty_keyboard_state.ts";

const q = `${CSI}?u`;
const flags = (n: number) => `${CSI}?${n}u`;

runCases("kitty keyboard", [
  { name: "query: 0 at start", input: q, replies: [flags(0)] },
  { name: "push sets the flags", input: `${CSI}>1u${q}`, replies: [flags(1)] },
  {
    name: "push without flags pushes 0",
    input: `${CSI}>5u${CSI}>u${q}`,
    replies: [flags(0)],
  },
  {
    name: "pop restores the previous entry",
    input: `${CSI}>1u${CSI}>3u${q}${CSI}<u${q}${CSI}<1u${q}`,
    replies: [flags(3), flags(1), flags(0)],
  },
  {
    name: "pop n entries at once",
    input: `${CSI}>1u${CSI}>2u${CSI}>4u${CSI}<2u${q}`,
    replies: [flags(1)],
  },
  {
    name: "pop past the bottom empties the stack: flags 0",
    input: `${CSI}>1u${CSI}>2u${CSI}<9u${q}${CSI}<u${q}`,
    replies: [flags(0), flags(0)],
  },
  {
    name: "pop 0 pops one",
    input: `${CSI}>1u${CSI}>2u${CSI}<0u${q}`,
    replies: [flags(1)],
  },
  {
    name: "set, mode 1 (default) replaces all flags",
    input: `${CSI}>3u${CSI}=12u${q}${CSI}=1;1u${q}`,
    replies: [flags(12), flags(1)],
  },
  {
    name: "set, mode 2 sets bits; mode 3 clears bits",
    input: `${CSI}>1u${CSI}=6;2u${q}${CSI}=3;3u${q}`,
    replies: [flags(7), flags(4)],
  },
  {
    name: "set on an empty stack creates an entry; one pop clears it",
    input: `${CSI}=8u${q}${CSI}<u${q}`,
    replies: [flags(8), flags(0)],
  },
  {
    name: "set with an unknown mode is ignored",
    input: `${CSI}>1u${CSI}=8;4u${q}`,
    replies: [flags(1)],
  },
  {
    name: "unknown flag bits are dropped",
    input: `${CSI}>255u${q}${CSI}=64;2u${q}`,
    replies: [flags(31), flags(31)],
  },
  {
    name: "the modes show the current flags",
    input: `${CSI}>5u`,
    check: (t) => assertEquals(t.term.modes.kittyFlags, 5),
  },
  {
    name: "the alternate screen has its own stack",
    input: `${CSI}>1u${CSI}?1049h${q}${CSI}>8u${q}${CSI}?1049l${q}` +
      `${CSI}?1049h${q}${CSI}<u${q}`,
    replies: [flags(0), flags(8), flags(1), flags(8), flags(0)],
  },
  {
    name: "switching screens switches the flags the input side sees",
    input: `${CSI}>1u${CSI}?1049h${CSI}>9u${CSI}?1049l`,
    check: (t) => assertEquals(t.term.modes.kittyFlags, 1),
  },
  {
    name: "on the alternate screen the modes show its flags",
    input: `${CSI}>1u${CSI}?47h${CSI}>9u`,
    check: (t) => assertEquals(t.term.modes.kittyFlags, 9),
  },
  {
    name: "RIS clears both stacks",
    input: `${CSI}>1u${CSI}?1049h${CSI}>2u\x1bc${q}${CSI}?1049h${q}`,
    replies: [flags(0), flags(0)],
    check: (t) => assertEquals(t.term.modes.kittyFlags, 0),
  },
  {
    name: "DECSTR clears the stacks",
    input: `${CSI}>1u${CSI}>3u${CSI}!p${q}${CSI}<u${q}`,
    replies: [flags(0), flags(0)],
    check: (t) => assertEquals(t.term.modes.kittyFlags, 0),
  },
  {
    name: "the stack is bounded: the oldest entries are dropped",
    input: Array.from(
      { length: KITTY_STACK_LIMIT + 4 },
      (_, i) => `${CSI}>${(i % 31) + 1}u`,
    ).join("") + `${CSI}<${KITTY_STACK_LIMIT - 1}u${q}${CSI}<u${q}`,
    // Entries 1..20 pushed; the last 16 kept (5..20); popping 15 leaves 5.
    replies: [flags(5), flags(0)],
  },
  {
    name: "CSI u without prefix stays SCORC (restore cursor)",
    input: `${CSI}3;4H${CSI}s${CSI}1;1H${CSI}u`,
    cursor: [3, 2],
    replies: [],
  },
  {
    name: "CSI n u with other numbers is not a kitty sequence",
    input: `${CSI}12u${CSI}83;1u${q}`,
    replies: [flags(0)],
  },
]);

runCases("XTMODKEYS into the input modes", [
  {
    name: "modifyOtherKeys 2 is in the modes",
    input: `${CSI}>4;2m`,
    check: (t) => assertEquals(t.term.modes.modifyOtherKeys, 2),
  },
  {
    name: "level 1, then off with CSI > 4 m",
    input: `${CSI}>4;1m${CSI}>4m`,
    check: (t) => assertEquals(t.term.modes.modifyOtherKeys, 0),
  },
  {
    name: "an out-of-range level turns it off",
    input: `${CSI}>4;2m${CSI}>4;7m`,
    check: (t) => assertEquals(t.term.modes.modifyOtherKeys, 0),
  },
  {
    name: "XTQMODKEYS reports modifyOtherKeys and the fixed resources",
    input: `${CSI}?4m${CSI}>4;2m${CSI}?4m${CSI}?1m${CSI}?2m${CSI}?0m` +
      `${CSI}?3m${CSI}?9m`,
    replies: [
      `${CSI}>4;0m`,
      `${CSI}>4;2m`,
      `${CSI}>1;2m`,
      `${CSI}>2;2m`,
      `${CSI}>0;0m`,
    ],
  },
  {
    name: "RIS turns it off",
    input: `${CSI}>4;2m\x1bc`,
    check: (t) => assertEquals(t.term.modes.modifyOtherKeys, 0),
  },
  {
    name: "?1007 alternate scroll and the alternate screen are in the modes",
    input: `${CSI}?1007h${CSI}?1049h`,
    check: (t) => {
      assertEquals(t.term.modes.alternateScroll, true);
      assertEquals(t.term.modes.altScreen, true);
    },
  },
]);
