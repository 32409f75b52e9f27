/**
 * Tab focus mode (as VS Code's, Ctrl+M there): while it is on, Tab and
 * Shift+Tab move the keyboard focus out of the terminal to the page's
 * other controls (and back in), instead of going to the program; the
 * key table's `tab-focus-mode` toggles it. The terminal element carries
 * `data-dt-tab-focus` while it is on.
 *
 * @module
 */

/** What the mode switches in one terminal. */
export interface TabFocusTarget {
  root: HTMLElement;
  input: { tabMovesFocus: boolean };
}

/** Set the mode on every terminal of the window; returns what to announce. */
export function setTabFocusMode(
  targets: readonly TabFocusTarget[],
  on: boolean,
): string {
  for (const t of targets) {
    t.input.tabMovesFocus = on;
    if (on) t.root.dataset.dtTabFocus = "";
    else delete t.root.dataset.dtTabFocus;
  }
  return on
    ? "Tab moves the focus out of the terminal"
    : "Tab goes to the program";
}
