/**
 * What shell integration adds to the window, from the command groups that
 * `core/model/command_groups.ts` derives from the marks:
 *
 * - a hide/show button beside the prompt of every finished command that
 *   printed whole lines (`role=button`, `aria-expanded`); folded, it shows
 *   how many lines are hidden. DomTerm's own buttons (`CSI 16 u` ...
 *   `CSI 17 u`) toggle their span (`CSI 83;1/2 u` ... `CSI 83;0 u`).
 * - a failed command (non-zero exit) gets a red bar on its prompt row and
 *   a badge whose title gives the exit status.
 * - {@link jumpToPrompt} scrolls to the previous / next prompt,
 *   {@link copyShownOutput} copies the output of the command at the top of
 *   the view (or of the last one): the actions of Ctrl+Shift+Up / Down and
 *   Ctrl+Shift+O (client/key_table.ts); each command's decoration has a
 *   copy button too.
 * - a click in the line being edited moves the cursor there with arrow
 *   keys, when the prompt said clicks may (`cl=m`, `cl=line`...).
 *
 * Everything here changes the view only, with one exception: a fold made
 * by hand is a flag on the mark that starts the group or span
 * (`LineMark.folded`), set here and sent to the session (the `onFold`
 * hook: a `fold` message), so that other windows, a reload, a handover and
 * a restore show it folded too; a fold another window made comes back
 * through {@link ShellUi.applyFold}.
 * Decorations live inside the row elements (absolutely placed at the right
 * end) and are put back after the renderer redraws a row. Their text is
 * CSS generated content, so copying rows does not copy it.
 *
 * @module
 */
import {
  type CommandGroup,
  type DerivedMarks,
  deriveMarks,
  findFoldMark,
  foldLines,
  type FoldSpan,
  type MarkRef,
  markRef,
  outputLines,
} from "../core/model/command_groups.ts";
import { cursorKey } from "../core/keys.ts";
import type { LineMark } from "../core/model/line_extras.ts";
import type { BufferView, InputModes } from "../core/terminal_view.ts";
import { type LineRange, RowFolder } from "./folding.ts";
import { commandLabel, commandText } from "./a11y/command_label.ts";

/** What the shell UI reads from the emulator. */
export interface ShellUiTerminal {
  readonly cols: number;
  readonly rows: number;
  readonly cursorX: number;
  readonly cursorY: number;
  readonly buffer: BufferView;
  readonly normalBuffer: BufferView;
  readonly marksVersion: number;
  readonly modes: InputModes;
}

/** What the shell UI needs from the renderer. */
export interface ShellUiRenderer {
  readonly root: HTMLElement;
  /** The row element of normal-buffer line `index`, if drawn. */
  rowElement(index: number): HTMLElement | undefined;
  measureCell(): { width: number; height: number };
  /**
   * Counts the history chunks drawn as rows so far (dormant history drawn
   * later: a fold must hide its new rows too).
   */
  readonly rowsFilled?: number;
}

/** Least time between derivations while only the buffer's length changes. */
const DERIVE_INTERVAL_MS = 200;

/** Class of a command's decoration (exit badge, copy and fold buttons). */
const DECO_CLASS = "dt-cmd-deco";

/**
 * About how many cells a group's decoration covers: the exit badge, "copy"
 * and the fold button at 0.9em, with gaps.
 */
function decoCells(g: CommandGroup, out: LineRange | null): number {
  const failed = g.ended && g.exitCode !== null && g.exitCode !== 0;
  return 1 + (failed ? 3 + String(g.exitCode).length : 0) + (out ? 8 : 0);
}

/** Text of a range of lines, soft-wrapped rows joined. */
export function linesText(buf: BufferView, r: LineRange): string {
  let s = "";
  for (let i = r.first; i < r.end && i < buf.length; i++) {
    const line = buf.getLine(i);
    s += line.toString(true);
    if (!line.wrapped || i === r.end - 1) s += "\n";
  }
  return s;
}

/** The shell-integration view layer of one window. */
export class ShellUi {
  #term: ShellUiTerminal;
  #renderer: ShellUiRenderer;
  /** The renderer's `rowsFilled` when the folds were last applied. */
  #filled = 0;
  #send: (data: string) => void;
  #folder: RowFolder;
  #derived: DerivedMarks = { groups: [], folds: [], userMarks: [] };
  #key = "";
  /** Buffer length and time of the last derivation. */
  #length = -1;
  #derivedAt = -Infinity;
  #trailing: ReturnType<typeof setTimeout> | 0 = 0;
  /** Told of each fold made by hand here (the session keeps it). */
  #onFold: (ref: MarkRef, folded: boolean) => void;
  /** Decoration element per group / DomTerm button, and the row it sits in. */
  #decos = new Map<LineMark, { el: HTMLElement; row: HTMLElement | null }>();
  /** The "N lines hidden" summary of each folded group. */
  #summaries = new Map<
    LineMark,
    { el: HTMLElement; row: HTMLElement | null }
  >();
  /** Prompt rows named as their command's region. */
  #regionRows = new Set<HTMLElement>();
  /** Rows that carry data-dt-exit. */
  #exitRows = new Set<HTMLElement>();
  /** The group last jumped to (for copy). */
  #current: CommandGroup | null = null;
  #dirty = true;

  constructor(
    term: ShellUiTerminal,
    renderer: ShellUiRenderer,
    send: (data: string) => void,
    onFold: (ref: MarkRef, folded: boolean) => void = () => {},
  ) {
    this.#term = term;
    this.#renderer = renderer;
    this.#send = send;
    this.#onFold = onFold;
    this.#folder = new RowFolder((i) => renderer.rowElement(i));
    const root = renderer.root;
    root.addEventListener("click", this.#onClick);
  }

  /** The groups as last derived. Test hook: the e2e shell tests read them. */
  get groups(): readonly CommandGroup[] {
    return this.#derived.groups;
  }

  /**
   * The terminal's model was replaced (a snapshot): derive the groups
   * again, and apply the folds once more after the next frame, which draws
   * the screen's rows (a span folded on the screen stayed shown).
   */
  reset(): void {
    this.#key = "";
    this.update();
    this.#dirty = true;
  }

  /** Bring the view in line with the marks; call after every render. */
  update(): void {
    // The groups are derived while the alternate screen shows too: the
    // command that switched to it (vim) runs, and closing the window names
    // it (busyWith, client/window.ts), also when its C mark and the switch
    // came in one batch of output, with no render of the normal buffer in
    // between, or before this window attached.
    this.#derive();
    // Folds and decorations are the normal buffer's rows': they wait for
    // its next render (#dirty stays set).
    if (this.#term.buffer !== this.#term.normalBuffer) return;
    // History drawn since (scrolled back, or idle work): rows of its folds
    // that were not there before.
    const filled = this.#renderer.rowsFilled ?? 0;
    if (filled !== this.#filled) {
      this.#filled = filled;
      this.#dirty = true;
    }
    if (this.#dirty) {
      this.#dirty = false;
      this.#folder.apply(this.#hiddenRanges());
    }
    this.#decorate();
    this.#labelRegions();
  }

  /** Derive the groups from the normal buffer's marks when they moved. */
  #derive(): void {
    const term = this.#term;
    const buf = term.normalBuffer;
    // New marks, trimmed history or a reflow move the groups: derive them
    // again at once. Lines merely added (output streaming) rarely do, and
    // deriving reads the whole buffer: at most every DERIVE_INTERVAL_MS,
    // with a trailing update so the last state is always shown.
    const key = `${term.marksVersion}|${buf.trimmed}|${term.cols}`;
    const now = performance.now();
    let derive = key !== this.#key;
    if (!derive && buf.length !== this.#length) {
      const wait = this.#derivedAt + DERIVE_INTERVAL_MS - now;
      if (wait <= 0) derive = true;
      else if (this.#trailing === 0) {
        this.#trailing = setTimeout(() => {
          this.#trailing = 0;
          this.update();
        }, wait);
      }
    }
    if (derive) {
      this.#key = key;
      this.#length = buf.length;
      this.#derivedAt = now;
      this.#derived = deriveMarks(buf);
      this.#dirty = true;
    }
  }

  /** The name of group `g` for assistive technology ("ls -l, exit 0, 12 lines"). */
  label(g: CommandGroup): string {
    return commandLabel(
      g,
      commandText(g, this.#term.normalBuffer),
      this.isFolded(g),
    );
  }

  /**
   * Each drawn prompt row is its command's region, named by
   * {@link label}: a screen reader lists and jumps between them.
   */
  #labelRegions(): void {
    const labelled = new Set<HTMLElement>();
    for (const g of this.#derived.groups) {
      const row = this.#renderer.rowElement(g.prompt?.line ?? g.start.line);
      if (!row || labelled.has(row)) continue;
      labelled.add(row);
      const label = this.label(g);
      if (row.getAttribute("aria-label") !== label) {
        row.setAttribute("role", "region");
        row.setAttribute("aria-roledescription", "command");
        row.setAttribute("aria-label", label);
      }
    }
    for (const row of this.#regionRows) {
      if (!labelled.has(row)) {
        row.removeAttribute("role");
        row.removeAttribute("aria-roledescription");
        row.removeAttribute("aria-label");
      }
    }
    this.#regionRows = labelled;
  }

  /** Fold (true) or unfold the output of group `g`. */
  setFolded(g: CommandGroup, folded: boolean): void {
    this.#setFlag(g.startMark, g.start.line, folded);
    this.#show(g.startMark);
  }

  /**
   * A fold made in another window (a `fold` message, in order with the
   * output): set it in this copy of the model and show it. Returns false
   * when this copy has no such mark.
   */
  applyFold(ref: MarkRef, folded: boolean): boolean {
    const mark = findFoldMark(this.#term.normalBuffer, ref);
    if (mark === null) return false;
    mark.folded = folded;
    this.#show(mark);
    return true;
  }

  /** Fold or unfold by hand the group or span that `mark` (at line `index`) starts. */
  #setFlag(mark: LineMark, index: number, folded: boolean): void {
    mark.folded = folded;
    this.#onFold(markRef(this.#term.normalBuffer, index, mark), folded);
  }

  /**
   * Apply the fold state of `mark`, keeping the row of its button where it
   * is on the screen.
   */
  #show(mark: LineMark): void {
    const vp = this.#viewport();
    const row = this.#decos.get(mark)?.row ?? null;
    const before = row?.isConnected ? row.getBoundingClientRect().top : null;
    // A view that follows the output keeps following it; one scrolled back
    // keeps the button's row where it is on the screen.
    const atBottom = vp !== null &&
      vp.scrollHeight - vp.scrollTop - vp.clientHeight <= 2;
    this.#dirty = true;
    this.update();
    if (vp === null) return;
    if (atBottom) vp.scrollTop = vp.scrollHeight;
    else if (before !== null && row?.isConnected) {
      vp.scrollTop += row.getBoundingClientRect().top - before;
    }
  }

  /** Whether group `g`'s output is folded. */
  isFolded(g: CommandGroup): boolean {
    return g.startMark.folded === true;
  }

  /**
   * Unfold whatever hides line `line` of the normal buffer (a folded
   * command output or a pretty-printing span), e.g. to show a match of
   * find. Returns whether anything was unfolded.
   */
  unfoldLine(line: number): boolean {
    let changed = false;
    for (const g of this.#derived.groups) {
      if (!this.isFolded(g)) continue;
      const r = outputLines(g);
      if (r && line > r.first && line < r.end) {
        this.#setFlag(g.startMark, g.start.line, false);
        changed = true;
      }
    }
    const length = this.#term.normalBuffer.length;
    for (const f of this.#derived.folds) {
      if (!this.#spanHidden(f)) continue;
      const r = foldLines(f, length);
      if (r && line >= r.first && line < r.end) {
        this.#setFlag(f.buttonMark, f.button.line, false);
        changed = true;
      }
    }
    if (changed) {
      this.#dirty = true;
      this.update();
    }
    return changed;
  }

  #spanHidden(f: FoldSpan): boolean {
    return f.buttonMark.folded ?? f.initiallyHidden;
  }

  #hiddenRanges(): LineRange[] {
    const ranges: LineRange[] = [];
    for (const g of this.#derived.groups) {
      if (!this.isFolded(g)) continue;
      const r = outputLines(g);
      // The first line stays, covered by the summary ("N lines hidden").
      if (r && r.end - r.first > 1) {
        ranges.push({ first: r.first + 1, end: r.end });
      }
    }
    const length = this.#term.normalBuffer.length;
    for (const f of this.#derived.folds) {
      if (!this.#spanHidden(f)) continue;
      const r = foldLines(f, length);
      if (r) ranges.push(r);
    }
    return ranges;
  }

  // ------------------------------------------------------------ decorations

  /** The running command's own row as first seen (see {@link #screenTakenFrom}). */
  #running: { mark: LineMark; text: string } | null = null;

  /**
   * The first screen line when the running command has written over its
   * own command row (top, watch: programs that draw the whole screen
   * without the alternate one): no decoration goes on the screen then, it
   * would sit over what the program draws (issue 31). Else Infinity.
   */
  #screenTakenFrom(): number {
    const g = this.#derived.groups.at(-1);
    const buf = this.#term.normalBuffer;
    if (
      !g || g.ended || g.input === null || g.output === null ||
      g.input.line >= buf.length
    ) {
      this.#running = null;
      return Infinity;
    }
    const text = buf.getLine(g.input.line).toString(true);
    if (this.#running?.mark !== g.startMark) {
      this.#running = { mark: g.startMark, text };
    }
    return text === this.#running.text
      ? Infinity
      : buf.length - this.#term.rows;
  }

  #decorate(): void {
    const seen = new Set<LineMark>();
    const exitRows = new Set<HTMLElement>();
    const taken = this.#screenTakenFrom();
    for (const g of this.#derived.groups) {
      const out = outputLines(g);
      const failed = g.ended && g.exitCode !== null && g.exitCode !== 0;
      if (!out && !failed) continue;
      const rowIndex = g.input?.line ?? g.prompt?.line ?? g.start.line;
      if (rowIndex >= taken) continue;
      const row = this.#renderer.rowElement(rowIndex);
      seen.add(g.startMark);
      const deco = this.#decoFor(g.startMark, () => this.#groupDeco(g));
      this.#fillGroupDeco(deco.el, g, out);
      // At the end of the command's last row (a long command wraps); where
      // its text reaches under the decoration, it shows on hover only.
      const last = this.#commandEnd(rowIndex, out?.first ?? Infinity);
      const lastLine = last < this.#term.normalBuffer.length
        ? this.#term.normalBuffer.getLine(last)
        : null;
      const crowded = (lastLine?.contentEnd() ?? 0) + decoCells(g, out) >
        this.#term.cols;
      deco.el.classList.toggle("dt-deco-crowded", crowded);
      this.#place(deco, this.#renderer.rowElement(last));
      this.#placeSummary(g, out);
      if (failed && row) {
        exitRows.add(row);
        const v = String(g.exitCode);
        if (row.dataset.dtExit !== v) row.dataset.dtExit = v;
      }
    }
    for (const f of this.#derived.folds) {
      if (f.buttonEnd === null) continue;
      const row = this.#renderer.rowElement(f.button.line);
      seen.add(f.buttonMark);
      const deco = this.#decoFor(f.buttonMark, () => this.#spanButton(f));
      const el = deco.el;
      el.style.setProperty("--dt-bx", String(f.button.x));
      el.style.setProperty(
        "--dt-bw",
        String(Math.max(1, f.buttonEnd.x - f.button.x)),
      );
      const expanded = String(!this.#spanHidden(f));
      if (el.getAttribute("aria-expanded") !== expanded) {
        el.setAttribute("aria-expanded", expanded);
      }
      this.#place(deco, row);
    }
    for (const [mark, d] of this.#decos) {
      if (!seen.has(mark)) {
        d.el.remove();
        this.#decos.delete(mark);
      }
    }
    for (const [mark, d] of this.#summaries) {
      if (!seen.has(mark)) {
        d.el.remove();
        this.#summaries.delete(mark);
      }
    }
    for (const row of this.#exitRows) {
      if (!exitRows.has(row)) delete row.dataset.dtExit;
    }
    this.#exitRows = exitRows;
  }

  /**
   * A folded output keeps its first row, covered by a summary that says how
   * many lines are hidden (clicking it unfolds).
   */
  #placeSummary(g: CommandGroup, out: LineRange | null): void {
    let d = this.#summaries.get(g.startMark);
    if (!out || !this.isFolded(g)) {
      if (d) {
        d.el.remove();
        this.#summaries.delete(g.startMark);
      }
      return;
    }
    if (!d) {
      const el = this.#renderer.root.ownerDocument.createElement("span");
      el.className = "dt-fold-summary";
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "-1");
      el.setAttribute("aria-expanded", "false");
      el.addEventListener("mousedown", (e) => e.preventDefault());
      el.addEventListener("click", (e) => {
        e.stopPropagation();
        const cur = this.#groupOf(g.startMark);
        if (cur) this.setFolded(cur, false);
      });
      d = { el, row: null };
      this.#summaries.set(g.startMark, d);
    }
    const n = out.end - out.first;
    const label = `${n} line${n === 1 ? "" : "s"} hidden`;
    if (d.el.dataset.label !== label) {
      d.el.dataset.label = label;
      d.el.setAttribute("aria-label", `${label}: show them`);
      d.el.title = "Show the hidden output";
    }
    this.#place(d, this.#renderer.rowElement(out.first));
  }

  /** The last row of the logical line that starts at row `first` (before `limit`). */
  #commandEnd(first: number, limit: number): number {
    const buf = this.#term.normalBuffer;
    let i = first;
    while (
      i + 1 < buf.length && i + 1 < limit && buf.getLine(i).wrapped
    ) i++;
    return i;
  }

  #decoFor(
    mark: LineMark,
    make: () => HTMLElement,
  ): { el: HTMLElement; row: HTMLElement | null } {
    let d = this.#decos.get(mark);
    if (!d) {
      d = { el: make(), row: null };
      this.#decos.set(mark, d);
    }
    return d;
  }

  /** Put a decoration into its row (again, after the row was redrawn). */
  #place(
    d: { el: HTMLElement; row: HTMLElement | null },
    row: HTMLElement | undefined,
  ): void {
    if (!row) {
      if (d.el.parentElement) d.el.remove();
      d.row = null;
      return;
    }
    if (d.el.parentElement !== row) row.appendChild(d.el);
    d.row = row;
  }

  #groupDeco(g: CommandGroup): HTMLElement {
    const doc = this.#renderer.root.ownerDocument;
    const el = doc.createElement("span");
    el.className = DECO_CLASS;
    el.setAttribute("aria-hidden", "false");
    const badge = doc.createElement("span");
    badge.className = "dt-exit-badge";
    const copy = doc.createElement("span");
    copy.className = "dt-copy-output";
    copy.setAttribute("role", "button");
    copy.setAttribute("tabindex", "-1");
    copy.setAttribute("aria-label", "Copy the output");
    copy.title = "Copy the output (Ctrl+Shift+O)";
    copy.addEventListener("click", (e) => {
      e.stopPropagation();
      void this.copyOutput(this.#groupOf(g.startMark));
    });
    const fold = doc.createElement("span");
    fold.className = "dt-fold-button";
    fold.setAttribute("role", "button");
    fold.setAttribute("tabindex", "-1");
    fold.addEventListener("click", (e) => {
      e.stopPropagation();
      const cur = this.#groupOf(g.startMark);
      if (cur) this.setFolded(cur, !this.isFolded(cur));
    });
    // Keep the click from moving focus or starting a selection.
    el.addEventListener("mousedown", (e) => e.preventDefault());
    el.append(badge, copy, fold);
    return el;
  }

  #fillGroupDeco(
    el: HTMLElement,
    g: CommandGroup,
    out: LineRange | null,
  ): void {
    const [badge, copy, fold] = el.children as unknown as HTMLElement[];
    const failed = g.ended && g.exitCode !== null && g.exitCode !== 0;
    badge.hidden = !failed;
    if (failed) {
      const t = `Command failed: exit status ${g.exitCode}`;
      if (badge.title !== t) badge.title = t;
      const label = String(g.exitCode);
      if (badge.dataset.label !== label) badge.dataset.label = label;
    }
    copy.hidden = out === null;
    fold.hidden = out === null;
    if (out) {
      const folded = this.isFolded(g);
      const n = out.end - out.first;
      const expanded = String(!folded);
      if (fold.getAttribute("aria-expanded") !== expanded) {
        fold.setAttribute("aria-expanded", expanded);
      }
      const aria = folded
        ? `Show ${n} hidden output line${n === 1 ? "" : "s"}`
        : `Hide the output (${n} line${n === 1 ? "" : "s"})`;
      if (fold.getAttribute("aria-label") !== aria) {
        fold.setAttribute("aria-label", aria);
        fold.title = aria;
      }
    }
  }

  /** A transparent button over a DomTerm `CSI 16 u` ... `CSI 17 u` button. */
  #spanButton(f: FoldSpan): HTMLElement {
    const doc = this.#renderer.root.ownerDocument;
    const el = doc.createElement("span");
    el.className = "dt-span-button";
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "-1");
    el.setAttribute("aria-label", "Hide or show");
    el.addEventListener("mousedown", (e) => e.preventDefault());
    el.addEventListener("click", (e) => {
      e.stopPropagation();
      const cur = this.#derived.folds.find((x) =>
        x.buttonMark === f.buttonMark
      );
      if (cur) {
        this.#setFlag(cur.buttonMark, cur.button.line, !this.#spanHidden(cur));
        this.#show(cur.buttonMark);
      }
    });
    return el;
  }

  #groupOf(mark: LineMark): CommandGroup | null {
    return this.#derived.groups.find((g) => g.startMark === mark) ?? null;
  }

  // ------------------------------------------------------------ navigation

  #viewport(): HTMLElement | null {
    return this.#renderer.root.querySelector<HTMLElement>(".dt-viewport");
  }

  /** Groups whose prompt row is drawn and visible (not folded away). */
  #promptRows(): { g: CommandGroup; row: HTMLElement }[] {
    const out: { g: CommandGroup; row: HTMLElement }[] = [];
    for (const g of this.#derived.groups) {
      const row = this.#renderer.rowElement(g.prompt?.line ?? g.start.line);
      if (row && !row.hidden && row.offsetParent !== null) out.push({ g, row });
    }
    return out;
  }

  /**
   * Scroll so that the previous (`dir` -1) or next (+1) prompt above /
   * below the top of the view is at the top. Returns the group, or null
   * when there is none in that direction.
   */
  jumpToPrompt(dir: -1 | 1): CommandGroup | null {
    this.update();
    const vp = this.#viewport();
    if (!vp) return null;
    const top = vp.getBoundingClientRect().top +
      (parseFloat(getComputedStyle(vp).paddingTop) || 0);
    const rows = this.#promptRows();
    let target: { g: CommandGroup; row: HTMLElement } | null = null;
    for (const p of rows) {
      const y = p.row.getBoundingClientRect().top - top;
      if (dir < 0 && y < -1) target = p;
      if (dir > 0 && y > 1) {
        target = p;
        break;
      }
    }
    if (!target) return null;
    vp.scrollTop += target.row.getBoundingClientRect().top - top;
    this.#current = target.g;
    return target.g;
  }

  /**
   * The previous (`dir` -1) or next command in order, from the one last
   * jumped to (else from the end), its prompt row brought into view; null
   * when there is none. For when {@link jumpToPrompt} has nowhere to
   * scroll (every prompt is in view).
   */
  stepCommand(dir: -1 | 1): CommandGroup | null {
    this.update();
    const ran = this.#derived.groups.filter((g) =>
      g.output !== null || g.end !== null
    );
    let i = this.#current ? ran.indexOf(this.#current) : -1;
    if (i < 0) i = dir < 0 ? ran.length : -1;
    const g = ran[i + dir];
    if (!g) return null;
    this.#current = g;
    this.#renderer.rowElement(g.prompt?.line ?? g.start.line)
      ?.scrollIntoView({ block: "nearest" });
    return g;
  }

  /** The group last jumped to, else the last one with output (or null). */
  shownGroup(): CommandGroup | null {
    this.update();
    return this.#groupForCopy();
  }

  /** The group at the top of the view, else the last finished one. */
  #groupForCopy(): CommandGroup | null {
    if (this.#current && this.#derived.groups.includes(this.#current)) {
      return this.#current;
    }
    for (let i = this.#derived.groups.length - 1; i >= 0; i--) {
      if (outputLines(this.#derived.groups[i])) return this.#derived.groups[i];
    }
    return null;
  }

  /** How many lines group `g`'s output has. */
  outputLineCount(g: CommandGroup): number {
    const r = outputLines(g);
    return r ? r.end - r.first : 0;
  }

  /**
   * The output text of group `g` (soft-wrapped rows joined), its first
   * `maxLines` lines at most.
   */
  outputText(g: CommandGroup, maxLines = Infinity): string {
    const r = outputLines(g);
    if (!r) return "";
    const end = Math.min(r.end, r.first + maxLines);
    return linesText(this.#term.normalBuffer, { first: r.first, end });
  }

  /** Copy the output of the command at the top of the view (else of the last one). */
  copyShownOutput(): Promise<boolean> {
    return this.copyOutput(this.#groupForCopy());
  }

  /** Copy the output of `g` to the clipboard. */
  async copyOutput(g: CommandGroup | null): Promise<boolean> {
    if (!g) return false;
    const text = this.outputText(g);
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------ click to move

  /**
   * The arrow keys that move the cursor of the line being edited to cell
   * (`line`, `x`) of the normal buffer, or null when the prompt did not
   * allow it or the cell is not in the input.
   */
  clickMoveKeys(line: number, x: number): string | null {
    const term = this.#term;
    if (term.buffer !== term.normalBuffer) return null;
    if (term.modes.mouseTracking !== 0) return null;
    const g = this.#derived.groups[this.#derived.groups.length - 1];
    if (!g || g.end !== null || g.output !== null || g.input === null) {
      return null;
    }
    const cl = g.clickMove;
    if (cl === null || cl === "no") return null;
    const buf = term.normalBuffer;
    const cursorLine = buf.length - term.rows + term.cursorY;
    if (line < g.input.line || (line === g.input.line && x < g.input.x)) {
      return null;
    }
    if (line !== cursorLine && cl === "line") return null;
    if (line > cursorLine + term.rows) return null;
    // Not past the end of the text on that row.
    const text = buf.getLine(line).toString(true);
    const col = Math.min(
      x,
      line === cursorLine ? Math.max(text.length, term.cursorX) : text.length,
    );
    const delta = (line - cursorLine) * term.cols + (col - term.cursorX);
    if (delta === 0) return "";
    const app = term.modes.applicationCursorKeys;
    const key = cursorKey(delta > 0 ? "ArrowRight" : "ArrowLeft", app);
    return key.repeat(Math.min(Math.abs(delta), 4096));
  }

  #onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) {
      return;
    }
    const sel = this.#renderer.root.ownerDocument.getSelection();
    if (sel && !sel.isCollapsed && sel.toString() !== "") return;
    const row = (e.target as Element | null)?.closest?.(".dt-row") as
      | HTMLElement
      | null;
    if (!row) return;
    const term = this.#term;
    const buf = term.normalBuffer;
    const cursorLine = buf.length - term.rows + term.cursorY;
    // The input is near the cursor: look at the rows around it.
    let line = -1;
    for (
      let i = Math.max(0, cursorLine - term.rows);
      i < buf.length && i <= cursorLine + term.rows;
      i++
    ) {
      if (this.#renderer.rowElement(i) === row) {
        line = i;
        break;
      }
    }
    if (line < 0) return;
    const cell = this.#renderer.measureCell();
    const x = Math.max(
      0,
      Math.min(
        term.cols - 1,
        Math.floor((e.clientX - row.getBoundingClientRect().left) / cell.width),
      ),
    );
    this.update();
    const keys = this.clickMoveKeys(line, x);
    if (keys) this.#send(keys);
  };
}
