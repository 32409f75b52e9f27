/**
 * Reflow speed: a terminal with 10,000 and 100,000 lines of scrollback
 * (mixed short lines, long wrapped lines, colours, wide characters) is
 * resized 80 -> 53 -> 120 -> 80 columns.
 *
 *   deno run bench/reflow_bench.ts     (prints ms per resize, median of 5:
 *                                       wall time, and CPU time of the
 *                                       process, which a busy machine
 *                                       inflates less)
 *   deno bench bench/reflow_bench.ts   (time per 80 -> 53 -> 80 round trip, 10k lines)
 *
 * @module
 */
import process from "node:process";
import { Terminal } from "../core/emulator/terminal.ts";

const ROWS = 40;

/** A terminal holding `lines` lines of output (history + screen). */
function filled(lines: number): Terminal {
  const term = new Terminal({ cols: 80, rows: ROWS, scrollback: lines * 3 });
  const parts: string[] = [];
  for (let i = 0; term.normalBuffer.length < lines; i++) {
    switch (i % 5) {
      case 0:
        parts.push(`$ ls -l /usr/share/doc/package-${i}\r\n`);
        break;
      case 1: // a long line: three rows at 80 columns
        parts.push(`${"lorem ipsum dolor sit amet ".repeat(8)}${i}\r\n`);
        break;
      case 2:
        parts.push(`\x1b[1;32mok\x1b[0m \x1b[38;5;208m${i}\x1b[0m done\r\n`);
        break;
      case 3:
        parts.push(`漢字のテキスト ${"幅の広い文字".repeat(8)}\r\n`);
        break;
      default:
        parts.push("\r\n");
    }
    if (parts.length >= 100) {
      term.write(parts.join(""));
      parts.length = 0;
    }
  }
  term.write(parts.join("") + "$ ");
  return term;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

if (import.meta.main) {
  for (const lines of [10_000, 100_000]) {
    const term = filled(lines);
    const held = term.normalBuffer.length;
    const wall: Record<string, number[]> = {};
    const cpu: Record<string, number[]> = {};
    for (let run = 0; run < 5; run++) {
      for (const cols of [53, 120, 80]) {
        const key = `${term.cols} -> ${cols}`;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        term.resize(cols, ROWS);
        (wall[key] ??= []).push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        (cpu[key] ??= []).push((c.user + c.system) / 1000);
      }
    }
    console.log(`${held} lines:`);
    for (const key of Object.keys(wall)) {
      console.log(
        `  ${key.padEnd(10)} wall ${median(wall[key]).toFixed(1)} ms, cpu ${
          median(cpu[key]).toFixed(1)
        } ms`,
      );
    }
  }
}

let bench10k: Terminal | null = null;
Deno.bench("reflow 10k lines 80 -> 53 -> 80", () => {
  bench10k ??= filled(10_000);
  bench10k.resize(53, ROWS);
  bench10k.resize(80, ROWS);
});
