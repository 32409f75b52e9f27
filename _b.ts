import { Terminal } from "./core/emulator/terminal.ts";
const enc = new TextEncoder();
let s = ""; const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
for (let i = 0; i < 10000; i++) { let l = ""; for (let k = 0; k < 76; k++) l += chars[(i * 7 + k * 13) % 64]; s += l + "\r\n"; }
const block = enc.encode(s); // ~780 KB
for (const compact of [false, true, false, true, false, true]) {
  const t = new Terminal({ cols: 80, rows: 24, scrollback: 10000 });
  const t0 = performance.now();
  let bytes = 0;
  for (let r = 0; r < 26; r++) for (let o = 0; o < block.length; o += 65536) { const c = block.subarray(o, o + 65536); t.write(c); bytes += c.length; if (compact) t.normalBuffer.compactHistory(); }
  const ms = performance.now() - t0;
  console.log(compact ? "compact" : "plain  ", (ms / (bytes / 1e6)).toFixed(1), "ms/MB");
}
