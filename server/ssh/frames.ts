/**
 * The framing of the ssh link between a local domterm server and
 * `domterm ssh-stdio` on the remote host: length-prefixed binary frames
 * over the ssh channel's stdin and stdout.
 *
 * A frame is a 4-byte big-endian length (of what follows), a 1-byte kind
 * and the payload. Kinds: {@link FRAME_LINK} (a JSON message of the link
 * itself: hello, request, created, closed, error), {@link FRAME_TEXT} (a
 * JSON text message of the session protocol, core/protocol.ts) and
 * {@link FRAME_BYTES} (output or input bytes of the session protocol).
 *
 * Before its first frame the remote side writes {@link LINK_MAGIC}, so the
 * local side can skip what a login script printed on standard output.
 *
 * @module
 */

/** Version of the link protocol; both hellos carry it and must agree. */
export const SSH_PROTOCOL_VERSION = 1;

/** A link message (JSON). */
export const FRAME_LINK = 0;
/** A session-protocol text message. */
export const FRAME_TEXT = 1;
/** Session-protocol bytes. */
export const FRAME_BYTES = 2;

/**
 * Largest frame accepted. A snapshot is capped at 64 Mi characters
 * (server/snapshot_cap.ts); as UTF-8 it may take more bytes than that.
 */
export const MAX_FRAME = 256 * 1024 * 1024;

/** Written by the remote side before its first frame. */
export const LINK_MAGIC = new TextEncoder().encode("\0DOMTERM-SSH-LINK\0");

/** How much output before the magic is skipped (login banners, rc files). */
export const MAX_PREAMBLE = 64 * 1024;

/** One decoded frame. */
export interface Frame {
  kind: number;
  payload: Uint8Array<ArrayBuffer>;
}

const encoder = new TextEncoder();

/** Encode one frame. */
export function encodeFrame(
  kind: number,
  payload: Uint8Array | string,
): Uint8Array<ArrayBuffer> {
  const body = typeof payload === "string" ? encoder.encode(payload) : payload;
  const out = new Uint8Array(5 + body.length);
  new DataView(out.buffer).setUint32(0, body.length + 1);
  out[4] = kind;
  out.set(body, 5);
  return out;
}

/** A link message (FRAME_LINK payload, JSON). */
export type LinkMessage =
  | {
    type: "hello";
    version: number;
    /** The domterm version of the side that sends it (for messages). */
    domterm: string;
  }
  | { type: "new"; command?: string[] }
  | { type: "attach"; session: number }
  | { type: "kill"; session: number }
  | { type: "close"; session: number }
  | { type: "created"; session: number; command: string[]; pid: number }
  | { type: "attached" }
  | { type: "done"; ended?: boolean }
  | { type: "closed"; code: number; reason: string }
  | { type: "error"; message: string }
  | { type: "control"; request: ForwardedRequest }
  | { type: "answer"; response: Record<string, unknown> };

/**
 * A control request for one remote session that the local server passes
 * on to the remote one (`domterm input-mode`, `settings`, `save`).
 */
export type ForwardedRequest =
  | { op: "input-mode"; session: number; mode: string }
  | { op: "settings"; session: number; set?: Record<string, unknown> }
  | { op: "snapshot"; session: number };

/** The ops {@link ForwardedRequest} may carry. */
export const FORWARDED_OPS = ["input-mode", "settings", "snapshot"] as const;

/** Encode a link message as a frame. */
export function linkFrame(m: LinkMessage): Uint8Array<ArrayBuffer> {
  return encodeFrame(FRAME_LINK, JSON.stringify(m));
}

/** Decode a FRAME_LINK payload; a string says what is wrong with it. */
export function parseLinkMessage(payload: Uint8Array): LinkMessage | string {
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return "link message is not JSON";
  }
  if (typeof v !== "object" || v === null) {
    return "link message is not an object";
  }
  const o = v as Record<string, unknown>;
  const id = (x: unknown) =>
    typeof x === "number" && Number.isInteger(x) && x > 0 && x < 1e9;
  switch (o.type) {
    case "hello":
      if (!Number.isInteger(o.version)) return "hello: bad version";
      return {
        type: "hello",
        version: o.version as number,
        domterm: typeof o.domterm === "string" ? o.domterm.slice(0, 64) : "?",
      };
    case "new":
      if (
        o.command !== undefined &&
        (!Array.isArray(o.command) || o.command.length === 0 ||
          !o.command.every((a) => typeof a === "string"))
      ) return "new: command must be a non-empty list of strings";
      return o.command === undefined
        ? { type: "new" }
        : { type: "new", command: o.command as string[] };
    case "attach":
    case "kill":
    case "close":
      if (!id(o.session)) return `${o.type}: bad session`;
      return { type: o.type, session: o.session as number };
    case "created":
      if (!id(o.session) || !Array.isArray(o.command)) return "created: bad";
      return {
        type: "created",
        session: o.session as number,
        command: (o.command as unknown[]).map(String),
        pid: Number.isInteger(o.pid) ? o.pid as number : 0,
      };
    case "attached":
      return { type: o.type };
    case "done":
      return o.ended === undefined
        ? { type: "done" }
        : { type: "done", ended: o.ended === true };
    case "closed":
      if (!Number.isInteger(o.code)) return "closed: bad code";
      return {
        type: "closed",
        code: o.code as number,
        reason: typeof o.reason === "string" ? o.reason.slice(0, 200) : "",
      };
    case "error":
      return {
        type: "error",
        message: String(o.message ?? "unknown error").slice(0, 4096),
      };
    case "control": {
      const r = o.request as Record<string, unknown> | null;
      if (
        typeof r !== "object" || r === null ||
        !(FORWARDED_OPS as readonly unknown[]).includes(r.op) || !id(r.session)
      ) return "control: bad request";
      const session = r.session as number;
      if (r.op === "input-mode") {
        if (typeof r.mode !== "string") return "control: bad mode";
        return {
          type: "control",
          request: { op: "input-mode", session, mode: r.mode },
        };
      }
      if (r.op === "settings") {
        if (
          r.set !== undefined &&
          (typeof r.set !== "object" || r.set === null || Array.isArray(r.set))
        ) return "control: bad settings";
        return {
          type: "control",
          request: r.set === undefined ? { op: "settings", session } : {
            op: "settings",
            session,
            set: r.set as Record<string, unknown>,
          },
        };
      }
      return { type: "control", request: { op: "snapshot", session } };
    }
    case "answer":
      if (typeof o.response !== "object" || o.response === null) {
        return "answer: bad response";
      }
      return {
        type: "answer",
        response: o.response as Record<string, unknown>,
      };
    default:
      return `unknown link message ${JSON.stringify(o.type)}`.slice(0, 100);
  }
}

/**
 * Reads frames from a byte stream. With `magic`, bytes before it are
 * skipped (at most {@link MAX_PREAMBLE}; what was skipped is kept in
 * {@link FrameReader.preamble} for error messages).
 */
export class FrameReader {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Bytes read and not yet taken, in order (a large frame comes in many reads). */
  #chunks: Uint8Array[] = [];
  /** The first chunk in use (taken chunks are dropped in batches). */
  #head = 0;
  #length = 0;
  #needMagic: boolean;
  /** What came before the magic. */
  preamble = "";

  constructor(stream: ReadableStream<Uint8Array>, magic = false) {
    this.#reader = stream.getReader();
    this.#needMagic = magic;
  }

  /** Read until `n` bytes are buffered; false at the end of the stream. */
  async #ensure(n: number): Promise<boolean> {
    while (this.#length < n) {
      const { value, done } = await this.#reader.read();
      if (done) return false;
      this.#chunks.push(value);
      this.#length += value.length;
    }
    return true;
  }

  /** Remove and return the first `n` buffered bytes (n <= length). */
  #take(n: number): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const c = this.#chunks[this.#head];
      const k = Math.min(c.length, n - o);
      out.set(c.subarray(0, k), o);
      o += k;
      if (k === c.length) this.#head++;
      else this.#chunks[this.#head] = c.subarray(k);
    }
    if (this.#head > 1024 || this.#head === this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
    this.#length -= n;
    return out;
  }

  /** The next frame; null at the end of the stream. Throws on a bad frame. */
  async next(): Promise<Frame | null> {
    while (this.#needMagic) {
      const all = this.#take(this.#length);
      this.#chunks = [all];
      this.#head = 0;
      this.#length = all.length;
      const at = indexOf(all, LINK_MAGIC);
      if (at >= 0) {
        this.preamble += new TextDecoder().decode(this.#take(at));
        this.#take(LINK_MAGIC.length);
        this.#needMagic = false;
        break;
      }
      if (this.#length > MAX_PREAMBLE) {
        throw new Error(
          "the remote side printed too much before speaking the domterm link protocol",
        );
      }
      if (!(await this.#ensure(this.#length + 1))) {
        this.preamble += new TextDecoder().decode(this.#take(this.#length));
        return null;
      }
    }
    if (!(await this.#ensure(4))) {
      if (this.#length > 0) throw new Error("the link ended inside a frame");
      return null;
    }
    const head = this.#take(4);
    const len = new DataView(head.buffer).getUint32(0);
    if (len < 1 || len > MAX_FRAME + 1) {
      throw new Error(`bad frame length ${len}`);
    }
    if (!(await this.#ensure(len))) {
      throw new Error("the link ended inside a frame");
    }
    const body = this.#take(len);
    return { kind: body[0], payload: body.subarray(1) };
  }

  /** Stop reading. */
  cancel(): void {
    this.#reader.cancel().catch(() => {});
  }
}

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (hay[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}
