/**
 * The emulator's damage (core/emulator/damage.ts) as a renderer sees it
 * through TerminalView: which lines changed since their damage was reset.
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalView } from "../../core/terminal_view.ts";
import { assertEquals } from "./helpers.ts";

/** Damage of each screen row, as the view reports it. */
function damagedRows(view: TerminalView): boolean[] {
  const buf = view.buffer;
  const out: boolean[] = [];
  for (let y = 0; y < view.rows; y++) {
    out.push(view.isDamaged(buf.getLine(buf.length - view.rows + y)));
  }
  return out;
}

/** Reset the damage of every line of the active buffer. */
function resetAll(view: TerminalView): void {
  const buf = view.buffer;
  for (let i = 0; i < buf.length; i++) view.resetDamage(buf.getLine(i));
}

Deno.test("damage: new lines start damaged; a reset clears only what it is given", () => {
  const t = new Terminal({ cols: 10, rows: 3 });
  assertEquals(damagedRows(t), [true, true, true]);
  t.resetDamage(t.buffer.getLine(1));
  assertEquals(damagedRows(t), [true, false, true]);
  resetAll(t);
  assertEquals(damagedRows(t), [false, false, false]);
});

Deno.test("damage: writing damages the rows written, erasing and scrolling too", () => {
  const t = new Terminal({ cols: 10, rows: 3 });
  resetAll(t);
  t.write("\x1b[2;1Hab");
  assertEquals(damagedRows(t), [false, true, false]);
  resetAll(t);
  t.write("\x1b[1;1H\x1b[K");
  assertEquals(damagedRows(t), [true, false, false]);
  resetAll(t);
  // A line feed at the bottom scrolls: the new bottom row is a new line.
  t.write("\x1b[3;1H\n");
  assertEquals(damagedRows(t)[2], true);
});

Deno.test("damage: synchronizedOutput follows ?2026", () => {
  const t = new Terminal({ cols: 10, rows: 3 });
  const view: TerminalView = t;
  assertEquals(view.synchronizedOutput, false);
  t.write("\x1b[?2026h");
  assertEquals(view.synchronizedOutput, true);
  t.write("\x1b[?2026l");
  assertEquals(view.synchronizedOutput, false);
});
