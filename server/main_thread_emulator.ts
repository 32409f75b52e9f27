/**
 * The sessions' emulators on the server's main thread, in time slices: an
 * {@link EmulatorHost} like `WorkerThreadEmulator`
 * (`worker_thread_emulator.ts`) without a second V8 isolate, which costs
 * the server about 15 MB of resident memory by itself. Work is queued in
 * order (a snapshot holds exactly what was written before it was asked
 * for) and done in slices of at most {@link SLICE_MS}, output in pieces of
 * {@link PIECE_BYTES}, with a turn of the event loop between slices
 * (`core/time_sliced_queue.ts`): so parsing never holds up reading the
 * PTY, sending to the windows, input or acknowledgements for longer than a
 * slice (a snapshot, done in one go, is the exception). The work of a
 * session whose program got input in the last {@link INPUT_PRIORITY_MS}
 * goes first (`prioritize`, from `Session.input`): its echo, prompt or
 * reply to a query is not parsed after megabytes of other sessions'
 * floods (tests/server/emulator_priority_test.ts).
 *
 * A session's emulator runs here while its output is light
 * (`session_emulator.ts`): here it runs at the browser's priority and
 * parses every line, so in a flood, on a machine the browser shares,
 * end-to-end throughput is lower than on the emulator thread
 * (docs/benchmarks.md).
 *
 * @module
 */
import { setImmediate } from "node:timers";
import type { Terminal } from "../core/emulator/terminal.ts";
import type { DefaultColors } from "../core/emulator/colors.ts";
import { type MarkRef, setMarkFolded } from "../core/model/command_groups.ts";
import { TimeSlicedQueue } from "../core/time_sliced_queue.ts";
import { capSnapshot, MAX_SNAPSHOT_CHARS } from "./snapshot_cap.ts";
import { fullGc } from "./full_gc.ts";
import {
  type EmulatorHost,
  type EmulatorSetup,
  newEmulatorTerminal,
  PACK_IDLE_MS,
  type SnapshotText,
} from "./emulator_host.ts";
import { EmulatorBacklog } from "./emulator_backlog.ts";
import { UnpackedBudget } from "./emulator_pack_budget.ts";

/** Longest run of emulator work before the event loop gets a turn, ms. */
export const SLICE_MS = 4;
/** Output is parsed in pieces of at most this many bytes. */
export const PIECE_BYTES = 16 * 1024;
/** A full collection follows packing this many lines or more. */
const GC_AFTER_LINES = 1000;
/**
 * ...or V8's heap having grown by this many bytes since the last one: an
 * idle server allocates nothing, so garbage from starting up, attaching
 * windows or moving an emulator (session_emulator.ts) would stay (about
 * 5 MB of a server with one idle session).
 */
const GC_AFTER_GROWTH = 2 << 20;
/** V8's heap right after the last full collection here, bytes. */
let heapAfterGc = 0;
/**
 * A full collection stops the main thread, with the input and the echo
 * of every session: 0.2-2.3 s each (and malloc_trim 0-0.8 s after it),
 * about 20 of them in a 97 s run of bench/many_sessions_bench.ts
 * `--sessions 50` on a loaded 2-core machine, as sessions went quiet one by
 * one while a window typed. So it waits until no session got input for
 * this long (ms).
 */
export const GC_INPUT_QUIET_MS = 1000;
/** When a session last got input (performance.now()): see {@link GC_INPUT_QUIET_MS}. */
let lastInput = -Infinity;
/** A full collection is due, held while a session gets input. */
let gcOwed = false;
/** Full collections done after packing (test hook). */
export const packGc = { count: 0 };

/**
 * A session got input (`Session.input`, wherever its emulator runs): the
 * full collection after packing waits (see {@link GC_INPUT_QUIET_MS}).
 */
export function noteInput(): void {
  lastInput = performance.now();
}

/**
 * An emulator whose program got input within this long (ms) queues its
 * work in {@link urgent}, before the other emulators' (see
 * {@link MainThreadEmulator.prioritize}).
 */
export const INPUT_PRIORITY_MS = 500;
/**
 * While {@link urgent} has had work for this long (ms) without a break
 * (a program typed into that floods), the others' output is parsed again
 * beside it (turn about) rather than after it.
 */
const URGENT_ALONE_MS = 100;

/** When {@link urgent} last began to have work (performance.now()). */
let urgentSince = 0;

/** Parse `piece` of `term`'s output; both queues hand their output on here. */
function take(piece: Uint8Array, term: MainThreadEmulator): number {
  term.parse(piece);
  return piece.length;
}

/**
 * The work of the emulators whose program got input just now: each slice
 * of it runs before any more output of {@link queue} is parsed. An
 * emulator's work is all in one of the two queues at a time, so each
 * emulator's work stays in order.
 */
const urgent = new TimeSlicedQueue<MainThreadEmulator>({
  sliceMs: SLICE_MS,
  pieceBytes: PIECE_BYTES,
  now: () => performance.now(),
  later: (slice) => setImmediate(slice),
  take: (piece, term) => {
    // A program typed into that floods: the others go on beside it.
    if (
      queue.paused && performance.now() - urgentSince >= URGENT_ALONE_MS
    ) queue.resume();
    return take(piece, term);
  },
  done: (term) => term.done(),
  // The others' output, held while this had work, goes on.
  stopped: () => queue.resume(),
});

/** The work of all the other emulators here, in order. */
const queue = new TimeSlicedQueue<MainThreadEmulator>({
  sliceMs: SLICE_MS,
  pieceBytes: PIECE_BYTES,
  now: () => performance.now(),
  // Not setTimeout(0): nested timers are clamped to 4 ms, which would
  // leave the emulators idle half the time during a flood.
  later: (slice) => setImmediate(slice),
  // Taking nothing pauses this queue until `urgent` stops, or has had
  // work for URGENT_ALONE_MS: an echo is not parsed after megabytes of
  // other floods.
  take: (piece, term) =>
    urgent.length > 0 && performance.now() - urgentSince < URGENT_ALONE_MS
      ? 0
      : take(piece, term),
  done: (term) => term.done(),
});

/**
 * Emulators that did work since their history was last packed, with the
 * time of their last work: each is packed once it has been quiet for
 * {@link PACK_IDLE_MS}, whatever the others do.
 */
const toPack = new Map<MainThreadEmulator, number>();
let packTimer: ReturnType<typeof setTimeout> | null = null;
/** History lines not packed yet, bounded for all the emulators here together. */
const unpacked = new UnpackedBudget<MainThreadEmulator>();

/** `term` did work just now: pack its history once it has been quiet for a while. */
function packLater(term: MainThreadEmulator): void {
  toPack.set(term, performance.now());
  packTimer ??= quietTimer(PACK_IDLE_MS);
}

/** A timer for {@link packIdle} that does not keep the process alive. */
function quietTimer(ms: number): ReturnType<typeof setTimeout> {
  const t = setTimeout(packIdle, ms);
  Deno.unrefTimer(t as unknown as number);
  return t;
}

/** Pack the history of the emulators that went quiet (nothing holds a line of it between jobs). */
function packIdle(): void {
  packTimer = null;
  const now = performance.now();
  let packed = 0;
  let next = Infinity;
  for (const [t, last] of toPack) {
    const quiet = now - last;
    if (quiet >= PACK_IDLE_MS && !t.queued) {
      packed += t.compact();
      toPack.delete(t);
    } else {
      next = Math.min(next, Math.max(1, PACK_IDLE_MS - quiet));
    }
  }
  if (next !== Infinity) packTimer = quietTimer(next);
  // What packing freed is garbage nobody would collect in an idle server.
  const allQuiet = next === Infinity;
  if (
    packed >= GC_AFTER_LINES ||
    (allQuiet && Deno.memoryUsage().heapTotal > heapAfterGc + GC_AFTER_GROWTH)
  ) gcOwed = true;
  if (!gcOwed) return;
  const wait = lastInput + GC_INPUT_QUIET_MS - now;
  if (wait > 0) {
    packTimer ??= quietTimer(Math.ceil(wait));
    return;
  }
  gcOwed = false;
  packGc.count++;
  fullGc();
  heapAfterGc = Deno.memoryUsage().heapTotal;
}

/** One session's emulator, on the main thread (see the module comment). */
export class MainThreadEmulator implements EmulatorHost {
  /** Pieces of work of this emulator in the queue. */
  queued = 0;
  /** The queue that holds this emulator's work (the one its next work goes to while it has some). */
  #queue = queue;
  /** Until when its new work goes to {@link urgent} (see {@link prioritize}). */
  #urgentUntil = -Infinity;
  #term: Terminal | null;
  #backlog = new EmulatorBacklog();
  #packedLines = 0;

  constructor(setup: EmulatorSetup) {
    this.#term = newEmulatorTerminal(setup);
    unpacked.add(this, this.#term, () => this.compact());
    // A restored history is packed once quiet, as a parsed one is.
    if (!("cols" in setup.start)) packLater(this);
  }

  /** A piece of work of this emulator is done (called by the queue). */
  done(): void {
    if (--this.queued === 0) packLater(this);
  }

  /** Parse `data` now (called by the queue). */
  parse(data: Uint8Array): void {
    this.#guard(() => this.#term?.write(data));
    this.#backlog.parsed(data.length);
    unpacked.parsed(this);
  }

  /** Run `f`; an exception (a bug in the emulator) ends this emulator only. */
  #guard(f: () => void): void {
    if (this.#term === null) return;
    try {
      f();
    } catch (e) {
      // Say so; the session goes on without snapshots.
      console.error(`domterm: a session's emulator failed: ${e}`);
      this.#term = null;
      this.#backlog.clear();
      unpacked.delete(this);
    }
  }

  /** Pack the history (see `Buffer.compactHistory`); returns the lines packed. */
  compact(): number {
    let n = 0;
    this.#guard(() => n = this.#term?.normalBuffer.compactHistory() ?? 0);
    this.#packedLines += n;
    unpacked.packed(this);
    return n;
  }

  /** Lines packed so far (for tests and benchmarks). */
  get packedLines(): number {
    return this.#packedLines;
  }

  /** Bytes of output not printed because they left the history unseen (for tests and benchmarks). */
  get skippedOutput(): number {
    return this.#term?.skippedOutput ?? 0;
  }

  /**
   * The program got input: for {@link INPUT_PRIORITY_MS}, this
   * emulator's work goes to {@link urgent} (from its next piece of work
   * once it has none queued: its work stays in order), where it is done
   * before the other emulators' output.
   */
  prioritize(): void {
    this.#urgentUntil = performance.now() + INPUT_PRIORITY_MS;
  }

  /** The queue for this emulator's next piece of work (see {@link prioritize}). */
  #next(): TimeSlicedQueue<MainThreadEmulator> {
    if (this.queued === 0) {
      this.#queue = performance.now() < this.#urgentUntil ? urgent : queue;
    }
    if (this.#queue === urgent && urgent.length === 0) {
      urgentSince = performance.now();
    }
    this.queued++;
    return this.#queue;
  }

  /** Work other than output queued and not done yet (see {@link snapshot}'s `lag`). */
  #tasks = 0;

  /** Queue `run` after the work queued so far (it runs even once closed or failed). */
  #task(run: () => void): void {
    this.#tasks++;
    this.#next().pushTask(() => {
      this.#tasks--;
      run();
    }, this);
  }

  #later(f: (t: Terminal) => void): void {
    if (this.#term === null) return;
    this.#task(() => this.#guard(() => f(this.#term!)));
  }

  /** Feed output; `data` must not change afterwards (the read loop's chunks do not). */
  write(data: Uint8Array): void {
    if (this.#term === null || data.length === 0) return;
    this.#backlog.add(data.length);
    this.#next().pushData(data, this);
  }

  /** Nothing to do: this emulator does not hold output back. */
  idle(): void {}

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
    return this.#backlog.drained(this.#term === null);
  }

  resize(cols: number, rows: number): void {
    this.#later((t) => t.resize(cols, rows));
  }

  /** Whether XTWINOPS 20/21 report the titles (the `title-reporting` setting). */
  setTitleReports(on: boolean): void {
    this.#later((t) => t.setTitleReports(on));
  }

  /** Drop the normal screen's history (as ED 3 does). */
  clearHistory(): void {
    this.#later((t) => t.normalBuffer.clearHistory());
  }

  /** See `EmulatorHost.stopElementEvents`. */
  stopElementEvents(): void {
    this.#later((t) => t.stopElementEvents());
  }

  /** See `EmulatorHost.setFolded`. */
  setFolded(ref: MarkRef, folded: boolean): void {
    this.#later((t) => setMarkFolded(t.normalBuffer, ref, folded));
  }

  setCellSize(width: number, height: number): void {
    this.#later((t) => t.setCellSize(width, height));
  }

  /** The default colours colour queries answer (in order with the output). */
  setDefaultColors(colors: Partial<DefaultColors>): void {
    this.#later((t) => t.setDefaultColors(colors));
  }

  /**
   * The emulator's snapshot after everything written so far, as JSON text
   * (null once closed or failed). With `lag` (`EmulatorHost.snapshot`),
   * made at once when only output, at most `lag` bytes of it, is queued.
   */
  snapshot(
    maxChars = MAX_SNAPSHOT_CHARS,
    historyTail = Infinity,
    lag = 0,
  ): Promise<SnapshotText | null> {
    if (this.#term === null) return Promise.resolve(null);
    const unparsed = this.#backlog.bytes;
    if (unparsed > 0 && unparsed <= lag && this.#tasks === 0) {
      const out = this.#capture(maxChars, historyTail);
      return Promise.resolve(out && { ...out, unparsed });
    }
    const { promise, resolve } = Promise.withResolvers<SnapshotText | null>();
    // Runs even once closed or failed (then the answer is null).
    this.#task(() => resolve(this.#capture(maxChars, historyTail)));
    return promise;
  }

  /** The snapshot of the model as it is now (null once closed or failed). */
  #capture(maxChars: number, historyTail: number): SnapshotText | null {
    let out: SnapshotText | null = null;
    this.#guard(() => out = capSnapshot(this.#term!, maxChars, historyTail));
    unpacked.unpackedBySnapshot(this, historyTail);
    return out;
  }

  /** Forget this emulator: its queued work does nothing (a snapshot answers null). */
  close(): void {
    if (this.#term === null) return;
    this.#term = null;
    this.#backlog.clear();
    toPack.delete(this);
    unpacked.delete(this);
  }
}
