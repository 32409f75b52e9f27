/**
 * A WebSocket client for server tests: collects output bytes and control
 * messages and lets a test wait for conditions on them.
 *
 * @module
 */
import type { ServerMessage } from "../../core/protocol.ts";

/** A test client connected to a domterm server. */
export class TestClient {
  readonly ws: WebSocket;
  readonly messages: ServerMessage[] = [];
  output = new Uint8Array(0);
  outputLength = 0;
  closeCode: number | null = null;
  closeReason = "";
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;
  #waiters: (() => void)[] = [];
  #decoder = new TextDecoder();

  /** `options`: handshake headers and an HTTP client (e.g. one that trusts a test CA). */
  constructor(
    url: string,
    keepOutput = true,
    options?: { headers?: Record<string, string>; client?: Deno.HttpClient },
  ) {
    // Deno's WebSocket takes options (headers, client); the DOM lib's
    // declaration, which wins in this project, knows only protocols.
    this.ws = options
      ? new WebSocket(url, options as unknown as string[])
      : new WebSocket(url);
    this.ws.binaryType = "arraybuffer";
    const o = Promise.withResolvers<void>();
    const c = Promise.withResolvers<void>();
    this.opened = o.promise;
    this.closed = c.promise;
    this.ws.onopen = () => o.resolve();
    this.ws.onerror = () => {};
    this.ws.onclose = (ev) => {
      this.closeCode = ev.code;
      this.closeReason = ev.reason;
      o.resolve();
      c.resolve();
      this.#wake();
    };
    this.ws.onmessage = (ev) => {
      if (typeof ev.data === "string") {
        this.messages.push(JSON.parse(ev.data));
      } else {
        const b = new Uint8Array(ev.data as ArrayBuffer);
        this.outputLength += b.length;
        if (keepOutput) {
          const n = new Uint8Array(this.output.length + b.length);
          n.set(this.output);
          n.set(b, this.output.length);
          this.output = n;
        }
      }
      this.#wake();
    };
  }

  /** Output so far as text. */
  get text(): string {
    return this.#decoder.decode(this.output);
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === "string" ? msg : JSON.stringify(msg));
  }

  input(text: string): void {
    this.ws.send(new TextEncoder().encode(text));
  }

  /** Wait until `cond()` holds; fails after `ms` with `what` in the message. */
  async until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!cond()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out waiting for ${what}; output so far: ${
            JSON.stringify(this.text.slice(-500))
          }` +
            `, messages: ${JSON.stringify(this.messages)}`,
        );
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 50));
        this.#waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  #wake(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }

  async close(): Promise<void> {
    if (this.closeCode === null) this.ws.close();
    await this.closed;
  }
}

/**
 * The status line the server answers a raw WebSocket upgrade to `port`
 * with: sent to `host` (the Host header), with `origin` if not null.
 */
export async function rawUpgrade(
  port: number,
  origin: string | null,
  host = `127.0.0.1:${port}`,
): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [
    "GET /ws HTTP/1.1",
    `Host: ${host}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
  ];
  if (origin) lines.push(`Origin: ${origin}`);
  await conn.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
  const buf = new Uint8Array(1024);
  const n = await conn.read(buf);
  conn.close();
  return new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0];
}

/** Acknowledge everything `c` gets, at once (every 5 ms); returns the stop function. */
export function autoAck(c: TestClient): () => void {
  let acked = 0;
  const t = setInterval(() => {
    if (c.outputLength > acked && c.closeCode === null) {
      c.send({ type: "ack", bytes: c.outputLength - acked });
      acked = c.outputLength;
    }
  }, 5);
  return () => clearInterval(t);
}
