/**
 * Sessions that run on another host, as the local server sees them. The
 * remote user's domterm server owns each one; the local server keeps its
 * number here (from the same counter as local sessions), the host and
 * what `domterm list` shows, and relays each local window to it over its
 * own ssh link (link.ts), frame for frame.
 *
 * The window's stream offsets are the remote session's, so a dropped
 * link is a dropped connection like any other: the window is closed with
 * {@link CLOSE_LINK_DOWN} ("the ssh link is down"), reconnects with
 * back-off, and each attempt runs ssh again; the hello names the offset
 * the window has processed and the remote server resends from its replay
 * log (server/replay.ts), or a snapshot. No byte is lost or doubled.
 *
 * @module
 */
import {
  CLOSE_DETACHED,
  CLOSE_GRACE_MS,
  CLOSE_NO_SESSION,
  CLOSE_SESSION_ENDED,
  type DetachedMessage,
  type DetachMessage,
  encodeServerMessage,
  type HelloMessage,
  type ReadyMessage,
} from "../../core/protocol.ts";
import type { SessionInfo } from "../control.ts";
import {
  encodeFrame,
  type ForwardedRequest,
  FRAME_BYTES,
  FRAME_LINK,
  FRAME_TEXT,
  parseLinkMessage,
} from "./frames.ts";
import { type LinkSpec, SshLink } from "./link.ts";
import { targetLabel } from "./target.ts";

/**
 * Close code of a window whose ssh link went down: not final, so the page
 * reconnects (client/connection.ts) and shows the reason meanwhile.
 */
export const CLOSE_LINK_DOWN = 4010;

/**
 * A local window as the relay sees it: its connection
 * (server/window_connection.ts) owns the WebSocket and passes frames
 * through both ways unchanged.
 */
export interface RelayEndpoint {
  /** A text frame from the remote server, as it came (but for `#tap`). */
  sendText(text: string): void;
  /** Output bytes from the remote server. */
  sendBytes(data: Uint8Array): void;
  /** Close at once (the page reconnects unless `code` is final). */
  closeNow(code: number, reason: string): void;
  /** Close after a final message, if the page does not close first. */
  closeAfterFinal(code: number, reason: string): void;
}

/** What the window's connection passes to the relay. */
export interface RelayInput {
  /** A frame from the window (text or bytes). */
  receive(data: string | ArrayBuffer): void;
  /** The window's socket closed. */
  closed(): void;
}

/** A local window on a remote session. */
interface RelayWindow {
  endpoint: RelayEndpoint;
  /** Its ssh link, once up. */
  link: SshLink | null;
  /** The window said it is going away on purpose. */
  closing: boolean;
  /** What the window sent before its link was up. */
  queue: (string | ArrayBuffer)[];
  /** Its socket closed. */
  gone: boolean;
}

/** One session on another host. */
export class RemoteSession {
  /** The number here (local windows and `domterm list` use it). */
  readonly id: number;
  /** Its number on the remote host. */
  readonly remoteId: number;
  readonly spec: LinkSpec;
  command: string[];
  /** The remote program's pid, once a window has attached. */
  pid = 0;
  cols = 80;
  rows = 24;
  /** The local windows (one ssh link each). */
  readonly windows = new Set<RelayWindow>();
  detachedSince: number | null = Date.now();
  /** The last link went down (until one is up again). */
  linkDown = false;

  constructor(id: number, remoteId: number, spec: LinkSpec, command: string[]) {
    this.id = id;
    this.remoteId = remoteId;
    this.spec = spec;
    this.command = command;
  }

  /** `user@host:port` as given. */
  get host(): string {
    return targetLabel(this.spec.target);
  }
}

/** The local server's remote sessions. */
export class RemoteSessions {
  readonly #sessions = new Map<number, RemoteSession>();
  readonly #allocateId: () => number;
  readonly #onEmpty: () => void;
  readonly #onEnded: ((id: number) => void) | undefined;

  /**
   * `allocateId` numbers sessions (shared with the local ones);
   * `onEmpty` runs when the last remote session has ended, `onEnded` when
   * any has (the windows drop its panes).
   */
  constructor(
    allocateId: () => number,
    onEmpty: () => void,
    onEnded?: (id: number) => void,
  ) {
    this.#allocateId = allocateId;
    this.#onEmpty = onEmpty;
    this.#onEnded = onEnded;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: number): RemoteSession | undefined {
    return this.#sessions.get(id);
  }

  /** Every remote session. */
  values(): IterableIterator<RemoteSession> {
    return this.#sessions.values();
  }

  /**
   * Start a session on the remote host (its domterm server is started
   * there if need be) and register it. Throws a LinkError that says what
   * went wrong (ssh, domterm missing there...).
   */
  async create(spec: LinkSpec, command?: string[]): Promise<RemoteSession> {
    const { link, answer } = await SshLink.open(spec, {
      type: "new",
      ...(command?.length ? { command } : {}),
    });
    link.close();
    if (answer.type !== "created") {
      throw new Error("the remote domterm did not create a session");
    }
    const s = new RemoteSession(
      this.#allocateId(),
      answer.session,
      spec,
      answer.command,
    );
    s.pid = answer.pid;
    this.#sessions.set(s.id, s);
    return s;
  }

  /**
   * Pass a control request about `s` (input mode, settings, snapshot) to
   * the remote server over a new link; resolves with its answer.
   */
  async control(
    s: RemoteSession,
    request: ForwardedRequest,
  ): Promise<Record<string, unknown>> {
    const { link, answer } = await SshLink.open(s.spec, {
      type: "control",
      request: { ...request, session: s.remoteId },
    });
    link.close();
    if (answer.type !== "answer") {
      throw new Error("the remote domterm did not answer the request");
    }
    return answer.response;
  }

  /** End a remote session (`domterm kill`): asks the remote server over a new link. */
  async kill(s: RemoteSession): Promise<void> {
    const { link } = await SshLink.open(s.spec, {
      type: "kill",
      session: s.remoteId,
    });
    link.close();
    this.#forget(s);
  }

  #forget(s: RemoteSession): void {
    if (!this.#sessions.delete(s.id)) return;
    this.#onEnded?.(s.id);
    // Not at once: the answer to the request that ended it (`domterm
    // kill`) must get out before the server may stop.
    if (this.#sessions.size === 0) {
      setTimeout(() => {
        if (this.#sessions.size === 0) this.#onEmpty();
      }, 1000);
    }
  }

  /** `domterm list`'s view of the remote sessions. */
  list(): SessionInfo[] {
    return [...this.#sessions.values()].map((s) => ({
      id: s.id,
      name: null,
      command: s.command,
      pid: s.pid,
      windows: s.windows.size,
      cols: s.cols,
      rows: s.rows,
      state: s.windows.size > 0 ? "attached" : "detached",
      detachedSince: s.windows.size > 0 ? null : s.detachedSince,
      host: s.host,
      remoteSession: s.remoteId,
      linkDown: s.linkDown,
      sshPids: [...s.windows].flatMap((w) => w.link ? [w.link.pid] : []),
    }));
  }

  /**
   * The last local window of `s` was closed on purpose. Unless a window
   * attaches within the grace time (a reload), say so to the remote
   * server as a window there would (`ssh-stdio`'s `close`). The remote
   * server applies its own rule: the program is hung up unless a window
   * is left there too.
   */
  #closeLater(s: RemoteSession): void {
    setTimeout(async () => {
      if (!this.#sessions.has(s.id) || s.windows.size > 0) return;
      try {
        const { link, answer } = await SshLink.open(s.spec, {
          type: "close",
          session: s.remoteId,
        });
        link.close();
        if (answer.type === "done" && answer.ended) this.#forget(s);
      } catch {
        // Unreachable: the session stays, detached, as after a lost window.
      }
    }, CLOSE_GRACE_MS);
  }

  /** Detach every window of `s` on purpose (the remote server tells them all); false without a link. */
  detach(s: RemoteSession): boolean {
    for (const w of s.windows) {
      if (w.link) {
        const detach: DetachMessage = { type: "detach" };
        void w.link.send(encodeFrame(FRAME_TEXT, JSON.stringify(detach)));
        return true;
      }
    }
    return false;
  }

  /** Stop every link (the server is shutting down; the sessions go on there). */
  closeAll(): void {
    for (const s of this.#sessions.values()) {
      for (const w of s.windows) {
        w.link?.close();
        w.endpoint.closeNow(CLOSE_DETACHED, "the local server stopped");
      }
    }
  }

  /**
   * A window said `hello` for remote session `s`: relay it over a new ssh
   * link. Its connection passes what it receives to the answer.
   */
  attach(
    endpoint: RelayEndpoint,
    hello: HelloMessage,
    s: RemoteSession,
  ): RelayInput {
    const w: RelayWindow = {
      endpoint,
      link: null,
      closing: false,
      queue: [],
      gone: false,
    };
    s.windows.add(w);
    s.detachedSince = null;
    void this.#relay(w, s, hello);
    return {
      receive: (data) => {
        // Kept here: the grace time for a reload is measured on this side
        // (a new ssh link may take longer than that to come up).
        if (typeof data === "string" && isClosing(data)) {
          w.closing = true;
          return;
        }
        if (w.link) forward(w.link, data);
        else w.queue.push(data);
      },
      closed: () => {
        w.gone = true;
        s.windows.delete(w);
        if (s.windows.size === 0) s.detachedSince = Date.now();
        w.link?.close();
        if (w.closing && s.windows.size === 0) this.#closeLater(s);
      },
    };
  }

  /** Open window `w`'s ssh link and relay between them until either ends. */
  async #relay(
    w: RelayWindow,
    s: RemoteSession,
    hello: HelloMessage,
  ): Promise<void> {
    const link = await this.#openLink(w, s);
    if (link === null) return;
    w.link = link;
    if (w.gone) {
      link.close();
      return;
    }
    s.linkDown = false;
    // The key is filled in on the remote side; the session is its number there.
    forward(link, JSON.stringify({ ...hello, key: "", session: s.remoteId }));
    for (const d of w.queue.splice(0)) forward(link, d);
    const final = await this.#pump(link, w.endpoint, s);
    link.close();
    if (!w.gone) this.#linkEnded(w.endpoint, s, final);
  }

  /** The window's ssh link; null (and the window closed) when it cannot be had. */
  async #openLink(w: RelayWindow, s: RemoteSession): Promise<SshLink | null> {
    try {
      return (await SshLink.open(s.spec, {
        type: "attach",
        session: s.remoteId,
      })).link;
    } catch (e) {
      const message = (e as Error).message;
      if (/there is no session/.test(message)) {
        w.endpoint.sendText(encodeServerMessage({ type: "error", message }));
        w.endpoint.closeNow(CLOSE_NO_SESSION, "no such session");
        this.#forget(s);
      } else {
        s.linkDown = true;
        w.endpoint.closeNow(CLOSE_LINK_DOWN, `ssh link to ${s.host} down`);
      }
      return null;
    }
  }

  /** The remote server's frames to the window until the link ends; its `closed`, if it said. */
  async #pump(
    link: SshLink,
    endpoint: RelayEndpoint,
    s: RemoteSession,
  ): Promise<{ code: number; reason: string } | null> {
    const decoder = new TextDecoder();
    for (;;) {
      const f = await link.next();
      if (f === null) return null;
      if (f.kind === FRAME_BYTES) endpoint.sendBytes(f.payload);
      else if (f.kind === FRAME_TEXT) {
        endpoint.sendText(this.#tap(s, decoder.decode(f.payload)));
      } else if (f.kind === FRAME_LINK) {
        const m = parseLinkMessage(f.payload);
        if (typeof m !== "string" && m.type === "closed") {
          return { code: m.code, reason: m.reason };
        }
      }
    }
  }

  /** The link of a window still open ended: close the window as the remote server did, or as a link down. */
  #linkEnded(
    endpoint: RelayEndpoint,
    s: RemoteSession,
    final: { code: number; reason: string } | null,
  ): void {
    if (!this.#sessions.has(s.id)) {
      endpoint.closeAfterFinal(
        final?.code ?? CLOSE_SESSION_ENDED,
        "session ended",
      );
      return;
    }
    if (final && final.code >= 4000 && final.code !== CLOSE_LINK_DOWN) {
      if (
        final.code === CLOSE_SESSION_ENDED || final.code === CLOSE_NO_SESSION
      ) this.#forget(s);
      endpoint.closeAfterFinal(final.code, final.reason);
    } else {
      s.linkDown = true;
      endpoint.closeNow(CLOSE_LINK_DOWN, `ssh link to ${s.host} down`);
    }
  }

  /**
   * Look at a message from the remote server on its way to the window:
   * note the pid, the grid and the end, and give the window the local
   * session number.
   */
  #tap(s: RemoteSession, text: string): string {
    // Snapshots are large and say nothing we keep.
    if (text.length > 65536 || text.startsWith('{"type":"snapshot"')) {
      return text;
    }
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(text);
    } catch {
      return text;
    }
    switch (m.type) {
      case "ready":
        s.pid = Number(m.pid) || 0;
        s.cols = Number(m.cols) || s.cols;
        s.rows = Number(m.rows) || s.rows;
        if (Array.isArray(m.command)) s.command = m.command.map(String);
        return relabel(m as unknown as ReadyMessage, s.id);
      case "detached":
        return relabel(m as unknown as DetachedMessage, s.id);
      case "grid":
        s.cols = Number(m.cols) || s.cols;
        s.rows = Number(m.rows) || s.rows;
        return text;
      case "exit":
        this.#forget(s);
        return text;
    }
    return text;
  }
}

/** A remote server's message naming its session, as the window knows it: by `id` here. */
function relabel(m: ReadyMessage | DetachedMessage, id: number): string {
  return encodeServerMessage({ ...m, session: id });
}

/** Whether a window's text message is `closing`. */
function isClosing(text: string): boolean {
  if (text.length > 64) return false;
  try {
    return JSON.parse(text)?.type === "closing";
  } catch {
    return false;
  }
}

/** A window's frame, as it came, over its ssh link. */
function forward(link: SshLink, data: string | ArrayBuffer): void {
  void link.send(
    typeof data === "string"
      ? encodeFrame(FRAME_TEXT, data)
      : encodeFrame(FRAME_BYTES, new Uint8Array(data)),
  );
}
