/**
 * Sequences dropped over their caps leave a trace: the parser tells its
 * handler (`oversized`) when such a string ends, also across a saved and
 * restored parser state; the emulator puts a notice where an image or HTML
 * would have been, and an iTerm2 image it refuses (too many pixels) says
 * why, instead of a silent blank.
 */
import { Parser, type ParserOptions } from "../../core/parser/parser.ts";
import type { ParserHandler } from "../../core/parser/handler.ts";
import { NOTICE_MIME } from "../../core/image_view.ts";
import { assertEquals, makeTerminal, screenLine } from "./helpers.ts";

const enc = new TextEncoder();
const OPTS: ParserOptions = { maxOsc: 16, maxLargeOsc: 32, maxDcs: 32 };

function recorder() {
  const calls: string[] = [];
  const h: ParserHandler = {
    print: () => {},
    execute: () => {},
    csi: () => {},
    esc: () => {},
    vt52: () => {},
    osc: (d) => calls.push(`osc ${d.length}`),
    dcs: (_p, _params, _i, f, payload) =>
      calls.push(`dcs ${String.fromCharCode(f)} ${payload.length}`),
    oversized: (kind, id, cap) => calls.push(`over ${kind} ${id} ${cap}`),
  };
  return { h, calls };
}

Deno.test("parser: a string over its cap is reported once, at its end", () => {
  const big = "A".repeat(100);
  const cases: [string, string[]][] = [
    // Under the caps: dispatched, nothing reported.
    [`\x1b]1337;${"A".repeat(20)}\x07`, ["osc 25"]],
    // OSC 1337 and 72 are "large" (32 here), others 16.
    [`\x1b]1337;${big}\x07`, ["over osc 1337 32"]],
    [`\x1b]72;${big}\x1b\\`, ["over osc 72 32"]],
    [`\x1b]2;${big}\x07`, ["over osc 2 16"]],
    // A DCS payload: its final byte (q, sixel).
    [`\x1bPq${big}\x1b\\`, ["over dcs 113 32"]],
    // Aborted by CAN: not a drop over the cap's end, nothing said.
    [`\x1b]1337;${big}\x18`, []],
    // The next sequence is parsed as usual.
    [`\x1b]1337;${big}\x07\x1b]2;ok\x07`, ["over osc 1337 32", "osc 4"]],
  ];
  for (const [input, want] of cases) {
    for (const split of [input.length, 7, 1]) {
      const { h, calls } = recorder();
      const p = new Parser(h, OPTS);
      const b = enc.encode(input);
      for (let i = 0; i < b.length; i += split) {
        p.feed(b.subarray(i, i + split));
      }
      assertEquals(calls, want, `${JSON.stringify(input)} by ${split}`);
    }
  }
});

Deno.test("parser: the drop is still reported after the state moves to another parser", () => {
  const input = enc.encode(`\x1b]1337;${"A".repeat(100)}\x07`);
  for (const cut of [10, 40, 90]) {
    const a = recorder();
    const p = new Parser(a.h, OPTS);
    p.feed(input.subarray(0, cut));
    const b = recorder();
    const q = new Parser(b.h, OPTS);
    q.restoreState(JSON.parse(JSON.stringify(p.saveState())));
    q.feed(input.subarray(cut));
    assertEquals([...a.calls, ...b.calls], ["over osc 1337 32"], `cut ${cut}`);
  }
  // A payload kept by a parser with larger caps, restored into one with
  // smaller caps: dropped there, and said.
  const a = recorder();
  const p = new Parser(a.h, { maxLargeOsc: 1000 });
  p.feed(input.subarray(0, 60));
  const b = recorder();
  const q = new Parser(b.h, OPTS);
  q.restoreState(p.saveState());
  q.feed(input.subarray(60));
  assertEquals(b.calls, ["over osc 1337 32"]);
});

/** The notices on the normal screen's block lines. */
function notices(t: ReturnType<typeof makeTerminal>): string[] {
  const out: string[] = [];
  for (let y = 0; y < t.term.rows; y++) {
    const img = screenLine(t.term, y).extras?.block?.image;
    if (img?.mime === NOTICE_MIME) out.push(img.name);
  }
  return out;
}

/** Base64 of a PNG header (signature and IHDR) declaring `w` x `h`. */
function pngHeader(w: number, h: number): string {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  b.set(enc.encode("IHDR"), 12);
  new DataView(b.buffer).setUint32(16, w);
  new DataView(b.buffer).setUint32(20, h);
  b.set([8, 6, 0, 0, 0], 24);
  return btoa(String.fromCharCode(...b));
}

Deno.test("emulator: an image or HTML over the cap, or refused, leaves a notice", () => {
  const t = makeTerminal(80, 24);
  // 9 MiB of base64: past the 8 MiB cap of OSC 1337.
  t.term.write(`\x1b]1337;File=inline=1:${"A".repeat(9 << 20)}\x07after`);
  assertEquals(notices(t), [
    "image (OSC 1337) not shown: larger than the 8 MiB a sequence may carry",
  ]);
  assertEquals(screenLine(t.term, 1).toString().trimEnd(), "after");
  // 30000 x 30000 pixels declared: refused, and said.
  t.term.write(`\r\n\x1b]1337;File=inline=1:${pngHeader(30000, 30000)}\x07`);
  assertEquals(
    notices(t)[1],
    "image not shown: File=: 30000x30000 pixels is more than the 50000000 allowed",
  );
  // A sixel past the DCS cap.
  t.term.write(`\x1bPq${"~".repeat(9 << 20)}\x1b\\`);
  assertEquals(
    notices(t)[2],
    "sixel image not shown: larger than the 8 MiB a sequence may carry",
  );
  // Other sequences over their caps stay silent (a title, a clipboard write).
  t.term.write(`\x1b]2;${"T".repeat(1 << 20)}\x07`);
  assertEquals(notices(t).length, 3);
});
