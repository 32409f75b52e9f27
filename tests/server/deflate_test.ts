/**
 * The `deflated` message codec (docs/protocol.md, "Compression"): what the
 * server deflates (server/socket_send.ts) the page's connection inflates
 * (client/connection.ts, DecompressionStream as in Chromium) to exactly the
 * same text: snapshots of random output and of the bench's four streams, texts
 * with every kind of character, each message on its own (no state carried
 * from one frame to the next).
 */
import { assert, assertEquals } from "../assert.ts";
import { deflateMessage } from "../../server/socket_send.ts";
import { inflateMessage } from "../../client/connection.ts";
import { Terminal } from "../../core/emulator/terminal.ts";

/** A snapshot's JSON after `bytes` of output, screen plus `tail` history lines. */
function snapshotJson(bytes: Uint8Array, tail = Infinity): string {
  const t = new Terminal({ cols: 140, rows: 46 });
  t.write(bytes);
  return JSON.stringify(t.snapshot(tail));
}

function seeded(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

const enc = new TextEncoder();

Deno.test("deflate: random output's snapshots and random texts come back exactly", async () => {
  const rnd = seeded(39);
  const texts: string[] = [];
  for (let i = 0; i < 4; i++) {
    const bytes = new Uint8Array(200_000);
    for (let j = 0; j < bytes.length; j++) bytes[j] = rnd() * 256;
    texts.push(snapshotJson(bytes), snapshotJson(bytes, 46 + 256));
  }
  for (let i = 0; i < 20; i++) {
    let s = "";
    const n = Math.floor(rnd() * 5000);
    for (let j = 0; j < n; j++) {
      s += String.fromCodePoint(Math.floor(rnd() * 0x10ffff) & ~0x800); // no lone surrogates
    }
    texts.push(JSON.stringify({ type: "snapshot", s }));
  }
  texts.push("", "{}");
  for (const text of texts) {
    assertEquals(await inflateMessage(deflateMessage(text)), text);
  }
});

Deno.test("deflate: the four bench streams (seq, ls colours, wrapped lines, CJK): exact, and frames 3x smaller at least", async () => {
  let seq = "", sgr = "", wrap = "", cjk = "";
  for (let i = 1; seq.length < 1_000_000; i++) seq += `${i}\r\n`;
  for (let i = 1; sgr.length < 1_000_000; i++) {
    sgr += `\x1b[0m\x1b[01;34mdir${i}\x1b[0m  \x1b[01;32mrun${i}.sh\x1b[0m\r\n`;
  }
  for (let i = 1; wrap.length < 1_000_000; i++) wrap += `${i} `.repeat(97);
  for (let i = 1; cjk.length < 300_000; i++) {
    cjk += "漢字かな交じり文 ".repeat(9) + "\r\n";
  }
  // Messages one after another, each inflated on its own.
  const frames = [seq, sgr, wrap, cjk].map((s) =>
    snapshotJson(enc.encode(s), 46 + 256)
  );
  const wholes = [seq, sgr, wrap, cjk].map((s) => snapshotJson(enc.encode(s)));
  const ms: number[] = [];
  const packed = [...frames, ...wholes].map((text) => {
    const t0 = performance.now();
    const z = deflateMessage(text);
    ms.push(performance.now() - t0);
    return z;
  });
  const back = await Promise.all(packed.map(inflateMessage));
  assertEquals(back, [...frames, ...wholes]);
  for (let i = 0; i < 4; i++) {
    const ratio = enc.encode(frames[i]).length / packed[i].length;
    console.log(
      `${["seq", "sgr", "wrap", "cjk"][i]}: frame ${frames[i].length} -> ${
        packed[i].length
      } (${ratio.toFixed(1)}x) ${ms[i].toFixed(1)} ms, whole ${
        wholes[i].length
      } -> ${packed[i + 4].length} ${ms[i + 4].toFixed(1)} ms`,
    );
    assert(ratio >= 3, `ratio ${ratio}`);
  }
});
