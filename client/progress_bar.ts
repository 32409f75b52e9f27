/**
 * The OSC 9 ; 4 progress bar: a slim bar along the top edge of the
 * terminal (`.dt-progress`, styled in static/ui.css), and the app's badge
 * where the browser has one (`navigator.setAppBadge`, feature-detected).
 *
 * States, as sent: 0 remove, 1 normal, 2 error, 3 indeterminate, 4 paused.
 * The element's `data-state` is `normal`, `error`, `indeterminate` or
 * `paused`; it is hidden for 0.
 *
 * @module
 */

/** State names by OSC 9 ; 4 state number (0: none). */
const STATES = ["", "normal", "error", "indeterminate", "paused"] as const;

/** The progress shown now. */
export interface ProgressState {
  /** 0 none, 1 normal, 2 error, 3 indeterminate, 4 paused. */
  state: 0 | 1 | 2 | 3 | 4;
  /** 0-100 (meaningless for indeterminate). */
  percent: number;
}

/** The part of `navigator` for the badge (absent in most browsers). */
interface BadgeNavigator {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

/** Draws the progress and keeps the badge in step. */
export class ProgressBar {
  readonly #el: HTMLElement;
  readonly #fill: HTMLElement;
  #current: ProgressState = { state: 0, percent: 0 };
  /** Called after each change (the window title shows the percentage). */
  onChange: (p: ProgressState) => void = () => {};

  constructor(root: HTMLElement) {
    this.#el = root.ownerDocument.createElement("div");
    this.#el.className = "dt-progress";
    this.#el.hidden = true;
    this.#el.setAttribute("role", "progressbar");
    this.#el.setAttribute("aria-label", "Progress");
    this.#el.setAttribute("aria-valuemin", "0");
    this.#el.setAttribute("aria-valuemax", "100");
    this.#fill = root.ownerDocument.createElement("div");
    this.#fill.className = "dt-progress-fill";
    this.#el.append(this.#fill);
    root.append(this.#el);
  }

  /** Draws the bar in `root` from now on (the window's focused pane). */
  moveTo(root: HTMLElement): void {
    if (this.#el.parentElement !== root) root.append(this.#el);
  }

  /** What is shown now. */
  get current(): ProgressState {
    return { ...this.#current };
  }

  /** Apply an OSC 9 ; 4 event. */
  set(state: 0 | 1 | 2 | 3 | 4, percent: number): void {
    const p = Math.max(0, Math.min(100, Math.round(percent)));
    const next: ProgressState = {
      state,
      percent: state === 0 || state === 3 ? 0 : p,
    };
    this.#current = next;
    this.#el.hidden = state === 0;
    this.#el.dataset.state = STATES[state];
    this.#fill.style.width = state === 3 ? "" : `${next.percent}%`;
    if (state === 0 || state === 3) {
      this.#el.removeAttribute("aria-valuenow");
    } else this.#el.setAttribute("aria-valuenow", String(next.percent));
    this.#badge(next);
    this.onChange(this.current);
  }

  #badge(p: ProgressState): void {
    const nav = navigator as BadgeNavigator;
    if (!nav.setAppBadge || !nav.clearAppBadge) return;
    const done = p.state === 0
      ? nav.clearAppBadge()
      : p.state === 3
      ? nav.setAppBadge() // a plain dot: busy
      : nav.setAppBadge(p.percent);
    done.catch(() => {}); // not installed as an app: no badge
  }
}
