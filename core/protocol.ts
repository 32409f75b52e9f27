/**
 * The wire protocol between the server and a browser window, one WebSocket
 * per window (see docs/protocol.md). Binary frames carry raw PTY bytes in
 * both directions; text frames carry one JSON object of the types below.
 *
 * @module
 */

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

/** Bytes a window may be behind before the session stops reading the PTY. */
export const HIGH_WATER = 1 << 18;
/** Reading resumes when every window is at most this far behind. */
export const LOW_WATER = 1 << 16;

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
}

/** Client -> server: the window's text area changed size. */
export interface ResizeMessage {
  type: "resize";
  cols: number;
  rows: number;
  /** Text area size in pixels (for TIOCSWINSZ and CSI 14 t). */
  width?: number;
  height?: number;
}

/** Client -> server: the window has processed `bytes` more output bytes. */
export interface AckMessage {
  type: "ack";
  bytes: number;
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
 * Client -> server: the settings page changed these keys (dotted keys,
 * see core/settings/schema.ts); the server checks them and writes them to
 * the settings file, and the change comes back to every window as a
 * `settings` message.
 */
export interface SaveSettingsMessage {
  type: "save-settings";
  settings: Record<string, unknown>;
}

/** A reload attaches again within this time, or a closed last window hangs the program up. */
export const CLOSE_GRACE_MS = 3000;

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
  | SaveSettingsMessage;

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
}

/** Server -> client: something went wrong (the socket closes after it). */
export interface ErrorMessage {
  type: "error";
  message: string;
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

/** Messages the server sends as text frames. */
export type ServerMessage =
  | ReadyMessage
  | SnapshotMessage
  | GridMessage
  | DetachedMessage
  | ExitMessage
  | ErrorMessage
  | SettingsMessage;

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
      return { type: "ack", bytes: o.bytes as number };
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
    case "save-settings":
      if (
        typeof o.settings !== "object" || o.settings === null ||
        Array.isArray(o.settings)
      ) return "save-settings: settings must be an object";
      return {
        type: "save-settings",
        settings: o.settings as Record<string, unknown>,
      };
    case "closing":
    case "detach":
    case "focus":
    case "clear-history":
      return { type: o.type };
    default:
      return `unknown message type ${JSON.stringify(o.type)}`.slice(0, 200);
  }
}
