/**
 * The benchmark stream generators are deterministic, reach the requested
 * size, are valid UTF-8, end on a whole unit, and contain what they claim.
 *
 * @module
 */
// The regular expressions below match escape sequences on purpose.
// deno-lint-ignore-file no-control-regex
import { assert, assertEquals } from "../assert.ts";
import { Prng, STREAMS } from "../../bench/streams.ts";

const SIZE = 200_000;
const strict = new TextDecoder("utf-8", { fatal: true });

/** Byte-wise equality without a slow deep comparison of huge arrays. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

Deno.test("Prng is deterministic and stays in range", () => {
  const a = new Prng(42), b = new Prng(42), c = new Prng(43);
  const xs = Array.from({ length: 100 }, () => a.nextU32());
  assertEquals(Array.from({ length: 100 }, () => b.nextU32()), xs);
  assert(c.nextU32() !== xs[0]);
  const r = new Prng(0);
  for (let i = 0; i < 10_000; i++) {
    const v = r.int(3, 7);
    assert(v >= 3 && v <= 7 && Number.isInteger(v));
  }
});

for (const spec of STREAMS) {
  Deno.test(`stream ${spec.name}: deterministic, >= size, valid UTF-8`, () => {
    const a = spec.generate(SIZE);
    const b = spec.generate(SIZE);
    assert(a.length >= SIZE, `${a.length} < ${SIZE}`);
    assert(a.length < SIZE + 256 * 1024, `overshoot ${a.length - SIZE}`);
    assert(sameBytes(a, b), "two runs differ");
    const other = spec.generate(SIZE, 1234);
    assert(!sameBytes(a.subarray(0, 1000), other.subarray(0, 1000)));
    const text = strict.decode(a); // throws on invalid UTF-8
    // A prefix of a longer stream is the shorter stream: same unit sequence.
    const longer = spec.generate(2 * SIZE);
    assert(sameBytes(a, longer.subarray(0, a.length)));
    // Whole units: no escape sequence cut at the end.
    assert(!/\x1b(\[[0-9;:?]*)?$/.test(text), "ends inside an escape");
  });
}

Deno.test("streams contain their defining features", () => {
  const get = (name: string) =>
    strict.decode(STREAMS.find((s) => s.name === name)!.generate(SIZE));
  const ascii = get("ascii");
  assert(/^[\x20-\x7e\r\n]*$/.test(ascii), "ascii: printable + CRLF only");
  assert(!/[^\r]\n/.test(ascii), "ascii: every LF follows CR");
  const lens = ascii.split("\r\n").map((l) => l.length);
  assert(Math.max(...lens) <= 120 && lens.includes(0));
  const sgr = get("sgr");
  for (const re of [/\x1b\[3[0-7]m/, /\x1b\[[34]8;5;\d+m/, /\x1b\[[34]8;2;/]) {
    assert(re.test(sgr), `sgr: missing ${re}`);
  }
  assert(/\x1b\[01;34m/.test(sgr) && /error: /.test(sgr));
  const cursor = get("cursor");
  for (const re of [/\x1b\[\d+;\d+H/, /\x1b\[[012]?K/, /\x1b\[[01]?J/]) {
    assert(re.test(cursor), `cursor: missing ${re}`);
  }
  const region = get("region");
  assert(/\x1b\[\d+;\d+r/.test(region) && /\x1bM/.test(region));
  assert(/\x1b\[\dL/.test(region) && /\x1b\[\dM/.test(region));
  const cjk = get("cjk");
  assert(/\p{Script=Han}/u.test(cjk) && /\p{Script=Hangul}/u.test(cjk));
  assert(/\u200d/.test(cjk) && /\p{Extended_Pictographic}/u.test(cjk));
  assert(/\p{M}/u.test(cjk), "cjk: combining marks");
});
