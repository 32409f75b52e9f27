/**
 * The page's WebSocket to the server (see docs/protocol.md): sends hello
 * with the key, input bytes and control messages; delivers output bytes and
 * server messages; acknowledges processed output for flow control.
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
  OpenMessage,
  ServerMessage,
} from "../core/protocol.ts";
import { WS_PATH } from "../core/protocol.ts";

/** Acknowledge processed output at least every this many bytes. */
const ACK_EVERY = 32 * 1024;
/** Longest stretch of output processing before the page yields. */
const SLICE_MS = 8;
/**
 * Output is handed on in pieces of at most this many bytes, so the clock is
 * looked at often enough to keep slices short even on slow streams.
 */
const PIECE = 16 * 1024;

/** What the connection reports. */
export interface ConnectionHandlers {
  /** Output bytes, in order; they count as processed when this returns. */
  output(data: Uint8Array): void;
  message(msg: ServerMessage): void;
  /** The socket closed (code and reason from the server, if any). */
  closed(code: number, reason: string): void;
}

/** One WebSocket to the server. */
export class Connection {
  #ws: WebSocket;
  #encoder = new TextEncoder();
  #handlers: ConnectionHandlers;
  #unacked = 0;
  /**
   * What was received and not yet handed on, in order: output bytes, and
   * the delivery of a message or of the close (which must not overtake
   * output that came before them).
   */
  #queue: (Uint8Array | (() => void))[] = [];
  /** Bytes of `#queue[0]` already handed on (it is handed on in pieces). */
  #offset = 0;
  #scheduled = false;
  #yield = new MessageChannel();

  constructor(
    key: string,
    size: { cols: number; rows: number },
    handlers: ConnectionHandlers,
  ) {
    this.#handlers = handlers;
    this.#yield.port1.onmessage = () => this.#drain();
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.#ws = new WebSocket(`${proto}//${location.host}${WS_PATH}`);
    this.#ws.binaryType = "arraybuffer";
    this.#ws.onopen = () => {
      this.#send({ type: "hello", key, cols: size.cols, rows: size.rows });
    };
    this.#ws.onmessage = (ev) => {
      if (typeof ev.data === "string") {
        let msg: ServerMessage;
        try {
          msg = JSON.parse(ev.data);
        } catch {
          return;
        }
        this.#enqueue(() => handlers.message(msg));
        return;
      }
      this.#enqueue(new Uint8Array(ev.data as ArrayBuffer));
    };
    this.#ws.onclose = (ev) =>
      this.#enqueue(() => handlers.closed(ev.code, ev.reason));
  }

  /** Send input for the program (a string of characters, UTF-8 encoded here). */
  sendInput(data: string | Uint8Array<ArrayBuffer>): void {
    if (this.#ws.readyState !== WebSocket.OPEN) return;
    this.#ws.send(typeof data === "string" ? this.#encoder.encode(data) : data);
  }

  /** Tell the server the window's size changed. */
  sendResize(
    cols: number,
    rows: number,
    width?: number,
    height?: number,
  ): void {
    this.#send({ type: "resize", cols, rows, width, height });
  }

  /** Ask the server to open a link the user clicked (see client/links.ts). */
  sendOpen(msg: OpenMessage): void {
    this.#send(msg);
  }

  #send(msg: ClientMessage): void {
    if (this.#ws.readyState === WebSocket.OPEN) {
      this.#ws.send(JSON.stringify(msg));
    }
  }

  #enqueue(item: Uint8Array | (() => void)): void {
    this.#queue.push(item);
    // Already running or about to: the new frame waits its turn.
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#drain();
  }

  /**
   * Hand queued frames on until the queue is empty or the slice is used up;
   * then acknowledge what was processed and, if frames are left, continue
   * in a new task (a MessageChannel message: unlike setTimeout it is not
   * clamped, and rendering and input get their turn in between).
   */
  #drain(): void {
    const end = performance.now() + SLICE_MS;
    const queue = this.#queue;
    while (queue.length > 0) {
      const item = queue[0];
      if (!(item instanceof Uint8Array)) {
        queue.shift();
        item();
      } else {
        const start = this.#offset;
        const stop = Math.min(item.length, start + PIECE);
        this.#handlers.output(
          start === 0 && stop === item.length
            ? item
            : item.subarray(start, stop),
        );
        this.#unacked += stop - start;
        if (stop === item.length) {
          queue.shift();
          this.#offset = 0;
        } else {
          this.#offset = stop;
        }
        if (this.#unacked >= ACK_EVERY) this.#flushAck();
      }
      if (queue.length > 0 && performance.now() >= end) {
        this.#flushAck();
        this.#yield.port2.postMessage(null);
        return;
      }
    }
    this.#scheduled = false;
    this.#flushAck();
  }

  #flushAck(): void {
    if (this.#unacked > 0) {
      this.#send({ type: "ack", bytes: this.#unacked });
      this.#unacked = 0;
    }
  }
}
