/**
 * The server's side of the line editor's automatic mode (docs/input-modes.md):
 * a key from a window that is not editing is written to the PTY only if the
 * terminal is raw. If it is canonical, the key is handed back (`edit`) and
 * so is every later key from that window until its `line` comes: the window
 * edits them locally in exactly the order they were typed, and nothing is
 * written twice or lost. The terminal's state comes from termios
 * (tcgetattr on the master), never from guessing at the output.
 *
 * @module
 */
import type {
  EditMessage,
  EditStateMessage,
  InputMode,
  KeyMessage,
  LineMessage,
} from "../core/protocol.ts";
import type { Termios } from "./pty/pty.ts";
import type { Window } from "./viewer.ts";
import { historyStore } from "./input_history.ts";

/** What line_input needs of a session. */
export interface LineInputSession {
  readonly windows: ReadonlySet<Window>;
  readonly pty: {
    getTermios(): Termios;
    foregroundGroup(): number | null;
    /** Queued in order with input(); `until` false drops the rest. */
    write(data: Uint8Array, until?: () => boolean): Promise<void>;
    /** Drops input not yet in the kernel (INTR). */
    discardPendingInput(): void;
  };
  /** Window `w` typed: the PTY size follows it. */
  focus(w: Window): void;
  /** Writes input from a window (which becomes the active one). */
  input(data: Uint8Array, w: Window): Promise<void>;
  /** Puts text into the output stream as if the program had written it. */
  echo(data: Uint8Array): void;
}

interface WindowLineState {
  /** Keys from this window are handed back until its `line` comes. */
  editing: boolean;
  /** Line or pipe mode: the terminal's state does not end the editing. */
  forced: boolean;
  /** `raw` was sent for this editing. */
  rawSent: boolean;
  /** The history key of the line being edited. */
  historyKey: string;
  /** History revision each program's list had when last sent to the window. */
  sentRevs: Map<string, number>;
  /** The other windows are showing this window's line. */
  shown: boolean;
}

const states = new WeakMap<Window, WindowLineState>();
const encoder = new TextEncoder();

function stateOf(w: Window): WindowLineState {
  let s = states.get(w);
  if (!s) {
    s = {
      editing: false,
      forced: false,
      rawSent: false,
      historyKey: "",
      sentRevs: new Map(),
      shown: false,
    };
    states.set(w, s);
  }
  return s;
}

function termiosOf(session: LineInputSession): Termios | null {
  try {
    return session.pty.getTermios();
  } catch {
    return null; // the PTY is closing: treat as raw, the write is dropped anyway
  }
}

/** True for a key that is exactly the INTR, QUIT or SUSP character. */
function isSignalChar(data: string, t: Termios): boolean {
  return data.length === 1 &&
    (data === t.cc.intr || data === t.cc.quit || data === t.cc.susp);
}

/** Names the history a program chooses in its environment (`DOMTERM_HISTORY=bc`). */
const HISTORY_ENV = "DOMTERM_HISTORY=";

/**
 * The history key: the foreground program's own choice
 * (`DOMTERM_HISTORY` in its environment), else its name (Linux:
 * /proc/PGID/environ and /proc/PGID/comm); "default" elsewhere.
 */
function historyKeyOf(session: LineInputSession): string {
  const pgrp = session.pty.foregroundGroup();
  if (pgrp === null) return "default";
  try {
    const path = `/proc/${pgrp}/environ`;
    // Read while the program is in exec(), it can be empty: once more then.
    const text = Deno.readTextFileSync(path) || Deno.readTextFileSync(path);
    const env = text.split("\0");
    const chosen = env.find((e) => e.startsWith(HISTORY_ENV));
    const key = chosen?.slice(HISTORY_ENV.length).trim();
    if (key) return key.slice(0, 100);
  } catch { /* not Linux, or it just exited */ }
  try {
    const name = Deno.readTextFileSync(`/proc/${pgrp}/comm`).trim();
    if (name) return name;
  } catch { /* as above */ }
  return "default";
}

/** A `key` message from window `w`. */
export function handleKey(
  session: LineInputSession,
  w: Window,
  m: KeyMessage,
): void {
  const s = stateOf(w);
  if (!s.editing) {
    if (m.bulk) {
      writeBulk(session, w, m.data).then(() => bulkAck(w, m.seq));
      return;
    }
    const t = termiosOf(session);
    // Raw: the program's. A lone INTR, QUIT or SUSP with no line being
    // edited goes straight through too: that is what the editor would do
    // with it, and it must not wait behind output (Ctrl-C in a flood).
    if (
      !m.force && (t === null || !t.canonical || isSignalChar(m.data, t))
    ) {
      // The tty flushes its input on a signal: so does the queue before
      // it (the rest of a paste never reaches the program, nor the next).
      if (t?.canonical && isSignalChar(m.data, t)) {
        session.pty.discardPendingInput();
      }
      void session.input(encoder.encode(m.data), w);
      return;
    }
    s.editing = true;
    s.forced = m.force === true;
    s.rawSent = false;
    s.historyKey = historyKeyOf(session);
    if (!s.forced) watch(session);
  }
  const t = termiosOf(session);
  const store = historyStore();
  const msg: EditMessage = {
    type: "edit",
    seq: m.seq,
    data: m.data,
    ...(m.paste !== undefined ? { paste: m.paste } : {}),
    // A raw program with ECHO off (readline) echoes by itself: only a
    // canonical terminal without ECHO means "do not show" (a password).
    echo: t === null || t.echo || !t.canonical,
    cc: t?.cc ?? {
      intr: "\x03",
      quit: "\x1c",
      erase: "\x7f",
      kill: "\x15",
      eof: "\x04",
      susp: "\x1a",
    },
    historyKey: s.historyKey,
  };
  const rev = store.revision(s.historyKey);
  if (s.sentRevs.get(s.historyKey) !== rev) {
    msg.history = store.get(s.historyKey);
    s.sentRevs.set(s.historyKey, rev);
  }
  w.viewer.message(msg);
  if (m.bulk) bulkAck(w, m.seq);
}

/** Answers a `bulk` key: the window may send more of its paste. */
function bulkAck(w: Window, seq: number): void {
  w.viewer.message({ type: "bulk-ack", seq });
}

/**
 * A piece of a large paste (automatic mode, the window not editing): to
 * the program in bulk, as in character mode; the tty's canonical mode
 * splits the lines and echoes. Written only while the program that was in
 * the foreground when it came still is (what it did not read never goes
 * to the shell after it); INTR drops it (handleKey). Resolves once written
 * or dropped.
 */
function writeBulk(
  session: LineInputSession,
  w: Window,
  data: string,
): Promise<void> {
  session.focus(w);
  const pgrp = session.pty.foregroundGroup();
  const same = () => session.pty.foregroundGroup() === pgrp;
  return session.pty.write(encoder.encode(data), same).catch(() => {
    // The child is gone; its exit is reported by the read loop.
  });
}

/**
 * A `line` message: the window's editing ended; its bytes follow as a
 * binary frame. Adds `history` to the program's history.
 */
export function handleLine(
  session: LineInputSession,
  w: Window,
  m: LineMessage,
): void {
  const s = stateOf(w);
  s.editing = false;
  if (m.history !== undefined && s.historyKey !== "") {
    historyStore().add(s.historyKey, m.history);
  }
  if (m.echo) session.echo(encoder.encode(m.echo));
}

/**
 * A window's `edit-state`: relayed to the session's other windows, which
 * draw the line being edited (masked input arrives as a length only).
 */
export function relayEditState(
  session: LineInputSession,
  from: Window,
  m: EditStateMessage,
): void {
  stateOf(from).shown = m.text !== null;
  const out: EditStateMessage = m.masked !== undefined
    ? { type: "edit-state", text: "", caret: 0, masked: m.masked }
    : { type: "edit-state", text: m.text, caret: m.caret };
  for (const w of session.windows) {
    if (w !== from) w.viewer.message(out);
  }
}

/**
 * Window `w` is gone (its socket closed): the other windows stop showing
 * the line it was editing.
 */
export function windowGone(session: LineInputSession, w: Window): void {
  const s = states.get(w);
  if (!s?.shown) return;
  s.shown = false;
  for (const other of session.windows) {
    if (other !== w) {
      other.viewer.message({ type: "edit-state", text: null, caret: 0 });
    }
  }
}

/** The mode `domterm input-mode` last set per session (windows attaching later get it). */
const sessionModes = new WeakMap<LineInputSession, InputMode>();

/** `domterm input-mode`: every window of the session, and those that attach later. */
export function setSessionInputMode(
  session: LineInputSession,
  mode: InputMode,
): void {
  sessionModes.set(session, mode);
  for (const w of session.windows) {
    w.viewer.message({ type: "input-mode", mode });
  }
}

/** The mode `domterm input-mode` set for `session`, if any (carried by `domterm restart-server`). */
export function sessionInputMode(
  session: LineInputSession,
): InputMode | undefined {
  return sessionModes.get(session);
}

/** A window attached: it gets the mode `domterm input-mode` set, if any. */
export function windowAttached(session: LineInputSession, w: Window): void {
  const mode = sessionModes.get(session);
  if (mode) w.viewer.message({ type: "input-mode", mode });
}

/** Sessions whose termios is polled while a window edits in automatic mode. */
const watched = new WeakMap<LineInputSession, ReturnType<typeof setInterval>>();

/** How often termios is read while a window edits (a program may go raw silently). */
const WATCH_MS = 200;

function watch(session: LineInputSession): void {
  if (watched.has(session)) return;
  const timer = setInterval(() => {
    const busy = [...session.windows].some((w) => {
      const s = states.get(w);
      return s?.editing && !s.forced && !s.rawSent;
    });
    if (!busy || termiosOf(session) === null) {
      clearInterval(timer);
      watched.delete(session);
      return;
    }
    checkAfterOutput(session);
  }, WATCH_MS);
  watched.set(session, timer);
}

/**
 * After output: a window editing a line while the terminal is no longer
 * canonical (a program went raw) is told so; it sends what it has as keys.
 */
export function checkAfterOutput(session: LineInputSession): void {
  let t: Termios | null | undefined;
  for (const w of session.windows) {
    const s = states.get(w);
    if (!s?.editing || s.forced || s.rawSent) continue;
    t ??= termiosOf(session);
    if (t !== null && !t.canonical) {
      // Keys stay handed back until the window's `line`: it sends its
      // text first, then the keys still on their way, in order.
      s.rawSent = true;
      w.viewer.message({ type: "raw" });
    }
  }
}
