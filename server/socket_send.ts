/**
 * Sending on a window's WebSocket: nothing when it is no longer open, and
 * a failing send is left to the socket's close handler.
 *
 * @module
 */
import { deflateRawSync } from "node:zlib";
import type { DeflatedMessage, ServerMessage } from "../core/protocol.ts";

/** Send text (a JSON message already serialized). */
export function sendText(socket: WebSocket, text: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  try {
    socket.send(text);
  } catch {
    // A failing socket is dropped by its close handler.
  }
}

/** Send a control message. */
export function send(socket: WebSocket, msg: ServerMessage): void {
  sendText(socket, JSON.stringify(msg));
}

/** Send output bytes. */
export function sendBytes(socket: WebSocket, data: Uint8Array): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  try {
    socket.send(data as Uint8Array<ArrayBuffer>);
  } catch {
    // as above
  }
}

const DEFLATED = JSON.stringify({ type: "deflated" } satisfies DeflatedMessage);
const encoder = new TextEncoder();

/**
 * A message's JSON text as a `deflated` message's binary frame: UTF-8,
 * raw deflate at level 6 (measured on snapshots of the four bench streams:
 * frames of 6-32 KB to 1-4 KB, 4-9x, whole snapshots of 100-900 KB 6-60x,
 * at 1-40 ms of one core for the largest; see docs/protocol.md).
 */
export function deflateMessage(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(deflateRawSync(encoder.encode(text), { level: 6 }));
}

/** Send a message's JSON text deflated: the `deflated` header, then the binary frame. */
export function sendDeflated(socket: WebSocket, text: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  try {
    const data = deflateMessage(text);
    socket.send(DEFLATED);
    socket.send(data);
  } catch {
    // as above
  }
}

/** How long a window has to close its socket after a final message. */
export const FINAL_CLOSE_MS = 2000;

/**
 * End a socket after a final message (`detached`, `exit`): the page closes
 * it when it reads that message; this closes it only if the page does not
 * within `ms`. Closing at once from here loses the message: the server
 * would drop the TCP connection with the page's acknowledgements still
 * unread, and the reset makes the browser discard what it had not read
 * yet (the page then sees code 1006 and reconnects).
 */
export function closeAfterFinal(
  socket: WebSocket,
  code: number,
  reason: string,
  ms = FINAL_CLOSE_MS,
): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  const timer = setTimeout(() => {
    try {
      socket.close(code, reason);
    } catch {
      // already closed
    }
  }, ms);
  socket.addEventListener("close", () => clearTimeout(timer), { once: true });
}
