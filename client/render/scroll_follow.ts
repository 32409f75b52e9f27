/**
 * Scroll-follow: whether the viewport follows new output (stays at the
 * bottom) or the user scrolled back into the history, and telling the page
 * when that changes (the jump-to-bottom control).
 *
 * @module
 */

/** The follow state of one scrolling viewport. */
export class ScrollFollow {
  /** Follow new output (the viewport is scrolled to the bottom). */
  follow = true;
  /** Scroll to the bottom at the next frame even if no row changed. */
  needScroll = false;
  /** Whether the page was last told that the view is scrolled back. */
  #scrolledBack = false;

  /**
   * `cellHeight` is the measured cell height (undefined before it is
   * measured); `report` is told when the view leaves the bottom (true) or
   * comes back to it (false).
   */
  constructor(
    readonly viewport: HTMLElement,
    readonly cellHeight: () => number | undefined,
    readonly report: (scrolledBack: boolean) => void,
  ) {}

  /** Whether the viewport is at the bottom (within half a cell). Reads layout. */
  atBottom(): boolean {
    const vp = this.viewport;
    const slack = Math.max(2, (this.cellHeight() ?? 16) / 2);
    return vp.scrollHeight - vp.scrollTop - vp.clientHeight <= slack;
  }

  /**
   * Tell the page whether the view is scrolled back, if that changed
   * (never while the alternate screen, which has no history, is shown).
   */
  reportScroll(altShown: boolean): void {
    const back = !this.follow && !altShown;
    if (back === this.#scrolledBack) return;
    this.#scrolledBack = back;
    this.report(back);
  }

  /** Scroll to `top` (clamped); following is decided now. */
  scrollTo(top: number, altShown: boolean): void {
    const vp = this.viewport;
    vp.scrollTop = Math.max(
      0,
      Math.min(top, vp.scrollHeight - vp.clientHeight),
    );
    // The scroll event comes later; the follow state must be right now.
    this.follow = this.atBottom();
    this.reportScroll(altShown);
  }
}
