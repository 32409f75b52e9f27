/**
 * Moving through the history: Shift+PgUp / Shift+PgDn scroll a page,
 * Shift+Home / Shift+End go to the top / bottom (the key table's
 * `scroll-*` actions call {@link ScrollControls.scroll}), and a "jump to bottom"
 * button shows while the view is scrolled away from new output. The wheel
 * needs nothing here: the viewport is a native scroller (mouse reporting,
 * when a program turns it on, is client/mouse.ts's business).
 *
 * While the alternate screen is shown there is no history to move in, so
 * these keys go to the program (less, vim) as usual.
 *
 * @module
 */
import type { Renderer } from "./renderer.ts";

/** What a history key does. */
export type ScrollAction = "pageUp" | "pageDown" | "top" | "bottom";

/** History keys and the jump-to-bottom button of one terminal. */
export class ScrollControls {
  /** The jump-to-bottom button (hidden while following output). */
  readonly button: HTMLButtonElement;
  #renderer: Renderer;
  #afterJump: () => void;

  /**
   * @param root the terminal element (the button goes into it)
   * @param renderer the renderer that owns the viewport
   * @param afterJump called after the button was used (give focus back to
   *   the terminal's input)
   */
  constructor(
    root: HTMLElement,
    renderer: Renderer,
    afterJump: () => void = () => {},
  ) {
    this.#renderer = renderer;
    this.#afterJump = afterJump;
    const b = root.ownerDocument.createElement("button");
    b.type = "button";
    b.className = "dt-jump";
    b.hidden = true;
    b.title = "Jump to the bottom (Shift+End)";
    b.setAttribute("aria-label", "Jump to the bottom");
    b.setAttribute("aria-keyshortcuts", "Shift+End");
    b.textContent = "\u2193";
    b.addEventListener("click", this.#onClick);
    // Mouse clicks must not leave focus on the button (keys go to the shell).
    b.addEventListener("mousedown", (e) => e.preventDefault());
    root.appendChild(b);
    this.button = b;
    renderer.onScrolledBack = (back) => {
      b.hidden = !back;
    };
  }

  #onClick = () => {
    this.#renderer.scrollToBottom();
    this.#afterJump();
  };

  /**
   * A history key's action (the key table's `scroll-*`, client/key_table.ts);
   * false while the alternate screen is shown: the key is the program's.
   */
  scroll(action: ScrollAction): boolean {
    if (this.#renderer.altScreenShown) return false;
    const r = this.#renderer;
    switch (action) {
      case "pageUp":
        r.scrollPages(-1);
        break;
      case "pageDown":
        r.scrollPages(1);
        break;
      case "top":
        r.scrollToTop();
        break;
      case "bottom":
        r.scrollToBottom();
        break;
    }
    return true;
  }
}
