/**
 * Record what a program writes to a terminal: run it in our real PTY
 * (server/pty) at a given size, answer its queries with the real emulator
 * (core), type scripted keys, and save every byte it wrote to a file. The
 * captures in tests/fixtures/captures/ come from here and feed the fuzz
 * tests.
 *
 * ```
 * deno run -A scripts/capture.ts [--cols 80] [--rows 24] [--timeout 10000]
 *     [--key DELAY_MS:TEXT]... OUT.bin -- COMMAND [ARGS...]
 * ```
 *
 * Each `--key` waits DELAY_MS milliseconds and then types TEXT, in which
 * `\r`, `\n`, `\t`, `\e` (ESC), `\xHH` and `\\` are escapes. After the last
 * key the program gets until it exits, at most `--timeout` ms (then it is
 * hung up). Output past 4 MiB is not kept.
 *
 * @module
 */
import { Pty } from "../server/pty/pty.ts";
import { Terminal } from "../core/emulator/terminal.ts";

/** Output kept at most. */
const MAX_BYTES = 4 * 1024 * 1024;

interface KeyStep {
  delayMs: number;
  text: string;
}

interface Options {
  cols: number;
  rows: number;
  timeoutMs: number;
  keys: KeyStep[];
  out: string;
  command: string[];
}

/** Resolve `\r \n \t \e \xHH \\` in a key script. */
export function unescapeKeys(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|[rnte\\])/g, (_, e: string) => {
    switch (e[0]) {
      case "r":
        return "\r";
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "e":
        return "\x1b";
      case "x":
        return String.fromCharCode(parseInt(e.slice(1), 16));
      default:
        return "\\";
    }
  });
}

function usage(message: string): never {
  console.error(`capture: ${message}`);
  console.error(
    "usage: capture.ts [--cols N] [--rows N] [--timeout MS] " +
      "[--key DELAY_MS:TEXT]... OUT.bin -- COMMAND [ARGS...]",
  );
  Deno.exit(2);
}

function positiveInt(v: string | undefined, what: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) usage(`${what} wants a positive integer`);
  return n;
}

/** Parse the command line (exits with a usage message on errors). */
export function parseArgs(argv: string[]): Options {
  const o: Options = {
    cols: 80,
    rows: 24,
    timeoutMs: 10_000,
    keys: [],
    out: "",
    command: [],
  };
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") break;
    if (a === "--cols") o.cols = positiveInt(argv[++i], a);
    else if (a === "--rows") o.rows = positiveInt(argv[++i], a);
    else if (a === "--timeout") o.timeoutMs = positiveInt(argv[++i], a);
    else if (a === "--key") {
      const v = argv[++i] ?? "";
      const m = /^([0-9]+):(.*)$/s.exec(v);
      if (!m) usage(`--key wants DELAY_MS:TEXT, got ${JSON.stringify(v)}`);
      o.keys.push({ delayMs: Number(m[1]), text: unescapeKeys(m[2]) });
    } else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else if (o.out === "") o.out = a;
    else usage(`unexpected argument ${a}`);
  }
  o.command = argv.slice(i + 1);
  if (o.out === "") usage("no output file");
  if (o.command.length === 0) usage("no command after --");
  return o;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run the capture; resolves to the bytes written to `o.out`. */
export async function capture(o: Options): Promise<number> {
  const env = {
    ...Deno.env.toObject(),
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    LANG: Deno.env.get("LANG") || "C.UTF-8",
  };
  const pty = Pty.spawn({
    command: o.command[0],
    args: o.command.slice(1),
    env,
    cols: o.cols,
    rows: o.rows,
  });
  // The emulator answers DA, CPR, DECRQM ... as domterm would.
  const term = new Terminal({
    cols: o.cols,
    rows: o.rows,
    reply: (data) => void pty.write(data).catch(() => {}),
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reading = (async () => {
    for (;;) {
      const data = await pty.read();
      if (data === null) return;
      term.write(data);
      if (total + data.length <= MAX_BYTES) {
        chunks.push(data);
        total += data.length;
      }
    }
  })();
  for (const k of o.keys) {
    await sleep(k.delayMs);
    await pty.write(k.text).catch(() => {});
  }
  const done = await Promise.race([
    reading.then(() => true),
    sleep(o.timeoutMs).then(() => false),
  ]);
  if (!done) pty.kill("SIGHUP");
  await pty.close();
  await reading.catch(() => {});
  const out = new Uint8Array(total);
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.length;
  }
  await Deno.writeFile(o.out, out);
  return total;
}

if (import.meta.main) {
  const o = parseArgs(Deno.args);
  try {
    const n = await capture(o);
    console.log(`capture: ${n} bytes from ${o.command.join(" ")} -> ${o.out}`);
  } catch (e) {
    console.error(`capture: ${e instanceof Error ? e.message : e}`);
    Deno.exit(1);
  }
}
