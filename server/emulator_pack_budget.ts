/**
 * A bound on the history lines the sessions' emulators keep unpacked. The
 * server's model packs its history once a session has been quiet for
 * `PACK_IDLE_MS` (`Buffer.compactHistory`): until then every line is cell
 * arrays, 16 bytes a cell, 12.8 MB for a history of 10,000 lines of 80
 * columns. One session flooding never packs before it ends, rightly:
 * packing during a flood costs as much again as printing the lines it
 * keeps, and most of them leave the history soon after. But many sessions
 * flooding at once each kept a whole unpacked history until they ended:
 * 200 sessions each running `seq 1 200000` took the server from 113 MB to
 * 3.3 GB of resident memory (20 sessions: to 443-481 MB).
 *
 * So each thread's emulators share a budget: past {@link UNPACKED_BUDGET}
 * bytes of unpacked history lines among them, every one of them is packed
 * at once, between two writes. A flood in one or two sessions stays under
 * it and is not slowed.
 *
 * @module
 */
import type { Terminal } from "../core/emulator/terminal.ts";

/**
 * Bytes of unpacked history lines (16 a cell) the emulators of one thread
 * may keep together: two and a half histories of 10,000 lines of 80
 * columns.
 */
export const UNPACKED_BUDGET = 32 << 20;

/** Bytes a history cell takes unpacked (`core/model/line.ts`: 4 words). */
const CELL_BYTES = 16;

/** The end of `term`'s normal history, as an absolute line number. */
function historyEnd(term: Terminal): number {
  const b = term.normalBuffer;
  return b.trimmed + b.historyLength;
}

interface Member {
  term: Terminal;
  /** Packs its history, returns the lines packed. */
  pack: () => number;
  packedTo: number;
  bytes: number;
}

/** The unpacked history lines of a thread's emulators, keyed by `K`. */
export class UnpackedBudget<K> {
  /** Per emulator: its history's end when last packed, and its bytes unpacked since. */
  #members = new Map<K, Member>();
  #bytes = 0;

  constructor(readonly budget: number = UNPACKED_BUDGET) {}

  /** Bytes of unpacked history lines counted now. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Count `term` from now on; its history so far is packed (or empty).
   * `pack` packs it (by default `compactHistory`) and returns the lines
   * packed.
   */
  add(
    key: K,
    term: Terminal,
    pack: () => number = () => term.normalBuffer.compactHistory(),
  ): void {
    this.#members.set(key, {
      term,
      pack,
      packedTo: historyEnd(term),
      bytes: 0,
    });
  }

  /** Forget `key`'s emulator (closed, or moved). */
  delete(key: K): void {
    const m = this.#members.get(key);
    if (m === undefined) return;
    this.#bytes -= m.bytes;
    this.#members.delete(key);
  }

  /**
   * `key`'s emulator just parsed output (nothing holds a line of its
   * history): count the lines it added; past the budget, pack every
   * emulator counted. Returns the number of lines packed.
   */
  parsed(key: K): number {
    const m = this.#members.get(key);
    if (m === undefined) return 0;
    const b = m.term.normalBuffer;
    const lines = Math.min(b.historyLength, historyEnd(m.term) - m.packedTo);
    const bytes = Math.max(0, lines) * b.cols * CELL_BYTES;
    this.#bytes += bytes - m.bytes;
    m.bytes = bytes;
    return this.#bytes > this.budget ? this.packAll() : 0;
  }

  /**
   * `key`'s emulator made a snapshot of its newest `lines` history lines
   * (Infinity: all of it), which unpacked them (`Buffer.getLine` keeps a
   * line it unpacked until the next packing): count them as
   * {@link parsed} does.
   */
  unpackedBySnapshot(key: K, lines: number): number {
    const m = this.#members.get(key);
    if (m === undefined) return 0;
    const b = m.term.normalBuffer;
    m.packedTo = Math.min(
      m.packedTo,
      historyEnd(m.term) - Math.min(lines, b.historyLength),
    );
    return this.parsed(key);
  }

  /** `key`'s history was just packed (by its owner, once quiet). */
  packed(key: K): void {
    const m = this.#members.get(key);
    if (m === undefined) return;
    this.#bytes -= m.bytes;
    m.bytes = 0;
    m.packedTo = historyEnd(m.term);
  }

  /** Pack every counted emulator's history now; returns the lines packed. */
  packAll(): number {
    let n = 0;
    for (const [key, m] of this.#members) {
      if (m.bytes === 0) continue;
      n += m.pack();
      this.packed(key);
    }
    return n;
  }
}
