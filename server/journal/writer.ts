/**
 * One session's journal, written as the session runs (the format:
 * server/journal/format.ts). Off the hot path: the read loop only hands
 * each chunk over ({@link JournalWriter.output}: an array push); a timer
 * writes what came, at most every {@link FLUSH_MS} (so a `kill -9` of the
 * server loses at most that much), as one append per flush, with
 * `fdatasync` (so a reboot or power cut does too). A snapshot of the
 * model is taken at quiet points (no output for a flush interval) through
 * the session's `EmulatorHost`, and during a long flood once the segment
 * since the last one is {@link SEGMENT_RATIO} times that snapshot's size
 * (at least 4 MiB, and at most every {@link FLOOD_SNAPSHOT_MS}); a fold
 * made by hand (which changes the model, not the stream) takes one at the
 * next flush, output or not. The working directory is read at each
 * flush and quiet point (a change rewrites `meta.json`).
 * Every file operation runs in order on one promise chain; a failure (a
 * full disk) is logged once and ends the journal, never the session.
 *
 * @module
 */
import { join } from "node:path";
import {
  encodeRecords,
  fileOffset,
  type JournalEnd,
  type JournalItem,
  type JournalMeta,
  segmentName,
  snapshotName,
} from "./format.ts";
import { privateDir, writeAtomic } from "./paths.ts";

/** Longest time output waits in memory before it is written, ms. */
export const FLUSH_MS = 1000;
/** Output held in memory that is written at once, whatever the time. */
export const FLUSH_BYTES = 4 * 1024 * 1024;
/** During a flood, snapshots are at least this far apart, ms. */
export const FLOOD_SNAPSHOT_MS = 5000;
/**
 * A flood takes a snapshot once the segment since the last one is this
 * many times that snapshot's size: a snapshot costs about as much CPU per
 * byte as parsing, so this keeps its share of a flood's cost near
 * 1/SEGMENT_RATIO, and the journal within about SEGMENT_RATIO + 1 times
 * the model's size.
 */
export const SEGMENT_RATIO = 32;
/** The least segment a flood snapshots at, bytes. */
const MIN_SEGMENT_BYTES = 4 * 1024 * 1024;

/** What the journal needs of its session. */
export interface JournalSource {
  /** The program's process id (its working directory is read from /proc). */
  readonly pid: number;
  /**
   * The model after everything output so far, as JSON text, with the
   * stream offset it holds everything before (`Session.snapshot`); null
   * once the emulator ended.
   */
  snapshot(): Promise<{ json: string; offset: number } | null>;
}

/** How a journal is kept. */
export interface WriterOptions {
  /** History lines kept (null: as many as the session's emulator keeps). */
  lines: number | null;
  /** Where problems are said. */
  log: (message: string) => void;
  /** Test hooks. */
  flushMs?: number;
  floodSnapshotMs?: number;
  /** The model to start from (a restored session), written as the first snapshot. */
  initialSnapshot?: string;
}

/** The session hooks a journal provides (called by server/session.ts). */
export interface SessionJournal {
  /** Output bytes of the stream (not changed afterwards). */
  output(chunk: Uint8Array): void;
  /** A grid change, or a clearing of the history, at this point of the stream. */
  grid(cols: number, rows: number, clearHistory: boolean): void;
  /**
   * The model changed outside the output (a fold made by hand): a
   * snapshot at the next quiet point keeps it.
   */
  modelChanged(): void;
}

/** One session's journal directory, written as the session runs. */
export class JournalWriter implements SessionJournal {
  readonly dir: string;
  #meta: JournalMeta;
  #source: JournalSource;
  #opts: Required<Omit<WriterOptions, "initialSnapshot" | "lines">> & {
    lines: number | null;
  };
  #pending: JournalItem[] = [];
  #pendingBytes = 0;
  /** Stream offset of everything handed over so far. */
  #offset = 0;
  /** Stream offset of the last snapshot asked for, and when. */
  #snapOffset = 0;
  #snapAt = 0;
  #snapping = false;
  /** A grid change since the last snapshot. */
  #gridChanged = false;
  /**
   * The model changed outside the output (a fold made by hand) since the
   * last snapshot: the next flush takes one, output or not.
   */
  #modelChanged = false;
  /** The segment being appended to: its offset and size. */
  #segOffset = 0;
  #segBytes = 0;
  #segFile: Deno.FsFile | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #chain: Promise<void>;
  #failed = false;
  #ended = false;
  /** Size of the last snapshot written (JSON characters). */
  #snapBytes = 0;

  /** Start the journal of a session in `dir` (made 0700; `root` too). */
  constructor(
    root: string,
    meta: JournalMeta,
    source: JournalSource,
    options: WriterOptions,
  ) {
    const dir = this.dir = join(root, `${meta.started}-${meta.session}`);
    this.#meta = meta;
    this.#source = source;
    this.#opts = {
      flushMs: FLUSH_MS,
      floodSnapshotMs: FLOOD_SNAPSHOT_MS,
      ...options,
    };
    const initial = options.initialSnapshot;
    this.#snapAt = performance.now();
    this.#chain = (async () => {
      await privateDir(root);
      await privateDir(dir);
      await this.#writeMeta();
      if (initial !== undefined) {
        await this.#writeAtomic(snapshotName(0), await this.#bounded(initial));
      }
    })().catch((e) => this.#fail(e));
  }

  /** Resolves once everything asked so far is on disk (tests, and the server's stop). */
  settled(): Promise<void> {
    return this.#chain;
  }

  /** The meta as it stands (tests). */
  get meta(): Readonly<JournalMeta> {
    return this.#meta;
  }

  /** hot path: one array push per read; the writing is the timer's. */
  output(chunk: Uint8Array): void {
    if (this.#ended) return;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    this.#offset += chunk.length;
    if (this.#pendingBytes >= FLUSH_BYTES) this.#flush();
    this.#timer ??= setTimeout(() => this.#tick(), this.#opts.flushMs);
  }

  grid(cols: number, rows: number, clearHistory: boolean): void {
    if (this.#ended) return;
    this.#pending.push({ cols, rows, clearHistory });
    this.#meta.cols = cols;
    this.#meta.rows = rows;
    this.#gridChanged = true;
    this.#timer ??= setTimeout(() => this.#tick(), this.#opts.flushMs);
  }

  modelChanged(): void {
    if (this.#ended) return;
    this.#modelChanged = true;
    this.#timer ??= setTimeout(() => this.#tick(), this.#opts.flushMs);
  }

  /**
   * Every flush interval while output comes: write it; a long flood takes
   * a snapshot once its segment passes the bound. The first interval
   * without output is a quiet point: a snapshot, the working directory.
   */
  #tick(): void {
    this.#timer = undefined;
    if (this.#ended || this.#failed) return;
    if (this.#pending.length > 0) {
      this.#flush();
      void this.#readCwd(true);
      this.#timer = setTimeout(() => this.#tick(), this.#opts.flushMs);
      const bound = Math.max(
        MIN_SEGMENT_BYTES,
        SEGMENT_RATIO * this.#snapBytes,
      );
      if (
        this.#modelChanged || (this.#segBytes > bound &&
          performance.now() - this.#snapAt > this.#opts.floodSnapshotMs)
      ) {
        void this.snapshotNow();
      }
      return;
    }
    if (
      this.#offset !== this.#snapOffset || this.#gridChanged ||
      this.#modelChanged
    ) {
      void this.snapshotNow();
    }
  }

  /** Hand what came since the last flush to the chain, as one append. */
  #flush(): void {
    if (this.#pending.length === 0 || this.#failed) return;
    const data = encodeRecords(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#segBytes += data.length;
    const seg = this.#segOffset;
    this.#enqueue(async () => {
      if (this.#segFile === null) {
        this.#segFile = await Deno.open(join(this.dir, segmentName(seg)), {
          append: true,
          create: true,
          mode: 0o600,
        });
      }
      let at = 0;
      while (at < data.length) {
        at += await this.#segFile.write(data.subarray(at));
      }
      await this.#segFile.syncData();
    });
  }

  /**
   * Take a snapshot now (a quiet point): what came before it goes to the
   * current segment, what comes after to a new one at its offset; once it
   * is written the older files go. Resolves when it is on disk.
   */
  async snapshotNow(): Promise<void> {
    if (this.#snapping || this.#ended || this.#failed) return;
    this.#snapping = true;
    this.#flush();
    const offset = this.#offset;
    this.#snapOffset = offset;
    this.#snapAt = performance.now();
    this.#gridChanged = false;
    this.#modelChanged = false;
    const request = this.#source.snapshot();
    // A new segment from here on.
    if (offset !== this.#segOffset) {
      this.#segOffset = offset;
      this.#segBytes = 0;
      this.#enqueue(() => this.#closeSegment());
    }
    try {
      const snap = await request;
      if (snap === null || snap.offset !== offset || this.#ended) return;
      const json = await this.#bounded(snap.json);
      this.#snapBytes = json.length;
      await this.#readCwd(false);
      this.#enqueue(async () => {
        await this.#writeAtomic(snapshotName(offset), json);
        await this.#writeMeta();
        await this.#removeBefore(offset);
      });
      await this.#chain;
    } finally {
      this.#snapping = false;
      // A fold made meanwhile (this snapshot may not have it).
      if (this.#modelChanged && !this.#ended) {
        this.#timer ??= setTimeout(() => this.#tick(), this.#opts.flushMs);
      }
    }
  }

  /**
   * Read the program's working directory (/proc/PID/cwd: where a restore
   * starts the new program); with `write`, a change is written at once.
   */
  async #readCwd(write: boolean): Promise<void> {
    const cwd = await Deno.readLink(`/proc/${this.#source.pid}/cwd`).catch(
      () => null,
    );
    if (cwd === null || cwd === this.#meta.cwd || this.#ended) return;
    this.#meta.cwd = cwd;
    if (write) this.#enqueue(() => this.#writeMeta());
  }

  /** `json` within the journal's history bound (parsed only when the bound is below the session's). */
  #bounded(json: string): Promise<string> {
    const lines = this.#opts.lines;
    const own = this.#meta.scrollback;
    if (lines === null || (own !== null && own <= lines)) {
      return Promise.resolve(json);
    }
    const snap = JSON.parse(json) as {
      rows: number;
      normal: { lines: unknown[]; trimmed: number };
    };
    const cut = snap.normal.lines.length - snap.rows - lines;
    if (cut <= 0) return Promise.resolve(json);
    snap.normal.lines.splice(0, cut);
    snap.normal.trimmed += cut;
    return Promise.resolve(JSON.stringify(snap));
  }

  /** Remove the snapshots and segments older than `offset`. */
  async #removeBefore(offset: number): Promise<void> {
    for await (const e of Deno.readDir(this.dir)) {
      const f = fileOffset(e.name);
      if (f !== null && f.offset < offset) {
        await Deno.remove(join(this.dir, e.name)).catch(() => {});
      }
    }
  }

  #closeSegment(): Promise<void> {
    const f = this.#segFile;
    this.#segFile = null;
    f?.close();
    return Promise.resolve();
  }

  /** Write `name` whole: a temporary file (0600) renamed over it. */
  #writeAtomic(name: string, text: string): Promise<void> {
    return writeAtomic(join(this.dir, name), text);
  }

  #writeMeta(): Promise<void> {
    return this.#writeAtomic("meta.json", JSON.stringify(this.#meta));
  }

  #enqueue(fn: () => Promise<void>): void {
    this.#chain = this.#chain.then(() => this.#failed ? undefined : fn())
      .catch((e) => this.#fail(e));
  }

  #fail(e: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#pending = [];
    this.#opts.log(
      `the journal of session ${this.#meta.session} (${this.dir}) stopped: ${
        (e as Error).message
      }`,
    );
  }

  /**
   * The session is over. `end` null: it ended for good (its program
   * exited, or it was killed): the journal is removed. Otherwise the
   * server stops under it: what came is written, with why, for a restore.
   */
  async end(end: JournalEnd | null): Promise<void> {
    if (this.#ended) return await this.#chain;
    clearTimeout(this.#timer);
    if (end === null) {
      this.#ended = true;
      this.#pending = [];
      this.#enqueue(async () => {
        await this.#closeSegment();
        await Deno.remove(this.dir, { recursive: true });
      });
    } else {
      this.#flush();
      this.#ended = true;
      this.#meta.ended = end;
      this.#enqueue(async () => {
        await this.#closeSegment();
        await this.#writeMeta();
      });
    }
    await this.#chain;
  }
}
