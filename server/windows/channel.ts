/**
 * A page's window channel (`/window`, core/protocol.ts `WINDOW_PATH`): the
 * only code that reads or writes one. The first message is a
 * `window-hello`, checked by the gate exactly as a session socket's hello
 * is (server/remote/gate.ts: key, login, share); it names the window to
 * show (a reload) or asks for a new one. From then on the page gets the
 * window's layout after every change and sends `layout-op`s, which
 * server/windows/ops.ts applies. A share opens a window of its own session
 * only, kept nowhere (window 0), and changes nothing.
 *
 * @module
 */
import { newLayout } from "../../core/layout.ts";
import {
  CLOSE_BAD_KEY,
  CLOSE_BAD_MESSAGE,
  CLOSE_NO_SESSION,
  CLOSE_NO_WINDOW,
  encodeWindowServerMessage,
  parseWindowClientMessage,
  type WindowHelloMessage,
  type WindowServerMessage,
} from "../../core/protocol.ts";
import { LOGIN_ENDED, LoginWatch } from "../remote/login_watch.ts";
import type { HelloGrant, RemoteGate, UpgradeGrant } from "../remote/gate.ts";
import { closeAfterFinal, sendText } from "../socket_send.ts";
import { applyLayoutOp } from "./ops.ts";
import type { WindowRegistry } from "./registry.ts";
import { type PageTarget, TopWindow, type WindowPage } from "./top_window.ts";

/** What every window channel shares (the server's). */
export interface ChannelContext {
  key: string;
  gate: RemoteGate;
  windows: WindowRegistry;
  log: (message: string) => void;
}

/** How long a new socket has to say hello. */
const HELLO_TIMEOUT_MS = 10_000;
/** Close code after `window-closed` (normal closure). */
const CLOSE_NORMAL = 1000;
/**
 * How long a page has to answer `open-page` before the command opens a
 * browser itself. A page answers at once on an idle machine, but a busy
 * renderer (a loaded machine: 1.5 s was too short at load 60) that answers
 * late has opened its window all the same, and the browser started then
 * makes a second one.
 */
export const OPEN_PAGE_TIMEOUT_MS = 5000;

/** One page's window channel. */
export class WindowChannel implements WindowPage {
  readonly #socket: WebSocket;
  readonly #upgrade: UpgradeGrant;
  readonly #ctx: ChannelContext;
  #window: TopWindow | null = null;
  /** Set once the hello was good (the window may have closed since). */
  #greeted = false;
  /** Set for a share: its window is its own, and it changes nothing. */
  #share: HelloGrant | null = null;
  #helloTimer: ReturnType<typeof setTimeout>;
  readonly #login: LoginWatch;
  /** `open-page` requests waiting for the page's answer. */
  readonly #opening = new Map<number, (opened: boolean) => void>();
  #nextRequest = 1;

  constructor(socket: WebSocket, upgrade: UpgradeGrant, ctx: ChannelContext) {
    this.#socket = socket;
    this.#upgrade = upgrade;
    this.#ctx = ctx;
    this.#login = new LoginWatch(
      ctx.gate,
      upgrade,
      () => this.#refuse(LOGIN_ENDED, CLOSE_BAD_KEY, "login ended"),
    );
    this.#helloTimer = setTimeout(() => {
      if (!this.#greeted) socket.close(CLOSE_BAD_KEY, "no hello");
    }, HELLO_TIMEOUT_MS);
    socket.onmessage = (ev) => this.#receive(ev.data);
    socket.onclose = () => this.#closed();
    socket.onerror = () => {};
  }

  /** The window this page shows (null before the hello). */
  get window(): TopWindow | null {
    return this.#window;
  }

  send(msg: WindowServerMessage): void {
    sendText(this.#socket, encodeWindowServerMessage(msg));
  }

  /**
   * Have the page open a window on `target` (`open-page`): whether it
   * did. Only a page of this machine's own (it came straight to the
   * loopback listener, with the server key, not a share or a login) is
   * asked: a window must not open on another machine's screen. False when
   * it does not answer within {@link OPEN_PAGE_TIMEOUT_MS}.
   */
  openPage(target: PageTarget): Promise<boolean> {
    if (
      !this.#upgrade.direct || this.#share !== null || this.#window === null ||
      this.#login.watching || this.#socket.readyState !== WebSocket.OPEN
    ) return Promise.resolve(false);
    const request = this.#nextRequest++;
    const { promise, resolve } = Promise.withResolvers<boolean>();
    const timer = setTimeout(() => done(false), OPEN_PAGE_TIMEOUT_MS);
    const done = (opened: boolean) => {
      clearTimeout(timer);
      this.#opening.delete(request);
      resolve(opened);
    };
    this.#opening.set(request, done);
    this.send({ type: "open-page", request, ...target });
    return promise;
  }

  closed(): void {
    this.send({ type: "window-closed" });
    this.#window = null;
    closeAfterFinal(this.#socket, CLOSE_NORMAL, "window closed");
  }

  #error(message: string): void {
    this.send({ type: "window-error", message });
  }

  #refuse(message: string, code: number, reason: string): void {
    this.#error(message);
    this.#socket.close(code, reason);
  }

  #receive(data: unknown): void {
    if (typeof data !== "string") {
      return this.#refuse("text frames only", CLOSE_BAD_MESSAGE, "binary");
    }
    const m = parseWindowClientMessage(data);
    if (!this.#greeted) {
      if (typeof m === "string" || m.type !== "window-hello") {
        const why = typeof m === "string"
          ? m
          : "the first message must be window-hello";
        return this.#refuse(why, CLOSE_BAD_MESSAGE, "expected window-hello");
      }
      return this.#hello(m);
    }
    if (this.#login.watching && this.#login.gone(true)) return;
    if (typeof m === "string") return this.#error(m);
    if (m.type === "window-hello") return this.#error("already connected");
    if (m.type === "page-opened") {
      return this.#opening.get(m.request)?.(m.opened);
    }
    const win = this.#window;
    if (win === null) return this.#error("the window has closed");
    if (this.#share !== null) {
      return this.#error(
        this.#share.readOnly
          ? "read-only share: the layout cannot be changed"
          : "a share shows its own session only",
      );
    }
    try {
      applyLayoutOp(this.#ctx.windows, win, m.op, this);
    } catch (e) {
      this.#error(`${m.op.op}: ${(e as Error).message}`);
    }
  }

  #hello(m: WindowHelloMessage): void {
    const { gate, key, windows } = this.#ctx;
    const grant = gate.hello(this.#upgrade, m.key, m.session ?? undefined, key);
    if (typeof grant === "string") {
      return this.#refuse(grant, CLOSE_BAD_KEY, "wrong key");
    }
    clearTimeout(this.#helloTimer);
    this.#greeted = true;
    if (grant.viaLogin) {
      this.#login.start();
    }
    if (grant.session !== undefined) return this.#shareHello(grant);
    let win: TopWindow | null;
    if (m.window !== null) {
      win = windows.get(m.window) ?? null;
      if (win === null) {
        const why = `there is no window ${m.window} (it may have closed)`;
        return this.#refuse(why, CLOSE_NO_WINDOW, "no such window");
      }
    } else {
      win = this.#newWindow(m);
      if (win === null) return;
    }
    this.#window = win;
    win.addPage(this);
    this.send(win.layoutMessage());
  }

  /** A new window for the hello: its session, or a new one. */
  #newWindow(m: WindowHelloMessage): TopWindow | null {
    const { windows, log } = this.#ctx;
    let session = m.session;
    if (session !== null && !windows.sessions.live(session)) {
      const why = `there is no session ${session} (it may have ended)`;
      this.#refuse(why, CLOSE_NO_SESSION, "no such session");
      return null;
    }
    // Its sessions answer colour queries with the colours it shows.
    if (m.colors) windows.sessions.noteColors?.(m.colors);
    if (session === null) {
      try {
        session = windows.sessions.create({ cols: m.cols, rows: m.rows });
      } catch (e) {
        log((e as Error).message);
        this.#refuse((e as Error).message, 1011, "cannot start");
        return null;
      }
    }
    return windows.open(session);
  }

  /** A share's page: a window of its session, kept nowhere. */
  #shareHello(grant: HelloGrant): void {
    this.#share = grant;
    const win = new TopWindow(0, newLayout(grant.session!));
    this.#window = win;
    this.send(win.layoutMessage());
  }

  #closed(): void {
    clearTimeout(this.#helloTimer);
    for (const done of [...this.#opening.values()]) done(false);
    this.#login.stop();
    this.#window?.removePage(this);
  }
}
