/**
 * The wire protocol between the server and a browser window, one WebSocket
 * per window (see docs/protocol.md). Binary frames carry raw PTY bytes in
 * both directions (to a window that keeps up; one that falls behind gets
 * snapshots and `event` messages instead); text frames carry one JSON
 * object of the types below.
 *
 * @module
 */
import {
  type Drop,
  type Layout,
  parseLayout,
  type Side,
  SIDES,
} from "./layout.ts";
import type { TerminalEvent } from "./terminal_view.ts";

/** Path of the WebSocket endpoint. */
export const WS_PATH = "/ws";

/**
 * Path of the user's stylesheet (`~/.config/domterm/style.css`). The request
 * must carry the server key in the {@link USER_CSS_KEY_HEADER} header; the
 * answer is 204 when the user has no stylesheet.
 */
export const USER_CSS_PATH = "/user.css";
/** Request header that carries the server key for {@link USER_CSS_PATH}. */
export const USER_CSS_KEY_HEADER = "x-domterm-key";

/** Default number of history lines a window keeps. */
export const DEFAULT_SCROLLBACK_LINES = 10_000;
/** Largest finite scrollback setting accepted. */
export const MAX_SCROLLBACK_LINES = 100_000_000;

/** WebSocket close codes the server uses. */
export const CLOSE_BAD_KEY = 4001;
export const CLOSE_BAD_MESSAGE = 4002;
export const CLOSE_SESSION_ENDED = 4003;
/** The window was detached on purpose (`domterm detach`, Ctrl+Shift+D); the session goes on. */
export const CLOSE_DETACHED = 4004;
/** The hello named a session that does not exist (or has ended). */
export const CLOSE_NO_SESSION = 4005;
/**
 * The server is restarting (`domterm restart-server`): the window
 * reconnects, to the next server, and resumes where it was.
 */
export const CLOSE_RESTARTING = 4007;

/**
 * Bytes a window may be behind before the session stops reading the PTY.
 * The kernel holds only about 64 KiB of a program's output while the
 * session does not read, so the program stops soon after the session does:
 * at 256 KiB a flood waited for acks a third of the time (1 MiB: `ls`-like
 * output 16% faster end to end, docs/benchmarks.md). How long Ctrl-C waits
 * depends on this alone: the page's slowest rate (`yes`, about 7 MB/s)
 * empties 1 MiB in 150 ms.
 */
export const HIGH_WATER = 1 << 20;
/**
 * Reading resumes when every window is at most this far behind: close to
 * {@link HIGH_WATER}, so that the window still has about 768 KiB to process
 * while the next read travels to it (resuming at a quarter of HIGH_WATER
 * left the page idle a quarter of a flood, waiting for output).
 */
export const LOW_WATER = 3 << 18;

/** Largest text frame the server accepts. */
export const MAX_CONTROL_MESSAGE = 64 * 1024;

/**
 * Client -> server: must be the first message; anything else first closes
 * the socket. Without `session` it starts a new session of this size; with
 * one it attaches to that session.
 */
export interface HelloMessage {
  type: "hello";
  /** The server key, from the page's URL fragment. */
  key: string;
  /** The window's grid (what fits it). */
  cols: number;
  rows: number;
  /** Attach to this session instead of starting one. */
  session?: number;
  /**
   * The output offset this window has processed (a reconnect): the server
   * resends from there if it still has those bytes, else sends a snapshot.
   */
  offset?: number;
  /** With `offset`: the last grid change (`seq`) the window applied. */
  gridSeq?: number;
  /**
   * The colours the window shows, as a {@link ColorsMessage} has them: a
   * session the hello starts answers colour queries with them from the
   * program's first byte on.
   */
  colors?: Omit<ColorsMessage, "type">;
  /**
   * The page reads {@link DeflatedMessage}s: the server may send it large
   * messages deflated when its link is not loopback.
   */
  deflate?: boolean;
  /**
   * Set by a relay on the server's own host (`domterm ssh-stdio`) for a
   * window elsewhere: though it comes straight to the loopback listener,
   * its link is measured from its acks (the ssh link may be slow), never
   * taken for loopback.
   */
  relayed?: boolean;
}

/**
 * Server -> client, to a page whose hello had `deflate`: the next binary
 * frame is not output but a server message's JSON text, UTF-8, compressed
 * with raw deflate (RFC 1951, one message per frame, ended by a final
 * block). Sent for snapshots of at least {@link DEFLATE_MIN} characters to
 * a window whose link is remote (server/frames/policy.ts). Not in
 * {@link ServerMessage}: the connection decodes it and hands on the
 * message it carries, in order.
 */
export interface DeflatedMessage {
  type: "deflated";
}

/** Messages shorter than this are never deflated (the saving is a few packets at most). */
export const DEFLATE_MIN = 4096;

/** Client -> server: the window's text area changed size. */
export interface ResizeMessage {
  type: "resize";
  cols: number;
  rows: number;
  /** Text area size in pixels (for TIOCSWINSZ and CSI 14 t). */
  width?: number;
  height?: number;
}

/**
 * Client -> server: the window has processed `bytes` more output bytes;
 * with `frame`, it loaded the frame made at that stream offset (a
 * {@link SnapshotMessage} with `frame`), so the next may come.
 */
export interface AckMessage {
  type: "ack";
  bytes: number;
  frame?: number;
}

/**
 * Client -> server: the user Ctrl/Cmd+clicked a link; the server opens it
 * (server/opener.ts). Exactly one of `url` (http, https, mailto or file;
 * others are ignored) and `path` (a file reference from the text, relative
 * to the session's working directory or absolute).
 */
export interface OpenMessage {
  type: "open";
  url?: string;
  path?: string;
  /** 1-based line and column of a file reference, when known. */
  line?: number;
  column?: number;
}

/** Longest URL or path an open message may carry. */
export const MAX_OPEN_LENGTH = 8192;

/**
 * Client -> server: the window is going away on purpose (closed or
 * reloaded). If it was the session's last window and no window attaches
 * within {@link CLOSE_GRACE_MS}, the program is hung up, as closing an
 * xterm does. A window that just disappears (crash, network) detaches.
 */
export interface ClosingMessage {
  type: "closing";
}

/** Client -> server: detach every window of this session; the session goes on. */
export interface DetachMessage {
  type: "detach";
}

/** Client -> server: this window has the focus (the PTY size follows it). */
export interface FocusMessage {
  type: "focus";
}

/**
 * Client -> server: clear the session's history (the menu's "Clear
 * scrollback"): in the server's emulator and every window, at one point of
 * the stream (a `grid` message with `clearHistory`).
 */
export interface ClearHistoryMessage {
  type: "clear-history";
}

/**
 * Client -> server: the window's pager stopped output (`paused: true`) or
 * let it go on. A paused window is never left out of flow control as
 * stale: the program waits for it, as it would for a window alone.
 */
export interface PauseMessage {
  type: "pause";
  paused: boolean;
}

/**
 * Client -> server: a key typed in automatic input mode while the window is
 * not editing a line (docs/input-modes.md). `data` is the bytes the key
 * stands for. The server writes it to the PTY if the terminal is raw;
 * if it is canonical, or if it already handed an earlier key back to this
 * window and no `line` came since, it writes nothing and answers `edit`
 * with the same `data`, so the window edits it locally, in order.
 */
export interface KeyMessage {
  type: "key";
  /** Numbers the window's keys (1, 2, ...); `edit` answers name it. */
  seq: number;
  data: string;
  /** Line or pipe mode: hand the key back even when the terminal is raw. */
  force?: boolean;
  /**
   * A paste: the text as pasted (`data` is what a raw program gets for it);
   * the line editor inserts it whole, newlines included.
   */
  paste?: string;
  /**
   * A piece of a paste too large for one message (automatic mode): written
   * to the program as it is, in order, whatever the terminal's state (the
   * tty's canonical mode splits the lines), unless this window is editing.
   * The pieces still unwritten are dropped on INTR, QUIT or SUSP and when
   * the foreground process group changes. Each is answered `bulk-ack` once
   * written or dropped: the window keeps only a few in flight, so an INTR
   * typed during a paste is never queued behind the whole of it.
   */
  bulk?: boolean;
}

/**
 * Client -> server: the window's local line editing ended (Enter, INTR,
 * EOF...). The bytes for the program follow as a binary frame. `history`,
 * when present, is the line to add to the program's history (never sent
 * for input typed with ECHO off).
 */
export interface LineMessage {
  type: "line";
  history?: string;
  /**
   * Pipe mode: text to show as if the program had echoed it (the line and
   * a newline), put into the session's output stream so every window and
   * the model have it.
   */
  echo?: string;
}

/**
 * Client -> server: what this window's line editor shows now, relayed to the
 * session's other windows (server -> client with the same shape). `text`
 * null: no line is being edited. Masked input is never sent: `masked` is
 * its length instead.
 */
export interface EditStateMessage {
  type: "edit-state";
  text: string | null;
  caret: number;
  masked?: number;
}

/** Longest history entry stored (a longer line is sent but not remembered). */
export const MAX_HISTORY_LINE = 8192;

/** The window's input modes (docs/input-modes.md). */
export type InputMode = "auto" | "char" | "line" | "pipe";

/** Whether `v` names an input mode. */
export function isInputMode(v: unknown): v is InputMode {
  return v === "auto" || v === "char" || v === "line" || v === "pipe";
}

/**
 * Client -> server: the settings page changed these keys (dotted keys,
 * see core/settings/schema.ts); the server checks them and writes them to
 * the settings file, and the change comes back to every window as a
 * `settings` message.
 */
export interface SaveSettingsMessage {
  type: "save-settings";
  settings: Record<string, unknown>;
}

/**
 * Client -> server: the colours this window shows (its theme and the
 * colours settings, as the page computes them), each "#rrggbb". Sent
 * after the hello and whenever they change (the theme or colour settings,
 * the desktop's light/dark switch). The session's emulator answers the
 * program's colour queries (OSC 4, 10, 11, 12) with the colours of the
 * window that most recently had input or focus (the one the PTY size
 * follows). A read-only window's are ignored.
 */
export interface ColorsMessage {
  type: "colors";
  foreground: string;
  background: string;
  cursor: string;
  /** Palette entries 0-15. */
  palette: string[];
}

/** A colour of a {@link ColorsMessage}. */
const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** Validate a `colors` message's fields (lower-cased). */
function parseColors(o: Record<string, unknown>): ColorsMessage | string {
  const ok = (v: unknown): v is string =>
    typeof v === "string" && HEX_COLOR.test(v.toLowerCase());
  const { foreground, background, cursor, palette } = o;
  if (!ok(foreground) || !ok(background) || !ok(cursor)) {
    return "colors: foreground, background and cursor must be #rrggbb";
  }
  if (!Array.isArray(palette) || palette.length !== 16 || !palette.every(ok)) {
    return "colors: palette must be 16 #rrggbb colours";
  }
  return {
    type: "colors",
    foreground: foreground.toLowerCase(),
    background: background.toLowerCase(),
    cursor: cursor.toLowerCase(),
    palette: palette.map((c: string) => c.toLowerCase()),
  };
}

/**
 * Client -> server: the user clicked, toggled or changed an element that a
 * program printed with `data-dt-event` while the element-event mode
 * (?7101) was on (docs/interactive.md). The server checks that the mode is
 * still on in the generation the element was printed in, that the program
 * that set it is still in the foreground and that the window may type,
 * then writes the program one `ESC ] 7101 ; JSON BEL LF` line.
 */
export interface ElementEventMessage {
  type: "element-event";
  /** The events generation of the fragment the element is in. */
  generation: number;
  /** The element's `data-dt-event`. */
  name: string;
  /** The replace-key of the element or its nearest ancestor with one. */
  key: string | null;
  event: "click" | "toggle" | "change";
  /**
   * click: null; toggle: "open" or "closed"; a checkbox or radio change:
   * checked or not; a text or select change: the value.
   */
  value: null | boolean | string;
}

/** What a `data-dt-event` name may be. */
export const EVENT_NAME_RE = /^[A-Za-z0-9_.:-]{1,64}$/;
/** Longest replace-key an element event may carry (as OSC 721's). */
export const MAX_EVENT_KEY = 256;

/** Validate an `element-event` message's fields. */
function parseElementEvent(
  o: Record<string, unknown>,
): ElementEventMessage | string {
  const { generation, name, key, event, value } = o;
  if (!Number.isSafeInteger(generation) || (generation as number) < 0) {
    return "element-event: bad generation";
  }
  if (typeof name !== "string" || !EVENT_NAME_RE.test(name)) {
    return "element-event: bad name";
  }
  if (
    key !== null && (typeof key !== "string" || key.length > MAX_EVENT_KEY)
  ) return "element-event: bad key";
  const ok = event === "click"
    ? value === null
    : event === "toggle"
    ? value === "open" || value === "closed"
    : event === "change" &&
      (typeof value === "boolean" || typeof value === "string");
  if (!ok) return "element-event: bad event or value";
  return {
    type: "element-event",
    generation: generation as number,
    name,
    key,
    event: event as ElementEventMessage["event"],
    value: value as null | boolean | string,
  };
}

/** A reload attaches again within this time, or a closed last window hangs the program up. */
export const CLOSE_GRACE_MS = 3000;

/**
 * Client -> server, and server -> client: a command group's output (or a
 * DomTerm span) was folded (`folded: true`) or unfolded by hand. It names
 * the mark that starts the group, or the span's button
 * (`core/model/command_groups.ts`, `MarkRef`): its line as an absolute
 * number of the normal buffer (`trimmed` + index), its column and kind.
 * The server sets the flag in the session's model (so snapshots carry it)
 * and sends the message on to the session's other windows, at this point
 * of the stream. A read-only window's fold is its own: the server drops it.
 */
export interface FoldMessage {
  type: "fold";
  line: number;
  x: number;
  kind: string;
  folded: boolean;
}

/** Check a {@link FoldMessage} (either way). */
export function parseFold(o: Record<string, unknown>): FoldMessage | string {
  if (!Number.isSafeInteger(o.line) || (o.line as number) < 0) {
    return "fold: bad line";
  }
  if (!Number.isSafeInteger(o.x) || (o.x as number) < 0) return "fold: bad x";
  if (typeof o.kind !== "string" || o.kind.length > 64) {
    return "fold: bad kind";
  }
  if (typeof o.folded !== "boolean") return "fold: folded must be a boolean";
  return {
    type: "fold",
    line: o.line as number,
    x: o.x as number,
    kind: o.kind,
    folded: o.folded,
  };
}

/** Messages a client sends as text frames. */
export type ClientMessage =
  | HelloMessage
  | ResizeMessage
  | AckMessage
  | OpenMessage
  | ClosingMessage
  | DetachMessage
  | FocusMessage
  | ClearHistoryMessage
  | PauseMessage
  | KeyMessage
  | LineMessage
  | EditStateMessage
  | SaveSettingsMessage
  | ColorsMessage
  | ElementEventMessage
  | FoldMessage;

/** Server -> client: answer to a valid hello. */
export interface ReadyMessage {
  type: "ready";
  /** Session number (also in the child's DOMTERM variable). */
  session: number;
  /** Process id of the session's child. */
  pid: number;
  version: string;
  /**
   * History lines the session keeps (`--scrollback`); null means no limit.
   * Absent from older servers: then the default, {@link DEFAULT_SCROLLBACK_LINES}.
   */
  scrollback?: number | null;
  /** The session's grid (what the PTY has). */
  cols: number;
  rows: number;
  /**
   * The output offset the stream continues from: with `resumed` the bytes
   * after the offset the hello named follow; otherwise a `snapshot` at this
   * offset comes next.
   */
  offset: number;
  resumed: boolean;
  /** The session's command line (for the window title); absent from older servers. */
  command?: string[];
}

/**
 * Server -> client: the session's whole terminal (`Terminal.snapshot()`,
 * core/serialize/snapshot.ts) at output offset `offset`; the output bytes
 * that follow start there.
 */
export interface SnapshotMessage {
  type: "snapshot";
  offset: number;
  /** The last grid change the snapshot includes. */
  gridSeq: number;
  snapshot: unknown;
  /** History lines left out to keep the snapshot within its size cap. */
  droppedLines?: number;
  /**
   * A frame for a window that fell behind (docs/protocol.md, "Frames"):
   * its normal buffer holds only the newest history lines; with `keep`,
   * the page keeps the history lines it has right before them
   * (`Terminal.loadFrame`). The page acknowledges it (`ack` with `frame`:
   * this `offset`) once loaded; the next frame waits for that.
   */
  frame?: { keep: boolean };
}

/**
 * Server -> client: the session's grid changed here in the stream (the
 * window with the latest input or focus set it). Every window's emulator
 * resizes at exactly this point, as the server's did.
 */
export interface GridMessage {
  type: "grid";
  cols: number;
  rows: number;
  /** The change's number (1, 2, ...): a reconnecting window says the last it applied. */
  seq: number;
  /** The history is cleared here too (the grid may be unchanged). */
  clearHistory?: true;
  /**
   * The element-event mode (?7101) goes off here (the program that set it
   * left the foreground): `Terminal.stopElementEvents` at this point.
   */
  eventsOff?: true;
}

/** Server -> client: the session was detached on purpose; the socket closes with 4004. */
export interface DetachedMessage {
  type: "detached";
  session: number;
}

/** Server -> client: the child exited; no more output follows. */
export interface ExitMessage {
  type: "exit";
  /** Exit status, or null when killed by a signal. */
  code: number | null;
  /** Signal number when killed by a signal, else null. */
  signal: number | null;
  /**
   * Why the program ended, when domterm ended it (e.g. "the domterm server
   * was stopped (SIGTERM)"): the window says this rather than the signal.
   */
  reason?: string;
}

/** Server -> client: something went wrong (the socket closes after it). */
export interface ErrorMessage {
  type: "error";
  message: string;
}

/**
 * Server -> client: something the user should know that ends nothing (a
 * link the opener could not open); shown for a while.
 */
export interface NoticeMessage {
  type: "notice";
  message: string;
}

/**
 * Server -> client: an event in output this window did not get (it was
 * fed snapshots while it was behind, docs/protocol.md "Flow control"):
 * the bell, a desktop notification, a clipboard write or the pager's
 * switch, as the page's emulator would have reported it. Each reaches a
 * window once: as bytes it parses, or as this message.
 */
export interface EventMessage {
  type: "event";
  event: FrameEvent;
}

/** The events an {@link EventMessage} carries (core/terminal_view.ts's). */
export type FrameEvent = Extract<
  TerminalEvent,
  { type: "bell" | "notify" | "clipboard" | "pager" }
>;

/**
 * Server -> client: edit this key locally (it was not written to the PTY):
 * the terminal is canonical, or an earlier key was handed back. Carries the
 * terminal's state for the editor: `echo` (false when the terminal is
 * canonical with ECHO off, a password: the input is masked), the special
 * characters from termios, the history key (the foreground program's name)
 * and, when the window does not have its current revision, that history.
 */
export interface EditMessage {
  type: "edit";
  /** The `key` message's seq, data and paste. */
  seq: number;
  data: string;
  paste?: string;
  echo: boolean;
  cc: {
    intr: string;
    quit: string;
    erase: string;
    kill: string;
    eof: string;
    susp: string;
  };
  historyKey: string;
  history?: string[];
}

/**
 * Server -> client: the terminal left canonical mode while this window was
 * editing a line (automatic mode): the window sends what it has typed as
 * keys, as the tty would hand typeahead to the program, and stops editing.
 */
export interface RawMessage {
  type: "raw";
}

/**
 * Server -> client: the `bulk` key `seq` was written to the program, or
 * dropped (INTR, the program left the foreground, the window was editing
 * and got it back as `edit`). The window sends the next pieces of a large
 * paste as earlier ones are answered.
 */
export interface BulkAckMessage {
  type: "bulk-ack";
  seq: number;
}

/** Server -> client: switch the window's input mode (`domterm input-mode`). */
export interface InputModeMessage {
  type: "input-mode";
  mode: InputMode;
}

/**
 * Server -> client: the settings in force for this window (every key of
 * core/settings/schema.ts): the file's, over them the session's
 * (`domterm settings`), over them the command line's. Sent after `ready`
 * and again on every change.
 */
export interface SettingsMessage {
  type: "settings";
  settings: Record<string, unknown>;
  /** What is wrong in the settings file, one line each (`file:line: ...`). */
  problems: string[];
  /** The settings file's path (null: none), for the settings page. */
  path: string | null;
}

/**
 * Server -> client: this window came through a read-only share: what it
 * sends (input, size, detach, settings) is dropped. Sent once.
 */
export interface ReadOnlyMessage {
  type: "read-only";
  message: string;
}

/**
 * Server -> client: this window came in through the remote listener's
 * login (server/remote/gate.ts): its menu offers to log out. Sent once.
 */
export interface LoginMessage {
  type: "login";
}

/** Messages the server sends as text frames. */
export type ServerMessage =
  | ReadyMessage
  | SnapshotMessage
  | GridMessage
  | DetachedMessage
  | ExitMessage
  | ErrorMessage
  | NoticeMessage
  | EventMessage
  | EditMessage
  | RawMessage
  | BulkAckMessage
  | InputModeMessage
  | EditStateMessage
  | SettingsMessage
  | ReadOnlyMessage
  | LoginMessage
  | FoldMessage;

/**
 * A server message as its text frame. A snapshot that is already JSON
 * text (the server's emulator makes it so) goes in as `snapshotJson`,
 * without being parsed and serialized again: `msg.snapshot` is then left
 * out of `msg`.
 */
export function encodeServerMessage(
  msg: ServerMessage | Omit<SnapshotMessage, "snapshot">,
  snapshotJson?: string,
): string {
  const text = JSON.stringify(msg);
  return snapshotJson === undefined
    ? text
    : `${text.slice(0, -1)},"snapshot":${snapshotJson}}`;
}

/** Largest terminal size either side accepts. */
export const MAX_COLS = 2000;
export const MAX_ROWS = 1000;

function isSize(v: unknown, max: number): v is number {
  return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= max;
}

/**
 * Parse and validate a client text frame. Returns the message, or a string
 * that says what is wrong with it.
 */
export function parseClientMessage(text: string): ClientMessage | string {
  if (text.length > MAX_CONTROL_MESSAGE) return "message too large";
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return "message is not JSON";
  }
  if (typeof m !== "object" || m === null) return "message is not an object";
  const o = m as Record<string, unknown>;
  switch (o.type) {
    case "hello":
      if (typeof o.key !== "string") return "hello: key must be a string";
      if (!isSize(o.cols, MAX_COLS) || !isSize(o.rows, MAX_ROWS)) {
        return "hello: bad cols/rows";
      }
      {
        const h: HelloMessage = {
          type: "hello",
          key: o.key,
          cols: o.cols,
          rows: o.rows,
        };
        if (o.deflate === true) h.deflate = true;
        if (o.relayed === true) h.relayed = true;
        if (o.session !== undefined) {
          if (!isSize(o.session, 1e9)) return "hello: bad session";
          h.session = o.session;
        }
        if (o.offset !== undefined) {
          if (!Number.isSafeInteger(o.offset) || (o.offset as number) < 0) {
            return "hello: bad offset";
          }
          h.offset = o.offset as number;
          if (
            !Number.isSafeInteger(o.gridSeq) || (o.gridSeq as number) < 0
          ) return "hello: bad gridSeq";
          h.gridSeq = o.gridSeq as number;
        }
        if (o.colors !== undefined) {
          const c = typeof o.colors === "object" && o.colors !== null
            ? parseColors(o.colors as Record<string, unknown>)
            : "colors: must be an object";
          if (typeof c === "string") return `hello: ${c}`;
          const { type: _, ...colors } = c;
          h.colors = colors;
        }
        return h;
      }
    case "resize": {
      if (!isSize(o.cols, MAX_COLS) || !isSize(o.rows, MAX_ROWS)) {
        return "resize: bad cols/rows";
      }
      const r: ResizeMessage = { type: "resize", cols: o.cols, rows: o.rows };
      if (isSize(o.width, 100000)) r.width = o.width;
      if (isSize(o.height, 100000)) r.height = o.height;
      return r;
    }
    case "ack":
      if (!Number.isSafeInteger(o.bytes) || (o.bytes as number) < 0) {
        return "ack: bad byte count";
      }
      if (
        o.frame !== undefined &&
        (!Number.isSafeInteger(o.frame) || (o.frame as number) < 0)
      ) return "ack: bad frame offset";
      return o.frame === undefined
        ? { type: "ack", bytes: o.bytes as number }
        : { type: "ack", bytes: o.bytes as number, frame: o.frame as number };
    case "open": {
      const str = (v: unknown) =>
        typeof v === "string" && v.length > 0 && v.length <= MAX_OPEN_LENGTH;
      if (str(o.url) === str(o.path)) {
        return "open: needs exactly one of url and path";
      }
      const r: OpenMessage = { type: "open" };
      if (str(o.url)) r.url = o.url as string;
      else r.path = o.path as string;
      if (isSize(o.line, 1e9)) r.line = o.line;
      if (isSize(o.column, 1e9)) r.column = o.column;
      return r;
    }
    case "pause":
      if (typeof o.paused !== "boolean") {
        return "pause: paused must be a boolean";
      }
      return { type: "pause", paused: o.paused };
    case "key": {
      if (typeof o.data !== "string") return "key: data must be a string";
      if (!Number.isSafeInteger(o.seq)) return "key: bad seq";
      const k: KeyMessage = { type: "key", seq: o.seq as number, data: o.data };
      if (o.force === true) k.force = true;
      if (typeof o.paste === "string") k.paste = o.paste;
      if (o.bulk === true) k.bulk = true;
      return k;
    }
    case "line": {
      const l: LineMessage = { type: "line" };
      for (const f of ["history", "echo"] as const) {
        if (o[f] === undefined) continue;
        if (typeof o[f] !== "string") return `line: ${f} must be a string`;
        l[f] = o[f] as string;
      }
      return l;
    }
    case "edit-state": {
      if (o.text !== null && typeof o.text !== "string") {
        return "edit-state: text must be a string or null";
      }
      if (!Number.isSafeInteger(o.caret) || (o.caret as number) < 0) {
        return "edit-state: bad caret";
      }
      const e: EditStateMessage = {
        type: "edit-state",
        text: o.text,
        caret: o.caret as number,
      };
      if (Number.isSafeInteger(o.masked)) e.masked = o.masked as number;
      return e;
    }
    case "save-settings":
      if (
        typeof o.settings !== "object" || o.settings === null ||
        Array.isArray(o.settings)
      ) return "save-settings: settings must be an object";
      return {
        type: "save-settings",
        settings: o.settings as Record<string, unknown>,
      };
    case "colors":
      return parseColors(o);
    case "element-event":
      return parseElementEvent(o);
    case "fold":
      return parseFold(o);
    case "closing":
    case "detach":
    case "focus":
    case "clear-history":
      return { type: o.type };
    default:
      return `unknown message type ${JSON.stringify(o.type)}`.slice(0, 200);
  }
}

// ─── The window channel ─────────────────────────────────────────────────
//
// Each page opens one more WebSocket, at {@link WINDOW_PATH}, for its
// top-level window: the server keeps the window's layout (core/layout.ts)
// and is its authority; the page draws what it sends and asks for changes.
// Each pane's terminal keeps its own session socket at {@link WS_PATH}.

/** Path of a page's window channel (gated like {@link WS_PATH}). */
export const WINDOW_PATH = "/window";

/** The window-hello named a window that does not exist (or has closed). */
export const CLOSE_NO_WINDOW = 4006;

/**
 * Client -> server on the window channel: must be the first message.
 * `window`: the window to show (a reload, `#window=W`); null: a new window
 * whose first pane shows `session` (an existing one) or, when that is
 * null, a new session of `cols` x `rows`.
 */
export interface WindowHelloMessage {
  type: "window-hello";
  key: string;
  window: number | null;
  session: number | null;
  cols: number;
  rows: number;
  /**
   * The colours the page shows: the sessions started for this window
   * answer their programs' colour queries with them from the start.
   */
  colors?: Omit<ColorsMessage, "type">;
}

/** A change a page asks of its window's layout. */
export type LayoutOp =
  /** A new tab after pane `beside`: session `session`, or a new one (null). */
  | { op: "tab"; beside: number; session: number | null }
  /** A new pane on `side` of pane `beside`'s stack. */
  | { op: "split"; beside: number; side: Side; session: number | null }
  | { op: "move"; pane: number; drop: Drop }
  /** The pane goes; its session ends when no pane of any window shows it. */
  | { op: "close"; pane: number }
  | { op: "focus"; pane: number }
  /** null: the tab says what runs again. */
  | { op: "rename"; pane: number; title: string | null }
  | { op: "resize"; split: number; sizes: number[] }
  /** The pane leaves for a new window (the page is told `open-window`). */
  | { op: "to-new-window"; pane: number }
  /** The pane leaves for window `window` (a tab beside its focused pane). */
  | { op: "to-window"; pane: number; window: number };

/** Client -> server: apply `op` to the page's window. */
export interface LayoutOpMessage {
  type: "layout-op";
  op: LayoutOp;
}

/** Client -> server: what became of `open-page` `request`. */
export interface PageOpenedMessage {
  type: "page-opened";
  request: number;
  /** The page opened the window (false: the browser blocked it). */
  opened: boolean;
}

/** Messages a page sends on its window channel. */
export type WindowClientMessage =
  | WindowHelloMessage
  | LayoutOpMessage
  | PageOpenedMessage;

/**
 * Server -> client: window `window`'s layout, after the hello and after
 * every change (to every page showing it). Window 0 is a share's own
 * window, kept nowhere.
 */
export interface LayoutMessage {
  type: "layout";
  window: number;
  layout: Layout;
}

/** Server -> client: open a new OS window on `#key=..&window=W`. */
export interface OpenWindowMessage {
  type: "open-window";
  window: number;
}

/**
 * Server -> client: open a new OS window, as a command asked (`domterm`
 * with the server running: a window opened by a page already open needs
 * no new browser process; issue 31 §7), on window `window` (a kept one)
 * or a new window on `session` (null: a new session). The page answers
 * `page-opened`.
 */
export interface OpenPageMessage {
  type: "open-page";
  request: number;
  window: number | null;
  session: number | null;
}

/** Server -> client: a layout operation failed (the page shows `message`). */
export interface WindowErrorMessage {
  type: "window-error";
  message: string;
}

/** Server -> client: the window's last pane is gone; the page closes. */
export interface WindowClosedMessage {
  type: "window-closed";
}

/** Messages the server sends on a window channel. */
export type WindowServerMessage =
  | LayoutMessage
  | OpenWindowMessage
  | OpenPageMessage
  | WindowErrorMessage
  | WindowClosedMessage;

/** Longest tab title a rename may carry. */
export const MAX_TITLE_LENGTH = 200;

function isId(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) > 0;
}

function isSessionOrNull(v: unknown): v is number | null {
  return v === null || isId(v);
}

function parseDrop(v: unknown): Drop | string {
  const d = v as Record<string, unknown>;
  if (typeof d !== "object" || d === null) return "drop must be an object";
  if (d.kind === "tabs") {
    if (!isId(d.stack)) return "drop: bad stack";
    if (!Number.isSafeInteger(d.index) || (d.index as number) < 0) {
      return "drop: bad index";
    }
    return { kind: "tabs", stack: d.stack, index: d.index as number };
  }
  if (d.kind === "side") {
    if (!isId(d.pane)) return "drop: bad pane";
    if (!SIDES.includes(d.side as Side)) return "drop: bad side";
    return { kind: "side", pane: d.pane, side: d.side as Side };
  }
  return "drop: kind must be tabs or side";
}

/** Validate a layout operation; a string says what is wrong. */
export function parseLayoutOp(v: unknown): LayoutOp | string {
  const o = v as Record<string, unknown>;
  if (typeof o !== "object" || o === null) return "op must be an object";
  const pane = o.op === "tab" || o.op === "split" ? o.beside : o.pane;
  if (o.op !== "resize" && !isId(pane)) return `${o.op}: bad pane`;
  const p = pane as number;
  switch (o.op) {
    case "tab":
      if (!isSessionOrNull(o.session)) return "tab: bad session";
      return { op: "tab", beside: p, session: o.session };
    case "split":
      if (!SIDES.includes(o.side as Side)) return "split: bad side";
      if (!isSessionOrNull(o.session)) return "split: bad session";
      return {
        op: "split",
        beside: p,
        side: o.side as Side,
        session: o.session,
      };
    case "move": {
      const drop = parseDrop(o.drop);
      return typeof drop === "string"
        ? `move: ${drop}`
        : { op: "move", pane: p, drop };
    }
    case "close":
    case "focus":
    case "to-new-window":
      return { op: o.op, pane: p };
    case "rename":
      if (
        o.title !== null &&
        (typeof o.title !== "string" || o.title.length > MAX_TITLE_LENGTH)
      ) return "rename: title must be a string (or null)";
      return { op: "rename", pane: p, title: o.title };
    case "resize":
      if (!isId(o.split)) return "resize: bad split";
      if (
        !Array.isArray(o.sizes) || o.sizes.length < 2 ||
        o.sizes.length > 64 ||
        !o.sizes.every((s) => typeof s === "number" && Number.isFinite(s))
      ) return "resize: sizes must be 2 or more numbers";
      return { op: "resize", split: o.split, sizes: o.sizes as number[] };
    case "to-window":
      if (!isId(o.window)) return "to-window: bad window";
      return { op: "to-window", pane: p, window: o.window };
    default:
      return `unknown layout op ${JSON.stringify(o.op)}`.slice(0, 200);
  }
}

/**
 * Parse and validate a text frame of the window channel (client -> server).
 * Returns the message, or a string that says what is wrong with it.
 */
export function parseWindowClientMessage(
  text: string,
): WindowClientMessage | string {
  if (text.length > MAX_CONTROL_MESSAGE) return "message too large";
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text);
  } catch {
    return "message is not JSON";
  }
  if (typeof o !== "object" || o === null) return "message is not an object";
  if (o.type === "window-hello") {
    if (typeof o.key !== "string") return "window-hello: key must be a string";
    if (o.window !== null && !isId(o.window)) {
      return "window-hello: bad window";
    }
    if (!isSessionOrNull(o.session)) return "window-hello: bad session";
    if (!isSize(o.cols, MAX_COLS) || !isSize(o.rows, MAX_ROWS)) {
      return "window-hello: bad cols/rows";
    }
    const hello: WindowHelloMessage = {
      type: "window-hello",
      key: o.key,
      window: o.window,
      session: o.session,
      cols: o.cols,
      rows: o.rows,
    };
    if (o.colors !== undefined) {
      const c = typeof o.colors === "object" && o.colors !== null
        ? parseColors(o.colors as Record<string, unknown>)
        : "colors: must be an object";
      if (typeof c === "string") return `window-hello: ${c}`;
      const { type: _, ...colors } = c;
      hello.colors = colors;
    }
    return hello;
  }
  if (o.type === "layout-op") {
    const op = parseLayoutOp(o.op);
    return typeof op === "string" ? op : { type: "layout-op", op };
  }
  if (o.type === "page-opened") {
    if (!isId(o.request)) return "page-opened: bad request";
    if (typeof o.opened !== "boolean") return "page-opened: bad opened";
    return { type: "page-opened", request: o.request, opened: o.opened };
  }
  return `unknown message type ${JSON.stringify(o.type)}`.slice(0, 200);
}

/**
 * Parse a window channel frame from the server (the page's side): the
 * layout is checked with core/layout.ts's `parseLayout`. A string says
 * what is wrong.
 */
export function parseWindowServerMessage(
  text: string,
): WindowServerMessage | string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text);
  } catch {
    return "message is not JSON";
  }
  if (typeof o !== "object" || o === null) return "message is not an object";
  switch (o.type) {
    case "layout":
      if (!Number.isSafeInteger(o.window) || (o.window as number) < 0) {
        return "layout: bad window";
      }
      try {
        return {
          type: "layout",
          window: o.window as number,
          layout: parseLayout(o.layout),
        };
      } catch (e) {
        return `layout: ${(e as Error).message}`;
      }
    case "open-window":
      if (!isId(o.window)) return "open-window: bad window";
      return { type: "open-window", window: o.window };
    case "open-page":
      if (!isId(o.request)) return "open-page: bad request";
      if (o.window !== null && !isId(o.window)) return "open-page: bad window";
      if (!isSessionOrNull(o.session)) return "open-page: bad session";
      return {
        type: "open-page",
        request: o.request,
        window: o.window,
        session: o.session,
      };
    case "window-error":
      if (typeof o.message !== "string") return "window-error: bad message";
      return { type: "window-error", message: o.message };
    case "window-closed":
      return { type: "window-closed" };
    default:
      return `unknown message type ${JSON.stringify(o.type)}`.slice(0, 200);
  }
}

/** A window channel message as its text frame. */
export function encodeWindowServerMessage(msg: WindowServerMessage): string {
  return JSON.stringify(msg);
}
