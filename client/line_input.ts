/**
 * The window's input modes (character, line, automatic, pipe) and the
 * ordering protocol of automatic mode (docs/input-modes.md). The key
 * handler's bytes come here instead of going to the socket:
 *
 * - character mode: straight to the program (binary frames).
 * - otherwise, while no line is being edited, each key goes to the server as
 *   a `key` message with a sequence number. The server writes it if the
 *   terminal is raw (automatic mode); else it hands it back (`edit`), and
 *   every later key too until this window's `line`. The first `edit` starts
 *   local editing; the keys still on their way come back in order and are
 *   edited before any key typed since (those wait in a queue).
 * - when the line ends (Enter, INTR, EOF...), `line` and then the bytes go
 *   out; keys handed back after that were never written and are sent again
 *   as keys, still before anything typed later.
 *
 * The editing itself is core/line_editor; drawing is client/line_editor_view.ts.
 *
 * @module
 */
import {
  DEFAULT_CONTROL_CHARS,
  type KeyResult,
  LineEditor,
} from "../core/line_editor/editor.ts";
import { keyBytes, splitKeys } from "../core/line_editor/keys.ts";
import type {
  ClientMessage,
  EditMessage,
  EditStateMessage,
  InputMode,
} from "../core/protocol.ts";
import { MAX_CONTROL_MESSAGE } from "../core/protocol.ts";

/** The input modes in the order Ctrl+Shift+L cycles through them. */
export const INPUT_MODES: readonly InputMode[] = [
  "auto",
  "char",
  "line",
  "pipe",
];

/** Human names of the modes (menu, mode note). */
export const INPUT_MODE_NAMES: Record<InputMode, string> = {
  auto: "Automatic",
  char: "Character",
  line: "Line",
  pipe: "Pipe",
};

/** Largest `key` message payload (text frames are capped at 64 KiB). */
const KEY_CHUNK = 16 * 1024;

/**
 * Characters of a large paste's `bulk` pieces sent and not yet answered
 * (`bulk-ack`). Small, so that an INTR typed during the paste waits behind
 * at most this much in the socket and the server (issue 31: with the whole
 * paste in the socket, Ctrl+C took 1-2 s to reach the server under load),
 * yet several pieces, so the program never waits for the next one.
 */
const BULK_WINDOW = 64 * 1024;

/**
 * `data` cut into pieces that fit a `key` message (within the text frame
 * cap once JSON-escaped, twice over for a paste's text), never inside a
 * surrogate pair.
 */
export function pieces(data: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < data.length;) {
    let n = Math.min(KEY_CHUNK, data.length - i);
    while (
      n > 1 &&
      JSON.stringify(data.slice(i, i + n)).length * 2 >
        MAX_CONTROL_MESSAGE - 200
    ) {
      n >>= 1;
    }
    const c = data.charCodeAt(i + n - 1);
    if (n > 1 && c >= 0xd800 && c <= 0xdbff) n--; // keep the pair whole
    out.push(data.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Input in order: key bytes, or a paste (its text, and its bytes for a raw program). */
interface Input {
  data: string;
  paste?: string;
}

const PASTE_START = "\x1b[200~";
const FOCUS_IN = "\x1b[I";
const FOCUS_OUT = "\x1b[O";
const PASTE_END = "\x1b[201~";

/** What the line input needs from the page. */
export interface LineInputHost {
  /** Bytes for the program (a binary frame). */
  sendBytes(data: string): void;
  /** A control message (`key`, `line`, `edit-state`). */
  sendMessage(msg: ClientMessage): void;
  /** The editor's line, caret, mask or mode changed: redraw. */
  changed(): void;
}

/** The window's side of line editing. */
export class LineInput {
  mode: InputMode = "auto";
  readonly editor = new LineEditor();
  /** A line is being edited locally. */
  editing = false;
  /** ECHO was off when editing started: the line is drawn masked and never stored. */
  masked = false;
  /** Another window's line, as relayed by the server (drawn read-only). */
  remote: EditStateMessage | null = null;
  /** Histories by program, as the server sent them. */
  readonly histories = new Map<string, string[]>();
  historyKey = "";

  #seq = 0;
  /** Keys up to this seq will come back from the server. */
  #backUpTo = 0;
  /** The last seq that came back. */
  #lastBack = 0;
  /** Keys coming back up to this seq arrived after their line ended: sent again. */
  #staleUpTo = 0;
  /** Keys typed while earlier ones are still on their way back. */
  #queue: Input[] = [];
  /** Pieces of a large paste not yet sent (automatic mode, `bulk`). */
  #bulk: string[] = [];
  /** `bulk` pieces sent and not yet answered: seq -> characters. */
  #bulkInFlight = new Map<number, number>();
  #bulkInFlightChars = 0;

  constructor(readonly host: LineInputHost) {}

  /** Bytes from the key handler (keys, paste, composed text). */
  input(data: string): void {
    if (data === "") return;
    if (data === FOCUS_IN || data === FOCUS_OUT) {
      // Focus reports (?1004) are not keys: never edited, never held back.
      this.host.sendBytes(data);
      return;
    }
    this.#input({ data });
  }

  /** A paste: `text` as pasted, `data` the bytes a raw program gets. */
  paste(text: string, data: string): void {
    if (text === "") return;
    this.#input({ data, paste: text });
  }

  #input(i: Input): void {
    if (this.mode === "char" && !this.editing) {
      this.host.sendBytes(i.data);
      return;
    }
    if (this.#bulk.length > 0 && this.#isSignal(i.data)) {
      // As a tty flushes its input queue on INTR: the rest of the paste,
      // and what was typed after it, never goes out; the key goes now.
      this.#bulk = [];
      this.#queue = [];
    }
    if (this.#waiting()) {
      this.#queue.push(i);
      return;
    }
    this.#process(i);
  }

  /** Switches the input mode (menu, Ctrl+Shift+L, CSI 80 u, `domterm input-mode`). */
  setMode(mode: InputMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    // Character mode: what is typed so far goes to the program as keys.
    if (mode === "char" && this.editing) this.#flushAsKeys();
    this.host.changed();
  }

  /** The next mode in {@link INPUT_MODES} (Ctrl+Shift+L). */
  cycleMode(): InputMode {
    const i = INPUT_MODES.indexOf(this.mode);
    this.setMode(INPUT_MODES[(i + 1) % INPUT_MODES.length]);
    return this.mode;
  }

  /** The server handed a key back: edit it. */
  onEdit(m: EditMessage): void {
    this.#lastBack = Math.max(this.#lastBack, m.seq);
    if (m.history) this.histories.set(m.historyKey, m.history);
    const i: Input = m.paste !== undefined
      ? { data: m.data, paste: m.paste }
      : { data: m.data };
    // A key whose line ended before it came back goes out again as a key.
    if (m.seq > this.#staleUpTo && !this.editing) this.#startEditing(m);
    this.#process(i);
    this.#drain();
  }

  /** The terminal went raw while this window was editing (automatic mode). */
  onRaw(): void {
    if (this.editing && this.mode === "auto") this.#flushAsKeys();
  }

  /** The server wrote (or dropped) the `bulk` piece `seq`: send more. */
  onBulkAck(seq: number): void {
    const n = this.#bulkInFlight.get(seq);
    if (n === undefined) return;
    this.#bulkInFlight.delete(seq);
    this.#bulkInFlightChars -= n;
    this.#pumpBulk();
  }

  /** A paste's pieces are still to be sent. */
  get pasting(): boolean {
    return this.#bulk.length > 0;
  }

  /**
   * The socket was replaced (reconnect): nothing is on its way back any
   * more, and the rest of a large paste is dropped (what of it reached the
   * program is unknown).
   */
  reset(): void {
    this.#backUpTo = this.#lastBack = this.#staleUpTo = this.#seq;
    this.#bulk = [];
    this.#bulkInFlight.clear();
    this.#bulkInFlightChars = 0;
    this.#drain();
  }

  /** Another window's editing state (relayed by the server). */
  onRemoteState(m: EditStateMessage): void {
    this.remote = m.text === null ? null : m;
    this.host.changed();
  }

  /** Places the caret (a click in the line); `extend` keeps the anchor. */
  setCaret(pos: number, extend = false): void {
    if (!this.editing) return;
    this.editor.setCaret(pos, extend);
    this.#edited();
  }

  #waiting(): boolean {
    return this.#lastBack < this.#backUpTo || this.#bulk.length > 0;
  }

  /** A lone INTR, QUIT or SUSP (the last control characters the server sent). */
  #isSignal(data: string): boolean {
    const cc = this.editor.cc;
    return data !== "" &&
      (data === cc.intr || data === cc.quit || data === cc.susp);
  }

  /** Sends a large paste's next pieces while fewer than {@link BULK_WINDOW} are unanswered. */
  #pumpBulk(): void {
    while (this.#bulk.length > 0 && this.#bulkInFlightChars < BULK_WINDOW) {
      const data = this.#bulk.shift()!;
      const seq = ++this.#seq;
      this.#bulkInFlight.set(seq, data.length);
      this.#bulkInFlightChars += data.length;
      this.host.sendMessage({ type: "key", seq, data, bulk: true });
    }
    // Keys typed during the paste go after it.
    if (this.#bulk.length === 0) this.#drain();
  }

  #drain(): void {
    while (this.#queue.length > 0 && !this.#waiting()) {
      this.#process(this.#queue.shift()!);
    }
  }

  #startEditing(m: EditMessage): void {
    this.editing = true;
    this.#backUpTo = Math.max(this.#backUpTo, this.#seq);
    this.masked = !m.echo;
    this.historyKey = m.historyKey;
    this.editor.cc = { ...DEFAULT_CONTROL_CHARS, ...m.cc };
    this.editor.reset();
    // No history while typing a password (nor recalled into one).
    this.editor.setHistory(
      this.masked ? [] : this.histories.get(m.historyKey) ?? [],
    );
  }

  #process(input: Input): void {
    const { data, paste } = input;
    if (!this.editing) {
      if (this.mode === "char") {
        this.host.sendBytes(data);
        return;
      }
      const force = this.mode === "auto" ? {} : { force: true };
      if (paste !== undefined) {
        const msg: ClientMessage = {
          type: "key",
          seq: this.#seq + 1,
          data,
          paste,
          ...force,
        };
        if (JSON.stringify(msg).length <= MAX_CONTROL_MESSAGE) {
          this.#seq++;
          this.host.sendMessage(msg);
          return;
        }
        this.#sendLargePaste(data, paste);
        return;
      }
      // Within the text frame cap: pieces.
      for (const piece of pieces(data)) {
        this.host.sendMessage({
          type: "key",
          seq: ++this.#seq,
          data: piece,
          ...force,
        });
      }
      return;
    }
    const keys = splitKeys(
      paste !== undefined ? PASTE_START + paste + PASTE_END : data,
    );
    for (let i = 0; i < keys.length; i++) {
      const r = this.editor.key(keys[i]);
      if (r.done) {
        this.#finish(r);
        const rest = keys.slice(i + 1).map(keyBytes).join("");
        if (rest !== "") this.#process({ data: rest });
        return;
      }
    }
    this.#edited();
  }

  /**
   * A paste too large for one message. Automatic mode: in bulk, as in
   * character mode (the server writes it whatever the terminal's state: a
   * canonical tty splits the lines and echoes them), never a round trip per
   * line nor the editor's drawing of a huge line (issue 31), a few pieces
   * at a time ({@link BULK_WINDOW}). Line and pipe mode: pieces of the
   * text, each handed back and inserted whole into the line.
   */
  #sendLargePaste(data: string, paste: string): void {
    if (this.mode === "auto") {
      this.#bulk.push(...pieces(data));
      this.#pumpBulk();
      return;
    }
    for (const piece of pieces(paste)) {
      this.host.sendMessage({
        type: "key",
        seq: ++this.#seq,
        data: piece,
        paste: piece,
        force: true,
      });
    }
  }

  #finish(r: KeyResult): void {
    const msg: ClientMessage = { type: "line" };
    if (!this.masked && r.commit !== undefined) {
      if (r.commit.trim() !== "") msg.history = r.commit;
      if (this.mode === "pipe") {
        msg.echo = r.commit.replace(/\n/g, "\r\n") + "\r\n";
      }
    }
    this.#endEditing(msg, r.send ?? "");
  }

  /** Ends editing, sending what was typed (no Enter) as the program's input. */
  #flushAsKeys(): void {
    this.#endEditing({ type: "line" }, this.editor.text);
  }

  #endEditing(msg: ClientMessage, bytes: string): void {
    // A password's kills must not be yanked into a later line.
    if (this.masked) this.editor.killRing.length = 0;
    this.editing = false;
    this.masked = false;
    this.#staleUpTo = this.#backUpTo;
    this.editor.reset();
    this.host.sendMessage(msg);
    const cc = this.editor.cc;
    if (
      bytes !== "" &&
      (bytes === cc.intr || bytes === cc.quit || bytes === cc.susp)
    ) {
      // As a key: the server then drops the input still queued before it
      // (the rest of a paste), as the tty flushes its queue on a signal.
      this.host.sendMessage({ type: "key", seq: ++this.#seq, data: bytes });
    } else if (bytes !== "") this.host.sendBytes(bytes);
    this.host.sendMessage({ type: "edit-state", text: null, caret: 0 });
    this.host.changed();
  }

  #edited(): void {
    const e = this.editor;
    this.host.sendMessage(
      this.masked
        ? { type: "edit-state", text: "", caret: 0, masked: e.text.length }
        : {
          type: "edit-state",
          // Within the text frame cap; the other windows show the start.
          text: e.text.slice(0, KEY_CHUNK),
          caret: Math.min(e.caret, KEY_CHUNK),
        },
    );
    this.host.changed();
  }
}
