/**
 * The emulator thread, from the server's main thread: one worker thread
 * (`emulator_worker.ts`) for the emulators of all the sessions that run
 * there, started with the first and ended with the last, and the messages
 * between them. A `WorkerThreadEmulator` (`worker_thread_emulator.ts`) is
 * one session's emulator there.
 *
 * @module
 */
import type { GraphemeSetting } from "../core/emulator/modes.ts";
import type { DefaultColors } from "../core/emulator/colors.ts";
import type { MarkRef } from "../core/model/command_groups.ts";

/** Main thread -> worker. `id` names one emulator on the thread. */
export type ToEmulator =
  | {
    t: "new";
    id: number;
    /**
     * An `EmulatorStart` (emulator_host.ts, which re-exports this module:
     * spelled out here, so that it does not import it back).
     */
    start:
      | { cols: number; rows: number; graphemeClusters?: GraphemeSetting }
      | { snapshot: string };
    scrollback: number;
    /** `EmulatorSetup.colors`. */
    colors?: Partial<DefaultColors>;
  }
  | { t: "write"; id: number; data: Uint8Array }
  | { t: "resize"; id: number; cols: number; rows: number }
  | { t: "cell"; id: number; width: number; height: number }
  | { t: "clear-history"; id: number }
  | { t: "events-off"; id: number }
  | { t: "fold"; id: number; ref: MarkRef; folded: boolean }
  | { t: "title-reports"; id: number; on: boolean }
  | { t: "colors"; id: number; colors: Partial<DefaultColors> }
  | {
    t: "snapshot";
    id: number;
    req: number;
    maxChars: number;
    historyTail: number;
    /** May leave out this many bytes of held output (`EmulatorHost.snapshot`). */
    lag: number;
  }
  | { t: "flush"; id: number }
  | { t: "idle"; id: number }
  | { t: "close"; id: number };

/** Worker -> main thread. */
export type FromEmulator =
  | { t: "reply"; id: number; data: string }
  | { t: "parsed"; id: number; bytes: number }
  | { t: "settings"; id: number; json: string }
  | { t: "element-events"; id: number; on: boolean; generation: number }
  | { t: "resized"; id: number; cols: number; rows: number }
  | {
    t: "snapshot";
    req: number;
    json: string | null;
    droppedLines: number;
    /** Bytes of output written before it asked for that it does not hold. */
    unparsed: number;
  };

/** What the thread tells one of its emulators' hosts. */
export interface ThreadMember {
  /** The emulator's answer to a query of the program. */
  reply(data: string): void;
  /** The emulator parsed `bytes` of output. */
  parsed(bytes: number): void;
  /** An `OSC 88` the program printed. */
  settings(json: string): void;
  /** The element-event mode went on or off (`EmulatorSetup.onElementEvents`). */
  elementEvents(on: boolean, generation: number): void;
  /** A program's request resized the emulator (`EmulatorSetup.onResized`). */
  resized(cols: number, rows: number): void;
  /** The thread failed: nothing more will be parsed. */
  failed(): void;
}

/** A snapshot's JSON text as the thread wrote it, or null. */
type SnapshotReply =
  | { json: string; droppedLines: number; unparsed: number }
  | null;

let worker: Worker | null = null;
let nextId = 1;
let nextReq = 1;
const members = new Map<number, ThreadMember>();
const waiting = new Map<number, (s: SnapshotReply) => void>();
/** The emulator thread failed: nothing waits for it any more. */
let failed = false;

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
    if (m.t === "reply") members.get(m.id)?.reply(m.data);
    else if (m.t === "parsed") members.get(m.id)?.parsed(m.bytes);
    else if (m.t === "settings") members.get(m.id)?.settings(m.json);
    else if (m.t === "element-events") {
      members.get(m.id)?.elementEvents(m.on, m.generation);
    } else if (m.t === "resized") {
      members.get(m.id)?.resized(m.cols, m.rows);
    } else {
      const done = waiting.get(m.req);
      waiting.delete(m.req);
      done?.(
        m.json === null ? null : {
          json: m.json,
          droppedLines: m.droppedLines,
          unparsed: m.unparsed,
        },
      );
    }
  };
  w.onerror = (e) => {
    // A bug in the emulator: say so; the sessions go on without snapshots.
    console.error(`domterm: the emulator thread failed: ${e.message}`);
    e.preventDefault();
    if (worker !== w) return; // an older thread, already ended
    failed = true;
    for (const m of members.values()) m.failed();
    // No answer will come: the snapshots asked for are none (a session's
    // exit waits for the snapshots on their way to windows).
    answerWaitingWithNull();
  };
  worker = w;
  return w;
}

function answerWaitingWithNull(): void {
  const left = [...waiting.values()];
  waiting.clear();
  for (const r of left) r(null);
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

/** Whether the emulator thread failed (until it ends with its last emulator). */
export function emulatorThreadFailed(): boolean {
  return failed;
}

/**
 * A new emulator on the thread (started if need be), reporting to
 * `member`: its id for {@link ToEmulator} messages, and the thread to post
 * them to.
 */
export function joinEmulatorThread(
  member: ThreadMember,
): { id: number; thread: Worker } {
  const thread = start();
  const id = nextId++;
  members.set(id, member);
  return { id, thread };
}

/**
 * Ask the thread for emulator `id`'s snapshot, after everything posted to
 * it so far (with `lag`, output it holds may be left out:
 * `EmulatorHost.snapshot`); null when the thread fails or ends first.
 */
export function requestSnapshot(
  thread: Worker,
  id: number,
  maxChars: number,
  historyTail = Infinity,
  lag = 0,
): Promise<SnapshotReply> {
  const req = nextReq++;
  const { promise, resolve } = Promise.withResolvers<SnapshotReply>();
  waiting.set(req, resolve);
  thread.postMessage(
    { t: "snapshot", id, req, maxChars, historyTail, lag } as ToEmulator,
  );
  return promise;
}

/** Emulator `id` is gone (its `close` posted); the thread ends with the last one. */
export function leaveEmulatorThread(id: number): void {
  if (!members.delete(id) || members.size > 0 || !worker) return;
  const w = worker;
  worker = null;
  // The next session starts a fresh thread, even after a failure.
  failed = false;
  // Snapshots still asked of it get no answer from it.
  answerWaitingWithNull();
  w.terminate();
}
