/**
 * The server side of `emulator_worker.ts`: one worker thread for all the
 * sessions' emulators, started with the first session and ended with the
 * last. A {@link RemoteTerminal} is one session's emulator there.
 *
 * @module
 */
import { MAX_SNAPSHOT_CHARS } from "./snapshot_cap.ts";
import { EMULATOR_LOW, EmulatorBacklog } from "./emulator_backlog.ts";

export { EMULATOR_HIGH, EMULATOR_LOW } from "./emulator_backlog.ts";

/** Main thread -> worker. */
export type ToEmulator =
  | {
    t: "new";
    id: number;
    cols: number;
    rows: number;
    scrollback: number;
    /** Start as this snapshot (JSON) describes, instead of blank. */
    snapshot?: string;
  }
  | { t: "write"; id: number; data: Uint8Array }
  | { t: "resize"; id: number; cols: number; rows: number }
  | { t: "cell"; id: number; width: number; height: number }
  | { t: "clear-history"; id: number }
  | { t: "title-reports"; id: number; on: boolean }
  | { t: "snapshot"; id: number; req: number; maxChars: number }
  | { t: "flush"; id: number }
  | { t: "idle"; id: number }
  | { t: "close"; id: number };

/** Worker -> main thread. */
export type FromEmulator =
  | { t: "reply"; id: number; data: string }
  | { t: "parsed"; id: number; bytes: number }
  | { t: "settings"; id: number; json: string }
  | {
    t: "snapshot";
    req: number;
    json: string | null;
    droppedLines: number;
  };

/** A snapshot as the worker wrote it: JSON text, capped. */
export interface SnapshotText {
  json: string;
  droppedLines: number;
}

let worker: Worker | null = null;
let users = 0;
let nextReq = 1;
const replies = new Map<number, (data: string) => void>();
const parsed = new Map<number, (bytes: number) => void>();
const oscSettings = new Map<number, (json: string) => void>();
/** The emulator thread failed: nothing waits for it any more. */
let failed = false;
const failures = new Set<() => void>();

/**
 * A session's history is packed (`Buffer.compactHistory`) once no output
 * came for this long, ms: during a flood most lines leave the history
 * before then, and packing every line would double the emulator's work.
 */
export const PACK_IDLE_MS = 250;
const waiting = new Map<number, (s: SnapshotText | null) => void>();

/**
 * The worker's code as one JavaScript module, when it travels inside a
 * single-file build (scripts/bundle.ts) with no `emulator_worker.ts` beside
 * it; null: load that file next to this module.
 */
let embeddedSource: string | null = null;

/**
 * Start the emulator thread from `source` (the bundled
 * `emulator_worker.ts`) instead of the file next to this module; null goes
 * back to the file. The single-file build calls it before anything starts
 * a session; a thread already running keeps its code.
 */
export function embedEmulatorWorker(source: string | null): void {
  embeddedSource = source;
}

/** The URL to start the emulator thread from. */
function workerUrl(): string {
  if (embeddedSource === null) {
    return new URL("./emulator_worker.ts", import.meta.url).href;
  }
  // A data: URL rather than a blob: one, which would have to be revoked.
  return `data:text/javascript;base64,${base64(embeddedSource)}`;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  // In slices: String.fromCharCode(...all) would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

function start(): Worker {
  if (worker) return worker;
  const w = new Worker(workerUrl(), { type: "module" });
  w.onmessage = (ev: MessageEvent<FromEmulator>) => {
    const m = ev.data;
    if (m.t === "reply") replies.get(m.id)?.(m.data);
    else if (m.t === "parsed") parsed.get(m.id)?.(m.bytes);
    else if (m.t === "settings") oscSettings.get(m.id)?.(m.json);
    else {
      const done = waiting.get(m.req);
      waiting.delete(m.req);
      done?.(
        m.json === null ? null : { json: m.json, droppedLines: m.droppedLines },
      );
    }
  };
  w.onerror = (e) => {
    // A bug in the emulator: say so; the sessions go on without snapshots.
    console.error(`domterm: the emulator thread failed: ${e.message}`);
    e.preventDefault();
    if (worker !== w) return; // an older thread, already ended
    failed = true;
    for (const f of failures) f();
    // No answer will come: the snapshots asked for are none (a session's
    // exit waits for the snapshots on their way to windows).
    const left = [...waiting.values()];
    waiting.clear();
    for (const r of left) r(null);
  };
  worker = w;
  return w;
}

/**
 * Start the emulator thread now, before the first session asks for it:
 * loading the emulator's modules there takes 45-80 ms, which otherwise
 * lies between the first window's hello and its first screen. The thread
 * ends with the last session, as one started by a session does.
 */
export function startEmulatorThread(): void {
  start();
}

/** Whether the emulator thread is running (it ends with its last emulator). */
export function emulatorThreadRunning(): boolean {
  return worker !== null;
}

/** One session's emulator, on the emulator thread. */
export class RemoteTerminal {
  #id: number;
  #w: Worker;
  #closed = false;
  /** Bytes posted and not yet parsed. */
  #backlog = new EmulatorBacklog();
  /** Output was written since the last `idle`. */
  #wrote = false;
  #onFail = () => this.#backlog.clear();

  /**
   * `reply` receives the emulator's answers to the program's queries;
   * `onSettings` the JSON of each `OSC 88` the program prints. With
   * `snapshot` (a whole snapshot's JSON, as `snapshot(Infinity)` gives
   * it) the emulator starts in that state, its size included.
   */
  constructor(
    id: number,
    cols: number,
    rows: number,
    scrollback: number,
    reply: (data: string) => void,
    onSettings?: (json: string) => void,
    snapshot?: string,
  ) {
    this.#id = id;
    this.#w = start();
    users++;
    replies.set(id, reply);
    if (onSettings) oscSettings.set(id, onSettings);
    parsed.set(id, (bytes) => this.#backlog.parsed(bytes));
    failures.add(this.#onFail);
    this.#post({ t: "new", id, cols, rows, scrollback, snapshot });
  }

  #post(m: ToEmulator): void {
    if (!this.#closed) this.#w.postMessage(m);
  }

  /** Feed output (copied: the caller may keep using `data`). */
  write(data: Uint8Array): void {
    if (this.#closed || failed) return;
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

  /**
   * Resolves once the backlog is down to `EMULATOR_LOW` (at once when
   * it is, when closed, or when the emulator thread failed).
   */
  drained(): Promise<void> {
    const gone = this.#closed || failed;
    // Output the thread holds back for a larger write (emulator_worker.ts)
    // must not wait for more: the writer waits for it.
    if (this.#backlog.bytes > EMULATOR_LOW && !gone) {
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

  setCellSize(width: number, height: number): void {
    this.#post({ t: "cell", id: this.#id, width, height });
  }

  /** The emulator's snapshot after everything posted so far, as JSON text (null once closed). */
  snapshot(maxChars = MAX_SNAPSHOT_CHARS): Promise<SnapshotText | null> {
    if (this.#closed || failed) return Promise.resolve(null);
    const req = nextReq++;
    const { promise, resolve } = Promise.withResolvers<SnapshotText | null>();
    waiting.set(req, resolve);
    this.#post({ t: "snapshot", id: this.#id, req, maxChars });
    return promise;
  }

  /** Forget this emulator; the thread ends with the last one. */
  close(): void {
    if (this.#closed) return;
    this.#post({ t: "close", id: this.#id });
    this.#closed = true;
    replies.delete(this.#id);
    parsed.delete(this.#id);
    oscSettings.delete(this.#id);
    failures.delete(this.#onFail);
    this.#backlog.clear();
    if (--users === 0 && worker) {
      // Let queued snapshot requests finish first.
      const w = worker;
      worker = null;
      // The next session starts a fresh thread, even after a failure.
      failed = false;
      const left = [...waiting.values()];
      waiting.clear();
      for (const r of left) r(null);
      w.terminate();
    }
  }
}
