/**
 * Font zoom: Ctrl+Shift+= (Ctrl++) makes the text bigger, Ctrl+Shift+-
 * smaller, Ctrl+Shift+0 restores the stylesheet's size; Cmd+= / Cmd+- /
 * Cmd+0 on macOS (Cmd or Super, without Ctrl, with or without Shift). The
 * keys are the physical =, - and 0 keys (and the keypad's +, - and 0), or
 * keys that type those characters. The size goes into the custom property
 * `--dt-font-size` on the terminal element; the caller re-measures the
 * cell, refits the grid and tells the server the new size.
 *
 * Plain Ctrl+=, Ctrl+- and Ctrl+0 are the program's (emacs binds them):
 * they are encoded as any key (`core/keys.ts`: with modifyOtherKeys or the
 * kitty protocol a program can tell them apart; the legacy encoding has
 * no bytes for them), and the browser's own page zoom on them is
 * prevented. Ctrl+Shift+- is also Ctrl+_ on US layouts: zoom takes it; the
 * same byte (0x1f, the undo of emacs and readline) is Ctrl+/ or Ctrl+7.
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

/** What the =, - or 0 key of `e` would do as a zoom key, ignoring modifiers. */
function zoomKey(e: KeyboardEvent): ZoomAction | null {
  switch (e.code) {
    case "Equal":
    case "NumpadAdd":
      return "in";
    case "Minus":
    case "NumpadSubtract":
      return "out";
    case "Digit0":
    case "Numpad0":
      return "reset";
  }
  switch (e.key) {
    case "=":
    case "+":
      return "in";
    case "-":
    case "_":
      return "out";
    case "0":
    case ")":
      return "reset";
    default:
      return null;
  }
}

/**
 * The zoom action of a key event, or null: Ctrl+Shift with the =, - or 0
 * key, or Cmd/Super (without Ctrl) with one of them.
 */
export function zoomActionOf(e: KeyboardEvent): ZoomAction | null {
  if (e.altKey || (e.ctrlKey && e.metaKey)) return null;
  if (!(e.metaKey || (e.ctrlKey && e.shiftKey))) return null;
  return zoomKey(e);
}

/**
 * True for a key the browser would take as its own page zoom but that is
 * the program's here: plain Ctrl with the =, -, + or 0 key.
 */
export function isProgramZoomKey(e: KeyboardEvent): boolean {
  return e.ctrlKey && !e.shiftKey && !e.altKey && !e.metaKey &&
    zoomKey(e) !== null;
}

/** Keeps the zoom level of one terminal element. */
export class Zoom {
  #root: HTMLElement;
  #changed: () => void;
  /** The size set by the stylesheet, read at the first zoom. */
  #base = 0;
  #size = 0;
  /**
   * The factor a program's request for more columns than fit (DECCOLM's
   * 132) shrinks the font by, over the user's zoom; 1: none.
   */
  #scale = 1;

  /**
   * @param root the terminal element (the zoom keys are the key table's,
   *   client/key_table.ts, which calls {@link apply})
   * @param changed called after the font size changed (refit the grid)
   */
  constructor(root: HTMLElement, changed: () => void) {
    this.#root = root;
    this.#changed = changed;
    // After the terminal's own key handling (the event bubbles up to the
    // window): Ctrl+= and the like went to the program, or have no bytes;
    // either way the browser must not zoom the page on them.
    root.ownerDocument.defaultView?.addEventListener(
      "keydown",
      this.#onProgramKey,
    );
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

  /**
   * The stylesheet's size changed (the `font.size` setting): measure it
   * again at the next zoom, so Reset zoom goes back to the new size.
   */
  baseChanged(): void {
    this.#root.style.removeProperty("--dt-font-size");
    this.#base = 0;
    if (this.#size !== 0 || this.#scale !== 1) this.#baseSize();
    this.#write();
  }

  /** The program's scale (see `#scale`). */
  get scale(): number {
    return this.#scale;
  }

  /**
   * Shrink the font by `scale` (1: back to the user's size) for a
   * program that asked for more columns than fit. The caller refits.
   * Returns whether the font changed.
   */
  setScale(scale: number): boolean {
    if (scale === this.#scale) return false;
    this.#scale = scale;
    this.#write();
    return true;
  }

  /** The font size into `--dt-font-size` (none: the stylesheet's). */
  #write(): void {
    if (this.#size === 0 && this.#scale === 1) {
      this.#root.style.removeProperty("--dt-font-size");
      return;
    }
    const px = Math.max(MIN_FONT_PX, this.fontSize * this.#scale);
    this.#root.style.setProperty(
      "--dt-font-size",
      `${Math.round(px * 100) / 100}px`,
    );
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
    this.#write();
    this.#changed();
    return next;
  }

  #onProgramKey = (e: KeyboardEvent) => {
    if (
      !e.defaultPrevented && e.target instanceof Node &&
      this.#root.contains(e.target) && isProgramZoomKey(e)
    ) e.preventDefault();
  };
}
