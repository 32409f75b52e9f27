/**
 * The journal's format on disk. One directory per session under the
 * journal root (server/journal/paths.ts), named `<start>-<session>`:
 *
 * - `meta.json`: {@link JournalMeta} (what a restore needs: command, cwd,
 *   name, size, start time, the server that wrote it, how it ended),
 *   rewritten whole (a temporary file renamed over it).
 * - `snap-<offset>.json`: the session's emulator (`Terminal.snapshot()`,
 *   core/serialize/snapshot.ts) at stream offset `<offset>`, made at a
 *   quiet point; written the same way.
 * - `out-<offset>.bin`: what the stream brought from `<offset>` on, as
 *   records ({@link encodeRecords}): output bytes, grid changes, history
 *   clearings, in stream order; appended.
 *
 * A restore takes the newest snapshot that reads back and then the
 * segments that follow it without a gap. A new snapshot starts a new
 * segment at its offset; the older files go once it is written, so a
 * crash at any point leaves a snapshot and the segments after it.
 *
 * @module
 */

/** The format's version; a journal of another is reported and skipped. */
export const JOURNAL_VERSION = 1;

/** How a session's journal ended (null in `meta.json`: it did not, a crash). */
export interface JournalEnd {
  /** When (ms since the epoch). */
  at: number;
  /** Why, as the divider says it ("the server was stopped (SIGTERM)"). */
  reason: string;
  /** Restored when the next server starts (a logout, a reboot); else only on `domterm restore`. */
  auto: boolean;
}

/** Which server process wrote a journal (to tell a live one from a dead one). */
export interface JournalServer {
  pid: number;
  /** /proc/sys/kernel/random/boot_id ("" where there is none). */
  boot: string;
  /** The process's start time in clock ticks since boot (/proc/PID/stat field 22). */
  start: string;
}

/** `meta.json`. */
export interface JournalMeta {
  v: typeof JOURNAL_VERSION;
  /** The session's number in the server that wrote it. */
  session: number;
  name: string | null;
  /** The command line the session ran (not a restore's wrapper). */
  command: string[];
  /** Its program's working directory at the last quiet point. */
  cwd: string | null;
  /** Its grid now, and when it started (a journal without a snapshot starts blank at `initial`). */
  cols: number;
  rows: number;
  initial: { cols: number; rows: number };
  /** History lines of its emulator (null: unlimited). */
  scrollback: number | null;
  /** When it started (ms since the epoch). */
  started: number;
  server: JournalServer;
  ended: JournalEnd | null;
}

/** A record in a segment. */
export const enum RecordKind {
  Output = 1,
  Grid = 2,
  ClearHistory = 3,
}

/** What the stream brought, in order: output bytes, or a grid change. */
export type JournalItem =
  | Uint8Array
  | { cols: number; rows: number; clearHistory: boolean };

/** Header of a record: kind (1 byte), payload length (4 bytes, little-endian). */
const HEADER = 5;

/**
 * `items` as records: runs of output become one record each, a grid
 * change a record of cols and rows (2 bytes each), a clearing of the
 * history a record of its own after it.
 */
export function encodeRecords(items: readonly JournalItem[]): Uint8Array {
  let size = 0;
  let run = false;
  for (const it of items) {
    if (it instanceof Uint8Array) {
      if (!run) size += HEADER;
      size += it.length;
      run = true;
    } else {
      size += HEADER + 4 + (it.clearHistory ? HEADER : 0);
      run = false;
    }
  }
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  let runStart = -1;
  const closeRun = () => {
    if (runStart >= 0) {
      view.setUint32(runStart + 1, at - runStart - HEADER, true);
    }
    runStart = -1;
  };
  for (const it of items) {
    if (it instanceof Uint8Array) {
      if (runStart < 0) {
        runStart = at;
        out[at] = RecordKind.Output;
        at += HEADER;
      }
      out.set(it, at);
      at += it.length;
      continue;
    }
    closeRun();
    out[at] = RecordKind.Grid;
    view.setUint32(at + 1, 4, true);
    view.setUint16(at + HEADER, it.cols, true);
    view.setUint16(at + HEADER + 2, it.rows, true);
    at += HEADER + 4;
    if (it.clearHistory) {
      out[at] = RecordKind.ClearHistory;
      view.setUint32(at + 1, 0, true);
      at += HEADER;
    }
  }
  closeRun();
  return out;
}

/** The records of a segment; `bytes` counts the output bytes among them. */
export interface DecodedSegment {
  items: JournalItem[];
  bytes: number;
  /** The file ended inside a record (written when the server died): the rest is left out. */
  truncated: boolean;
}

/** A journal that cannot be read back (said with its path by the caller). */
export class JournalError extends Error {}

/** The records of a segment file. Throws {@link JournalError} for one that is not a segment. */
export function decodeRecords(data: Uint8Array): DecodedSegment {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const items: JournalItem[] = [];
  let at = 0, bytes = 0;
  while (at < data.length) {
    if (at + HEADER > data.length) return { items, bytes, truncated: true };
    const kind = data[at];
    const len = view.getUint32(at + 1, true);
    if (at + HEADER + len > data.length) {
      return { items, bytes, truncated: true };
    }
    const payload = data.subarray(at + HEADER, at + HEADER + len);
    if (kind === RecordKind.Output) {
      items.push(payload);
      bytes += len;
    } else if (kind === RecordKind.Grid && len === 4) {
      const cols = view.getUint16(at + HEADER, true);
      const rows = view.getUint16(at + HEADER + 2, true);
      if (cols < 1 || rows < 1) {
        throw new JournalError(`a grid of ${cols}x${rows} at byte ${at}`);
      }
      items.push({ cols, rows, clearHistory: false });
    } else if (kind === RecordKind.ClearHistory && len === 0) {
      items.push({ cols: 0, rows: 0, clearHistory: true });
    } else {
      throw new JournalError(`an unknown record (kind ${kind}) at byte ${at}`);
    }
    at += HEADER + len;
  }
  return { items, bytes, truncated: false };
}

/** The file names of a snapshot and of a segment at `offset`. */
export const snapshotName = (offset: number): string => `snap-${offset}.json`;
export const segmentName = (offset: number): string => `out-${offset}.bin`;

/** The offset in a snapshot's or a segment's file name, or null for another file. */
export function fileOffset(
  name: string,
): { kind: "snap" | "out"; offset: number } | null {
  const m = /^(snap|out)-(\d{1,15})\.(json|bin)$/.exec(name);
  if (m === null || (m[1] === "snap") !== (m[3] === "json")) return null;
  return { kind: m[1] as "snap" | "out", offset: Number(m[2]) };
}

/**
 * `value` (a parsed `meta.json`) checked: the meta, or a sentence saying
 * what is wrong (another version included).
 */
export function checkMeta(value: unknown): JournalMeta | string {
  if (typeof value !== "object" || value === null) return "not a JSON object";
  const m = value as Record<string, unknown>;
  if (m.v !== JOURNAL_VERSION) {
    return `journal version ${
      JSON.stringify(m.v)
    } (this domterm reads version ${JOURNAL_VERSION})`;
  }
  const int = (v: unknown, min: number, max: number) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  const size = (o: unknown) =>
    typeof o === "object" && o !== null &&
    int((o as Record<string, unknown>).cols, 1, 65535) &&
    int((o as Record<string, unknown>).rows, 1, 65535);
  if (
    !int(m.session, 0, 2 ** 31) || !int(m.started, 0, 2 ** 53) ||
    !size(m) || !size(m.initial) ||
    !(m.name === null || typeof m.name === "string") ||
    !(m.cwd === null || typeof m.cwd === "string") ||
    !(m.scrollback === null || int(m.scrollback, 0, 2 ** 31)) ||
    !Array.isArray(m.command) || m.command.length === 0 ||
    !m.command.every((a) => typeof a === "string") ||
    typeof m.server !== "object" || m.server === null
  ) {
    return "meta.json is malformed";
  }
  const e = m.ended as Record<string, unknown> | null;
  if (
    e !== null && (typeof e !== "object" || !int(e.at, 0, 2 ** 53) ||
      typeof e.reason !== "string" || typeof e.auto !== "boolean")
  ) {
    return "meta.json is malformed (ended)";
  }
  return m as unknown as JournalMeta;
}
