/**
 * Emulation bugs that real programs (tests/programs/) showed, reduced to
 * bytes.
 */
import { CSI, runCases } from "./helpers.ts";

runCases("found by programs", [
  {
    // vttest 11.5.4 (CHT): "the lines with *'s should look the same (they
    // wrap once)"; xterm's tab leaves its wrap flag alone.
    name: "HT at the pending wrap keeps it: the next character wraps",
    cols: 10,
    rows: 3,
    input: "0123456789\tx",
    screen: "0123456789\nx",
    cursor: [1, 1],
  },
  {
    name: "CHT at the pending wrap keeps it: the next character wraps",
    cols: 10,
    rows: 3,
    input: `0123456789${CSI}Ix`,
    screen: "0123456789\nx",
    cursor: [1, 1],
  },
  {
    name: "CHT with a count at the pending wrap keeps it",
    cols: 10,
    rows: 3,
    input: `0123456789${CSI}3Ix`,
    screen: "0123456789\nx",
    cursor: [1, 1],
  },
  {
    name: "HT before the last column still moves and prints there",
    cols: 10,
    rows: 3,
    input: "012345678\tx",
    screen: "012345678x",
    cursor: [9, 0],
  },
]);
