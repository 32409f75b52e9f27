/**
 * A session's emulator, whichever thread it runs on: the
 * {@link EmulatorHost} interface, and the one place its core `Terminal` is
 * built ({@link newEmulatorTerminal}). Two hosts implement it:
 * `MainThreadEmulator` (`main_thread_emulator.ts`: on the server's main
 * thread, in time slices) and `WorkerThreadEmulator`
 * (`worker_thread_emulator.ts`: on the emulator thread,
 * `emulator_thread.ts` and `emulator_worker.ts`); `SessionEmulator`
 * (`session_emulator.ts`) moves a session's emulator between them.
 *
 * @module
 */
import { Terminal } from "../core/emulator/terminal.ts";
import type { DefaultColors } from "../core/emulator/colors.ts";
import type { GraphemeSetting } from "../core/emulator/modes.ts";
import type { TerminalEvent } from "../core/terminal_view.ts";
import type { MarkRef } from "../core/model/command_groups.ts";

export { EMULATOR_HIGH, EMULATOR_LOW } from "./emulator_backlog.ts";
// The emulator thread's lifetime, for the server (session.ts) and the
// single-file build (scripts/bundle.ts).
export {
  embedEmulatorWorker,
  emulatorThreadRunning,
  startEmulatorThread,
} from "./emulator_thread.ts";

/** A snapshot as an emulator wrote it: JSON text, capped. */
export interface SnapshotText {
  json: string;
  droppedLines: number;
  /**
   * Bytes of the output written before the snapshot was asked for that it
   * does not hold (not parsed yet: a frame's, see `EmulatorHost.snapshot`'s
   * `lag`); the snapshot is of the stream that many bytes back. 0 or
   * absent: it holds everything.
   */
  unparsed?: number;
}

/**
 * A session's history is packed (`Buffer.compactHistory`) once no output
 * came for this long, ms: during a flood most lines leave the history
 * before then, and packing every line would double the emulator's work.
 */
export const PACK_IDLE_MS = 250;

/** How a session's emulator starts: blank, or as a snapshot describes. */
export type EmulatorStart =
  | {
    cols: number;
    rows: number;
    /** The `grapheme-clusters` setting (mode 2027); a snapshot carries its own. */
    graphemeClusters?: GraphemeSetting;
  }
  /**
   * A snapshot's JSON, whole (as `snapshot(Infinity)` gives it): the
   * emulator starts in that state, its size included.
   */
  | { snapshot: string }
  /** A terminal built already (a restore's: server/journal/), taken as it is. */
  | { built: BuiltTerminal };

/**
 * A terminal that was built before its session (a restore rebuilt it from
 * the journal: its snapshot parsed once, its segments replayed), with the
 * callbacks it forwards to, set by the host that takes it.
 */
export interface BuiltTerminal {
  terminal: Terminal;
  /** Its history limit in lines. */
  scrollback: number;
  /** From now on, its replies and events go to `setup`'s callbacks. */
  bind(setup: EmulatorSetup): void;
}

/**
 * A session's terminal built before its session (a restore's), with the
 * same options as {@link newEmulatorTerminal}'s; its callbacks go where
 * the host that takes it binds them (nowhere until then).
 */
export function newBuiltTerminal(
  start: EmulatorStart,
  scrollback: number,
): BuiltTerminal {
  let to: Partial<EmulatorSetup> = {};
  const terminal = newEmulatorTerminal({
    start,
    scrollback,
    reply: (d) => to.reply?.(d),
    onSettings: (j) => to.onSettings?.(j),
    onElementEvents: (on, g) => to.onElementEvents?.(on, g),
    onResized: (c, r) => to.onResized?.(c, r),
  });
  return { terminal, scrollback, bind: (setup) => void (to = setup) };
}

/**
 * The state a host that cannot take a built terminal (the emulator thread,
 * another history limit) starts from: its snapshot's JSON.
 */
export function startOf(
  start: EmulatorStart,
  scrollback: number,
): EmulatorStart {
  if (!("built" in start) || start.built.scrollback === scrollback) {
    return start;
  }
  return { snapshot: JSON.stringify(start.built.terminal.snapshot()) };
}

/** What a session's emulator starts from. */
export interface EmulatorSetup {
  start: EmulatorStart;
  /** History limit in lines (`Infinity` allowed). */
  scrollback: number;
  /** Receives the emulator's answers to the program's queries. */
  reply: (data: string) => void;
  /**
   * Receives the JSON of each `OSC 88` the program prints: kept by the
   * server for the session's windows, so a window that attaches later (a
   * reload) looks the same.
   */
  onSettings?: (json: string) => void;
  /**
   * The element-event mode (?7101) went on or off, with the events
   * generation now (`core/emulator/element_events.ts`): the session
   * checks the events windows send against it.
   */
  onElementEvents?: (on: boolean, generation: number) => void;
  /**
   * A program's request (XTWINOPS 8, DECCOLM, DECSNLS...) resized the
   * emulator, now `cols` x `rows` (`core/emulator/window_ops.ts`
   * `requestSize`): the session's grid is that, as in every window's
   * emulator at the same byte, until the window says what fits.
   */
  onResized?: (cols: number, rows: number) => void;
  /**
   * The default colours its colour queries answer (the active window's
   * theme); not in a snapshot: configuration, given again after a move.
   */
  colors?: Partial<DefaultColors>;
}

/**
 * The core emulator of a session, as both hosts build it. It never draws,
 * so it does not print the lines of a write that leave its history before
 * the write ends (`skipHiddenOutput`, `core/emulator/hidden_output.ts`):
 * the model comes out identical, so a session's emulator behaves the same
 * whichever thread it runs on, and before and after a move.
 *
 * On the main thread, writes are 16 KiB pieces: with the default 10,000
 * lines of history nothing in one can leave it, and looking costs (CPU
 * per MB of 16 KiB writes, best of 11: base64 lines 4.5 -> 5.1 ms, `yes`
 * 22.8 -> 25.4, `ls` 7.1 -> 7.5), while with 1,000 lines `yes` takes 8.0
 * ms instead of 21.8. The main thread sees only the first MiB of a flood
 * (then it moves), so either way it is little; sessions_bench with the
 * emulator pinned to the main thread showed no difference beyond noise.
 */
export function newEmulatorTerminal(setup: EmulatorSetup): Terminal {
  const { onSettings, onElementEvents, onResized } = setup;
  let term: Terminal | null = null;
  const options = {
    scrollback: setup.scrollback,
    skipHiddenOutput: true,
    reply: setup.reply,
    colors: setup.colors,
    onEvent: (e: TerminalEvent) => {
      if (e.type === "settings") onSettings?.(e.json);
      else if (e.type === "element-events") {
        onElementEvents?.(e.on, e.generation);
      } else if (e.type === "resize-request" && term !== null) {
        onResized?.(term.cols, term.rows);
      }
    },
  };
  const start = startOf(setup.start, setup.scrollback);
  if ("built" in start) {
    // Parsed once (by the restore), not serialized and parsed again.
    term = start.built.terminal;
    start.built.bind(setup);
    if (setup.colors) term.setDefaultColors(setup.colors);
    return term;
  }
  if ("snapshot" in start) {
    term = Terminal.restore(JSON.parse(start.snapshot), options);
    // Packed at once, not once quiet: a restore builds every history line
    // as cell arrays (16 bytes a cell, 12.8 MB for 10,000 lines of 80
    // columns), and sessions move back from the emulator thread together
    // once a flood of many of them ends (20 sessions: +200 MB for a while).
    term.normalBuffer.compactHistory();
    return term;
  }
  term = new Terminal({
    ...options,
    cols: start.cols,
    rows: start.rows,
    graphemeClusters: start.graphemeClusters,
  });
  return term;
}

/**
 * One session's emulator, on one thread or the other. Work reaches it in
 * order: a snapshot holds exactly the output written before it was asked
 * for, and the answers to the program's queries come in order. A bug in the
 * emulator ends it (its snapshots are null from then on), never the server.
 */
export interface EmulatorHost {
  /** Feed output; `data` must not change afterwards (the read loop's chunks do not). */
  write(data: Uint8Array): void;
  /**
   * The program has no more output for now (the PTY read waits): a host
   * that holds a flood's output back for larger writes parses it unless
   * more comes soon.
   */
  idle(): void;
  /**
   * The program just got input: what it answers (an echo, a prompt, a
   * reply to a query) should not wait behind other sessions' floods. A
   * host that parses several sessions' output in one queue puts this
   * one's first for a while (`main_thread_emulator.ts`).
   */
  prioritize?(): void;
  /** Bytes written and not parsed yet. */
  readonly backlog: number;
  /**
   * The writer should wait for {@link drained}: this emulator's backlog is
   * over `EMULATOR_HIGH`, or every emulator's together over `SHARED_HIGH`
   * and this one's over `SHARE_HIGH` (emulator_backlog.ts).
   */
  readonly full: boolean;
  /**
   * Resolves once the writer may go on (`EmulatorBacklog.drained`: the
   * backlog down to `EMULATOR_LOW`, and the shared one low enough), at
   * once when it may, when closed, or when the emulator failed.
   */
  drained(): Promise<void>;
  resize(cols: number, rows: number): void;
  /** Whether XTWINOPS 20/21 report the titles (the `title-reporting` setting). */
  setTitleReports(on: boolean): void;
  /** Drop the normal screen's history (as ED 3 does). */
  clearHistory(): void;
  /**
   * Turn the element-event mode off here in the stream, as `CSI ? 7101 l`
   * would (`Terminal.stopElementEvents`).
   */
  stopElementEvents(): void;
  /**
   * Fold or unfold by hand, here in the stream, the command group or span
   * whose mark `ref` names (`setMarkFolded` of core/model/command_groups.ts,
   * on the normal buffer): a flag of the model, so its snapshots carry it.
   */
  setFolded(ref: MarkRef, folded: boolean): void;
  /**
   * The default colours (the active window's theme) that colour queries
   * answer and colour resets go back to (`Terminal.setDefaultColors`).
   */
  setDefaultColors(colors: Partial<DefaultColors>): void;
  /** The window's cell size in pixels (for `CSI 14 t` and the like). */
  setCellSize(width: number, height: number): void;
  /**
   * The emulator's snapshot after everything written so far, as JSON text
   * of at most `maxChars` (default `MAX_SNAPSHOT_CHARS`); null once closed
   * or failed. With `historyTail`, only the newest that many history
   * lines (a frame's, `Terminal.snapshot`). With `lag` (a frame's: any
   * state of the model is a valid frame), it may be made at once from the
   * model as far as it has parsed, leaving out up to `lag` bytes of the
   * output written last (`SnapshotText.unparsed`), rather than after
   * parsing them; only output is left out, never a resize or other work
   * written after it.
   */
  snapshot(
    maxChars?: number,
    historyTail?: number,
    lag?: number,
  ): Promise<SnapshotText | null>;
  /** Forget this emulator (a snapshot still on its way may answer null). */
  close(): void;
}
