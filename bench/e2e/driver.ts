/**
 * The program the end-to-end benchmark runs inside the terminal (on the
 * PTY). It takes orders from the benchmark over a Unix socket (one JSON
 * object per line) and answers likewise:
 *
 * - `{op:"run", stream, bytes, marker}`: write `bytes` of the stream to the
 *   terminal, then a line holding `marker` alone; answers `{ms}` (the time
 *   the writes took) once the last byte is written. The benchmark clocks
 *   the run in the page, by when the window draws the marker: the server's
 *   emulator answers queries such as CPR itself, so a reply would not say
 *   that the window has processed anything.
 * - `{op:"command", command, bytes, marker}`: the same for a shell command
 *   run with the terminal's normal modes (cooked, `onlcr`), e.g.
 *   `yes | head -c BYTES`; `BYTES` in the command is replaced.
 * - `{op:"echo", count, row}`: move to screen row `row`, answer `{ready}`,
 *   then for each of `count` input bytes redraw that row as `key N c`
 *   (like a line editor echoing what was typed); answers `{done}`.
 * - `{op:"quit"}`: exit.
 *
 * The stream is generated once per stream (a block of a few MB, repeated),
 * so the data source is never the bottleneck.
 *
 * Usage: deno run -A bench/e2e/driver.ts SOCKET_PATH
 *
 * @module
 */
import { e2eStream } from "./streams.ts";

/** Size of the block each stream repeats. */
const BLOCK = 4 * 1000 * 1000;
/** Bytes per write(2) on the PTY. */
const WRITE_CHUNK = 64 * 1024;

const encoder = new TextEncoder();
const blocks = new Map<string, Uint8Array>();

async function writeAll(data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await Deno.stdout.write(data.subarray(off));
}

const inBuf = new Uint8Array(4096);
let pending = "";

/** Read terminal input until `re` matches; return the match, keep the rest. */
async function readUntil(re: RegExp): Promise<string> {
  for (;;) {
    const m = re.exec(pending);
    if (m) {
      pending = pending.slice(m.index + m[0].length);
      return m[0];
    }
    const n = await Deno.stdin.read(inBuf);
    if (n === null) throw new Error("terminal input closed");
    pending += new TextDecoder().decode(inBuf.subarray(0, n));
  }
}

/** One input character (from what is pending first). */
async function readChar(): Promise<string> {
  return await readUntil(/[\s\S]/);
}

/** The line that ends a run: what the benchmark waits to see drawn. */
function markerLine(marker: string): Uint8Array {
  return encoder.encode(`\x1b[0m\r\n${marker}\r\n`);
}

async function run(
  stream: string,
  bytes: number,
  marker: string,
): Promise<number> {
  let block = blocks.get(stream);
  if (!block) {
    block = e2eStream(stream).block(BLOCK);
    blocks.set(stream, block);
  }
  const t0 = performance.now();
  let left = bytes, off = 0;
  while (left > 0) {
    const n = Math.min(WRITE_CHUNK, left, block.length - off);
    await writeAll(block.subarray(off, off + n));
    left -= n;
    off = (off + n) % block.length;
  }
  await writeAll(markerLine(marker));
  return performance.now() - t0;
}

/** Run `command` (`BYTES` replaced) under sh with normal tty modes. */
async function runCommand(
  command: string,
  bytes: number,
  marker: string,
): Promise<number> {
  const t0 = performance.now();
  Deno.stdin.setRaw(false);
  try {
    const status = await new Deno.Command("sh", {
      args: ["-c", command.replaceAll("BYTES", String(bytes))],
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    if (!status.success) throw new Error(`${command}: exit ${status.code}`);
  } finally {
    Deno.stdin.setRaw(true);
  }
  await writeAll(markerLine(marker));
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const path = Deno.args[0];
  if (!path) throw new Error("usage: driver.ts SOCKET_PATH");
  Deno.stdin.setRaw(true);
  const conn = await Deno.connect({ transport: "unix", path });
  const reply = (o: unknown) =>
    conn.write(encoder.encode(JSON.stringify(o) + "\n"));
  const lines = conn.readable.pipeThrough(new TextDecoderStream());
  let buf = "";
  for await (const text of lines) {
    buf += text;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const cmd = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      switch (cmd.op) {
        case "run":
          await reply({ ms: await run(cmd.stream, cmd.bytes, cmd.marker) });
          break;
        case "command":
          await reply({
            ms: await runCommand(cmd.command, cmd.bytes, cmd.marker),
          });
          break;
        case "echo": {
          await writeAll(encoder.encode(`\x1b[${cmd.row};1H\x1b[2K`));
          await reply({ ready: true });
          for (let i = 0; i < cmd.count; i++) {
            const c = await readChar();
            await writeAll(encoder.encode(`\r\x1b[2Kkey ${i} ${c}`));
          }
          await reply({ done: true });
          break;
        }
        case "quit":
          await reply({ bye: true });
          conn.close();
          return;
      }
    }
  }
}

await main();
