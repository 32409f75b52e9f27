/**
 * A session: one program on a pseudo-terminal, the headless emulator that
 * is the truth about its screen, and the windows that show it. A window
 * is a {@link Viewer} (server/viewer.ts): the session tells it output,
 * snapshots and typed notifications and never sees a socket; the
 * WebSocket window (server/window_connection.ts) encodes them for the wire.
 * The session lives as long as the program does, whatever happens to the
 * windows: a window that disappears (crash, dropped connection) only
 * detaches; a window closed on purpose as the last one hangs the program up.
 *
 * The output stream has offsets (bytes read from the PTY so far). A window
 * that attaches gets a snapshot of the emulator and then the bytes from
 * the snapshot's offset; one that reconnects says which offset it had
 * processed and gets the bytes after it from the {@link ReplayLog}, or a
 * snapshot when the log no longer reaches back that far.
 *
 * The emulator here answers the program's queries (DA, CPR, DECRQM, colour
 * queries...), so a program gets its answers while no window is attached
 * and two windows never answer twice; windows only report what only they
 * know (their size in cells and pixels, focus).
 *
 * The PTY's size follows the window that most recently had input or focus
 * (tmux's `window-size latest`); a grid change is sent in the stream, so
 * every window's emulator resizes at the same point as the server's. The
 * colours the emulator's colour queries answer (OSC 4, 10, 11, 12) follow
 * the same window: the theme it shows (its `colors` message).
 *
 * Flow control: each window acknowledges the bytes it has processed. A
 * window more than HIGH_WATER behind is fed frames instead of bytes: it
 * gets no more output ("stale") until it has processed what it was sent,
 * then a fresh snapshot of the model (and the bytes after it, while it
 * keeps up); the events in the bytes it skipped that the model does not
 * keep (bell, notifications, clipboard writes, the pager's switch) reach
 * it as `event` messages (server/frame_events.ts). So the program is never
 * held back for a window's sake, only for the session's own emulator
 * (EMULATOR_HIGH), or by a window whose pager stopped output (`pause`):
 * that one is never fed frames, and while it is more than HIGH_WATER
 * behind the session stops reading the PTY (the program blocks) until it
 * is within LOW_WATER.
 *
 * @module
 */
import type { GraphemeSetting } from "../core/emulator/modes.ts";
import type { ExitStatus, Pty } from "./pty/pty.ts";
import {
  CLOSE_GRACE_MS,
  type ColorsMessage,
  type ElementEventMessage,
  type FoldMessage,
  HIGH_WATER,
  LOW_WATER,
  type ReadyMessage,
  type ServerMessage,
} from "../core/protocol.ts";
import type { BuiltTerminal } from "./emulator_host.ts";
import { SessionEmulator } from "./session_emulator.ts";
import { eventReport } from "../core/emulator/element_events.ts";
import { DEFAULT_SCROLLBACK } from "../core/model/buffer.ts";
import { VERSION } from "./version.ts";
import {
  type LaunchOptions,
  pinnedEmulators,
  spawnProgram,
} from "./session_launch.ts";
import {
  REPLAY_BYTES,
  type ReplayExport,
  ReplayLog,
  sessionReplays,
} from "./replay.ts";
import { SizeSettler } from "./size_settle.ts";
import { EventTap } from "./frame_events.ts";
import { echoTrace } from "./echo_trace.ts";
import {
  DrainMeter,
  frameHistoryTail,
  nextForBehind,
} from "./frames/policy.ts";
import type { SessionSnapshot, Viewer, Window } from "./viewer.ts";
import type { SessionJournal } from "./journal/writer.ts";

const now = () => performance.now();

export type { SessionSnapshot, Viewer, Window } from "./viewer.ts";

/** What starts a session (its program: {@link LaunchOptions}). */
export interface SessionOptions extends LaunchOptions {
  /** History lines of the session's emulator (default 10,000; Infinity allowed). */
  scrollback?: number;
  /** A name to attach it by (`domterm new --name`). */
  name?: string;
  /** The `grapheme-clusters` setting of its emulator (mode 2027; default "off"). */
  graphemeClusters?: GraphemeSetting;
  /**
   * The colours its colour queries answer until a window says (the
   * colours of the window whose hello starts it).
   */
  colors?: Omit<ColorsMessage, "type">;
  /** The program printed `OSC 88 ; json` (settings for the session's windows). */
  onSettings?: (json: string) => void;
  /**
   * Called after each piece of output reached the windows (line_input.ts
   * checks whether a program went raw while a window edits a line).
   */
  afterOutput?: () => void;
  /** Flow-control thresholds (bytes); default from core/protocol.ts. */
  highWater?: number;
  lowWater?: number;
  /** Output bytes kept for reconnecting windows (default {@link REPLAY_BYTES}). */
  replayBytes?: number;
  /** A detached session with no window ends after this many ms (default: never). */
  detachedTimeoutMs?: number;
  /** Ms a closed last window waits for a reload before the program is hung up. */
  closeGraceMs?: number;
  /**
   * Whether a page that shows this session is there now (its window's
   * channel is connected): a window that went is coming back (a reload
   * slower than the grace), so a session without windows is not ended
   * yet. It knows nothing of windows itself; the registry answers.
   */
  awaited?: () => boolean;
  /**
   * The model to start from, a whole snapshot's JSON (a session restored
   * from its journal: server/journal/); its size must be `cols` x `rows`.
   */
  initialSnapshot?: string | BuiltTerminal;
}

export { RESIZE_SETTLE_MS } from "./size_settle.ts";

/**
 * What a session hands to the next server (`domterm restart-server`,
 * server/handover/): with its PTY master, everything a window needs to
 * go on where it was: the model at the stream offset `bytesRead`, the
 * replay log up to it (windows resume from their offsets) and its grid
 * changes.
 */
export interface SessionCarry {
  id: number;
  name: string | null;
  command: string[];
  pid: number;
  ttyName: string;
  cols: number;
  rows: number;
  bytesRead: number;
  detachedSince: number | null;
  /** The emulator's whole snapshot (JSON) at `bytesRead`. */
  snapshot: string;
  replay: ReplayExport;
  /** The colours its colour queries answer (the active window's). */
  colors: Omit<ColorsMessage, "type"> | null;
}

/** Why an adopted session's program ended, as its windows are told. */
export const UNKNOWN_EXIT_REASON =
  "the program ended; its exit status is unknown (it was started by an earlier domterm server, before a restart)";

/**
 * A window more than HIGH_WATER behind holds reading back (the program
 * waits, so Ctrl-C stops a flood at once: a page that keeps up, only
 * briefly behind, gets every byte as before); one still behind after this
 * long (a slow link, a page that cannot keep up) is fed frames from then
 * on and no longer holds the program back. A paused window (its pager)
 * never is. Tests wait this long to see that a paused window still holds
 * the program back.
 */
export const STALE_MS = 1500;

/**
 * Output read before a window falls behind that the {@link EventTap} reads
 * first, without reporting it: it then knows whether the window's first
 * skipped byte is inside an escape sequence or string (a BEL ending an OSC
 * is no bell). A string longer than this across that point is misread.
 */
const TAP_PREROLL = 1 << 20;

const encoder = new TextEncoder();

/** Folds made by hand that a resuming window is sent, at most. */
const MAX_FOLDS_KEPT = 256;

/** A running session. */
/**
 * How long a session without windows waits, at most, for a page that
 * shows it (its window's channel connected) to attach before it ends as
 * it would have (ms since its last window went).
 */
export const AWAIT_RELOAD_MAX_MS = 60_000;

export class Session {
  readonly id: number;
  readonly pty: Pty;
  /** The command line it runs (for `domterm list`). */
  readonly command: string[];
  /** The name it can be attached by, if it has one. */
  readonly name: string | null;
  readonly windows = new Set<Window>();
  /** The emulator that is the truth about the screen (see {@link pinnedEmulators}). */
  #term: SessionEmulator;
  #titleReports: boolean | null = null;

  /** Whether the session's emulator reports the titles (XTWINOPS 20/21). */
  setTitleReports(on: boolean): void {
    if (on === this.#titleReports) return;
    this.#titleReports = on;
    this.#term.setTitleReports(on);
  }
  #cols: number;
  #rows: number;
  /** Resolves when the child has exited and all its output was delivered. */
  readonly finished: Promise<ExitStatus>;
  /** Set once the child has exited. */
  exitStatus: ExitStatus | null = null;
  /** Whether the read loop is paused by flow control. */
  get paused(): boolean {
    return this.#paused;
  }
  #paused = false;
  /** Total output bytes read from the PTY: the stream offset. */
  bytesRead = 0;
  /** When the last window left (ms since the epoch), or null while attached. */
  detachedSince: number | null = Date.now();

  #high: number;
  /** Why close() ended the session, for the exit message. */
  #endReason: string | undefined;
  #low: number;
  #resume: (() => void) | null = null;
  #closing = false;
  /** The PTY's size, once it settled. */
  #size = new SizeSettler((size) => {
    if (this.exitStatus || this.#closing) return;
    try {
      this.pty.resize(...size);
    } catch {
      // ignore: the pty may have closed meanwhile
    }
  });
  #replay: ReplayLog;
  /** The window whose size the PTY follows. */
  #active: Window | null = null;
  /** The colours last given to the emulator (JSON), to skip repeats. */
  #colorsKey = "";
  /**
   * Reads the stream for the events of windows fed frames, while there is
   * one (null otherwise).
   */
  #tap: EventTap | null = null;
  /**
   * The last window was paused (its pager) when it closed on purpose, a
   * reload most likely: reading stays held until a window attaches, so
   * the program does not run on unseen meanwhile.
   */
  #holdForReload = false;
  /** Ends the session when it is still without a window (a closed last window's grace, or the detached timeout). */
  #aloneTimer: ReturnType<typeof setTimeout> | undefined;
  #detachedTimeoutMs: number | undefined;
  #closeGraceMs: number;
  #awaited: (() => boolean) | undefined;
  #afterOutput: (() => void) | undefined;
  /**
   * The element-event mode (?7101) as the session's emulator last said,
   * and the PTY's foreground process group when it went on: events go
   * only to that group (docs/interactive.md).
   */
  #events: { on: boolean; generation: number; pgrp: number | null } = {
    on: false,
    generation: 0,
    pgrp: null,
  };

  /** Where the stream is also written down (server/journal/), if anywhere. */
  #journal: SessionJournal | null = null;

  /** Write the stream from here on to `journal` too (right after start: it must see every byte). */
  setJournal(journal: SessionJournal | null): void {
    this.#journal = journal;
  }

  private constructor(
    options: SessionOptions,
    pty: Pty,
    command: string[],
    carried?: SessionCarry,
  ) {
    this.id = options.id;
    this.pty = pty;
    this.command = command;
    this.name = options.name ?? null;
    this.#high = options.highWater ?? HIGH_WATER;
    this.#low = options.lowWater ?? LOW_WATER;
    const replayBytes = options.replayBytes ?? REPLAY_BYTES;
    this.#replay = carried
      ? ReplayLog.restore(replayBytes, carried.replay, sessionReplays)
      : new ReplayLog(replayBytes, 0, sessionReplays);
    if (carried) {
      this.bytesRead = carried.bytesRead;
      this.detachedSince = carried.detachedSince ?? Date.now();
    }
    this.#detachedTimeoutMs = options.detachedTimeoutMs;
    this.#closeGraceMs = options.closeGraceMs ?? CLOSE_GRACE_MS;
    this.#awaited = options.awaited;
    this.#afterOutput = options.afterOutput;
    this.#cols = options.cols;
    this.#rows = options.rows;
    // The program's queries are answered there, once, for every window.
    this.#term = new SessionEmulator(
      options.id,
      options.cols,
      options.rows,
      options.scrollback ?? DEFAULT_SCROLLBACK,
      (data) => void this.#write(encoder.encode(data)),
      options.onSettings,
      {
        pinned: pinnedEmulators(),
        snapshot: carried?.snapshot,
        initial: options.initialSnapshot,
      },
      options.graphemeClusters,
    );
    this.#term.onElementEvents = (on, generation) => {
      // The program that turned it on is the one in the foreground now.
      const pgrp = on ? this.pty.foregroundGroup() : null;
      this.#events = { on, generation, pgrp };
    };
    this.#term.onResized = (cols, rows) => this.#programResized(cols, rows);
    if (options.colors) this.#useColors(options.colors);
    // The emulator thread holds a flood's output for larger writes until
    // the program pauses (emulator_worker.ts).
    pty.onReadWait = () => {
      this.#readWaits = true;
      this.#term.idle();
    };
    this.finished = this.#run();
    this.#endIfAlone(this.#detachedTimeoutMs);
  }

  /** Start the child. Throws a readable Error when it cannot be started. */
  static start(options: SessionOptions): Session {
    const { pty, cleanup } = spawnProgram(options);
    const session = new Session(options, pty, [
      options.command,
      ...options.args,
    ]);
    // The shell reads the files at startup; they go when the session ends.
    session.finished.finally(cleanup);
    return session;
  }

  /**
   * Take over a session an earlier server handed over (`domterm
   * restart-server`): its PTY (adopted: see `Pty.adopt`) and its state.
   */
  static adopt(
    options: SessionOptions,
    pty: Pty,
    carried: SessionCarry,
  ): Session {
    return new Session(options, pty, carried.command, carried);
  }

  /** Set while the session is being handed to another server. */
  #handingOver = false;
  /** A snapshot made for a handover before the session stopped, and where. */
  #early: { json: string; offset: number; gridSeq: number } | null = null;

  /**
   * Make the snapshot for a handover now, while the program runs: if no
   * output and no grid change comes before {@link handOver} stops the
   * session (an idle session), that one is used, and the session is
   * stopped only for the transfer.
   */
  async prepareHandOver(): Promise<void> {
    const offset = this.bytesRead, gridSeq = this.#replay.gridSeq;
    const snap = await this.#term.snapshot(Infinity);
    this.#early = snap && { json: snap.json, offset, gridSeq };
  }
  /** Set once another server holds the session: this one does nothing more with it. */
  #handedOver = false;

  /**
   * Stop, to hand the session to another server: reading and writing the
   * PTY wait (the program blocks once the kernel's buffer is full, and
   * notices nothing else), every window is told the server restarts
   * (they reconnect by themselves), and the state is taken at the stream
   * offset where reading stopped. {@link resumeHere} undoes it if the
   * other server fails; {@link letGo} ends it here once the other holds it.
   */
  async handOver(): Promise<SessionCarry | null> {
    if (this.exitStatus || this.#closing) return null;
    this.#handingOver = true;
    const suspended = this.pty.suspendIo();
    for (const w of [...this.windows]) {
      this.windows.delete(w);
      w.viewer.end("restarting");
    }
    await suspended;
    // A chunk read just before is handled in microtasks: let them run.
    await new Promise((r) => setTimeout(r, 0));
    // Everything read is in the emulator's queue before this asks (the
    // snapshot made earlier does when nothing came since).
    const early = this.#early;
    this.#early = null;
    const snap = early?.offset === this.bytesRead &&
        early.gridSeq === this.#replay.gridSeq
      ? early
      : await this.#term.snapshot(Infinity);
    if (snap === null) return null;
    return {
      id: this.id,
      name: this.name,
      command: this.command,
      pid: this.pty.pid,
      ttyName: this.pty.ttyName,
      cols: this.#cols,
      rows: this.#rows,
      bytesRead: this.bytesRead,
      detachedSince: this.detachedSince ?? Date.now(),
      snapshot: snap.json,
      replay: this.#replay.export(),
      colors: this.#colorsKey ? JSON.parse(this.#colorsKey) : null,
    };
  }

  /** The handover failed: go on here (the windows reconnect to this server). */
  resumeHere(): void {
    if (!this.#handingOver || this.#handedOver) return;
    this.#handingOver = false;
    this.detachedSince ??= Date.now();
    this.pty.resumeIo();
  }

  /**
   * Another server holds the session now: stop everything here without
   * touching the program (no hang-up; the master stays open until this
   * process exits). `finished` never resolves.
   */
  letGo(): void {
    this.#handedOver = true;
    this.#closing = true;
    this.#size.cancel();
    clearTimeout(this.#aloneTimer);
    clearTimeout(this.#staleTimer);
    this.pty.letGo();
    this.#term.close();
    this.#replay.close();
  }

  /**
   * The emulator's snapshot at the current stream offset, as JSON text,
   * with that offset and the last grid change in it (null once the
   * session is over). With `lag` (a frame's), it may be of the model as
   * far as it has parsed, up to `lag` bytes back: its offset says where.
   */
  async snapshot(
    historyTail = Infinity,
    lag = 0,
  ): Promise<SessionSnapshot | null> {
    const at = this.bytesRead, gridSeq = this.#replay.gridSeq;
    const snap = await this.#term.snapshot(undefined, historyTail, lag);
    if (snap === null) return null;
    // Output left out comes after any grid change (emulator_host.ts).
    const { json, droppedLines, unparsed = 0 } = snap;
    return { json, droppedLines, offset: at - unparsed, gridSeq };
  }

  /** The program's process id. */
  get pid(): number {
    return this.pty.pid;
  }

  /** The session's grid. */
  get cols(): number {
    return this.#cols;
  }
  get rows(): number {
    return this.#rows;
  }

  /**
   * Attach a viewer whose grid is `cols` x `rows`. With `resume` (a
   * reconnect), the output after that offset is sent if the replay log
   * still has it; otherwise, and for a new window, a snapshot. Tells the
   * viewer `ready` first (with the `scrollback` the caller adds).
   */
  attach(
    viewer: Viewer,
    cols: number,
    rows: number,
    ready: Pick<ReadyMessage, "scrollback"> = {},
    resume?: { offset: number; gridSeq: number },
  ): Window {
    const w: Window = {
      viewer,
      sent: this.bytesRead,
      acked: this.bytesRead,
      cols,
      rows,
      stale: false,
      closing: false,
      pending: null,
    };
    clearTimeout(this.#aloneTimer);
    this.detachedSince = null;
    const entries = resume
      ? this.#replay.since(resume.offset, resume.gridSeq)
      : null;
    viewer.message({
      type: "ready",
      session: this.id,
      pid: this.pty.pid,
      version: VERSION,
      cols: this.cols,
      rows: this.rows,
      offset: entries ? resume!.offset : this.bytesRead,
      resumed: entries !== null,
      command: this.command,
      ...ready,
    });
    // The page acknowledges `ready` at once: the link's first round trip.
    this.#meter(w).sent(this.bytesRead, 0, now());
    if (entries) {
      w.sent = w.acked = resume!.offset;
      for (const e of entries) {
        if ("data" in e) {
          viewer.output(e.data);
          w.sent = e.offset + e.data.length;
        } else {
          viewer.message({
            type: "grid",
            cols: e.cols,
            rows: e.rows,
            seq: e.seq,
            ...(e.clearHistory ? { clearHistory: true } : {}),
            ...(e.eventsOff ? { eventsOff: true } : {}),
          });
        }
      }
      // Folds made meanwhile (their marks outlive the bytes after them).
      for (const f of this.#folds) {
        if (f.offset >= resume!.offset) viewer.message(f.msg);
      }
    } else {
      this.#sendSnapshot(w);
    }
    this.windows.add(w);
    if (this.#holdForReload) {
      this.#holdForReload = false;
      this.#checkFlow();
    }
    // A window alone decides the size; one more follows the active one.
    if (this.windows.size === 1 || this.#active === null) this.#active = w;
    if (this.#active === w) {
      this.#setGrid(cols, rows, undefined, undefined, false);
    }
    return w;
  }

  /**
   * Send `w` a snapshot at the current offset (a frame: see
   * {@link snapshot}'s `lag`); what comes meanwhile waits in `w.pending`
   * (after `pending`) and follows it.
   */
  #sendSnapshot(
    w: Window,
    frame = false,
    pending: (Uint8Array | ServerMessage)[] = [],
  ): void {
    w.pending = pending;
    // A frame may be of the model as far as it has parsed (reading does
    // not wait for it), but never older than what the window has; once
    // the program paused (the read loop waits for it: the end of a flood,
    // a prompt after Ctrl-C) it is of the model after all of it, so that
    // the last screen is not a round trip and more of lagging frames away.
    const lag = frame && !this.#readWaits ? this.bytesRead - w.sent : 0;
    w.sent = w.acked = this.bytesRead;
    const tail = frame ? frameHistoryTail(this.#rows) : Infinity;
    const sent = this.snapshot(tail, lag).then((snap) => {
      const pending = w.pending ?? [];
      w.pending = null;
      // Without a snapshot (the emulator failed or closed) the window still
      // gets what came meanwhile: it was counted as sent, and bytes it never
      // gets it can never acknowledge (the program held back for good).
      if (snap !== null) {
        if (frame && !w.stale && snap.offset < this.bytesRead) {
          // No longer fed frames (the program ended meanwhile): this frame
          // lacks the end; the whole model instead, then what waited.
          this.#sendSnapshot(w, false, pending);
          return;
        }
        // A window fed frames gets no bytes (pending holds only messages):
        // its stream is where the frame is, the bytes after it skipped.
        if (frame) w.sent = w.acked = snap.offset;
        if (frame && w.behind) {
          // The page keeps its history lines only if no grid change (a
          // reflow, a cleared history) came since it got them.
          snap.frame = { keep: w.behind.gridSeq === snap.gridSeq };
          w.behind.gridSeq = snap.gridSeq;
          w.behind.frame = snap.offset;
          w.behind.framed = true;
        }
        w.viewer.snapshot(snap);
      }
      for (const f of pending) {
        if (f instanceof Uint8Array) w.viewer.output(f);
        else w.viewer.message(f);
      }
    });
    this.#inflight.add(sent);
    sent.finally(() => this.#inflight.delete(sent));
  }

  /** The read loop waits for the program's output (Pty.onReadWait): it paused. */
  #readWaits = false;

  /** Snapshots on their way to windows (the exit waits for them). */
  #inflight = new Set<Promise<void>>();

  /**
   * A window's socket closed. A window that said it was closing, as the
   * last one, hangs the program up unless another attaches within the
   * grace time (a reload); any other loss only detaches.
   */
  detach(w: Window): void {
    if (!this.windows.delete(w)) return;
    if (w.paused && w.closing && this.windows.size === 0) {
      this.#holdForReload = true;
    }
    if (this.#active === w) {
      this.#active = [...this.windows].pop() ?? null;
      if (this.#active) {
        this.#applyColors(this.#active);
        this.#setGrid(
          this.#active.cols,
          this.#active.rows,
          undefined,
          undefined,
          false,
        );
      }
    }
    this.#checkFlow();
    if (this.windows.size > 0 || this.exitStatus) return;
    this.detachedSince = Date.now();
    this.#endIfAlone(w.closing ? this.#closeGraceMs : this.#detachedTimeoutMs);
  }

  /** End the session in `ms` (never: undefined) unless a window attaches meanwhile. */
  #endIfAlone(ms: number | undefined): void {
    clearTimeout(this.#aloneTimer);
    if (ms === undefined || !Number.isFinite(ms)) return;
    this.#aloneTimer = setTimeout(() => {
      if (this.windows.size > 0) return;
      // A page showing it is back (a reload that took longer than the
      // grace): wait for it to attach, within reason.
      const since = Date.now() - (this.detachedSince ?? Date.now());
      if (since < AWAIT_RELOAD_MAX_MS && this.#awaited?.()) {
        this.#endIfAlone(ms);
      } else void this.close();
    }, ms);
  }

  /**
   * Clear the history (a window's "Clear scrollback"): in the emulator here
   * and in every window at this point of the stream, as a grid change that
   * keeps the grid (so a reconnecting window replays it in order). Not
   * written into the output: the program's bytes may stop inside an escape
   * sequence, which an inserted `CSI 3 J` would break.
   */
  clearHistory(): void {
    if (this.exitStatus) return;
    this.#term.clearHistory();
    this.#announceGrid(true);
  }

  /**
   * Log the grid (a change, a clearing of the history, the element-event
   * mode going off) and tell every window.
   */
  #announceGrid(clearHistory = false, eventsOff = false): void {
    const seq = this.#replay.pushGrid(
      this.cols,
      this.rows,
      clearHistory,
      eventsOff,
    );
    this.#journal?.grid(this.cols, this.rows, clearHistory);
    this.#broadcast({
      type: "grid",
      cols: this.cols,
      rows: this.rows,
      seq,
      ...(clearHistory ? { clearHistory: true } : {}),
      ...(eventsOff ? { eventsOff: true } : {}),
    });
  }

  /** Recent folds made by hand and where they were, for windows that resume. */
  #folds: { offset: number; msg: FoldMessage }[] = [];

  /**
   * Window `w`'s user folded or unfolded a command group (or a span) by
   * hand: the flag goes into the model here in the stream (so snapshots,
   * a handover and the journal keep it) and to every other window. A
   * read-only window's fold stays its own.
   */
  fold(w: Window, m: FoldMessage): void {
    if (w.viewer.readOnly || !this.windows.has(w)) return;
    const { line, x, kind, folded } = m;
    const msg: FoldMessage = { type: "fold", line, x, kind, folded };
    this.#term.setFolded({ line, x, kind }, folded);
    this.#early = null; // a handover's early snapshot lacks it
    this.#journal?.modelChanged();
    this.#folds.push({ offset: this.bytesRead, msg });
    if (this.#folds.length > MAX_FOLDS_KEPT) this.#folds.shift();
    for (const o of this.windows) {
      if (o === w || o.stale) continue;
      if (o.pending !== null) o.pending.push(msg);
      else o.viewer.message(msg);
    }
  }

  /**
   * Window `w`'s user clicked, toggled or changed an element printed with
   * `data-dt-event` (docs/interactive.md): the program reads one
   * `ESC ] 7101 ; JSON BEL LF` line, written to the PTY as typed input
   * (no line editor on the way), if the mode is on, the element was
   * printed in its current generation, the window is not read-only, and
   * the process group that turned the mode on is still in the foreground.
   * When it is not, the mode goes off here, in the emulator and every
   * window (a `grid` message with `eventsOff`): its elements are inert.
   */
  elementEvent(w: Window, m: ElementEventMessage): boolean {
    if (w.viewer.readOnly || this.exitStatus || !this.windows.has(w)) {
      return false;
    }
    const ev = this.#events;
    if (!ev.on || m.generation !== ev.generation) return false;
    const pgrp = this.pty.foregroundGroup();
    if (pgrp === null || pgrp !== ev.pgrp) {
      this.#events = { on: false, generation: ev.generation + 1, pgrp: null };
      this.#term.stopElementEvents();
      this.#announceGrid(false, true);
      return false;
    }
    const { name, key, event, value } = m;
    const line = encoder.encode(eventReport({ name, key, event, value }));
    // Only to the program that asked: dropped should it leave meanwhile.
    this.pty.write(line, () => this.pty.foregroundGroup() === pgrp).catch(
      () => {},
    );
    return true;
  }

  /** Detach every window on purpose (`domterm detach`, Ctrl+Shift+D): the session goes on. */
  detachAll(): void {
    for (const w of [...this.windows]) {
      w.viewer.message({ type: "detached", session: this.id });
      this.detach(w);
      w.viewer.end("detached");
    }
  }

  /** The window says it is going away on purpose. */
  closing(w: Window): void {
    w.closing = true;
  }

  /**
   * Window `w`'s pager stopped output, or let it go on. A paused window
   * holds the program back like a window alone: it is never left out as
   * stale, so it misses nothing and gets no snapshot that skips ahead.
   */
  pause(w: Window, paused: boolean): void {
    w.paused = paused;
    if (!paused) {
      // No longer paused, it holds reading back as any window behind does:
      // fed frames if still behind STALE_MS from now (a page shows the
      // output it held at once, and its pager may stop again a screenful
      // later: it must not skip it). The timer that would have looked
      // found it paused and was not armed again.
      w.pauseEnded = now();
      this.#checkFlow();
      if (this.#paused) {
        clearTimeout(this.#staleTimer);
        this.#checkStale();
      }
    } else if (w.stale && !w.viewer.readOnly) this.#replayTo(w);
  }

  /**
   * Window `w`, fed frames, gets the bytes it skipped after all, from the
   * replay log, if the log still has them and no event of theirs was sent
   * to it (else it stays on frames). For a window whose pager stopped
   * output (the `pause` came after it fell behind: the page had not
   * processed enough to see the screenful yet), so that its pager misses
   * nothing; and for one that caught up when it skipped little.
   */
  #replayTo(w: Window): void {
    const behind = w.behind;
    if (
      behind === undefined || behind.events || behind.frame !== null ||
      w.pending !== null
    ) return;
    const entries = this.#replay.since(w.sent, behind.gridSeq);
    if (entries === null) return;
    w.stale = false;
    w.behind = undefined;
    for (const e of entries) {
      if ("data" in e) {
        w.viewer.output(e.data);
        w.sent = e.offset + e.data.length;
      } else {
        w.viewer.message({
          type: "grid",
          cols: e.cols,
          rows: e.rows,
          seq: e.seq,
          ...(e.clearHistory ? { clearHistory: true } : {}),
          ...(e.eventsOff ? { eventsOff: true } : {}),
        });
      }
    }
  }

  /**
   * A window acknowledged `bytes` more processed output bytes, and with
   * `frame` the frame made at that offset (it loaded it).
   */
  ack(w: Window, bytes: number, frame?: number): void {
    const before = w.acked;
    w.acked = Math.min(w.sent, w.acked + bytes);
    if (!w.stale) {
      this.#meter(w).acked(
        w.acked - before,
        w.acked,
        w.sent - w.acked,
        now(),
      );
    }
    if (frame !== undefined && w.behind?.frame === frame) {
      w.behind.frame = null;
    }
    if (w.stale && this.windows.has(w)) this.#feedBehind(w);
    this.#checkFlow();
  }

  /**
   * Window `w`, fed frames, acknowledged something: what it gets next
   * (server/frames/policy.ts): nothing yet, bytes again (it is in step),
   * the few bytes it skipped, or a frame of the model as it is now.
   */
  #feedBehind(w: Window): void {
    const behind = w.behind!;
    const step = nextForBehind({
      sent: w.sent,
      acked: w.acked,
      frameInFlight: behind.frame !== null,
      making: w.pending !== null,
      events: behind.events,
    }, this.bytesRead);
    if (step === "bytes") {
      // In step again: bytes from here; after frames, whose history held
      // only the newest lines, first the whole model (the page loads its
      // history in slices, after the screen it has already).
      w.stale = false;
      const framed = behind.framed;
      w.behind = undefined;
      if (framed) this.#sendSnapshot(w);
    } else if (step === "replay" && behind.framed) {
      // Nearly in step, after frames: the few bytes it skipped at once (a
      // Ctrl-C's prompt is drawn without waiting for the whole model to be
      // made and cross the link), then the whole model, for the history
      // lines the frames left out.
      this.#replayTo(w);
      w.stale = false;
      w.behind = undefined;
      this.#sendSnapshot(w);
    } else if (step === "replay") {
      this.#replayTo(w);
      if (w.stale) this.#sendSnapshot(w, true);
    } else if (step === "frame") this.#sendSnapshot(w, true);
  }

  /** Input from window `w` (or from elsewhere with null) for the program. */
  async input(data: Uint8Array, w: Window | null = null): Promise<void> {
    if (w !== null) this.focus(w);
    // What the program answers is parsed before other sessions' floods.
    this.#term.prioritize();
    await this.#write(data);
  }

  async #write(data: Uint8Array): Promise<void> {
    if (this.exitStatus) return;
    try {
      await this.pty.write(data);
    } catch {
      // The child is gone; its exit is reported by the read loop.
    }
  }

  /**
   * Puts `data` into the output stream as if the program had written it
   * (pipe mode's local echo): every window, the replay log and the
   * session's emulator get it at this offset.
   */
  echo(data: Uint8Array): void {
    if (this.exitStatus || data.length === 0) return;
    const chunk = data.slice() as Uint8Array<ArrayBuffer>;
    this.bytesRead += chunk.length;
    this.#broadcast(chunk);
    this.#replay.pushBytes(chunk);
    this.#journal?.output(chunk);
    this.#term.write(chunk);
  }

  /** Window `w` has the focus or typed: the PTY size follows it. */
  focus(w: Window): void {
    if (this.#active === w || !this.windows.has(w)) return;
    this.#active = w;
    this.#applyColors(w);
    this.#setGrid(w.cols, w.rows, undefined, undefined, false);
  }

  /**
   * Window `w` shows these colours (its theme and colour settings): the
   * emulator's colour queries answer them while `w` is the active window.
   * A read-only window's are ignored.
   */
  setColors(w: Window, colors: Omit<ColorsMessage, "type">): void {
    if (w.viewer.readOnly) return;
    const { foreground, background, cursor, palette } = colors;
    w.colors = { foreground, background, cursor, palette };
    if (this.#active === w) this.#applyColors(w);
  }

  /** Give the emulator `w`'s colours, if it said and they changed. */
  #applyColors(w: Window): void {
    if (w.colors === undefined || this.exitStatus) return;
    this.#useColors(w.colors);
  }

  /** The emulator's colour queries answer `colors` from here on (unless they are already). */
  #useColors(colors: Omit<ColorsMessage, "type">): void {
    const key = JSON.stringify(colors);
    if (key === this.#colorsKey) return;
    this.#colorsKey = key;
    this.#term.setDefaultColors(colors);
  }

  /**
   * Window `w`'s text area changed size (cells and optional pixels). The
   * session's grid follows it if it is the active window; the program gets
   * the size once sizes stop coming for the settle time.
   */
  resize(
    w: Window,
    cols: number,
    rows: number,
    width?: number,
    height?: number,
  ): void {
    w.cols = cols;
    w.rows = rows;
    if (this.#active !== w) return;
    if (width !== undefined && height !== undefined) {
      this.#term.setCellSize(width / cols, height / rows);
    }
    this.#setGrid(cols, rows, width, height);
  }

  /**
   * A program's request resized the emulator (every window's did the same
   * at the same byte): that is the grid, and the PTY's size, until the
   * active window says what fits (a `resize`, then a grid change as usual).
   */
  #programResized(cols: number, rows: number): void {
    if (this.exitStatus || this.#closing) return;
    if (cols === this.cols && rows === this.rows) return;
    this.#cols = cols;
    this.#rows = rows;
    this.#size.set([cols, rows, undefined, undefined], true);
  }

  /**
   * Change the grid: the emulator now, every window in the stream, the PTY
   * after the settle time (a window being dragged) or at once (`settle`
   * false: another window took over).
   */
  #setGrid(
    cols: number,
    rows: number,
    width?: number,
    height?: number,
    settle = true,
  ): void {
    if (this.exitStatus || this.#closing) return;
    if (cols !== this.cols || rows !== this.rows) {
      // At this point of the stream (the emulator gets it in order).
      this.#term.resize(cols, rows);
      this.#cols = cols;
      this.#rows = rows;
      this.#announceGrid();
    }
    this.#size.set([this.cols, this.rows, width, height], settle);
  }

  /**
   * End the session: hang up the child and close every window. `reason`
   * (why domterm ends it) goes with the exit message the windows show.
   */
  async close(reason?: string): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    this.#endReason = reason;
    this.#size.cancel();
    clearTimeout(this.#aloneTimer);
    clearTimeout(this.#staleTimer);
    this.#resume?.();
    await this.pty.close();
    await this.finished;
  }

  /** Whether window `w`'s link is not loopback (its acks' round trip: DrainMeter). */
  linkRemote(w: Window): boolean {
    return this.#meter(w).remote;
  }

  /**
   * Window `w` came straight to the loopback listener (not through a port
   * forward): its link is never taken for a slow one, whatever its acks'
   * round trip on a loaded machine.
   */
  linkDirect(w: Window): void {
    this.#meter(w).direct = true;
  }

  /** Each window's link, measured (server/frames/policy.ts). */
  #meters = new WeakMap<Window, DrainMeter>();

  #meter(w: Window): DrainMeter {
    let m = this.#meters.get(w);
    if (m === undefined) this.#meters.set(w, m = new DrainMeter());
    return m;
  }

  /**
   * Whether a window that holds reading back (not fed frames) is more than
   * `level` (#high or #low) behind, scaled to its own link: a remote one
   * may have less in flight (DrainMeter.limit). A remote window past its
   * limit is fed frames from here (`fallBehind`), not held for
   * (DrainMeter.framesAtOnce).
   */
  #over(level: number, fallBehind = false): boolean {
    let over = false;
    for (const w of this.windows) {
      if (w.stale || w.viewer.readOnly) continue;
      const m = this.#meter(w);
      const limit = m.limit(this.#high);
      if (w.sent - w.acked <= level * limit / this.#high) continue;
      if (fallBehind && !w.paused && m.framesAtOnce()) this.#fallBehind(w);
      else over = true;
    }
    return over;
  }

  /** A remote window not paused with `lag` in flight would be past its limit: fed frames at once. */
  #overLimit(w: Window, lag: number): boolean {
    const m = this.#meter(w);
    return !w.paused && m.framesAtOnce() && lag > m.limit(this.#high);
  }

  #checkFlow(): void {
    if (
      this.#paused && !this.#holdForReload && !this.#over(this.#low, true)
    ) {
      this.#paused = false;
      clearTimeout(this.#staleTimer);
      const r = this.#resume;
      this.#resume = null;
      r?.();
    }
  }

  /**
   * Reading has been held back for {@link STALE_MS}: the windows that
   * still hold it back (not paused by their pager) are fed frames from
   * here on, and reading goes on.
   */
  #checkStale(): void {
    if (!this.#paused || this.#closing) return;
    let next = Infinity;
    for (const w of this.windows) {
      const m = this.#meter(w);
      if (
        w.stale || w.paused || w.viewer.readOnly ||
        w.sent - w.acked <= m.limit(this.#high) * this.#low / this.#high
      ) continue;
      const held = now() - Math.max(this.#pausedAt, w.pauseEnded ?? 0);
      // A remote window waits less (DrainMeter.staleAfter).
      const after = m.staleAfter(STALE_MS);
      if (held >= after - 1) this.#fallBehind(w);
      else next = Math.min(next, after - held);
    }
    this.#checkFlow();
    if (this.#paused && next < Infinity) {
      this.#staleTimer = setTimeout(() => this.#checkStale(), next);
    }
  }

  /** When reading was last held back (flow control). */
  #pausedAt = 0;
  #heldMs = 0;

  /**
   * How long reading has been held back for windows behind, in all (ms):
   * the program's writes blocked for their sake (tests, benchmarks).
   */
  get heldMs(): number {
    return this.#heldMs + (this.#paused ? now() - this.#pausedAt : 0);
  }

  /** How long reading may be held before #checkStale looks: the least of the windows'. */
  #staleDelay(): number {
    let ms = STALE_MS;
    for (const w of this.windows) {
      ms = Math.min(ms, this.#meter(w).staleAfter(STALE_MS));
    }
    return ms;
  }

  #staleTimer: ReturnType<typeof setTimeout> | undefined;

  /** Tell every window that is not left out (in order, after a snapshot it waits for). */
  #broadcast(msg: ServerMessage | Uint8Array<ArrayBuffer>): void {
    const bytes = msg instanceof Uint8Array;
    if (bytes) {
      for (const w of this.windows) {
        // A read-only window too far behind is fed frames from here on
        // (it never holds the program back), and a remote one that this
        // chunk would take past its limit: the page must process what is
        // in flight before its first frame, so that is kept to the limit
        // (a Ctrl-C's prompt waits for it). Another holds reading back
        // first (#checkStale); one that keeps up gets the bytes as they came.
        if (w.stale) continue;
        const lag = w.sent - w.acked;
        if (
          w.viewer.readOnly
            ? lag > this.#high
            : this.#overLimit(w, lag + msg.length)
        ) this.#fallBehind(w);
      }
      this.#tapEvents(msg);
    }
    const t = bytes ? now() : 0;
    for (const w of this.windows) {
      if (w.stale) continue;
      if (bytes) {
        w.sent += msg.length;
        this.#meter(w).sent(w.sent, w.sent - w.acked, t);
      }
      if (w.pending !== null) w.pending.push(msg);
      else if (bytes) w.viewer.output(msg);
      else w.viewer.message(msg);
    }
  }

  /**
   * Window `w` gets no more bytes, from the current offset, until it has
   * processed what it was sent (then a snapshot: {@link ack}); the events
   * in what it skips come as messages, so the tap reads from here.
   */
  #fallBehind(w: Window): void {
    w.stale = true;
    w.behind = {
      gridSeq: this.#replay.gridSeq,
      events: false,
      frame: null,
      framed: false,
    };
    if (this.#tap !== null) return;
    // The tap reads what came before (the replay log, up to the chunk
    // being broadcast), reporting nothing, to be in step at this offset.
    const tap = new EventTap();
    for (const b of this.#replay.bytesFrom(this.bytesRead - TAP_PREROLL)) {
      tap.feed(b);
    }
    this.#tap = tap;
  }

  /**
   * The events in `chunk` (just read, not yet in the replay log), as
   * messages to the windows fed frames: they do not get these bytes. The
   * tap stops once no window is fed frames.
   */
  #tapEvents(chunk: Uint8Array): void {
    if (this.#tap === null) return;
    const behind = [...this.windows].filter((w) => w.stale);
    if (behind.length === 0) {
      this.#tap = null;
      return;
    }
    for (const event of this.#tap.feed(chunk)) {
      for (const w of behind) {
        if (w.behind) w.behind.events = true;
        if (w.pending !== null) w.pending.push({ type: "event", event });
        else w.viewer.message({ type: "event", event });
      }
    }
  }

  async #run(): Promise<ExitStatus> {
    // A background process of the child may keep the terminal open after
    // the child exits: deliver what is already there (also while a slow
    // window holds reading paused), then hang up once output has stopped.
    this.pty.exited.then(() => {
      let seen = -1;
      const check = () => {
        if (
          this.#paused || this.#term.backlog > 0 || this.bytesRead !== seen
        ) {
          seen = this.bytesRead;
          Deno.unrefTimer(setTimeout(check, 300));
        } else {
          void this.pty.close();
        }
      };
      check();
    });
    for (;;) {
      if (!this.#closing && this.#over(this.#high, true)) {
        this.#paused = true;
        clearTimeout(this.#staleTimer);
        this.#pausedAt = now();
        this.#staleTimer = setTimeout(
          () => this.#checkStale(),
          this.#staleDelay(),
        );
        await new Promise<void>((r) => this.#resume = r);
        this.#heldMs += now() - this.#pausedAt;
      }
      // The emulator here must keep up (emulator_backlog.ts: EMULATOR_HIGH,
      // and SHARED_HIGH for all sessions together). Nothing else waits for
      // it: a window fed frames gets the model as far as it has parsed
      // (#sendSnapshot), any state being a frame.
      if (this.#term.full) await this.#term.drained();
      const chunk = await this.pty.read();
      this.#readWaits = false;
      echoTrace?.mark(this.pty, "loop");
      // Another server holds the session now: nothing ends here.
      if (this.#handedOver) return new Promise<ExitStatus>(() => {});
      if (chunk === null) break;
      this.bytesRead += chunk.length;
      // To the windows first, so that they work on it while the emulator
      // here does; no window can attach in between (this is synchronous),
      // so a snapshot always holds exactly the bytes before its offset.
      this.#broadcast(chunk);
      this.#replay.pushBytes(chunk);
      this.#journal?.output(chunk);
      this.#term.write(chunk);
      this.#afterOutput?.();
    }
    const status = await this.pty.exited;
    this.exitStatus = status;
    if (this.pty.adopted && status.code === null && status.signal === null) {
      this.#endReason ??= UNKNOWN_EXIT_REASON;
    }
    this.#size.cancel();
    clearTimeout(this.#aloneTimer);
    clearTimeout(this.#staleTimer);
    for (const w of this.windows) {
      if (!w.stale) continue;
      w.stale = false;
      w.behind = undefined;
      // A window fed frames gets the last screen, then the exit.
      if (w.pending === null) this.#sendSnapshot(w);
    }
    this.#broadcast({
      type: "exit",
      code: status.code,
      signal: status.signal,
      ...(this.#endReason ? { reason: this.#endReason } : {}),
    });
    await this.pty.close();
    // Windows waiting for a snapshot get it, and the exit after it (a
    // frame that lacked the end is followed by the whole model).
    while (this.#inflight.size > 0) await Promise.all(this.#inflight);
    this.#term.close();
    this.#replay.close();
    for (const w of this.windows) w.viewer.end("ended");
    return status;
  }
}
