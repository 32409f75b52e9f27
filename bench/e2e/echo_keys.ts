/**
 * The key-echo program of `bench/e2e/screen_bench.ts`, run in each
 * terminal: raw mode, on the screen's last row it shows `echo-ready`, then
 * for each of COUNT input bytes redraws that row as `key N c` (as a line
 * editor echoes what was typed), then restores the tty and exits.
 *
 * Usage: deno run bench/e2e/echo_keys.ts COUNT
 *
 * @module
 */
const count = Number(Deno.args[0] ?? 50);
const enc = new TextEncoder();
const out = async (s: string) => {
  const b = enc.encode(s);
  let off = 0;
  while (off < b.length) off += await Deno.stdout.write(b.subarray(off));
};
const rows = Deno.consoleSize().rows;
Deno.stdin.setRaw(true);
try {
  await out(`\x1b[${rows};1H\x1b[2Kecho-ready`);
  const buf = new Uint8Array(64);
  let i = 0;
  while (i < count) {
    const n = await Deno.stdin.read(buf);
    if (n === null) break;
    for (let k = 0; k < n && i < count; k++, i++) {
      await out(`\r\x1b[2Kkey ${i} ${String.fromCharCode(buf[k])}`);
    }
  }
} finally {
  Deno.stdin.setRaw(false);
}
