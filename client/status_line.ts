/**
 * A terminal's status banner: the connection lost, the process exited, a
 * session that cannot be shown (`.dt-status` in static/ui.css).
 *
 * @module
 */

/** Shows and hides one status element. */
export class StatusLine {
  readonly el: HTMLElement;

  constructor(el: HTMLElement) {
    this.el = el;
  }

  /** Show `text` (red for an error). */
  show(text: string, isError = false): void {
    this.el.textContent = text;
    this.el.classList.toggle("dt-error", isError);
    this.el.hidden = false;
  }

  hide(): void {
    this.el.hidden = true;
  }

  /** The text shown, or "" while hidden. */
  get text(): string {
    return this.el.hidden ? "" : this.el.textContent ?? "";
  }
}
