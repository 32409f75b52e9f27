/**
 * The page's window channel: one WebSocket per page at the window path,
 * beside the panes' session sockets (client/connection.ts). It says which
 * window the page shows (`window-hello`), sends the layout operations the
 * user asks for (`layout-op`) and hands on what the server says: the
 * window's layout after every change, a window to open (and, asked by a
 * command, whether it opened: `page-opened`), an operation that
 * failed, the window's end. The server is the layout's authority: the
 * page draws only what comes back.
 *
 * It reconnects by itself when the socket drops (250 ms doubling to 5 s),
 * naming the window it had, so the server sends the layout again.
 *
 * @module
 */
import { startupMark } from "../startup_marks.ts";
import { shownColors } from "../theme_colors.ts";
import type { Layout } from "../../core/layout.ts";
import {
  CLOSE_BAD_KEY,
  CLOSE_BAD_MESSAGE,
  CLOSE_NO_WINDOW,
  type LayoutOp,
  parseWindowServerMessage,
  WINDOW_PATH,
  type WindowClientMessage,
  type WindowServerMessage,
} from "../../core/protocol.ts";

/** Reconnect delays: doubling from the first to the last, then the last. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5000;

/** What the channel reports. */
export interface WindowChannelHandlers {
  /** The window's layout (after the hello and after every change). */
  layout(window: number, layout: Layout): void;
  /** Open a new OS window showing window `window` (a pane moved there). */
  openWindow(window: number): void;
  /**
   * Open a new OS window, as a command asked (`open-page`): on kept window
   * `window`, or a new window on `session` (null: a new session). Whether
   * the browser opened it (false: blocked).
   */
  openPage(window: number | null, session: number | null): boolean;
  /** An operation failed. */
  error(message: string): void;
  /** The window's last pane is gone: the page closes. */
  windowClosed(): void;
  /** The socket closed for good (a bad key, a refused window). */
  closed(code: number, reason: string): void;
  /** The window asked for does not exist (any more). */
  noWindow(): void;
}

/** What the first hello asks for. */
export interface WindowRequest {
  /** The window to show (a reload, `domterm attach`), or null: a new one. */
  window: number | null;
  /** A new window's first session (null: a new session). */
  session: number | null;
}

/** Close codes after which reconnecting cannot help. */
const FINAL_CODES = new Set([CLOSE_BAD_KEY, CLOSE_BAD_MESSAGE, 1008]);

/** One window's channel to the server. */
export class WindowChannel {
  #ws: WebSocket | null = null;
  readonly #key: string;
  readonly #handlers: WindowChannelHandlers;
  readonly #size: () => { cols: number; rows: number };
  #request: WindowRequest;
  #attempt = 0;
  #final = false;
  #open = false;

  constructor(
    key: string,
    request: WindowRequest,
    size: () => { cols: number; rows: number },
    handlers: WindowChannelHandlers,
  ) {
    this.#key = key;
    this.#request = { ...request };
    this.#size = size;
    this.#handlers = handlers;
    this.#connect();
  }

  /** The window shown, once the server named it. */
  get window(): number | null {
    return this.#request.window;
  }

  /** True while the socket is open and the server sent a layout. */
  get connected(): boolean {
    return this.#open && this.#ws?.readyState === WebSocket.OPEN;
  }

  /** Ask for a layout operation (dropped while the channel is down). */
  send(op: LayoutOp): boolean {
    if (!this.connected) return false;
    const msg: WindowClientMessage = { type: "layout-op", op };
    this.#ws!.send(JSON.stringify(msg));
    return true;
  }

  /** Start again asking for `request` (the window asked for is gone). */
  restart(request: WindowRequest): void {
    this.#request = { ...request };
    this.#attempt = 0;
    const ws = this.#ws;
    this.#ws = null;
    ws?.close(1000);
    this.#connect();
  }

  /** Close for good (the page goes away). */
  close(): void {
    this.#final = true;
    this.#ws?.close(1000);
  }

  /** Test hook: drop the socket as a lost network would (it reconnects). */
  drop(): void {
    this.#ws?.close();
  }

  #connect(): void {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}${WINDOW_PATH}`);
    this.#ws = ws;
    this.#open = false;
    ws.onopen = () => {
      startupMark("channel-open");
      const { cols, rows } = this.#size();
      const hello: WindowClientMessage = {
        type: "window-hello",
        key: this.#key,
        window: this.#request.window,
        session: this.#request.window === null ? this.#request.session : null,
        cols,
        rows,
      };
      // The colours the page shows: its new sessions answer with them.
      const colors = shownColors(document.documentElement);
      if (colors && hello.type === "window-hello") hello.colors = colors;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.#ws || typeof ev.data !== "string") return;
      const msg = parseWindowServerMessage(ev.data);
      if (typeof msg === "string") {
        this.#handlers.error(`window channel: ${msg}`);
        return;
      }
      this.#deliver(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.#ws) return;
      this.#open = false;
      if (!this.#final && ev.code === CLOSE_NO_WINDOW) {
        this.#handlers.noWindow();
        return;
      }
      if (this.#final || FINAL_CODES.has(ev.code)) {
        if (!this.#final) this.#handlers.closed(ev.code, ev.reason);
        this.#final = true;
        return;
      }
      const ms = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.#attempt);
      this.#attempt++;
      setTimeout(() => {
        if (!this.#final) this.#connect();
      }, ms);
    };
  }

  #deliver(msg: WindowServerMessage): void {
    switch (msg.type) {
      case "layout":
        this.#open = true;
        this.#attempt = 0;
        this.#request = { window: msg.window, session: null };
        this.#handlers.layout(msg.window, msg.layout);
        break;
      case "open-window":
        this.#handlers.openWindow(msg.window);
        break;
      case "open-page": {
        let opened = false;
        try {
          opened = this.#handlers.openPage(msg.window, msg.session);
        } catch { /* not opened */ }
        const reply: WindowClientMessage = {
          type: "page-opened",
          request: msg.request,
          opened,
        };
        this.#ws?.send(JSON.stringify(reply));
        break;
      }
      case "window-error":
        this.#handlers.error(msg.message);
        break;
      case "window-closed":
        this.#final = true;
        this.#handlers.windowClosed();
        this.#ws?.close(1000);
        break;
    }
  }
}
