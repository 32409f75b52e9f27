/**
 * Shell integration sequences -> marks on lines.
 *
 * Semantic prompts (OSC 133, VS Code's OSC 633, iTerm2's OSC 1337 SetMark
 * and CurrentDir) and DomTerm's own `CSI Ps u` and OSC 119/120/121 put a
 * {@link LineMark} on the cursor's line at the cursor's column. Nothing
 * here interprets the marks as commands: `core/model/command_groups.ts`
 * derives prompt / input / output groups from them, so the marks survive
 * reflow (they live in `Line.extras.marks`) and the groups follow.
 *
 * Mark kinds written here:
 *
 * | kind | from |
 * |---|---|
 * | `prompt-start` | 133 A, 633 A, `CSI 14 u` (attrs: aid, cl, k...) |
 * | `prompt` | 133 P, 133 A with k=s/c/r (a secondary prompt: no new group) |
 * | `prompt-end` | `CSI 13 u`, `CSI 18 u` (attrs: select=skip) |
 * | `input-start` | 133 B, 133 I, 633 B, `CSI 15 u` (attrs: mode) |
 * | `output-start` | 133 C, 633 C |
 * | `end` | 133 D, 633 D, and 133 N before its prompt (attrs: exit, aid) |
 * | `command-line` | 633 E (attrs: cmd) |
 * | `property` | 633 P (attrs: the key=value pairs) |
 * | `user-mark` | 1337 SetMark |
 * | `cwd` | 1337 CurrentDir= (attrs: dir) |
 * | `group-start` / `group-push` / `group-pop` | OSC 119 / 120 / 121 (attrs: id) |
 * | `fold-button-start` / `fold-button-end` | `CSI 16 u` / `CSI 17 u` |
 * | `fold-start` / `fold-end` | `CSI 83;1 u`, `CSI 83;2 u` (attrs: hidden=1) / `CSI 83;0 u` |
 *
 * Stale marks: a program may redraw over old marks (a prompt redrawn in
 * place, `clear` blanking the screen in place). When a mark is written,
 * marks to its right on the same line are dropped (the cursor came back
 * over them), and a new group (`prompt-start`, `group-start`) drops every
 * mark below it on the screen and any earlier prompt or input mark at its
 * own column: a new prompt starts the interesting part of the screen.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator, ShellMarksHost } from "./context.ts";
import { pagerCsiU } from "./pager.ts";
import { restoreCursor } from "./cursor.ts";
import type { LineMark } from "../model/line_extras.ts";
import type { Line } from "../model/line.ts";

/** Longest accepted value of one mark parameter (longer ones are cut). */
export const MAX_MARK_VALUE = 4096;
/** Most parameters kept from one sequence. */
export const MAX_MARK_ATTRS = 16;
/** Most marks kept on one line (a flood of marks on one line is dropped). */
export const MAX_MARKS_PER_LINE = 64;

/** Kinds that start a new command group (and make marks below them stale). */
const GROUP_STARTS = new Set(["prompt-start", "group-start"]);
/** Kinds an earlier copy of which at the same column a new group replaces. */
const REPLACED_BY_GROUP = new Set([
  "prompt-start",
  "prompt",
  "prompt-end",
  "input-start",
]);

/**
 * Parse `key=value;key=value` parameters (the parts after the command
 * letter). A part without `=` is kept under its position (`"0"`, `"1"`...).
 */
export function parseMarkParams(parts: string[]): Record<string, string> {
  const attrs: Record<string, string> = {};
  let n = 0;
  for (let i = 0; i < parts.length && n < MAX_MARK_ATTRS; i++) {
    const p = parts[i];
    if (p === "") continue;
    const eq = p.indexOf("=");
    const key = eq < 0 ? String(i) : p.slice(0, eq);
    const value = eq < 0 ? p : p.slice(eq + 1);
    if (key === "" || key.length > 64) continue;
    // Own property names only: "__proto__" would not become a key.
    Object.defineProperty(attrs, key, {
      value: value.slice(0, MAX_MARK_VALUE),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    n++;
  }
  return attrs;
}

/** Put mark `kind` at the cursor, dropping marks that it makes stale. */
export function addMark(
  host: ShellMarksHost,
  kind: string,
  attrs?: Record<string, string>,
): void {
  const line = host.cursorLine();
  const x = host.cursorX();
  const startsGroup = GROUP_STARTS.has(kind);
  const old = line.extras?.marks ?? [];
  const kept = old.filter((m) =>
    m.x < x ||
    (m.x === x && !(startsGroup && REPLACED_BY_GROUP.has(m.kind)) &&
      !(m.kind === kind && sameAttrs(m.attrs, attrs)))
  );
  if (kept.length >= MAX_MARKS_PER_LINE) return;
  const mark: LineMark = { x, kind };
  if (attrs && Object.keys(attrs).length > 0) mark.attrs = attrs;
  kept.push(mark);
  line.extras ??= {};
  line.extras.marks = kept;
  line.dirty = true;
  if (startsGroup) {
    for (const below of host.linesBelowCursor()) clearMarks(below);
  }
  host.marksChanged();
}

function sameAttrs(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
): boolean {
  const ka = a ? Object.keys(a) : [], kb = b ? Object.keys(b) : [];
  return ka.length === kb.length && ka.every((k) => a![k] === b?.[k]);
}

/** Remove every mark of `line`. */
export function clearMarks(line: Line): void {
  if (!line.extras?.marks) return;
  delete line.extras.marks;
  line.dirty = true;
}

/** Prompt kinds that continue the current prompt instead of starting a group. */
const SECONDARY_PROMPT = new Set(["s", "c", "r"]);

/** OSC 133 (FinalTerm / semantic prompts). */
export function osc133(host: ShellMarksHost, args: string): void {
  const parts = args.split(";");
  const cmd = parts[0];
  const attrs = parseMarkParams(parts.slice(1));
  switch (cmd) {
    case "L":
      host.freshLine();
      break;
    case "A":
      host.freshLine();
      if (attrs.k !== undefined && SECONDARY_PROMPT.has(attrs.k)) {
        addMark(host, "prompt", attrs);
      } else addMark(host, "prompt-start", attrs);
      break;
    case "N": {
      host.freshLine();
      addMark(host, "end", attrs.aid !== undefined ? { aid: attrs.aid } : {});
      addMark(host, "prompt-start", attrs);
      break;
    }
    case "P":
      addMark(host, "prompt", attrs);
      break;
    case "B":
    case "I":
      addMark(host, "input-start", attrs);
      break;
    case "C":
      addMark(host, "output-start", attrs);
      break;
    case "D":
      addMark(host, "end", exitAttrs(parts.slice(1)));
      break;
  }
}

/** `D;exit;k=v...`: the first positional parameter is the exit code. */
function exitAttrs(parts: string[]): Record<string, string> {
  const attrs = parseMarkParams(
    parts.slice(1).map((p) =>
      // Only key=value after the exit code.
      p.includes("=") ? p : ""
    ),
  );
  if (parts.length > 0 && /^-?\d{1,10}$/.test(parts[0])) {
    attrs.exit = String(parseInt(parts[0], 10));
  }
  return attrs;
}

/** Undo VS Code's `\\` and `\xAB` escapes in OSC 633 values. */
export function unescape633(s: string): string {
  return s.replace(
    /\\(\\|x[0-9a-fA-F]{2})/g,
    (_, e: string) =>
      e === "\\" ? "\\" : String.fromCharCode(parseInt(e.slice(1), 16)),
  );
}

/** OSC 633 (VS Code's shell integration). */
export function osc633(host: ShellMarksHost, args: string): void {
  const parts = args.split(";");
  switch (parts[0]) {
    case "A":
      host.freshLine();
      addMark(host, "prompt-start");
      break;
    case "B":
      addMark(host, "input-start");
      break;
    case "C":
      addMark(host, "output-start");
      break;
    case "D":
      addMark(host, "end", exitAttrs(parts.slice(1)));
      break;
    case "E": {
      const attrs: Record<string, string> = {
        cmd: unescape633(parts[1] ?? "").slice(0, MAX_MARK_VALUE),
      };
      addMark(host, "command-line", attrs);
      break;
    }
    case "P": {
      const attrs = parseMarkParams(parts.slice(1).map(unescape633));
      addMark(host, "property", attrs);
      break;
    }
  }
}

/**
 * The shell-integration part of OSC 1337 (SetMark, CurrentDir=). Returns
 * false for anything else (File=, ...), which belongs to other handlers.
 */
export function osc1337(host: ShellMarksHost, args: string): boolean {
  if (args === "SetMark") {
    addMark(host, "user-mark");
    return true;
  }
  if (args.startsWith("CurrentDir=")) {
    addMark(host, "cwd", {
      dir: args.slice("CurrentDir=".length).slice(0, MAX_MARK_VALUE),
    });
    return true;
  }
  return false;
}

/** DomTerm's OSC 119 / 120 / 121: new group, push child level, pop it. */
export function oscGroup(
  host: ShellMarksHost,
  code: 119 | 120 | 121,
  args: string,
): void {
  const kind = code === 119
    ? "group-start"
    : code === 120
    ? "group-push"
    : "group-pop";
  const id = args.slice(0, MAX_MARK_VALUE);
  addMark(host, kind, id === "" ? {} : { id });
}

/**
 * DomTerm's `CSI Ps u` (with or without further parameters). Returns
 * false for numbers that are not shell-integration ones, so the caller
 * can give them to other handlers.
 */
export function domtermCsiU(host: ShellMarksHost, params: Params): boolean {
  switch (params.get(0, 0)) {
    case 11:
      host.setErrorOutput(false);
      return true;
    case 12:
      host.setErrorOutput(true);
      return true;
    case 13:
      addMark(host, "prompt-end");
      return true;
    case 14:
      addMark(host, "prompt-start");
      return true;
    case 15: {
      const mode = params.length > 1 ? params.get(1, 0) : -1;
      addMark(
        host,
        "input-start",
        mode >= 0 && mode <= 2 ? { mode: String(mode) } : {},
      );
      return true;
    }
    case 16:
      addMark(host, "fold-button-start");
      return true;
    case 17:
      addMark(host, "fold-button-end");
      return true;
    case 18:
      addMark(host, "prompt-end", { select: "skip" });
      return true;
    case 20:
      host.freshLine();
      return true;
    case 83:
      switch (params.get(1, -1)) {
        case 0:
          addMark(host, "fold-end");
          return true;
        case 1:
          addMark(host, "fold-start");
          return true;
        case 2:
          addMark(host, "fold-start", { hidden: "1" });
          return true;
      }
      return false;
  }
  return false;
}

/** `OSC 133 ; A|B|C|D|... [; params]`: semantic prompt marks (FinalTerm, iTerm2, kitty). */
export function semanticPrompt(t: Emulator, args: string): void {
  osc133(t.marks, args);
  commandEvent(t, args);
}

/** Report a command's start (C) and end (D; exit status) to the embedder. */
function commandEvent(t: Emulator, args: string): void {
  const c = args.charAt(0);
  if (args.length > 1 && args.charAt(1) !== ";") return;
  if (c === "C") t.emit({ type: "command", phase: "start", exit: null });
  else if (c === "D") {
    const code = args.split(";")[1] ?? "";
    t.emit({
      type: "command",
      phase: "end",
      exit: /^-?\d{1,10}$/.test(code) ? parseInt(code, 10) : null,
    });
  }
}
/** `OSC 633 ; A|B|C|D|E|P ...`: VS Code's shell integration marks. */
export function vscodeMarks(t: Emulator, args: string): void {
  osc633(t.marks, args);
  commandEvent(t, args);
}
/** `OSC 119 ; id`: DomTerm: start a new group. */
export function groupStart(t: Emulator, args: string): void {
  oscGroup(t.marks, 119, args);
}
/** `OSC 120 ; id`: DomTerm: push a child group level. */
export function groupPush(t: Emulator, args: string): void {
  oscGroup(t.marks, 120, args);
}
/** `OSC 121 ; id`: DomTerm: pop a group level. */
export function groupPop(t: Emulator, args: string): void {
  oscGroup(t.marks, 121, args);
}
/**
 * `CSI u` SCORC (without parameters); `CSI Ps u`: DomTerm's
 * shell-integration numbers (11-20, 83) and its pager switch (92, see
 * pager.ts).
 */
export function csiU(t: Emulator, p: Params): void {
  if (p.length === 0) restoreCursor(t.s);
  else if (p.get(0, 0) === 80) {
    // DomTerm's input mode request: CSI 80 ; 97|99|108|112 u.
    const mode = INPUT_MODE_CODES[p.get(1, 0)];
    if (mode) t.emit({ type: "input-mode", mode });
  } else if (!pagerCsiU(t, p)) domtermCsiU(t.marks, p);
}

/** `CSI 80 ; N u`: N is the mode's letter ('a', 'c', 'l', 'p'). */
const INPUT_MODE_CODES: Record<number, "auto" | "char" | "line" | "pipe"> = {
  97: "auto",
  99: "char",
  108: "line",
  112: "pipe",
};
