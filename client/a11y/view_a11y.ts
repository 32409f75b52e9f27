/**
 * One terminal's accessibility: its live region, the announcer of its
 * output and the echo filter between them (this folder's other files),
 * behind the few calls the terminal view makes.
 *
 * @module
 */
import { EchoFilter } from "./echo_filter.ts";
import { LiveRegion } from "./live_region.ts";
import { type AnnouncedTerminal, OutputAnnouncer } from "./output_announcer.ts";

/** The accessibility parts of one terminal view. */
export class ViewA11y {
  readonly live: LiveRegion;
  readonly announcer: OutputAnnouncer;
  #echo = new EchoFilter();

  /**
   * The live region goes after `root` (the terminal element). The terminal
   * is a region (a landmark: its rows stay readable in a screen reader's
   * browse mode, which `role="application"` would turn off); the keys go to
   * its input, a textbox, which puts the reader in focus mode.
   */
  constructor(root: HTMLElement, term: AnnouncedTerminal) {
    root.setAttribute("role", "region");
    root.setAttribute("aria-roledescription", "terminal");
    if (!root.hasAttribute("aria-label")) {
      root.setAttribute("aria-label", "Terminal");
    }
    // The alternate screen (shown instead of the history while vim, less
    // or htop run): its rows are read like the others.
    const alt = root.querySelector(".dt-alt");
    alt?.setAttribute("role", "region");
    alt?.setAttribute("aria-label", "Full-screen program");
    this.live = new LiveRegion(root);
    this.announcer = new OutputAnnouncer(
      term,
      (t) => this.live.announce(t),
      this.#echo,
    );
  }

  /** Keys sent to the program (their echo is not announced again). */
  typed(data: string): void {
    this.#echo.typed(data, this.announcer.cursorPlace(), performance.now());
  }

  /** A frame was drawn: new output may be waiting to be announced. */
  frame(): void {
    this.announcer.frame();
  }

  /** A snapshot was loaded: what it holds is not new output. */
  loaded(): void {
    this.announcer.reset();
  }

  /** A command ended (shell integration's mark); a failure is announced. */
  commandEnded(exit: number | null): void {
    if (exit !== null && exit !== 0) {
      this.announcer.note(`Command failed: exit status ${exit}`);
    }
  }

  /** Say `text` now (a key's answer: the command jumped to, its output). */
  say(text: string): void {
    this.live.announce(text);
  }
}
