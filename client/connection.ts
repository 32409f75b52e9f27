/**
 * The page's WebSocket to the server (see docs/protocol.md): sends hello
 * with the key, input bytes and control messages; delivers output bytes and
 * server messages; acknowledges processed output for flow control.
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

/** What the connection reports. */
export interface ConnectionHandlers {
  /** Output bytes; call `processed(n)` once they are consumed (done for you after this returns). */
  output(data: Uint8Array): void;
  message(msg: ServerMessage): void;
  /** The socket closed (code and reason from the server, if any). */
  closed(code: number, reason: string): void;
}

/** One WebSocket to the server. */
export class Connection {
  #ws: WebSocket;
  #encoder = new TextEncoder();
  #unacked = 0;
  #ackTimer: ReturnType<typeof setTimeout> | 0 = 0;

  constructor(
    key: string,
    size: { cols: number; rows: number },
    handlers: ConnectionHandlers,
  ) {
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
        handlers.message(msg);
        return;
      }
      const bytes = new Uint8Array(ev.data as ArrayBuffer);
      handlers.output(bytes);
      this.#processed(bytes.length);
    };
    this.#ws.onclose = (ev) => handlers.closed(ev.code, ev.reason);
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

  close(): void {
    this.#ws.close();
  }

  #send(msg: ClientMessage): void {
    if (this.#ws.readyState === WebSocket.OPEN) {
      this.#ws.send(JSON.stringify(msg));
    }
  }

  // Acks are batched: one per ACK_EVERY bytes, plus one for the tail as soon
  // as the burst of queued messages has been handled.
  #processed(n: number): void {
    this.#unacked += n;
    if (this.#unacked >= ACK_EVERY) {
      this.#flushAck();
    } else if (!this.#ackTimer) {
      this.#ackTimer = setTimeout(() => this.#flushAck(), 0);
    }
  }

  #flushAck(): void {
    if (this.#ackTimer) clearTimeout(this.#ackTimer);
    this.#ackTimer = 0;
    if (this.#unacked > 0) {
      this.#send({ type: "ack", bytes: this.#unacked });
      this.#unacked = 0;
    }
  }
}
