/**
 * vttest through a real PTY into our emulator: each walk of
 * vttest_script.ts must reproduce its golden screens
 * (tests/fixtures/programs/vttest/, made by scripts/vttest_goldens.ts,
 * mostly from tmux as an independent reference).
 */
import assert from "node:assert/strict";
import {
  A_BLINK,
  A_BOLD,
  A_INVERSE,
  paletteColor,
  underlineStyle,
} from "../../core/model/cell.ts";
import {
  normalizeScreen,
  type ProgramSession,
  withProgram,
} from "./harness.ts";
import { VTTEST_ARGS, VTTEST_WALKS } from "./vttest_script.ts";

const FIXTURES = new URL("../fixtures/programs/vttest/", import.meta.url);

function golden(path: string): string {
  return normalizeScreen(Deno.readTextFileSync(new URL(path, FIXTURES)));
}

/**
 * vttest's "Graphic rendition test pattern": every label is drawn in the
 * renditions it names (and "vanilla" in none of them).
 */
function checkRendition(s: ProgramSession, reverseScreen: boolean): void {
  // "Dark background" is the normal screen, "Light background" DECSCNM.
  assert.equal(s.term.reverseVideo, reverseScreen, "DECSCNM");
  const lines = s.lines();
  let labels = 0;
  for (let y = 3; y < 19; y++) {
    for (const m of lines[y].matchAll(/[a-z]+( [a-z]+)*/g)) {
      const words = m[0].split(" ");
      const x = m.index!;
      const a = s.attr(x, y);
      const where = `"${m[0]}" at (${x},${y})`;
      assert.equal(!!(a & A_BOLD), words.includes("bold"), `bold: ${where}`);
      assert.equal(
        underlineStyle(a) === 1,
        words.includes("underline"),
        `underline: ${where}`,
      );
      assert.equal(!!(a & A_BLINK), words.includes("blink"), `blink: ${where}`);
      assert.equal(
        !!(a & A_INVERSE),
        words.includes("negative"),
        `negative: ${where}`,
      );
      labels++;
    }
  }
  assert.equal(labels, 16, "all sixteen labels");
}

/**
 * vttest 11.6.4 (BCE): after erasing with a coloured background, "there
 * should be no cells with the default foreground or background": every
 * cell of the screen has the test's colours.
 */
function checkBce(s: ProgramSession, fg: number, bg: number): void {
  for (let y = 0; y < s.term.rows; y++) {
    for (let x = 0; x < s.term.cols; x++) {
      if (s.bg(x, y) !== bg) {
        throw new Error(
          `cell (${x},${y}) background ${s.bg(x, y)}, want ${bg}`,
        );
      }
      const ch = s.line(y).text(x);
      if (ch !== " " && s.fg(x, y) !== fg) {
        throw new Error(`cell (${x},${y}) "${ch}" foreground ${s.fg(x, y)}`);
      }
    }
  }
}

/**
 * The line sizes of the screen, one digit a row: 0 single, 1 double width,
 * 2 double height (top half), 3 double height (bottom half).
 */
function checkSizes(s: ProgramSession, want: string): void {
  const got = Array.from({ length: s.term.rows }, (_, y) => s.line(y).size)
    .join("");
  assert.equal(got, want, "line sizes");
}

/** Checks beyond the screen text, after the step of that name. */
const EXTRA_CHECKS: Record<string, (s: ProgramSession) => void> = {
  "menu2/02-12": (s) => checkRendition(s, false),
  "menu2/02-13": (s) => checkRendition(s, true),
  // Yellow on blue; then the box only in colour, the rest default... but
  // the first screen is the one that must have no default cell at all.
  "menu4/01-left": (s) => checkSizes(s, "000000001023023000000000"),
  "menu4/02-left-swl": (s) => checkSizes(s, "000000001023023000001000"),
  "menu4/05-frame": (s) => checkSizes(s, "000000023232323230000000"),
  "menu4/06-half-box": (s) => checkSizes(s, "000000000000000000023232"),
  // VT52 mode while vttest draws in it; ANSI mode and its level back after.
  "menu7/01-box": (s) => assert.equal(s.term.modes.vt52, true, "VT52 mode"),
  "menu7/02-charsets": (s) => assert.equal(s.term.modes.vt52, true),
  "menu7/04-levels": (s) => assert.equal(s.term.modes.vt52, false),
  "menu7/05-main": (s) => assert.equal(s.term.modes.vtLevel, 5, "level"),
  "menu11-bce/02-bce-blue": (s) =>
    checkBce(s, paletteColor(3), paletteColor(4)),
};

for (const walk of VTTEST_WALKS) {
  Deno.test(`vttest ${walk.name}`, async () => {
    await withProgram({ command: "vttest", args: VTTEST_ARGS }, async (s) => {
      await s.waitForText(golden("main.txt"), { what: "main menu" });
      for (const step of walk.steps) {
        const name = `${walk.name}/${step.name}`;
        // vttest discards typeahead before each prompt: the next keys go
        // only once the whole screen (which ends with the prompt) is there.
        await s.sendAndExpect(step.keys, golden(`${name}.txt`), name);
        EXTRA_CHECKS[name]?.(s);
      }
      // Leave vttest through its menus: it must end by itself.
      await s.send("0\r");
      await s.waitForExit();
    });
  });
}
