/**
 * Mouse reports (core/mouse.ts), table-driven: tracking modes x encodings
 * x events, compared with the bytes xterm sends.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  encodeAlternateScroll,
  encodeMouse,
  mouseBytes,
  type MouseReport,
} from "../../core/mouse.ts";
import type { InputModes } from "../../core/terminal_view.ts";

type Tracking = InputModes["mouseTracking"];
type Encoding = InputModes["mouseEncoding"];

/**
 * An event spelled compactly: "press 0", "release 2", "move 0", "move -",
 * "wheel up"; modifiers "S" shift, "A" alt, "C" ctrl.
 */
function ev(
  what: string,
  col: number,
  row: number,
  mods = "",
  px: [number, number] = [0, 0],
): MouseReport {
  const [action, arg] = what.split(" ");
  return {
    action: action as MouseReport["action"],
    button: action === "wheel" ? 0 : arg === "-" ? -1 : Number(arg),
    wheel: action === "wheel" ? arg as MouseReport["wheel"] : undefined,
    col,
    row,
    x: px[0],
    y: px[1],
    shift: mods.includes("S"),
    alt: mods.includes("A"),
    ctrl: mods.includes("C"),
  };
}

type Row = [Tracking, Encoding, MouseReport, string | null];

function table(rows: Row[]) {
  const bad: string[] = [];
  for (const [mouseTracking, mouseEncoding, e, want] of rows) {
    const got = encodeMouse(e, { mouseTracking, mouseEncoding });
    if (got !== want) {
      bad.push(
        `${mouseTracking}/${mouseEncoding} ${JSON.stringify(e)}: got ${
          JSON.stringify(got)
        }, want ${JSON.stringify(want)}`,
      );
    }
  }
  assertEquals(bad, []);
}

const CSI = "\x1b[";
/** Default-encoding report: CSI M, then 32 + code, 33 + col, 33 + row. */
const x10 = (code: number, col: number, row: number) =>
  `${CSI}M${String.fromCharCode(32 + code, 33 + col, 33 + row)}`;

Deno.test("tracking off: nothing", () => {
  table([
    [0, 0, ev("press 0", 1, 1), null],
    [0, 1006, ev("wheel up", 1, 1), null],
  ]);
});

Deno.test("X10 mode (?9): presses of buttons 1-3 without modifiers only", () => {
  table([
    [9, 0, ev("press 0", 0, 0), x10(0, 0, 0)],
    [9, 0, ev("press 1", 4, 2), x10(1, 4, 2)],
    [9, 0, ev("press 2", 79, 23), x10(2, 79, 23)],
    [9, 0, ev("release 0", 0, 0), null],
    [9, 0, ev("move 0", 1, 0), null],
    [9, 0, ev("wheel up", 0, 0), null],
    [9, 0, ev("press 0", 0, 0, "C"), null],
    [9, 0, ev("press 3", 0, 0), null],
    [9, 1006, ev("press 0", 9, 4), `${CSI}<0;10;5M`],
  ]);
});

Deno.test("normal tracking (?1000): press, release, wheel, modifiers", () => {
  table([
    [1000, 0, ev("press 0", 0, 0), x10(0, 0, 0)],
    [1000, 0, ev("press 2", 10, 5), x10(2, 10, 5)],
    // Release says "some button" (3) outside SGR.
    [1000, 0, ev("release 0", 10, 5), x10(3, 10, 5)],
    [1000, 0, ev("release 2", 10, 5), x10(3, 10, 5)],
    [1000, 0, ev("release 0", 10, 5, "C"), x10(3 + 16, 10, 5)],
    [1000, 0, ev("wheel up", 3, 3), x10(64, 3, 3)],
    [1000, 0, ev("wheel down", 3, 3), x10(65, 3, 3)],
    [1000, 0, ev("wheel left", 3, 3), x10(66, 3, 3)],
    [1000, 0, ev("wheel right", 3, 3), x10(67, 3, 3)],
    [1000, 0, ev("press 0", 0, 0, "S"), x10(4, 0, 0)],
    [1000, 0, ev("press 0", 0, 0, "A"), x10(8, 0, 0)],
    [1000, 0, ev("press 0", 0, 0, "C"), x10(16, 0, 0)],
    [1000, 0, ev("press 1", 0, 0, "SAC"), x10(1 + 28, 0, 0)],
    [1000, 0, ev("wheel up", 0, 0, "C"), x10(64 + 16, 0, 0)],
    [1000, 0, ev("press 3", 0, 0), x10(128, 0, 0)],
    [1000, 0, ev("press 4", 0, 0), x10(129, 0, 0)],
    [1000, 0, ev("press 5", 0, 0), null],
    // No motion in this mode.
    [1000, 0, ev("move 0", 1, 1), null],
    [1000, 0, ev("move -", 1, 1), null],
  ]);
});

Deno.test("button-event (?1002) and any-event (?1003) motion: +32", () => {
  table([
    [1002, 0, ev("move 0", 5, 6), x10(32, 5, 6)],
    [1002, 0, ev("move 2", 5, 6, "C"), x10(32 + 2 + 16, 5, 6)],
    [1002, 0, ev("move -", 5, 6), null],
    [1002, 1006, ev("move 1", 5, 6), `${CSI}<33;6;7M`],
    [1003, 0, ev("move -", 5, 6), x10(35, 5, 6)],
    [1003, 0, ev("move 0", 5, 6), x10(32, 5, 6)],
    [1003, 1006, ev("move -", 0, 0), `${CSI}<35;1;1M`],
    [1003, 1006, ev("move -", 0, 0, "S"), `${CSI}<39;1;1M`],
    [1003, 1006, ev("press 0", 0, 0), `${CSI}<0;1;1M`],
  ]);
});

Deno.test("default encoding: positions stop at 223 (sent as byte 0)", () => {
  table([
    [1000, 0, ev("press 0", 221, 0), x10(0, 221, 0)],
    [1000, 0, ev("press 0", 222, 0), `${CSI}M \xff!`],
    [1000, 0, ev("press 0", 223, 0), `${CSI}M \x00!`],
    [1000, 0, ev("press 0", 500, 300), `${CSI}M \x00\x00`],
  ]);
  // Sent as raw bytes, not UTF-8.
  assertEquals(
    Array.from(mouseBytes(`${CSI}M \xff!`, 0) as Uint8Array),
    [0x1b, 0x5b, 0x4d, 0x20, 0xff, 0x21],
  );
  assertEquals(mouseBytes(`${CSI}<0;1;1M`, 1006), `${CSI}<0;1;1M`);
});

Deno.test("UTF-8 encoding (?1005): large positions as UTF-8 characters", () => {
  table([
    [1000, 1005, ev("press 0", 5, 5), x10(0, 5, 5)],
    [1000, 1005, ev("press 0", 94, 0), `${CSI}M \x7f!`],
    [1000, 1005, ev("press 0", 95, 0), `${CSI}M \x80!`],
    [1000, 1005, ev("press 0", 300, 1000), `${CSI}M ${"\u014d"}${"\u0409"}`],
    [1000, 1005, ev("press 0", 2015, 0), `${CSI}M \x00!`],
    [1000, 1005, ev("press 3", 0, 0), `${CSI}M\xa0!!`],
  ]);
  // The connection encodes these as UTF-8: column 300 -> 333 -> C5 8D.
  assertEquals(
    Array.from(new TextEncoder().encode("\u014d")),
    [0xc5, 0x8d],
  );
});

Deno.test("SGR encoding (?1006): decimal, release keeps the button, final m", () => {
  table([
    [1000, 1006, ev("press 0", 0, 0), `${CSI}<0;1;1M`],
    [1000, 1006, ev("release 0", 0, 0), `${CSI}<0;1;1m`],
    [1000, 1006, ev("press 2", 299, 99), `${CSI}<2;300;100M`],
    [1000, 1006, ev("release 2", 299, 99), `${CSI}<2;300;100m`],
    [1000, 1006, ev("release 1", 3, 4, "C"), `${CSI}<17;4;5m`],
    [1000, 1006, ev("wheel up", 9, 9), `${CSI}<64;10;10M`],
    [1000, 1006, ev("wheel down", 9, 9, "A"), `${CSI}<73;10;10M`],
    [1000, 1006, ev("wheel left", 0, 0), `${CSI}<66;1;1M`],
    [1000, 1006, ev("wheel right", 0, 0, "S"), `${CSI}<71;1;1M`],
    [1000, 1006, ev("press 3", 0, 0), `${CSI}<128;1;1M`],
    [1000, 1006, ev("release 4", 0, 0), `${CSI}<129;1;1m`],
  ]);
});

Deno.test("urxvt encoding (?1015): 32 + code in decimal, release is 35", () => {
  table([
    [1000, 1015, ev("press 0", 0, 0), `${CSI}32;1;1M`],
    [1000, 1015, ev("release 0", 0, 0), `${CSI}35;1;1M`],
    [1000, 1015, ev("press 2", 299, 99, "C"), `${CSI}50;300;100M`],
    [1000, 1015, ev("wheel down", 1, 1), `${CSI}97;2;2M`],
    [1003, 1015, ev("move -", 1, 1), `${CSI}67;2;2M`],
  ]);
});

Deno.test("SGR pixels (?1016): pixel positions, 1-based", () => {
  table([
    [1000, 1016, ev("press 0", 3, 2, "", [37, 45]), `${CSI}<0;38;46M`],
    [1000, 1016, ev("release 0", 3, 2, "", [37.6, 45.2]), `${CSI}<0;39;46m`],
    [1003, 1016, ev("move -", 0, 0, "", [0, 0]), `${CSI}<35;1;1M`],
    [1000, 1016, ev("wheel up", 0, 0, "", [-3, -1]), `${CSI}<64;1;1M`],
  ]);
});

Deno.test("alternate scroll (?1007): cursor keys, as DECCKM says", () => {
  const rows: [boolean, "up" | "down", number, string][] = [
    [false, "up", 1, "\x1b[A"],
    [false, "down", 3, "\x1b[B\x1b[B\x1b[B"],
    [true, "up", 2, "\x1bOA\x1bOA"],
    [true, "down", 0, ""],
  ];
  for (const [app, dir, n, want] of rows) {
    assertEquals(
      encodeAlternateScroll(dir, n, { applicationCursorKeys: app }),
      want,
    );
  }
});
