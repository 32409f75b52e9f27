/**
 * What a window that fell behind gets next (docs/protocol.md, "Frames"):
 * the session (server/session.ts) asks {@link nextForBehind} each time such
 * a window acknowledges something (bytes or a frame).
 *
 * A window more than HIGH_WATER behind gets no more output bytes. Once it
 * has processed what it was sent, it gets a frame: a snapshot of the
 * session's model whose history holds only the newest
 * {@link frameHistoryTail} lines (the page keeps the older lines it has
 * when they join up: `Terminal.loadFrame`). At most one frame is in
 * flight: the next is made only when the page acknowledged the last, from
 * the model as it is then, so a slow page or link gets the latest state,
 * never a queue. When nothing came since the last frame it acknowledged,
 * the window is in step again and gets bytes as before; when little came
 * (at most {@link REPLAY_MAX} bytes, and no event of theirs was sent to
 * it), it gets those bytes from the replay log instead of a frame, so its
 * history misses nothing.
 *
 * @module
 */

/** History lines a frame holds beyond the screen. */
export const FRAME_HISTORY = 256;

/** Skipped output small enough to send as bytes rather than a frame. */
export const REPLAY_MAX = 64 * 1024;

/** The history lines of a frame for a grid of `rows` rows. */
export function frameHistoryTail(rows: number): number {
  return rows + FRAME_HISTORY;
}

/** What a window behind is owed, as far as the next step is concerned. */
export interface BehindState {
  /** Output bytes sent to it (its stream offset on the server's side). */
  sent: number;
  /** Of those, the bytes it acknowledged. */
  acked: number;
  /** A frame was sent and not acknowledged yet. */
  frameInFlight: boolean;
  /** A snapshot or frame is being made for it. */
  making: boolean;
  /** `event` messages were sent to it for output it skipped. */
  events: boolean;
}

/** The next step for a window behind: see the module doc. */
export type NextStep = "wait" | "bytes" | "replay" | "frame";

/** The next step for window `w` when the session has read `bytesRead`. */
export function nextForBehind(w: BehindState, bytesRead: number): NextStep {
  if (w.frameInFlight || w.making || w.acked < w.sent) return "wait";
  const skipped = bytesRead - w.sent;
  if (skipped === 0) return "bytes";
  if (!w.events && skipped <= REPLAY_MAX) return "replay";
  return "frame";
}
