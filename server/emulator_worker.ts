/**
 * The sessions' emulators, on a thread of their own: the read loop hands
 * every chunk of PTY output to the windows and posts it here, so parsing it
 * never holds up the output, the input or the acknowledgements on the
 * server's main thread. Messages are handled in order, so a snapshot
 * holds exactly what was posted before it was asked for. See
 * `emulator_host.ts` for the other side.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { Terminal } from "../core/emulator/terminal.ts";
import { capSnapshot } from "./snapshot_cap.ts";
import { fullGc } from "./full_gc.ts";
import { EMULATOR_NICE, lowerThreadPriority } from "./thread_priority.ts";
import {
  type FromEmulator,
  PACK_IDLE_MS,
  type ToEmulator,
} from "./emulator_host.ts";

const terms = new Map<number, Terminal>();

// The browser on this machine parses and draws the same output: it goes
// first (thread_priority.ts). Should this fail, the thread runs at normal
// priority, as it would elsewhere.
lowerThreadPriority(EMULATOR_NICE);

function post(m: FromEmulator): void {
  self.postMessage(m);
}

self.onmessage = (ev: MessageEvent<ToEmulator>) => {
  const m = ev.data;
  switch (m.t) {
    case "new":
      terms.set(
        m.id,
        new Terminal({
          cols: m.cols,
          rows: m.rows,
          scrollback: m.scrollback,
          reply: (data) => post({ t: "reply", id: m.id, data }),
          // OSC 88: kept by the server for the session's windows, so a
          // window that attaches later (a reload) looks the same.
          onEvent: (e) => {
            if (e.type === "settings") {
              post({ t: "settings", id: m.id, json: e.json });
            }
          },
        }),
      );
      break;
    case "write":
      terms.get(m.id)?.write(m.data);
      post({ t: "parsed", id: m.id, bytes: m.data.length });
      break;
    case "resize":
      terms.get(m.id)?.resize(m.cols, m.rows);
      break;
    case "cell":
      terms.get(m.id)?.setCellSize(m.width, m.height);
      break;
    case "title-reports":
      terms.get(m.id)?.setTitleReports(m.on);
      break;
    case "clear-history":
      terms.get(m.id)?.normalBuffer.clearHistory();
      break;
    case "snapshot": {
      const term = terms.get(m.id);
      if (!term) {
        post({ t: "snapshot", req: m.req, json: null, droppedLines: 0 });
        break;
      }
      const { json, droppedLines } = capSnapshot(term, m.maxChars);
      post({ t: "snapshot", req: m.req, json, droppedLines });
      break;
    }
    case "close":
      terms.delete(m.id);
      return;
  }
  if ("id" in m) {
    toPack.set(m.id, performance.now());
    packTimer ??= setTimeout(packIdle, PACK_IDLE_MS);
  }
};

/** Sessions whose emulator had messages since its history was packed, with the time of the last. */
const toPack = new Map<number, number>();
let packTimer: ReturnType<typeof setTimeout> | null = null;

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
      toPack.delete(id);
    } else {
      next = Math.min(next, Math.max(1, PACK_IDLE_MS - quiet));
    }
  }
  if (next !== Infinity) packTimer = setTimeout(packIdle, next);
  // What packing freed is garbage nobody would collect in an idle thread.
  if (packed >= 1000) fullGc();
}
