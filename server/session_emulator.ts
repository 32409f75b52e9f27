/**
 * A session's emulator, placed where it costs least: on the server's main
 * thread (`MainThreadEmulator`, `main_thread_emulator.ts`) while its output
 * is light, and on the emulator thread (`WorkerThreadEmulator`,
 * `worker_thread_emulator.ts`) while the program floods. Both are an
 * `EmulatorHost` (`emulator_host.ts`). The
 * thread is a second V8 isolate, about 15 MB of resident memory by itself,
 * so an idle server should not keep it; but in a flood the thread parses
 * at a lower priority than the browser, in large batches that skip the
 * lines nobody will see, and end-to-end throughput is 6-16% higher with it
 * (docs/benchmarks.md, "Server footprint").
 *
 * A move takes the emulator's whole snapshot after everything written so
 * far and starts the other one from it (a snapshot restores a terminal
 * that behaves exactly as the original from there on). Whatever the
 * session asks for meanwhile (output, resizes, snapshots for windows)
 * waits in order and goes to the new emulator, so nothing is lost or
 * reordered, and replies to the program stay in order: the old emulator
 * has answered everything before the snapshot.
 *
 * @module
 */
import type { GraphemeSetting } from "../core/emulator/modes.ts";
import type { MarkRef } from "../core/model/command_groups.ts";
import type {
  BuiltTerminal,
  EmulatorHost,
  EmulatorSetup,
  SnapshotText,
} from "./emulator_host.ts";
import { MainThreadEmulator, noteInput } from "./main_thread_emulator.ts";
import { WorkerThreadEmulator } from "./worker_thread_emulator.ts";
import { MAX_SNAPSHOT_CHARS } from "./snapshot_cap.ts";
import { EMULATOR_HIGH } from "./emulator_backlog.ts";
import {
  BUILTIN_DEFAULT_COLORS,
  type DefaultColors,
  withDefaultColors,
} from "../core/emulator/colors.ts";

/** When a session's emulator moves (see {@link SessionEmulator}). */
export interface PlacementOptions {
  /**
   * Output of at least this many bytes within {@link floodWindowMs} moves
   * the emulator to the thread.
   */
  floodBytes: number;
  /** See {@link floodBytes}. */
  floodWindowMs: number;
  /**
   * While the emulators on the main thread together get
   * {@link floodBytes} within {@link floodWindowMs}, one that got at
   * least this many of them moves too: many sessions flooding at once
   * (each below the flood) otherwise all parse on the main thread, and
   * input, acks and every session's reading wait for it.
   */
  shareBytes: number;
  /** After this long without output, the emulator comes back to the main thread. */
  quietMs: number;
  /**
   * Histories longer than this many lines stay where they are: moving one
   * means serializing and parsing all of it at once on the main thread.
   */
  maxScrollback: number;
  /** Never move: stay on the main thread, or on the thread. */
  pinned: EmulatorPlace | null;
}

/** The defaults of {@link PlacementOptions}. */
export const DEFAULT_PLACEMENT: PlacementOptions = {
  floodBytes: 1 << 20,
  floodWindowMs: 500,
  shareBytes: 32 * 1024,
  quietMs: 5000,
  maxScrollback: 100_000,
  pinned: null,
};

/** Where a session's emulator runs: the server's main thread, or the emulator thread. */
export type EmulatorPlace = "main" | "thread";

/** The two hosts, by where they run. */
const HOSTS: Record<EmulatorPlace, new (setup: EmulatorSetup) => EmulatorHost> =
  {
    main: MainThreadEmulator,
    thread: WorkerThreadEmulator,
  };

/**
 * Output to every emulator on the main thread in the current flood window
 * (see {@link PlacementOptions.shareBytes}), which began at `start`.
 */
const mainOutput = { start: 0, bytes: 0 };

/** The restores of handed-over sessions, one per turn of the event loop. */
let restoreTurn: Promise<void> = Promise.resolve();

/** One session's emulator, on the main thread or on the emulator thread. */
export class SessionEmulator {
  /** The session's id, in messages. */
  #id: number;
  #scrollback: number;
  #reply: (data: string) => void;
  #onSettings?: (json: string) => void;
  #options: PlacementOptions;
  #inner: EmulatorHost;
  #place: EmulatorPlace;
  #closed = false;
  /** Work that waits for a move to finish, in order; null: not moving. */
  #waiting: ((to: EmulatorHost) => void)[] | null = null;
  /** Bytes of output among `#waiting`. */
  #waitingBytes = 0;
  #moved: Promise<void> = Promise.resolve();
  /** The settings a snapshot does not carry, given again after a move. */
  #titleReports: boolean | null = null;
  /** The default colours given so far (null: the built-in ones). */
  #colors: DefaultColors | null = null;
  /** Output in the current flood window, which began at `#windowStart`. */
  #windowBytes = 0;
  #windowStart = 0;
  #lastOutput = 0;
  #quietTimer: ReturnType<typeof setTimeout> | undefined;
  /** Moves so far (for tests and benchmarks). */
  moves = 0;
  /** Told when the element-event mode goes on or off (`EmulatorSetup.onElementEvents`). */
  onElementEvents: ((on: boolean, generation: number) => void) | undefined;
  /** Told when a program's request resized it (`EmulatorSetup.onResized`). */
  onResized: ((cols: number, rows: number) => void) | undefined;

  /**
   * The emulator of session `id`: `reply` receives its answers to the
   * program's queries; `onSettings` the JSON of each `OSC 88` the program
   * prints. With `initial` (a whole snapshot's JSON: a restored session)
   * it starts in that state, its size included.
   */
  constructor(
    id: number,
    cols: number,
    rows: number,
    scrollback: number,
    reply: (data: string) => void,
    onSettings?: (json: string) => void,
    { snapshot, initial, ...options }: Partial<PlacementOptions> & {
      /**
       * Take this snapshot's state (JSON, whole: a session a restarted
       * server adopted) in a later turn.
       */
      snapshot?: string;
      /** Start in this snapshot's state (JSON, whole: a restored session). */
      initial?: string | BuiltTerminal;
    } = {},
    graphemeClusters?: GraphemeSetting,
  ) {
    this.#id = id;
    this.#scrollback = scrollback;
    this.#reply = reply;
    this.#onSettings = onSettings;
    this.#options = { ...DEFAULT_PLACEMENT, ...options };
    this.#place = this.#options.pinned === "thread" ? "thread" : "main";
    this.#inner = new HOSTS[this.#place]({
      start: initial === undefined
        ? { cols, rows, graphemeClusters }
        : typeof initial === "string"
        ? { snapshot: initial }
        : { built: initial },
      scrollback,
      reply,
      onSettings,
      onElementEvents: (on, g) => this.onElementEvents?.(on, g),
      onResized: (c, r) => this.onResized?.(c, r),
    });
    if (snapshot !== undefined) this.#restoreLater(snapshot);
  }

  /**
   * Start from `snapshot` (a session handed over by an earlier server), in
   * a later turn of the event loop, one session after another: restoring
   * a long history takes a while, and the new server should read the
   * programs' output and answer windows meanwhile. What comes before the
   * restore waits in order, as during a move.
   */
  #restoreLater(snapshot: string): void {
    const waiting: ((to: EmulatorHost) => void)[] = [];
    this.#waiting = waiting;
    const from = this.#inner;
    this.#moved = restoreTurn = restoreTurn.then(() =>
      new Promise<void>((done) =>
        setTimeout(() => {
          let to = from;
          if (!this.#closed) {
            try {
              to = new HOSTS[this.#place]({
                start: { snapshot },
                scrollback: this.#scrollback,
                reply: this.#reply,
                onSettings: this.#onSettings,
                colors: this.#colors ?? undefined,
              });
              from.close();
            } catch (e) {
              console.error(
                `domterm: session ${this.#id}'s screen could not be restored: ${e}`,
              );
            }
          }
          this.#inner = to;
          this.#waiting = null;
          for (const f of waiting) f(to);
          if (this.#closed) to.close();
          done();
        }, 0)
      )
    );
  }

  /** Where the emulator runs now (during a move: where it is moving from). */
  get place(): EmulatorPlace {
    return this.#place;
  }

  /** Resolves once no move is under way. */
  settled(): Promise<void> {
    return this.#moved;
  }

  /** Do `f` on the emulator now, or after the move under way. */
  #do(f: (t: EmulatorHost) => void): void {
    if (this.#closed) return;
    if (this.#waiting !== null) this.#waiting.push(f);
    else f(this.#inner);
  }

  /** Feed output; `data` must not change afterwards (the read loop's chunks do not). */
  write(data: Uint8Array): void {
    if (this.#closed) return;
    if (this.#waiting !== null) {
      this.#waitingBytes += data.length;
      this.#waiting.push((t) => {
        this.#waitingBytes -= data.length;
        t.write(data);
      });
    } else this.#inner.write(data);
    this.#noteOutput(data.length);
  }

  /** Count output toward a flood, and toward the quiet that moves it back. */
  #noteOutput(n: number): void {
    const o = this.#options;
    if (o.pinned !== null || this.#scrollback > o.maxScrollback) return;
    const now = performance.now();
    this.#lastOutput = now;
    if (this.place === "thread" || this.#waiting !== null) return;
    if (now - this.#windowStart > o.floodWindowMs) {
      this.#windowStart = now;
      this.#windowBytes = 0;
    }
    this.#windowBytes += n;
    if (now - mainOutput.start > o.floodWindowMs) {
      mainOutput.start = now;
      mainOutput.bytes = 0;
    }
    mainOutput.bytes += n;
    if (
      this.#windowBytes >= o.floodBytes ||
      (mainOutput.bytes >= o.floodBytes && this.#windowBytes >= o.shareBytes)
    ) {
      this.#windowBytes = 0;
      this.#move("thread");
      this.#armQuiet(o.quietMs);
    }
  }

  #armQuiet(ms: number): void {
    this.#quietTimer = setTimeout(() => this.#quiet(), ms);
  }

  /** On the thread: back to the main thread once output stopped for `quietMs`. */
  #quiet(): void {
    if (this.#closed) return;
    const left = this.#options.quietMs - (performance.now() - this.#lastOutput);
    // Still moving there, or output came since: look again later.
    if (this.#waiting !== null || left > 0) {
      this.#armQuiet(Math.max(left, 1));
    } else if (this.place === "thread") this.#move("main");
  }

  /**
   * Move to a new emulator on `place`, started from the current one's
   * whole snapshot. Should the snapshot fail (the old emulator failed or
   * the thread did), the emulator stays where it is.
   */
  #move(place: EmulatorPlace): void {
    const from = this.#inner;
    // The colours of the snapshot's point in the stream: later changes
    // wait in order with the rest.
    const colors = this.#colors ?? undefined;
    const waiting: ((to: EmulatorHost) => void)[] = [];
    this.#waiting = waiting;
    this.#moved = from.snapshot(Infinity).then((snap) => {
      let to = from;
      if (snap !== null && !this.#closed) {
        try {
          to = new HOSTS[place]({
            start: { snapshot: snap.json },
            scrollback: this.#scrollback,
            reply: this.#reply,
            onSettings: this.#onSettings,
            onElementEvents: (on, g) => this.onElementEvents?.(on, g),
            onResized: (c, r) => this.onResized?.(c, r),
            colors,
          });
          if (this.#titleReports !== null) {
            to.setTitleReports(this.#titleReports);
          }
          from.close();
          this.#place = place;
          this.moves++;
        } catch (e) {
          console.error(
            `domterm: session ${this.#id}'s emulator could not move: ${e}`,
          );
          to = from;
        }
      }
      this.#inner = to;
      this.#waiting = null;
      for (const f of waiting) f(to);
      if (this.#closed) to.close();
    });
  }

  /** See `EmulatorHost.idle`. */
  idle(): void {
    this.#do((t) => t.idle());
  }

  /** See `EmulatorHost.prioritize`. */
  prioritize(): void {
    noteInput();
    this.#do((t) => t.prioritize?.());
  }

  /** Bytes written and not parsed yet. */
  get backlog(): number {
    return this.#inner.backlog + this.#waitingBytes;
  }

  /** See `EmulatorHost.full` (what waits for a move counts too). */
  get full(): boolean {
    return this.#inner.full || this.backlog > EMULATOR_HIGH;
  }

  /**
   * Resolves once the backlog is down to `EMULATOR_LOW` (at once when
   * it is, when closed, or when the emulator failed).
   */
  async drained(): Promise<void> {
    while (this.#waiting !== null) await this.#moved;
    await this.#inner.drained();
  }

  resize(cols: number, rows: number): void {
    this.#do((t) => t.resize(cols, rows));
  }

  /** Whether XTWINOPS 20/21 report the titles (the `title-reporting` setting). */
  setTitleReports(on: boolean): void {
    this.#titleReports = on;
    this.#do((t) => t.setTitleReports(on));
  }

  /** Drop the normal screen's history (as ED 3 does). */
  clearHistory(): void {
    this.#do((t) => t.clearHistory());
  }

  /** See `EmulatorHost.stopElementEvents`. */
  stopElementEvents(): void {
    this.#do((t) => t.stopElementEvents());
  }

  /** See `EmulatorHost.setFolded`. */
  setFolded(ref: MarkRef, folded: boolean): void {
    this.#do((t) => t.setFolded(ref, folded));
  }

  /**
   * The default colours (the active window's theme) that colour queries
   * answer from this point of the stream on; kept across moves.
   */
  setDefaultColors(colors: Partial<DefaultColors>): void {
    this.#colors = withDefaultColors(
      this.#colors ?? BUILTIN_DEFAULT_COLORS,
      colors,
    );
    this.#do((t) => t.setDefaultColors(colors));
  }

  setCellSize(width: number, height: number): void {
    this.#do((t) => t.setCellSize(width, height));
  }

  /**
   * The emulator's snapshot after everything written so far, as JSON text
   * (null once closed); with `lag`, possibly of the model as far as it has
   * parsed (`EmulatorHost.snapshot`).
   */
  snapshot(
    maxChars = MAX_SNAPSHOT_CHARS,
    historyTail = Infinity,
    lag = 0,
  ): Promise<SnapshotText | null> {
    if (this.#closed) return Promise.resolve(null);
    if (this.#waiting === null) {
      return this.#inner.snapshot(maxChars, historyTail, lag);
    }
    // After the move: the output given to the new emulator before it is
    // what it may leave out, as without a move.
    const { promise, resolve } = Promise.withResolvers<SnapshotText | null>();
    this.#waiting.push((t) =>
      t.snapshot(maxChars, historyTail, lag).then(resolve)
    );
    return promise;
  }

  /**
   * Forget this emulator. A move under way ends on the emulator it moves
   * from, which does what waited for the move, then closes.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#quietTimer);
    if (this.#waiting === null) this.#inner.close();
  }
}
