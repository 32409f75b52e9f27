/**
 * The page's WebSocket to the server (see docs/protocol.md): sends hello
 * with the key, input bytes and control messages; delivers output bytes and
 * server messages; acknowledges processed output for flow control; and
 * reconnects by itself, with back-off, when the socket drops.
 *
 * A reconnect names the session and the output offset the page has
 * processed (and the last grid change it applied), so the server resends
 * exactly what is missing, or a snapshot: no byte is lost or doubled.
 *
 * Incoming frames are queued and handed on in time slices of at most
 * {@link SLICE_MS}: after each slice the page yields, so a flood of output
 * never keeps it from drawing frames or handling keys (Ctrl-C). Output is
 * acknowledged only once it has been handed on (processed), so the
 * server's flow control sees how far behind the page really is.
 *
 * @module
 */
import type {
  ClientMessage,
  ColorsMessage,
  DeflatedMessage,
  HelloMessage,
  OpenMessage,
  ServerMessage,
} from "../core/protocol.ts";
import {
  CLOSE_BAD_KEY,
  CLOSE_BAD_MESSAGE,
  CLOSE_DETACHED,
  CLOSE_NO_SESSION,
  CLOSE_SESSION_ENDED,
  HIGH_WATER,
  WS_PATH,
} from "../core/protocol.ts";
import { TimeSlicedQueue } from "../core/time_sliced_queue.ts";
import { startupMark } from "./startup_marks.ts";
import { BACKGROUND_SLICE_MS, OutputShare } from "./output_share.ts";

/**
 * The page's panes' connections: the focused pane's output first, the
 * others' within a shared budget (client/output_share.ts).
 */
const share = new OutputShare<Connection>(
  () => performance.now(),
  newTask(),
  (f, ms) => setTimeout(f, ms),
);

/**
 * Acknowledge processed output at least every this many bytes: half of
 * HIGH_WATER, so that one ack takes a paused server's lag below LOW_WATER
 * and it reads again. An ack costs the page a `WebSocket.send`, about
 * 0.15-0.2 ms (at 64 KiB the sends took 7% of the page's time in a flood).
 */
const ACK_EVERY = HIGH_WATER / 2;
/**
 * Less than ACK_EVERY processed is acknowledged this long after the queue
 * ran dry, not at once: in a flood the queue runs dry between most
 * messages, and an ack after each one cost the page more than its frames'
 * JavaScript. The server only needs these last bytes to take back a window
 * it had left out as stale (it never waits for them to read on: what is
 * left unacknowledged is less than ACK_EVERY, half its HIGH_WATER).
 */
const ACK_REST_MS = 20;
/** Longest stretch of output processing before the page yields. */
const SLICE_MS = 8;
/**
 * Output is handed on in pieces of at most this many bytes, so the clock is
 * looked at often enough to keep slices short even on slow streams.
 */
const PIECE = 16 * 1024;
/** Reconnect delays: doubling from the first to the last, then the last. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5000;

/** Close codes after which reconnecting cannot help. */
const FINAL_CODES = new Set([
  CLOSE_BAD_KEY,
  CLOSE_BAD_MESSAGE,
  CLOSE_SESSION_ENDED,
  CLOSE_DETACHED,
  CLOSE_NO_SESSION,
  1011, // the program could not be started
]);

/** What the connection reports. */
export interface ConnectionHandlers {
  /** Output bytes, in order; they count as processed when this returns. */
  output(data: Uint8Array): void;
  /**
   * How many bytes of `data` (the next output) may be handed on now (the
   * pager, client/pager.ts); the rest is offered again next. To stop
   * output there it calls {@link Connection.hold}: nothing more is handed
   * on or acknowledged until {@link Connection.release}. Taking nothing
   * (0) holds too.
   */
  admit?(data: Uint8Array): number;
  message(msg: ServerMessage): void;
  /** The socket closed for good (code and reason from the server, if any). */
  closed(code: number, reason: string): void;
  /**
   * The link is down and a reconnect is due in `ms` (null: it is up
   * again); `reason` is what the server said when it closed, if anything
   * (e.g. that the ssh link of a remote session is down).
   */
  reconnecting?(
    ms: number | null,
    attempt: number,
    reason?: string,
    serverGone?: boolean,
  ): void;
}

/**
 * Sockets in a row that could not even open (the server's address refuses
 * them) after which the server is taken to be gone, not just unreachable
 * for a moment.
 */
export const GONE_AFTER_FAILED_OPENS = 3;

/** Where the page is in the session's stream. */
export interface StreamPosition {
  /** The session, once the server named it. */
  session: number | null;
  /** Output offset processed so far. */
  offset: number;
  /** The last grid change applied. */
  gridSeq: number;
}

/** One WebSocket to the server at a time, re-opened when it drops. */
export class Connection {
  #ws: WebSocket | null = null;
  #encoder = new TextEncoder();
  #handlers: ConnectionHandlers;
  #key: string;
  #size: () => { cols: number; rows: number };
  #unacked = 0;
  #ackTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set once the server said where the stream starts (ready). */
  #synced = false;
  /**
   * What was received and not yet handed on, in order: output bytes, and
   * the delivery of a message or of the close (which must not overtake
   * output that came before them).
   */
  #queue = this.#newQueue();
  /** Output is held (the pager): see ConnectionHandlers.admit. */
  #held = false;
  #attempt = 0;
  #final = false;
  /** The page holds the session's stream up to `position` (a snapshot or a resume came). */
  #hasStream = false;
  /** The stream position: updated as output is handed on. */
  readonly position: StreamPosition;

  constructor(
    key: string,
    size: () => { cols: number; rows: number },
    handlers: ConnectionHandlers,
    session: number | null = null,
    helloWaits = false,
  ) {
    this.#key = key;
    this.#size = size;
    this.#handlers = handlers;
    this.#helloWaits = helloWaits;
    this.position = { session, offset: 0, gridSeq: 0 };
    startupMark("connect");
    share.join(this);
    this.#open();
  }

  /**
   * A connection opened before its view exists (issue 31 §7): the window
   * makes it as it starts, beside its window channel, so that the
   * socket's handshake does not wait for the layout; the view of the
   * first pane of the first layout takes it over ({@link adopt}) and its
   * hello goes then, with the view's size. (A hello sent sooner, with a
   * size guessed before the view existed, was followed by a resize to the
   * view's: a width change while a large history still loads in slices
   * ends that loading, client/snapshot_slices.ts, and the page kept 283 of
   * 10,026 lines in tests/e2e/sessions_test.ts.) `session`: the one the
   * page was opened for (`#session=N`), if any; a view of another session
   * does not take it.
   */
  static early(key: string, session: number | null): Connection {
    const none = () => {};
    return new Connection(
      key,
      () => ({ cols: 0, rows: 0 }),
      { output: none, message: none, closed: none },
      session,
      true,
    );
  }

  /** An early connection's hello waits for its view ({@link adopt}). */
  #helloWaits = false;

  /**
   * The view of an {@link early} connection takes it over, for `session`:
   * its handlers and size from now on, and the hello goes in a microtask,
   * once the view that calls this from its constructor is whole (its
   * colours known, as a view's own connection had them by its socket's
   * open), or as the socket opens; a socket the server closed for want of
   * a hello, after 10 s, is replaced.
   */
  adopt(
    handlers: ConnectionHandlers,
    size: () => { cols: number; rows: number },
    session: number,
  ): void {
    this.#handlers = handlers;
    this.#size = size;
    if (!this.#helloWaits) return;
    this.position.session = session;
    queueMicrotask(() => {
      this.#helloWaits = false;
      const ws = this.#ws;
      if (this.#final) return;
      if (ws?.readyState === WebSocket.OPEN) this.#hello(ws);
      else if (ws?.readyState !== WebSocket.CONNECTING) {
        this.#ws = null;
        this.#open();
      }
    });
  }

  /** True while a socket is open and attached. */
  get connected(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN && this.#synced;
  }

  /** Sockets in a row that never opened. */
  #failedOpens = 0;

  #open(): void {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}${WS_PATH}`);
    this.#ws = ws;
    this.#synced = false;
    // The new socket's server counts from the offset in the hello.
    clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
    this.#unacked = 0;
    ws.binaryType = "arraybuffer";
    let opened = false;
    ws.addEventListener("open", () => {
      opened = true;
      this.#failedOpens = 0;
    });
    ws.addEventListener("close", () => {
      if (!opened) this.#failedOpens++;
    });
    ws.onopen = () => {
      startupMark("socket-open");
      if (!this.#helloWaits) this.#hello(ws);
    };
    let deflatedNext = false;
    ws.onmessage = (ev) => {
      if (ws !== this.#ws) return;
      if (typeof ev.data === "string") {
        let msg: ServerMessage | DeflatedMessage;
        try {
          msg = JSON.parse(ev.data);
        } catch {
          return;
        }
        if (msg.type === "deflated") deflatedNext = true;
        else this.#receive(ws, () => this.#deliver(msg as ServerMessage));
        return;
      }
      startupMark("first-output");
      const data = new Uint8Array(ev.data as ArrayBuffer);
      if (!deflatedNext) return this.#receive(ws, data);
      deflatedNext = false;
      this.#receive(
        ws,
        inflateMessage(data).then((text) => {
          const msg = JSON.parse(text) as ServerMessage;
          return () => this.#deliver(msg);
        }).catch(() => null), // as an unreadable text frame: dropped
      );
    };
    ws.onclose = (ev) => {
      if (ws !== this.#ws) return;
      // An early socket left waiting for its view: adopt opens another.
      if (this.#helloWaits) {
        this.#ws = null;
        return;
      }
      this.#receive(ws, () => this.#onClose(ev.code, ev.reason));
    };
  }

  /** Deflated messages being decoded, and what came after them. */
  #decoding = 0;
  #decoded: Promise<void> = Promise.resolve();

  /**
   * Queue what socket `ws` received, in the order it came: a deflated
   * message is decoded first (asynchronously), and what follows it waits.
   */
  #receive(
    ws: WebSocket,
    item: Uint8Array | (() => void) | Promise<(() => void) | null>,
  ): void {
    if (!(item instanceof Promise) && this.#decoding === 0) {
      return this.#enqueue(item);
    }
    this.#decoding++;
    this.#decoded = this.#decoded.then(() => item).then((it) => {
      this.#decoding--;
      if (it !== null && ws === this.#ws) this.#enqueue(it);
    });
  }

  #hello(ws: WebSocket): void {
    const { cols, rows } = this.#size();
    const hello: HelloMessage = {
      type: "hello",
      key: this.#key,
      cols,
      rows,
      deflate: true,
    };
    // A session this starts answers its program's first colour query.
    if (this.#colors !== null) {
      const { type: _, ...colors } = this.#colors;
      hello.colors = colors;
    }
    const p = this.position;
    if (p.session !== null) {
      hello.session = p.session;
      // Before the page had any of the stream it asks for a snapshot.
      if (this.#hasStream) {
        hello.offset = p.offset;
        hello.gridSeq = p.gridSeq;
      }
    }
    this.#helloColors = this.#colors ? JSON.stringify(this.#colors) : "";
    ws.send(JSON.stringify(hello));
    performance.mark("domterm:hello"); // bench/attach_bench.ts
  }

  #deliver(msg: ServerMessage): void {
    const p = this.position;
    switch (msg.type) {
      case "ready":
        startupMark("ready");
        p.session = msg.session;
        if (msg.resumed) {
          p.offset = msg.offset;
          this.#hasStream = true;
        }
        this.#synced = true;
        // The new socket's session learns the colours this window shows
        // (the hello had them: this sends them only if they changed since).
        this.#colorsSent = this.#helloColors;
        this.#sendColors();
        if (this.#pendingResize) {
          this.#send(this.#pendingResize);
          this.#pendingResize = null;
        }
        // At once: the server's first sample of this link's round trip
        // (server/frames/policy.ts, DrainMeter).
        this.#send({ type: "ack", bytes: 0 });
        if (this.#attempt > 0) this.#handlers.reconnecting?.(null, 0);
        this.#attempt = 0;
        break;
      case "snapshot":
        p.offset = msg.offset;
        p.gridSeq = msg.gridSeq;
        this.#unacked = 0;
        this.#hasStream = true;
        break;
      case "grid":
        p.gridSeq = msg.seq;
        break;
      case "event":
        // The server skipped output for this window (it fell behind) and
        // sent the events in it: a reconnect must not resume at the
        // offset (the replay would bring them again) but take a snapshot.
        this.#hasStream = false;
        break;
      case "read-only":
        this.#readOnly = true; // its colours do not count
        break;
      case "exit":
      case "detached":
        // Final: this side closes the socket (the server waits for that,
        // see closeAfterFinal), and no reconnect follows.
        this.#final = true;
        share.leave(this);
        this.#ws?.close(1000, msg.type);
        break;
    }
    this.#handlers.message(msg);
    if (msg.type === "snapshot" && msg.frame) this.#ackFrame(msg.offset);
  }

  /**
   * The frame made at `offset` was loaded: say so once it can be drawn
   * (the next animation frame, or a quarter second in a page that draws
   * none), so that frames come at the pace the page shows them.
   */
  #ackFrame(offset: number): void {
    const ws = this.#ws;
    let done = false;
    const ack = () => {
      if (done || ws !== this.#ws) return;
      done = true;
      clearTimeout(timer);
      this.#send({ type: "ack", bytes: 0, frame: offset });
    };
    const timer = setTimeout(ack, FRAME_ACK_MAX_MS);
    requestAnimationFrame(ack);
  }

  #onClose(code: number, reason: string): void {
    this.#synced = false;
    if (this.#final || FINAL_CODES.has(code)) {
      this.#final = true;
      this.#handlers.closed(code, reason);
      return;
    }
    const ms = Math.min(
      RETRY_MAX_MS,
      this.#attempt === 0
        ? RETRY_FIRST_MS
        : RETRY_FIRST_MS * 2 ** this.#attempt,
    );
    this.#attempt++;
    this.#handlers.reconnecting?.(
      ms,
      this.#attempt,
      reason,
      this.#failedOpens >= GONE_AFTER_FAILED_OPENS,
    );
    setTimeout(() => {
      if (!this.#final) this.#open();
    }, ms);
  }

  /**
   * Close for good, without a word to the session (its view went away):
   * nothing more is handed on and no reconnect follows.
   */
  close(): void {
    this.#final = true;
    share.leave(this);
    this.#queue.pause();
    clearTimeout(this.#ackTimer);
    this.#ws?.close(1000, "gone");
  }

  /**
   * Test hook: close the socket as a lost connection would; the page
   * reconnects by itself.
   */
  drop(): void {
    this.#ws?.close();
  }

  /** True while output is held by the pager. */
  get held(): boolean {
    return this.#held;
  }

  /**
   * Hold output (the pager): what is not handed on yet stays queued,
   * unprocessed and unacknowledged, so the server stops reading the PTY
   * once HIGH_WATER is reached; the server is told (a `pause` message) so
   * that it keeps the window in flow control.
   */
  hold(): void {
    if (this.#held) return;
    this.#held = true;
    this.#queue.pause();
    this.#send({ type: "pause", paused: true });
  }

  /**
   * Hand held output on again (the pager continues); `admit` is asked
   * again for what follows.
   */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#send({ type: "pause", paused: false });
    this.#queue.resume();
  }

  /** Send input for the program (a string of characters, UTF-8 encoded here). */
  sendInput(data: string | Uint8Array<ArrayBuffer>): void {
    if (!this.connected) return;
    this.#ws!.send(
      typeof data === "string" ? this.#encoder.encode(data) : data,
    );
  }

  /** Tell the server the window's size changed. */
  sendResize(
    cols: number,
    rows: number,
    width?: number,
    height?: number,
  ): void {
    const msg: ClientMessage = { type: "resize", cols, rows, width, height };
    // Not attached yet (or reconnecting): sent once the server is ready.
    if (this.connected) this.#send(msg);
    else this.#pendingResize = msg;
  }

  /** A size change made while no socket was attached. */
  #pendingResize: ClientMessage | null = null;

  /**
   * Tell the session the colours this window shows (its colour queries
   * answer them while this window is the active one): now if they
   * changed, and again after every reconnect. Not from a read-only window.
   */
  sendColors(colors: Omit<ColorsMessage, "type">): void {
    this.#colors = { type: "colors", ...colors };
    this.#sendColors();
  }

  /** The colours this window shows (null: not known yet). */
  #colors: ColorsMessage | null = null;
  /** The colours last sent on this socket (JSON). */
  #colorsSent = "";
  /** The colours the hello of this socket had (JSON of a colors message). */
  #helloColors = "";
  /** The session is shared read-only with this window. */
  #readOnly = false;

  #sendColors(): void {
    if (this.#colors === null || this.#readOnly || !this.connected) return;
    const text = JSON.stringify(this.#colors);
    if (text === this.#colorsSent) return;
    this.#colorsSent = text;
    this.#ws!.send(text);
  }

  /** Ask the server to open a link the user clicked (see client/links.ts). */
  sendOpen(msg: OpenMessage): void {
    this.#send(msg);
  }

  /** The window has the focus: the session's size follows it. */
  sendFocus(): void {
    share.focus(this);
    this.#send({ type: "focus" });
  }

  /** The window is going away on purpose (closed or reloaded). */
  sendClosing(): void {
    this.#send({ type: "closing" });
  }

  /** Detach every window of the session; the session goes on. */
  sendDetach(): void {
    this.#send({ type: "detach" });
  }

  /** Send a control message (the line editor's `key`, `line`, `edit-state`). */
  sendMessage(msg: ClientMessage): void {
    this.#send(msg);
  }

  /** Clear the session's history (every window's, and the server's). */
  sendClearHistory(): void {
    this.#send({ type: "clear-history" });
  }

  /** Ask the server to write these settings to the settings file (the settings page). */
  sendSaveSettings(settings: Record<string, unknown>): boolean {
    if (!this.connected) return false;
    this.#send({ type: "save-settings", settings });
    return true;
  }

  #send(msg: ClientMessage): void {
    if (this.connected) this.#ws!.send(JSON.stringify(msg));
  }

  #enqueue(item: Uint8Array | (() => void)): void {
    if (item instanceof Uint8Array) this.#queue.pushData(item, null);
    else this.#queue.pushTask(item, null);
  }

  /**
   * The queue of received frames: handed on until the queue is empty or
   * the slice is used up (a frame arriving to an empty queue at once);
   * then what was processed is acknowledged and, if frames are left, the
   * queue goes on in a new task (a MessageChannel message: unlike
   * setTimeout it is not clamped, and rendering and input get their turn
   * in between).
   */
  #newQueue(): TimeSlicedQueue {
    const task = newTask();
    const background = () => share.background(this);
    return new TimeSlicedQueue({
      // Read at each slice and push: a pane in the background takes short
      // slices in its turn, never in its message event.
      get sliceMs() {
        return background() ? BACKGROUND_SLICE_MS : SLICE_MS;
      },
      pieceBytes: PIECE,
      now: () => performance.now(),
      later: (f) => background() ? share.later(f) : task(f),
      get eager() {
        return !background();
      },
      take: (piece) => {
        let n = piece.length;
        if (this.#handlers.admit && n > 0) {
          // The pager may take less (it stops at the byte where a screenful
          // is complete, and holds the rest: see hold()).
          n = Math.min(n, Math.max(0, this.#handlers.admit(piece)));
          if (n === 0) {
            this.hold(); // taking nothing is holding
            return 0;
          }
        }
        this.#handlers.output(
          n === piece.length ? piece : piece.subarray(0, n),
        );
        this.position.offset += n;
        this.#unacked += n;
        if (this.#unacked >= ACK_EVERY) this.#flushAck();
        return n;
      },
      stopped: () => {
        if (this.#unacked > 0) {
          this.#ackTimer ??= setTimeout(() => this.#flushAck(), ACK_REST_MS);
        }
      },
    });
  }

  #flushAck(): void {
    clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
    if (this.#unacked > 0) {
      this.#send({ type: "ack", bytes: this.#unacked });
      this.#unacked = 0;
    }
  }
}

/** The JSON text of a `deflated` message's binary frame (raw deflate, UTF-8). */
export async function inflateMessage(data: Uint8Array): Promise<string> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("deflate-raw"))
    .pipeThrough(new TextDecoderStream());
  let text = "";
  for await (const part of stream) text += part;
  return text;
}

/** A frame is acknowledged at the next animation frame, or after this long. */
const FRAME_ACK_MAX_MS = 250;

/** Calls `f` in a new task: a MessageChannel message, which unlike setTimeout is not clamped. */
function newTask(): (f: () => void) => void {
  const { port1, port2 } = new MessageChannel();
  const due: (() => void)[] = [];
  port1.onmessage = () => due.shift()!();
  return (f) => {
    due.push(f);
    port2.postMessage(null);
  };
}
