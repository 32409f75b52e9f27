/**
 * The xterm.js page of the end-to-end benchmark (bundled for the browser by
 * bench/e2e/bench.ts). It speaks domterm's WebSocket protocol
 * (docs/protocol.md) to the same domterm server, like domterm's own page:
 * hello with the key, binary frames both ways, and acks of processed
 * output in batches of 32 KiB plus one at the end of each burst, sent only
 * once xterm.js has parsed the bytes (its write callback). xterm.js draws
 * with its default DOM renderer.
 *
 * The URL fragment carries `key`, `cols` and `rows`.
 *
 * @module
 */
import { Terminal } from "@xterm/xterm";

const ACK_EVERY = 32 * 1024;

const params = new URLSearchParams(location.hash.slice(1));
const key = params.get("key") ?? "";
const cols = Number(params.get("cols") ?? 80);
const rows = Number(params.get("rows") ?? 24);
const scrollback = Number(params.get("scrollback") ?? 10_000);

const term = new Terminal({
  cols,
  rows,
  scrollback,
  // domterm's own default font stack (its stylesheet is on this page), so
  // that both terminals shape the same fonts.
  fontFamily: getComputedStyle(document.documentElement)
    .getPropertyValue("--dt-font-family").trim() ||
    '"DejaVu Sans Mono", monospace',
  fontSize: 14,
});
term.open(document.getElementById("terminal")!);

const ws = new WebSocket(`ws://${location.host}/ws`);
ws.binaryType = "arraybuffer";
const encoder = new TextEncoder();
let unacked = 0;
let ackTimer: ReturnType<typeof setTimeout> | 0 = 0;

function flushAck(): void {
  if (ackTimer) clearTimeout(ackTimer);
  ackTimer = 0;
  if (unacked > 0 && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: "ack", bytes: unacked }));
  }
  unacked = 0;
}

function processed(n: number): void {
  unacked += n;
  if (unacked >= ACK_EVERY) flushAck();
  else if (!ackTimer) ackTimer = setTimeout(flushAck, 0);
}

ws.onopen = () => {
  ws.send(JSON.stringify({ type: "hello", key, cols, rows }));
};
ws.onmessage = (ev) => {
  if (typeof ev.data === "string") return;
  const bytes = new Uint8Array(ev.data as ArrayBuffer);
  term.write(bytes, () => processed(bytes.length));
};
term.onData((s) => {
  if (ws.readyState === WebSocket.OPEN) ws.send(encoder.encode(s));
});
term.focus();

// Terminal: the core-only run of the benchmark makes one that is never
// opened (it parses, it does not draw).
Object.assign(globalThis, { xtermBench: { term, ws, Terminal } });
