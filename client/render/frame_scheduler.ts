/**
 * When to draw (as xterm.js's RenderService and RenderDebouncer): one frame
 * per animation frame, asked for by {@link FrameScheduler.schedule} and
 * coalesced; fewer frames while output floods in; frames held while the
 * program is in a synchronized update (?2026); and idle work (the history
 * the frames left undrawn) when output and typing are quiet. What a frame
 * draws is the {@link FrameHost}'s business (client/renderer.ts).
 *
 * @module
 */
import type { TerminalView } from "../../core/terminal_view.ts";

/**
 * Idle filling waits until no line was added for this long: during a
 * flood most dormant chunks are trimmed before anyone could see them.
 */
const IDLE_QUIET_MS = 300;

/**
 * While output floods in (the last frame scrolled more than a screen), draw
 * at most one frame per this many ms: each frame costs the browser style,
 * layout and paint whatever it shows, and fewer of them leave more time
 * for processing output. 20 frames a second still looks live.
 */
const FLOOD_FRAME_MS = 50;

/**
 * A frame that shows new text costs the browser from about 1 ms (a screen
 * of ASCII) to over 100 ms (a screen of CJK and emoji, shaped through font
 * fallback). While a flood goes on, frames are spaced so that drawing
 * takes at most 1 / FLOOD_COST_SHARE of the time (measured: the cost of
 * the last flood frames, from the animation frame callback to the first
 * task after the frame), but at least every FLOOD_MAX_GAP_MS.
 */
const FLOOD_COST_SHARE = 4;
const FLOOD_MAX_GAP_MS = 400;

/** Longest time frames wait for a synchronized update (?2026) to end. */
export const SYNC_HOLD_MS = 500;

/** What the scheduler draws with, and asks about. */
export interface FrameHost {
  /** Draw a frame now. */
  draw(): void;
  /**
   * Lines of the normal buffer drawn so far, counted from the start of
   * the output (trimmed ones too).
   */
  linesDrawn(): number;
  /** Whether idle work is left. */
  idleWanted(): boolean;
  /** Whether idle work may run now (false while the alternate screen shows). */
  idleAllowed(): boolean;
  /** Do idle work, within `deadline`'s time. */
  idleWork(deadline: IdleDeadline): void;
}

/** Decides when the host draws. */
export class FrameScheduler {
  /** Pending requestAnimationFrame (0: none). */
  #frame = 0;
  /** When the current synchronized-output hold began (-1: none). */
  #holdSince = -1;
  /** When the last frame was drawn, and whether it scrolled a screen or more. */
  #lastFrame = -Infinity;
  #flooding = false;
  /** Smoothed cost (ms) of recent flood frames (see FLOOD_COST_SHARE). */
  #floodCost = 0;
  /** Posts the task that measures a frame's cost. */
  #costProbe: MessageChannel | null = null;
  #costStart = 0;
  /** When a frame last added lines to the normal buffer's view. */
  #lastGrowth = -Infinity;
  /** When the user last typed (see noteUserInput). */
  #lastInput = -Infinity;
  /** Lines seen (trimmed + length) when a flood frame was last held back. */
  #gateSeen = -1;
  /** When the user last scrolled away from the bottom during a flood. */
  #lastScroll = -Infinity;
  /** Pending requestIdleCallback (0: none). */
  #idle = 0;

  constructor(readonly term: TerminalView, readonly host: FrameHost) {}

  /**
   * Ask for a frame at the next animation frame; cheap to call often
   * (coalesced). While the terminal holds output (synchronized output,
   * mode ?2026) frames wait, for at most {@link SYNC_HOLD_MS}.
   */
  schedule(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(this.#onFrame);
  }

  /** A frame is being drawn outside the animation frame: drop the pending one. */
  cancelFrame(): void {
    if (this.#frame !== 0) {
      cancelAnimationFrame(this.#frame);
      this.#frame = 0;
    }
  }

  /** Whether the last frame scrolled more than a screen (output floods in). */
  get flooding(): boolean {
    return this.#flooding;
  }

  /**
   * The host drew a frame of the normal buffer that added `added` lines to
   * its view of `rows` rows.
   */
  frameDrawn(added: number, rows: number): void {
    this.#flooding = added > rows;
    this.#lastFrame = performance.now();
    if (added > 0) this.#lastGrowth = this.#lastFrame;
  }

  /** The user typed: the next frame is not held back, idle work waits. */
  noteUserInput(): void {
    this.#lastInput = performance.now();
  }

  /** The user scrolled away from the bottom: in a flood, show it at the next frame. */
  noteScrolledBack(): void {
    if (!this.#flooding) return;
    this.#lastScroll = performance.now();
    this.schedule();
  }

  #onFrame = (now: number) => {
    this.#frame = 0;
    // Also scrolled back: with a full scrollback the history in view then
    // drifts up as the oldest lines are trimmed, and each frame draws the
    // rows that came into view (showRange), as costly as a new screen.
    if (this.#flooding && this.#stillFlooding()) {
      const gap = Math.min(
        FLOOD_MAX_GAP_MS,
        Math.max(FLOOD_FRAME_MS, FLOOD_COST_SHARE * this.#floodCost),
      );
      if (now - this.#lastFrame < gap) {
        this.#frame = requestAnimationFrame(this.#onFrame);
        return;
      }
    }
    if (this.term.synchronizedOutput) {
      if (this.#holdSince < 0) this.#holdSince = now;
      if (now - this.#holdSince < SYNC_HOLD_MS) {
        this.#frame = requestAnimationFrame(this.#onFrame);
        return;
      }
    }
    this.#holdSince = -1;
    const start = performance.now();
    this.host.draw();
    if (this.#flooding && typeof MessageChannel === "function") {
      // Style, layout and paint follow this callback in the same task; the
      // first task after it sees their cost.
      if (this.#costProbe === null) {
        this.#costProbe = new MessageChannel();
        this.#costProbe.port1.onmessage = this.#onFrameDone;
      }
      this.#costStart = start;
      this.#costProbe.port2.postMessage(0);
    } else this.#floodCost = 0;
  };

  /**
   * Whether a held-back flood frame should wait on: a screen's worth of
   * lines or more came since the last frame, more came since the last look
   * (an animation frame ago), and the user did not type or scroll since the
   * last frame. So a key pressed in a flood, the history scrolled to, and
   * the prompt after Ctrl-C show at the next frame.
   */
  #stillFlooding(): boolean {
    if (
      this.#lastInput > this.#lastFrame || this.#lastScroll > this.#lastFrame
    ) return false;
    const buf = this.term.buffer;
    if (buf.isAlt) return false;
    // Nothing came since the last look (an animation frame ago): the
    // flood has stopped (Ctrl-C, say); show where it ended now.
    const seen = buf.trimmed + buf.length;
    if (seen === this.#gateSeen) return false;
    this.#gateSeen = seen;
    return seen - this.host.linesDrawn() > this.term.rows;
  }

  #onFrameDone = () => {
    const cost = performance.now() - this.#costStart;
    this.#floodCost = this.#floodCost === 0
      ? cost
      : 0.5 * this.#floodCost + 0.5 * cost;
  };

  /** Ask for idle work, if the host has some and none is asked for yet. */
  requestIdle(): void {
    if (
      this.#idle === 0 && this.host.idleWanted() &&
      typeof requestIdleCallback === "function"
    ) {
      this.#idle = requestIdleCallback(this.#onIdle);
    }
  }

  #onIdle = (deadline: IdleDeadline) => {
    this.#idle = 0;
    // Work only when nothing else waits (a frame is due: output came) and
    // output has been quiet for a while.
    const now = performance.now();
    if (
      this.#frame !== 0 || !this.host.idleAllowed() ||
      now - this.#lastGrowth < IDLE_QUIET_MS ||
      now - this.#lastInput < IDLE_QUIET_MS
    ) {
      return this.requestIdle();
    }
    this.host.idleWork(deadline);
    this.requestIdle();
  };

  /** Cancel the pending frame and idle work. */
  dispose(): void {
    this.cancelFrame();
    if (this.#idle !== 0) cancelIdleCallback(this.#idle);
    this.#idle = 0;
  }
}
