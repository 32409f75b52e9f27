/**
 * Helpers that make an element a labelled, keyboard-operable control, for
 * the page's own UI (bars, badges, and later the tab bar and splitters of
 * client/layout/): a native `<button>` where one fits ({@link
 * labelledButton}), else any element given a role, a name, a place in the
 * Tab order and Enter / Space ({@link makeOperable}). Focus is shown by
 * the `:focus-visible` rules of static/ui.css.
 *
 * @module
 */

/** How a control is named and run. */
export interface ControlSpec {
  /** Its accessible name (aria-label), also the tooltip unless `title` is given. */
  label: string;
  /** Tooltip (default: the label, with the shortcut). */
  title?: string;
  /** Its key, as `aria-keyshortcuts` writes it ("Control+Shift+F"). */
  shortcut?: string;
  /** What activating it does (a click, Enter, Space). */
  run?: (e: Event) => void;
}

function name(el: HTMLElement, spec: ControlSpec): void {
  el.setAttribute("aria-label", spec.label);
  el.title = spec.title ??
    (spec.shortcut ? `${spec.label} (${spec.shortcut})` : spec.label);
  if (spec.shortcut) el.setAttribute("aria-keyshortcuts", spec.shortcut);
}

/** A `<button type="button">` showing `text`, named and run by `spec`. */
export function labelledButton(
  doc: Document,
  text: string,
  spec: ControlSpec,
): HTMLButtonElement {
  const b = doc.createElement("button");
  b.type = "button";
  b.textContent = text;
  name(b, spec);
  if (spec.run) b.addEventListener("click", spec.run);
  return b;
}

/**
 * Make `el` a control with `role` (default "button"): named, in the Tab
 * order (`tabIndex`, default 0), run by a click, Enter or Space. For
 * elements that cannot be a `<button>` (a tab of a tab bar: role "tab";
 * a splitter: role "separator" with its own arrow keys).
 */
export function makeOperable(
  el: HTMLElement,
  spec: ControlSpec & { role?: string; tabIndex?: number },
): HTMLElement {
  el.setAttribute("role", spec.role ?? "button");
  el.tabIndex = spec.tabIndex ?? 0;
  name(el, spec);
  const run = spec.run;
  if (run) {
    el.addEventListener("click", run);
    el.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      if (e.ctrlKey || e.altKey || e.metaKey) return;
      e.preventDefault();
      e.stopPropagation();
      run(e);
    });
  }
  return el;
}
