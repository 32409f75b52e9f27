/**
 * The pager (DomTerm's "view mode"): stops output so the user can read it.
 *
 * - The automatic pager (off by default; the menu's "Automatic pager",
 *   `CSI 92 ; 1 u` / `CSI 92 ; 2 u`, or {@link Pager.setAutomatic}) stops
 *   output once a screenful has arrived since the user's last key or
 *   scroll.
 * - Ctrl+Shift+M stops output at any time (and continues it again).
 *
 * Stopping is real back-pressure: the connection (client/connection.ts)
 * asks {@link Pager.admit} how much of each piece of output the emulator
 * may take, hands on exactly that much (a chunk is split at the byte where
 * the screenful completes, counted by core/pager_lines.ts), then holds the
 * rest unprocessed and unacknowledged. The server stops reading the PTY
 * once the window is HIGH_WATER behind, and the program blocks in write.
 * Nothing is dropped or reordered: held output is handed on, in order,
 * when the user continues.
 *
 * While output is held a bar at the bottom right says so and which keys
 * continue; the arrows, PgUp/PgDn and Home/End move through the history
 * and with Shift extend a selection. See docs/pager.md.
 *
 * @module
 */
import type { TerminalView } from "../core/terminal_view.ts";
import { LineCounter } from "../core/pager_lines.ts";
import { terminalSelection } from "./selection.ts";

/** What the pager needs from the page. */
export interface PagerHost {
  term: TerminalView;
  /** Stop handing output on (Connection.hold). */
  hold(): void;
  /** Hand held output on again (Connection.release). */
  release(): void;
  /** Input for the program (Ctrl-C). */
  send(data: string): void;
  /** Scroll the history by `pages` screens (fractions for lines). */
  scrollPages(pages: number): void;
  scrollToTop(): void;
  scrollToBottom(): void;
  /** The row element of line `index` of the buffer shown, if drawn. */
  shownRow(index: number): HTMLElement | undefined;
  /** Give the keyboard back to the terminal (keeping a selection). */
  focusTerminal(): void;
  /** The automatic pager was switched (the menu's check mark, settings). */
  onAutomaticChange?(on: boolean): void;
}

/** How the user continues held output. */
export type PagerContinue = "page" | "line" | "off" | "free" | "interrupt";

/** The keys that continue, as the bar lists them. */
const KEYS: [string, string][] = [
  ["Space", "next page"],
  ["Enter", "next line"],
  ["a", "pager off"],
  ["Esc", "continue"],
  ["Ctrl+C", "interrupt"],
];

/** The pager of one window. */
export class Pager {
  #host: PagerHost;
  #root: HTMLElement;
  #bar: HTMLElement;
  #title: HTMLElement;
  #counter: LineCounter;
  #pagerOn = new PagerOnFinder();
  #automatic = false;
  /** Output is stopped: the bar shows and admit takes nothing. */
  #stopped = false;
  /**
   * Lines output may still add before it stops; Infinity while not paging
   * (automatic pager off, or "continue" until the user's next key).
   */
  #budget = Infinity;

  /** Builds the (hidden) bar and listens for keys on `root`'s document. */
  constructor(root: HTMLElement, host: PagerHost) {
    this.#root = root;
    this.#host = host;
    this.#counter = new LineCounter(host.term.cols);
    const doc = root.ownerDocument;
    const bar = doc.createElement("div");
    bar.className = "dt-pager";
    bar.setAttribute("role", "status");
    bar.setAttribute("aria-live", "polite");
    bar.hidden = true;
    const title = doc.createElement("span");
    title.className = "dt-pager-title";
    bar.append(title);
    for (const [key, what] of KEYS) {
      const item = doc.createElement("span");
      item.className = "dt-pager-key";
      const kbd = doc.createElement("kbd");
      kbd.textContent = key;
      item.append(kbd, ` ${what}`);
      bar.append(item);
    }
    doc.body.append(bar);
    this.#bar = bar;
    this.#title = title;
    // On the window, capturing: before the terminal's own key handlers
    // (input, Shift+PgUp scrolling) and the window's key map (on the
    // document, installed before any terminal: Shift+Home, its scroll-top,
    // took the key from a paused pager's selection), which must not see
    // these keys.
    const win = doc.defaultView;
    if (win) win.addEventListener("keydown", this.#onKeyDown, true);
    else doc.addEventListener("keydown", this.#onKeyDown, true);
    root.addEventListener("wheel", () => this.noteUser(), { passive: true });
  }

  /** True when the automatic pager is on. */
  get automatic(): boolean {
    return this.#automatic;
  }

  /** True while output is stopped (the bar shows). */
  get paused(): boolean {
    return this.#stopped;
  }

  /**
   * Turn the automatic pager on or off (the menu, `CSI 92 ; Ps u`, and the
   * settings call this). Turning it on starts counting a screenful from
   * now; turning it off while output is stopped continues it.
   */
  setAutomatic(on: boolean): void {
    if (on === this.#automatic) return;
    this.#automatic = on;
    if (on) {
      // It did not follow the output while off: start at a line's start.
      this.#counter.reset();
      if (!this.#stopped) this.#budget = this.#page();
    } else if (this.#stopped) this.continue("free");
    else this.#budget = Infinity;
    this.#host.onAutomaticChange?.(on);
  }

  /**
   * The user typed or scrolled: a new screenful may come before the
   * automatic pager stops output again.
   */
  noteUser(): void {
    if (this.#stopped) return;
    this.#budget = this.#automatic ? this.#page() : Infinity;
  }

  /** A snapshot replaced the model: count from a clean state. */
  reset(): void {
    this.#counter.reset();
    this.noteUser();
  }

  /**
   * How many bytes of `data`, the next output, the emulator may take now
   * (ConnectionHandlers.admit). Fewer than all of it stops output there.
   */
  admit(data: Uint8Array): number {
    if (this.#stopped) return 0;
    const term = this.#host.term;
    this.#counter.cols = term.cols;
    // Full-screen programs (the alternate screen) draw, they do not scroll.
    const budget = term.buffer.isAlt ? Infinity : this.#budget;
    if (budget === Infinity) {
      // `CSI 92 ; 1 u` may turn the pager on in the middle of this piece:
      // the emulator takes up to it, and what follows is counted.
      const on = this.#pagerOn.find(data);
      const part = on < 0 ? data : data.subarray(0, on);
      // With the automatic pager on, the counter follows columns and escape
      // sequences for the next count; off, it is spared (see setAutomatic).
      if (this.#automatic) this.#counter.take(part, Infinity);
      return part.length;
    }
    this.#pagerOn.reset();
    const { bytes, lines } = this.#counter.take(data, budget);
    this.#budget -= lines;
    if (bytes < data.length) this.#stop("More output");
    return bytes;
  }

  /** Stop output now (Ctrl+Shift+M), or continue it when stopped. */
  toggle(): void {
    if (this.#stopped) this.continue("free");
    else this.#stop("Output paused");
  }

  /**
   * Continue held output: one more page, one more line, with the automatic
   * pager off, freely until the user's next key, or after sending the
   * program an interrupt (Ctrl-C), also freely so its prompt comes back.
   */
  continue(how: PagerContinue): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#bar.hidden = true;
    this.#root.classList.remove("dt-pager-paused");
    switch (how) {
      case "page":
        this.#budget = this.#page();
        break;
      case "line":
        this.#budget = 1;
        break;
      case "off":
        this.#budget = Infinity;
        this.setAutomatic(false);
        break;
      case "interrupt":
        this.#host.send("\x03");
        this.#budget = Infinity;
        break;
      case "free":
        this.#budget = Infinity;
        break;
    }
    this.#host.scrollToBottom();
    this.#host.focusTerminal();
    this.#host.release();
  }

  /** Lines in a page: a screenful, keeping one line of what was shown. */
  #page(): number {
    return Math.max(1, this.#host.term.rows - 1);
  }

  #stop(title: string): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#host.hold();
    this.#title.textContent = title;
    this.#bar.hidden = false;
    // Room for the bar below the last row (static/ui.css), and the view
    // scrolled down over it when it followed output.
    const vp = this.#root.querySelector<HTMLElement>(".dt-viewport");
    const follow = vp !== null &&
      vp.scrollHeight - vp.clientHeight - vp.scrollTop < 2;
    this.#root.style.setProperty(
      "--dt-pager-room",
      `${Math.ceil(this.#bar.getBoundingClientRect().height) + 12}px`,
    );
    this.#root.classList.add("dt-pager-paused");
    if (vp && follow) vp.scrollTop = vp.scrollHeight;
  }

  #onKeyDown = (e: KeyboardEvent): void => {
    if (!this.#stopped || e.isComposing) return;
    const target = e.target as Node | null;
    if (target && !this.#root.contains(target)) return;
    // The window's own shortcuts (Ctrl+Shift+…, Ctrl+Shift+M included) work.
    if (e.ctrlKey && e.shiftKey) return;
    const how = continueOf(e);
    if (how !== null) this.continue(how);
    else if (!this.#navigate(e)) {
      // Only the keys above do something while output is held; a
      // modifier alone is no reason to say so.
      if (["Shift", "Control", "Alt", "Meta"].includes(e.key)) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "c") return;
      this.#bar.classList.remove("dt-pager-flash");
      void this.#bar.offsetWidth; // restart the animation
      this.#bar.classList.add("dt-pager-flash");
    }
    e.preventDefault();
    e.stopImmediatePropagation();
  };

  /** Arrows, PgUp/PgDn, Home/End: scroll, or with Shift extend a selection. */
  #navigate(e: KeyboardEvent): boolean {
    if (e.ctrlKey || e.altKey || e.metaKey) return false;
    const rows = this.#host.term.rows;
    const move: Record<string, [number, Granularity]> = {
      ArrowUp: [-1, "line"],
      ArrowDown: [1, "line"],
      ArrowLeft: [-1, "character"],
      ArrowRight: [1, "character"],
      PageUp: [-(rows - 1), "line"],
      PageDown: [rows - 1, "line"],
      Home: [-1, "lineboundary"],
      End: [1, "lineboundary"],
    };
    const m = move[e.key];
    if (m === undefined) return false;
    const [n, unit] = m;
    if (e.shiftKey) {
      this.#extend(n, unit);
      return true;
    }
    const h = this.#host;
    if (e.key === "Home") h.scrollToTop();
    else if (e.key === "End") h.scrollToBottom();
    else if (unit === "line") h.scrollPages(n / rows);
    return true;
  }

  /** Extend the selection (from the cursor if there is none) by `n` units. */
  #extend(n: number, unit: Granularity): void {
    const sel = this.#root.ownerDocument.getSelection();
    if (sel === null) return;
    if (terminalSelection(this.#root) === null) {
      const term = this.#host.term;
      const row = this.#host.shownRow(
        term.buffer.length - term.rows + term.cursorY,
      );
      if (!row) return;
      // The terminal element keeps the selection (the textarea would not).
      this.#root.focus({ preventScroll: true });
      const range = this.#root.ownerDocument.createRange();
      range.selectNodeContents(row);
      range.collapse(false);
      sel.removeAllRanges();
      sel.addRange(range);
    }
    const dir = n < 0 ? "backward" : "forward";
    for (let i = 0; i < Math.abs(n); i++) sel.modify("extend", dir, unit);
    const node = sel.focusNode;
    const el = node instanceof Element ? node : node?.parentElement;
    el?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

const PAGER_ON = [0x1b, 0x5b, 0x39, 0x32, 0x3b, 0x31, 0x75]; // ESC [ 9 2 ; 1 u
/** How far the scan may step past each byte (Horspool's bad-character table). */
const PAGER_ON_SHIFT = (() => {
  const last = PAGER_ON.length - 1;
  const t = new Uint8Array(256).fill(PAGER_ON.length);
  for (let k = 0; k < last; k++) t[PAGER_ON[k]] = last - k;
  return t;
})();

/**
 * Finds `CSI 92 ; 1 u` in output that comes in pieces: the sequence may be
 * split between two of them. The pieces must be shown to it in order, each
 * byte once (a piece is seen up to the index returned).
 */
export class PagerOnFinder {
  /** How many bytes of the sequence the last piece ended with. */
  #carried = 0;

  /** The index just after the first `CSI 92 ; 1 u` that ends in `data`, or -1. */
  find(data: Uint8Array): number {
    let k = this.#carried;
    this.#carried = 0;
    if (k > 0) {
      let i = 0;
      while (
        k < PAGER_ON.length && i < data.length && data[i] === PAGER_ON[k]
      ) {
        k++;
        i++;
      }
      if (k === PAGER_ON.length) return i;
      if (i === data.length) {
        this.#carried = k;
        return -1;
      }
    }
    const n = data.length;
    const last = PAGER_ON.length - 1;
    // indexOf(ESC) runs at memory speed through text without escapes; where
    // they are dense (coloured output) a call per ESC costs more than
    // Horspool's scan, which steps over most bytes 7 at a time.
    let i = data.indexOf(0x1b);
    for (let seen = 0; i >= 0 && seen < 16; seen++) {
      let m = 1;
      while (m <= last && data[i + m] === PAGER_ON[m]) m++;
      if (m > last) return i + m;
      i = data.indexOf(0x1b, i + 1);
    }
    if (i >= 0) {
      for (i += last; i < n; i += PAGER_ON_SHIFT[data[i]]) {
        if (data[i] !== 0x75) continue;
        let m = 0;
        while (m < last && data[i - last + m] === PAGER_ON[m]) m++;
        if (m === last) return i + 1;
      }
    }
    // A prefix at the end: only one can be there, as ESC starts it alone.
    for (let len = Math.min(last, n); len > 0; len--) {
      let m = 0;
      while (m < len && data[n - len + m] === PAGER_ON[m]) m++;
      if (m === len) {
        this.#carried = len;
        break;
      }
    }
    return -1;
  }

  /** Bytes went by without being shown to {@link find}. */
  reset(): void {
    this.#carried = 0;
  }
}

/** Units of `Selection.modify` used here. */
type Granularity = "character" | "line" | "lineboundary";

/** The continue key `e` is, if any. */
export function continueOf(e: KeyboardEvent): PagerContinue | null {
  if (e.altKey || e.metaKey) return null;
  if (e.ctrlKey) {
    return !e.shiftKey && e.key.toLowerCase() === "c" ? "interrupt" : null;
  }
  switch (e.key) {
    case " ":
      return "page";
    case "Enter":
      return "line";
    case "a":
    case "A":
      return "off";
    case "Escape":
      return "free";
  }
  return null;
}
