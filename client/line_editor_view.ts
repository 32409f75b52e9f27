/**
 * Draws the line being edited (client/line_input.ts) in the text flow: it
 * starts at the terminal's cursor, right after the program's prompt, wraps
 * at the window's width like the rows do, and sits over the cells below
 * (which a program waiting for a line leaves empty). Also draws another
 * window's line (relayed by the server) read-only, shows the input mode
 * briefly when it changes, and places the caret on a click or a drag
 * (Shift+click extends the selection).
 *
 * Masked input (ECHO off) is drawn as bullets; the text itself is never put
 * into the DOM.
 *
 * @module
 */
import { INPUT_MODE_NAMES, type LineInput } from "./line_input.ts";
import type { SearchState } from "../core/line_editor/editor.ts";

/** What the view needs from the page. */
export interface LineEditorViewOptions {
  /** The cursor cell, client coordinates (Renderer.cursorRect). */
  cursorRect(): { left: number; top: number; width: number; height: number };
  /** Cell size and columns of the grid. */
  cell(): { width: number; height: number };
  cols(): number;
}

const MASK = "\u2022";
const NOTE_MS = 1500;

/** The line editor's overlay in the terminal element. */
export class LineEditorView {
  readonly el: HTMLElement;
  readonly #note: HTMLElement;
  #noteTimer: ReturnType<typeof setTimeout> | undefined;
  #lastMode: string;
  #dragging = false;

  constructor(
    readonly root: HTMLElement,
    readonly input: LineInput,
    readonly options: LineEditorViewOptions,
  ) {
    this.el = document.createElement("div");
    this.el.className = "dt-edit-line";
    this.el.hidden = true;
    root.appendChild(this.el);
    this.#note = document.createElement("div");
    this.#note.className = "dt-input-mode-note";
    this.#note.hidden = true;
    this.#note.setAttribute("role", "status");
    root.appendChild(this.#note);
    this.#lastMode = input.mode;
    this.el.addEventListener("mousedown", this.#onMouseDown);
    this.el.addEventListener("mousemove", this.#onMouseMove);
    addEventListener("mouseup", () => this.#dragging = false);
    root.addEventListener("scroll", () => this.update(), {
      capture: true,
      passive: true,
    });
  }

  /** Redraws (after an edit, a mode change, a render or a scroll). */
  update(): void {
    const li = this.input;
    if (li.mode !== this.#lastMode) {
      this.#lastMode = li.mode;
      this.#showNote(`Input mode: ${INPUT_MODE_NAMES[li.mode]}`);
    }
    this.root.dataset.inputMode = li.mode;
    const local = li.editing;
    const remote = !local ? li.remote : null;
    this.root.classList.toggle("dt-line-editing", local || remote !== null);
    if (!local && remote === null) {
      this.el.hidden = true;
      this.el.replaceChildren();
      return;
    }
    this.el.hidden = false;
    this.el.classList.toggle("dt-edit-remote", !local);
    let text: string, caret: number, selA: number, selB: number;
    if (local) {
      const e = li.editor;
      text = li.masked ? MASK.repeat(e.text.length) : e.text;
      caret = e.caret;
      [selA, selB] = e.selection();
    } else {
      const r = remote!;
      text = r.masked !== undefined ? MASK.repeat(r.masked) : r.text ?? "";
      caret = r.masked !== undefined ? text.length : r.caret;
      selA = selB = caret;
    }
    this.#place();
    const parts: Node[] = [];
    const search = local ? li.editor.search : null;
    if (search) parts.push(searchPrompt(search));
    const span = (s: string, start: number, cls?: string) => {
      if (s === "") return;
      const el = document.createElement("span");
      el.textContent = s;
      el.dataset.start = String(start);
      if (cls) el.className = cls;
      parts.push(el);
    };
    const caretEl = document.createElement("span");
    caretEl.className = "dt-edit-caret";
    caretEl.dataset.start = String(caret);
    // The caret is drawn before the character it stands on.
    const cuts = [...new Set([0, selA, selB, caret, text.length])]
      .sort((a, b) => a - b);
    for (let i = 0; i < cuts.length; i++) {
      const a = cuts[i];
      if (a === caret) parts.push(caretEl);
      if (i + 1 < cuts.length) {
        const selected = selA !== selB && a >= selA && cuts[i + 1] <= selB;
        span(
          text.slice(a, cuts[i + 1]),
          a,
          selected ? "dt-edit-selected" : undefined,
        );
      }
    }
    this.el.replaceChildren(...parts);
  }

  /**
   * The caret's cell while a line is edited here (client coordinates), for
   * the IME's candidate window; null otherwise.
   */
  caretRect():
    | { left: number; top: number; width: number; height: number }
    | null {
    if (!this.input.editing || this.el.hidden) return null;
    const caret = this.el.querySelector(".dt-edit-caret");
    if (!caret) return null;
    const r = caret.getBoundingClientRect();
    const cell = this.options.cell();
    return { left: r.left, top: r.top, width: cell.width, height: cell.height };
  }

  /** Puts the overlay at the cursor, as wide as the grid. */
  #place(): void {
    const cur = this.options.cursorRect();
    const cell = this.options.cell();
    const rootRect = this.root.getBoundingClientRect();
    const rowLeft = this.#rowLeft(cur);
    const s = this.el.style;
    s.left = `${rowLeft - rootRect.left}px`;
    s.top = `${cur.top - rootRect.top}px`;
    s.width = `${this.options.cols() * cell.width}px`;
    s.textIndent = `${cur.left - rowLeft}px`;
    s.lineHeight = `${cell.height}px`;
  }

  /** Left edge of the cursor's row (the grid's first column). */
  #rowLeft(cur: { left: number }): number {
    const rows = this.root.querySelector(".dt-rows:not([hidden])") ??
      this.root.querySelector(".dt-rows");
    return rows ? rows.getBoundingClientRect().left : cur.left;
  }

  #showNote(text: string): void {
    this.#note.textContent = text;
    this.#note.hidden = false;
    clearTimeout(this.#noteTimer);
    this.#noteTimer = setTimeout(
      () => this.#note.hidden = true,
      NOTE_MS,
    );
  }

  /** The text index under a point of the overlay, or null. */
  #indexAt(x: number, y: number): number | null {
    const doc = document as Document & {
      caretPositionFromPoint?(
        x: number,
        y: number,
      ): { offsetNode: Node; offset: number } | null;
    };
    let node: Node | null = null, offset = 0;
    if (doc.caretPositionFromPoint) {
      const p = doc.caretPositionFromPoint(x, y);
      if (p) [node, offset] = [p.offsetNode, p.offset];
    } else if (document.caretRangeFromPoint) {
      const r = document.caretRangeFromPoint(x, y);
      if (r) [node, offset] = [r.startContainer, r.startOffset];
    }
    if (!node || !this.el.contains(node)) {
      return this.input.editor.text.length;
    }
    const el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    const start = Number((el as HTMLElement | null)?.dataset?.start ?? NaN);
    if (Number.isNaN(start)) return this.input.editor.text.length;
    return start + (node.nodeType === Node.TEXT_NODE ? offset : 0);
  }

  #onMouseDown = (e: MouseEvent): void => {
    if (e.button !== 0 || !this.input.editing) return;
    const i = this.#indexAt(e.clientX, e.clientY);
    if (i === null) return;
    e.preventDefault();
    e.stopPropagation();
    this.input.setCaret(i, e.shiftKey);
    this.#dragging = true;
  };

  #onMouseMove = (e: MouseEvent): void => {
    if (!this.#dragging || !(e.buttons & 1)) return;
    const i = this.#indexAt(e.clientX, e.clientY);
    if (i !== null) this.input.setCaret(i, true);
  };
}

/**
 * The incremental search's prompt, as readline shows it, before the line
 * it found: "(reverse-i-search)`query': ", "(failed reverse-i-search)..."
 * when nothing matches, "forward" for Ctrl-S.
 */
function searchPrompt(s: SearchState): HTMLElement {
  const el = document.createElement("span");
  el.className = s.failed
    ? "dt-edit-search dt-edit-search-failed"
    : "dt-edit-search";
  const dir = s.backward ? "reverse" : "forward";
  el.textContent = `(${
    s.failed ? "failed " : ""
  }${dir}-i-search)\`${s.query}': `;
  return el;
}
