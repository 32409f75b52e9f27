/**
 * The find bar (Ctrl+Shift+F, or Find… in the menu): searches the whole
 * buffer shown (every history line, drawn or not, and the text of embedded
 * HTML) with core/search/find.ts, counts the matches, highlights those in
 * view and steps through them, scrolling each into the middle of the view.
 *
 * Matches are kept by absolute line (counting lines trimmed off the top of
 * the history), so they stay put while output scrolls the history; new
 * output searches again, a moment later. Highlights are empty spans inside
 * the row elements (`span.dt-find-hit`), placed by column like the cursor:
 * they scroll with their row and cost no layout reads. A row that is drawn
 * again loses them, and the next frame puts them back.
 *
 * @module
 */
import type { TerminalView } from "../core/terminal_view.ts";
import {
  compileFind,
  findAll,
  type FindMatch,
  type FindOptions,
  FindText,
  MAX_MATCHES,
} from "../core/search/find.ts";

/** What the find bar needs from the page. */
export interface FindHost {
  term: TerminalView;
  /** The row element of line `index` of the buffer shown, if drawn. */
  shownRow(index: number): HTMLElement | undefined;
  /** Scroll line `index` into the middle of the view, drawing it. */
  revealLine(index: number): HTMLElement | null;
  /** Lines of the buffer shown in view or near it. */
  viewLines(): { first: number; end: number };
  /** Unfold a folded output that hides line `index`; true if it did. */
  unfoldLine(index: number): boolean;
  /** Give the keyboard back to the terminal. */
  focusTerminal(): void;
}

/** After output, search again once it has been quiet this long. */
const RESEARCH_MS = 250;
/** Typing in a long history searches once the keys pause this long. */
const TYPING_MS = 60;
/** Histories at least this long wait for typing to pause (see TYPING_MS). */
const LONG_BUFFER = 5000;

/** The find bar's toggles. */
type ToggleName = "caseSensitive" | "wholeWord" | "regex";

/** A match with absolute lines (`line + trimmed` when it was found). */
interface Hit {
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  embed: boolean;
}

/** The find bar of one window. */
export class FindBar {
  #host: FindHost;
  #bar: HTMLElement;
  #input: HTMLInputElement;
  #count: HTMLElement;
  #toggles: Record<ToggleName, HTMLButtonElement>;
  #options: FindOptions = {};
  #hits: Hit[] = [];
  /** Index in #hits of the current match (-1: none). */
  #current = -1;
  /**
   * Where the current match was last (absolute line and column): the place
   * a query typed keeps, even through keystrokes that matched nothing or
   * made a bad expression on the way.
   */
  #place: { line: number; col: number } | null = null;
  /** The search was stopped at MAX_MATCHES. */
  #capped = false;
  /** The buffer last searched (the alternate screen is searched on its own). */
  #searchedAlt = false;
  #timer: ReturnType<typeof setTimeout> | 0 = 0;
  /**
   * The buffer's text as last gathered, kept while no output comes: the
   * queries typed after the first one search it in a few ms.
   */
  #text: FindText | null = null;
  #textOf: unknown = null;
  #decorated = new Set<HTMLElement>();
  #frame = 0;

  /** Builds the (hidden) bar into the page, outside the terminal element. */
  constructor(doc: Document, host: FindHost) {
    this.#host = host;
    const bar = doc.createElement("div");
    bar.className = "dt-find";
    bar.setAttribute("role", "search");
    bar.setAttribute("aria-label", "Find in the terminal");
    bar.hidden = true;
    const input = doc.createElement("input");
    input.className = "dt-find-input";
    input.type = "text";
    input.spellcheck = false;
    input.autocomplete = "off";
    input.placeholder = "Find";
    input.setAttribute("aria-label", "Find");
    const toggle = (text: string, title: string) => {
      const b = button(doc, text, title);
      b.classList.add("dt-find-toggle");
      b.setAttribute("aria-pressed", "false");
      return b;
    };
    this.#toggles = {
      caseSensitive: toggle("Aa", "Match case (Alt+C)"),
      wholeWord: toggle("W", "Whole words (Alt+W)"),
      regex: toggle(".*", "Regular expression (Alt+R)"),
    };
    const count = doc.createElement("span");
    count.className = "dt-find-count";
    count.setAttribute("role", "status");
    count.setAttribute("aria-live", "polite");
    const prev = button(doc, "\u2191", "Previous match, older (Enter)");
    const next = button(doc, "\u2193", "Next match, newer (Shift+Enter)");
    const close = button(doc, "\u00d7", "Close (Escape)");
    bar.append(
      input,
      this.#toggles.caseSensitive,
      this.#toggles.wholeWord,
      this.#toggles.regex,
      count,
      prev,
      next,
      close,
    );
    doc.body.append(bar);
    this.#bar = bar;
    this.#input = input;
    this.#count = count;

    for (const [key, b] of Object.entries(this.#toggles)) {
      b.addEventListener("click", () => {
        this.#toggle(key as ToggleName);
        input.focus();
      });
    }
    prev.addEventListener("click", () => this.step(-1));
    next.addEventListener("click", () => this.step(1));
    close.addEventListener("click", () => this.close());
    input.addEventListener("input", () => this.#searchSoon(true));
    bar.addEventListener("keydown", this.#onKey);
  }

  /** Whether the bar is shown. */
  get isOpen(): boolean {
    return !this.#bar.hidden;
  }

  /** The number of matches and the 1-based index of the current one (0: none). */
  get status(): { count: number; current: number; error: string | null } {
    const err = this.#bar.classList.contains("dt-find-error");
    return {
      count: this.#hits.length,
      current: this.#current + 1,
      error: err ? this.#count.textContent : null,
    };
  }

  /**
   * Shows the bar and puts the keyboard in it, its text selected. A
   * selection of part of one row becomes the query.
   */
  open(selection = ""): void {
    if (selection !== "" && !selection.includes("\n")) {
      this.#input.value = selection;
    }
    const wasOpen = this.isOpen;
    this.#bar.hidden = false;
    this.#input.focus();
    this.#input.select();
    if (!wasOpen || selection !== "") this.#search(false);
  }

  /** Hides the bar and its highlights; the keyboard goes back to the terminal. */
  close(): void {
    if (!this.isOpen) return;
    this.#bar.hidden = true;
    clearTimeout(this.#timer);
    this.#timer = 0;
    this.#hits = [];
    this.#current = -1;
    this.#place = null;
    this.#text = null;
    this.#undecorate();
    this.#host.focusTerminal();
  }

  /**
   * Moves to the next match (1: newer, further down) or the previous one
   * (-1: older), wrapping around, and scrolls it into view.
   */
  step(dir: 1 | -1): void {
    const n = this.#hits.length;
    if (n === 0) return;
    this.#current = this.#current < 0
      ? (dir > 0 ? 0 : n - 1)
      : (this.#current + dir + n) % n;
    this.#place = this.#hits[this.#current];
    this.#reveal();
  }

  /** Output arrived: search again once it has been quiet for a moment. */
  noteOutput(): void {
    this.#text = null;
    if (!this.isOpen || this.#input.value === "") return;
    if (this.#timer === 0) {
      this.#timer = setTimeout(() => {
        this.#timer = 0;
        this.#search(true, false);
      }, RESEARCH_MS);
    }
  }

  /** The renderer drew a frame: highlight the matches of rows now drawn. */
  onRender(): void {
    if (this.isOpen && this.#hits.length > 0) this.#decorate();
  }

  /** The view scrolled: highlight what came into view (at the next frame). */
  onScroll(): void {
    if (!this.isOpen || this.#hits.length === 0 || this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#decorate();
    });
  }

  #onKey = (e: KeyboardEvent) => {
    const mods = (e.ctrlKey ? 1 : 0) | (e.shiftKey ? 2 : 0) |
      (e.altKey ? 4 : 0) | (e.metaKey ? 8 : 0);
    let handled = true;
    if (e.key === "Escape" && mods === 0) this.close();
    else if (e.key === "Enter" && (mods & ~2) === 0) {
      this.#flush();
      this.step(e.shiftKey ? 1 : -1);
    } else if (e.key === "F3" && (mods & ~2) === 0) {
      this.#flush();
      this.step(e.shiftKey ? -1 : 1);
    } else if (mods === 4 && e.code === "KeyC") this.#toggle("caseSensitive");
    else if (mods === 4 && e.code === "KeyW") this.#toggle("wholeWord");
    else if (mods === 4 && e.code === "KeyR") this.#toggle("regex");
    else if (mods === 3 && e.code === "KeyF") this.#input.select();
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  #toggle(key: ToggleName): void {
    const on = !this.#options[key];
    this.#options = { ...this.#options, [key]: on };
    this.#toggles[key].setAttribute("aria-pressed", String(on));
    this.#search(true);
  }

  /**
   * Search after typing: at once in a short buffer or one whose text is
   * kept, else when the keys pause.
   */
  #searchSoon(keepPlace: boolean): void {
    clearTimeout(this.#timer);
    this.#timer = 0;
    const buf = this.#host.term.buffer;
    if (
      buf.length < LONG_BUFFER || (this.#text !== null && this.#textOf === buf)
    ) {
      this.#search(keepPlace);
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = 0;
      this.#search(keepPlace);
    }, TYPING_MS);
  }

  /** A search typed but not run yet runs now (Enter right after typing). */
  #flush(): void {
    if (this.#timer !== 0) {
      clearTimeout(this.#timer);
      this.#timer = 0;
      this.#search(true);
    }
  }

  /**
   * Runs the query. With `keepPlace` the current match becomes the one at
   * or nearest before the old current one; else the newest. With `reveal`
   * the view scrolls to it (not for a search again after output: the view
   * stays where the user has it, following the output or not).
   */
  #search(keepPlace: boolean, reveal = true): void {
    const buf = this.#host.term.buffer;
    const old = keepPlace && this.#searchedAlt === buf.isAlt
      ? this.#place ?? undefined
      : undefined;
    this.#searchedAlt = buf.isAlt;
    const re = compileFind(this.#input.value, this.#options);
    this.#bar.classList.toggle("dt-find-error", typeof re === "string");
    if (re === null || typeof re === "string") {
      this.#hits = [];
      this.#current = -1;
      this.#capped = false;
      this.#count.textContent = re ?? "";
      this.#undecorate();
      return;
    }
    const base = buf.trimmed;
    if (this.#text === null || this.#textOf !== buf) {
      this.#text = new FindText(buf);
      this.#textOf = buf;
    }
    const found: FindMatch[] = findAll(buf, re, MAX_MATCHES, this.#text);
    this.#capped = found.length >= MAX_MATCHES;
    this.#hits = found.map((m) => ({
      line: m.line + base,
      col: m.col,
      endLine: m.endLine + base,
      endCol: m.endCol,
      embed: m.embed === true,
    }));
    const n = this.#hits.length;
    if (n === 0) this.#current = -1;
    else if (old === undefined) this.#current = n - 1;
    else {
      // The last match that starts at or before the old one.
      let lo = 0, hi = n - 1, at = 0;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const h = this.#hits[mid];
        if (h.line < old.line || (h.line === old.line && h.col <= old.col)) {
          at = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      this.#current = at;
    }
    if (this.#current >= 0) this.#place = this.#hits[this.#current];
    if (reveal && this.#current >= 0) this.#reveal();
    else this.#decorate();
    this.#showCount();
  }

  #showCount(): void {
    const n = this.#hits.length;
    const more = this.#capped ? "+" : "";
    this.#count.textContent = n === 0
      ? "No matches"
      : `${this.#current + 1} of ${n}${more}`;
  }

  /** Scrolls the current match into view (unfolding what hides it). */
  #reveal(): void {
    const h = this.#hits[this.#current];
    this.#showCount();
    if (h === undefined) return;
    const line = h.line - this.#host.term.buffer.trimmed;
    if (line < 0) return; // trimmed off the history since
    this.#host.unfoldLine(line);
    this.#host.revealLine(line);
    this.#decorate();
  }

  #undecorate(): void {
    for (const row of this.#decorated) clearHits(row);
    this.#decorated.clear();
  }

  /** Puts the highlights of the matches near the view into their rows. */
  #decorate(): void {
    const buf = this.#host.term.buffer;
    if (buf.isAlt !== this.#searchedAlt) return this.#undecorate();
    const base = buf.trimmed;
    const rows = this.#host.term.rows;
    const view = this.#host.viewLines();
    const hits = this.#hits;
    // Per row: its highlights as "from,to,current,embed;" specs. The rows
    // near the view, and around the current match (the view may not know
    // yet that it scrolled there: rows that content-visibility skipped).
    const want = new Map<HTMLElement, string>();
    const done = new Set<number>();
    const add = (first: number, end: number) => {
      // The first hit that may reach into [first, end) (absolute lines).
      let lo = 0, hi = hits.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (hits[mid].endLine < first) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < hits.length && hits[i].line < end; i++) {
        if (done.has(i)) continue;
        done.add(i);
        const h = hits[i];
        const cur = i === this.#current ? 1 : 0;
        for (let l = h.line; l <= h.endLine; l++) {
          const row = this.#host.shownRow(l - base);
          if (row === undefined) continue;
          const from = l === h.line ? h.col : 0;
          const to = l === h.endLine ? h.endCol : buf.getLine(l - base).cols;
          if (to <= from && !h.embed) continue;
          const spec = `${from},${to},${cur},${h.embed ? 1 : 0};`;
          want.set(row, (want.get(row) ?? "") + spec);
        }
      }
    };
    add(view.first + base, view.end + base);
    const cur = hits[this.#current];
    if (cur !== undefined) add(cur.line - rows, cur.endLine + rows + 1);
    for (const row of this.#decorated) {
      if (!want.has(row)) {
        clearHits(row);
        this.#decorated.delete(row);
      }
    }
    for (const [row, spec] of want) {
      // Drawn again since (its children replaced), or other hits now.
      if (row.dataset.dtFind === spec && row.querySelector(".dt-find-hit")) {
        continue;
      }
      clearHits(row);
      row.dataset.dtFind = spec;
      for (const part of spec.split(";")) {
        if (part === "") continue;
        const [from, to, cur, embed] = part.split(",").map(Number);
        const el = row.ownerDocument.createElement("span");
        el.className = "dt-find-hit" + (cur ? " dt-find-current" : "") +
          (embed ? " dt-find-embed" : "");
        el.setAttribute("aria-hidden", "true");
        if (!embed) {
          el.style.setProperty("--dt-hx", String(from));
          el.style.setProperty("--dt-hw", String(to - from));
        }
        row.append(el);
      }
      this.#decorated.add(row);
    }
  }
}

function button(doc: Document, text: string, title: string): HTMLButtonElement {
  const b = doc.createElement("button");
  b.type = "button";
  b.className = "dt-find-button";
  b.textContent = text;
  b.title = title;
  b.setAttribute("aria-label", title.replace(/ \(.*\)$/, ""));
  return b;
}

function clearHits(row: HTMLElement): void {
  delete row.dataset.dtFind;
  for (const el of row.querySelectorAll(".dt-find-hit")) el.remove();
}
