/**
 * Shared helpers of the `domterm` subcommands: asking the controlling
 * terminal whether it is domterm, argument parsing, output and errors.
 *
 * @module
 */
import { DA2_TERMINAL_TYPE } from "../../core/emulator/replies.ts";

/** How long to wait for the terminal's DA2 reply. */
export const QUERY_TIMEOUT_MS = 500;
/** Largest HTML or image accepted (stdin, file or URL). */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export { CommandError, UsageError } from "../cli/errors.ts";
import { CommandError } from "../cli/errors.ts";

/** The outcome of {@linkcode queryDomterm}: `reason` says why not (or what answered). */
export interface DomtermCheck {
  ok: boolean;
  reason: string;
}

/** Matches domterm's DA2 reply (`DA2_REPLY`): `CSI > 990 ; version ; 0 c`. */
const DOMTERM_DA2 = new RegExp(`\x1b\\[>${DA2_TERMINAL_TYPE};\\d+;\\d+c`);
/** Any complete DA2 reply (so a non-domterm answer ends the wait early). */
// deno-lint-ignore no-control-regex
const ANY_DA2 = /\x1b\[>[\d;]*c/;

/**
 * Ask the terminal on standard input/output for its secondary device
 * attributes and tell whether it is domterm. The DOMTERM variable is not
 * trusted: it leaks into other terminals through ssh, su, tmux... The tty
 * is in raw mode only while waiting, so the reply is neither echoed nor
 * held back by line editing.
 */
export async function queryDomterm(
  timeoutMs = QUERY_TIMEOUT_MS,
): Promise<DomtermCheck> {
  if (!Deno.stdout.isTerminal()) {
    return { ok: false, reason: "standard output is not a terminal" };
  }
  // Read the reply from stdin when it is the terminal; else (e.g. input
  // piped into `domterm html`) from the controlling terminal directly.
  let input: Deno.FsFile | typeof Deno.stdin = Deno.stdin;
  let opened: Deno.FsFile | null = null;
  if (!Deno.stdin.isTerminal()) {
    try {
      opened = await Deno.open("/dev/tty", { read: true });
      input = opened;
    } catch {
      return {
        ok: false,
        reason:
          "standard input is not a terminal and /dev/tty cannot be opened",
      };
    }
  }
  try {
    input.setRaw(true);
  } catch (e) {
    opened?.close();
    return {
      ok: false,
      reason: `cannot set raw mode: ${(e as Error).message}`,
    };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await writeAll(encoder.encode("\x1b[>c"));
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const reply = (async () => {
      const buf = new Uint8Array(256);
      let text = "";
      for (;;) {
        const n = await input.read(buf);
        if (n === null) return text;
        text += decoder.decode(buf.subarray(0, n), { stream: true });
        if (ANY_DA2.test(text) || text.length > 4096) return text;
      }
    })().catch(() => "");
    const text = await Promise.race([reply, timeout]);
    if (text === null) {
      return { ok: false, reason: "the terminal did not answer the DA2 query" };
    }
    if (DOMTERM_DA2.test(text)) {
      return { ok: true, reason: "the terminal identifies itself as domterm" };
    }
    return {
      ok: false,
      reason: `the terminal answered ${
        JSON.stringify(text)
      }, not domterm's DA2`,
    };
  } finally {
    clearTimeout(timer);
    try {
      input.setRaw(false);
    } catch {
      // the terminal went away; nothing to restore
    }
    // A read may still be pending on a silent terminal; the process exits
    // right after, so it is simply abandoned (closing stdin is not ours).
    if (opened) {
      try {
        opened.close();
      } catch {
        // already closed
      }
    }
  }
}

/**
 * Unless `force`, throws a CommandError when standard output is not a
 * domterm terminal, so escape sequences never end up in a file or another
 * terminal as garbage.
 */
export async function requireDomterm(force: boolean): Promise<void> {
  if (force) return;
  const check = await queryDomterm();
  if (!check.ok) {
    throw new CommandError(
      "standard output is not a domterm terminal (use --force to print anyway)",
    );
  }
}

/** Write all of `bytes` (or a string as UTF-8) to standard output. */
export async function writeAll(data: Uint8Array | string): Promise<void> {
  let bytes = typeof data === "string" ? encoder.encode(data) : data;
  while (bytes.length) {
    const n = await Deno.stdout.write(bytes);
    bytes = bytes.subarray(n);
  }
}

/** Read a stream to the end, failing beyond `max` bytes. */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  what: string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > max) {
      throw new CommandError(
        `${what} is larger than ${max / (1024 * 1024)} MiB`,
      );
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Characters that would end (BEL, ESC, ST) or abort (CAN, SUB) an OSC string. */
// deno-lint-ignore no-control-regex
const OSC_BREAKERS = /[\x07\x18\x1a\x1b\x9c]/;

/**
 * `OSC 72 ; html BEL`. Throws a CommandError if `html` contains a
 * character that would end the sequence early: the rest would be run as
 * terminal output, and stripping silently could hide an ANSI-colored input.
 */
export function osc72(html: string, what: string): string {
  const m = OSC_BREAKERS.exec(html);
  if (m) {
    const code = m[0].charCodeAt(0).toString(16).padStart(2, "0");
    throw new CommandError(
      `${what} contains the control character U+00${code} at offset ${m.index}, which would end the escape sequence early (HTML cannot contain BEL, ESC, CAN, SUB or ST)`,
    );
  }
  return `\x1b]72;${html}\x07`;
}
