/**
 * Damage: which lines changed since a renderer last drew them (as
 * alacritty's `damage()` / `reset_damage()`). The emulator and the model's
 * line operations mark every line they change; a new line starts damaged.
 * A renderer asks through `TerminalView.isDamaged`
 * (core/terminal_view.ts) and, once it has drawn a line as it is, hands it
 * back through `TerminalView.resetDamage`. This file is the one place that reads
 * and clears the mark for a renderer (today `Line.dirty`), so the client
 * never writes to the model and the mark can change without it.
 *
 * @module
 */
import type { Line } from "../model/line.ts";

/** Whether `line` changed since its damage was last reset. */
export function lineDamaged(line: Line): boolean {
  return line.dirty;
}

/** `line` was drawn as it is now: forget its damage. */
export function resetLineDamage(line: Line): void {
  line.dirty = false;
}
