/**
 * What a session ({@link Session} in session.ts) knows of the windows
 * that show it: each is a {@link Viewer}, an interface the session calls
 * and never looks behind. The session does not know sockets or the wire
 * format: a WebSocket window (server/window_connection.ts) encodes what
 * it is told as the messages of core/protocol.ts; any other kind of
 * viewer may do something else with it.
 *
 * The session keeps one {@link Window} per attached viewer: its flow
 * offsets, its size, and what it said about itself (closing, paused).
 * The modules beside the session that talk to windows (line_input.ts,
 * settings/windows.ts) reach them through the same interface.
 *
 * @module
 */
import type { ColorsMessage, ServerMessage } from "../core/protocol.ts";

/** The session's screen as JSON text at a stream offset (see `Session.snapshot`). */
export interface SessionSnapshot {
  /** The snapshot (core/serialize/snapshot.ts) already as JSON. */
  json: string;
  /** History lines left out to keep it within its size cap. */
  droppedLines: number;
  /** The stream offset it was made at: the bytes that follow start there. */
  offset: number;
  /** The last grid change it includes. */
  gridSeq: number;
  /**
   * A frame for a window that fell behind (only the newest history
   * lines), and whether the window keeps the history lines it has before
   * them (no grid change or cleared history since it got them).
   */
  frame?: { keep: boolean };
}

/** Why a session is done with a viewer. */
export type ViewerEnd = "detached" | "ended" | "restarting";

/**
 * Something attached to a session that shows it: told, in stream order,
 * about output bytes, a snapshot to start from and the session's other
 * notifications (typed protocol messages: grid, exit, settings, line
 * editing...), and finally that the session is done with it.
 */
export interface Viewer {
  /** Output bytes of the stream (they follow whatever came before). */
  output(data: Uint8Array): void;
  /** The session's screen at `snap.offset`: the output that follows starts there. */
  snapshot(snap: SessionSnapshot): void;
  /** A notification for this window (one of core/protocol.ts's server messages). */
  message(msg: ServerMessage): void;
  /**
   * The session is done with this viewer after the last message: the
   * session was detached on purpose, or it ended, or the server is
   * restarting (`domterm restart-server`: the window should reconnect).
   */
  end(why: ViewerEnd): void;
  /**
   * A read-only viewer (`domterm share --read-only`): it never holds the
   * program back. It does not count in flow control, and once it is more
   * than the high-water mark behind (slow, or paused by its pager) it is
   * left out until it catches up, then gets a snapshot.
   */
  readonly readOnly?: boolean;
}

/** One attached viewer, as its session keeps it. */
export interface Window {
  /** What the session tells. */
  readonly viewer: Viewer;
  /** Stream offset up to which output was sent to this window. */
  sent: number;
  /** Stream offset up to which the window has processed output. */
  acked: number;
  /** What fits the window (its last resize or hello). */
  cols: number;
  rows: number;
  /**
   * Fed frames (it fell behind): no output bytes, but frames of the model
   * at its own pace (server/frames/policy.ts) until it is in step again.
   */
  stale: boolean;
  /**
   * While stale: the last grid change it has (with the bytes or the last
   * frame it got), whether it was sent `event` messages (then the bytes it
   * skipped can no longer be replayed to it: their events would come
   * twice), the offset of the frame it has not acknowledged yet, and
   * whether it got a frame (then its history may miss lines: it gets a
   * whole snapshot when it is in step again).
   */
  behind?: {
    gridSeq: number;
    events: boolean;
    frame: number | null;
    framed: boolean;
  };
  /**
   * The colours it shows (its last `colors` message): the session's
   * colour queries answer them while it is the active window.
   */
  colors?: Omit<ColorsMessage, "type">;
  /** The window said it is going away on purpose. */
  closing: boolean;
  /**
   * Its pager stopped output (a `pause` message): never made stale (unless
   * it is read-only: see {@link Viewer.readOnly}).
   */
  paused?: boolean;
  /**
   * When its pager last let output go on (ms, performance.now()): the time
   * it may hold reading back before it is fed frames counts from then.
   */
  pauseEnded?: number;
  /**
   * Waiting for its snapshot: what the stream brings meanwhile waits here
   * (in order) and follows the snapshot.
   */
  pending: (Uint8Array | ServerMessage)[] | null;
}
