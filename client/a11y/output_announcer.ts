/**
 * New output for assistive technology: what the program printed since the
 * last announcement, read from the page's model and spoken through the
 * live region (live_region.ts), once and in order.
 *
 * Cost during a flood: the renderer's frame callback calls {@link
 * OutputAnnouncer.frame}, which only starts a timer when none runs; the
 * model is read when the timer fires, at most once per {@link MIN_GAP_MS}
 * while output goes on. Lines are counted by their absolute index (lines
 * trimmed off the history included), so a flood costs one subtraction:
 * more than {@link MAX_LINES} new lines are announced as "N lines of
 * output" (and the line the cursor is on), never read out.
 *
 * The alternate screen (vim, less, htop) has no history to append to:
 * there the cursor's line is announced when it changes (its rows stay in
 * the document, where a screen reader's review cursor reads them).
 *
 * @module
 */
import type { BufferView } from "../../core/terminal_view.ts";
import type { CursorPlace, EchoFilter } from "./echo_filter.ts";
import { thousands } from "./command_label.ts";

/** What the announcer reads of the terminal. */
export interface AnnouncedTerminal {
  readonly rows: number;
  readonly cols: number;
  readonly cursorX: number;
  readonly cursorY: number;
  readonly buffer: BufferView;
}

/** Quiet time before output is announced (coalesces a burst). */
export const QUIET_MS = 150;
/** Least time between two announcements while output goes on. */
export const MIN_GAP_MS = 1000;
/** More new lines than this are counted, not read. */
export const MAX_LINES = 40;

/** Line `i`'s text from column `from`, trailing blanks left out. */
function lineText(buf: BufferView, i: number, from = 0): string {
  return buf.getLine(i).toString(true).slice(from);
}

/** Announces a terminal's new output. */
export class OutputAnnouncer {
  #term: AnnouncedTerminal;
  #speak: (text: string) => void;
  #echo: EchoFilter;
  /** Absolute line and column up to which the normal buffer was announced. */
  #line = -1;
  #col = 0;
  /** The alternate screen's last announced cursor line and its text. */
  #altKey = "";
  #timer: ReturnType<typeof setTimeout> | 0 = 0;
  #last = -Infinity;
  /** Notes (a failed command) at the absolute line the cursor was on. */
  #notes: { line: number; col: number; text: string }[] = [];
  /** Where the cursor is now, for the echo filter (null on the alternate screen). */
  cursorPlace(): CursorPlace | null {
    const term = this.#term;
    const buf = term.buffer;
    if (buf.isAlt) return null;
    return {
      line: buf.trimmed + buf.length - term.rows + term.cursorY,
      col: term.cursorX,
      cols: term.cols,
    };
  }

  /**
   * What it cost (bench/a11y_bench.ts reads it): frames seen, model reads
   * (timer ticks) and the milliseconds they took.
   */
  readonly stats = { frames: 0, ticks: 0, tickMs: 0, maxTickMs: 0 };

  /** Off: nothing is read or announced (the live region is not wanted). */
  enabled = true;

  constructor(
    term: AnnouncedTerminal,
    speak: (text: string) => void,
    echo: EchoFilter,
  ) {
    this.#term = term;
    this.#speak = speak;
    this.#echo = echo;
  }

  /**
   * A frame was drawn (new output, most often). Cheap: starts the timer
   * that reads the model, when none runs.
   */
  frame(): void {
    this.stats.frames++;
    if (this.#timer !== 0 || !this.enabled) return;
    const now = performance.now();
    const wait = Math.max(QUIET_MS, this.#last + MIN_GAP_MS - now);
    this.#timer = setTimeout(this.#tick, wait);
  }

  /**
   * Start from where the output is now (a snapshot was loaded: what it
   * holds was not new output).
   */
  reset(): void {
    this.#altKey = "";
    this.#mark();
  }

  /** Everything up to the cursor counts as announced. */
  #mark(): void {
    const term = this.#term;
    const buf = term.buffer;
    if (buf.isAlt) {
      this.#line = -1;
      return;
    }
    const cursor = buf.length - term.rows + term.cursorY;
    this.#line = buf.trimmed + cursor;
    this.#col = cursor >= 0 && cursor < buf.length
      ? lineText(buf, cursor).length
      : 0;
  }

  /**
   * Say `text` in order with the output: after what came before the
   * cursor's line now, before what comes after (a command's end, from its
   * mark, before the next prompt).
   */
  note(text: string): void {
    const term = this.#term;
    const buf = term.buffer;
    const line = buf.isAlt
      ? -1
      : buf.trimmed + buf.length - term.rows + term.cursorY;
    this.#notes.push({ line, col: term.cursorX, text });
    this.frame();
  }

  /**
   * The notes made on absolute line `line` or before (all: Infinity), as
   * lines; on `line` itself only those at column `col` or before.
   */
  #takeNotes(line: number, col = Infinity): string {
    let out = "";
    const notes = this.#notes;
    while (
      notes.length > 0 &&
      (notes[0].line < line || (notes[0].line === line && notes[0].col <= col))
    ) {
      out += this.#notes.shift()!.text + "\n";
    }
    return out;
  }

  #tick = (): void => {
    this.#timer = 0;
    const now = performance.now();
    const text = this.#term.buffer.isAlt ? this.#altText() : this.#newText(now);
    const said = (text ?? "") + this.#takeNotes(Infinity);
    if (said.trim() !== "") {
      this.#last = now;
      this.#speak(said);
    }
    this.stats.ticks++;
    const took = performance.now() - now;
    this.stats.tickMs += took;
    this.stats.maxTickMs = Math.max(this.stats.maxTickMs, took);
  };

  /** The normal buffer's new text since the last announcement, or null. */
  #newText(now: number): string | null {
    const term = this.#term;
    const buf = term.buffer;
    const cursor = buf.length - term.rows + term.cursorY;
    const abs = buf.trimmed + cursor;
    if (this.#line < 0 || abs < this.#line) {
      // Back from the alternate screen, or the screen was cleared
      // upwards: start here.
      this.#mark();
      return null;
    }
    const n = abs - this.#line;
    if (n > MAX_LINES) {
      const last = lineText(buf, cursor);
      this.#line = abs;
      this.#col = last.length;
      return `${thousands(n)} lines of output` +
        (last.trim() ? `\n${last}` : "");
    }
    let out = "";
    for (let a = this.#line; a <= abs; a++) {
      const i = a - buf.trimmed;
      if (i < 0) continue;
      out += a > this.#line
        ? this.#takeNotes(a)
        : this.#takeNotes(a, this.#col);
      const line = buf.getLine(i);
      const from = a === this.#line ? this.#col : 0;
      const t = line.toString(true);
      if (a === this.#line && t.length < from) {
        // The line got shorter (erased, rubbed out): nothing new on it.
        this.#col = t.length;
      }
      out += this.#echo.strip(a, from, t.slice(from), now);
      if (a < abs && !line.wrapped) out += "\n";
      if (a === abs) this.#col = t.length;
    }
    this.#line = abs;
    return out;
  }

  /** The alternate screen's cursor line, when it or its text changed. */
  #altText(): string | null {
    const term = this.#term;
    const buf = term.buffer;
    const t = lineText(buf, buf.length - term.rows + term.cursorY);
    const key = `${term.cursorY}|${t}`;
    if (key === this.#altKey) return null;
    this.#altKey = key;
    // Back to the normal buffer later: start from where it is then.
    this.#line = -1;
    return t;
  }
}
