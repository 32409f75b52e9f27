/**
 * Sending on a window's WebSocket: nothing when it is no longer open, and
 * a failing send is left to the socket's close handler.
 *
 * @module
 */
import type { ServerMessage } from "../core/protocol.ts";

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
