/**
 * Test helpers for the emulator: a terminal that records replies and
 * events, and text views of its screen.
 *
 * @module
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalEvent } from "../../core/terminal_view.ts";
import type { Line } from "../../core/model/line.ts";

/** A terminal plus what it sent back. */
export interface TestTerminal {
  term: Terminal;
  /** Every reply, in order. */
  replies: string[];
  /** Every event, in order. */
  events: TerminalEvent[];
}

/** A terminal of `cols` x `rows` that records replies and events. */
export function makeTerminal(
  cols = 80,
  rows = 24,
  scrollback?: number,
): TestTerminal {
  const replies: string[] = [];
  const events: TerminalEvent[] = [];
  const term = new Terminal({
    cols,
    rows,
    scrollback,
    reply: (d) => replies.push(d),
    onEvent: (e) => events.push(e),
  });
  return { term, replies, events };
}

/** Screen row `y` of the active buffer. */
export function screenLine(term: Terminal, y: number): Line {
  const buf = term.buffer;
  return buf.getLine(buf.length - term.rows + y);
}

/** The screen rows as text, trailing blanks trimmed. */
export function screenLines(term: Terminal): string[] {
  const out: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    out.push(screenLine(term, y).toString(true));
  }
  return out;
}

/** The screen as text: rows joined by "\n", trailing blank rows dropped. */
export function screenText(term: Terminal): string {
  const lines = screenLines(term);
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

/** The history lines (normal buffer) as text, trailing blanks trimmed. */
export function historyLines(term: Terminal): string[] {
  const buf = term.normalBuffer;
  const out: string[] = [];
  for (let i = 0; i < buf.length - term.rows; i++) {
    out.push(buf.getLine(i).toString(true));
  }
  return out;
}

/** Every screen row's cells as a flat array (for comparing whole states). */
export function snapshot(term: Terminal): unknown {
  const buf = term.buffer;
  const lines: unknown[] = [];
  for (let i = 0; i < buf.length; i++) {
    const l = buf.getLine(i);
    lines.push([
      Array.from(l.data),
      l.wrapped,
      l.clusters ? [...l.clusters.entries()].sort((a, b) => a[0] - b[0]) : [],
    ]);
  }
  return {
    lines,
    x: term.cursorX,
    y: term.cursorY,
    wrap: term.wrapPending,
    alt: buf.isAlt,
    trimmed: buf.trimmed,
    title: term.title,
  };
}

/** Throw unless the invariants hold. */
export function checkInvariants(term: Terminal): void {
  const { cols, rows } = term;
  if (!(term.cursorX >= 0 && term.cursorX < cols)) {
    throw new Error(`cursorX ${term.cursorX} outside 0..${cols - 1}`);
  }
  if (!(term.cursorY >= 0 && term.cursorY < rows)) {
    throw new Error(`cursorY ${term.cursorY} outside 0..${rows - 1}`);
  }
  for (const buf of [term.buffer, term.normalBuffer]) {
    if (buf.length < rows) {
      throw new Error(`buffer length ${buf.length} < ${rows}`);
    }
    for (let y = 0; y < rows; y++) {
      const l = buf.getLine(buf.length - rows + y);
      if (l.cols !== cols || l.data.length !== cols * 4) {
        throw new Error(`screen row ${y} has ${l.cols} cells, want ${cols}`);
      }
    }
    // Line.hi: a recycled line is cleared only below it (LineStore).
    for (let i = Math.max(0, buf.length - rows - 500); i < buf.length; i++) {
      const l = buf.getLine(i);
      for (let w = l.hi * 4; w < l.data.length; w++) {
        if (l.data[w] !== 0) {
          throw new Error(
            `line ${i} (of ${buf.length}): cell ${w >> 2} is not blank ` +
              `but at or past hi ${l.hi}`,
          );
        }
      }
    }
  }
}

/** ESC, CSI, OSC, DCS and ST as strings, for readable test inputs. */
export const ESC = "\x1b";
export const CSI = "\x1b[";
export const OSC = "\x1b]";
export const DCS = "\x1bP";
export const ST = "\x1b\\";

/** A 1x1 PNG, base64 (for OSC 1337 File= images). */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** One table-driven case: input -> expected screen, cursor, replies. */
export interface Case {
  name: string;
  cols?: number;
  rows?: number;
  scrollback?: number;
  /** Program output (a string is UTF-8 encoded). */
  input: string | Uint8Array;
  /** Expected {@link screenText}. */
  screen?: string;
  /** Expected [cursorX, cursorY]. */
  cursor?: [number, number];
  /** Expected replies (all of them, in order). */
  replies?: string[];
  /** Expected history lines (normal buffer). */
  history?: string[];
  /** Further checks. */
  check?: (t: TestTerminal) => void;
}

/** Assert that `actual` equals `expected` (JSON comparison), with a message. */
export function expectEqual(
  actual: unknown,
  expected: unknown,
  what: string,
): void {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, want ${e}`);
}

/** Register one Deno test per case (80x24 unless the case says otherwise). */
export function runCases(group: string, cases: Case[]): void {
  for (const c of cases) {
    Deno.test(`${group}: ${c.name}`, () => {
      const t = makeTerminal(c.cols ?? 80, c.rows ?? 24, c.scrollback);
      t.term.write(c.input);
      checkInvariants(t.term);
      if (c.screen !== undefined) {
        expectEqual(screenText(t.term), c.screen, "screen");
      }
      if (c.cursor !== undefined) {
        expectEqual([t.term.cursorX, t.term.cursorY], c.cursor, "cursor");
      }
      if (c.replies !== undefined) expectEqual(t.replies, c.replies, "replies");
      if (c.history !== undefined) {
        expectEqual(historyLines(t.term), c.history, "history");
      }
      c.check?.(t);
    });
  }
}

/** Cell (x, y) of the screen: code, fg, bg, attr. */
export function cell(
  term: Terminal,
  x: number,
  y: number,
): { code: number; fg: number; bg: number; attr: number; text: string } {
  const l = screenLine(term, y);
  return {
    code: l.code(x),
    fg: l.fg(x),
    bg: l.bg(x),
    attr: l.attr(x),
    text: l.text(x),
  };
}

export {
  deepStrictEqual as assertEquals,
  ok as assert,
} from "node:assert/strict";

/**
 * Throw unless every screen line is consistent: wide heads are followed by
 * tails (and tails preceded by heads), cluster text exists exactly for
 * A_CLUSTER cells.
 */
export function checkCells(term: Terminal): void {
  const WIDE = 1 << 11, TAIL = 1 << 12, CLUSTER = 1 << 13;
  for (let y = 0; y < term.rows; y++) {
    const l = screenLine(term, y);
    for (let x = 0; x < l.cols; x++) {
      const a = l.attr(x);
      if ((a & WIDE) && !(x + 1 < l.cols && (l.attr(x + 1) & TAIL))) {
        throw new Error(`row ${y} col ${x}: wide head without tail`);
      }
      if ((a & TAIL) && !(x > 0 && (l.attr(x - 1) & WIDE))) {
        throw new Error(`row ${y} col ${x}: tail without head`);
      }
      const has = l.clusters?.has(x) ?? false;
      if (has !== ((a & CLUSTER) !== 0)) {
        throw new Error(
          `row ${y} col ${x}: cluster text ${has} but flag ${
            (a & CLUSTER) !== 0
          }`,
        );
      }
    }
  }
}

/** A small deterministic PRNG (mulberry32): numbers in [0, 1) from `seed`. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
