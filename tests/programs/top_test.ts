/**
 * htop and top through a real PTY. Their numbers change all the time, so
 * only the stable structure is checked: labels, column headers, meter
 * frames lined up, the function-key bar, search moving the selection,
 * and a clean exit back to the normal screen.
 */
import assert from "node:assert/strict";
import { A_INVERSE } from "../../core/model/cell.ts";
import { type ProgramSession, withProgram } from "./harness.ts";

/** Index of the first screen row matching `re`, or -1. */
function rowOf(s: ProgramSession, re: RegExp): number {
  return s.lines().findIndex((l) => re.test(l));
}

const HTOP_HEADER =
  /^\s+PID USER\s+PRI\s+NI\s+VIRT\s+RES\s+SHR S\s+CPU%.MEM%\s+TIME\+\s+Command$/;

Deno.test("htop: meters, process list, search, quit", async () => {
  await withProgram({ command: "htop" }, async (s) => {
    await s.waitForScreen(
      (s) =>
        rowOf(s, HTOP_HEADER) > 0 && /^F1Help .*F10Quit$/.test(s.lines()[23]),
      undefined,
      "htop's screen",
    );
    assert.equal(s.term.buffer.isAlt, true);
    // The meters: one bar per CPU, then Mem and Swp, all closing in the
    // same column; the text meters beside them.
    const mem = rowOf(s, /^ {2}Mem\[/);
    const swp = rowOf(s, /^ {2}Swp\[/);
    assert.ok(mem > 0 && swp === mem + 1, "Mem and Swp meters");
    const cpu0 = rowOf(s, /^ +0\[/);
    assert.ok(cpu0 >= 0 && cpu0 < mem, "CPU meters above Mem");
    const close = s.lines()[mem].indexOf("]");
    for (let y = cpu0; y <= swp; y++) {
      assert.equal(s.lines()[y][close], "]", `meter row ${y} ends at ${close}`);
    }
    assert.ok(rowOf(s, /\] Tasks: \d+, \d+ thr/) >= cpu0, "Tasks");
    assert.ok(rowOf(s, /\] Load average: [\d.]+ [\d.]+ [\d.]+$/) >= 0, "load");
    // The column header is a coloured bar across the screen.
    const header = rowOf(s, HTOP_HEADER);
    assert.notEqual(s.bg(1, header), 0, "header has a background");
    assert.notEqual(s.bg(79, header), 0, "header bar reaches the last column");

    // F3 searches; the selection (a coloured bar) moves to htop's own row.
    await s.key("F3");
    await s.waitForScreen(/Search:\s*$/, undefined, "search prompt");
    await s.send("htop");
    await s.waitForScreen(
      (s) => {
        const y = rowOf(s, /^\s*\d+ .* htop$/);
        if (y < 0 || !/Search: htop$/.test(s.lines()[23])) return false;
        const other = y === header + 1 ? y + 1 : header + 1;
        return s.bg(1, y) !== 0 && s.bg(1, y) !== s.bg(1, other);
      },
      undefined,
      "htop's row selected",
    );
    await s.key("Escape");
    await s.waitForScreen(/F10Quit$/, undefined, "search closed");
    await s.key("F10");
    await s.waitForExit();
    assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
  });
});

Deno.test("top: summary, column header, quit", async () => {
  await withProgram({ command: "top" }, async (s) => {
    await s.waitForScreen(
      (s) =>
        /^top - \d\d:\d\d:\d\d up .*load average: [\d.]+, [\d.]+, [\d.]+$/
          .test(s.lines()[0]) &&
        /^\s*PID USER\s+PR\s+NI\s+VIRT\s+RES\s+SHR S\s+%CPU\s+%MEM\s+TIME\+ COMMAND/
          .test(s.lines()[6]),
      undefined,
      "top's screen",
    );
    const l = s.lines();
    assert.match(l[1], /^Tasks: +\d+ total, +\d+ running/);
    assert.match(l[2], /^%Cpu\(s\): *[\d.]+ us,/);
    assert.match(l[3], /^MiB Mem : +[\d.]+ total,/);
    assert.match(l[4], /^MiB Swap: +[\d.]+ total,/);
    // The header is drawn in reverse video across the whole width.
    assert.ok(s.attr(0, 6) & A_INVERSE, "reverse header");
    // Process rows: a PID first, a command last, within 80 columns.
    for (let y = 7; y < 12; y++) {
      assert.match(l[y], /^\s*\d+ \S+/, `process row ${y}`);
      assert.ok(l[y].length <= 80);
    }
    await s.send("q");
    await s.waitForExit();
    assert.equal(s.term.buffer.isAlt, false, "back on the normal screen");
  });
});
