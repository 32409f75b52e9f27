/**
 * Browser mouse input: pointer and wheel events on the terminal turned into
 * the reports a program asked for with its mouse tracking modes
 * (`core/mouse.ts`), and the ?1007 alternate-scroll wheel.
 *
 * - Tracking off: nothing is intercepted; native selection and the wheel
 *   scrolling the history work as usual (the wheel on the alternate screen
 *   sends cursor up/down when ?1007 is set).
 * - Tracking on: presses, releases, motion (per the mode, once per cell)
 *   and the wheel are reported; the default actions (selection, context
 *   menu, scrolling) are prevented. Holding Shift bypasses tracking, so
 *   Shift+drag still selects text and Shift+wheel still scrolls.
 *
 * Cell coordinates come from the rendered rows (see `client/renderer.ts`):
 * the screen is the last `rows` rows of the normal buffer's row container,
 * or the alternate screen's grid; the cell size is the renderer's
 * `--dt-cell-w` / `--dt-cell-h`.
 *
 * @module
 */
import {
  encodeAlternateScroll,
  encodeMouse,
  mouseBytes,
  type MouseReport,
  type WheelDirection,
} from "../core/mouse.ts";
import type { InputModes } from "../core/terminal_view.ts";

/** What the mouse handler needs from the page. */
export interface MouseOptions {
  /** Bytes for the PTY: a string is sent as UTF-8, a Uint8Array as is. */
  send(data: string | Uint8Array<ArrayBuffer>): void;
  /** Current modes from the emulator. */
  modes(): InputModes;
  /** Current screen size in cells. */
  size(): { cols: number; rows: number };
}

/** Where the screen's cell (0, 0) is, and how big a cell is (client pixels). */
interface Geometry {
  left: number;
  top: number;
  cellWidth: number;
  cellHeight: number;
  cols: number;
  rows: number;
}

/** DOM `buttons` bits in xterm's order of preference (left, middle, right, back, forward). */
const BUTTON_BITS: [number, number][] = [[1, 0], [4, 1], [2, 2], [8, 3], [
  16,
  4,
]];

/** Mouse tracking for one terminal element. */
export class MouseHandler {
  readonly #root: HTMLElement;
  readonly #options: MouseOptions;
  /** DOM buttons whose press was reported (their release will be too). */
  #pressed = new Set<number>();
  /** Last reported motion position ("col,row" or "x,y" for pixels). */
  #lastMotion = "";
  /** Wheel distance not yet sent, in "notches" (vertical, horizontal). */
  #wheelY = 0;
  #wheelX = 0;

  /** Start listening on `root`. */
  constructor(root: HTMLElement, options: MouseOptions) {
    this.#root = root;
    this.#options = options;
    root.addEventListener("mousedown", this.#onDown);
    root.addEventListener("mousemove", this.#onMove);
    root.addEventListener("wheel", this.#onWheel, { passive: false });
    root.addEventListener("contextmenu", this.#onContextMenu);
  }

  /** Mouse events are reported for this event (tracking on, no Shift bypass). */
  #tracking(e: MouseEvent): boolean {
    return this.#options.modes().mouseTracking !== 0 && !e.shiftKey;
  }

  #onDown = (e: MouseEvent): void => {
    if (!this.#tracking(e)) return;
    // Clicks on the page's own controls (the jump-to-bottom button, a find
    // box...) are not the program's.
    const t = e.target;
    if (t instanceof Element && t.closest("button, input, select") !== null) {
      return;
    }
    e.preventDefault(); // no native selection while the program tracks
    const sent = this.#report(e, "press", e.button);
    if (sent || this.#options.modes().mouseTracking !== 9) {
      this.#pressed.add(e.button);
      this.#startDragListeners();
    }
  };

  #onUp = (e: MouseEvent): void => {
    if (!this.#pressed.delete(e.button)) return;
    this.#report(e, "release", e.button);
    if (this.#pressed.size === 0) this.#stopDragListeners();
  };

  #onMove = (e: MouseEvent): void => {
    const modes = this.#options.modes();
    const tracking = modes.mouseTracking;
    if (tracking !== 1002 && tracking !== 1003) return;
    // During a reported drag the document listener sees the move too.
    if (e.currentTarget === this.#root && this.#pressed.size > 0) return;
    if (this.#pressed.size === 0 && (tracking !== 1003 || e.shiftKey)) return;
    let held = -1;
    for (const [bit, button] of BUTTON_BITS) {
      if ((e.buttons & bit) !== 0 && this.#pressed.has(button)) {
        held = button;
        break;
      }
    }
    if (held < 0 && tracking !== 1003) return;
    const g = this.#geometry();
    const report = this.#position(e, g);
    const key = modes.mouseEncoding === 1016
      ? `${Math.round(report.x)},${Math.round(report.y)}`
      : `${report.col},${report.row}`;
    if (key === this.#lastMotion) return; // once per cell (or pixel)
    this.#send({ ...report, action: "move", button: held }, modes);
  };

  #onWheel = (e: WheelEvent): void => {
    const modes = this.#options.modes();
    // X10 mode (?9) reports no wheel: the wheel scrolls as usual.
    const tracking = this.#tracking(e) && modes.mouseTracking !== 9;
    const altScroll = modes.mouseTracking === 0 && modes.alternateScroll &&
      modes.altScreen && !e.shiftKey;
    if (!tracking && !altScroll) return; // native scrolling
    e.preventDefault();
    const g = this.#geometry();
    const unit = e.deltaMode === WheelEvent.DOM_DELTA_LINE
      ? 1
      : e.deltaMode === WheelEvent.DOM_DELTA_PAGE
      ? g.rows
      : g.cellHeight;
    if (altScroll) {
      // As many cursor keys as the wheel would scroll lines.
      this.#wheelY += e.deltaY / unit;
      const lines = Math.trunc(this.#wheelY);
      if (lines === 0) return;
      this.#wheelY -= lines;
      this.#options.send(
        encodeAlternateScroll(
          lines < 0 ? "up" : "down",
          Math.abs(lines),
          modes,
        ),
      );
      return;
    }
    // One report per event (a notch); small trackpad deltas add up to one.
    this.#wheelY += e.deltaY / unit;
    this.#wheelX += e.deltaX / unit;
    const report = this.#position(e, g);
    const fire = (amount: number, neg: WheelDirection, pos: WheelDirection) => {
      const dir = amount < 0 ? neg : pos;
      this.#send({ ...report, action: "wheel", button: 0, wheel: dir }, modes);
    };
    if (Math.abs(this.#wheelY) >= 1) {
      fire(this.#wheelY, "up", "down");
      this.#wheelY = 0;
    }
    if (Math.abs(this.#wheelX) >= 1) {
      fire(this.#wheelX, "left", "right");
      this.#wheelX = 0;
    }
  };

  #onContextMenu = (e: MouseEvent): void => {
    if (this.#tracking(e)) e.preventDefault();
  };

  /** Report a press or release of `button` at the event's position. */
  #report(
    e: MouseEvent,
    action: "press" | "release",
    button: number,
  ): boolean {
    const modes = this.#options.modes();
    const report = this.#position(e, this.#geometry());
    return this.#send({ ...report, action, button }, modes);
  }

  #send(report: MouseReport, modes: InputModes): boolean {
    const data = encodeMouse(report, modes);
    if (data === null) return false;
    this.#lastMotion = modes.mouseEncoding === 1016
      ? `${Math.round(report.x)},${Math.round(report.y)}`
      : `${report.col},${report.row}`;
    this.#options.send(mouseBytes(data, modes.mouseEncoding));
    return true;
  }

  /** The cell and pixel position of `e` on the screen, clamped to it. */
  #position(
    e: MouseEvent,
    g: Geometry,
  ): Omit<MouseReport, "action" | "button"> {
    const x = Math.min(
      Math.max(0, e.clientX - g.left),
      g.cols * g.cellWidth - 1,
    );
    const y = Math.min(
      Math.max(0, e.clientY - g.top),
      g.rows * g.cellHeight - 1,
    );
    return {
      col: Math.min(g.cols - 1, Math.floor(x / g.cellWidth)),
      row: Math.min(g.rows - 1, Math.floor(y / g.cellHeight)),
      x,
      y,
      shift: e.shiftKey,
      alt: e.altKey,
      ctrl: e.ctrlKey,
    };
  }

  /** Where the screen is now (a few layout reads, once per event). */
  #geometry(): Geometry {
    const root = this.#root;
    const { cols, rows } = this.#options.size();
    const px = (name: string, dflt: number) =>
      parseFloat(root.style.getPropertyValue(name)) || dflt;
    const cellWidth = px("--dt-cell-w", 8);
    const cellHeight = px("--dt-cell-h", 16);
    const alt = root.querySelector<HTMLElement>(".dt-alt");
    if (alt !== null && !alt.hidden) {
      const first = alt.firstElementChild;
      const r = (first ?? alt).getBoundingClientRect();
      return { left: r.left, top: r.top, cellWidth, cellHeight, cols, rows };
    }
    const grid = root.querySelector(".dt-viewport > .dt-rows");
    const r = (grid ?? root).getBoundingClientRect();
    // The screen is the last `rows` rows of the normal buffer.
    return {
      left: r.left,
      top: r.bottom - rows * cellHeight,
      cellWidth,
      cellHeight,
      cols,
      rows,
    };
  }

  #startDragListeners(): void {
    const doc = this.#root.ownerDocument;
    doc.addEventListener("mouseup", this.#onUp, true);
    doc.addEventListener("mousemove", this.#onMove, true);
  }

  #stopDragListeners(): void {
    const doc = this.#root.ownerDocument;
    doc.removeEventListener("mouseup", this.#onUp, true);
    doc.removeEventListener("mousemove", this.#onMove, true);
    this.#pressed.clear();
  }
}
