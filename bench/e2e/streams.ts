/**
 * The output streams of the end-to-end benchmark: what a user's programs
 * really print. Each generator returns a block of whole lines (so repeating
 * the block never cuts an escape or UTF-8 sequence); the PTY program
 * (`driver.ts`) writes the block over and over until the requested size.
 *
 * @module
 */
import { cjkEmoji, DEFAULT_SEED, plainAscii, Prng } from "../streams.ts";

/** One stream of the end-to-end benchmark. */
export interface E2eStream {
  name: string;
  description: string;
  /**
   * A deterministic block of about `size` bytes of whole lines: what the
   * terminal receives (for a command: after the tty's `onlcr`).
   */
  block(size: number): Uint8Array;
  /**
   * A shell command that writes the stream instead (`BYTES`: the size),
   * run with the terminal's normal modes; otherwise the driver writes
   * `block` itself.
   */
  command?: string;
  /** Bytes the terminal receives per byte the program writes (default 1). */
  expansion?: number;
}

const encoder = new TextEncoder();

/** Lines from `line(rng)` until `size` bytes, encoded once. */
function lines(size: number, line: (rng: Prng) => string): Uint8Array {
  const rng = new Prng(DEFAULT_SEED);
  const parts: string[] = [];
  let bytes = 0;
  while (bytes < size) {
    const s = line(rng);
    parts.push(s);
    bytes += s.length; // close enough: the streams below are ASCII
  }
  return encoder.encode(parts.join(""));
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug"];
const NAMES = [
  "main",
  "server",
  "client",
  "README",
  "index",
  "config",
  "build",
  "test_utils",
  "renderer",
  "session",
  "libfoo.so.1",
  "node_modules",
  "photo_2024",
  "archive",
];
/** `ls --color` colours (GNU's default LS_COLORS) by kind. */
const KINDS: { mode: string; color: string; ext: string[] }[] = [
  { mode: "drwxr-xr-x", color: "01;34", ext: [""] },
  { mode: "-rw-r--r--", color: "", ext: [".ts", ".md", ".json", ".txt"] },
  { mode: "-rwxr-xr-x", color: "01;32", ext: ["", ".sh"] },
  { mode: "-rw-r--r--", color: "01;31", ext: [".tar.gz", ".zip", ".deb"] },
  { mode: "-rw-r--r--", color: "01;35", ext: [".png", ".jpg"] },
  { mode: "lrwxrwxrwx", color: "01;36", ext: [""] },
];

/** One line of `ls -l --color=always`. */
function lsLine(rng: Prng): string {
  if (rng.chance(0.03)) return `total ${rng.int(8, 99999)}\r\n`;
  const k = rng.pick(KINDS);
  const name = rng.pick(NAMES) + (rng.chance(0.3) ? rng.int(1, 99) : "") +
    rng.pick(k.ext);
  const size = String(rng.int(0, 9_999_999)).padStart(8);
  const date = `${rng.pick(MONTHS)} ${String(rng.int(1, 28)).padStart(2)} ${
    rng.chance(0.7)
      ? `${rng.int(10, 23)}:${rng.int(10, 59)}`
      : ` ${rng.int(2015, 2025)}`
  }`;
  const shown = k.color ? `\x1b[${k.color}m${name}\x1b[0m` : name;
  const link = k.mode[0] === "l" ? ` -> ${rng.pick(NAMES)}` : "";
  return `${k.mode} ${
    rng.int(1, 40)
  } alice staff ${size} ${date} ${shown}${link}\r\n`;
}

const WORDS = (
  "the quick brown fox jumps over lazy dog error warning note compiling " +
  "linking src/main.rs:42:7 expected type found struct Vec<String> " +
  "SELECT id, name FROM users WHERE created_at > now() - interval '1 day'"
).split(" ");

/** A long line (200-3000 columns) that wraps over several rows. */
function longLine(rng: Prng): string {
  const len = rng.int(200, 3000);
  let s = "";
  while (s.length < len) s += rng.pick(WORDS) + " ";
  return s.slice(0, len) + "\r\n";
}

/** The streams, in report order. */
export const E2E_STREAMS: readonly E2eStream[] = [
  {
    name: "plain",
    description: "log lines, 0-120 columns",
    block: (size) => plainAscii(size),
  },
  {
    name: "ls",
    description: "`ls -l --color` lines",
    block: (size) => lines(size, lsLine),
  },
  {
    name: "wrap",
    description: "long lines, 200-3000 columns, wrapping",
    block: (size) => lines(size, longLine),
  },
  {
    name: "cjk",
    description: "CJK, emoji, combining marks, mixed with ASCII",
    block: (size) => cjkEmoji(size),
  },
  {
    name: "yes",
    description: "`yes | head -c BYTES` through sh, normal tty modes",
    block: (size) => encoder.encode("y\r\n".repeat(Math.ceil(size / 3))),
    command: "yes | head -c BYTES",
    expansion: 1.5,
  },
];

/** The streams run when none is named (`yes` is asked for by name). */
export const DEFAULT_E2E_STREAMS = ["plain", "ls", "wrap", "cjk"];

/** The stream called `name`; throws listing the names if there is none. */
export function e2eStream(name: string): E2eStream {
  const s = E2E_STREAMS.find((x) => x.name === name);
  if (!s) {
    throw new Error(
      `unknown stream '${name}' (one of: ${
        E2E_STREAMS.map((x) => x.name).join(", ")
      })`,
    );
  }
  return s;
}
