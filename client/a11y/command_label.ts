/**
 * What a command group is called for assistive technology: its command,
 * its state and the size of its output, as in "ls -l, exit 0, 12 lines"
 * or "make, failed, exit 2, 40 lines, output hidden". The shell UI puts it
 * on the group's prompt row (`role="region"`, client/shell_ui.ts) and the
 * prompt keys say it. Pure: no DOM.
 *
 * @module
 */
import {
  type CommandGroup,
  outputLines,
} from "../../core/model/command_groups.ts";
import type { BufferView } from "../../core/terminal_view.ts";

/** The command line of `g`: the one OSC 633 E reported, else its input's text. */
export function commandText(g: CommandGroup, buf: BufferView): string {
  if (g.commandLine) return g.commandLine.trim();
  if (g.input === null || g.input.line >= buf.length) return "";
  const end = g.output?.line ?? g.input.line + 1;
  let s = "";
  for (let i = g.input.line; i < end && i < buf.length; i++) {
    const line = buf.getLine(i);
    const from = i === g.input.line ? g.input.x : 0;
    s += line.toString(true, from);
    if (!line.wrapped) s += " ";
  }
  return s.trim();
}

/** `n` with thousands separated by commas ("100,000"; no Intl: its first call costs ms). */
export function thousands(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "N line(s)". */
export function linesWord(n: number): string {
  return `${thousands(n)} line${n === 1 ? "" : "s"}`;
}

/** The name of group `g`'s region. */
export function commandLabel(
  g: CommandGroup,
  command: string,
  folded: boolean,
): string {
  // The prompt waiting for a command.
  if (g.end === null && g.output === null) return "prompt";
  const parts = [command || "command"];
  if (g.end === null) parts.push("running");
  else if (g.exitCode !== null && g.exitCode !== 0) {
    parts.push(`failed, exit ${g.exitCode}`);
  } else if (g.exitCode === 0) parts.push("exit 0");
  const out = outputLines(g);
  parts.push(linesWord(out ? out.end - out.first : 0));
  if (folded && out) parts.push("output hidden");
  return parts.join(", ");
}
