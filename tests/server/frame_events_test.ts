/**
 * server/frame_events.ts: the events a window fed frames is sent are those
 * a page's emulator would have reported for the same bytes, in the same
 * order, whatever the chunking: random streams of text, escape sequences,
 * strings ended by BEL or ST or aborted (CAN, SUB, ESC), C1 controls, and
 * the bell, notifications, clipboard writes and the pager's switch.
 */
import { assertEquals } from "../assert.ts";
import { EventTap } from "../../server/frame_events.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalEvent } from "../../core/terminal_view.ts";

const KINDS = new Set(["bell", "notify", "clipboard", "pager"]);

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const PIECES = [
  "plain text ",
  "日本語 ",
  "\r\n",
  "\x07",
  "\x1b[31m",
  "\x1b[1;2",
  "\x07",
  "m",
  "\x1b]9;hello\x07",
  "\x1b]9;4;1;50\x07",
  "\x1b]777;notify;Title;Body\x1b\\",
  "\x1b]99;i=1:d=0;part one\x1b\\",
  "\x1b]99;i=1:p=body;and two\x07",
  `\x1b]52;c;${btoa("copied")}\x07`,
  "\x1b]52;c;?\x07",
  "\x1b]2;a title with \x07",
  "\x1b]0;unterminated",
  "\x18",
  "\x1a",
  "\x1bP1$qm\x07more\x1b\\",
  "\x1b_apc \x07 payload\x1b\\",
  "\x1b^pm\x1b\\",
  "\x1b[92;1u",
  "\x1b[92;2u",
  "\x1b[?92;1u",
  "\u009d9;c1 note\u009c",
  "\u0090dcs\u009c",
  "\x1b",
  "\x1b[",
];

function key(e: TerminalEvent): string {
  return JSON.stringify(e);
}

Deno.test("frame events: the tap reports what a page's emulator would, in order, at any chunking", () => {
  const encoder = new TextEncoder();
  const seen = new Set<string>();
  for (let seed = 1; seed <= 200; seed++) {
    const r = rng(seed);
    let text = "";
    for (let i = 0; i < 200; i++) {
      text += PIECES[Math.floor(r() * PIECES.length)];
    }
    const bytes = encoder.encode(text);
    const expected: string[] = [];
    const term = new Terminal({
      cols: 80,
      rows: 24,
      reply: () => {},
      onEvent: (e) => {
        if (KINDS.has(e.type)) expected.push(key(e));
      },
    });
    term.write(bytes);
    const tap = new EventTap();
    const got: string[] = [];
    for (let at = 0; at < bytes.length;) {
      const n = 1 + Math.floor(r() * 40);
      for (const e of tap.feed(bytes.subarray(at, at + n))) got.push(key(e));
      at += n;
    }
    assertEquals(got, expected, `seed ${seed}: ${JSON.stringify(text)}`);
    for (const e of got) seen.add(JSON.parse(e).type);
  }
  // Every kind came up.
  assertEquals([...seen].sort(), [...KINDS].sort());
});
