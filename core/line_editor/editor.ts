/**
 * The line editor's state and its readline/Emacs keys, pure and synchronous:
 * a string, a caret, a selection anchor, a kill ring, history recall and
 * incremental history search. The page feeds it keys (core/line_editor/keys.ts)
 * and acts on what each key returns (send bytes to the program, end editing).
 * Nothing here knows about the DOM or the PTY.
 *
 * @module
 */
import type { EditorKey } from "./keys.ts";

/**
 * The terminal's special characters as the PTY's termios reports them (one
 * character each; "" when disabled). The editor acts on these, not on
 * hard-coded Ctrl keys.
 */
export interface ControlChars {
  intr: string;
  quit: string;
  erase: string;
  kill: string;
  eof: string;
  susp: string;
}

/** The usual Linux defaults (^C ^\ DEL ^U ^D ^Z). */
export const DEFAULT_CONTROL_CHARS: ControlChars = {
  intr: "\x03",
  quit: "\x1c",
  erase: "\x7f",
  kill: "\x15",
  eof: "\x04",
  susp: "\x1a",
};

/** What one key did. */
export interface KeyResult {
  /** Bytes for the program (sent in this order, before anything else). */
  send?: string;
  /** A committed line (without its terminator), for the history. */
  commit?: string;
  /** Editing of this line is over: the window leaves line editing. */
  done?: boolean;
}

/** Incremental search state (Ctrl-R / Ctrl-S). */
export interface SearchState {
  query: string;
  /** Searching towards older entries (Ctrl-R) or newer ones (Ctrl-S). */
  backward: boolean;
  /** The history index of the current match, or -1 when nothing matches. */
  match: number;
  /** The query as it is now matches no entry (readline's "failed" search). */
  failed: boolean;
  /** The line being edited when the search started (Ctrl-G restores it). */
  saved: string;
  savedCaret: number;
}

const KILL_RING_MAX = 30;

/** True for characters that make up a word (letters, digits, underscore). */
function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}_]/u.test(ch);
}

/** The modifier number of a CSI key (`1;5D` -> 5), 1 when there is none. */
function csiModifier(params: string): number {
  const parts = params.split(";");
  return parts.length > 1 ? Number(parts[1]) || 1 : 1;
}

/** Names the editing keys the encoded bytes stand for. */
function keyName(key: EditorKey): string | null {
  if (key.kind === "ss3") {
    return ({ A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" })[
      key.final
    ] ?? null;
  }
  if (key.kind !== "csi") return null;
  const mod = csiModifier(key.params);
  const shift = (mod - 1) & 1 ? "shift+" : "";
  const ctrl = (mod - 1) & 4 || (mod - 1) & 2 ? "ctrl+" : "";
  const base = ({
    A: "up",
    B: "down",
    C: "right",
    D: "left",
    H: "home",
    F: "end",
  } as Record<string, string>)[key.final];
  if (base) return ctrl + shift + base;
  if (key.final === "~") {
    const n = key.params.split(";")[0];
    const tilde = ({
      "1": "home",
      "7": "home",
      "4": "end",
      "8": "end",
      "3": "delete",
    } as Record<string, string>)[n];
    if (tilde) return ctrl + shift + tilde;
  }
  return null;
}

/**
 * One line being edited locally. `text` and `caret` (a UTF-16 index) are the
 * state; `anchor` is the other end of the selection (equal to `caret` when
 * nothing is selected).
 */
export class LineEditor {
  text = "";
  caret = 0;
  anchor = 0;
  /** History entries, oldest first (shared with the other windows by the server). */
  history: string[] = [];
  /** Which entry is shown: `history.length` is the line being edited. */
  historyIndex = 0;
  /** The line being edited while an older entry is shown. */
  #draft = "";
  killRing: string[] = [];
  /** Set while an incremental search runs. */
  search: SearchState | null = null;
  /** The previous command was a kill (consecutive kills append). */
  #lastKill = false;

  constructor(
    public cc: ControlChars = DEFAULT_CONTROL_CHARS,
    history: string[] = [],
  ) {
    this.setHistory(history);
  }

  /** Replaces the history (e.g. the server's list for this program). */
  setHistory(entries: string[]): void {
    this.history = entries.slice();
    this.historyIndex = this.history.length;
  }

  /** Empties the line (the history position goes back to the end). */
  reset(): void {
    this.text = "";
    this.caret = this.anchor = 0;
    this.historyIndex = this.history.length;
    this.#draft = "";
    this.search = null;
    this.#lastKill = false;
  }

  /** The selected range [start, end), empty when nothing is selected. */
  selection(): [number, number] {
    return this.caret < this.anchor
      ? [this.caret, this.anchor]
      : [this.anchor, this.caret];
  }

  /** Places the caret (and the anchor, unless `extend`). */
  setCaret(pos: number, extend = false): void {
    this.caret = Math.max(0, Math.min(this.text.length, pos));
    if (!extend) this.anchor = this.caret;
  }

  /** Inserts text at the caret, replacing the selection. */
  insert(s: string): void {
    const [a, b] = this.selection();
    this.text = this.text.slice(0, a) + s + this.text.slice(b);
    this.caret = this.anchor = a + s.length;
  }

  /** Handles one key; see {@link KeyResult}. */
  key(key: EditorKey): KeyResult {
    const wasKill = this.#lastKill;
    this.#lastKill = false;
    if (this.search) {
      const r = this.#searchKey(key);
      if (r !== null) return r;
    }
    if (key.kind === "text") {
      this.insert(key.text);
      return {};
    }
    if (key.kind === "paste") {
      this.insert(key.text.replace(/\r\n?/g, "\n"));
      return {};
    }
    if (key.kind === "ctrl") return this.#ctrlKey(key.char, wasKill);
    if (key.kind === "alt") return this.#altKey(key.char, wasKill);
    return this.#namedKey(keyName(key));
  }

  /** Ctrl+`c` (a control character): the tty's characters, then Emacs keys. */
  #ctrlKey(c: string, wasKill: boolean): KeyResult {
    const cc = this.cc;
    // The tty's own characters first: they are what termios says.
    if (c === cc.intr || c === cc.quit || c === cc.susp) {
      // The tty would flush the pending line and signal the program.
      this.reset();
      return { send: c, done: true };
    }
    if (c === cc.eof) {
      if (this.text === "") return { send: c, done: true };
      this.#deleteForward();
      return {};
    }
    if (c === cc.erase || c === "\x08" || c === "\x7f") {
      this.#deleteBackward();
      return {};
    }
    if (c === cc.kill) {
      this.#kill(0, this.caret, wasKill, true);
      return {};
    }
    switch (c) {
      case "\r":
      case "\n":
        return this.#commit(c);
      case "\x01":
        this.setCaret(this.#lineStart());
        return {};
      case "\x05":
        this.setCaret(this.#lineEnd());
        return {};
      case "\x02":
        this.#move(-1);
        return {};
      case "\x06":
        this.#move(1);
        return {};
      case "\x0b":
        this.#kill(this.caret, this.#lineEnd(), wasKill, false);
        return {};
      case "\x15":
        this.#kill(this.#lineStart(), this.caret, wasKill, true);
        return {};
      case "\x17":
        this.#kill(this.#spaceWordStart(), this.caret, wasKill, true);
        return {};
      case "\x19":
        if (this.killRing.length > 0) {
          this.insert(this.killRing[this.killRing.length - 1]);
        }
        return {};
      case "\x10":
        this.#historyMove(-1);
        return {};
      case "\x0e":
        this.#historyMove(1);
        return {};
      case "\x12":
      case "\x13":
        this.#startSearch(c === "\x12");
        return {};
      case "\x07":
        this.setCaret(this.caret);
        return {};
      case "\t":
        this.insert("\t");
        return {};
      case "\x04":
        this.#deleteForward();
        return {};
    }
    return {};
  }

  /** Alt+`c`: word motion and kills, a newline, history ends. */
  #altKey(c: string, wasKill: boolean): KeyResult {
    switch (c) {
      case "b":
      case "B":
        this.setCaret(this.#wordStart(this.caret));
        return {};
      case "f":
      case "F":
        this.setCaret(this.#wordEnd(this.caret));
        return {};
      case "d":
      case "D":
        this.#kill(this.caret, this.#wordEnd(this.caret), wasKill, false);
        return {};
      case "\x7f":
      case "\x08":
        this.#kill(this.#wordStart(this.caret), this.caret, wasKill, true);
        return {};
      case "\r":
      case "\n":
        this.insert("\n");
        return {};
      case "<":
        this.#historyGo(0);
        return {};
      case ">":
        this.#historyGo(this.history.length);
        return {};
    }
    return {};
  }

  /** A named key (arrows, Home, End, Delete, with modifiers). */
  #namedKey(name: string | null): KeyResult {
    switch (name) {
      case "left":
        this.#move(-1);
        return {};
      case "right":
        this.#move(1);
        return {};
      case "shift+left":
        this.setCaret(this.caret - this.#charLenBefore(), true);
        return {};
      case "shift+right":
        this.setCaret(this.caret + this.#charLenAt(), true);
        return {};
      case "ctrl+left":
        this.setCaret(this.#wordStart(this.caret));
        return {};
      case "ctrl+right":
        this.setCaret(this.#wordEnd(this.caret));
        return {};
      case "ctrl+shift+left":
        this.setCaret(this.#wordStart(this.caret), true);
        return {};
      case "ctrl+shift+right":
        this.setCaret(this.#wordEnd(this.caret), true);
        return {};
      case "home":
      case "ctrl+home":
        this.setCaret(this.#lineStart());
        return {};
      case "end":
      case "ctrl+end":
        this.setCaret(this.#lineEnd());
        return {};
      case "shift+home":
        this.setCaret(this.#lineStart(), true);
        return {};
      case "shift+end":
        this.setCaret(this.#lineEnd(), true);
        return {};
      case "delete":
        this.#deleteForward();
        return {};
      case "up":
        if (this.#lineStart() > 0) this.#verticalMove(-1);
        else this.#historyMove(-1);
        return {};
      case "down":
        if (this.#lineEnd() < this.text.length) this.#verticalMove(1);
        else this.#historyMove(1);
        return {};
    }
    return {};
  }

  #commit(terminator: string): KeyResult {
    const line = this.text;
    this.reset();
    return { send: line + terminator, commit: line, done: true };
  }

  #charLenBefore(): number {
    if (this.caret === 0) return 0;
    const c = this.text.charCodeAt(this.caret - 1);
    return c >= 0xdc00 && c <= 0xdfff && this.caret >= 2 ? 2 : 1;
  }

  #charLenAt(): number {
    if (this.caret >= this.text.length) return 0;
    const c = this.text.charCodeAt(this.caret);
    return c >= 0xd800 && c <= 0xdbff ? 2 : 1;
  }

  #move(dir: -1 | 1): void {
    const [a, b] = this.selection();
    if (a !== b) {
      // Like a text field: an arrow collapses the selection to that side.
      this.setCaret(dir < 0 ? a : b);
      return;
    }
    this.setCaret(
      this.caret + (dir < 0 ? -this.#charLenBefore() : this.#charLenAt()),
    );
  }

  #deleteBackward(): void {
    const [a, b] = this.selection();
    if (a !== b) this.insert("");
    else {
      const n = this.#charLenBefore();
      this.text = this.text.slice(0, this.caret - n) +
        this.text.slice(this.caret);
      this.setCaret(this.caret - n);
    }
  }

  #deleteForward(): void {
    const [a, b] = this.selection();
    if (a !== b) this.insert("");
    else {
      const n = this.#charLenAt();
      this.text = this.text.slice(0, this.caret) +
        this.text.slice(this.caret + n);
      this.setCaret(this.caret);
    }
  }

  /** Start of the caret's line within a multi-line input. */
  #lineStart(): number {
    return this.text.lastIndexOf("\n", this.caret - 1) + 1;
  }

  #lineEnd(): number {
    const i = this.text.indexOf("\n", this.caret);
    return i < 0 ? this.text.length : i;
  }

  #verticalMove(dir: -1 | 1): void {
    const start = this.#lineStart();
    const col = this.caret - start;
    if (dir < 0) {
      const prevEnd = start - 1;
      const prevStart = this.text.lastIndexOf("\n", prevEnd - 1) + 1;
      this.setCaret(Math.min(prevStart + col, prevEnd));
    } else {
      const end = this.#lineEnd();
      const nextStart = end + 1;
      let nextEnd = this.text.indexOf("\n", nextStart);
      if (nextEnd < 0) nextEnd = this.text.length;
      this.setCaret(Math.min(nextStart + col, nextEnd));
    }
  }

  /** Start of the word before `pos` (Alt-B, Ctrl+Left). */
  #wordStart(pos: number): number {
    let i = pos;
    while (i > 0 && !isWordChar(this.text[i - 1])) i--;
    while (i > 0 && isWordChar(this.text[i - 1])) i--;
    return i;
  }

  /** End of the word after `pos` (Alt-F, Ctrl+Right). */
  #wordEnd(pos: number): number {
    let i = pos;
    while (i < this.text.length && !isWordChar(this.text[i])) i++;
    while (i < this.text.length && isWordChar(this.text[i])) i++;
    return i;
  }

  /** Start of the whitespace-delimited word before the caret (Ctrl-W). */
  #spaceWordStart(): number {
    let i = this.caret;
    while (i > 0 && /\s/.test(this.text[i - 1])) i--;
    while (i > 0 && !/\s/.test(this.text[i - 1])) i--;
    return i;
  }

  /** Removes [a, b) into the kill ring; consecutive kills join into one entry. */
  #kill(a: number, b: number, append: boolean, backward: boolean): void {
    if (a >= b) {
      this.#lastKill = append;
      return;
    }
    const cut = this.text.slice(a, b);
    this.text = this.text.slice(0, a) + this.text.slice(b);
    this.setCaret(a);
    if (append && this.killRing.length > 0) {
      const last = this.killRing.length - 1;
      this.killRing[last] = backward
        ? cut + this.killRing[last]
        : this.killRing[last] + cut;
    } else {
      this.killRing.push(cut);
      if (this.killRing.length > KILL_RING_MAX) this.killRing.shift();
    }
    this.#lastKill = true;
  }

  #historyGo(index: number): void {
    if (index < 0 || index > this.history.length) return;
    if (this.historyIndex === this.history.length) this.#draft = this.text;
    this.historyIndex = index;
    this.text = index === this.history.length
      ? this.#draft
      : this.history[index];
    this.setCaret(this.text.length);
  }

  #historyMove(dir: -1 | 1): void {
    this.#historyGo(this.historyIndex + dir);
  }

  #startSearch(backward: boolean): void {
    if (this.search) {
      // Ctrl-R again: the next match in that direction (the last query if empty).
      this.search.backward = backward;
      this.#searchFrom(this.search.match + (backward ? -1 : 1));
      return;
    }
    this.search = {
      query: "",
      backward,
      match: -1,
      failed: false,
      saved: this.text,
      savedCaret: this.caret,
    };
  }

  /** Finds the query at or beyond history index `from` in the search's direction. */
  #searchFrom(from: number): void {
    const s = this.search!;
    s.failed = false;
    if (s.query === "") return;
    const found = findInHistory(this.history, s.query, from, s.backward);
    s.failed = found < 0;
    if (found >= 0) {
      s.match = found;
      this.historyIndex = found;
      this.text = this.history[found];
      this.setCaret(this.text.indexOf(s.query));
    }
  }

  /**
   * A key during incremental search: text extends the query, Backspace
   * shortens it, Ctrl-R/Ctrl-S step, Ctrl-G restores the line; any other key
   * accepts the match and then acts as usual (null: go on with it).
   */
  #searchKey(key: EditorKey): KeyResult | null {
    const s = this.search!;
    if (key.kind === "text") {
      s.query += key.text;
      const start = s.match >= 0
        ? s.match
        : (s.backward ? this.history.length - 1 : 0);
      this.#searchFrom(start);
      return {};
    }
    if (key.kind === "ctrl") {
      if (key.char === "\x12" || key.char === "\x13") return null;
      if (key.char === "\x7f" || key.char === "\x08") {
        s.query = s.query.slice(0, -1);
        if (s.query === "") {
          s.match = -1;
          s.failed = false;
        } else {
          this.#searchFrom(s.backward ? this.history.length - 1 : 0);
        }
        return {};
      }
      if (key.char === "\x07") {
        this.text = s.saved;
        this.setCaret(s.savedCaret);
        this.historyIndex = this.history.length;
        this.search = null;
        return {};
      }
    }
    // Any other key accepts what was found and then acts normally.
    this.search = null;
    if (key.kind === "alt" && key.char === "\x1b") return {};
    if (key.kind === "ctrl" && key.char === "\x1b") return {};
    return null;
  }
}

/**
 * Index of the nearest history entry containing `query`, starting at `from`
 * and going towards older (`backward`) or newer entries; -1 if none.
 */
export function findInHistory(
  history: readonly string[],
  query: string,
  from: number,
  backward: boolean,
): number {
  if (backward) {
    for (let i = Math.min(from, history.length - 1); i >= 0; i--) {
      if (history[i].includes(query)) return i;
    }
  } else {
    for (let i = Math.max(from, 0); i < history.length; i++) {
      if (history[i].includes(query)) return i;
    }
  }
  return -1;
}

/**
 * Appends a line to a history list: empty lines and a repeat of the last
 * entry are not added; the oldest entries go beyond `cap`.
 */
export function addToHistory(
  history: string[],
  line: string,
  cap: number,
): string[] {
  if (line.trim() === "" || history[history.length - 1] === line) {
    return history;
  }
  const next = history.concat(line);
  return next.length > cap ? next.slice(next.length - cap) : next;
}
