/**
 * Command groups: prompt, input, output and exit status of each command,
 * derived from the shell-integration marks on a buffer's lines (see
 * `core/emulator/shell_marks.ts` for the mark kinds). Pure: the marks stay
 * the only state, so reflow, scrollback trimming and redraws need no
 * bookkeeping here; a view derives the groups again when the marks change.
 *
 * Nesting: a program started from the shell that marks its own prompts
 * (a REPL, a nested shell) gets groups inside the output of the shell's
 * command. A new prompt while the innermost open group is running (has
 * output and no end) starts a child group when its application id
 * (`aid=`) differs from that group's; with the same id (both absent
 * included) it ends that group and starts a sibling. An end mark (`D`)
 * with an `aid` ends the innermost open group with that id and everything
 * inside it; without one, the innermost running group. DomTerm's OSC 120 /
 * 121 push and pop a level explicitly: groups started after a push are
 * children of the group that was current, and a pop ends them.
 *
 * @module
 */
import type { LineMark } from "./line_extras.ts";
import type { Line } from "./line.ts";

/** The lines a derivation reads (a `BufferView` fits). */
export interface LineSource {
  readonly length: number;
  getLine(i: number): Line;
}

/** Where a mark is: line index in the buffer and column. */
export interface MarkPos {
  line: number;
  x: number;
}

/** One command: its prompt, input, output and how it ended. */
export interface CommandGroup {
  /** Position in the list returned by {@link deriveCommandGroups}. */
  index: number;
  /** The enclosing group (whose output this group is part of), or null. */
  parent: CommandGroup | null;
  children: CommandGroup[];
  /** 0 for top-level groups. */
  depth: number;
  /** Application id (`aid=` of OSC 133 A, id of OSC 119), or null. */
  aid: string | null;
  /** The mark that started the group (stable identity for view state). */
  startMark: LineMark;
  start: MarkPos;
  /** Start of the prompt, or null (a group started by OSC 119 without one yet). */
  prompt: MarkPos | null;
  /** End of the prompt / start of the input, or null. */
  input: MarkPos | null;
  /** Start of the output (the command ran), or null. */
  output: MarkPos | null;
  /** Where the group ended (its end mark or the next group's start); null while open. */
  end: MarkPos | null;
  /** True when an end mark (OSC 133 D...) ended it, false when implied. */
  ended: boolean;
  /** Exit status from the end mark, or null when not given. */
  exitCode: number | null;
  /** The prompt's `cl=` (how clicks may move the cursor), or null. */
  clickMove: string | null;
  /** The command line reported by OSC 633 E, or null. */
  commandLine: string | null;
  /** The working directory reported before the group started, or null. */
  cwd: string | null;
}

/** A foldable span (DomTerm's `CSI 16 u` button and `CSI 83;1/2 u` span). */
export interface FoldSpan {
  /** The button's first mark (stable identity for view state). */
  buttonMark: LineMark;
  /** Button: from its start mark to its end mark (the 1-2 chars between). */
  button: MarkPos;
  buttonEnd: MarkPos | null;
  /** Span: from its start mark to its end mark (null: not ended yet). */
  start: MarkPos;
  end: MarkPos | null;
  /** The span starts hidden (`CSI 83;2 u`). */
  initiallyHidden: boolean;
}

/** Everything derived from a buffer's marks. */
export interface DerivedMarks {
  groups: CommandGroup[];
  folds: FoldSpan[];
  /** OSC 1337 SetMark positions. */
  userMarks: MarkPos[];
}

interface State {
  groups: CommandGroup[];
  /** Open groups, innermost last. */
  open: CommandGroup[];
  /** Push levels (OSC 120): the number of open groups below each level. */
  floors: number[];
  cwd: string | null;
}

function floor(s: State): number {
  return s.floors.length > 0 ? s.floors[s.floors.length - 1] : 0;
}

/** End open groups from the innermost down to index `k` of `s.open`. */
function closeFrom(s: State, k: number, at: MarkPos): void {
  while (s.open.length > k) {
    const g = s.open.pop()!;
    g.end = at;
  }
}

function startGroup(
  s: State,
  mark: LineMark,
  at: MarkPos,
  aid: string | null,
  prompt: boolean,
): CommandGroup {
  const f = floor(s);
  // A group of the same application ends where the new one starts.
  let same = -1;
  if (aid !== null) {
    for (let k = s.open.length - 1; k >= f; k--) {
      if (s.open[k].aid === aid) {
        same = k;
        break;
      }
    }
  }
  if (same >= 0) closeFrom(s, same, at);
  else {
    // Close finished or idle groups until one is running another program.
    while (s.open.length > f) {
      const top = s.open[s.open.length - 1];
      if (top.output !== null && top.aid !== aid) break;
      closeFrom(s, s.open.length - 1, at);
    }
  }
  const parent = s.open.length > 0 ? s.open[s.open.length - 1] : null;
  const g: CommandGroup = {
    index: s.groups.length,
    parent,
    children: [],
    depth: parent ? parent.depth + 1 : 0,
    aid,
    startMark: mark,
    start: at,
    prompt: prompt ? at : null,
    input: null,
    output: null,
    end: null,
    ended: false,
    exitCode: null,
    clickMove: mark.attrs?.cl ?? null,
    commandLine: null,
    cwd: s.cwd,
  };
  parent?.children.push(g);
  s.groups.push(g);
  s.open.push(g);
  return g;
}

function top(s: State): CommandGroup | null {
  return s.open.length > floor(s) ? s.open[s.open.length - 1] : null;
}

function endGroup(s: State, mark: LineMark, at: MarkPos): void {
  const f = floor(s);
  const aid = mark.attrs?.aid;
  let k = -1;
  if (aid !== undefined) {
    for (let i = s.open.length - 1; i >= f; i--) {
      if (s.open[i].aid === aid) {
        k = i;
        break;
      }
    }
  }
  if (k < 0) {
    for (let i = s.open.length - 1; i >= f; i--) {
      if (s.open[i].output !== null) {
        k = i;
        break;
      }
    }
  }
  if (k < 0) k = s.open.length - 1;
  if (k < f) return;
  const g = s.open[k];
  closeFrom(s, k, at);
  g.ended = true;
  const exit = mark.attrs?.exit;
  g.exitCode = exit !== undefined && /^-?\d+$/.test(exit)
    ? parseInt(exit, 10)
    : null;
}

function apply(s: State, d: DerivedMarks, mark: LineMark, at: MarkPos) {
  const attrs = mark.attrs;
  switch (mark.kind) {
    case "group-start":
      startGroup(s, mark, at, attrs?.id ?? null, false);
      break;
    case "prompt-start": {
      const t = top(s);
      if (t && t.prompt === null && t.input === null && t.output === null) {
        // The prompt of a group that OSC 119 started.
        t.prompt = at;
        t.clickMove = attrs?.cl ?? t.clickMove;
      } else startGroup(s, mark, at, attrs?.aid ?? null, true);
      break;
    }
    case "prompt":
      if (!top(s)) startGroup(s, mark, at, attrs?.aid ?? null, true);
      break;
    case "prompt-end":
    case "input-start": {
      const t = top(s);
      if (t && t.output === null) t.input = at;
      break;
    }
    case "output-start": {
      const t = top(s);
      if (t && t.output === null) t.output = at;
      break;
    }
    case "end":
      endGroup(s, mark, at);
      break;
    case "command-line": {
      const t = top(s);
      if (t) t.commandLine = attrs?.cmd ?? null;
      break;
    }
    case "cwd":
      if (attrs?.dir) s.cwd = attrs.dir;
      break;
    case "property":
      if (attrs?.Cwd) s.cwd = attrs.Cwd;
      break;
    case "group-push":
      s.floors.push(s.open.length);
      break;
    case "group-pop":
      if (s.floors.length > 0) closeFrom(s, s.floors.pop()!, at);
      break;
    case "user-mark":
      d.userMarks.push(at);
      break;
    case "fold-button-start":
      d.folds.push({
        buttonMark: mark,
        button: at,
        buttonEnd: null,
        start: at,
        end: null,
        initiallyHidden: false,
      });
      break;
    case "fold-button-end": {
      const f = d.folds[d.folds.length - 1];
      if (f && f.buttonEnd === null) {
        f.buttonEnd = at;
        f.start = at;
      }
      break;
    }
    case "fold-start": {
      // The nearest preceding button controls the span.
      const f = d.folds[d.folds.length - 1];
      if (f && f.end === null) {
        f.start = at;
        f.initiallyHidden = attrs?.hidden === "1";
      }
      break;
    }
    case "fold-end": {
      for (let i = d.folds.length - 1; i >= 0; i--) {
        if (d.folds[i].end === null) {
          d.folds[i].end = at;
          break;
        }
      }
      break;
    }
  }
}

/**
 * The command groups, fold spans and user marks of lines
 * `[0, src.length)`, in order. Marks of one line are taken in the order
 * they were written.
 */
export function deriveMarks(src: LineSource): DerivedMarks {
  const d: DerivedMarks = { groups: [], folds: [], userMarks: [] };
  const s: State = { groups: d.groups, open: [], floors: [], cwd: null };
  const n = src.length;
  for (let i = 0; i < n; i++) {
    const marks = src.getLine(i).extras?.marks;
    if (!marks) continue;
    for (const m of marks) apply(s, d, m, { line: i, x: m.x });
  }
  return d;
}

/** The command groups of `src` (see {@link deriveMarks}). */
export function deriveCommandGroups(src: LineSource): CommandGroup[] {
  return deriveMarks(src).groups;
}

/**
 * The whole lines that hold a finished group's output, as `[first, end)`,
 * or null when it has none (not run, still running, or no full line).
 * A line shared with the input (output started mid-line) or with the next
 * prompt is not included.
 */
export function outputLines(
  g: CommandGroup,
): { first: number; end: number } | null {
  if (g.output === null || g.end === null) return null;
  const first = g.output.x === 0 ? g.output.line : g.output.line + 1;
  // An explicit end mid-line follows output without a final newline; the
  // next prompt (a fresh line) starts below it.
  const end = g.end.x === 0 || !g.ended ? g.end.line : g.end.line + 1;
  return end > first ? { first, end } : null;
}

/**
 * The lines a fold span covers, `[first, end)`: whole lines after the
 * button's line up to the span's end (to the end of the buffer while it
 * is open), or null when there are none.
 */
export function foldLines(
  f: FoldSpan,
  length: number,
): { first: number; end: number } | null {
  const first = Math.max(
    f.start.x === 0 ? f.start.line : f.start.line + 1,
    f.button.line + 1,
  );
  // A span that ends mid-line leaves that line shown (it holds more).
  const end = f.end === null ? length : f.end.line;
  return end > first ? { first, end } : null;
}

// ─── Folds made by hand ────────────────────────────────────────────────

/** Kinds of the marks a fold made by hand is kept on. */
export const FOLD_MARK_KINDS: ReadonlySet<string> = new Set([
  "group-start",
  "prompt-start",
  "prompt",
  "fold-button-start",
]);

/**
 * Names a mark across copies of the model (the server's and each window's):
 * its line as an absolute number (the buffer's `trimmed` plus its index,
 * which output and history trimming leave unchanged), its column and kind.
 */
export interface MarkRef {
  line: number;
  x: number;
  kind: string;
}

/** A buffer as {@link setMarkFolded} reads it (a `BufferView` fits). */
export interface MarkedLines extends LineSource {
  readonly trimmed: number;
}

/** The reference of `mark`, at line index `index` of `buf`. */
export function markRef(
  buf: MarkedLines,
  index: number,
  mark: LineMark,
): MarkRef {
  return { line: buf.trimmed + index, x: mark.x, kind: mark.kind };
}

/** The mark `ref` names in `buf` (one a fold may be kept on), or null. */
export function findFoldMark(
  buf: MarkedLines,
  ref: MarkRef,
): LineMark | null {
  if (!FOLD_MARK_KINDS.has(ref.kind)) return null;
  const i = ref.line - buf.trimmed;
  if (!Number.isSafeInteger(i) || i < 0 || i >= buf.length) return null;
  const marks = buf.getLine(i).extras?.marks;
  return marks?.find((m) => m.x === ref.x && m.kind === ref.kind) ?? null;
}

/**
 * Fold (`true`) or unfold the group or span whose mark `ref` names: the
 * flag {@link LineMark.folded}. Returns false when `buf` has no such mark
 * (trimmed away, or not there yet).
 */
export function setMarkFolded(
  buf: MarkedLines,
  ref: MarkRef,
  folded: boolean,
): boolean {
  const mark = findFoldMark(buf, ref);
  if (mark === null) return false;
  mark.folded = folded;
  return true;
}
