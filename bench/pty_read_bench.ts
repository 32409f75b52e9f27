/**
 * The floor under every flood: how fast this server's PTY read path
 * (server/pty/pty.ts, nothing else: no WebSocket, no emulator) takes the
 * output of a program on a real PTY with normal tty modes. `yes` writes
 * 2-byte lines, which the line discipline turns into 3 (`onlcr`); the master
 * hands out at most about 4 KiB per read, so a reader that is faster than
 * the kernel gets many small reads.
 *
 * Run: `deno run -A bench/pty_read_bench.ts [--mb N] [--command CMD]`
 * (default: `yes | head -c 50000000`, the figure issue 16 names). Prints the
 * time, MB/s of terminal bytes, the number of reads and their mean size.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Pty } from "../server/pty/pty.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "50" },
    command: { type: "string" },
    runs: { type: "string", default: "3" },
  },
});
const bytes = Math.round(Number(values.mb) * 1e6);
const command = values.command ?? `yes | head -c ${bytes}`;

for (let r = 0; r < Number(values.runs); r++) {
  const pty = Pty.spawn({
    command: "/bin/sh",
    args: ["-c", command],
    cols: 116,
    rows: 35,
  });
  const t0 = performance.now();
  let total = 0, reads = 0;
  for (;;) {
    const chunk = await pty.read();
    if (chunk === null) break;
    total += chunk.length;
    reads++;
  }
  const s = (performance.now() - t0) / 1000;
  await pty.close();
  console.log(
    `${command}: ${(total / 1e6).toFixed(1)} MB of terminal bytes in ${
      s.toFixed(2)
    } s, ${(total / 1e6 / s).toFixed(1)} MB/s, ${reads} reads of ${
      (total / reads).toFixed(0)
    } bytes on average`,
  );
}
