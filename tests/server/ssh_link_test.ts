/**
 * The ssh link's framing and hellos: frames survive any split into reads,
 * junk before the magic is skipped, and the real `domterm ssh-stdio`
 * answers a hello of another protocol version with an error that says so.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  encodeFrame,
  FRAME_BYTES,
  FRAME_LINK,
  FRAME_TEXT,
  FrameReader,
  LINK_MAGIC,
  linkFrame,
  parseLinkMessage,
  SSH_PROTOCOL_VERSION,
} from "../../server/ssh/frames.ts";
import { explainFailure } from "../../server/ssh/link.ts";

function streamOf(
  bytes: Uint8Array,
  piece: number,
): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

Deno.test("ssh frames: decoded whatever the reads, junk before the magic skipped", async () => {
  const big = new Uint8Array(300_000).map((_, i) => i & 255);
  const bytes = concat(
    new TextEncoder().encode("Welcome to box\n"),
    LINK_MAGIC,
    linkFrame({ type: "hello", version: 1, domterm: "0.1.0" }),
    encodeFrame(FRAME_TEXT, '{"type":"ready"}'),
    encodeFrame(FRAME_BYTES, big),
    encodeFrame(FRAME_BYTES, new Uint8Array(0)),
  );
  for (const piece of [1, 7, 4096, bytes.length]) {
    const r = new FrameReader(streamOf(bytes, piece), true);
    const hello = await r.next();
    assertEquals(hello?.kind, FRAME_LINK);
    assertEquals(parseLinkMessage(hello!.payload), {
      type: "hello",
      version: 1,
      domterm: "0.1.0",
    });
    assertEquals(r.preamble, "Welcome to box\n");
    const text = await r.next();
    assertEquals(new TextDecoder().decode(text!.payload), '{"type":"ready"}');
    assertEquals((await r.next())!.payload, big);
    assertEquals((await r.next())!.payload.length, 0);
    assertEquals(await r.next(), null);
  }
});

Deno.test("ssh frames: a cut or oversized frame is an error, not a hang", async () => {
  const cut = encodeFrame(FRAME_TEXT, "abcdef").slice(0, 8);
  let err = "";
  await new FrameReader(streamOf(cut, 3)).next().catch((e) => err = e.message);
  assertEquals(err, "the link ended inside a frame");
  const huge = new Uint8Array([0xff, 0xff, 0xff, 0xff, 1]);
  err = "";
  await new FrameReader(streamOf(huge, 5)).next().catch((e) => err = e.message);
  assert(err.startsWith("bad frame length"), err);
  assertEquals(
    parseLinkMessage(new TextEncoder().encode("{")),
    "link message is not JSON",
  );
  assertEquals(
    parseLinkMessage(
      new TextEncoder().encode('{"type":"attach","session":-1}'),
    ),
    "attach: bad session",
  );
});

Deno.test("ssh-stdio: a hello of another version gets an error naming both versions", async () => {
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const dir = Deno.makeTempDirSync();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "ssh-stdio"],
    env: { DOMTERM_RUNTIME_DIR: dir },
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(linkFrame({ type: "hello", version: 99, domterm: "9.9.9" }));
  await w.write(linkFrame({ type: "new" }));
  await w.close();
  const r = new FrameReader(child.stdout, true);
  const hello = parseLinkMessage((await r.next())!.payload);
  assertEquals(hello, {
    type: "hello",
    version: SSH_PROTOCOL_VERSION,
    domterm: (hello as { domterm: string }).domterm,
  });
  const error = parseLinkMessage((await r.next())!.payload);
  assert(typeof error !== "string" && error.type === "error");
  assert(
    error.message.includes(
      `speaks link protocol version ${SSH_PROTOCOL_VERSION}`,
    ) &&
      error.message.includes("9.9.9 speaks version 99"),
    error.message,
  );
  assertEquals(await r.next(), null);
  assertEquals((await child.status).code, 1);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("ssh link: failures are explained", () => {
  const spec = {
    target: { host: "box.lan", user: "me" },
    ssh: ["ssh"],
    remoteDomterm: "domterm",
  };
  const missing = explainFailure(
    spec,
    127,
    "bash: line 1: domterm: command not found\n",
    "",
  );
  assert(missing.startsWith("domterm is not installed on me@box.lan"), missing);
  assert(missing.includes("--remote-domterm PATH"), missing);
  assertEquals(
    explainFailure(
      spec,
      255,
      "ssh: connect to host box.lan port 22: Connection refused\n",
      "",
    ),
    "ssh to me@box.lan failed: ssh: connect to host box.lan port 22: Connection refused",
  );
});
