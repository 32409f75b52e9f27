/**
 * Emulator throughput through `Terminal.write` (parser + emulator).
 *
 *   deno bench bench/emulator_bench.ts      (time per 1 MiB write)
 *   deno run bench/emulator_bench.ts        (prints MB/s per workload)
 *
 * @module
 */
import { Terminal } from "../core/emulator/terminal.ts";

const SIZE = 1 << 20;
const enc = new TextEncoder();

/** Repeat `make(i)` until the text reaches SIZE bytes. */
function build(make: (i: number) => string): Uint8Array {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < SIZE; i++) {
    const s = make(i);
    parts.push(s);
    n += enc.encode(s).length;
  }
  return enc.encode(parts.join(""));
}

const words = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "epsilon",
  "zeta",
  "eta",
  "theta",
];

/** Workloads: name -> bytes. */
export const workloads: Record<string, Uint8Array> = {
  "plain ASCII lines": build((i) =>
    `${
      i.toString().padStart(6)
    } The quick brown fox jumps over the lazy dog; lorem ipsum dolor.\r\n`
  ),
  "SGR-coloured output": build((i) =>
    words.map((w, k) =>
      `\x1b[${k % 2 ? "01;" : ""}${31 + ((i + k) % 7)}m${w}\x1b[0m \x1b[38;5;${
        (i + k) % 256
      }m${k}\x1b[39m `
    ).join("") + `\x1b[38;2;${i % 256};100;200mrgb\x1b[m\r\n`
  ),
  "cursor-motion redraw": build((i) =>
    `\x1b[${(i % 24) + 1};${(i * 7) % 60 + 1}H\x1b[7m${
      words[i % 8]
    }\x1b[27m status ${i}\x1b[K` +
    (i % 24 === 23 ? "\x1b[H\x1b[2J" : "")
  ),
  "CJK text": build((i) =>
    `${i % 10} 中文字符测试终端模拟器日本語のテキスト한국어텍스트😀\r\n`
  ),
};

function newTerminal(): Terminal {
  return new Terminal({ cols: 80, rows: 24, scrollback: 10_000 });
}

for (const [name, bytes] of Object.entries(workloads)) {
  const term = newTerminal();
  Deno.bench(`${name} (${(bytes.length / SIZE).toFixed(2)} MiB)`, () => {
    term.write(bytes);
  });
}

if (import.meta.main) {
  for (const [name, bytes] of Object.entries(workloads)) {
    const term = newTerminal();
    for (let k = 0; k < 3; k++) term.write(bytes); // warm up
    const rounds = 20;
    const t0 = performance.now();
    for (let k = 0; k < rounds; k++) term.write(bytes);
    const ms = performance.now() - t0;
    const mbps = (bytes.length * rounds) / 1e6 / (ms / 1000);
    console.log(`${name.padEnd(24)} ${mbps.toFixed(1).padStart(7)} MB/s`);
  }
}
