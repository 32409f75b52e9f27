/**
 * The events a window fed frames must not miss (docs/protocol.md, `event`).
 * A window that fell behind gets no output bytes but snapshots of the
 * session's model (server/session.ts), so its page never parses the bytes
 * it skipped: whatever those bytes did that is not in the model must reach
 * it as messages. That is the bell, desktop notifications (OSC 9, 777, 99),
 * clipboard writes (OSC 52) and the pager's switch (`CSI 92 ; Ps u`).
 * Titles, the window name, the progress (OSC 9 ; 4), colours and modes
 * are state: the snapshot carries them.
 *
 * {@link EventTap} reads the stream with the core's own parser (the same
 * state machine as the emulators', so a BEL that ends an OSC is no bell)
 * and the core's own OSC handlers (the same notifications the page's
 * emulator would report), and nothing else: it prints nothing and keeps no
 * screen, at about a tenth of an emulator's cost.
 *
 * @module
 */
import { Parser } from "../core/parser/parser.ts";
import type { Params, ParserHandler } from "../core/parser/handler.ts";
import type { TerminalEvent } from "../core/terminal_view.ts";
import type { FrameEvent } from "../core/protocol.ts";
import type { Emulator } from "../core/emulator/context.ts";
import { osc52, splitOsc } from "../core/emulator/osc.ts";
import { osc777, osc9, osc99 } from "../core/emulator/notify.ts";
import { newNotifyState } from "../core/emulator/notify_state.ts";
import { pagerCsiU } from "../core/emulator/pager.ts";

const BEL = 0x07;
const FINAL_U = 0x75;

/** Reads output bytes for the {@link FrameEvent}s in them, in order. */
export class EventTap {
  readonly #parser: Parser;
  #found: FrameEvent[] = [];
  /** What the core's handlers act on: only `emit` and the notify state matter. */
  readonly #host: Emulator;

  constructor() {
    const emit = (e: TerminalEvent) => {
      if (
        e.type === "bell" || e.type === "notify" || e.type === "clipboard" ||
        e.type === "pager"
      ) this.#found.push(e);
    };
    // The handlers used here read and write only these (osc.ts, notify.ts,
    // pager.ts): progress (kept for OSC 9 ; 4's "keep the percentage"),
    // the kitty notifications being assembled, and emit.
    this.#host = {
      s: { progress: { state: 0, percent: 0 }, notify: newNotifyState() },
      emit,
      replyOsc: () => {},
      reply: () => {},
    } as unknown as Emulator;
    const host = this.#host;
    const handler: ParserHandler = {
      print: () => {},
      execute: (code) => {
        if (code === BEL) emit({ type: "bell" });
      },
      csi: (prefix: string, params: Params, inter: string, final: number) => {
        if (final === FINAL_U && prefix === "" && inter === "") {
          pagerCsiU(host, params);
        }
      },
      esc: () => {},
      osc: (data) => this.#osc(data),
      dcs: () => {},
    };
    this.#parser = new Parser(handler);
  }

  #osc(data: string): void {
    const split = splitOsc(data);
    if (split === null) return;
    const [id, args] = split;
    if (id === 9) osc9(this.#host, args);
    else if (id === 777) osc777(this.#host, args);
    else if (id === 99) osc99(this.#host, args);
    // A clipboard read (`?`) is no event here: the page asks the user only
    // for a request it parsed itself (emit drops clipboard-read).
    else if (id === 52) osc52(this.#host, args);
  }

  /** The events in `data` (which follows what was fed before). */
  feed(data: Uint8Array): FrameEvent[] {
    this.#parser.feed(data);
    const found = this.#found;
    if (found.length > 0) this.#found = [];
    return found;
  }
}
