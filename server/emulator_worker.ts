/**
 * The sessions' emulators, on a thread of their own: the read loop hands
 * every chunk of PTY output to the windows and posts it here, so parsing it
 * never holds up the output, the input or the acknowledgements on the
 * server's main thread. Messages are handled in order, so a snapshot
 * holds exactly what was posted before it was asked for. See
 * `emulator_thread.ts` and `worker_thread_emulator.ts` for the other side.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import type { Terminal } from "../core/emulator/terminal.ts";
import { setMarkFolded } from "../core/model/command_groups.ts";
import { capSnapshot } from "./snapshot_cap.ts";
import { fullGc } from "./full_gc.ts";
import { EMULATOR_NICE, lowerThreadPriority } from "./thread_priority.ts";
import { newEmulatorTerminal, PACK_IDLE_MS } from "./emulator_host.ts";
import { UnpackedBudget } from "./emulator_pack_budget.ts";
import type { FromEmulator, ToEmulator } from "./emulator_thread.ts";

const terms = new Map<number, Terminal>();
/** History lines not packed yet, bounded for all the emulators here together. */
const unpacked = new UnpackedBudget<number>();

// The browser on this machine parses and draws the same output: it goes
// first (thread_priority.ts). Should this fail, the thread runs at normal
// priority, as it would elsewhere.
lowerThreadPriority(EMULATOR_NICE);

function post(m: FromEmulator): void {
  self.postMessage(m);
}

self.onmessage = (ev: MessageEvent<ToEmulator>) => {
  const m = ev.data;
  // Everything else sees the output that came before it; a frame may do
  // without what is held, up to its lag (`EmulatorHost.snapshot`).
  if (m.t !== "write" && m.t !== "new" && m.t !== "idle" && !mayLag(m)) {
    release(m.id);
  }
  switch (m.t) {
    case "new": {
      const term = newTerminal(m);
      terms.set(m.id, term);
      unpacked.add(m.id, term);
      break;
    }
    case "write":
      if (m.data.length >= FLOOD_PIECE || held.has(m.id)) hold(m.id, m.data);
      else parse(m.id, m.data);
      break;
    case "resize":
      terms.get(m.id)?.resize(m.cols, m.rows);
      break;
    case "cell":
      terms.get(m.id)?.setCellSize(m.width, m.height);
      break;
    case "colors":
      terms.get(m.id)?.setDefaultColors(m.colors);
      break;
    case "title-reports":
      terms.get(m.id)?.setTitleReports(m.on);
      break;
    case "clear-history":
      terms.get(m.id)?.normalBuffer.clearHistory();
      break;
    case "events-off":
      terms.get(m.id)?.stopElementEvents();
      break;
    case "fold": {
      const term = terms.get(m.id);
      if (term) setMarkFolded(term.normalBuffer, m.ref, m.folded);
      break;
    }
    case "snapshot": {
      const term = terms.get(m.id);
      if (!term) {
        post({
          t: "snapshot",
          req: m.req,
          json: null,
          droppedLines: 0,
          unparsed: 0,
        });
        break;
      }
      const { json, droppedLines } = capSnapshot(
        term,
        m.maxChars,
        m.historyTail,
      );
      const unparsed = held.get(m.id)?.bytes ?? 0;
      post({ t: "snapshot", req: m.req, json, droppedLines, unparsed });
      unpacked.unpackedBySnapshot(m.id, m.historyTail);
      break;
    }
    case "flush": // done above
      break;
    case "idle": {
      const h = held.get(m.id);
      if (h !== undefined) {
        clearTimeout(h.timer);
        h.timer = setTimeout(() => release(m.id), HOLD_IDLE_MS);
      }
      break;
    }
    case "close":
      terms.delete(m.id);
      unpacked.delete(m.id);
      toPack.delete(m.id);
      return;
  }
  if ("id" in m) changed(m.id);
};

/**
 * A snapshot that may be made without the output held for session `id`
 * (a frame's, whose lag covers it): the held output is the newest written
 * (anything else posted after it released it), so the model without it is
 * the stream's state that many bytes back.
 */
function mayLag(m: ToEmulator): boolean {
  return m.t === "snapshot" && (held.get(m.id)?.bytes ?? 0) <= m.lag;
}

/** The emulator a `new` message asks for. */
function newTerminal(m: Extract<ToEmulator, { t: "new" }>): Terminal {
  const id = m.id;
  return newEmulatorTerminal({
    start: m.start,
    scrollback: m.scrollback,
    colors: m.colors,
    reply: (data) => post({ t: "reply", id, data }),
    onSettings: (json) => post({ t: "settings", id, json }),
    onElementEvents: (on, generation) =>
      post({ t: "element-events", id, on, generation }),
    onResized: (cols, rows) => post({ t: "resized", id, cols, rows }),
  });
}

function parse(id: number, data: Uint8Array): void {
  terms.get(id)?.write(data);
  unpacked.parsed(id);
  post({ t: "parsed", id, bytes: data.length });
}

/**
 * Output held back while it floods in: the emulator skips the lines of a
 * write that leave the scrollback before the write ends (the terminal's
 * `skipHiddenOutput`), so during a flood it is given large writes. A piece
 * of at least FLOOD_PIECE bytes starts holding; what is held is parsed
 * once it reaches LOOKAHEAD bytes, HOLD_IDLE_MS after the read loop said
 * the program has no more output for now (`idle`) unless more came,
 * HOLD_MAX_MS after holding began, or before any other message for the
 * session. Smaller pieces (typing, prompts, a program's queries) are
 * parsed at once, so the replies to queries are not held up.
 */
const FLOOD_PIECE = 4096;
const LOOKAHEAD = 8 << 20;
const HOLD_IDLE_MS = 10;
const HOLD_MAX_MS = 300;
/** The largest piece a write usually brings: a PTY read (server/pty/pty.ts). */
const MAX_PIECE = 64 << 10;

interface Held {
  pieces: Uint8Array[];
  bytes: number;
  since: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}
const held = new Map<number, Held>();
let scratch = new Uint8Array(0);

function hold(id: number, data: Uint8Array): void {
  const now = performance.now();
  let h = held.get(id);
  if (h === undefined) {
    h = { pieces: [], bytes: 0, since: now, timer: undefined };
    held.set(id, h);
  } else clearTimeout(h.timer);
  h.pieces.push(data);
  h.bytes += data.length;
  if (h.bytes >= LOOKAHEAD || now - h.since >= HOLD_MAX_MS) release(id);
  else {
    // Pauses of the read loop for the windows' flow control do not
    // release it; only the program's (`idle`) and HOLD_MAX_MS do.
    h.timer = setTimeout(() => release(id), HOLD_MAX_MS - (now - h.since));
  }
}

/** Parse what is held for session `id`, as one write. */
function release(id: number): void {
  const h = held.get(id);
  if (h === undefined) return;
  held.delete(id);
  clearTimeout(h.timer);
  let data = h.pieces[0];
  if (h.pieces.length > 1) {
    // One buffer for every batch: the emulator keeps nothing of what it
    // parses, and a fresh 8 MiB each time cost page faults. A batch is
    // released at LOOKAHEAD, so it is at most that and the piece that
    // crossed it: sized for that, not doubled (a doubled buffer was 16 MiB
    // whenever the pieces did not add up to exactly 8 MiB).
    if (scratch.length < h.bytes) {
      scratch = new Uint8Array(Math.max(h.bytes, LOOKAHEAD + MAX_PIECE));
    }
    data = scratch.subarray(0, h.bytes);
    let at = 0;
    for (const piece of h.pieces) {
      data.set(piece, at);
      at += piece.length;
    }
  }
  parse(id, data);
  changed(id);
}

/** Sessions whose emulator had messages since its history was packed, with the time of the last. */
const toPack = new Map<number, number>();
let packTimer: ReturnType<typeof setTimeout> | null = null;

/** Session `id`'s emulator was just given work: pack its history once it is quiet. */
function changed(id: number): void {
  toPack.set(id, performance.now());
  packTimer ??= setTimeout(packIdle, PACK_IDLE_MS);
}

/**
 * Once a session had no message for PACK_IDLE_MS: store its history
 * compactly (this emulator never draws; see Buffer.compactHistory).
 * Nothing holds a line of it between messages.
 */
function packIdle(): void {
  packTimer = null;
  const now = performance.now();
  let packed = 0;
  let next = Infinity;
  for (const [id, last] of toPack) {
    const quiet = now - last;
    if (quiet >= PACK_IDLE_MS) {
      packed += terms.get(id)?.normalBuffer.compactHistory() ?? 0;
      unpacked.packed(id);
      toPack.delete(id);
    } else {
      next = Math.min(next, Math.max(1, PACK_IDLE_MS - quiet));
    }
  }
  if (next !== Infinity) packTimer = setTimeout(packIdle, next);
  else if (held.size === 0) scratch = new Uint8Array(0); // all quiet: let it go
  // What packing freed is garbage nobody would collect in an idle thread.
  if (packed >= 1000) fullGc();
}
