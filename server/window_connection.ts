/**
 * One window's WebSocket (`/ws`): the only place that turns a window's
 * frames into calls on its session and the session's notifications into
 * frames. It checks the hello (key, login, share) with the gate, finds or
 * makes the session through the {@link SessionRegistry}, attaches to it
 * as a {@link Viewer}, and from then on decodes every client message
 * (core/protocol.ts's `parseClientMessage`) and encodes every server
 * message (`encodeServerMessage`). A hello for a session on another host
 * makes it a relay endpoint instead (server/ssh/remote_sessions.ts): the
 * frames then pass through unchanged both ways, to and from that host's
 * server.
 *
 * @module
 */
import {
  type ClientMessage,
  CLOSE_BAD_KEY,
  CLOSE_BAD_MESSAGE,
  CLOSE_DETACHED,
  CLOSE_NO_SESSION,
  CLOSE_RESTARTING,
  CLOSE_SESSION_ENDED,
  DEFLATE_MIN,
  encodeServerMessage,
  type HelloMessage,
  parseClientMessage,
  type ServerMessage,
} from "../core/protocol.ts";
import {
  handleKey,
  handleLine,
  relayEditState,
  windowAttached,
  windowGone,
} from "./line_input.ts";
import { openLink, processCwd } from "./opener.ts";
import { echoTrace } from "./echo_trace.ts";
import type { Session } from "./session.ts";
import type { SessionRegistry } from "./session_registry.ts";
import type { SessionSnapshot, Viewer, ViewerEnd, Window } from "./viewer.ts";
import {
  closeAfterFinal,
  sendBytes,
  sendDeflated,
  sendText,
} from "./socket_send.ts";
import { LOGIN_ENDED, LoginWatch } from "./remote/login_watch.ts";
import type { HelloGrant, RemoteGate, UpgradeGrant } from "./remote/gate.ts";
import { dropForReadOnly } from "./remote/read_only.ts";
import type { RelayEndpoint, RelayInput } from "./ssh/remote_sessions.ts"; // ssh hosts

/** What every window's connection shares (the server's). */
export interface ConnectionContext {
  /** The server's key. */
  key: string;
  gate: RemoteGate;
  registry: SessionRegistry;
  /** Where to report problems. */
  log: (message: string) => void;
  /** The command that opens clicked file references, if one is set. */
  fileOpener: () => string | undefined;
  /** Called when a window has connected with the right key. */
  onConnect?: () => void;
}

/** How long a new socket has to say hello. */
const HELLO_TIMEOUT_MS = 10_000;
const READ_ONLY_NOTE =
  "read-only share: what you type is not sent to the session";

/** A window's WebSocket, attached to a session once its hello was good. */
export class WindowConnection implements Viewer {
  readonly #socket: WebSocket;
  readonly #upgrade: UpgradeGrant;
  readonly #ctx: ConnectionContext;
  #session: Session | null = null;
  #win: Window | null = null;
  /** Set for a read-only share: what it sends is dropped (and said once). */
  #readOnly = false;

  /** Let in by a read-only share: it never holds the program back. */
  get readOnly(): boolean {
    return this.#readOnly;
  }
  #toldReadOnly = false;
  /** Set when only a login let it in: it ends with the login. */
  readonly #login: LoginWatch;
  #helloTimer: ReturnType<typeof setTimeout>;
  /** Set when the window is on a session on another host: it takes every frame. */
  #relay: RelayInput | null = null; // ssh hosts

  /** Take over `socket` (just upgraded with `upgrade`'s grant). */
  constructor(
    socket: WebSocket,
    upgrade: UpgradeGrant,
    ctx: ConnectionContext,
  ) {
    this.#socket = socket;
    this.#upgrade = upgrade;
    this.#ctx = ctx;
    this.#login = new LoginWatch(
      ctx.gate,
      upgrade,
      () => this.#refuse(LOGIN_ENDED, CLOSE_BAD_KEY, "login ended"),
    );
    socket.binaryType = "arraybuffer";
    this.#helloTimer = setTimeout(() => {
      if (!this.#session) socket.close(CLOSE_BAD_KEY, "no hello");
    }, HELLO_TIMEOUT_MS);
    socket.onmessage = (ev) => this.#receive(ev.data);
    socket.onclose = () => this.#closed();
    socket.onerror = () => {};
  }

  // The Viewer side: what the session tells this window.

  output(data: Uint8Array): void {
    sendBytes(this.#socket, data);
    if (echoTrace && this.#session) echoTrace.send(this.#session.pty);
  }

  snapshot(snap: SessionSnapshot): void {
    // The snapshot is already JSON: the message goes around it.
    const text = encodeServerMessage({
      type: "snapshot",
      offset: snap.offset,
      gridSeq: snap.gridSeq,
      ...(snap.droppedLines > 0 ? { droppedLines: snap.droppedLines } : {}),
      ...(snap.frame ? { frame: snap.frame } : {}),
    }, snap.json);
    // Deflated for a page that reads it, over a link that is not loopback
    // (docs/protocol.md, "Compression").
    if (
      this.#deflate && text.length >= DEFLATE_MIN && this.#win !== null &&
      this.#session?.linkRemote(this.#win)
    ) sendDeflated(this.#socket, text);
    else this.#sendText(text);
  }

  /** The page's hello said it reads deflated messages. */
  #deflate = false;

  message(msg: ServerMessage): void {
    this.#sendText(encodeServerMessage(msg));
  }

  end(why: ViewerEnd): void {
    if (why === "restarting") {
      // Not final: the page reconnects, to the next server.
      try {
        this.#socket.close(
          CLOSE_RESTARTING,
          "the domterm server is restarting",
        );
      } catch { /* closed */ }
    } else if (why === "detached") {
      closeAfterFinal(this.#socket, CLOSE_DETACHED, "detached");
    } else closeAfterFinal(this.#socket, CLOSE_SESSION_ENDED, "session ended");
  }

  // The socket side: what the window sends.

  #sendText(text: string): void {
    sendText(this.#socket, text);
  }

  /** Say what is wrong, then close with `code`. */
  #refuse(message: string, code: number, reason: string): void {
    this.message({ type: "error", message });
    this.#socket.close(code, reason);
  }

  #receive(data: string | ArrayBuffer): void {
    if (this.#relay) return this.#relay.receive(data); // ssh hosts
    const session = this.#session, win = this.#win;
    if (!session || !win) return this.#first(data);
    // A window detached on purpose no longer speaks for the session (its
    // socket stays open until the page closes it).
    if (!session.windows.has(win)) return;
    if (this.#login.watching && this.#login.gone(true)) return;
    if (this.#readOnly && this.#dropReadOnly(data)) return;
    if (typeof data !== "string") {
      echoTrace?.input(session.pty, data.byteLength);
      void session.input(new Uint8Array(data), win);
      return;
    }
    const m = parseClientMessage(data);
    // A broken control message is reported, not fatal: no output or input is lost.
    if (typeof m === "string") this.message({ type: "error", message: m });
    else this.#dispatch(m, session, win);
  }

  /** The first message: it must be a good hello. */
  #first(data: string | ArrayBuffer): void {
    const m = typeof data === "string" ? parseClientMessage(data) : null;
    if (m === null || typeof m === "string" || m.type !== "hello") {
      const why = typeof m === "string" ? m : "the first message must be hello";
      return this.#refuse(why, CLOSE_BAD_MESSAGE, "expected hello");
    }
    const { gate, key } = this.#ctx;
    const grant = gate.hello(this.#upgrade, m.key, m.session, key);
    if (typeof grant === "string") {
      return this.#refuse(grant, CLOSE_BAD_KEY, "wrong key");
    }
    this.#hello(m, grant);
  }

  #hello(m: HelloMessage, grant: HelloGrant): void {
    clearTimeout(this.#helloTimer);
    this.#readOnly = grant.readOnly;
    this.#deflate = m.deflate === true;
    if (grant.viaLogin) {
      this.#login.start();
    }
    const { registry } = this.#ctx;
    const remote = m.session !== undefined && registry.remotes.get(m.session); // ssh hosts
    if (remote) { // ssh hosts
      if (this.#readOnly) {
        const why = "a share cannot open a session on another host";
        return this.#refuse(why, CLOSE_NO_SESSION, "no such session");
      }
      this.#relay = registry.remotes.attach(this.#relayEndpoint(), m, remote);
      return;
    }
    const s = this.#sessionFor(m);
    if (s === null) return;
    this.#session = s;
    // A read-only viewer does not size the session: it takes its grid.
    const win = s.attach(
      this,
      this.#readOnly ? s.cols : m.cols,
      this.#readOnly ? s.rows : m.rows,
      { scrollback: registry.scrollback() },
      m.offset !== undefined
        ? { offset: m.offset, gridSeq: m.gridSeq ?? 0 }
        : undefined,
    );
    this.#win = win;
    if (this.#upgrade.direct && m.relayed !== true) s.linkDirect(win);
    if (m.colors !== undefined && !this.#readOnly) {
      registry.noteColors(m.colors);
      s.setColors(win, m.colors);
    }
    windowAttached(s, win);
    this.message(registry.settings.message(s.id));
    if (this.#readOnly) {
      this.message({ type: "read-only", message: READ_ONLY_NOTE });
      this.#toldReadOnly = true;
    }
    if (grant.viaLogin) this.message({ type: "login" });
    this.#ctx.onConnect?.();
  }

  /** The session the hello names, or a new one; null (and the socket closed) when neither. */
  #sessionFor(m: HelloMessage): Session | null {
    const { registry, log } = this.#ctx;
    if (m.session !== undefined) {
      const found = registry.get(m.session);
      if (found === undefined || found.exitStatus) {
        const why = `there is no session ${m.session} (it may have ended)`;
        this.#refuse(why, CLOSE_NO_SESSION, "no such session");
        return null;
      }
      return found;
    }
    try {
      // Its program's first colour query answers this window's colours.
      const colors = this.#readOnly ? undefined : m.colors;
      return registry.create(undefined, { cols: m.cols, rows: m.rows }, {
        colors,
      });
    } catch (e) {
      const message = (e as Error).message;
      log(message);
      this.#refuse(message, 1011, "cannot start");
      return null;
    }
  }

  /** A read-only share's window: true when `data` is dropped (said once). */
  #dropReadOnly(data: string | ArrayBuffer): boolean {
    const m = typeof data === "string" ? parseClientMessage(data) : null;
    if (!dropForReadOnly(m)) return false;
    if (!this.#toldReadOnly) {
      this.message({ type: "read-only", message: READ_ONLY_NOTE });
    }
    this.#toldReadOnly = true;
    return true;
  }

  /** A message from the attached window `win` of `session`. */
  #dispatch(m: ClientMessage, session: Session, win: Window): void {
    switch (m.type) {
      case "resize":
        return session.resize(win, m.cols, m.rows, m.width, m.height);
      case "ack":
        return session.ack(win, m.bytes, m.frame);
      case "focus":
        return session.focus(win);
      case "colors":
        this.#ctx.registry.noteColors(m);
        return session.setColors(win, m);
      case "closing":
        return session.closing(win);
      case "detach":
        return session.detachAll();
      case "clear-history":
        return session.clearHistory();
      case "element-event":
        session.elementEvent(win, m);
        return;
      case "fold":
        return session.fold(win, m);
      case "pause":
        return session.pause(win, m.paused);
      case "key":
        return handleKey(session, win, m);
      case "line":
        return handleLine(session, win, m);
      case "edit-state":
        return relayEditState(session, win, m);
      case "save-settings":
        return this.#ctx.registry.settings.save(
          m.settings,
          (message) => this.message({ type: "error", message }),
        );
      case "hello":
        return this.message({ type: "error", message: "already connected" });
      case "open":
        void openLink(m, {
          fileOpener: this.#ctx.fileOpener(),
          cwd: processCwd(session.pid),
          log: this.#ctx.log,
          tell: (message) => this.message({ type: "notice", message }),
        });
        return;
    }
  }

  /** This window as the ssh relay sees it. */
  #relayEndpoint(): RelayEndpoint { // ssh hosts
    const socket = this.#socket;
    return {
      sendText: (text) => sendText(socket, text),
      sendBytes: (data) => sendBytes(socket, data),
      closeNow: (code, reason) => {
        try {
          socket.close(code, reason.slice(0, 120));
        } catch { /* closed */ }
      },
      closeAfterFinal: (code, reason) => closeAfterFinal(socket, code, reason),
    };
  }

  #closed(): void {
    clearTimeout(this.#helloTimer);
    this.#login.stop();
    this.#relay?.closed(); // ssh hosts
    const session = this.#session, win = this.#win;
    if (session && win) {
      windowGone(session, win);
      session.detach(win);
    }
  }
}
