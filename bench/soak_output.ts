/**
 * The program of the renderer soak (bench/renderer_soak_bench.ts): prints
 * about `--rate` bytes a second of mixed output, in ten writes a second,
 * until `--secs` have passed, then `SOAK-DONE` and sleeps.
 *
 * What it prints, cycling: log lines in the 16 colours, 256 colours and
 * truecolor (several style runs each), lines longer than the screen
 * (wrapped), `ls`-like lines with OSC 8 links, and now and then a small PNG
 * (OSC 1337 `File=`) or an HTML fragment (OSC 72), so the renderer's rows,
 * links, images and embeds all keep coming and going out of the history.
 *
 *   deno run bench/soak_output.ts [--rate 80000] [--secs 300] [--embeds 1]
 *
 * @module
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    rate: { type: "string", default: "80000" },
    secs: { type: "string", default: "300" },
    embeds: { type: "string", default: "1" },
  },
});
const RATE = Number(values.rate);
const SECS = Number(values.secs);
const EMBEDS = values.embeds !== "0";

/** A 2x2 PNG (red, green, blue, white), base64. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAAMIM/4EAAB/uBfsL2WiLAAAAAElFTkSuQmCC";

const WORDS = [
  "request",
  "served",
  "cache",
  "miss",
  "worker",
  "session",
  "flush",
  "render",
  "commit",
  "backend",
  "timeout",
  "retry",
];

let n = 0;

function word(i: number): string {
  return WORDS[(i * 7 + n) % WORDS.length];
}

/** One line of output (with its CR LF), cycling through the kinds. */
function line(): string {
  n++;
  const k = n % 10;
  const ts = `2026-12-07T15:${String(n % 60).padStart(2, "0")}:00.${
    String(n % 1000).padStart(3, "0")
  }`;
  if (k < 4) {
    // 16 colours, several runs.
    return `\x1b[2m${ts}\x1b[0m \x1b[3${1 + n % 6}mINFO\x1b[0m ${word(1)} ` +
      `\x1b[1m${word(2)}\x1b[0m id=${n} \x1b[4m${word(3)}\x1b[24m ok\r\n`;
  }
  if (k < 6) {
    // 256 colours and truecolor.
    return `\x1b[38;5;${n % 256}m${word(4)}\x1b[0m ` +
      `\x1b[38;2;${n % 256};${(n * 3) % 256};${(n * 7) % 256}m${word(5)} ${
        word(6)
      }\x1b[48;5;${(n + 17) % 256}m ${n} \x1b[0m\r\n`;
  }
  if (k < 8) {
    // A line of about 2.5 screen widths: wrapped.
    const parts: string[] = [];
    for (let i = 0; i < 30; i++) parts.push(word(i));
    return `${n}: ${parts.join(" ")}\r\n`;
  }
  // ls-like, with OSC 8 links.
  const name = `${word(7)}_${n}.txt`;
  return `-rw-r--r-- 1 user user ${n * 13 % 100000} Dec  7 ` +
    `\x1b]8;;file:///tmp/soak/${name}\x1b\\\x1b[34m${name}\x1b[0m\x1b]8;;\x1b\\` +
    `  \x1b]8;;https://example.com/${n}\x1b\\link ${n}\x1b]8;;\x1b\\\r\n`;
}

/** Every 200th chunk an image, every 300th an HTML fragment (when on). */
function embed(chunk: number): string {
  if (!EMBEDS) return "";
  if (chunk % 200 === 0) {
    return `\x1b]1337;File=name=${
      btoa(`dot${chunk}.png`)
    };inline=1;width=4;height=2:${PNG}\x07\r\n`;
  }
  if (chunk % 300 === 150) {
    return `\x1b]72;<div style="color:teal"><b>chunk ${chunk}</b>: ` +
      `<i>an HTML fragment</i> <span>with a few elements</span></div>\x07\r\n`;
  }
  return "";
}

const enc = new TextEncoder();
const PER_TICK = Math.round(RATE / 10);
const start = performance.now();
let chunk = 0;
let written = 0;
while (performance.now() - start < SECS * 1000) {
  chunk++;
  let s = embed(chunk);
  while (s.length < PER_TICK) s += line();
  const bytes = enc.encode(s);
  let off = 0;
  while (off < bytes.length) {
    off += await Deno.stdout.write(bytes.subarray(off));
  }
  written += bytes.length;
  // Keep the average rate: sleep until this tick's time.
  const due = start + chunk * 100;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
await Deno.stdout.write(
  enc.encode(`\r\nSOAK-DONE ${written} bytes in ${chunk} writes\r\n`),
);
await new Promise((r) => setTimeout(r, 3_600_000));
