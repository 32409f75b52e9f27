/**
 * Draws predictive echo (core/line_editor/predict.ts): the characters typed
 * and not echoed yet, underlined, at the cells where their echo should
 * appear. Off by default; `setMode("on" | "auto" | "off")` is the setting
 * (docs/input-modes.md).
 *
 * @module
 */
import {
  PREDICTION_TIMEOUT_MS,
  type PredictMode,
  Predictor,
  type PredictView,
} from "../core/line_editor/predict.ts";

/** What the view needs from the page. */
export interface PredictViewOptions {
  /** The cursor cell, client coordinates (Renderer.cursorRect). */
  cursorRect(): { left: number; top: number; width: number; height: number };
  cell(): { width: number; height: number };
}

/** The predictions of a window and their overlay. */
export class PredictiveEcho {
  readonly predictor: Predictor;
  readonly el: HTMLElement;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly root: HTMLElement,
    view: PredictView,
    readonly options: PredictViewOptions,
  ) {
    this.predictor = new Predictor(view);
    this.el = document.createElement("div");
    this.el.className = "dt-predict";
    this.el.hidden = true;
    this.el.setAttribute("aria-hidden", "true");
    root.appendChild(this.el);
  }

  /** Sets when predictions show: "off" (the default), "on", "auto" (slow echo). */
  setMode(mode: PredictMode): void {
    this.predictor.mode = mode;
    this.predictor.clear();
    this.update();
  }

  /** Bytes that went to the program at once (character mode, a raw terminal). */
  sent(data: string): void {
    this.predictor.sent(data, performance.now());
    this.update();
    // Without output, a prediction still expires.
    clearTimeout(this.#timer);
    if (this.predictor.pending.length > 0) {
      this.#timer = setTimeout(
        () => this.output(),
        PREDICTION_TIMEOUT_MS + 50,
      );
    }
  }

  /** After the page's emulator took output. */
  output(): void {
    if (this.predictor.pending.length === 0 && this.el.hidden) return;
    this.predictor.output(performance.now());
    this.update();
  }

  /** Drops every prediction (the key went to the line editor instead). */
  clear(): void {
    this.predictor.clear();
    this.update();
  }

  /** Redraws the pending characters at their cells. */
  update(): void {
    const p = this.predictor;
    const first = p.pending[0];
    if (!p.showing || !first || first.y !== p.view.cursorY) {
      // Only when shown: setting the attribute again is a change for the
      // browser, which then draws a frame at once on every key, and the
      // echo, 2-3 ms later, has to wait for the next one.
      if (!this.el.hidden) this.el.hidden = true;
      return;
    }
    const cur = this.options.cursorRect();
    const cell = this.options.cell();
    const rootRect = this.root.getBoundingClientRect();
    const s = this.el.style;
    s.left = `${
      cur.left + (first.x - p.view.cursorX) * cell.width - rootRect.left
    }px`;
    s.top = `${cur.top - rootRect.top}px`;
    s.lineHeight = `${cell.height}px`;
    this.el.textContent = p.pending.map((x) => x.ch).join("");
    this.el.hidden = false;
  }
}
