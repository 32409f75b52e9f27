/**
 * Font zoom: Ctrl+= (or Ctrl++) makes the text bigger, Ctrl+- smaller,
 * Ctrl+0 restores the stylesheet's size. The size goes into the custom
 * property `--dt-font-size` on the terminal element; the caller re-measures
 * the cell, refits the grid and tells the server the new size.
 *
 * Ctrl+Shift+- (Ctrl+_, the undo key of emacs and readline) is not taken:
 * it still reaches the program.
 *
 * @module
 */

/** Smallest and largest font size zoom allows, in CSS pixels. */
export const MIN_FONT_PX = 6;
export const MAX_FONT_PX = 72;
/** Each step multiplies or divides the size by this. */
const STEP = 1.1;

/** What a zoom key does. */
export type ZoomAction = "in" | "out" | "reset";

/** The zoom action of a key event, or null. */
export function zoomActionOf(e: KeyboardEvent): ZoomAction | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || (e.ctrlKey && e.metaKey)) {
    return null;
  }
  switch (e.key) {
    case "=":
    case "+":
      return "in";
    case "-":
      return e.shiftKey ? null : "out";
    case "0":
      return e.shiftKey ? null : "reset";
    default:
      return null;
  }
}

/** Keeps the zoom level of one terminal element. */
export class Zoom {
  #root: HTMLElement;
  #changed: () => void;
  /** The size set by the stylesheet, read at the first zoom. */
  #base = 0;
  #size = 0;

  /**
   * @param root the terminal element (keys are caught on it, in the
   *   capture phase)
   * @param changed called after the font size changed (refit the grid)
   */
  constructor(root: HTMLElement, changed: () => void) {
    this.#root = root;
    this.#changed = changed;
    root.addEventListener("keydown", this.#onKeyDown, { capture: true });
  }

  /** The current font size in CSS pixels. */
  get fontSize(): number {
    return this.#size || this.#baseSize();
  }

  #baseSize(): number {
    if (this.#base === 0) {
      this.#base = parseFloat(getComputedStyle(this.#root).fontSize) || 14;
    }
    return this.#base;
  }

  /** Apply `action`. Returns the new font size in CSS pixels. */
  apply(action: ZoomAction): number {
    const base = this.#baseSize();
    const now = this.fontSize;
    let next = action === "in"
      ? now * STEP
      : action === "out"
      ? now / STEP
      : base;
    // Whole pixels near the base size come back exactly to it.
    if (Math.abs(next - base) < 0.01) next = base;
    next =
      Math.round(Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, next)) * 100) /
      100;
    if (next === now) return now;
    this.#size = next === base ? 0 : next;
    if (this.#size === 0) this.#root.style.removeProperty("--dt-font-size");
    else this.#root.style.setProperty("--dt-font-size", `${next}px`);
    this.#changed();
    return next;
  }

  #onKeyDown = (e: KeyboardEvent) => {
    if (e.isComposing) return;
    const action = zoomActionOf(e);
    if (action === null) return;
    e.preventDefault();
    e.stopPropagation();
    this.apply(action);
  };
}
