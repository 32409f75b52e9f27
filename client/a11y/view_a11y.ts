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
   * is a landmark (main, or a region: its rows stay readable in a screen
   * reader's browse mode, which `role="application"` would turn off); the
   * keys go to its input, a textbox, which puts the reader in focus mode.
   */
  constructor(root: HTMLElement, term: AnnouncedTerminal) {
    // The first terminal is the page's main landmark, the others regions;
    // the page's heading (for screen readers) names the program.
    const doc = root.ownerDocument;
    const main = doc.querySelector('[role="main"], main');
    root.setAttribute(
      "role",
      main === null || main === root ? "main" : "region",
    );
    root.setAttribute("aria-roledescription", "terminal");
    if (
      root.getAttribute("role") === "main" && doc.querySelector("h1") === null
    ) {
      // Inside the landmark (axe: all content in landmarks); not copied
      // with the rows (it is outside the viewport).
      const h1 = doc.createElement("h1");
      h1.className = "dt-sr-only";
      h1.textContent = "domterm";
      root.prepend(h1);
    }
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

  /**
   * A program asked for a desktop notification (OSC 9, 777, 99): said in
   * order with the output too, since a notification may not be shown (no
   * permission, the window has the focus) or not be read.
   */
  notified(title: string, body: string): void {
    const text = [title, body].filter((t) => t.trim() !== "").join(": ");
    if (text !== "") this.announcer.note(`Notification: ${text}`);
  }

  /** Say `text` now (a key's answer: the command jumped to, its output). */
  say(text: string): void {
    this.live.announce(text);
  }
}
