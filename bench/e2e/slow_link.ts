/**
 * A slow link for the end-to-end benchmark: a userland TCP proxy on
 * 127.0.0.1 between the browser and a terminal's server, with a round trip
 * of `rttMs` (half each way), `bitsPerSecond` each way and a bottleneck
 * queue of two bandwidth-delay products per direction. Bytes are cut into
 * packets of a TCP segment's payload; each waits in its direction's queue,
 * is serialized at the link rate, then delivered after the one-way delay.
 * A full queue stops the proxy reading that side (the sender's TCP window
 * fills, as a real bottleneck's drops would make it back off). It counts
 * the bytes that cross each way (TCP payload, no headers).
 *
 * @module
 */

/** TCP payload per packet (Ethernet MTU minus IP, TCP and timestamp headers). */
const PACKET = 1448;

/** Byte counters of one proxy, both ways, over all its connections. */
export interface WireCount {
  /** Server to browser. */
  down: number;
  /** Browser to server. */
  up: number;
}

/** Call `f` if set (a wake-up set from another task). */
const fire = (f: (() => void) | null) => f?.();

/** One direction of one connection: queue, serializer, delay line. */
async function pipe(
  src: Deno.TcpConn,
  dst: Deno.TcpConn,
  bytesPerMs: number,
  delayMs: number,
  queueLimit: number,
  count: (n: number) => void,
): Promise<void> {
  // Packets with the time each joined the queue.
  const queue: { p: Uint8Array; t: number }[] = [];
  let queued = 0;
  let linkFree = 0;
  let wake: (() => void) | null = null;
  let roomWake: (() => void) | null = null;
  let ended = false;
  /** Delivery: in order, each packet at its due time. */
  let delivery: Promise<void> = Promise.resolve();
  const sleepUntil = (t: number) => {
    const ms = t - performance.now();
    return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
  };
  const sender = (async () => {
    for (;;) {
      if (queue.length === 0) {
        if (ended) break;
        await new Promise<void>((r) => wake = r);
        continue;
      }
      const { p, t } = queue[0];
      // From when the link could start it, not when this loop woke: a late
      // timer does not cost the link its capacity.
      const start = Math.max(t, linkFree);
      linkFree = start + p.length / bytesPerMs;
      await sleepUntil(linkFree);
      queue.shift();
      queued -= p.length;
      fire(roomWake);
      roomWake = null;
      const due = linkFree + delayMs;
      delivery = delivery.then(async () => {
        await sleepUntil(due);
        count(p.length);
        let off = 0;
        while (off < p.length) off += await dst.write(p.subarray(off));
      }).catch(() => {});
    }
    await delivery;
    try {
      await dst.closeWrite();
    } catch { /* gone */ }
  })();
  const buf = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const n = await src.read(buf);
      if (n === null) break;
      for (let off = 0; off < n; off += PACKET) {
        const p = buf.slice(off, Math.min(n, off + PACKET));
        while (queued + p.length > queueLimit) {
          await new Promise<void>((r) => roomWake = r);
        }
        queue.push({ p, t: performance.now() });
        queued += p.length;
        fire(wake);
        wake = null;
      }
    }
  } catch { /* reset */ }
  ended = true;
  fire(wake);
  await sender;
}

/** A running slow link: its port, byte counters, and close. */
export interface SlowLink {
  port: number;
  wire: WireCount;
  close(): void;
}

/** Listen on 127.0.0.1 (a free port) and forward each connection to `targetPort`. */
export function slowLink(
  targetPort: number,
  rttMs = 100,
  bitsPerSecond = 2_000_000,
): SlowLink {
  const bytesPerMs = bitsPerSecond / 8 / 1000;
  const delay = rttMs / 2;
  // Bandwidth-delay product: the bytes in flight over one round trip.
  const bdp = bytesPerMs * rttMs;
  const queueLimit = 2 * bdp;
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const wire: WireCount = { down: 0, up: 0 };
  const conns = new Set<Deno.TcpConn>();
  (async () => {
    for await (const client of listener) {
      let server: Deno.TcpConn;
      try {
        server = await Deno.connect({
          hostname: "127.0.0.1",
          port: targetPort,
        });
      } catch {
        client.close();
        continue;
      }
      client.setNoDelay(true);
      server.setNoDelay(true);
      conns.add(client);
      conns.add(server);
      const up = pipe(
        client,
        server,
        bytesPerMs,
        delay,
        queueLimit,
        (n) => wire.up += n,
      );
      const down = pipe(
        server,
        client,
        bytesPerMs,
        delay,
        queueLimit,
        (n) => wire.down += n,
      );
      Promise.all([up, down]).finally(() => {
        for (const c of [client, server]) {
          conns.delete(c);
          try {
            c.close();
          } catch { /* closed */ }
        }
      });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    wire,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}
