/**
 * `domterm ssh-stdio` (hidden): the remote end of an ssh link. The local
 * domterm server runs it through ssh; it speaks the framed link protocol
 * (frames.ts) on standard input and output, and the session protocol
 * with the remote user's own domterm server over a WebSocket on
 * 127.0.0.1, exactly as a window would. The session belongs to that
 * server: when ssh goes, this process ends and the window only detaches.
 *
 * @module
 */
import {
  encodeFrame,
  FRAME_BYTES,
  FRAME_LINK,
  FRAME_TEXT,
  FrameReader,
  LINK_MAGIC,
  linkFrame,
  type LinkMessage,
  parseLinkMessage,
  SSH_PROTOCOL_VERSION,
} from "./frames.ts";
import { VERSION } from "../version.ts";
import { type ControlRequest, request } from "../control.ts";
import { ensureServer, runningServer } from "./remote_server.ts";
import {
  CLOSE_GRACE_MS,
  type ClosingMessage,
  type HelloMessage,
  WS_PATH,
} from "../../core/protocol.ts";

/** Writes frames to standard output, in order. */
class Out {
  #writer = Deno.stdout.writable.getWriter();
  #chain: Promise<void> = Promise.resolve();
  /** Resolves once everything written so far is out. */
  write(frame: Uint8Array): Promise<void> {
    this.#chain = this.#chain.then(() => this.#writer.write(frame)).catch(
      () => {},
    );
    return this.#chain;
  }
}

/** Run `domterm ssh-stdio`; resolves with the exit status. */
export async function runSshStdio(argv: string[]): Promise<number> {
  if (argv.length > 0) {
    console.error(
      "domterm ssh-stdio takes no arguments: the local domterm runs it through ssh",
    );
    return 2;
  }
  const out = new Out();
  await out.write(LINK_MAGIC);
  await out.write(linkFrame({
    type: "hello",
    version: SSH_PROTOCOL_VERSION,
    domterm: VERSION,
  }));
  const input = new FrameReader(Deno.stdin.readable);
  const fail = async (message: string) => {
    await out.write(linkFrame({ type: "error", message }));
    return 1;
  };
  let hello: LinkMessage | null = null;
  let req: LinkMessage | null = null;
  try {
    for (let i = 0; i < 2; i++) {
      const f = await input.next();
      if (f === null) return 0;
      const m = f.kind === FRAME_LINK ? parseLinkMessage(f.payload) : null;
      if (typeof m === "string" || m === null) {
        return await fail(
          typeof m === "string" ? m : "expected a link message",
        );
      }
      if (i === 0) hello = m;
      else req = m;
    }
  } catch (e) {
    return await fail((e as Error).message);
  }
  if (hello?.type !== "hello") return await fail("expected a hello");
  if (hello.version !== SSH_PROTOCOL_VERSION) {
    return await fail(
      `domterm ${VERSION} on the remote host speaks link protocol version ${SSH_PROTOCOL_VERSION}, the local domterm ${hello.domterm} speaks version ${hello.version}: install the same domterm version on both hosts`,
    );
  }
  try {
    switch (req?.type) {
      case "new": {
        const path = await ensureServer();
        const res = await request(path, {
          op: "new",
          ...(req.command ? { command: req.command } : {}),
          ...(Deno.env.get("HOME") ? { cwd: Deno.env.get("HOME") } : {}),
        });
        if (!res?.ok) {
          return await fail(res?.error ?? "the domterm server did not answer");
        }
        const list = await request(path, { op: "list" });
        const info = list?.sessions?.find((s) => s.id === res.session);
        await out.write(linkFrame({
          type: "created",
          session: res.session!,
          command: info?.command ?? req.command ?? [],
          pid: info?.pid ?? 0,
        }));
        return 0;
      }
      case "kill": {
        const path = await runningServer();
        const res = path === null ? null : await request(path, {
          op: "kill",
          session: req.session,
        });
        if (!res?.ok) {
          return await fail(res?.error ?? "no domterm server is running");
        }
        await out.write(linkFrame({ type: "done" }));
        return 0;
      }
      case "close":
        await out.write(linkFrame({
          type: "done",
          ended: await closeWindow(req.session),
        }));
        return 0;
      case "attach":
        return await relay(req.session, input, out, fail);
      case "control": {
        // `domterm input-mode`, `settings` or `save` of a session here,
        // asked on the other host: the server here answers.
        const path = await runningServer();
        const res = path === null
          ? null
          : await request(path, req.request as ControlRequest);
        if (res === null) return await fail("no domterm server is running");
        await out.write(linkFrame({
          type: "answer",
          response: res as unknown as Record<string, unknown>,
        }));
        return 0;
      }
      default:
        return await fail("expected new, attach, kill or control");
    }
  } catch (e) {
    return await fail((e as Error).message);
  }
}

/**
 * Attach to session `id` of the user's server as a window, and relay:
 * frames from standard input to the WebSocket, its messages to standard
 * output. The first text frame is the window's hello; the key is filled
 * in here (the local side never learns it).
 */
async function relay(
  id: number,
  input: FrameReader,
  out: Out,
  fail: (m: string) => Promise<number>,
): Promise<number> {
  const path = await runningServer();
  if (path === null) {
    return await fail(
      `there is no session ${id}: no domterm server runs on the remote host`,
    );
  }
  const res = await request(path, { op: "attach", session: id });
  if (!res?.ok || !res.url) {
    return await fail(res?.error ?? `there is no session ${id}`);
  }
  const url = new URL(res.url);
  const key = new URLSearchParams(url.hash.slice(1)).get("key") ??
    url.hash.slice(1);
  const ws = new WebSocket(`ws://${url.host}${WS_PATH}`);
  ws.binaryType = "arraybuffer";
  const { promise: opened, resolve: open, reject } = Promise.withResolvers<
    void
  >();
  ws.onopen = () => open();
  ws.onerror = () => reject(new Error("cannot reach the domterm server"));
  const { promise: ended, resolve: end } = Promise.withResolvers<number>();
  ws.onclose = (ev) => {
    void out.write(linkFrame({
      type: "closed",
      code: ev.code,
      reason: ev.reason,
    })).then(() => end(0));
  };
  ws.onmessage = (ev) => {
    if (typeof ev.data === "string") {
      void out.write(encodeFrame(FRAME_TEXT, ev.data));
    } else {
      void out.write(
        encodeFrame(FRAME_BYTES, new Uint8Array(ev.data as ArrayBuffer)),
      );
    }
  };
  try {
    await opened;
  } catch (e) {
    return await fail((e as Error).message);
  }
  await out.write(linkFrame({ type: "attached" }));
  const decoder = new TextDecoder();
  let first = true;
  (async () => {
    try {
      for (;;) {
        const f = await input.next();
        if (f === null) break;
        if (ws.readyState !== WebSocket.OPEN) break;
        if (f.kind === FRAME_BYTES) ws.send(f.payload);
        else if (f.kind === FRAME_TEXT) {
          let text = decoder.decode(f.payload);
          if (first) {
            first = false;
            text = withKey(text, key, id);
          }
          ws.send(text);
        }
      }
    } catch {
      // A broken link: like a lost connection.
    }
    // The ssh channel is gone: the window is lost, not closed on purpose.
    if (ws.readyState === WebSocket.OPEN) ws.close();
    end(0);
  })();
  return await ended;
}

/**
 * Do what a window closed on purpose does: attach to session `id`, say
 * `closing`, go. The server then hangs the program up unless a window
 * attaches within its grace time. Resolves with whether the session has
 * ended by then.
 */
async function closeWindow(id: number): Promise<boolean> {
  const path = await runningServer();
  if (path === null) return true;
  const res = await request(path, { op: "attach", session: id });
  if (!res?.ok || !res.url) return true;
  const list = await request(path, { op: "list" });
  const info = list?.sessions?.find((s) => s.id === id);
  const url = new URL(res.url);
  const key = new URLSearchParams(url.hash.slice(1)).get("key") ?? "";
  const ws = new WebSocket(`ws://${url.host}${WS_PATH}`);
  const { promise: ready, resolve } = Promise.withResolvers<void>();
  const hello: HelloMessage = {
    type: "hello",
    key,
    session: id,
    // The session's own grid: this window must not resize it.
    cols: info?.cols ?? 80,
    rows: info?.rows ?? 24,
  };
  const closing: ClosingMessage = { type: "closing" };
  ws.onopen = () => ws.send(JSON.stringify(hello));
  ws.onmessage = (ev) => {
    if (typeof ev.data === "string" && ev.data.startsWith('{"type":"ready"')) {
      ws.send(JSON.stringify(closing));
      ws.close();
    }
  };
  ws.onclose = () => resolve();
  ws.onerror = () => resolve();
  await ready;
  const deadline = Date.now() + CLOSE_GRACE_MS + 5000;
  while (Date.now() < deadline) {
    const now = await request(path, { op: "list" });
    if (!now?.sessions?.some((s) => s.id === id)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** The window's hello, for this server: its key and session number. */
function withKey(text: string, key: string, id: number): string {
  try {
    const m = JSON.parse(text);
    if (m && m.type === "hello") {
      m.key = key;
      m.session = id;
      // The window is across the ssh link: not loopback (HelloMessage.relayed).
      m.relayed = true;
      return JSON.stringify(m);
    }
  } catch { /* sent as is: the server reports it */ }
  return text;
}
