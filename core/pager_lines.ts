/**
 * Counts the lines output adds to the screen, byte by byte, for the page's
 * pager (client/pager.ts): it needs to know *where* in a chunk the
 * screenful is complete, before the emulator sees the bytes, so that it
 * can stop exactly there.
 *
 * A line is a line feed (LF, VT, FF), or a row filled by text that wraps.
 * The scanner follows the columns of printed text (one column per
 * character: UTF-8 continuation bytes add none), goes back to column 0 at
 * CR and skips escape sequences (CSI, OSC, DCS and the like, and two-byte
 * ESC sequences), so a coloured `ls` counts as its lines. It is an
 * estimate for wide characters and cursor movement, never for LF.
 *
 * @module
 */

const ESC = 0x1b;
const BEL = 0x07;

/** Where the scanner is between bytes. */
const enum State {
  Text,
  Esc,
  Csi,
  /** OSC, DCS, APC, PM, SOS: a string up to BEL or ST. */
  Str,
  /** ESC inside a string (ST's first byte, or not). */
  StrEsc,
}

/** Counts lines in output, carried from chunk to chunk. */
export class LineCounter {
  #state = State.Text;
  #col = 0;
  /** Width of the screen: text longer than this wraps. */
  cols: number;

  constructor(cols: number) {
    this.cols = Math.max(1, cols);
  }

  /** Forget any half-read sequence and start at column 0 (after a snapshot). */
  reset(): void {
    this.#state = State.Text;
    this.#col = 0;
  }

  /**
   * Scan `data` until `budget` lines are complete. Returns the number of
   * bytes that add at most `budget` lines (the byte that would complete
   * line `budget + 1` and everything after it are left out: `data.length`
   * when it all fits) and the lines they add. The scanner's state moves
   * only over the bytes taken.
   */
  take(data: Uint8Array, budget: number): { bytes: number; lines: number } {
    let lines = 0;
    let state = this.#state;
    let col = this.#col;
    const cols = this.cols;
    /** The column before a CR just taken (the PTY sends CR LF). */
    let colBeforeCr = -1;
    for (let i = 0; i < data.length; i++) {
      const b = data[i];
      switch (state) {
        case State.Text:
          if (b === ESC) state = State.Esc;
          else if (b === 0x0a || b === 0x0b || b === 0x0c) {
            if (lines === budget) {
              // Stop before the CR of a CR LF too: the cursor stays at the
              // end of the last line shown.
              return colBeforeCr >= 0
                ? this.#stop(i - 1, lines, state, colBeforeCr)
                : this.#stop(i, lines, state, col);
            }
            lines++;
            col = 0;
          } else if (b === 0x0d) {
            colBeforeCr = col;
            col = 0;
            continue;
          } else if (b === 0x08) col = Math.max(0, col - 1);
          else if (b >= 0x20 && (b < 0x80 || b >= 0xc0) && b !== 0x7f) {
            // A character that does not fit wraps to a new line first.
            if (col >= cols) {
              if (lines === budget) return this.#stop(i, lines, state, col);
              lines++;
              col = 0;
            }
            col++;
          }
          colBeforeCr = -1;
          break;
        case State.Esc:
          if (b === 0x5b) state = State.Csi; // [
          else if (
            b === 0x5d || b === 0x50 || b === 0x5f || b === 0x5e || b === 0x58
          ) {
            state = State.Str; // ] P _ ^ X
          } else if (b >= 0x20 && b <= 0x2f) state = State.Esc; // intermediates
          else state = State.Text;
          break;
        case State.Csi:
          if (b >= 0x40 && b <= 0x7e) state = State.Text;
          else if (b === ESC) state = State.Esc;
          break;
        case State.Str:
          if (b === BEL) state = State.Text;
          else if (b === ESC) state = State.StrEsc;
          break;
        case State.StrEsc:
          state = b === 0x5c ? State.Text : State.Str;
          break;
      }
    }
    return this.#stop(data.length, lines, state, col);
  }

  #stop(
    bytes: number,
    lines: number,
    state: State,
    col: number,
  ): { bytes: number; lines: number } {
    this.#state = state;
    this.#col = col;
    return { bytes, lines };
  }
}
