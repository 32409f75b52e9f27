/**
 * The visual bell: BEL makes the terminal flash briefly instead of beeping.
 *
 * An overlay `div.dt-bell` inside the terminal element gets the class
 * `dt-ring` for one run of its CSS animation (see domterm.css). A bell that
 * arrives while the flash is still running does not restart it, so a flood
 * of BELs (`cat` of a binary file) gives one steady flash, not a strobe.
 *
 * @module
 */

/** Longest time a flash may take before the class is removed anyway. */
const MAX_FLASH_MS = 1000;

/** Flashes a terminal element on BEL. */
export class VisualBell {
  readonly element: HTMLElement;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Bells rung since creation (for tests and the console). */
  count = 0;

  /** Add the overlay to `root` (the terminal element). */
  constructor(root: HTMLElement) {
    const el = root.ownerDocument.createElement("div");
    el.className = "dt-bell";
    el.setAttribute("aria-hidden", "true");
    el.addEventListener("animationend", this.#end);
    root.appendChild(el);
    this.element = el;
  }

  /** Flash once (unless a flash is already showing). */
  ring(): void {
    this.count++;
    if (this.element.classList.contains("dt-ring")) return;
    this.element.classList.add("dt-ring");
    // animationend never comes when animations are off (reduced motion
    // with no animation, a hidden tab): a timer takes the class off then.
    this.#timer = setTimeout(this.#end, MAX_FLASH_MS);
  }

  #end = () => {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.element.classList.remove("dt-ring");
  };
}
