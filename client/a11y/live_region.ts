/**
 * The live region that assistive technology reads new output and notices
 * from: an off-screen `role="log"` (polite) beside the terminal element.
 * Each {@link LiveRegion.announce} adds one child (what a screen reader
 * speaks); older children are dropped, so the region stays small however
 * long the session runs. The output announcer (output_announcer.ts)
 * decides what and how often; this only speaks.
 *
 * @module
 */

/** Children kept in the region (older ones are removed). */
const KEEP = 20;
/** Longest text one announcement carries (longer is cut, with "…"). */
export const MAX_ANNOUNCEMENT = 4000;

/** One polite live region. */
export class LiveRegion {
  readonly el: HTMLElement;
  /** Announcements made (tests and benchmarks read it). */
  count = 0;

  /** Makes the region, after `anchor` (outside the terminal's own element). */
  constructor(anchor: HTMLElement, label = "Terminal output") {
    const doc = anchor.ownerDocument;
    const el = doc.createElement("div");
    el.className = "dt-sr-only dt-live";
    el.setAttribute("role", "log");
    el.setAttribute("aria-live", "polite");
    el.setAttribute("aria-relevant", "additions");
    el.setAttribute("aria-label", label);
    anchor.after(el);
    this.el = el;
  }

  /** Speak `text` (nothing when it is blank). */
  announce(text: string): void {
    let t = text.replace(/[ \t]+\n/g, "\n").replace(/^\s*\n/, "")
      .replace(/\s+$/, "");
    if (t.trim() === "") return;
    if (t.length > MAX_ANNOUNCEMENT) {
      t = t.slice(0, MAX_ANNOUNCEMENT) + "\u2026";
    }
    const doc = this.el.ownerDocument;
    const p = doc.createElement("div");
    p.textContent = t;
    this.el.append(p);
    this.count++;
    while (this.el.childElementCount > KEEP) {
      this.el.firstElementChild!.remove();
    }
  }
}
