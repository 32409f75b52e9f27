/**
 * Typed characters, so that their echo is not announced as new output: a
 * screen reader already speaks a key when it is typed (its typing echo),
 * and the program's echo of it would be read a second time (xterm.js
 * #5382).
 *
 * Each printable character typed is expected at a cell: the cursor's when
 * typing starts, the next cell for each character typed after it (typed
 * ahead of the echo, or into the window's own line editor, which sends the
 * line at Enter). New text is compared cell by cell with what is
 * expected there; a match is the echo and is left out. Output that lands
 * elsewhere (a completion, a prompt, another program's text) is
 * announced. Any other key (arrows, Tab, Backspace, control keys, Enter)
 * ends the run: the next character starts again at the cursor.
 *
 * @module
 */

/** Typed characters older than this are no longer expected as an echo. */
const ECHO_MS = 3000;
/** At most this many cells are expected at once. */
const MAX_EXPECTED = 4096;

/** Where the cursor is: absolute line (history included), column, width. */
export interface CursorPlace {
  line: number;
  col: number;
  cols: number;
}

/** The typed characters whose echo is expected. */
export class EchoFilter {
  /** "line:col" -> the character expected there. */
  #expected = new Map<string, string>();
  /** Where the next character of the current run goes (null: at the cursor). */
  #next: { line: number; col: number } | null = null;
  #at = 0;

  /** Input sent to the program, typed at `cursor` (null: unknown). */
  typed(data: string, cursor: CursorPlace | null, now: number): void {
    if (now - this.#at > ECHO_MS) {
      this.#expected.clear();
      this.#next = null;
    }
    this.#at = now;
    if (cursor === null) return;
    for (const ch of data) {
      const code = ch.charCodeAt(0);
      if (code < 0x20 || code === 0x7f || this.#expected.size >= MAX_EXPECTED) {
        // Enter, a control key or an escape sequence: the run ends.
        this.#next = null;
        if (ch === "\x1b") return;
        continue;
      }
      const at = this.#next ?? { line: cursor.line, col: cursor.col };
      this.#expected.set(`${at.line}:${at.col}`, ch);
      at.col++;
      if (at.col >= cursor.cols) {
        at.line++;
        at.col = 0;
      }
      this.#next = at;
    }
  }

  /** True while echoes are expected (else {@link strip} has nothing to do). */
  get waiting(): boolean {
    return this.#expected.size > 0;
  }

  /**
   * `text`, the part of absolute line `line` from column `from`, without
   * the characters that are the echo of typed ones (which are forgotten).
   */
  strip(line: number, from: number, text: string, now: number): string {
    if (this.#expected.size === 0) return text;
    if (now - this.#at > ECHO_MS) {
      this.#expected.clear();
      this.#next = null;
      return text;
    }
    let out = "";
    for (let i = 0; i < text.length; i++) {
      const key = `${line}:${from + i}`;
      const want = this.#expected.get(key);
      if (want === undefined) {
        out += text[i];
        continue;
      }
      this.#expected.delete(key);
      if (want !== text[i]) out += text[i];
    }
    return out;
  }
}
