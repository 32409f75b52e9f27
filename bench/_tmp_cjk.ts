import { Terminal } from "../core/emulator/terminal.ts";
import { cjkEmoji } from "./streams.ts";
const W = 8 << 20;
const buf = cjkEmoji(W).slice(0, W);
const t = new Terminal({ cols: 116, rows: 35, scrollback: 10000, skipHiddenOutput: true });
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  for (let i = 0; i < 4; i++) t.write(buf);
  const ms = performance.now() - t0;
  console.log("cjk", (ms / (4 * W / 1e6)).toFixed(2), "ms/MB");
}
