/**
 * One session's emulator on the emulator thread (`emulator_thread.ts`,
 * `emulator_worker.ts`): the {@link EmulatorHost} whose work is posted to
 * the thread, which parses at a lower priority than the browser and holds
 * a flood's output for large writes.
 *
 * @module
 */
import type { DefaultColors } from "../core/emulator/colors.ts";
import type { MarkRef } from "../core/model/command_groups.ts";
import { MAX_SNAPSHOT_CHARS } from "./snapshot_cap.ts";
import { EmulatorBacklog } from "./emulator_backlog.ts";
import type {
  EmulatorHost,
  EmulatorSetup,
  SnapshotText,
} from "./emulator_host.ts";
import {
  emulatorThreadFailed,
  joinEmulatorThread,
  leaveEmulatorThread,
  requestSnapshot,
  type ToEmulator,
} from "./emulator_thread.ts";

/** One session's emulator, on the emulator thread. */
export class WorkerThreadEmulator implements EmulatorHost {
  #id: number;
  #w: Worker;
  #closed = false;
  /** Bytes posted and not yet parsed. */
  #backlog = new EmulatorBacklog();
  /** Output was written since the last `idle`. */
  #wrote = false;

  /** Start the emulator on the thread (the thread too, if it is not running). */
  constructor(setup: EmulatorSetup) {
    const backlog = this.#backlog;
    const { onSettings, onElementEvents, onResized } = setup;
    const { id, thread } = joinEmulatorThread({
      reply: setup.reply,
      parsed: (bytes) => backlog.parsed(bytes),
      settings: (json) => onSettings?.(json),
      elementEvents: (on, generation) => onElementEvents?.(on, generation),
      resized: (cols, rows) => onResized?.(cols, rows),
      failed: () => backlog.clear(),
    });
    this.#id = id;
    this.#w = thread;
    const { scrollback, colors } = setup;
    // A built terminal cannot go to the thread: its snapshot does.
    const start = "built" in setup.start
      ? { snapshot: JSON.stringify(setup.start.built.terminal.snapshot()) }
      : setup.start;
    this.#post({ t: "new", id, start, scrollback, colors });
  }

  #post(m: ToEmulator): void {
    if (!this.#closed) this.#w.postMessage(m);
  }

  /** Feed output (copied: the caller may keep using `data`). */
  write(data: Uint8Array): void {
    if (this.#closed || emulatorThreadFailed()) return;
    this.#backlog.add(data.length);
    this.#post({ t: "write", id: this.#id, data });
    this.#wrote = true;
  }

  /**
   * The program has no more output for now (the PTY read waits): output
   * the thread holds for a larger write is parsed unless more comes soon.
   * Until then it does not know whether a gap is the program's or the
   * windows' flow control holding the read loop back.
   */
  idle(): void {
    if (!this.#wrote) return;
    this.#wrote = false;
    this.#post({ t: "idle", id: this.#id });
  }

  /** Bytes written and not parsed yet. */
  get backlog(): number {
    return this.#backlog.bytes;
  }

  /** See `EmulatorHost.full`. */
  get full(): boolean {
    return this.#backlog.over;
  }

  /**
   * Resolves once the writer may go on (`EmulatorBacklog.drained`: the
   * backlog down to `EMULATOR_LOW`, and the shared one low enough), at
   * once when it may, when closed, or when the emulator failed.
   */
  drained(): Promise<void> {
    const gone = this.#closed || emulatorThreadFailed();
    // Output the thread holds back for a larger write (emulator_worker.ts)
    // must not wait for more: the writer waits for it.
    if (!this.#backlog.low && !gone) {
      this.#post({ t: "flush", id: this.#id });
    }
    return this.#backlog.drained(gone);
  }

  resize(cols: number, rows: number): void {
    this.#post({ t: "resize", id: this.#id, cols, rows });
  }

  /** Whether XTWINOPS 20/21 report the titles (the `title-reporting` setting). */
  setTitleReports(on: boolean): void {
    this.#post({ t: "title-reports", id: this.#id, on });
  }

  clearHistory(): void {
    this.#post({ t: "clear-history", id: this.#id });
  }

  /** See `EmulatorHost.stopElementEvents`. */
  stopElementEvents(): void {
    this.#post({ t: "events-off", id: this.#id });
  }

  /** See `EmulatorHost.setFolded`. */
  setFolded(ref: MarkRef, folded: boolean): void {
    this.#post({ t: "fold", id: this.#id, ref, folded });
  }

  setCellSize(width: number, height: number): void {
    this.#post({ t: "cell", id: this.#id, width, height });
  }

  /** The default colours colour queries answer (in order with the output). */
  setDefaultColors(colors: Partial<DefaultColors>): void {
    this.#post({ t: "colors", id: this.#id, colors });
  }

  /**
   * The emulator's snapshot after everything posted so far, as JSON text
   * (null once closed); with `lag`, see `EmulatorHost.snapshot`.
   */
  snapshot(
    maxChars = MAX_SNAPSHOT_CHARS,
    historyTail = Infinity,
    lag = 0,
  ): Promise<SnapshotText | null> {
    if (this.#closed || emulatorThreadFailed()) return Promise.resolve(null);
    return requestSnapshot(this.#w, this.#id, maxChars, historyTail, lag);
  }

  /** Forget this emulator; the thread ends with the last one. */
  close(): void {
    if (this.#closed) return;
    this.#post({ t: "close", id: this.#id });
    this.#closed = true;
    this.#backlog.clear();
    leaveEmulatorThread(this.#id);
  }
}
