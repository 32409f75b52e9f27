/**
 * Predictive local echo for slow links (mosh-style), pure: printable keys
 * sent to the program are remembered with the cell where their echo should
 * appear; output that puts that character there confirms them, output that
 * moves the cursor elsewhere or writes something else drops every
 * prediction. The page draws what is still pending as tentative text.
 *
 * @module
 */

/** When predictions are shown. */
export type PredictMode = "off" | "on" | "auto";

/** What the predictor reads of the terminal (the page's emulator). */
export interface PredictView {
  readonly cursorX: number;
  readonly cursorY: number;
  readonly cols: number;
  /** The text of screen cell (x, y). */
  cellText(x: number, y: number): string;
}

/** One character typed, not echoed yet. */
export interface Prediction {
  ch: string;
  x: number;
  y: number;
  /** When it was typed (ms). */
  at: number;
}

/** Echo times above this (smoothed) make "auto" show predictions. */
export const AUTO_THRESHOLD_MS = 30;
/** A prediction not confirmed within this time is dropped. */
export const PREDICTION_TIMEOUT_MS = 2000;

/** True for one printable, single-width character (what can be predicted). */
function predictable(data: string): boolean {
  if (data.length !== 1) return false;
  const c = data.charCodeAt(0);
  return c >= 0x20 && c < 0x7f;
}

/** The predictions of one window. */
export class Predictor {
  mode: PredictMode = "off";
  pending: Prediction[] = [];
  /** Smoothed key-to-echo time (ms), null before the first confirmation. */
  srtt: number | null = null;

  constructor(readonly view: PredictView) {}

  /** Whether pending predictions are to be drawn. */
  get showing(): boolean {
    return this.mode === "on" ||
      (this.mode === "auto" && this.srtt !== null &&
        this.srtt > AUTO_THRESHOLD_MS);
  }

  /** Bytes sent to the program at time `now`: predicts a printable key. */
  sent(data: string, now: number): void {
    if (this.mode === "off") return;
    if (!predictable(data)) {
      // Anything else (Enter, arrows, a paste) makes the next echo unknown.
      this.pending = [];
      return;
    }
    const v = this.view;
    const last = this.pending[this.pending.length - 1];
    const x = last ? last.x + 1 : v.cursorX;
    const y = last ? last.y : v.cursorY;
    if (x >= v.cols - 1) return; // no guessing across the line's end
    this.pending.push({ ch: data, x, y, at: now });
  }

  /** After output: confirm or drop the predictions. */
  output(now: number): void {
    const v = this.view;
    while (this.pending.length > 0) {
      const p = this.pending[0];
      if (now - p.at > PREDICTION_TIMEOUT_MS) {
        this.pending = [];
        return;
      }
      if (v.cellText(p.x, p.y) === p.ch && this.#passed(p)) {
        this.pending.shift();
        const sample = now - p.at;
        this.srtt = this.srtt === null
          ? sample
          : this.srtt * 0.875 + sample * 0.125;
        continue;
      }
      if (this.#passed(p) || v.cursorY !== p.y) {
        // The program wrote something else there, or went elsewhere.
        this.pending = [];
      }
      return;
    }
  }

  /** Drops every prediction (e.g. the key went to the line editor). */
  clear(): void {
    this.pending = [];
  }

  /** The cursor is past the prediction's cell on its row. */
  #passed(p: Prediction): boolean {
    return this.view.cursorY === p.y && this.view.cursorX > p.x;
  }
}
