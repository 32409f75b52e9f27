/**
 * The notice of what is wrong in the settings file: a red banner at the top
 * of the window, one problem a line (`FILE:LINE: ...`), until clicked or
 * for a while; the values in force stay. Also in the browser console.
 *
 * @module
 */

/** How long the notice stays. */
export const NOTICE_MS = 15_000;

/** The settings notice of one window. */
export class SettingsNotice {
  #el: HTMLElement;
  #shown = "";
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(doc: Document) {
    const el = doc.createElement("div");
    el.className = "dt-status dt-error dt-settings-notice";
    el.setAttribute("role", "alert");
    el.hidden = true;
    el.title = "Click to close";
    el.addEventListener("click", () => el.hidden = true);
    doc.body.append(el);
    this.#el = el;
  }

  /** Show these problems (none: hide the notice). The same problems again change nothing. */
  show(problems: string[]): void {
    const text = problems.join("\n");
    if (text === this.#shown) return;
    this.#shown = text;
    clearTimeout(this.#timer);
    this.#el.textContent = text;
    this.#el.hidden = text === "";
    if (text === "") return;
    for (const p of problems) console.warn(`domterm: ${p}`);
    this.#timer = setTimeout(() => this.#el.hidden = true, NOTICE_MS);
  }
}
